/* The jacobi program: solver loop and rank-0 report, on top of libhalo. */
#ifndef JACOBI_H
#define JACOBI_H

#include "halo.h"

#define JACOBI_MAX_HISTORY 64

/* What the solver hands to the report. */
typedef struct {
    int sweeps;
    int nhistory;
    int history_iter[JACOBI_MAX_HISTORY];
    double history_res[JACOBI_MAX_HISTORY];
    double residual;
    halo_timer compute, exchange;
} jacobi_result;

int jacobi_solve(const halo_config *cfg, halo_field *a, halo_field *b, jacobi_result *res);

int jacobi_report(const halo_config *cfg, const halo_field *f, const jacobi_result *res);

#endif
