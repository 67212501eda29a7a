// corpus: buggy
// 'sub' is created at the end of each round, and the next round uses it before it
// creates the next one: the barrier is on the previous round's communicator, which
// every rank holds, but only rank 0 enters it.  The create call does not precede the
// barrier in the round, so the test before the barrier still counts.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, r;
    MPI_Comm sub = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (r = 0; r < 2; r++) {
        if (r > 0 && rank == 0)  // expect-note: rank == 0
            MPI_Barrier(sub);  // expect-warning: MPI_Barrier
        if (r > 0)
            MPI_Comm_free(&sub);  // may-warn
        MPI_Comm_dup(MPI_COMM_WORLD, &sub);  // may-warn
    }
    MPI_Comm_free(&sub);  // may-warn
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
