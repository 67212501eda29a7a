// corpus: buggy
// Rank 0 alone calls MPI_Barrier; the other ranks go straight to MPI_Finalize.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d starting\n", rank);
    if (rank == 0)                    // expect-note: rank == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    MPI_Finalize();
    return 0;
}
