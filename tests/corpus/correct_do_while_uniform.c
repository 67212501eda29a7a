// corpus: correct
// output-deterministic
// A do-while loop driven by a global convergence test (MPI_Allreduce result).
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, iter = 0;
    double err, maxerr;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    err = 1.0 + rank;
    do {
        err /= 2.0;
        MPI_Allreduce(&err, &maxerr, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        iter++;
    } while (maxerr > 0.01);
    if (rank == 0)
        printf("converged\n");
    MPI_Finalize();
    return 0;
}
