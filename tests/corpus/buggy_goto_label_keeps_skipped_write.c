// corpus: buggy
// Rank 0 jumps over the line that sets 'ready'; the label ends the jump's effect on
// what is reached, not on what was skipped: only the other ranks call MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

static int step(MPI_Comm comm)
{
    int rank, ready = 0;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        goto out;
    ready = 1;
out:
    if (ready)  // expect-note: ready
        MPI_Barrier(comm);  // expect-warning: MPI_Barrier
    return ready;
}

int main(int argc, char **argv)
{
    int rank, r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    r = step(MPI_COMM_WORLD);
    printf("rank %d ready %d\n", rank, r);
    MPI_Finalize();
    return 0;
}
