/* Everything printed comes from rank 0, with fixed precision: deterministic. */
#include <stdio.h>
#include <stdlib.h>

#include "jacobi.h"

static void print_rowsums(const double *sums, int n)
{
    int i, step = n >= 8 ? n / 8 : 1;
    for (i = 0; i < n; i += step)
        printf("rowsum[%d] = %.9f\n", i, sums[i]);
}

int jacobi_report(const halo_config *cfg, const halo_field *f, const jacobi_result *res)
{
    const halo_decomp *d = f->d;
    double norm = halo_norm2(f);
    double peak = halo_max_abs(f);
    double check = halo_checksum(f, d->rank);
    double compute = halo_timer_max(&res->compute, d->comm);
    double exchange = halo_timer_max(&res->exchange, d->comm);
    double *sums = malloc(sizeof(double) * (size_t)d->n);
    halo_rowcomm rc;
    double row_part, row_total;
    int i, rc_err, gather_err;

    gather_err = halo_gather_rowsums(f, sums);
    rc_err = halo_rowcomm_init(&rc, cfg->row_width, d->comm);
    row_part = (double)(d->rows * (rc.col + 1));
    row_total = halo_rowcomm_sum(&rc, row_part);
    if (d->rank == 0) {
        printf("jacobi: n=%d iters=%d ranks=%d\n", cfg->n, res->sweeps, d->size);
        for (i = 0; i < res->nhistory; i++)
            printf("iter %5d residual %.9e\n", res->history_iter[i], res->history_res[i]);
        printf("final residual %.9e\n", res->residual);
        printf("norm2 %.9f max %.9f checksum %.9f\n", norm, peak, check);
        if (gather_err == 0)
            print_rowsums(sums, d->n);
        printf("row 0 weighted rows %.1f\n", row_total);
        if (getenv("HALO_TIMING"))
            fprintf(stderr, "timing: compute %.6f s exchange %.6f s\n", compute, exchange);
    }
    halo_rowcomm_free(&rc);
    free(sums);
    return gather_err || rc_err;
}
