/* mpiccwrap_hang.c - run-time deadlock diagnosis: interception and detection.
 *
 * Switch: MPICC_WRAP_DEADLOCK, on by default (read once in MPI_Init; every rank must
 * see the same value, as mpiexec gives them).  Off (0), every wrapper below is one
 * predicted branch and a tail call of its PMPI_ entry point.
 *
 * 1. Interception.  Weak MPI_* wrappers (a program's or tool's own definitions win)
 *    of every point-to-point call that can block, the waits, the blocking collectives
 *    and MPI_Finalize, and of the nonblocking and persistent calls whose requests the
 *    waits complete.  Per rank, O(1) per call and no allocation: the current blocking
 *    call (call name, peer, tag, communicator, byte count, call site) lives in `cur`,
 *    outstanding requests in a fixed open-addressing table (hw_tab, backward-shift
 *    deletion; when full, requests are not recorded and count as "unknown", which can
 *    only prevent a verdict), and the last sends in a ring (hints only).
 *
 *    Call site: the wrapper's return address (one store).  It is turned into
 *    "file:line in function()" only when a deadlock is reported: each rank sends its
 *    addresses as (object file, offset) pairs (dladdr: independent of ASLR), and the
 *    reporting rank runs addr2line on them.  With line tables this gives file:line
 *    and function, else the function, from the symbol table.  mpicc-wrap compiles
 *    every C TU with line tables (-g1 when the command chose no -g option; the code
 *    is unchanged, README "Call sites").  We chose this over site records from the
 *    rewriting because the rewriting only touches TUs with findings, and a deadlock
 *    can sit in any TU or library.
 *
 *    Blocking collectives, and the allreduce of each check of the collective checker
 *    (mpiccwrap_cc.c), are only carried out as below with
 *    MPICC_WRAP_HANG_COLLECTIVES=1.  A rank blocked in a check is reported as the
 *    collective it checks, at the check's call site in the program (not as an
 *    MPI_Allreduce inside mpiccwrap_cc): hypre 2.26's hypre_CSRMatrixToParCSRMatrix
 *    sets a code on rank 0 alone and branches on it, rank 0 scatters four times and
 *    the others twice, two of rank 0's scatters pass as theirs (same kind and size),
 *    and rank 0 then waits in the check of its next scatter while the others wait in
 *    MPI_Recv for rank 0.  Why a switch: MPI libraries implement the nonblocking forms
 *    with other, slower algorithms (MPICH: a one-double MPI_Iallreduce costs 3x an
 *    MPI_Allreduce at -n 2; a check 1.49 instead of 0.77 us per call, -n 2), which
 *    the default must not cost.  Without it a rank in a blocking collective or check
 *    never reports, so a hang that involves one gets no verdict.
 *
 * 2. Detection.  A blocking call is carried out as its nonblocking form plus a test
 *    loop (MPI_Recv = MPI_Irecv + MPI_Test ...).  The loop reads the clock every 256
 *    tests only; after 1 ms it also serves a private duplicate of MPI_COMM_WORLD
 *    (`ctl`, made in MPI_Init): no thread, no MPI_THREAD_MULTIPLE, no extra rank.
 *    After MPICC_WRAP_HANG_TIMEOUT seconds in one call a rank sends its state
 *    (struct mpiccwrap_wf_state) to world rank 0, once per call.  Rank 0 (whenever it
 *    is itself in such a loop, which it is when every rank is blocked) keeps the
 *    latest state of every rank.  When it holds a state for every rank, none has
 *    changed for SETTLE seconds and the wait-for graph says some operation can never
 *    complete, it asks every rank to confirm (a second snapshot); a rank answers from
 *    its loop with its fresh state.  Only if every answer equals the first snapshot
 *    (same blocking call, same operations: nothing completed, nothing arrived) is the
 *    verdict given.  A rank computing, or polling with MPI_Test/MPI_Iprobe, never
 *    answers, so there is no verdict and the program runs on.
 *
 * 3. The verdict and report are in mpiccwrap_waitfor.c; rank 0 prints it, writes the
 *    JSON and DOT files, and calls MPI_Abort(MPI_COMM_WORLD, MPICCWRAP_DEADLOCK_CODE).
 *
 * Not covered: MPI_THREAD_MULTIPLE programs (the diagnosis turns itself off), calls
 * this file does not wrap (one-sided, I/O, communicator constructors block unseen:
 * a rank in them never reports, so no verdict), intercommunicators (judged unknown).
 */
#define _GNU_SOURCE /* dladdr */
#include "mpiccwrap_hang.h"
#include "mpiccwrap_cc.h"
#include "mpiccwrap_cdag.h"
#include "mpiccwrap_recorder.h"

#include <dlfcn.h>
#include <elf.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MW_WEAK __attribute__((weak))
#define MW_HERE __builtin_return_address(0)

int mpiccwrap_hang_anchor;
int mpiccwrap_hang_in_check;

enum { TAG_STATE = 1, TAG_CONFIRM_REQ = 2, TAG_CONFIRM_REP = 3 };
enum { HW_TABLE = 4096, HW_RING = 4, HW_POOL = 4, HW_SCRATCH = 256 };
static const double HW_SETTLE = 1.0; /* seconds every state must stay unchanged */

struct hw_desc {
    int kind; /* enum mpiccwrap_wf_kind */
    int peer; /* rank in comm, MPI_ANY_SOURCE, or MPICCWRAP_WF_NOBODY */
    int tag;
    int persistent;
    MPI_Comm comm;
    long bytes;
    const char *call;
    const void *site;
    long rec;          /* cDAG record of the operation, -1: none */
    const void *buf;   /* persistent requests: what MPI_Start records */
    int count, ccall;  /* ccall: enum mpiccwrap_cdag_call */
    MPI_Datatype type;
};

static int hw_on, hw_coll_on, hw_sync_sends, hw_check_all, hw_rank, hw_size;
static const void *hw_check_site; /* return address of the collective being checked */
static double hw_timeout = MPICCWRAP_HANG_TIMEOUT_DEFAULT;
static MPI_Comm hw_ctl = MPI_COMM_NULL;
static MPI_Group hw_world_group = MPI_GROUP_NULL;
static int hw_keyval = MPI_KEYVAL_INVALID, hw_countval = MPI_KEYVAL_INVALID;
static uint64_t hw_world_children;

/* The current blocking call. */
static struct {
    uint64_t epoch; /* incremented when a blocking call begins */
    int status;     /* MPICCWRAP_WF_BLOCKED or _FINISHED */
    int join;
    const char *call;
    const void *site;
    int nown;
    struct hw_desc own[2]; /* operations of the call itself (its internal requests) */
    int nreqs;
    const MPI_Request *reqs; /* the user's requests it waits for */
    uint64_t pushed;         /* epoch last reported to rank 0 */
} cur;

static uint64_t hw_comm_id(MPI_Comm comm);
static int hw_world_rank(MPI_Comm comm, int rank);

/* -- outstanding requests --------------------------------------------------------- */

struct hw_entry {
    MPI_Request req;
    int used, active;
    struct hw_desc d;
};
static struct hw_entry hw_tab[HW_TABLE];
static int hw_tab_count, hw_tab_full;

static size_t hw_hash(MPI_Request r)
{
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (HW_TABLE - 1);
}

static int hw_find(MPI_Request r)
{
    size_t i = hw_hash(r);
    while (hw_tab[i].used) {
        if (hw_tab[i].req == r)
            return (int)i;
        i = (i + 1) & (HW_TABLE - 1);
    }
    return -1;
}

static void hw_insert(MPI_Request r, const struct hw_desc *d, int active)
{
    size_t i;
    if (r == MPI_REQUEST_NULL)
        return;
    i = hw_hash(r);
    while (hw_tab[i].used && hw_tab[i].req != r)
        i = (i + 1) & (HW_TABLE - 1);
    if (!hw_tab[i].used) {
        if (4 * (hw_tab_count + 1) > 3 * HW_TABLE) {
            hw_tab_full = 1; /* not recorded: a wait on it is judged unknown */
            return;
        }
        hw_tab_count++;
    }
    hw_tab[i].used = 1;
    hw_tab[i].req = r;
    hw_tab[i].active = active;
    hw_tab[i].d = *d;
}

static void hw_remove_at(size_t i)
{
    size_t j = i;
    hw_tab[i].used = 0;
    hw_tab_count--;
    for (;;) { /* backward-shift deletion: no tombstones */
        size_t k;
        j = (j + 1) & (HW_TABLE - 1);
        if (!hw_tab[j].used)
            return;
        k = hw_hash(hw_tab[j].req);
        if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
            hw_tab[i] = hw_tab[j];
            hw_tab[j].used = 0;
            i = j;
        }
    }
}

/* A request `old` completed with status st (NULL: none) and MPI set its handle to
 * `now`. */
