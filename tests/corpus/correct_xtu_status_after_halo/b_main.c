// corpus: correct
// output-deterministic
// halo_exchange() (a_halo.c) leaves per-process data in d[], and the second call is
// given that data; its result is still 0 on every process (its summary says it is a
// status function, and that its result ignores its arguments), so the early returns
// after each call are taken by no process, and the barrier is reached by all.
#include <mpi.h>
#include <stdio.h>

int halo_exchange(int *data, MPI_Comm comm);

static int two_rounds(int *d, MPI_Comm comm)
{
    if (halo_exchange(d, comm) != 0)
        return 1;
    d[0] = d[1];
    if (halo_exchange(d, comm) != 0)
        return 1;
    MPI_Barrier(comm);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, d[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    d[0] = rank;
    d[1] = -1;
    if (two_rounds(d, MPI_COMM_WORLD) == 0 && rank == 0)
        printf("rank 0 got %d from two steps back (of %d)\n", d[1], size);
    MPI_Finalize();
    return 0;
}
