// corpus: buggy
// Rank 1 receives a flag from rank 0 with MPI_Recv; the flag (set on rank 1
// only) decides whether it calls MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, go = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int one = 1;
        MPI_Send(&one, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (go)  // expect-note: go
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    printf("rank %d go %d\n", rank, go);
    MPI_Finalize();
    return 0;
}