static void hw_completed(MPI_Request old, MPI_Request now, const MPI_Status *st)
{
    int i;
    if (old == MPI_REQUEST_NULL || (i = hw_find(old)) < 0)
        return;
    if (mpiccwrap_cdag_on && hw_tab[i].d.rec >= 0) {
        mpiccwrap_cdag_tick();
        mpiccwrap_cdag_done(hw_tab[i].d.rec, st, hw_tab[i].d.comm);
        hw_tab[i].d.rec = -1;
    }
    if (now == MPI_REQUEST_NULL)
        hw_remove_at((size_t)i);
    else
        hw_tab[i].active = 0; /* persistent: inactive until MPI_Start */
}

static MPI_Request hw_scratch_fixed[HW_SCRATCH];
static MPI_Request *hw_scratch = hw_scratch_fixed;
static int hw_scratch_cap = HW_SCRATCH;

/* A copy of the handles of reqs (MPI resets completed ones to MPI_REQUEST_NULL). */
static MPI_Request *hw_copy(int n, const MPI_Request *reqs)
{
    if (n > hw_scratch_cap) {
        MPI_Request *p = malloc(sizeof *p * (size_t)n);
        if (!p)
            return NULL;
        if (hw_scratch != hw_scratch_fixed)
            free(hw_scratch);
        hw_scratch = p;
        hw_scratch_cap = n;
    }
    if (n > 0)
        memcpy(hw_scratch, reqs, sizeof *reqs * (size_t)n);
    return hw_scratch;
}

static void hw_completed_all(int n, const MPI_Request *old, const MPI_Request *now,
                             const MPI_Status *st)
{
    int i;
    if (!old)
        return;
    if (mpiccwrap_cdag_on)
        mpiccwrap_cdag_batch(1); /* one completing call: one time */
    for (i = 0; i < n; i++)
        hw_completed(old[i], now[i], st == MPI_STATUSES_IGNORE ? NULL : &st[i]);
    if (mpiccwrap_cdag_on)
        mpiccwrap_cdag_batch(0);
}

static void hw_completed_some(int k, const int *idx, const MPI_Request *old,
                              const MPI_Request *now, const MPI_Status *st)
{
    int i;
    if (!old || k == MPI_UNDEFINED)
        return;
    if (mpiccwrap_cdag_on)
        mpiccwrap_cdag_batch(1);
    for (i = 0; i < k; i++)
        hw_completed(old[idx[i]], now[idx[i]], st == MPI_STATUSES_IGNORE ? NULL : &st[i]);
    if (mpiccwrap_cdag_on)
        mpiccwrap_cdag_batch(0);
}

uint64_t mpiccwrap_hang_comm_id(MPI_Comm comm)
{
    return hw_comm_id(comm);
}

int mpiccwrap_hang_world_rank(MPI_Comm comm, int rank)
{
    return hw_world_rank(comm, rank);
}

MPI_Group mpiccwrap_hang_world_group(void)
{
    return hw_world_group;
}

/* -- the last sends (hints for unmatched receives) --------------------------------- */

static struct {
    struct hw_desc d;
    int used;
} hw_ring[HW_RING];
static unsigned hw_ring_next;

static void hw_sent(const struct hw_desc *d)
{
    hw_ring[hw_ring_next & (HW_RING - 1)].d = *d;
    hw_ring[hw_ring_next & (HW_RING - 1)].used = 1;
    hw_ring_next++;
}

static long hw_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1;
    return (long)count * size;
}

static struct hw_desc hw_p2p(int kind, int peer, int tag, MPI_Comm comm, long bytes,
                             const char *call, const void *site)
{
    struct hw_desc d;
    d.kind = kind;
    d.peer = peer;
    d.tag = tag;
    d.persistent = 0;
    d.comm = comm;
    d.bytes = bytes;
    d.call = call;
    d.site = site;
    d.rec = -1;
    d.buf = NULL;
    d.count = 0;
    d.ccall = 0;
    d.type = MPI_DATATYPE_NULL;
    return d;
}

/* -- communicator identities --------------------------------------------------------- */

static uint64_t hw_mix(uint64_t a, uint64_t b)
{
    uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z < 16 ? z + 16 : z; /* 0 unknown, 1 world, 2.. self */
}

static uint64_t hw_comm_id(MPI_Comm comm)
{
    void *val = NULL;
    int flag = 0;
    if (comm == MPI_COMM_WORLD)
        return 1;
    if (comm == MPI_COMM_SELF)
        return hw_mix(2, (uint64_t)hw_rank);
    if (hw_keyval == MPI_KEYVAL_INVALID || !mpiccwrap_comm_live(comm))
        return 0;
    if (PMPI_Comm_get_attr(comm, hw_keyval, &val, &flag) != MPI_SUCCESS || !flag)
        return 0;
    return (uint64_t)(uintptr_t)val;
}

void mpiccwrap_hang_comm_made(MPI_Comm parent, MPI_Comm child, int salt, int counted)
{
    uint64_t pid, n = 0;
    void *val = NULL;
    int flag = 0;
    if (!hw_on || hw_keyval == MPI_KEYVAL_INVALID)
        return;
    pid = hw_comm_id(parent);
    if (pid == 0)
        return; /* unknown parent: the child stays unknown (matches anything) */
    if (counted) { /* on every rank of parent, also those that get MPI_COMM_NULL */
        if (parent == MPI_COMM_WORLD)
            n = ++hw_world_children;
        else if (parent != MPI_COMM_SELF &&
                 PMPI_Comm_get_attr(parent, hw_countval, &val, &flag) == MPI_SUCCESS) {
            n = (flag ? (uint64_t)(uintptr_t)val : 0) + 1;
            PMPI_Comm_set_attr(parent, hw_countval, (void *)(uintptr_t)n);
        }
    }
    if (child == MPI_COMM_NULL)
        return;
    PMPI_Comm_set_attr(child, hw_keyval,
                       (void *)(uintptr_t)hw_mix(hw_mix(pid, n), (uint64_t)(salt + 1000)));
}

/* -- snapshots ------------------------------------------------------------------------ */

static int hw_world_rank(MPI_Comm comm, int rank)
{
    int inter = 0, out = MPI_UNDEFINED;
    MPI_Group g;
    if (rank == MPI_ANY_SOURCE)
        return MPICCWRAP_WF_ANY;
    if (rank < 0)
        return MPICCWRAP_WF_NOBODY;
    if (comm == MPI_COMM_WORLD)
        return rank;
    if (comm == MPI_COMM_SELF)
        return hw_rank;
    if (!mpiccwrap_comm_live(comm) || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        inter)
        return MPICCWRAP_WF_NOBODY;
    if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return MPICCWRAP_WF_NOBODY;
    PMPI_Group_translate_ranks(g, 1, &rank, hw_world_group, &out);
    PMPI_Group_free(&g);
    return out == MPI_UNDEFINED ? MPICCWRAP_WF_NOBODY : out;
}

/* The first len characters of src into dst (n bytes), cut to fit and terminated. */
static void hw_copy_len(char *dst, const char *src, size_t len, size_t n)
{
    if (len > n - 1)
        len = n - 1;
    if (len)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

static void hw_copy_str(char *dst, const char *src, size_t n)
{
    hw_copy_len(dst, src, src ? strlen(src) : 0, n);
}

/* A call's name for the report: a check names the function it checks, which the
 * rewriter spells "f()" for a function that runs collectives; the report adds the
 * parentheses itself. */
static void hw_copy_call(char *dst, const char *src, size_t n)
{
    size_t len = src ? strlen(src) : 0;
    if (len >= 2 && src[len - 2] == '(' && src[len - 1] == ')')
        len -= 2;
    hw_copy_len(dst, src, len, n);
}

/* Object index and offset of a call site, for addr2line on the reporting rank. */
static void hw_site(struct mpiccwrap_wf_state *s, const void *site, int32_t *obj,
                    uint64_t *offset)
{
    Dl_info info;
    char path[MPICCWRAP_WF_OBJ_SIZE];
    uintptr_t addr = (uintptr_t)site, base;
    int i;
    *obj = -1;
    *offset = (uint64_t)addr;
    if (!site || !dladdr(site, &info) || !info.dli_fbase)
        return;
    base = (uintptr_t)info.dli_fbase;
    if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_EXEC)
        base = 0; /* non-PIE executable: addr2line wants the address itself */
    *offset = (uint64_t)(addr - 1 - base); /* inside the call instruction */
    path[0] = '\0';
    if (info.dli_fname && strchr(info.dli_fname, '/') && info.dli_fname[0] == '/')
        hw_copy_str(path, info.dli_fname, sizeof path);
    else {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        path[n > 0 ? n : 0] = '\0';
    }
    for (i = 0; i < s->nobjs; i++)
        if (!strcmp(s->objs[i], path)) {
            *obj = i;
            return;
        }
    if (s->nobjs < MPICCWRAP_WF_MAX_OBJS) {
        hw_copy_str(s->objs[s->nobjs], path, MPICCWRAP_WF_OBJ_SIZE);
        *obj = s->nobjs++;
    }
}

