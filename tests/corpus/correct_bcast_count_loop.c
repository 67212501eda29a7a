// corpus: correct
// output-deterministic
// The number of rounds is read on rank 0 and broadcast: the loop around
// MPI_Barrier has the same trip count on every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rounds = 0, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        rounds = 3;
    MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < rounds; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rounds %d\n", rounds);
    MPI_Finalize();
    return 0;
}
