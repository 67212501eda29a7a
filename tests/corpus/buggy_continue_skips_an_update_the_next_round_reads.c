// corpus: buggy
// As correct_continue_skips_the_rest_of_a_round.c, but the next round reads what the
// skipped part of a round writes: rank 1 skips `ready = 1` in the first round, so
// in the second the others allreduce and rank 1 does not.  A continue does not gate
// the later rounds, but what is written after it carries its test into the next.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, ready = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 2; i++) {
        if (ready)  // expect-note: ready
            MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
        if (rank == 1 && i == 0)
            continue;
        ready = 1;
    }
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
