/* The solver loop: exchange halos, sweep, reduce the residual every sweep.
 *
 * Rank-dependent work (only rank 0 records the history) around collectives that
 * every rank calls unconditionally.
 */
#include <math.h>

#include "jacobi.h"

static void record(jacobi_result *res, int iter, double residual)
{
    if (res->nhistory < JACOBI_MAX_HISTORY) {
        res->history_iter[res->nhistory] = iter;
        res->history_res[res->nhistory] = residual;
        res->nhistory++;
    }
}

int jacobi_solve(const halo_config *cfg, halo_field *a, halo_field *b, jacobi_result *res)
{
    halo_field *src = a, *dst = b, *tmp;
    int it;
    halo_field_init(a);
    halo_field_init(b);
    res->nhistory = 0;
    res->residual = 0.0;
    for (it = 1; it <= cfg->iters; it++) {
        double local, global;
        halo_timer_start(&res->exchange, "exchange");
        halo_exchange(src);
        halo_timer_stop(&res->exchange);
        halo_timer_start(&res->compute, "compute");
        local = halo_sweep(dst, src, cfg->omega);
        halo_timer_stop(&res->compute);
        global = halo_global_sum(local, src->d->comm);
        res->residual = sqrt(global);
        if (src->d->rank == 0 && cfg->report > 0 && it % cfg->report == 0)
            record(res, it, res->residual);
        tmp = src;
        src = dst;
        dst = tmp;
    }
    res->sweeps = cfg->iters;
    /* leave the final state in `a` */
    if (src != a) {
        halo_field swap = *a;
        *a = *b;
        *b = swap;
    }
    return 0;
}
