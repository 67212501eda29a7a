/* Local blocks with ghost rows; initial values depend on the global position. */
#include <stdlib.h>
#include <string.h>

#include "halo.h"

int halo_field_alloc(halo_field *f, const halo_decomp *d)
{
    size_t count = (size_t)(d->rows + 2) * (size_t)d->n;
    f->d = d;
    f->data = calloc(count, sizeof(double));
    return f->data ? 0 : -1;
}

void halo_field_free(halo_field *f)
{
    free(f->data);
    f->data = NULL;
}

double *halo_row(const halo_field *f, int local_row)
{
    return f->data + (size_t)local_row * (size_t)f->d->n;
}

/* Zero interior, boundary values from halo_field_boundary. */
void halo_field_init(halo_field *f)
{
    const halo_decomp *d = f->d;
    memset(f->data, 0, (size_t)(d->rows + 2) * (size_t)d->n * sizeof(double));
    halo_field_boundary(f);
}

/* Dirichlet boundary: hot top edge, a ramp on the left and right edges. */
void halo_field_boundary(halo_field *f)
{
    const halo_decomp *d = f->d;
    int i, j;
    for (i = 1; i <= d->rows; i++) {
        int g = d->row0 + i - 1;
        double *row = halo_row(f, i);
        double ramp = 1.0 - (double)g / (double)(d->n - 1);
        row[0] = ramp;
        row[d->n - 1] = 0.5 * ramp;
        if (g == 0)
            for (j = 0; j < d->n; j++)
                row[j] = 1.0;
        if (g == d->n - 1)
            for (j = 0; j < d->n; j++)
                row[j] = 0.0;
    }
}
