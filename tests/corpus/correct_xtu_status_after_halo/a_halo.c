// Cross-TU helper, compiled BEFORE its caller (Scotch's dgraphHaloSync,
// dgraph_halo.c): it receives data from the neighbours, so what it leaves in
// data[] differs between processes, and it returns 0 unless an MPI call failed.
#include <mpi.h>

int halo_exchange(int *data, MPI_Comm comm)
{
    int rank, size, o = 0, recv;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (MPI_Sendrecv(&data[0], 1, MPI_INT, (rank + 1) % size, 7, &recv, 1, MPI_INT,
                     (rank + size - 1) % size, 7, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        o = 1;  /* only after a failure */
    data[1] = recv;
    return o;
}
