/* mpiccwrap_hang.h - run-time deadlock diagnosis (MPICC_WRAP_DEADLOCK): the interface
 * between the interception layer (mpiccwrap_hang.c), the wait-for graph
 * (mpiccwrap_waitfor.c) and the recorder's communicator constructors.
 * Wire layouts and codes are in mpiccwrap_protocol.h. */
#ifndef MPICCWRAP_HANG_H
#define MPICCWRAP_HANG_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "mpiccwrap_protocol.h"

/* Referenced by the link step (-Wl,--undefined) so that the interception is linked
 * into every executable mpicc-wrap links, instrumented or not. */
extern int mpiccwrap_hang_anchor;

/* > 0 while a check of the checker runs (its own MPI calls are not checked again). */
extern int mpiccwrap_hang_in_check;

/* Called by the recorder's constructor wrappers: child was made from parent
 * collectively (salt distinguishes kinds of constructors that do not count). */
void mpiccwrap_hang_comm_made(MPI_Comm parent, MPI_Comm child, int salt, int counted);

/* MPICC_WRAP_CHECK=all: 1 while the interception checks every collective itself, so
 * the checks the rewriter inserted before collectives stand aside (one check per
 * collective on every rank, whoever compiled the caller). */
int mpiccwrap_hang_checks_all(void);

/* The MPI_Allreduce(MPI_MIN) of n longs of a check on comm, watched by the diagnosis
 * (mpiccwrap_hang.c, "Checks"): a blocked check is reported as the collective it
 * checks, `checked`, at `where` (a return address in the caller of the check). */
int mpiccwrap_hang_check_allreduce(const long *vec, long *res, int n, MPI_Comm comm,
                                   const char *checked, const void *where);

/* The call site of the collective being checked by the interception, resolved now
 * (only on a mismatch, the job is about to abort): 0 when unknown. */
int mpiccwrap_hang_where(char *file, size_t fsize, int *line, char *func, size_t nsize);

/* Unlink the MPI library's node shared-memory segment that this process maps, once
 * every rank of the node has attached (mpiccwrap_shm.c says why). */
void mpiccwrap_shm_release(void);

/* "file.c", 12, "f" of an address in an object, by addr2line; 0 when unknown. */
int mpiccwrap_wf_resolve(const char *obj, uint64_t offset, char *file, size_t fsize,
                         int *line, char *func, size_t nsize);

/* The verdict on one snapshot of n ranks (states[r] is world rank r's).  Returns 1
 * when some blocked operation can never complete; released[r] is then 0 for the
 * ranks involved. */
int mpiccwrap_wf_verdict(const struct mpiccwrap_wf_state *states, int n, char *released);

/* Print the DEADLOCK: report on stderr and write the JSON and DOT files. */
void mpiccwrap_wf_report(const struct mpiccwrap_wf_state *states, int n,
                         const char *released, double timeout);

#endif
