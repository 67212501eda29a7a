/* mpiccwrap_recorder.c - the recorder: PMPI interception and the trace file.
 *
 * Two jobs today (issue 10's blocking-call interception and issue 11's point-to-point
 * recording will join them here):
 *
 * 1. Which communicator handles are live, so checks never touch others.  An exit
 * check reads a communicator variable the program itself may have freed, or never set (an uninitialised global MPI_Comm is 0 under MPICH, which is not
 * MPI_COMM_NULL).  Calling MPI on such a handle is fatal (MPICH aborts in
 * MPI_Comm_test_inter).  This file keeps the set of live communicators: the
 * predefined ones, plus every communicator an MPI constructor returned and no
 * destructor has freed since.  It intercepts the constructors and destructors through
 * the MPI profiling interface (each wrapper calls the PMPI_ entry point), so
 * communicators made by any object of the program, instrumented or not, are known.
 * The checker skips a check on a handle that is not live: since every rank creates and
 * frees a communicator collectively, every rank skips the same checks.
 *
 * The wrappers are weak symbols: a program (or tool) that defines its own MPI_Comm_split
 * keeps it, and its communicators are then merely unknown here (their checks skipped).
 * A handle value that MPI reuses for a new communicator after a free is live again.
 *
 * Cost: one hash-set update per communicator creation or free; one lookup per check
 * on a communicator other than MPI_COMM_WORLD and MPI_COMM_SELF.  If the set cannot
 * grow (out of memory), every handle is treated as live, as before this file existed.
 *
 * 2. The trace file (MPICC_WRAP_TRACE_DIR): records in the layout of
 * mpiccwrap_protocol.h, one write(2) each, so what was written before an MPI_Abort
 * survives it.  Unset, the cost is one branch on a cached flag per check.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, mkdir */
#include "mpiccwrap_recorder.h"
#include "mpiccwrap_hang.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MW_WEAK __attribute__((weak))

static pthread_mutex_t mw_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *mw_slots; /* open addressing; 0 empty, 1 deleted, else key + 2 */
static size_t mw_cap, mw_used, mw_live;
static int mw_overflow;

static uint64_t mw_key(MPI_Comm comm)
{
    uint64_t k = 0;
    memcpy(&k, &comm, sizeof comm < sizeof k ? sizeof comm : sizeof k);
    return k + 2;
}

static size_t mw_hash(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static size_t mw_find(uint64_t k)
{
    size_t i = mw_hash(k, mw_cap);
    while (mw_slots[i] != 0 && mw_slots[i] != k)
        i = (i + 1) & (mw_cap - 1);
    return i;
}

static int mw_grow(void)
{
    size_t old_cap = mw_cap, i, cap = mw_cap ? 2 * mw_cap : 64;
    uint64_t *old = mw_slots, *fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
        return 0;
    mw_slots = fresh;
    mw_cap = cap;
    mw_used = mw_live;
    for (i = 0; i < old_cap; i++)
        if (old[i] > 1)
            mw_slots[mw_find(old[i])] = old[i];
    free(old);
    return 1;
}

static void mw_add(MPI_Comm comm)
{
    uint64_t k;
    size_t i;
    if (comm == MPI_COMM_NULL)
        return;
    k = mw_key(comm);
    pthread_mutex_lock(&mw_lock);
    if (!mw_overflow && 2 * (mw_used + 1) > mw_cap && !mw_grow())
        mw_overflow = 1;
    if (!mw_overflow) {
        i = mw_find(k);
        if (mw_slots[i] != k) {
            mw_slots[i] = k;
            mw_used++;
            mw_live++;
        }
    }
    pthread_mutex_unlock(&mw_lock);
}

static void mw_remove(MPI_Comm comm)
{
    size_t i;
    pthread_mutex_lock(&mw_lock);
    if (mw_cap) {
        i = mw_find(mw_key(comm));
        if (mw_slots[i] > 1) {
            mw_slots[i] = 1; /* deleted: keeps later probes going */
            mw_live--;
        }
    }
    pthread_mutex_unlock(&mw_lock);
}

int mpiccwrap_comm_live(MPI_Comm comm)
{
    int live;
    if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
        return 1;
    if (comm == MPI_COMM_NULL)
        return 0;
    pthread_mutex_lock(&mw_lock);
    live = mw_overflow || (mw_cap && mw_slots[mw_find(mw_key(comm))] > 1);
    pthread_mutex_unlock(&mw_lock);
    return live;
}

/* -- trace file -------------------------------------------------------------------- */

static pthread_mutex_t mw_trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int mw_trace_fd = -1;
static int mw_trace_failed;
static uint64_t mw_trace_seq;
static char mw_trace_path[4096];

int mpiccwrap_trace_on(void)
{
    static volatile int state = -1; /* benign race: every thread computes the same */
    if (state < 0) {
        const char *dir = getenv("MPICC_WRAP_TRACE_DIR");
        state = dir != NULL && dir[0] != '\0';
    }
    return state;
}

static int mw_write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        size -= (size_t)n;
    }
    return 1;
}

