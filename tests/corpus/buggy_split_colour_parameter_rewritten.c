// corpus: buggy
// The split uses the colour the caller passed (0 on every rank), and only then is the
// parameter given a per-process value: 'c' holds every rank, and the barrier under
// 'if (color)' runs on the odd ranks only.
#include <mpi.h>
#include <stdio.h>

static void work(int color, int rank)
{
    MPI_Comm c;

    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &c);
    color = rank % 2;
    if (color)  // expect-note: color
        MPI_Barrier(c);  // expect-warning: MPI_Barrier
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    work(0, rank);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
