// corpus: correct
// output-deterministic
// Rank-dependent sends and receives (a ring shift with MPI_Sendrecv and an
// odd/even exchange) followed by unconditional collectives.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, got = -1, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Send(&rank, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&sum, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&got, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ring sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
