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
#define MPICCWRAP_PROTOCOL_VERSION 4

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
/* -- Deadlock diagnosis (cclib/mpiccwrap_hang.c, mpiccwrap_waitfor.c) ------------- *
 * Each rank that has been blocked in an MPI call for MPICC_WRAP_HANG_TIMEOUT seconds
 * sends world rank 0 one struct mpiccwrap_wf_state on a private duplicate of
 * MPI_COMM_WORLD; rank 0 builds the AND/OR wait-for graph from them.  The struct is
 * also the unit of the JSON file the report writes (one object per rank). */

/* Exit code given to MPI_Abort when the diagnosis proves a deadlock. */
#define MPICCWRAP_DEADLOCK_CODE 78
/* Default of MPICC_WRAP_HANG_TIMEOUT, in seconds. */
#define MPICCWRAP_HANG_TIMEOUT_DEFAULT 10
#define MPICCWRAP_WF_MAX_OPS 12
#define MPICCWRAP_WF_MAX_MEMBERS 128
#define MPICCWRAP_WF_MAX_OBJS 4
#define MPICCWRAP_WF_OBJ_SIZE 160
#define MPICCWRAP_WF_CALL_SIZE 24
#define MPICCWRAP_WF_COMM_SIZE 32

/* What a rank is doing when it reports. */
enum mpiccwrap_wf_status {
    MPICCWRAP_WF_BLOCKED = 1, /* in a blocking MPI call */
    MPICCWRAP_WF_FINISHED = 2 /* in MPI_Finalize, waiting for the other ranks */
};

/* How the operations a blocking call waits for combine. */
enum mpiccwrap_wf_join {
    MPICCWRAP_WF_AND = 1, /* every one must complete (Wait, Waitall, Sendrecv, ...) */
    MPICCWRAP_WF_OR = 2   /* any one is enough (Waitany, Waitsome) */
};

/* Kind of one operation. */
enum mpiccwrap_wf_kind {
    MPICCWRAP_WF_SEND = 1,   /* a send; a blocked standard send counts as synchronous */
    MPICCWRAP_WF_RECV = 2,   /* a receive (peer MPICCWRAP_WF_ANY: MPI_ANY_SOURCE) */
    MPICCWRAP_WF_PROBE = 3,  /* a probe: waits like a receive, consumes nothing */
    MPICCWRAP_WF_COLL = 4,   /* a collective (MPI_Finalize: on MPI_COMM_WORLD) */
    MPICCWRAP_WF_UNKNOWN = 5, /* cannot be judged (unknown request, intercommunicator):
                                 taken as able to complete */
    MPICCWRAP_WF_SENT = 6,   /* a send that completed recently (hints only) */
    MPICCWRAP_WF_UNRECEIVED = 7 /* a message that arrived and no receive matched it */
};

/* Peer and tag values with a meaning of their own. */
enum mpiccwrap_wf_peers {
    MPICCWRAP_WF_ANY = -1,   /* MPI_ANY_SOURCE / MPI_ANY_TAG */
    MPICCWRAP_WF_NOBODY = -2 /* no peer (collectives) */
};

/* Flags of mpiccwrap_wf_op.flags. */
enum mpiccwrap_wf_flags {
    MPICCWRAP_WF_WAITED = 1,    /* part of what the blocking call waits for */
    MPICCWRAP_WF_PERSISTENT = 2 /* an active persistent request */
};

struct mpiccwrap_wf_op {
    int32_t kind;      /* enum mpiccwrap_wf_kind */
    int32_t flags;     /* enum mpiccwrap_wf_flags */
    int32_t peer;      /* world rank, MPICCWRAP_WF_ANY or MPICCWRAP_WF_NOBODY */
    int32_t tag;       /* MPICCWRAP_WF_ANY for MPI_ANY_TAG */
    uint64_t comm_id;  /* equal on every rank of a communicator; 0: unknown */
    int32_t comm_size;
    int32_t obj;       /* index in objs of the call site's object, -1: unknown */
    int64_t bytes;     /* -1: unknown */
    uint64_t offset;   /* call site: return address relative to its object */
    char call[MPICCWRAP_WF_CALL_SIZE];      /* "MPI_Irecv" */
    char comm_name[MPICCWRAP_WF_COMM_SIZE]; /* MPI's name of the communicator, or "" */
};

