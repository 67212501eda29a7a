// corpus: buggy
// Rank 0 returns from the loop in its second round; the other ranks go round once more
// and store 'stage' again, so after the call only they see stage == 2 and call
// MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

static int stage;

static void advance(int rank)
{
    int i;

    for (i = 0; i < 3; i++) {
        stage = i;
        if (rank == 0 && i == 1)
            return;
    }
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    advance(rank);
    if (stage == 2)  // expect-note: stage
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d stage %d\n", rank, stage);
    MPI_Finalize();
    return 0;
}
