// corpus: buggy
// A work loop returns early on odd ranks in its second iteration.
#include <mpi.h>
#include <stdio.h>

static int iterate(int rank)
{
    int it, x = 1, y = 0;

    for (it = 0; it < 3; it++) {
        if (it == 1 && rank % 2 == 1)  // expect-note: rank % 2 == 1
            return it;  // expect-exit-site
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // expect-warning: MPI_Allreduce
    }
    return it;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d stopped after %d\n", rank, iterate(rank));  // may-warn
    MPI_Finalize();
    return 0;
}
