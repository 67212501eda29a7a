/* mpiccwrap_comms.c - which communicator handles are live, so checks never touch others.
 *
 * An exit check reads a communicator variable the program itself may have freed, or
 * never set (an uninitialised global MPI_Comm is 0 under MPICH, which is not
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
 */
#include "mpiccwrap_cc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Register *out when the constructor succeeded. */
static int mw_made(int rc, const MPI_Comm *out)
{
    if (rc == MPI_SUCCESS && out)
        mw_add(*out);
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
    return mw_made(PMPI_Comm_dup(comm, newcomm), newcomm);
}

MW_WEAK int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

MW_WEAK int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return mw_made(PMPI_Comm_idup(comm, newcomm, request), newcomm);
}

MW_WEAK int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

MW_WEAK int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

MW_WEAK int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

MW_WEAK int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

MW_WEAK int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                            int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), newcomm);
}

MW_WEAK int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    return mw_made(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

MW_WEAK int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                             int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), newcomm);
}

MW_WEAK int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
                                  const int degrees[], const int destinations[],
                                  const int weights[], MPI_Info info, int reorder,
                                  MPI_Comm *newcomm)
{
    return mw_made(PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights,
                                          info, reorder, newcomm), newcomm);
}

MW_WEAK int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                           const int sourceweights[], int outdegree,
                                           const int destinations[], const int destweights[],
                                           MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights,
                                                   outdegree, destinations, destweights,
                                                   info, reorder, newcomm), newcomm);
}

MW_WEAK int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    return mw_made(PMPI_Intercomm_merge(intercomm, high, newcomm), newcomm);
}
