// corpus: correct
// output-deterministic
// A condition on the communicator size is the same on every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("size %d\n", size);
    MPI_Finalize();
    return 0;
}
