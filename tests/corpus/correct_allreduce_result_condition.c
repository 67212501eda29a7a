// corpus: correct
// output-deterministic
// An MPI_Allreduce result is the same on every rank, so branching on it is safe.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, global = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = rank;
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (global > 0)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("global %d\n", global);
    MPI_Finalize();
    return 0;
}
