// corpus: buggy
// The same two collectives in a different order: even ranks call MPI_Barrier
// then MPI_Bcast, odd ranks MPI_Bcast then MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, data = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        data = 42;
    if (rank % 2 == 0) {  // expect-note: rank % 2 == 0
        MPI_Barrier(MPI_COMM_WORLD);                       // expect-warning: MPI_Barrier
        MPI_Bcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD);   // expect-warning: MPI_Bcast
    } else {
        MPI_Bcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD);   // expect-warning: MPI_Bcast
        MPI_Barrier(MPI_COMM_WORLD);                       // expect-warning: MPI_Barrier
    }
    printf("rank %d data %d\n", rank, data);
    MPI_Finalize();
    return 0;
}
