// corpus: correct
// output-deterministic
// The MPI_Reduce result is only used on the root, for printing.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, local = 1, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(&local, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (total > 0)
        printf("reduced total equals size: %d\n", total == size);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
