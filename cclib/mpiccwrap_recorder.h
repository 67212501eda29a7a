/* mpiccwrap_recorder.h - the recorder: what the runtime learns by PMPI interception,
 * and the per-process trace file it writes.
 *
 * The recorder intercepts MPI calls through the profiling interface (weak MPI_*
 * wrappers calling PMPI_*, mpiccwrap_recorder.c), so calls from every object of the
 * program are seen, instrumented by mpicc-wrap or not.  Today it tracks which
 * communicators are live; the checker asks it before touching a handle, and hands it
 * the records of the checks it performs.  Record layouts and codes are those of the
 * versioned protocol header.
 */
#ifndef MPICCWRAP_RECORDER_H
#define MPICCWRAP_RECORDER_H

#include <mpi.h>

#include "mpiccwrap_protocol.h"

/* 1 if comm is MPI_COMM_WORLD, MPI_COMM_SELF or a communicator an MPI constructor
 * returned and no destructor freed since; checks skip others. */
int mpiccwrap_comm_live(MPI_Comm comm);

/* 1 when MPICC_WRAP_TRACE_DIR is set (read once): records are then written. */
int mpiccwrap_trace_on(void);

/* Append *rec (its seq is filled in) to this process's trace file, created on first
 * use in $MPICC_WRAP_TRACE_DIR as mpiccwrap-<world rank>-<pid>.trace after a
 * struct mpiccwrap_trace_header.  Call only between MPI_Init and MPI_Finalize.  If the
 * file cannot be written, one note goes to stderr and tracing stops; the program
 * goes on. */
void mpiccwrap_trace_record(struct mpiccwrap_record *rec);

#endif