static void hw_members(struct mpiccwrap_wf_state *s, MPI_Comm comm, uint64_t id)
{
    MPI_Group g;
    int n = 0, i, ranks[MPICCWRAP_WF_MAX_MEMBERS];
    if (s->members_comm || id <= 1 || comm == MPI_COMM_SELF)
        return;
    s->members_comm = id;
    PMPI_Comm_size(comm, &n);
    if (n > MPICCWRAP_WF_MAX_MEMBERS) {
        s->nmembers = -1;
        return;
    }
    if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS) {
        s->nmembers = -1;
        return;
    }
    for (i = 0; i < n; i++)
        ranks[i] = i;
    PMPI_Group_translate_ranks(g, n, ranks, hw_world_group, s->members);
    PMPI_Group_free(&g);
    s->nmembers = n;
}

/* Append one operation; 0 when full. */
static int hw_add(struct mpiccwrap_wf_state *s, const struct hw_desc *d, int flags)
{
    struct mpiccwrap_wf_op *o;
    int inter = 0, live;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    if (s->nops >= MPICCWRAP_WF_MAX_OPS)
        return 0;
    o = &s->ops[s->nops++];
    o->kind = d->kind;
    o->flags = flags | (d->persistent ? MPICCWRAP_WF_PERSISTENT : 0);
    o->tag = d->tag == MPI_ANY_TAG ? MPICCWRAP_WF_ANY : d->tag;
    o->bytes = d->bytes;
    hw_copy_call(o->call, d->call, sizeof o->call);
    hw_site(s, d->site, &o->obj, &o->offset);
    live = d->comm == MPI_COMM_WORLD || d->comm == MPI_COMM_SELF ||
           mpiccwrap_comm_live(d->comm);
    if (d->kind == MPICCWRAP_WF_UNKNOWN || !live ||
        PMPI_Comm_test_inter(d->comm, &inter) != MPI_SUCCESS || inter) {
        if (d->kind != MPICCWRAP_WF_SENT)
            o->kind = MPICCWRAP_WF_UNKNOWN;
        o->peer = MPICCWRAP_WF_NOBODY;
        return 1;
    }
    o->peer = d->kind == MPICCWRAP_WF_COLL ? MPICCWRAP_WF_NOBODY
                                            : hw_world_rank(d->comm, d->peer);
    if (d->kind != MPICCWRAP_WF_COLL && d->peer == MPI_PROC_NULL)
        o->kind = MPICCWRAP_WF_UNKNOWN; /* completes at once (MPI_PROC_NULL may equal
                                           MPICCWRAP_WF_NOBODY: Open MPI's is -2) */
    o->comm_id = hw_comm_id(d->comm);
    PMPI_Comm_size(d->comm, &o->comm_size);
    name[0] = '\0';
    PMPI_Comm_get_name(d->comm, name, &len);
    hw_copy_str(o->comm_name, name, sizeof o->comm_name);
    if ((flags & MPICCWRAP_WF_WAITED) &&
        (d->kind == MPICCWRAP_WF_COLL || o->peer == MPICCWRAP_WF_ANY))
        hw_members(s, d->comm, o->comm_id);
    return 1;
}

static int hw_waited(MPI_Request r)
{
    int i;
    for (i = 0; i < cur.nreqs; i++)
        if (cur.reqs[i] == r)
            return 1;
    return 0;
}

static void hw_snapshot(struct mpiccwrap_wf_state *s, int round)
{
    int i, any_done = 0;
    struct hw_desc unknown = hw_p2p(MPICCWRAP_WF_UNKNOWN, MPICCWRAP_WF_NOBODY, 0,
                                    MPI_COMM_NULL, -1, "request", NULL);
    memset(s, 0, sizeof *s);
    s->version = MPICCWRAP_PROTOCOL_VERSION;
    s->world_rank = hw_rank;
    s->world_size = hw_size;
    s->status = cur.status;
    s->epoch = cur.epoch;
    s->round = round;
    s->join = cur.join;
    hw_copy_call(s->call, cur.call, sizeof s->call);
    hw_site(s, cur.site, &s->obj, &s->offset);
    for (i = 0; i < cur.nown; i++)
        if (!hw_add(s, &cur.own[i], MPICCWRAP_WF_WAITED))
            s->truncated = 1;
    for (i = 0; i < cur.nreqs; i++) {
        int k, flag = 0;
        if (cur.reqs[i] == MPI_REQUEST_NULL)
            continue;
        PMPI_Request_get_status(cur.reqs[i], &flag, MPI_STATUS_IGNORE);
        if (flag) {
            any_done = 1;
            continue;
        }
        k = hw_find(cur.reqs[i]);
        if (!hw_add(s, k >= 0 ? &hw_tab[k].d : &unknown, MPICCWRAP_WF_WAITED))
            s->truncated = 1;
    }
    if (s->truncated || (any_done && s->join == MPICCWRAP_WF_OR)) {
        /* cannot be judged: one operation that always counts as able to complete */
        if (s->nops >= MPICCWRAP_WF_MAX_OPS)
            s->nops = MPICCWRAP_WF_MAX_OPS - 1;
        hw_add(s, &unknown, MPICCWRAP_WF_WAITED);
        s->truncated = 0;
    }
    /* outstanding requests not waited for: sends and receives others may match */
    for (i = 0; i < HW_TABLE; i++)
        if (hw_tab[i].used && hw_tab[i].active && !hw_waited(hw_tab[i].req) &&
            !hw_add(s, &hw_tab[i].d, 0))
            s->truncated = 1;
    if (hw_tab_full)
        s->truncated = 1;
    /* hints: messages that arrived unmatched on the communicators received on */
    for (i = 0; i < cur.nown; i++) {
        MPI_Status st;
        int flag = 0, count = 0;
        struct hw_desc d = cur.own[i];
        if (d.kind != MPICCWRAP_WF_RECV && d.kind != MPICCWRAP_WF_PROBE)
            continue;
        if (!(d.comm == MPI_COMM_WORLD || mpiccwrap_comm_live(d.comm)))
            continue;
        if (PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, d.comm, &flag, &st) != MPI_SUCCESS ||
            !flag)
            continue;
        PMPI_Get_count(&st, MPI_BYTE, &count);
        d = hw_p2p(MPICCWRAP_WF_UNRECEIVED, st.MPI_SOURCE, st.MPI_TAG, d.comm, count,
                   "message", NULL);
        hw_add(s, &d, 0);
    }
    for (i = 0; i < HW_RING; i++) {
        const unsigned k = (hw_ring_next - 1 - (unsigned)i) & (HW_RING - 1);
        if (hw_ring[k].used && !hw_add(s, &hw_ring[k].d, 0))
            break;
    }
}

/* -- the control communicator --------------------------------------------------------- */

static struct mpiccwrap_wf_state hw_pool[HW_POOL];
static MPI_Request hw_pool_req[HW_POOL] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                                           MPI_REQUEST_NULL, MPI_REQUEST_NULL};

static void hw_send_state(int round, int tag)
{
    int i, flag;
    for (i = 0; i < HW_POOL; i++) {
        flag = 1;
        if (hw_pool_req[i] != MPI_REQUEST_NULL)
            PMPI_Test(&hw_pool_req[i], &flag, MPI_STATUS_IGNORE);
        if (flag)
            break;
    }
    if (i == HW_POOL)
        return; /* rank 0 has not taken the previous ones: it will ask again */
    hw_snapshot(&hw_pool[i], round);
    PMPI_Isend(&hw_pool[i], (int)sizeof hw_pool[i], MPI_BYTE, 0, tag, hw_ctl, &hw_pool_req[i]);
}

/* Rank 0's view: the latest state of every rank, and the confirmation round. */
static struct {
    struct mpiccwrap_wf_state *states;
    char *have, *confirmed, *released;
    int nhave, nconfirmed, round, open, judged;
    double changed;
    MPI_Request *reqs;
    int round_buf;
} co;

static int hw_co_init(void)
{
    int i;
    if (co.states)
        return 1;
    co.states = calloc((size_t)hw_size, sizeof *co.states);
    co.have = calloc((size_t)hw_size, 1);
    co.confirmed = calloc((size_t)hw_size, 1);
    co.released = calloc((size_t)hw_size, 1);
    co.reqs = malloc(sizeof *co.reqs * (size_t)hw_size);
    if (!co.states || !co.have || !co.confirmed || !co.released || !co.reqs) {
        free(co.states);
        co.states = NULL;
        return 0;
    }
    for (i = 0; i < hw_size; i++)
        co.reqs[i] = MPI_REQUEST_NULL;
    return 1;
}

static int hw_same(const struct mpiccwrap_wf_state *a, const struct mpiccwrap_wf_state *b)
{
    return a->epoch == b->epoch && a->status == b->status && a->nops == b->nops &&
           a->truncated == b->truncated &&
           !memcmp(a->ops, b->ops, sizeof a->ops[0] * (size_t)a->nops);
}