static void mw_trace_fail(const char *what)
{
    fprintf(stderr, "mpicc-wrap: note: cannot %s trace file %s: %s; no more records are "
                    "written\n", what, mw_trace_path, strerror(errno));
    mw_trace_failed = 1;
    if (mw_trace_fd >= 0)
        close(mw_trace_fd);
    mw_trace_fd = -1;
}

/* Create the trace file and write its header (under mw_trace_lock). */
static void mw_trace_open(void)
{
    struct mpiccwrap_trace_header head;
    const char *dir = getenv("MPICC_WRAP_TRACE_DIR");
    char *path = mw_trace_path;
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof mw_trace_path, "%s/mpiccwrap-%d-%ld.trace", dir ? dir : ".", rank,
             (long)getpid());
    if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        mw_trace_fail("create the directory of");
        return;
    }
    mw_trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (mw_trace_fd < 0) {
        mw_trace_fail("create");
        return;
    }
    memset(&head, 0, sizeof head);
    head.magic = MPICCWRAP_TRACE_MAGIC;
    head.version = MPICCWRAP_PROTOCOL_VERSION;
    head.header_size = (uint32_t)sizeof head;
    head.record_size = (uint32_t)sizeof(struct mpiccwrap_record);
    head.world_rank = rank;
    head.world_size = size;
    head.pid = (int32_t)getpid();
    if (!mw_write_all(mw_trace_fd, &head, sizeof head))
        mw_trace_fail("write");
}

void mpiccwrap_trace_record(struct mpiccwrap_record *rec)
{
    if (!mpiccwrap_trace_on())
        return;
    pthread_mutex_lock(&mw_trace_lock);
    if (mw_trace_fd < 0 && !mw_trace_failed)
        mw_trace_open();
    if (mw_trace_fd >= 0) {
        rec->seq = ++mw_trace_seq;
        if (!mw_write_all(mw_trace_fd, rec, sizeof *rec))
            mw_trace_fail("write");
    }
    pthread_mutex_unlock(&mw_trace_lock);
}

/* -- communicator constructors and destructors (weak PMPI wrappers) ----------------- */

/* Register *out when the constructor succeeded, and give it its identity for the
 * deadlock diagnosis (mpiccwrap_hang.c): made from `parent`; `counted` constructors
 * are collective over all of parent, so every rank numbers them alike. */
static int mw_made(int rc, MPI_Comm parent, const MPI_Comm *out, int salt, int counted)
{
    if (rc == MPI_SUCCESS && out) {
        mw_add(*out);
        mpiccwrap_hang_comm_made(parent, *out, salt, counted);
    }
    return rc;
}

/* Forget *comm when the destructor succeeded (it sets *comm to MPI_COMM_NULL). */
static int mw_freed(int (*destroy)(MPI_Comm *), MPI_Comm *comm)
{
    MPI_Comm old = comm ? *comm : MPI_COMM_NULL;
    int rc = destroy(comm);
    if (rc == MPI_SUCCESS && old != MPI_COMM_NULL)
        mw_remove(old);
    return rc;
}

MW_WEAK int MPI_Comm_free(MPI_Comm *comm)
{
    return mw_freed(PMPI_Comm_free, comm);
}

MW_WEAK int MPI_Comm_disconnect(MPI_Comm *comm)
{
    return mw_freed(PMPI_Comm_disconnect, comm);
}

MW_WEAK int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_dup(comm, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_dup_with_info(comm, info, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return mw_made(PMPI_Comm_idup(comm, newcomm, request), MPI_COMM_NULL, newcomm, 0, 0);
}

MW_WEAK int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_split(comm, color, key, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_create(comm, group, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_create_group(comm, group, tag, newcomm), comm, newcomm, tag, 0);
}

MW_WEAK int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                            int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    return mw_made(PMPI_Cart_sub(comm, remain_dims, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                             int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
                                  const int degrees[], const int destinations[],
                                  const int weights[], MPI_Info info, int reorder,
                                  MPI_Comm *newcomm)
{
    return mw_made(PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights,
                                          info, reorder, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                           const int sourceweights[], int outdegree,
                                           const int destinations[], const int destweights[],
                                           MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights,
                                                   outdegree, destinations, destweights,
                                                   info, reorder, newcomm), comm, newcomm, 0, 1);
}

MW_WEAK int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Intercomm_merge(intercomm, high, newcomm), intercomm, newcomm, 0, 1);
}
