/* ringstats: pass a token around a ring, then summarise per-rank values. */
#ifndef RINGSTATS_H
#define RINGSTATS_H

#include <mpi.h>

/* Sends a token once around the ring of comm; returns what came back to this rank. */
long ring_pass(long token, MPI_Comm comm);

/* Mean and standard deviation over the ranks of comm (every rank gets them). */
void stats_mean_std(double value, MPI_Comm comm, double *mean, double *std);

#endif
