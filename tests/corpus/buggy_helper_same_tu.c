// corpus: buggy
// A helper in the same file runs MPI_Barrier; only rank 0 calls the helper.
#include <mpi.h>
#include <stdio.h>

static void sync_all(MPI_Comm comm)
{
    MPI_Barrier(comm);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)  // expect-note: rank == 0
        sync_all(MPI_COMM_WORLD);  // expect-warning: sync_all()|MPI_Barrier
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
