/* A token travels rank 0 -> 1 -> ... -> size-1 -> 0; each rank adds its rank + 1. */
#include "ringstats.h"

long ring_pass(long token, MPI_Comm comm)
{
    int rank, size;
    long got = token;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size == 1)
        return token + 1;
    if (rank == 0) {
        token += 1;
        MPI_Send(&token, 1, MPI_LONG, 1, 0, comm);
        MPI_Recv(&got, 1, MPI_LONG, size - 1, 0, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_LONG, rank - 1, 0, comm, MPI_STATUS_IGNORE);
        got += rank + 1;
        MPI_Send(&got, 1, MPI_LONG, (rank + 1) % size, 0, comm);
    }
    /* everyone learns the final value from rank 0 */
    MPI_Bcast(&got, 1, MPI_LONG, 0, comm);
    return got;
}
