// corpus: correct
// output-deterministic
// Prefix reductions on every rank.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, one = 1, incl = 0, excl = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Scan(&one, &incl, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&one, &excl, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("scan %d\n", incl);
    MPI_Finalize();
    return 0;
}
