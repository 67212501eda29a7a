/* halo: a small 1-D decomposed Jacobi stencil library over MPI.
 *
 * The global grid has n rows and n columns; rows are split in contiguous blocks
 * over the ranks of a communicator, each block carrying one ghost row above and
 * below that the halo exchange fills from the neighbouring ranks.
 */
#ifndef HALO_H
#define HALO_H

#include <mpi.h>

/* Run parameters: read on rank 0, broadcast to every rank (config.c). */
typedef struct {
    int n;          /* global grid is n x n */
    int iters;      /* Jacobi sweeps */
    int report;     /* print the residual every `report` sweeps (0: never) */
    int row_width;  /* ranks per row of the process grid (rowcomm.c) */
    double omega;   /* relaxation weight */
} halo_config;

/* Block-row decomposition of the grid over a communicator (decomp.c). */
typedef struct {
    MPI_Comm comm;
    int rank, size;
    int n;            /* global rows = columns */
    int row0, rows;   /* first global row and number of rows owned here */
    int up, down;     /* neighbour ranks, MPI_PROC_NULL at the edges */
} halo_decomp;

/* A local block with one ghost row above and below: (rows + 2) x n doubles. */
typedef struct {
    const halo_decomp *d;
    double *data;
} halo_field;

/* Accumulated wall-clock time of one phase (timer.c). */
typedef struct {
    const char *name;
    double start, total;
} halo_timer;

/* Row communicator of a process grid that is `width` ranks wide (rowcomm.c). */
typedef struct {
    MPI_Comm comm;
    int row, col;
} halo_rowcomm;

int halo_config_init(halo_config *cfg, int argc, char **argv, MPI_Comm comm);

void halo_decomp_init(halo_decomp *d, int n, MPI_Comm comm);

int halo_field_alloc(halo_field *f, const halo_decomp *d);
void halo_field_free(halo_field *f);
double *halo_row(const halo_field *f, int local_row);
void halo_field_init(halo_field *f);
void halo_field_boundary(halo_field *f);

void halo_exchange(halo_field *f);

double halo_sweep(halo_field *dst, const halo_field *src, double omega);

double halo_norm2(const halo_field *f);
double halo_max_abs(const halo_field *f);
double halo_global_sum(double local, MPI_Comm comm);

int halo_gather_rowsums(const halo_field *f, double *out);

void halo_timer_start(halo_timer *t, const char *name);
void halo_timer_stop(halo_timer *t);
double halo_timer_max(const halo_timer *t, MPI_Comm comm);

int halo_rowcomm_init(halo_rowcomm *rc, int width, MPI_Comm comm);
double halo_rowcomm_sum(const halo_rowcomm *rc, double local);
void halo_rowcomm_free(halo_rowcomm *rc);

double halo_checksum(const halo_field *f, int rank);

#endif
