// corpus: correct
// output-deterministic
// argc is the same on every rank (mpiexec passes the same arguments).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1)
        MPI_Barrier(MPI_COMM_WORLD);
    else
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("argc %d y %d\n", argc, y > 0);
    MPI_Finalize();
    return 0;
}
