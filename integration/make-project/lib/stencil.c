/* One weighted-Jacobi sweep on the interior points of the local block. */
#include <math.h>

#include "halo.h"

/* Returns the local sum of squared updates (the caller reduces it). */
double halo_sweep(halo_field *dst, const halo_field *src, double omega)
{
    const halo_decomp *d = src->d;
    double local = 0.0;
    int i, j;
    for (i = 1; i <= d->rows; i++) {
        int g = d->row0 + i - 1;
        const double *up = halo_row(src, i - 1);
        const double *mid = halo_row(src, i);
        const double *down = halo_row(src, i + 1);
        double *out = halo_row(dst, i);
        if (g == 0 || g == d->n - 1) {
            for (j = 0; j < d->n; j++)
                out[j] = mid[j];
            continue;
        }
        out[0] = mid[0];
        out[d->n - 1] = mid[d->n - 1];
        for (j = 1; j < d->n - 1; j++) {
            double jac = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
            double next = (1.0 - omega) * mid[j] + omega * jac;
            local += (next - mid[j]) * (next - mid[j]);
            out[j] = next;
        }
    }
    return local;
}
