// corpus: correct
// output-deterministic
// The rank is passed to a function that uses it only for arithmetic.
#include <mpi.h>
#include <stdio.h>

static int weight(int r)
{
    return r * r + 1;
}

int main(int argc, char **argv)
{
    int rank, w, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    w = weight(rank);
    MPI_Allreduce(&w, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("total>0 %d\n", total > 0);
    MPI_Finalize();
    return 0;
}
