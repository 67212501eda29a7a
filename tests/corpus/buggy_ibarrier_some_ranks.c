// corpus: buggy
// Rank 0 starts an MPI_Ibarrier and waits for it; no other rank joins.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {  // expect-note: rank == 0
        MPI_Ibarrier(MPI_COMM_WORLD, &req);  // expect-warning: MPI_Ibarrier
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
