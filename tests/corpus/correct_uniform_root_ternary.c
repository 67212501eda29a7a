// corpus: correct
// output-deterministic
// The root is chosen by a ternary on the size, so every rank agrees on it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, root, value;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    root = size > 2 ? 2 : 0;
    value = (rank == root) ? 77 : 0;
    MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == 0)
        printf("value %d\n", value);
    MPI_Finalize();
    return 0;
}
