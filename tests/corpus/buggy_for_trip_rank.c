// corpus: buggy
// A for loop runs `rank` times around an MPI_Barrier: rank 0 never enters it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < rank; i++) {  // expect-note: i < rank
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    printf("rank %d did %d barriers\n", rank, i);
    MPI_Finalize();
    return 0;
}
