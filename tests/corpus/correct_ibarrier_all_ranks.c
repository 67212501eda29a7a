// corpus: correct
// output-deterministic
// MPI_Ibarrier on every rank, overlapped with local work, then MPI_Wait.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, work = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (i = 0; i < 1000; i++)
        work += i % (rank + 2);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("work %d\n", work);
    MPI_Finalize();
    return 0;
}
