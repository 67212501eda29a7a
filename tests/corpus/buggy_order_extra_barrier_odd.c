// corpus: buggy
// Odd ranks call one MPI_Barrier more than even ranks.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank % 2 == 1) {  // expect-note: rank % 2 == 1
        printf("rank %d: extra synchronisation\n", rank);
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    MPI_Finalize();
    return 0;
}
