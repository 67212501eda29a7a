// corpus: correct
// output-deterministic
// Both arms run MPI_Bcast then MPI_Allreduce, in the same order, with
// different local data.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, cfg = 0, local, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {
        cfg = rank == 0 ? 9 : 0;
        MPI_Bcast(&cfg, 1, MPI_INT, 0, MPI_COMM_WORLD);
        local = cfg;
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&cfg, 1, MPI_INT, 0, MPI_COMM_WORLD);
        local = -cfg;
        MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("cfg %d\n", cfg);
    MPI_Finalize();
    return 0;
}
