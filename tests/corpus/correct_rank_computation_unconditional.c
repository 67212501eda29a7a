// corpus: correct
// output-deterministic
// Rank-dependent computation, then unconditional collectives.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i, local = 0, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = rank; i < 100; i += size)
        local += i;
    if (rank % 2)
        local *= 1;
    MPI_Reduce(&local, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum 0..99 = %d\n", total);
    MPI_Finalize();
    return 0;
}
