// corpus: buggy
// The MPI_Barrier sits in the for-loop header's increment; the trip count is
// rank % 2 + 1, so odd ranks synchronise once more.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < rank % 2 + 1; i++, MPI_Barrier(MPI_COMM_WORLD)) {  // expect-warning: MPI_Barrier; expect-note: i < rank % 2 + 1
        printf("rank %d iteration %d\n", rank, i);
    }
    MPI_Finalize();
    return 0;
}
