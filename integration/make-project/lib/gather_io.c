/* Row sums of the whole grid collected on rank 0 with MPI_Gatherv. */
#include <stdlib.h>

#include "halo.h"

/* `out` (n doubles) is filled on rank 0 only; returns 0 on success everywhere. */
int halo_gather_rowsums(const halo_field *f, double *out)
{
    const halo_decomp *d = f->d;
    double *mine = malloc(sizeof(double) * (size_t)(d->rows > 0 ? d->rows : 1));
    int *counts = malloc(sizeof(int) * (size_t)d->size);
    int *displs = malloc(sizeof(int) * (size_t)d->size);
    int i, j, ok = mine && counts && displs;
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, d->comm);
    if (all_ok) {
        for (i = 0; i < d->rows; i++) {
            const double *row = halo_row(f, i + 1);
            mine[i] = 0.0;
            for (j = 0; j < d->n; j++)
                mine[i] += row[j];
        }
        MPI_Gather(&d->rows, 1, MPI_INT, counts, 1, MPI_INT, 0, d->comm);
        for (i = 0, j = 0; i < d->size; i++) {
            displs[i] = j;
            j += counts[i];
        }
        MPI_Gatherv(mine, d->rows, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, 0, d->comm);
    }
    free(mine);
    free(counts);
    free(displs);
    return all_ok ? 0 : -1;
}
