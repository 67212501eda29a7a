// corpus: buggy
// is_root() returns a rank-dependent value that guards an MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

static int is_root(MPI_Comm comm)
{
    int r;
    MPI_Comm_rank(comm, &r);
    return r == 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (is_root(MPI_COMM_WORLD)) {  // expect-note: is_root(MPI_COMM_WORLD)
        printf("root synchronises\n");
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    MPI_Finalize();
    return 0;
}