struct mpiccwrap_wf_state {
    uint32_t version;    /* MPICCWRAP_PROTOCOL_VERSION */
    int32_t world_rank;
    int32_t world_size;
    int32_t status;      /* enum mpiccwrap_wf_status */
    uint64_t epoch;      /* number of the blocking call, per rank: equal epochs = same call */
    int32_t round;       /* confirmation round answered, 0 for a spontaneous report */
    int32_t join;        /* enum mpiccwrap_wf_join */
    int32_t nops;
    int32_t truncated;   /* 1: more outstanding operations than fit: judged unknown */
    uint64_t members_comm; /* comm_id whose world ranks are in members, 0: none */
    int32_t nmembers;      /* -1: that communicator has too many ranks to list */
    int32_t nobjs;
    char call[MPICCWRAP_WF_CALL_SIZE]; /* the blocking call */
    int32_t obj;
    int32_t pad;
    uint64_t offset;
    struct mpiccwrap_wf_op ops[MPICCWRAP_WF_MAX_OPS];
    int32_t members[MPICCWRAP_WF_MAX_MEMBERS];
    char objs[MPICCWRAP_WF_MAX_OBJS][MPICCWRAP_WF_OBJ_SIZE];
};
/* -- cDAG recording (cclib/mpiccwrap_cdag.c, MPICC_WRAP_CDAG=1) -------------------- *
 * Each process keeps its point-to-point operations, the probes that found a message and
 * its blocking collectives in memory, at most
 * MPICC_WRAP_CDAG_MAX records (default MPICCWRAP_CDAG_CAP_DEFAULT; past it the
 * operations are counted in `dropped`, not recorded), and writes them at MPI_Finalize
 * to $MPICC_WRAP_CDAG_DIR/mpiccwrap-<job>-<world rank>.cdag: one struct
 * mpiccwrap_cdag_header, then `nrecords` struct mpiccwrap_cdag_record, in the
 * writer's byte order.  `post` and `done` number the process's events (posting an
 * operation, one completing call): equal `done` = completed by the same call. */
#define MPICCWRAP_CDAG_MAGIC 0x0147414443575754
#define MPICCWRAP_CDAG_CAP_DEFAULT 1000000
#define MPICCWRAP_CDAG_MAX_OBJS 16
#define MPICCWRAP_CDAG_OBJ_SIZE 256

enum mpiccwrap_cdag_kind {
    MPICCWRAP_CDAG_SEND = 1,
    MPICCWRAP_CDAG_RECV = 2,
    MPICCWRAP_CDAG_COLL = 3,  /* a blocking collective: peer = its root, bytes = this
                                 process's count x type size (0: v-variants, none) */
    MPICCWRAP_CDAG_PROBE = 4  /* a probe that found a message: peer, tag, bytes of it */
};

/* Bits of mpiccwrap_cdag_record.flags. */
enum mpiccwrap_cdag_flags {
    MPICCWRAP_CDAG_DONE = 1,       /* completed (done is valid) */
    MPICCWRAP_CDAG_ANY_SOURCE = 2, /* posted with MPI_ANY_SOURCE; peer is the status's */
    MPICCWRAP_CDAG_NOPEER = 4      /* MPI_PROC_NULL, an intercommunicator, or unknown */
};

