/* Block-row decomposition: rank-dependent arithmetic only, no communication. */
#include "halo.h"

void halo_decomp_init(halo_decomp *d, int n, MPI_Comm comm)
{
    int base, extra;
    d->comm = comm;
    d->n = n;
    MPI_Comm_rank(comm, &d->rank);
    MPI_Comm_size(comm, &d->size);
    base = n / d->size;
    extra = n % d->size;
    d->rows = base + (d->rank < extra ? 1 : 0);
    d->row0 = d->rank * base + (d->rank < extra ? d->rank : extra);
    d->up = d->rank > 0 ? d->rank - 1 : MPI_PROC_NULL;
    d->down = d->rank < d->size - 1 ? d->rank + 1 : MPI_PROC_NULL;
}
