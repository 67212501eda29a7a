// corpus: correct
// output-deterministic
// A helper returns early when the job is too small: the size is the same on
// all ranks, so all of them return or none does.
#include <mpi.h>
#include <stdio.h>

static int pairs(MPI_Comm comm)
{
    int size, one = 1, n = 0;

    MPI_Comm_size(comm, &size);
    if (size < 2)
        return 0;
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, comm);
    return n / 2;
}

int main(int argc, char **argv)
{
    int rank, p;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    p = pairs(MPI_COMM_WORLD);
    if (rank == 0)
        printf("pairs>0 %d\n", p > 0);
    MPI_Finalize();
    return 0;
}
