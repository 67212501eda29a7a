// corpus: buggy
// Each arm of the rank test makes the barrier under a test that is the same on every
// process, but the two arms ask different things: with no argument rank 0 skips the
// barrier and the others make it, with one it is the other way round.  Algorithm 1
// alone is silent (the rank test is not in the barrier's PDF+: both arms decide it);
// the arms' barrier expressions differ (barrier matching §5), so the rank test decides.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {                      // expect-note: rank == 0
        if (argc > 1)
            MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    } else {
        if (argc <= 1)
            MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
