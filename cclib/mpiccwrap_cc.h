/* mpiccwrap_cc.h - the run-time collective checker (CC) of mpicc-wrap.
 *
 * Instrumented code calls mpiccwrap_cc() just before a collective that the static
 * analysis flagged, and mpiccwrap_cc_exit() before the function returns (PARCOACH,
 * Saillard et al., section 3.2, Algorithms 2 and 3).  Both are collective over the
 * communicator they are given and return normally when every rank agrees; otherwise
 * rank 0 of that communicator prints one "DYNAMIC-CHECK:" report on stderr and
 * calls MPI_Abort(comm, MPICCWRAP_ABORT_CODE) before any rank blocks in the
 * mismatched collective.  With MPICC_WRAP_TRACE_DIR set, every check performed is
 * also recorded (mpiccwrap_recorder.h, record layout in mpiccwrap_protocol.h).
 *
 * The rewriter emits the declarations between the BEGIN/END markers itself (the
 * preprocessed text it patches cannot #include); tests check that the two copies
 * stay identical.  mpiccwrap_comm_world/self give the predefined communicators to
 * checks the rewriter inserts where the source names none (MPI_Finalize acts on
 * MPI_COMM_WORLD), since the macros are gone from preprocessed text;
 * mpiccwrap_comm_null initialises local communicators the exit checks read.
 */
#ifndef MPICCWRAP_CC_H
#define MPICCWRAP_CC_H

#include <mpi.h>

/* The abort code, the exit colour, the check bits (mpiccwrap_site.checks: which
 * arguments must agree on every rank; the root, op, count and type arguments of
 * mpiccwrap_cc are ignored when their bit is clear, so the rewriter can pass
 * (MPI_Op)0 / (MPI_Datatype)0 there) and the "not compared" sentinels. */
#include "mpiccwrap_protocol.h"

/* BEGIN mpiccwrap declarations */
struct mpiccwrap_site { int color; const char *name; const char *comm; const char *file; int line; const char *function; const char *cond; int flagged; int checks; };
extern int mpiccwrap_cc(MPI_Comm comm, const struct mpiccwrap_site *site, int root, MPI_Op op, long count, MPI_Datatype type);
extern void mpiccwrap_cc_exit(MPI_Comm comm, const struct mpiccwrap_site *site);
extern MPI_Comm mpiccwrap_comm_world(void);
extern MPI_Comm mpiccwrap_comm_self(void);
extern MPI_Comm mpiccwrap_comm_null(void);
/* END mpiccwrap declarations */

/* mpiccwrap_cc with the call site to name if the check blocks in a deadlock (the
 * interception's checks pass the collective's call site). */
int mpiccwrap_cc_at(MPI_Comm comm, const struct mpiccwrap_site *site, int root, MPI_Op op,
                    long count, MPI_Datatype type, const void *where);

#endif
