/* mpiccwrap_cdag.h - cDAG recording (MPICC_WRAP_CDAG=1): the hooks the interception
 * layer (mpiccwrap_hang.c) calls for every point-to-point operation.  Layouts and codes
 * are in mpiccwrap_protocol.h; the analysis is mpicc_wrap/cdag (Python). */
#ifndef MPICCWRAP_CDAG_H
#define MPICCWRAP_CDAG_H

#include <mpi.h>
#include <stdint.h>

#include "mpiccwrap_protocol.h"

/* 1 while recording (read once in MPI_Init): each hook is behind this one test. */
extern int mpiccwrap_cdag_on;

/* 1 while writing the trace (MPICC_WRAP_TRACE_DIR): blocking collectives are recorded
 * too (the cDAG analysis alone does not need them). */
extern int mpiccwrap_cdag_trace;

/* MPI_Init: read MPICC_WRAP_CDAG*, agree on a job number over ctl (collective on it). */
void mpiccwrap_cdag_setup(MPI_Comm ctl, int world_rank, int world_size);

/* Record an operation posted now; returns its index (-1: not recorded). */
long mpiccwrap_cdag_post(int kind, int call, const void *buf, int count, MPI_Datatype type,
                         int peer, int tag, MPI_Comm comm, const void *site);

/* on=1: the records posted or completed until on=0 belong to one MPI call and share
 * one clock read. */
void mpiccwrap_cdag_batch(int on);

/* A completing call begins: the records it completes share one event number. */
void mpiccwrap_cdag_tick(void);

/* Record rec completed (st: its status, or NULL for a send; comm: its communicator). */
void mpiccwrap_cdag_done(long rec, const MPI_Status *st, MPI_Comm comm);

/* A status array of n entries for a completing call whose caller passed `given`
 * (returned as is unless it is MPI_STATUS(ES)_IGNORE and recording is on). */
MPI_Status *mpiccwrap_cdag_statuses(int n, MPI_Status *given);

/* MPI_Finalize, before PMPI_Finalize, on every rank: write this process's file, wait
 * on ctl for the others, then time the collectives of rank 0's analysis (collective
 * on ctl; see mpiccwrap_cdag.c). */
void mpiccwrap_cdag_write(MPI_Comm ctl);

/* After PMPI_Finalize, world rank 0: wait for the `mpicc-wrap-tool cdag --measure`
 * that mpiccwrap_cdag_write started (it prints the report). */
void mpiccwrap_cdag_report(void);

/* Provided by mpiccwrap_hang.c: the communicator's identity and a rank's world rank. */
uint64_t mpiccwrap_hang_comm_id(MPI_Comm comm);
int mpiccwrap_hang_world_rank(MPI_Comm comm, int rank);
MPI_Group mpiccwrap_hang_world_group(void);

/* Provided by mpiccwrap_recorder.c: 0 for a communicator freed or never made. */
int mpiccwrap_comm_live(MPI_Comm comm);

#endif
