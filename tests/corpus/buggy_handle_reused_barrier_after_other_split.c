// corpus: buggy
// The twin of correct_handle_reused_for_successive_splits.c: the barrier is on the
// handle after a join, where either arm's split reaches it, and both arms' splits use
// the same colour, so the communicator holds the ranks of both arms; only the even
// ones enter the barrier, the odd ones go on to free it.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0)
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
    else
        MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &comm);
    if (rank % 2 == 0)               // expect-note: rank % 2 == 0
        MPI_Barrier(comm);           // expect-warning: MPI_Barrier
    MPI_Comm_free(&comm);            // may-warn
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
