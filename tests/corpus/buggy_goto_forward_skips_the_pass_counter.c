// corpus: buggy
// As correct_goto_forward_out_of_a_pass.c, but the pass counter sits before the
// label: rank 1 jumps in its first pass, skips it, and runs one pass more, and one
// allreduce more, than the others.  The forward jump gates what it skips.
#include <mpi.h>
#include <stdio.h>

static int diffuse(MPI_Comm comm, float *d, int n, int passnbr)
{
    int passnum = 0, i, me;

    MPI_Comm_rank(comm, &me);
    for (;;) {
        for (i = 0; i < n; i++) {
            if (me == 1 && passnum == 0)
                goto abort;
            d[i] += 1.0F;
        }
        ++passnum;
abort:
        if (passnum >= passnbr)  // expect-note: passnum >= passnbr
            break;
        MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_FLOAT, MPI_MAX, comm);  // expect-warning: MPI_Allreduce
    }
    return passnum;
}

int main(int argc, char **argv)
{
    float d[2] = {1.0F, 1.0F};
    int passes, rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    passes = diffuse(MPI_COMM_WORLD, d, 2, 2);
    printf("rank %d passes %d\n", rank, passes);
    MPI_Finalize();
    return 0;
}
