// corpus: buggy
// Short-circuit: rank 0 is the only rank that evaluates the MPI_Allreduce.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    (void)(rank != 0 ||  // expect-note: rank != 0
           MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));  // expect-warning: MPI_Allreduce
    printf("rank %d y %d\n", rank, y);
    MPI_Finalize();
    return 0;
}
