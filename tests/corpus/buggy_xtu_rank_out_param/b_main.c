// corpus: buggy
// The rank comes back through an out-parameter of a function of another TU:
// rank 0 alone enters the barrier, the others go to MPI_Finalize.
#include <mpi.h>
#include <stdio.h>

void my_rank(MPI_Comm comm, int *rank);

int main(int argc, char **argv)
{
    int me;

    MPI_Init(&argc, &argv);
    my_rank(MPI_COMM_WORLD, &me);
    if (me == 0)  // expect-note: me == 0
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d done\n", me);
    MPI_Finalize();
    return 0;
}
