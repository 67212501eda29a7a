// corpus: buggy
// A value set lazily, like a handle, but from the rank: each process computes its
// own, so the loop it bounds runs a different number of barriers on each.
#include <mpi.h>
#include <stdio.h>

static int nsteps;

static int get_steps(void)
{
    int rank;
    if (!nsteps) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        nsteps = rank + 1;
    }
    return nsteps;
}

int main(int argc, char **argv)
{
    int i;

    MPI_Init(&argc, &argv);
    for (i = 0;
         i < get_steps(); // expect-note: i < get_steps()
         i++)
        MPI_Barrier(MPI_COMM_WORLD); // expect-warning: MPI_Barrier
    printf("done\n"); // never-printed: done
    MPI_Finalize();
    return 0;
}