static void hw_co_store(const struct mpiccwrap_wf_state *s, double now)
{
    int r = s->world_rank;
    if (!hw_co_init() || r < 0 || r >= hw_size || s->version != MPICCWRAP_PROTOCOL_VERSION)
        return;
    if (co.have[r] && s->epoch < co.states[r].epoch)
        return; /* older than what we know */
    if (co.open && s->round == co.round && r != 0 && !co.confirmed[r] &&
        hw_same(s, &co.states[r])) {
        co.confirmed[r] = 1;
        co.nconfirmed++;
        return;
    }
    if (co.have[r] && hw_same(s, &co.states[r]))
        return;
    if (!co.have[r]) {
        co.have[r] = 1;
        co.nhave++;
    }
    co.states[r] = *s;
    co.changed = now;
    co.open = 0; /* a changed state voids the round */
    co.judged = 0;
}

static void hw_abort_deadlock(void)
{
    struct timespec pause = {0, 200000000L};
    mpiccwrap_wf_report(co.states, hw_size, co.released, hw_timeout);
    fflush(stderr);
    nanosleep(&pause, NULL);
    PMPI_Abort(MPI_COMM_WORLD, MPICCWRAP_DEADLOCK_CODE);
    _Exit(MPICCWRAP_DEADLOCK_CODE);
}

static void hw_co_step(double now)
{
    int i, flag = 0;
    if (!co.states || co.nhave < hw_size || !co.have[0] || co.states[0].epoch != cur.epoch)
        return;
    if (co.open) {
        if (co.nconfirmed < hw_size - 1)
            return;
        co.open = 0;
        if (mpiccwrap_wf_verdict(co.states, hw_size, co.released))
            hw_abort_deadlock();
        return;
    }
    if (co.judged || now - co.changed < HW_SETTLE)
        return;
    co.judged = 1;
    if (!mpiccwrap_wf_verdict(co.states, hw_size, co.released))
        return;
    PMPI_Testall(hw_size, co.reqs, &flag, MPI_STATUSES_IGNORE);
    if (!flag)
        return;
    co.round++;
    co.round_buf = co.round;
    co.open = 1;
    co.nconfirmed = 0;
    memset(co.confirmed, 0, (size_t)hw_size);
    for (i = 1; i < hw_size; i++)
        PMPI_Isend(&co.round_buf, 1, MPI_INT, i, TAG_CONFIRM_REQ, hw_ctl, &co.reqs[i]);
    co.judged = 0; /* judged again when the answers are in */
    hw_co_step(now);
}

static double hw_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static struct mpiccwrap_wf_state hw_inbox;

/* Serve the control communicator from a blocking call that has waited `waited` s. */
static void hw_serve(double waited, double now)
{
    MPI_Status st;
    int flag = 1, round = 0;
    while (flag) {
        flag = 0;
        if (PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, hw_ctl, &flag, &st) != MPI_SUCCESS ||
            !flag)
            break;
        if (st.MPI_TAG == TAG_CONFIRM_REQ) {
            PMPI_Recv(&round, 1, MPI_INT, st.MPI_SOURCE, TAG_CONFIRM_REQ, hw_ctl,
                      MPI_STATUS_IGNORE);
            hw_send_state(round, TAG_CONFIRM_REP);
        } else {
            PMPI_Recv(&hw_inbox, (int)sizeof hw_inbox, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
                      hw_ctl, MPI_STATUS_IGNORE);
            hw_co_store(&hw_inbox, now);
        }
    }
    if (waited >= hw_timeout && cur.pushed != cur.epoch) {
        cur.pushed = cur.epoch;
        if (hw_rank == 0) {
            hw_snapshot(&hw_inbox, 0);
            hw_co_store(&hw_inbox, now);
        } else {
            hw_send_state(0, TAG_STATE);
        }
    }
    if (hw_rank == 0 && waited >= hw_timeout)
        hw_co_step(now);
}

/* -- the progress loop ------------------------------------------------------------------ */

struct hw_spin {
    unsigned n;
    int slow;
    double start;
};

static void hw_tick(struct hw_spin *s)
{
    double now, waited;
    if (s->slow)
        sched_yield(); /* long waits give the core away at every test */
    if (++s->n & 255u)
        return;
    /* and every 256 tests from the start, as MPI's own blocking progress does: a
     * rank spinning on a loaded or oversubscribed node must not keep the core its
     * peer needs to send what it waits for */
    sched_yield();
    now = hw_now();
    if (s->start == 0) {
        s->start = now;
        return;
    }
    waited = now - s->start;
    if (waited < 0.001)
        return;
    s->slow = waited > 0.05;
    hw_serve(waited, now);
}

static void hw_begin(const char *call, const void *site, int join)
{
    cur.epoch++;
    cur.status = MPICCWRAP_WF_BLOCKED;
    cur.join = join;
    cur.call = call;
    cur.site = site;
    cur.nown = 0;
    cur.nreqs = 0;
    cur.reqs = NULL;
}

static void hw_own(const struct hw_desc *d)
{
    cur.own[cur.nown++] = *d;
}

/* Complete the call's own requests (n of them, in reqs), as MPI_Waitall would. */
static int hw_finish(int n, MPI_Request *reqs, MPI_Status *statuses)
{
    struct hw_spin s = {0, 0, 0};
    int flag = 0, rc;
    for (;;) {
        rc = n == 1 ? PMPI_Test(reqs, &flag, statuses) : PMPI_Testall(n, reqs, &flag, statuses);
        if (flag || rc != MPI_SUCCESS)
            return rc;
        hw_tick(&s);
    }
}

/* -- MPI_Init / MPI_Finalize -------------------------------------------------------------- */

static int hw_flag(const char *name, int dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    return !(!strcmp(e, "0") || !strcmp(e, "no") || !strcmp(e, "off") || !strcmp(e, "false"));
}

static void hw_setup(int provided)
{
    const char *t = getenv("MPICC_WRAP_HANG_TIMEOUT");
    const char *check = getenv("MPICC_WRAP_CHECK");
    const char *trace = getenv("MPICC_WRAP_TRACE_DIR");
    int cdag = hw_flag("MPICC_WRAP_CDAG", 0) || (trace && *trace);
    hw_sync_sends = hw_flag("MPICC_WRAP_SYNC_SENDS", 0);
    hw_check_all = check && !strcmp(check, "all");
    if (provided == MPI_THREAD_MULTIPLE || !(cdag || hw_flag("MPICC_WRAP_DEADLOCK", 1)))
        return; /* cDAG recording lives in this interception: it keeps it on */
    if (t && *t) {
        char *end;
        double v = strtod(t, &end);
        if (end != t && v > 0)
            hw_timeout = v;
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &hw_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &hw_size);
    PMPI_Comm_group(MPI_COMM_WORLD, &hw_world_group);
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &hw_ctl) != MPI_SUCCESS)
        return;
    mpiccwrap_shm_release(); /* every rank has left PMPI_Init: see mpiccwrap_shm.c */
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &hw_keyval, NULL);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &hw_countval,
                            NULL);
    hw_on = 1;
    hw_coll_on = hw_flag("MPICC_WRAP_HANG_COLLECTIVES", 0);
    if (cdag)
        mpiccwrap_cdag_setup(hw_ctl, hw_rank, hw_size);
}

MW_WEAK int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv), provided = MPI_THREAD_SINGLE;
    if (rc == MPI_SUCCESS) {
        PMPI_Query_thread(&provided);
        hw_setup(provided);
    }
    return rc;
}

MW_WEAK int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        hw_setup(*provided);
    return rc;
}

MW_WEAK int MPI_Finalize(void)
{
    MPI_Request r;
    if (hw_on && PMPI_Ibarrier(hw_ctl, &r) == MPI_SUCCESS) {
        struct hw_desc d = hw_p2p(MPICCWRAP_WF_COLL, MPICCWRAP_WF_NOBODY, 0, MPI_COMM_WORLD,
                                  -1, "MPI_Finalize", MW_HERE);
        hw_begin("MPI_Finalize", MW_HERE, MPICCWRAP_WF_AND);
        cur.status = MPICCWRAP_WF_FINISHED;
        hw_own(&d);
        hw_finish(1, &r, MPI_STATUS_IGNORE);
        hw_on = 0;
        PMPI_Waitall(HW_POOL, hw_pool_req, MPI_STATUSES_IGNORE); /* eager: done already */
        mpiccwrap_cdag_write(hw_ctl);
    }
    hw_on = hw_coll_on = 0;
    {
        int rc = PMPI_Finalize();
        mpiccwrap_cdag_report();
        return rc;
    }
}

/* -- point-to-point ------------------------------------------------------------------------ */

/* cDAG: record a blocking operation posted now (-1 when not recording). */
static long hw_rec(int kind, int ccall, const void *buf, int count, MPI_Datatype type,
                   int peer, int tag, MPI_Comm comm, const void *site)
{
    if (__builtin_expect(!mpiccwrap_cdag_on, 1))
        return -1;
    return mpiccwrap_cdag_post(kind, ccall, buf, count, type, peer, tag, comm, site);
}

/* cDAG: the blocking operations rec1, rec2 completed (st: the receive's status). */
static void hw_rec_done(long rec1, long rec2, const MPI_Status *st, MPI_Comm comm)
{
    if (__builtin_expect(!mpiccwrap_cdag_on, 1))
        return;
    mpiccwrap_cdag_tick();
    mpiccwrap_cdag_batch(1);
    mpiccwrap_cdag_done(rec1, st, comm);
    mpiccwrap_cdag_done(rec2, st, comm);
    mpiccwrap_cdag_batch(0);
}

