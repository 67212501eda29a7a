// corpus: buggy
// nprocs: 2
// Like correct_pack_bcast_unpack.c, but only the first element is broadcast: the
// second keeps each process's own rank, and the test on it differs.
#include <mpi.h>
#include <stdio.h>

static int exchange(MPI_Comm comm)
{
    int rank, msg[2];

    MPI_Comm_rank(comm, &rank);
    msg[0] = rank;
    msg[1] = rank;
    MPI_Bcast(msg, 1, MPI_INT, 0, comm);
    if (msg[1] > 0)  // expect-note: msg[1] > 0
        return -1;  // expect-exit-site
    MPI_Barrier(comm);  // expect-warning: MPI_Barrier
    return msg[0];
}

int main(int argc, char **argv)
{
    int rank, r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    r = exchange(MPI_COMM_WORLD);
    printf("rank %d result %d\n", rank, r);
    MPI_Finalize();
    return 0;
}
