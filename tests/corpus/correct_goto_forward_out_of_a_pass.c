// corpus: correct
// output-deterministic
// Scotch's diffusion passes (vdgraph_separate_df.c): a process whose data overflow
// jumps forward out of the pass's inner loop to the pass counter, which every
// process reaches once per pass, so all run the same number of passes and of
// allreduces.  In the loop's second round the walk had already passed the label,
// took the jump for a backward one, and gated the rest of the function with it
// (statements._backward: a jump is backward by position, not by walk order).
#include <math.h>
#include <mpi.h>
#include <stdio.h>

static int diffuse(MPI_Comm comm, float *d, int n, int passnbr)
{
    int passnum, ovfl = 0, i, me;
    float v;

    MPI_Comm_rank(comm, &me);
    v = (float) me;
    for (passnum = 0; ; ) {
        if (ovfl == 0) {
            for (i = 0; i < n; i++) {
                v += d[i];
                if (isnan(v)) {
                    ovfl = 1;
                    goto abort;
                }
                d[i] = v;
            }
        }
abort:
        if (++passnum >= passnbr)
            break;
        MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_FLOAT, MPI_MAX, comm);
    }
    return passnum;
}

int main(int argc, char **argv)
{
    float d[4] = {0.0F, 1.0F, 2.0F, 3.0F};
    int passes, rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    passes = diffuse(MPI_COMM_WORLD, d, 4, 3);
    if (rank == 0)
        printf("passes: %d\n", passes);
    MPI_Finalize();
    return 0;
}