/* cDAG: the records one call posts share its time (on: 1 before them, 0 after). */
static void hw_rec_batch(int on)
{
    if (__builtin_expect(mpiccwrap_cdag_on, 0))
        mpiccwrap_cdag_batch(on);
}

static int hw_send(int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                                MPI_Request *),
                   const char *call, int ccall, const void *site, const void *buf, int count,
                   MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    struct hw_desc d;
    long rec = hw_rec(MPICCWRAP_CDAG_SEND, ccall, buf, count, type, dest, tag, comm, site);
    int rc = isend(buf, count, type, dest, tag, comm, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    d = hw_p2p(MPICCWRAP_WF_SEND, dest, tag, comm, hw_bytes(count, type), call, site);
    hw_begin(call, site, MPICCWRAP_WF_AND);
    hw_own(&d);
    rc = hw_finish(1, &r, MPI_STATUS_IGNORE);
    hw_rec_done(rec, -1, NULL, comm);
    d.kind = MPICCWRAP_WF_SENT;
    hw_sent(&d);
    return rc;
}

MW_WEAK int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm)
{
    if (!hw_on)
        return hw_sync_sends ? PMPI_Ssend(buf, count, type, dest, tag, comm)
                             : PMPI_Send(buf, count, type, dest, tag, comm);
    return hw_send(hw_sync_sends ? PMPI_Issend : PMPI_Isend, "MPI_Send",
                   MPICCWRAP_CDAG_CALL_SEND, MW_HERE, buf, count, type, dest, tag, comm);
}

MW_WEAK int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    if (!hw_on)
        return PMPI_Ssend(buf, count, type, dest, tag, comm);
    return hw_send(PMPI_Issend, "MPI_Ssend", MPICCWRAP_CDAG_CALL_SSEND, MW_HERE, buf, count,
                   type, dest, tag, comm);
}

MW_WEAK int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    if (!hw_on)
        return PMPI_Rsend(buf, count, type, dest, tag, comm);
    return hw_send(PMPI_Irsend, "MPI_Rsend", MPICCWRAP_CDAG_CALL_RSEND, MW_HERE, buf, count,
                   type, dest, tag, comm);
}

MW_WEAK int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm)
{
    long rec = hw_rec(MPICCWRAP_CDAG_SEND, MPICCWRAP_CDAG_CALL_BSEND, buf, count, type, dest,
                      tag, comm, MW_HERE);
    int rc = PMPI_Bsend(buf, count, type, dest, tag, comm); /* local: never blocks */
    hw_rec_done(rec, -1, NULL, comm);
    if (hw_on && rc == MPI_SUCCESS) {
        struct hw_desc d = hw_p2p(MPICCWRAP_WF_SENT, dest, tag, comm, hw_bytes(count, type),
                                  "MPI_Bsend", MW_HERE);
        hw_sent(&d);
    }
    return rc;
}

MW_WEAK int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    struct hw_desc d;
    int rc;
    long rec;
    if (!hw_on)
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    rec = hw_rec(MPICCWRAP_CDAG_RECV, MPICCWRAP_CDAG_CALL_RECV, buf, count, type, source, tag,
                 comm, MW_HERE);
    rc = PMPI_Irecv(buf, count, type, source, tag, comm, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    d = hw_p2p(MPICCWRAP_WF_RECV, source, tag, comm, hw_bytes(count, type), "MPI_Recv",
               MW_HERE);
    hw_begin("MPI_Recv", MW_HERE, MPICCWRAP_WF_AND);
    hw_own(&d);
    status = mpiccwrap_cdag_statuses(1, status);
    rc = hw_finish(1, &r, status);
    hw_rec_done(rec, -1, status, comm);
    return rc;
}

MW_WEAK int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r[2];
    MPI_Status st[2];
    struct hw_desc d;
    int rc;
    long rr, rs;
    if (!hw_on)
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    hw_rec_batch(1);
    rr = hw_rec(MPICCWRAP_CDAG_RECV, MPICCWRAP_CDAG_CALL_SENDRECV, recvbuf, recvcount, recvtype,
                source, recvtag, comm, MW_HERE);
    rs = hw_rec(MPICCWRAP_CDAG_SEND, MPICCWRAP_CDAG_CALL_SENDRECV, sendbuf, sendcount, sendtype,
                dest, sendtag, comm, MW_HERE);
    hw_rec_batch(0);
    rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        PMPI_Cancel(&r[0]);
        PMPI_Request_free(&r[0]);
        return rc;
    }
    hw_begin("MPI_Sendrecv", MW_HERE, MPICCWRAP_WF_AND);
    d = hw_p2p(MPICCWRAP_WF_RECV, source, recvtag, comm, hw_bytes(recvcount, recvtype),
               "MPI_Sendrecv", MW_HERE);
    hw_own(&d);
    d = hw_p2p(MPICCWRAP_WF_SEND, dest, sendtag, comm, hw_bytes(sendcount, sendtype),
               "MPI_Sendrecv", MW_HERE);
    hw_own(&d);
    rc = hw_finish(2, r, st);
    hw_rec_done(rr, rs, &st[0], comm);
    if (status != MPI_STATUS_IGNORE)
        *status = st[0];
    d.kind = MPICCWRAP_WF_SENT;
    hw_sent(&d);
    return rc == MPI_ERR_IN_STATUS ? (st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR
                                                                     : st[1].MPI_ERROR)
                                   : rc;
}

MW_WEAK int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                                 int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status)
{
    MPI_Request r[2];
    MPI_Status st[2];
    struct hw_desc d;
    int rc, size = 0, pos = 0;
    long rr, rs;
    void *tmp;
    if (!hw_on || PMPI_Pack_size(count, type, comm, &size) != MPI_SUCCESS ||
        !(tmp = malloc(size > 0 ? (size_t)size : 1)))
        return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm,
                                     status);
    PMPI_Pack(buf, count, type, tmp, size, &pos, comm);
    hw_rec_batch(1);
    rs = hw_rec(MPICCWRAP_CDAG_SEND, MPICCWRAP_CDAG_CALL_SENDRECV_REPLACE, buf, count, type,
                dest, sendtag, comm, MW_HERE);
    rr = hw_rec(MPICCWRAP_CDAG_RECV, MPICCWRAP_CDAG_CALL_SENDRECV_REPLACE, buf, count, type,
                source, recvtag, comm, MW_HERE);
    hw_rec_batch(0);
    rc = PMPI_Irecv(buf, count, type, source, recvtag, comm, &r[0]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend(tmp, pos, MPI_PACKED, dest, sendtag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        free(tmp);
        return rc;
    }
    hw_begin("MPI_Sendrecv_replace", MW_HERE, MPICCWRAP_WF_AND);
    d = hw_p2p(MPICCWRAP_WF_RECV, source, recvtag, comm, pos, "MPI_Sendrecv_replace",
               MW_HERE);
    hw_own(&d);
    d = hw_p2p(MPICCWRAP_WF_SEND, dest, sendtag, comm, pos, "MPI_Sendrecv_replace", MW_HERE);
    hw_own(&d);
    rc = hw_finish(2, r, st);
    hw_rec_done(rr, rs, &st[0], comm);
    free(tmp);
    if (status != MPI_STATUS_IGNORE)
        *status = st[0];
    return rc;
}

/* A probe that found a message (recorded, not used by the analysis: it moves no data):
 * peer, tag and size of that message. */
static int hw_probed(int rc, int flag, int call, int source, int tag, MPI_Comm comm,
                     MPI_Status *status, const void *site)
{
    if (mpiccwrap_cdag_on && flag && rc == MPI_SUCCESS) {
        long rec = mpiccwrap_cdag_post(MPICCWRAP_CDAG_PROBE, call, NULL, 0, MPI_BYTE, source,
                                       tag, comm, site);
        mpiccwrap_cdag_done(rec, status, comm);
    }
    return rc;
}

MW_WEAK int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct hw_spin s = {0, 0, 0};
    struct hw_desc d;
    int flag = 0, rc;
    if (!hw_on)
        return PMPI_Probe(source, tag, comm, status);
    d = hw_p2p(MPICCWRAP_WF_PROBE, source, tag, comm, -1, "MPI_Probe", MW_HERE);
    hw_begin("MPI_Probe", MW_HERE, MPICCWRAP_WF_AND);
    hw_own(&d);
    status = mpiccwrap_cdag_statuses(1, status);
    for (;;) {
        rc = PMPI_Iprobe(source, tag, comm, &flag, status);
        if (flag || rc != MPI_SUCCESS)
            return hw_probed(rc, flag, MPICCWRAP_CDAG_CALL_PROBE, source, tag, comm, status,
                             MW_HERE);
        hw_tick(&s);
    }
}

