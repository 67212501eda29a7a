// corpus: correct
// output-deterministic
// The colour starts as MPI_UNDEFINED and becomes 1 under 'rank < 2' (MPICH's
// test/mpi/comm/cmsplit.c): the members of 'scomm' are exactly the ranks with
// rank < 2, so the collectives on it under that same test involve all of them.
// The other ranks hold MPI_COMM_NULL.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, color, srank = -1, members = 0, one = 1;
    MPI_Comm comm, scomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    color = MPI_UNDEFINED;
    if (rank < 2)
        color = 1;
    MPI_Comm_split(comm, color, size - rank, &scomm);
    if (rank < 2) {
        MPI_Comm_rank(scomm, &srank);
        MPI_Allreduce(&one, &members, 1, MPI_INT, MPI_SUM, scomm);
        MPI_Comm_free(&scomm);
    } else if (scomm != MPI_COMM_NULL) {
        printf("rank %d: expected MPI_COMM_NULL\n", rank);
    }
    printf("rank %d: srank %d, %d members\n", rank, srank, members);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
