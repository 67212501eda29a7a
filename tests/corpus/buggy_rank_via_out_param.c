// corpus: buggy
// A callee stores the rank through its out parameter (*out = r).
#include <mpi.h>
#include <stdio.h>

static void who_am_i(int *out)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    *out = r;
}

int main(int argc, char **argv)
{
    int me = -1;

    MPI_Init(&argc, &argv);
    who_am_i(&me);
    if (me % 2 == 1)  // expect-note: me % 2 == 1
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    MPI_Finalize();
    return 0;
}