MW_WEAK int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    int rc;
    if (!mpiccwrap_cdag_on)
        return PMPI_Iprobe(source, tag, comm, flag, status);
    status = mpiccwrap_cdag_statuses(1, status);
    rc = PMPI_Iprobe(source, tag, comm, flag, status);
    return hw_probed(rc, *flag, MPICCWRAP_CDAG_CALL_IPROBE, source, tag, comm, status,
                     MW_HERE);
}

MW_WEAK int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                       MPI_Status *status)
{
    struct hw_spin s = {0, 0, 0};
    struct hw_desc d;
    int flag = 0, rc;
    if (!hw_on)
        return PMPI_Mprobe(source, tag, comm, message, status);
    d = hw_p2p(MPICCWRAP_WF_PROBE, source, tag, comm, -1, "MPI_Mprobe", MW_HERE);
    hw_begin("MPI_Mprobe", MW_HERE, MPICCWRAP_WF_AND);
    hw_own(&d);
    status = mpiccwrap_cdag_statuses(1, status);
    for (;;) {
        rc = PMPI_Improbe(source, tag, comm, &flag, message, status);
        if (flag || rc != MPI_SUCCESS)
            return hw_probed(rc, flag, MPICCWRAP_CDAG_CALL_MPROBE, source, tag, comm, status,
                             MW_HERE);
        hw_tick(&s);
    }
}

/* -- nonblocking and persistent point-to-point: record the request -------------------------- */

/* A request made: recorded in the table (and, for cDAG, a record now, or at each
 * MPI_Start of a persistent one: the template is kept in the table's descriptor). */
static void hw_request(MPI_Request *req, struct hw_desc *d, int persistent, int ckind,
                       const void *buf, int count, MPI_Datatype type, int peer)
{
    d->persistent = persistent;
    d->buf = buf;
    d->count = count;
    d->type = type;
    if (mpiccwrap_cdag_on && !persistent)
        d->rec = mpiccwrap_cdag_post(ckind, d->ccall, buf, count, type, peer, d->tag, d->comm,
                                     d->site);
    hw_insert(*req, d, !persistent);
}

#define HW_ISEND(NAME, KIND, PERSIST, CCALL)                                                    \
    MW_WEAK int NAME(const void *buf, int count, MPI_Datatype type, int peer, int tag,         \
                     MPI_Comm comm, MPI_Request *req)                                          \
    {                                                                                           \
        int rc = P##NAME(buf, count, type, peer, tag, comm, req);                              \
        if (hw_on && rc == MPI_SUCCESS) {                                                       \
            struct hw_desc d = hw_p2p(KIND, peer, tag, comm, hw_bytes(count, type), #NAME,    \
                                      MW_HERE);                                                 \
            d.ccall = MPICCWRAP_CDAG_CALL_##CCALL;                                              \
            hw_request(req, &d, PERSIST, MPICCWRAP_CDAG_SEND, buf, count, type, peer);         \
        }                                                                                       \
        return rc;                                                                              \
    }

HW_ISEND(MPI_Isend, MPICCWRAP_WF_SEND, 0, ISEND)
HW_ISEND(MPI_Issend, MPICCWRAP_WF_SEND, 0, ISSEND)
HW_ISEND(MPI_Irsend, MPICCWRAP_WF_SEND, 0, IRSEND)
HW_ISEND(MPI_Ibsend, MPICCWRAP_WF_UNKNOWN, 0, IBSEND)
HW_ISEND(MPI_Send_init, MPICCWRAP_WF_SEND, 1, SEND_INIT)
HW_ISEND(MPI_Ssend_init, MPICCWRAP_WF_SEND, 1, SSEND_INIT)
HW_ISEND(MPI_Rsend_init, MPICCWRAP_WF_SEND, 1, RSEND_INIT)
HW_ISEND(MPI_Bsend_init, MPICCWRAP_WF_UNKNOWN, 1, BSEND_INIT)

MW_WEAK int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
                      MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    if (hw_on && rc == MPI_SUCCESS) {
        struct hw_desc d = hw_p2p(MPICCWRAP_WF_RECV, source, tag, comm, hw_bytes(count, type),
                                  "MPI_Irecv", MW_HERE);
        d.ccall = MPICCWRAP_CDAG_CALL_IRECV;
        hw_request(req, &d, 0, MPICCWRAP_CDAG_RECV, buf, count, type, source);
    }
    return rc;
}

MW_WEAK int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                          MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
    if (hw_on && rc == MPI_SUCCESS) {
        struct hw_desc d = hw_p2p(MPICCWRAP_WF_RECV, source, tag, comm, hw_bytes(count, type),
                                  "MPI_Recv_init", MW_HERE);
        d.ccall = MPICCWRAP_CDAG_CALL_RECV_INIT;
        hw_request(req, &d, 1, MPICCWRAP_CDAG_RECV, buf, count, type, source);
    }
    return rc;
}

/* A persistent request started: active again, and a new cDAG record. */
static void hw_started(MPI_Request req)
{
    int i = hw_find(req);
    struct hw_desc *d;
    if (i < 0)
        return;
    hw_tab[i].active = 1;
    d = &hw_tab[i].d;
    if (mpiccwrap_cdag_on)
        d->rec = mpiccwrap_cdag_post(d->ccall == MPICCWRAP_CDAG_CALL_RECV_INIT
                                         ? MPICCWRAP_CDAG_RECV : MPICCWRAP_CDAG_SEND,
                                     d->ccall, d->buf, d->count, d->type, d->peer, d->tag,
                                     d->comm, d->site);
}

MW_WEAK int MPI_Start(MPI_Request *req)
{
    int rc = PMPI_Start(req);
    if (hw_on && rc == MPI_SUCCESS)
        hw_started(*req);
    return rc;
}

MW_WEAK int MPI_Startall(int n, MPI_Request reqs[])
{
    int rc = PMPI_Startall(n, reqs), k;
    if (hw_on && rc == MPI_SUCCESS) {
        hw_rec_batch(1);
        for (k = 0; k < n; k++)
            hw_started(reqs[k]);
        hw_rec_batch(0);
    }
    return rc;
}

MW_WEAK int MPI_Request_free(MPI_Request *req)
{
    MPI_Request old = *req;
    int rc = PMPI_Request_free(req), i;
    if (hw_on && rc == MPI_SUCCESS && (i = hw_find(old)) >= 0)
        hw_remove_at((size_t)i);
    return rc;
}

/* -- completion ------------------------------------------------------------------------------- */

static void hw_wait_on(const char *call, const void *site, int join, int n,
                       const MPI_Request *reqs)
{
    hw_begin(call, site, join);
    cur.nreqs = n;
    cur.reqs = reqs;
}

MW_WEAK int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    struct hw_spin s = {0, 0, 0};
    MPI_Request old = *req;
    int flag = 0, rc;
    if (!hw_on)
        return PMPI_Wait(req, status);
    status = mpiccwrap_cdag_statuses(1, status);
    for (;;) {
        rc = PMPI_Test(req, &flag, status);
        if (flag || rc != MPI_SUCCESS)
            break;
        if (s.n == 0)
            hw_wait_on("MPI_Wait", MW_HERE, MPICCWRAP_WF_AND, 1, req);
        hw_tick(&s);
    }
    if (flag)
        hw_completed(old, *req, status);
    return rc;
}

MW_WEAK int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    struct hw_spin s = {0, 0, 0};
    MPI_Request *old;
    int flag = 0, rc;
    if (!hw_on)
        return PMPI_Waitall(n, reqs, statuses);
    old = hw_copy(n, reqs);
    statuses = mpiccwrap_cdag_statuses(n, statuses);
    for (;;) {
        rc = PMPI_Testall(n, reqs, &flag, statuses);
        if (flag || rc != MPI_SUCCESS)
            break;
        if (s.n == 0)
            hw_wait_on("MPI_Waitall", MW_HERE, MPICCWRAP_WF_AND, n, reqs);
        hw_tick(&s);
    }
    if (flag || rc == MPI_ERR_IN_STATUS)
        hw_completed_all(n, old, reqs, statuses);
    return rc;
}

MW_WEAK int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    struct hw_spin s = {0, 0, 0};
    MPI_Request *old;
    int flag = 0, rc;
    if (!hw_on)
        return PMPI_Waitany(n, reqs, index, status);
    old = hw_copy(n, reqs);
    status = mpiccwrap_cdag_statuses(1, status);
    for (;;) {
        rc = PMPI_Testany(n, reqs, index, &flag, status);
        if (flag || rc != MPI_SUCCESS)
            break;
        if (s.n == 0)
            hw_wait_on("MPI_Waitany", MW_HERE, MPICCWRAP_WF_OR, n, reqs);
        hw_tick(&s);
    }
    if (flag && old && *index != MPI_UNDEFINED)
        hw_completed(old[*index], reqs[*index], status);
    return rc;
}

