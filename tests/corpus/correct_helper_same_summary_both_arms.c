// corpus: correct
// output-deterministic
// The two arms call different helpers that run the same single MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

static void leader_sync(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

static void worker_sync(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        leader_sync();
    else
        worker_sync();
    if (rank == 0)
        printf("leader and workers met\n");
    MPI_Finalize();
    return 0;
}
