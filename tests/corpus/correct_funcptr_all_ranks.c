// corpus: correct
// output-deterministic
// A function pointer to a collective helper, called by every rank.
#include <mpi.h>
#include <stdio.h>

typedef int (*reducer)(int);

static int maximum(int v)
{
    int m = 0;
    MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

int main(int argc, char **argv)
{
    int rank, size, m;
    reducer op = maximum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    m = op(rank);
    if (rank == 0)
        printf("max is size-1: %d\n", m == size - 1);
    MPI_Finalize();
    return 0;
}
