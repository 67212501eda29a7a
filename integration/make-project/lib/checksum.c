/* A weighted checksum of the whole grid, on rank 0.
 *
 * Correct code that a naive analysis would flag: the two arms of the rank test
 * call the same collective (MPI_Reduce with the same root, op and communicator),
 * so every rank executes the same sequence of collectives.
 */
#include <stddef.h>

#include "halo.h"

static double local_weighted_sum(const halo_field *f)
{
    const halo_decomp *d = f->d;
    double s = 0.0;
    int i, j;
    for (i = 1; i <= d->rows; i++) {
        const double *row = halo_row(f, i);
        for (j = 0; j < d->n; j++)
            s += row[j] * (double)((d->row0 + i + j) % 7 + 1);
    }
    return s;
}

double halo_checksum(const halo_field *f, int rank)
{
    double mine = local_weighted_sum(f);
    double total = 0.0;
    if (rank == 0) {
        MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, f->d->comm);
        total = total / (double)f->d->n;
    } else {
        MPI_Reduce(&mine, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, f->d->comm);
        total = -1.0;
    }
    return total;
}
