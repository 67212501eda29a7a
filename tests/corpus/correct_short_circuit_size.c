// corpus: correct
// output-deterministic
// Short-circuit on a size condition: same truth value on every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, synced = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1 && MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS)
        synced = 1;
    if (rank == 0)
        printf("synced %d\n", synced);
    MPI_Finalize();
    return 0;
}
