/* Global norms: local partial results combined with MPI_Allreduce. */
#include <math.h>

#include "halo.h"

double halo_global_sum(double local, MPI_Comm comm)
{
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
    return global;
}

double halo_norm2(const halo_field *f)
{
    const halo_decomp *d = f->d;
    double local = 0.0;
    int i, j;
    for (i = 1; i <= d->rows; i++) {
        const double *row = halo_row(f, i);
        for (j = 0; j < d->n; j++)
            local += row[j] * row[j];
    }
    return sqrt(halo_global_sum(local, d->comm));
}

double halo_max_abs(const halo_field *f)
{
    const halo_decomp *d = f->d;
    double local = 0.0, global = 0.0;
    int i, j;
    for (i = 1; i <= d->rows; i++) {
        const double *row = halo_row(f, i);
        for (j = 0; j < d->n; j++)
            if (fabs(row[j]) > local)
                local = fabs(row[j]);
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, d->comm);
    return global;
}