MW_WEAK int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    struct hw_spin s = {0, 0, 0};
    MPI_Request *old;
    int rc;
    if (!hw_on)
        return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    old = hw_copy(n, reqs);
    statuses = mpiccwrap_cdag_statuses(n, statuses);
    for (;;) {
        rc = PMPI_Testsome(n, reqs, outcount, indices, statuses);
        if (*outcount != 0 || rc != MPI_SUCCESS)
            break;
        if (s.n == 0)
            hw_wait_on("MPI_Waitsome", MW_HERE, MPICCWRAP_WF_OR, n, reqs);
        hw_tick(&s);
    }
    hw_completed_some(*outcount, indices, old, reqs, statuses);
    return rc;
}

MW_WEAK int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Request old = *req;
    int rc;
    if (hw_on)
        status = mpiccwrap_cdag_statuses(1, status);
    rc = PMPI_Test(req, flag, status);
    if (hw_on && *flag)
        hw_completed(old, *req, status);
    return rc;
}

MW_WEAK int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_Request *old = hw_on ? hw_copy(n, reqs) : NULL;
    int rc;
    if (hw_on)
        statuses = mpiccwrap_cdag_statuses(n, statuses);
    rc = PMPI_Testall(n, reqs, flag, statuses);
    if (hw_on && *flag)
        hw_completed_all(n, old, reqs, statuses);
    return rc;
}

MW_WEAK int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    MPI_Request *old = hw_on ? hw_copy(n, reqs) : NULL;
    int rc;
    if (hw_on)
        status = mpiccwrap_cdag_statuses(1, status);
    rc = PMPI_Testany(n, reqs, index, flag, status);
    if (hw_on && old && *flag && *index != MPI_UNDEFINED)
        hw_completed(old[*index], reqs[*index], status);
    return rc;
}

MW_WEAK int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    MPI_Request *old = hw_on ? hw_copy(n, reqs) : NULL;
    int rc;
    if (hw_on)
        statuses = mpiccwrap_cdag_statuses(n, statuses);
    rc = PMPI_Testsome(n, reqs, outcount, indices, statuses);
    if (hw_on)
        hw_completed_some(*outcount, indices, old, reqs, statuses);
    return rc;
}

/* -- collectives: MPICC_WRAP_CHECK=all, then the nonblocking form and the progress loop -- */

/* The rewriter's colour of a collective kind: 2 + crc32(name) % 10^9 (zlib's CRC-32),
 * so that a check made here and one the rewriter inserted agree on every rank. */
static long hw_color(const char *name)
{
    uint32_t crc = 0xffffffffu;
    int k;
    for (; *name; name++) {
        crc ^= (unsigned char)*name;
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return 2 + (long)((crc ^ 0xffffffffu) % 1000000000u);
}

int mpiccwrap_hang_checks_all(void)
{
    return hw_check_all;
}

int mpiccwrap_hang_where(char *file, size_t fsize, int *line, char *func, size_t nsize)
{
    struct mpiccwrap_wf_state *s = calloc(1, sizeof *s);
    int32_t obj;
    uint64_t offset;
    int ok = 0;
    if (!s)
        return 0;
    hw_site(s, hw_check_site, &obj, &offset);
    if (obj >= 0)
        ok = mpiccwrap_wf_resolve(s->objs[obj], offset, file, fsize, line, func, nsize);
    free(s);
    return ok;
}

/* One check of the checker's one-allreduce scheme before a collective (CHECK=all). */
static void hw_check(const char *name, const void *site, MPI_Comm comm, int root, MPI_Op op,
                     long count, MPI_Datatype type, int checks)
{
    struct mpiccwrap_site s;
    s.color = (int)hw_color(name);
    s.name = name;
    s.comm = "";
    s.file = "";
    s.line = 0;
    s.function = "";
    s.cond = "";
    s.flagged = 0;
    s.checks = checks;
    hw_check_site = site;
    mpiccwrap_hang_in_check++;
    mpiccwrap_cc_at(comm, &s, root, op, count, type, site);
    mpiccwrap_hang_in_check--;
}

static int hw_coll(int rc, MPI_Request *r, MPI_Comm comm, const char *call, const void *site)
{
    struct hw_desc d;
    if (rc != MPI_SUCCESS)
        return rc;
    d = hw_p2p(MPICCWRAP_WF_COLL, MPICCWRAP_WF_NOBODY, 0, comm, -1, call, site);
    hw_begin(call, site, MPICCWRAP_WF_AND);
    hw_own(&d);
    return hw_finish(1, r, MPI_STATUS_IGNORE);
}

int mpiccwrap_hang_check_allreduce(const long *vec, long *res, int n, MPI_Comm comm,
                                   const char *checked, const void *where)
{
    MPI_Request r;
    if (!hw_coll_on)
        return PMPI_Allreduce(vec, res, n, MPI_LONG, MPI_MIN, comm);
    return hw_coll(PMPI_Iallreduce(vec, res, n, MPI_LONG, MPI_MIN, comm, &r), &r, comm,
                   checked, where);
}

enum { C_ROOT = MPICCWRAP_CHECK_ROOT, C_OP = MPICCWRAP_CHECK_OP, C_SIZE = MPICCWRAP_CHECK_SIZE };

/* The trace's record of a blocking collective (FACT §5.2: calls per site, bytes, time):
 * posted before the call, completed after it; hw_traced is the record in flight
 * (collectives do not nest: the checker's own run under mpiccwrap_hang_in_check). */
static long hw_traced = -1;
static const struct { const char *name; int call; } hw_coll_calls[] = {
    {"MPI_Barrier", MPICCWRAP_CDAG_CALL_BARRIER}, {"MPI_Bcast", MPICCWRAP_CDAG_CALL_BCAST},
    {"MPI_Reduce", MPICCWRAP_CDAG_CALL_REDUCE}, {"MPI_Allreduce", MPICCWRAP_CDAG_CALL_ALLREDUCE},
    {"MPI_Gather", MPICCWRAP_CDAG_CALL_GATHER}, {"MPI_Gatherv", MPICCWRAP_CDAG_CALL_GATHERV},
    {"MPI_Scatter", MPICCWRAP_CDAG_CALL_SCATTER}, {"MPI_Scatterv", MPICCWRAP_CDAG_CALL_SCATTERV},
    {"MPI_Allgather", MPICCWRAP_CDAG_CALL_ALLGATHER},
    {"MPI_Allgatherv", MPICCWRAP_CDAG_CALL_ALLGATHERV},
    {"MPI_Alltoall", MPICCWRAP_CDAG_CALL_ALLTOALL}, {"MPI_Alltoallv", MPICCWRAP_CDAG_CALL_ALLTOALLV},
    {"MPI_Alltoallw", MPICCWRAP_CDAG_CALL_ALLTOALLW},
    {"MPI_Reduce_scatter", MPICCWRAP_CDAG_CALL_REDUCE_SCATTER},
    {"MPI_Reduce_scatter_block", MPICCWRAP_CDAG_CALL_REDUCE_SCATTER_BLOCK},
    {"MPI_Scan", MPICCWRAP_CDAG_CALL_SCAN}, {"MPI_Exscan", MPICCWRAP_CDAG_CALL_EXSCAN}};

static long hw_trace_coll(const char *name, const void *site, MPI_Comm comm, int root,
                          MPI_Op op, long count, MPI_Datatype type, int checks)
{
    static const char *last_name; /* a loop calls one collective: its code is cached */
    static int last_call;
    size_t i;
    (void)op;
    if (mpiccwrap_hang_in_check)
        return -1;
    if (name != last_name) {
        for (i = 0; i < sizeof hw_coll_calls / sizeof hw_coll_calls[0]; i++)
            if (!strcmp(hw_coll_calls[i].name, name))
                break;
        if (i == sizeof hw_coll_calls / sizeof hw_coll_calls[0])
            return -1;
        last_name = name;
        last_call = hw_coll_calls[i].call;
    }
    return mpiccwrap_cdag_post(MPICCWRAP_CDAG_COLL, last_call, NULL,
                               count < 0 || type == MPI_DATATYPE_NULL ? 0 : (int)count,
                               type == MPI_DATATYPE_NULL ? MPI_BYTE : type,
                               (checks & MPICCWRAP_CHECK_ROOT) ? root : MPI_PROC_NULL, 0, comm,
                               site);
}

static int hw_traced_done(int rc, MPI_Comm comm)
{
    if (hw_traced >= 0) {
        mpiccwrap_cdag_tick();
        mpiccwrap_cdag_done(hw_traced, NULL, comm);
        hw_traced = -1;
    }
    return rc;
}
#define NOOP MPI_OP_NULL
#define NOTYPE MPI_DATATYPE_NULL
#define INPLACE(buf, a, b) ((buf) == MPI_IN_PLACE ? (a) : (b))

/* MPI_NAME(PARAMS): check (CHECK=all: root, operator, bytes as CHECK says), then run
 * PMPI_INAME(ARGS..., &request) and wait for it in the progress loop. */
#define HW_COLL(NAME, INAME, PARAMS, ARGS, COMM, CHECK)                                         \
    MW_WEAK int MPI_##NAME PARAMS                                                               \
    {                                                                                           \
        MPI_Request r;                                                                          \
        if (hw_check_all && !mpiccwrap_hang_in_check)                                           \
            hw_check CHECK;                                                                     \
        if (mpiccwrap_cdag_trace)                                                               \
            hw_traced = hw_trace_coll CHECK;                                                    \
        if (!hw_coll_on)                                                                        \
            return hw_traced_done(PMPI_##NAME ARGS, COMM);                                      \
        return hw_traced_done(hw_coll(PMPI_##INAME(HW_ARGS_##NAME, &r), &r, COMM,             \
                                      "MPI_" #NAME, MW_HERE), COMM);                           \
    }

#define HW_ARGS_Barrier comm
HW_COLL(Barrier, Ibarrier, (MPI_Comm comm), (comm), comm,
        ("MPI_Barrier", MW_HERE, comm, 0, NOOP, -1, NOTYPE, 0))
#define HW_ARGS_Bcast buf, count, type, root, comm
HW_COLL(Bcast, Ibcast, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
        (buf, count, type, root, comm), comm,
        ("MPI_Bcast", MW_HERE, comm, root, NOOP, count, type, C_ROOT | C_SIZE))
#define HW_ARGS_Reduce sb, rb, count, type, op, root, comm
HW_COLL(Reduce, Ireduce, (const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
                          int root, MPI_Comm comm),
        (sb, rb, count, type, op, root, comm), comm,
        ("MPI_Reduce", MW_HERE, comm, root, op, count, type, C_ROOT | C_OP | C_SIZE))
#define HW_ARGS_Allreduce sb, rb, count, type, op, comm
HW_COLL(Allreduce, Iallreduce, (const void *sb, void *rb, int count, MPI_Datatype type,
                                MPI_Op op, MPI_Comm comm),
        (sb, rb, count, type, op, comm), comm,
        ("MPI_Allreduce", MW_HERE, comm, 0, op, count, type, C_OP | C_SIZE))
#define HW_ARGS_Gather sb, sc, st, rb, rc, rt, root, comm
HW_COLL(Gather, Igather, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                          MPI_Datatype rt, int root, MPI_Comm comm),
        (sb, sc, st, rb, rc, rt, root, comm), comm,
        ("MPI_Gather", MW_HERE, comm, root, NOOP, INPLACE(sb, rc, sc), INPLACE(sb, rt, st),
         C_ROOT | C_SIZE))
#define HW_ARGS_Gatherv sb, sc, st, rb, rc, displs, rt, root, comm
HW_COLL(Gatherv, Igatherv, (const void *sb, int sc, MPI_Datatype st, void *rb, const int rc[],
                            const int displs[], MPI_Datatype rt, int root, MPI_Comm comm),
        (sb, sc, st, rb, rc, displs, rt, root, comm), comm,
        ("MPI_Gatherv", MW_HERE, comm, root, NOOP, -1, NOTYPE, C_ROOT))
#define HW_ARGS_Scatter sb, sc, st, rb, rc, rt, root, comm
HW_COLL(Scatter, Iscatter, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                            MPI_Datatype rt, int root, MPI_Comm comm),
        (sb, sc, st, rb, rc, rt, root, comm), comm,
        ("MPI_Scatter", MW_HERE, comm, root, NOOP, INPLACE(rb, sc, rc), INPLACE(rb, st, rt),
         C_ROOT | C_SIZE))
#define HW_ARGS_Scatterv sb, sc, displs, st, rb, rc, rt, root, comm
HW_COLL(Scatterv, Iscatterv, (const void *sb, const int sc[], const int displs[],
                              MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
                              MPI_Comm comm),
        (sb, sc, displs, st, rb, rc, rt, root, comm), comm,
        ("MPI_Scatterv", MW_HERE, comm, root, NOOP, -1, NOTYPE, C_ROOT))
#define HW_ARGS_Allgather sb, sc, st, rb, rc, rt, comm
HW_COLL(Allgather, Iallgather, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                                MPI_Datatype rt, MPI_Comm comm),
        (sb, sc, st, rb, rc, rt, comm), comm,
        ("MPI_Allgather", MW_HERE, comm, 0, NOOP, INPLACE(sb, rc, sc), INPLACE(sb, rt, st),
         C_SIZE))
#define HW_ARGS_Allgatherv sb, sc, st, rb, rc, displs, rt, comm
HW_COLL(Allgatherv, Iallgatherv, (const void *sb, int sc, MPI_Datatype st, void *rb,
                                  const int rc[], const int displs[], MPI_Datatype rt,
                                  MPI_Comm comm),
        (sb, sc, st, rb, rc, displs, rt, comm), comm,
        ("MPI_Allgatherv", MW_HERE, comm, 0, NOOP, -1, NOTYPE, 0))
#define HW_ARGS_Alltoall sb, sc, st, rb, rc, rt, comm
HW_COLL(Alltoall, Ialltoall, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                              MPI_Datatype rt, MPI_Comm comm),
        (sb, sc, st, rb, rc, rt, comm), comm,
        ("MPI_Alltoall", MW_HERE, comm, 0, NOOP, INPLACE(sb, rc, sc), INPLACE(sb, rt, st),
         C_SIZE))
