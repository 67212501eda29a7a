/* mpiccwrap_protocol.h - the protocol between mpicc-wrap's Python side and its C runtime.
 *
 * Three parties share these numbers: the code the rewriter inserts into user TUs
 * (mpicc_wrap/instrument), the checker and the recorder (cclib/), and the readers of
 * what the runtime writes (mpicc_wrap/trace).  They are written here only: the Python
 * side reads this file through cffi (mpicc_wrap/runtime/protocol.py parses the section
 * between the BEGIN/END markers with ffi.cdef), and tests/runtime/test_protocol.py
 * compiles a program against this header to check that both sides agree.
 *
 * The section between the markers must stay what cffi's cdef accepts: integer
 * #defines (no parentheses, no expressions), enums and structs of fixed-width types.
 *
 * Trace files (MPICC_WRAP_TRACE_DIR): one file per process, named
 * "mpiccwrap-<world rank>-<pid>.trace", holding one struct mpiccwrap_trace_header and
 * then struct mpiccwrap_record entries, in the byte order and alignment of the machine
 * that wrote them (readers check magic, version and both sizes).  Each record is one
 * write(2), so a job that aborts keeps every record written before the abort.
 * Bump MPICCWRAP_PROTOCOL_VERSION whenever anything in the section changes meaning or
 * layout.
 */
#ifndef MPICCWRAP_PROTOCOL_H
#define MPICCWRAP_PROTOCOL_H

#include <stdint.h>

/* BEGIN mpiccwrap protocol */
#define MPICCWRAP_PROTOCOL_VERSION 1

/* Exit code given to MPI_Abort when a check finds a mismatch. */
#define MPICCWRAP_ABORT_CODE 77
/* Colour of the "leave the function" check; collectives get colours >= 2. */
#define MPICCWRAP_COLOR_EXIT 1

/* Bits of mpiccwrap_site.checks: which arguments must agree on every rank.  The root,
 * op, count and type arguments of mpiccwrap_cc are ignored when their bit is clear. */
enum mpiccwrap_check_bits {
    MPICCWRAP_CHECK_ROOT = 1,
    MPICCWRAP_CHECK_OP = 2,
    MPICCWRAP_CHECK_SIZE = 4
};

/* Values passed and recorded for an argument that is not compared. */
enum mpiccwrap_sentinels {
    MPICCWRAP_NO_ROOT = -1000000,
    MPICCWRAP_NO_COUNT = -1
};

/* Operator codes compared by the checker and recorded in traces: the predefined
 * operators, 0 for none and MPICCWRAP_OP_USER for any user-defined operator.  The
 * name of MPICCWRAP_OP_X is MPI_X. */
enum mpiccwrap_op {
    MPICCWRAP_OP_NONE = 0,
    MPICCWRAP_OP_MAX = 1,
    MPICCWRAP_OP_MIN = 2,
    MPICCWRAP_OP_SUM = 3,
    MPICCWRAP_OP_PROD = 4,
    MPICCWRAP_OP_LAND = 5,
    MPICCWRAP_OP_BAND = 6,
    MPICCWRAP_OP_LOR = 7,
    MPICCWRAP_OP_BOR = 8,
    MPICCWRAP_OP_LXOR = 9,
    MPICCWRAP_OP_BXOR = 10,
    MPICCWRAP_OP_MINLOC = 11,
    MPICCWRAP_OP_MAXLOC = 12,
    MPICCWRAP_OP_REPLACE = 13,
    MPICCWRAP_OP_NO_OP = 14,
    MPICCWRAP_OP_USER = 99
};

/* What a trace record describes. */
enum mpiccwrap_record_kind {
    MPICCWRAP_REC_COLLECTIVE = 1, /* a check before a collective (or a call holding one) */
    MPICCWRAP_REC_EXIT = 2        /* a check before the function is left */
};

/* How the recorded operation ended. */
enum mpiccwrap_event {
    MPICCWRAP_EV_AGREED = 1,  /* every rank of the communicator agreed */
    MPICCWRAP_EV_MISMATCH = 2 /* the ranks disagreed: the job is about to abort */
};

/* "MWTRACE" and a format byte, read as a native 64-bit integer. */
#define MPICCWRAP_TRACE_MAGIC 0x0145434152545754
#define MPICCWRAP_NAME_SIZE 64
#define MPICCWRAP_FILE_SIZE 192

struct mpiccwrap_trace_header {
    uint64_t magic;       /* MPICCWRAP_TRACE_MAGIC */
    uint32_t version;     /* MPICCWRAP_PROTOCOL_VERSION */
    uint32_t header_size; /* sizeof(struct mpiccwrap_trace_header) */
    uint32_t record_size; /* sizeof(struct mpiccwrap_record) */
    int32_t world_rank;
    int32_t world_size;
    int32_t pid;
};

struct mpiccwrap_record {
    uint32_t kind;  /* enum mpiccwrap_record_kind */
    uint32_t event; /* enum mpiccwrap_event */
    uint64_t seq;   /* 1, 2, ... per process */
    int64_t color;  /* colour of the collective kind (MPICCWRAP_COLOR_EXIT for exits) */
    int64_t root;   /* MPICCWRAP_NO_ROOT when not compared */
    int64_t op;     /* enum mpiccwrap_op */
    int64_t count;  /* MPICCWRAP_NO_COUNT when not compared */
    int64_t bytes;  /* count x type size, MPICCWRAP_NO_COUNT when not compared */
    uint64_t comm;  /* the communicator handle's value (not comparable across ranks) */
    int32_t comm_rank;
    int32_t comm_size;
    int32_t line;   /* call site: file:line in function */
    int32_t checks; /* enum mpiccwrap_check_bits of the site */
    char name[MPICCWRAP_NAME_SIZE];      /* the collective, "f()" or "exit" */
    char comm_name[MPICCWRAP_NAME_SIZE]; /* MPI's name of the communicator, else the
                                            source's spelling */
    char function[MPICCWRAP_NAME_SIZE];
    char file[MPICCWRAP_FILE_SIZE];
};
/* END mpiccwrap protocol */

#endif
