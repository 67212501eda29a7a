// corpus: buggy
// Even ranks run a nonblocking MPI_Ibcast while odd ranks call MPI_Barrier.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, data = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank % 2 == 0) {  // expect-note: rank % 2 == 0
        MPI_Ibcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);  // expect-warning: MPI_Ibcast
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);  // expect-warning: MPI_Barrier
    }
    printf("rank %d data %d\n", rank, data);
    MPI_Finalize();
    return 0;
}
