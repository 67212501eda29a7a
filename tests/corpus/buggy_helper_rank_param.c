// corpus: buggy
// The rank is passed as a parameter; the helper branches on it around a barrier.
#include <mpi.h>
#include <stdio.h>

static void maybe_sync(int who)
{
    if (who == 0)  // expect-note: who == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    maybe_sync(rank);  // may-warn
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