#define HW_ARGS_Alltoallv sb, sc, sd, st, rb, rc, rd, rt, comm
HW_COLL(Alltoallv, Ialltoallv, (const void *sb, const int sc[], const int sd[],
                                MPI_Datatype st, void *rb, const int rc[], const int rd[],
                                MPI_Datatype rt, MPI_Comm comm),
        (sb, sc, sd, st, rb, rc, rd, rt, comm), comm,
        ("MPI_Alltoallv", MW_HERE, comm, 0, NOOP, -1, NOTYPE, 0))
#define HW_ARGS_Alltoallw sb, sc, sd, st, rb, rc, rd, rt, comm
HW_COLL(Alltoallw, Ialltoallw, (const void *sb, const int sc[], const int sd[],
                                const MPI_Datatype st[], void *rb, const int rc[],
                                const int rd[], const MPI_Datatype rt[], MPI_Comm comm),
        (sb, sc, sd, st, rb, rc, rd, rt, comm), comm,
        ("MPI_Alltoallw", MW_HERE, comm, 0, NOOP, -1, NOTYPE, 0))
#define HW_ARGS_Reduce_scatter sb, rb, rc, type, op, comm
HW_COLL(Reduce_scatter, Ireduce_scatter, (const void *sb, void *rb, const int rc[],
                                          MPI_Datatype type, MPI_Op op, MPI_Comm comm),
        (sb, rb, rc, type, op, comm), comm,
        ("MPI_Reduce_scatter", MW_HERE, comm, 0, op, -1, NOTYPE, C_OP))
#define HW_ARGS_Reduce_scatter_block sb, rb, rc, type, op, comm
HW_COLL(Reduce_scatter_block, Ireduce_scatter_block, (const void *sb, void *rb, int rc,
                                                      MPI_Datatype type, MPI_Op op,
                                                      MPI_Comm comm),
        (sb, rb, rc, type, op, comm), comm,
        ("MPI_Reduce_scatter_block", MW_HERE, comm, 0, op, rc, type, C_OP | C_SIZE))
#define HW_ARGS_Scan sb, rb, count, type, op, comm
HW_COLL(Scan, Iscan, (const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm),
        (sb, rb, count, type, op, comm), comm,
        ("MPI_Scan", MW_HERE, comm, 0, op, count, type, C_OP | C_SIZE))
#define HW_ARGS_Exscan sb, rb, count, type, op, comm
HW_COLL(Exscan, Iexscan, (const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm),
        (sb, rb, count, type, op, comm), comm,
        ("MPI_Exscan", MW_HERE, comm, 0, op, count, type, C_OP | C_SIZE))

/* The nonblocking collectives a wait may complete: recorded like point-to-point requests. */
static int hw_icoll(int rc, MPI_Request *r, MPI_Comm comm, const char *call, const void *site)
{
    if (hw_on && rc == MPI_SUCCESS) {
        struct hw_desc d = hw_p2p(MPICCWRAP_WF_COLL, MPICCWRAP_WF_NOBODY, 0, comm, -1, call,
                                  site);
        hw_insert(*r, &d, 1);
    }
    return rc;
}

MW_WEAK int MPI_Ibarrier(MPI_Comm comm, MPI_Request *r)
{
    return hw_icoll(PMPI_Ibarrier(comm, r), r, comm, "MPI_Ibarrier", MW_HERE);
}

MW_WEAK int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                       MPI_Request *r)
{
    return hw_icoll(PMPI_Ibcast(buf, count, type, root, comm, r), r, comm, "MPI_Ibcast",
                    MW_HERE);
}

MW_WEAK int MPI_Iallreduce(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
                           MPI_Comm comm, MPI_Request *r)
{
    return hw_icoll(PMPI_Iallreduce(sb, rb, count, type, op, comm, r), r, comm,
                    "MPI_Iallreduce", MW_HERE);
}

MW_WEAK int MPI_Ireduce(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Request *r)
{
    return hw_icoll(PMPI_Ireduce(sb, rb, count, type, op, root, comm, r), r, comm,
                    "MPI_Ireduce", MW_HERE);
}