/* The MPI call that made a record: MPICCWRAP_CDAG_CALL_SEND_INIT is MPI_Send_init. */
enum mpiccwrap_cdag_call {
    MPICCWRAP_CDAG_CALL_SEND = 1,
    MPICCWRAP_CDAG_CALL_SSEND = 2,
    MPICCWRAP_CDAG_CALL_BSEND = 3,
    MPICCWRAP_CDAG_CALL_RSEND = 4,
    MPICCWRAP_CDAG_CALL_ISEND = 5,
    MPICCWRAP_CDAG_CALL_ISSEND = 6,
    MPICCWRAP_CDAG_CALL_IBSEND = 7,
    MPICCWRAP_CDAG_CALL_IRSEND = 8,
    MPICCWRAP_CDAG_CALL_RECV = 9,
    MPICCWRAP_CDAG_CALL_IRECV = 10,
    MPICCWRAP_CDAG_CALL_SENDRECV = 11,
    MPICCWRAP_CDAG_CALL_SENDRECV_REPLACE = 12,
    MPICCWRAP_CDAG_CALL_SEND_INIT = 13,
    MPICCWRAP_CDAG_CALL_SSEND_INIT = 14,
    MPICCWRAP_CDAG_CALL_BSEND_INIT = 15,
    MPICCWRAP_CDAG_CALL_RSEND_INIT = 16,
    MPICCWRAP_CDAG_CALL_RECV_INIT = 17,
    MPICCWRAP_CDAG_CALL_PROBE = 18,
    MPICCWRAP_CDAG_CALL_IPROBE = 19,
    MPICCWRAP_CDAG_CALL_MPROBE = 20,
    MPICCWRAP_CDAG_CALL_BARRIER = 32,
    MPICCWRAP_CDAG_CALL_BCAST = 33,
    MPICCWRAP_CDAG_CALL_REDUCE = 34,
    MPICCWRAP_CDAG_CALL_ALLREDUCE = 35,
    MPICCWRAP_CDAG_CALL_GATHER = 36,
    MPICCWRAP_CDAG_CALL_GATHERV = 37,
    MPICCWRAP_CDAG_CALL_SCATTER = 38,
    MPICCWRAP_CDAG_CALL_SCATTERV = 39,
    MPICCWRAP_CDAG_CALL_ALLGATHER = 40,
    MPICCWRAP_CDAG_CALL_ALLGATHERV = 41,
    MPICCWRAP_CDAG_CALL_ALLTOALL = 42,
    MPICCWRAP_CDAG_CALL_ALLTOALLV = 43,
    MPICCWRAP_CDAG_CALL_ALLTOALLW = 44,
    MPICCWRAP_CDAG_CALL_REDUCE_SCATTER = 45,
    MPICCWRAP_CDAG_CALL_REDUCE_SCATTER_BLOCK = 46,
    MPICCWRAP_CDAG_CALL_SCAN = 47,
    MPICCWRAP_CDAG_CALL_EXSCAN = 48
};

struct mpiccwrap_cdag_header {
    uint64_t magic;       /* MPICCWRAP_CDAG_MAGIC */
    uint32_t version;     /* MPICCWRAP_PROTOCOL_VERSION */
    uint32_t header_size; /* sizeof(struct mpiccwrap_cdag_header) */
    uint32_t record_size; /* sizeof(struct mpiccwrap_cdag_record) */
    int32_t world_rank;
    int32_t world_size;
    int32_t pid;
    uint64_t job;      /* equal on every process of one run */
    uint64_t nrecords;
    uint64_t dropped;  /* operations past the cap, not recorded */
    uint64_t cap;
    int32_t nobjs;     /* objects of the call sites (objs[obj]) */
    int32_t pad;
    char objs[MPICCWRAP_CDAG_MAX_OBJS][MPICCWRAP_CDAG_OBJ_SIZE];
};

struct mpiccwrap_cdag_record {
    uint32_t kind;    /* enum mpiccwrap_cdag_kind */
    uint32_t flags;   /* enum mpiccwrap_cdag_flags */
    int32_t peer;     /* world rank of the destination or (resolved) source */
    int32_t tag;      /* a receive's: the status's */
    uint64_t comm_id; /* equal on every rank of a communicator; 0: unknown */
    int64_t bytes;    /* sent, or received (from the status) */
    uint64_t addr;    /* buffer start (true lower bound) */
    int64_t extent;   /* bytes from addr to the last byte the datatype touches */
    uint64_t post;    /* event number of the posting call */
    uint64_t done;    /* event number of the completing call */
    uint64_t t_post_ns; /* CLOCK_MONOTONIC at posting and completion */
    uint64_t t_done_ns;
    uint64_t content; /* hash of the first bytes sent or received (contiguous), 0: none */
    int32_t call;     /* enum mpiccwrap_cdag_call */
    int32_t obj;      /* index in the header's objs of the call site, -1: unknown */
    uint64_t offset;  /* call site: address in that object */
};
/* END mpiccwrap protocol */

#endif
