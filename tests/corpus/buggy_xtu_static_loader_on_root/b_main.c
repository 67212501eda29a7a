// corpus: buggy
// n_steps is set on rank 0 only, by a static function of another TU that setup()
// calls under a rank test; every other rank skips the barriers.
#include <mpi.h>
#include <stdio.h>

extern int n_steps;
void setup(MPI_Comm comm);

int main(int argc, char **argv)
{
    int me;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    setup(MPI_COMM_WORLD);
    if (n_steps > 0)  // expect-note: n_steps > 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    MPI_Finalize();
    return 0;
}
