// corpus: buggy
// Short-circuit: MPI_Barrier runs only when rank == 0 is true.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, synced = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS)  // expect-warning: MPI_Barrier; expect-note: rank == 0
        synced = 1;
    printf("rank %d synced %d\n", rank, synced);
    MPI_Finalize();
    return 0;
}
