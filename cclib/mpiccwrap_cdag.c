/* mpiccwrap_cdag.c - cDAG recording: every point-to-point operation of this process,
 * kept in memory and written at MPI_Finalize (issue 11; layout in mpiccwrap_protocol.h).
 *
 * Switches (read once in MPI_Init; the interception of mpiccwrap_hang.c is kept on
 * while recording, even with MPICC_WRAP_DEADLOCK=0):
 *   MPICC_WRAP_CDAG=1         record;
 *   MPICC_WRAP_TRACE_DIR=dir  record too, with the blocking collectives (the trace of
 *                             FACT §5.2; the cDAG analysis does not need them),
 *                             without the analysis at the end unless MPICC_WRAP_CDAG=1;
 *                             the files go to dir;
 *   MPICC_WRAP_CDAG_DIR=dir   where the files go (default: the trace directory, else
 *                             the working directory);
 *   MPICC_WRAP_CDAG_MAX=n     records per process (default MPICCWRAP_CDAG_CAP_DEFAULT,
 *                             104 bytes each): past it, operations are only counted and
 *                             the report says so: memory stays bounded;
 *   MPICC_WRAP_CDAG_REPORT=0  do not run the analysis at the end (rank 0 otherwise runs
 *                             `mpicc-wrap-tool cdag --measure` on the files in
 *                             MPI_Finalize; MPICC_WRAP_TOOL names the program if it is
 *                             not on PATH);
 *   MPICC_WRAP_CDAG_MEASURE=0 do not time the detected collectives (rank 0's value).
 *
 * The measured alternative (issue 11): in MPI_Finalize, before PMPI_Finalize, every
 * process has written its file and waits; rank 0 starts the analysis, which answers on
 * a pipe with a plan: one line per detected pattern (collective, root, bytes, world
 * ranks), then "end".  Rank 0 broadcasts the plan text (one PMPI_Ibcast on the
 * interception's private communicator; the others poll it with 1 ms sleeps so that they
 * leave the CPU to the analysis), so every process takes the same decision from the
 * same bytes: a missing, broken or truncated plan is an empty one and nothing is run.
 * For each line, the processes named make a communicator of those world ranks (split
 * of the private communicator, in world order), agree that every member could
 * allocate the buffers (else nothing runs), run the collective once, then
 * CDAG_REPS times after a barrier each, and rank 0 writes the slowest member's fastest
 * call back to the analysis, which prints the report with it.  Nothing here touches the program's
 * communicators or requests.
 *
 * Per operation (the fast path: O(1), no allocation but the array doubling, no system
 * call): one record appended, the peer as a world rank, the buffer's address and
 * extent (predefined datatypes from a table made in MPI_Init, others asked of MPI), a
 * hash of at most CDAG_HASH_BYTES bytes sent or received (contiguous data only: the
 * first and last CDAG_HASH_BYTES / 2; it tells a buffer the program rewrote between
 * two sends, or between receiving and sending it on, from one that it sent again),
 * one clock read per MPI call (the records that one call posts or completes share it;
 * the TSC where it is invariant),
 * and the return address as the call site (turned into object + offset when written).
 * `python benchmarks/cdag_overhead.py` measures what this costs.
 */
#define _GNU_SOURCE /* dladdr */
#include "mpiccwrap_cdag.h"

#include <dlfcn.h>
#include <elf.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

enum { CDAG_HASH_BYTES = 64, CDAG_MAX_TYPES = 32 };
/* the plan text, its lines, timed calls per line, buffer bytes per process at most */
enum { CDAG_PLAN_SIZE = 4096, CDAG_PLAN_MAX = 16, CDAG_REPS = 5 };
#define CDAG_MEASURE_BYTES (64u << 20)

extern char **environ;

int mpiccwrap_cdag_on;
int mpiccwrap_cdag_trace;

/* What the records need of a communicator other than MPI_COMM_WORLD, made at its
 * first operation and kept as an attribute (freed with it): its identity and the world
 * rank of each of its ranks (n = 0: an intercommunicator or unknown: no peers). */
struct cd_comm {
    uint64_t id;
    int n;
    int world[];
};

static struct {
    struct mpiccwrap_cdag_record *recs;
    size_t n, cap, max;
    int mapped;    /* recs is a mapping of max records (else malloc'd, doubling) */
    uint64_t dropped, seq, job;
    int rank, size, report, measure, noted;
    pid_t tool;    /* rank 0: the running analysis (0: none) */
    int tool_in;   /* rank 0: the pipe to its standard input (-1: none) */
    char dir[512];
    MPI_Status *scratch;
    int nscratch;
    int batch;     /* 1: the records posted or completed now belong to one MPI call */
    uint64_t t;    /* that call's clock read, 0: not read yet */
    int tsc;       /* 1: cd_stamp reads the invariant TSC, turned into ns when written */
    uint64_t tsc0, ns0; /* TSC and clock at setup (the calibration's start) */
    int keyval;    /* the attribute of struct cd_comm on the communicators used */
    MPI_Comm last_comm; /* the communicator of the last operation, and its cd_comm */
    struct cd_comm *last;
    int ntypes;    /* predefined contiguous datatypes and their sizes */
    MPI_Datatype types[CDAG_MAX_TYPES];
    int type_size[CDAG_MAX_TYPES];
} cd;

static uint64_t cd_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The time now: TSC ticks where the TSC is invariant (x86-64; half the cost of
 * clock_gettime in a VM here), else CLOCK_MONOTONIC ns; cd_times turns ticks into ns. */
static uint64_t cd_clock(void)
{
#if defined(__x86_64__)
    if (cd.tsc)
        return __rdtsc();
#endif
    return cd_now();
}

static void cd_clock_setup(void)
{
#if defined(__x86_64__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) { /* invariant TSC */
        cd.tsc = 1;
        cd.ns0 = cd_now();
        cd.tsc0 = __rdtsc();
    }
#endif
}

/* At writing: the records' TSC stamps as CLOCK_MONOTONIC ns, the rate measured
 * between setup and now (the run's length: precise enough for milliseconds). */
static void cd_times(void)
{
    uint64_t ns1, t1;
    double per;
    size_t i;
    if (!cd.tsc)
        return;
    ns1 = cd_now();
#if defined(__x86_64__)
    t1 = __rdtsc();
#else
    t1 = cd.tsc0;
#endif
    per = t1 > cd.tsc0 ? (double)(ns1 - cd.ns0) / (double)(t1 - cd.tsc0) : 0;
    for (i = 0; i < cd.n; i++) {
        struct mpiccwrap_cdag_record *r = &cd.recs[i];
        r->t_post_ns = cd.ns0 + (uint64_t)((double)(r->t_post_ns - cd.tsc0) * per);
        if (r->flags & MPICCWRAP_CDAG_DONE)
            r->t_done_ns = cd.ns0 + (uint64_t)((double)(r->t_done_ns - cd.tsc0) * per);
    }
}

/* The current MPI call's time: one clock read per call (see mpiccwrap_cdag_batch). */
static uint64_t cd_stamp(void)
{
    if (!cd.batch || !cd.t)
        cd.t = cd_clock();
    return cd.t;
}

void mpiccwrap_cdag_batch(int on)
{
    cd.batch = on;
    cd.t = 0;
}

static int cd_comm_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    if (val == cd.last) { /* the handle may come back for another communicator */
        cd.last = NULL;
        cd.last_comm = MPI_COMM_NULL;
    }
    free(val);
    return MPI_SUCCESS;
}

/* The communicator's struct cd_comm: the last one used, else its attribute, else made
 * now (a group translation once per communicator, not per operation). */
static struct cd_comm *cd_comm(MPI_Comm comm)
{
    struct cd_comm *c;
    MPI_Group g;
    void *val = NULL;
    int flag = 0, inter = 0, n = 0, i, *local;
    if (comm == cd.last_comm && cd.last)
        return cd.last;
    if (cd.keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL || comm == MPI_COMM_SELF ||
        !mpiccwrap_comm_live(comm) ||
        PMPI_Comm_get_attr(comm, cd.keyval, &val, &flag) != MPI_SUCCESS)
        return NULL;
    if (flag) {
        c = val;
    } else {
        if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
            PMPI_Comm_size(comm, &n) != MPI_SUCCESS || n < 0)
            n = 0;
        c = malloc(sizeof *c + sizeof(int) * (size_t)(2 * n + 1));
        if (!c)
            return NULL;
        c->id = mpiccwrap_hang_comm_id(comm);
        c->n = n;
        local = c->world + n; /* scratch: 0 .. n-1 */
        for (i = 0; i < n; i++)
            local[i] = i;
        if (n && PMPI_Comm_group(comm, &g) == MPI_SUCCESS) {
            if (PMPI_Group_translate_ranks(g, n, local, mpiccwrap_hang_world_group(), c->world)
                != MPI_SUCCESS)
                c->n = 0;
            PMPI_Group_free(&g);
        } else
            c->n = 0;
        for (i = 0; i < c->n; i++)
            if (c->world[i] == MPI_UNDEFINED)
                c->world[i] = -1;
        if (PMPI_Comm_set_attr(comm, cd.keyval, c) != MPI_SUCCESS) {
            free(c);
            return NULL;
        }
    }
    cd.last_comm = comm;
    cd.last = c;
    return c;
}

/* World rank of rank r of comm (-1: none, or unknown) and comm's identity in *id. */
static int cd_peer(MPI_Comm comm, int r, uint64_t *id)
{
    struct cd_comm *c;
    if (comm == MPI_COMM_WORLD) {
        *id = 1;
        return r >= 0 && r < cd.size ? r : -1;
    }
    if (comm == MPI_COMM_SELF) {
        *id = mpiccwrap_hang_comm_id(comm);
        return r == 0 ? cd.rank : -1;
    }
    c = cd_comm(comm);
    if (!c) {
        *id = mpiccwrap_hang_comm_id(comm);
        return mpiccwrap_hang_world_rank(comm, r);
    }
    *id = c->id;
    return r >= 0 && r < c->n ? c->world[r] : -1;
}

/* The predefined datatypes whose size is their extent and true extent (lower bound
 * 0): their handles never change, so a table made once answers without asking MPI. */
static void cd_type_table(void)
{
    MPI_Datatype all[] = {MPI_BYTE, MPI_DOUBLE, MPI_INT, MPI_CHAR, MPI_FLOAT, MPI_LONG,
                          MPI_UNSIGNED_CHAR, MPI_SIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT,
                          MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
                          MPI_UNSIGNED_LONG_LONG, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
                          MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
                          MPI_PACKED, MPI_LONG_DOUBLE};
    size_t i;
    cd.ntypes = 0;
    for (i = 0; i < sizeof all / sizeof all[0] && cd.ntypes < CDAG_MAX_TYPES; i++) {
        MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
        int size = 0;
        if (all[i] == MPI_DATATYPE_NULL || PMPI_Type_size(all[i], &size) != MPI_SUCCESS ||
            PMPI_Type_get_extent(all[i], &lb, &extent) != MPI_SUCCESS ||
            PMPI_Type_get_true_extent(all[i], &tlb, &textent) != MPI_SUCCESS || lb || tlb ||
            size <= 0 || extent != size || textent != size)
            continue;
        cd.types[cd.ntypes] = all[i];
        cd.type_size[cd.ntypes++] = size;
    }
}

/* Address space for the whole cap at once, touched only as records come: no copying
 * as the array grows, and transparent huge pages where the kernel offers them (one
 * page fault per 2 MiB instead of per 4 KiB: 10,000 faults for 400,000 records were a
 * third of the recording's cost here).  If the mapping fails, the array doubles. */
static void cd_reserve(void)
{
    size_t bytes = cd.max * sizeof(struct mpiccwrap_cdag_record);
    void *p;
    if (!cd.max || bytes / sizeof(struct mpiccwrap_cdag_record) != cd.max)
        return;
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (p == MAP_FAILED)
        return;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    cd.recs = p;
    cd.cap = cd.max;
    cd.mapped = 1;
}

static int cd_flag(const char *name, int dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    return !(!strcmp(e, "0") || !strcmp(e, "no") || !strcmp(e, "off") || !strcmp(e, "false"));
}

void mpiccwrap_cdag_setup(MPI_Comm ctl, int world_rank, int world_size)
{
    const char *dir = getenv("MPICC_WRAP_CDAG_DIR"), *max = getenv("MPICC_WRAP_CDAG_MAX");
    const char *trace = getenv("MPICC_WRAP_TRACE_DIR");
    unsigned long long job = 0;
    cd.rank = world_rank;
    cd.size = world_size;
    cd.max = MPICCWRAP_CDAG_CAP_DEFAULT;
    if (max && *max)
        cd.max = (size_t)strtoull(max, NULL, 10);
    if (!(dir && *dir))
        dir = trace && *trace ? trace : ".";
    snprintf(cd.dir, sizeof cd.dir, "%s", dir);
    /* a trace alone (MPICC_WRAP_TRACE_DIR, no MPICC_WRAP_CDAG) is read later by
     * mpicc-wrap-tool: no analysis at the end unless asked for */
    cd.report = cd_flag("MPICC_WRAP_CDAG_REPORT", cd_flag("MPICC_WRAP_CDAG", 0));
    cd.measure = cd_flag("MPICC_WRAP_CDAG_MEASURE", 1);
    cd.tool_in = -1;
    if (world_rank == 0)
        job = (cd_now() ^ ((uint64_t)getpid() << 32)) & 0xffffffffffffull;
    PMPI_Bcast(&job, 1, MPI_UNSIGNED_LONG_LONG, 0, ctl);
    cd.job = job;
    cd_type_table();
    cd_clock_setup();
    cd_reserve();
    cd.keyval = MPI_KEYVAL_INVALID;
    cd.last_comm = MPI_COMM_NULL;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cd_comm_delete, &cd.keyval, NULL);
    mpiccwrap_cdag_trace = trace && *trace;
    mpiccwrap_cdag_on = 1;
}

static uint64_t cd_mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static uint64_t cd_words(uint64_t h, const unsigned char *p, size_t n)
{
    uint64_t v;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&v, p, 8);
        h = cd_mix(h, v);
    }
    if (n) {
        v = 0;
        memcpy(&v, p, n);
        h = cd_mix(h, v ^ (uint64_t)n << 56);
    }
    return h;
}

/* Hash of the n bytes at p: all of them up to CDAG_HASH_BYTES, else the first and the
 * last CDAG_HASH_BYTES / 2 (8 bytes at a time); never 0 (0: no hash). */
static uint64_t cd_hash(const unsigned char *p, size_t n)
{
    uint64_t h = cd_mix(0xcbf29ce484222325ull, n);
    if (n <= CDAG_HASH_BYTES)
        h = cd_words(h, p, n);
    else
        h = cd_words(cd_words(h, p, CDAG_HASH_BYTES / 2), p + n - CDAG_HASH_BYTES / 2,
                     CDAG_HASH_BYTES / 2);
    return h ? h : 1;
}

static struct mpiccwrap_cdag_record *cd_new(void)
{
    if (cd.n == cd.cap) {
        size_t cap = cd.cap ? 2 * cd.cap : 1024;
        struct mpiccwrap_cdag_record *p;
        if (cap > cd.max)
            cap = cd.max;
        p = cap > cd.cap ? realloc(cd.recs, cap * sizeof *p) : NULL;
        if (!p) {
            if (!cd.noted++)
                fprintf(stderr, "mpicc-wrap: cDAG: note: rank %d stops recording after %zu "
                        "operations (MPICC_WRAP_CDAG_MAX=%zu%s)\n", cd.rank, cd.n, cd.max,
                        cap > cd.cap ? ", out of memory" : "");
            cd.dropped++;
            return NULL;
        }
        cd.recs = p;
        cd.cap = cap;
    }
    return &cd.recs[cd.n++];
}

long mpiccwrap_cdag_post(int kind, int call, const void *buf, int count, MPI_Datatype type,
                         int peer, int tag, MPI_Comm comm, const void *site)
{
    struct mpiccwrap_cdag_record *r = cd_new();
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    int size = 0, i;
    if (!r)
        return -1;
    memset(r, 0, sizeof *r);
    r->kind = (uint32_t)kind;
    r->call = call;
    r->post = ++cd.seq;
    r->t_post_ns = cd_stamp();
    r->offset = (uint64_t)(uintptr_t)site;
    r->obj = -1;
    r->tag = tag;
    r->peer = cd_peer(comm, peer, &r->comm_id);
    if (peer == MPI_ANY_SOURCE) {
        r->flags |= MPICCWRAP_CDAG_ANY_SOURCE;
        r->peer = 0;
    } else if (r->peer < 0)
        r->flags |= MPICCWRAP_CDAG_NOPEER;
    for (i = 0; i < cd.ntypes && cd.types[i] != type; i++)
        ;
    if (i < cd.ntypes) { /* predefined: contiguous, lower bound 0 */
        size = cd.type_size[i];
        extent = textent = size;
    } else if (PMPI_Type_size(type, &size) != MPI_SUCCESS ||
               PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
               PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
        return (long)(r - cd.recs);
    r->bytes = (int64_t)count * size;
    r->addr = (uint64_t)(uintptr_t)buf + (uint64_t)tlb;
    r->extent = count > 0 ? (int64_t)(count - 1) * extent + textent : 0;
    /* a receive's bytes are hashed when they have arrived (1: hash then) */
    if (buf && count > 0 && textent == size && extent == size)
        r->content = kind == MPICCWRAP_CDAG_SEND
                         ? cd_hash((const unsigned char *)buf + tlb, (size_t)r->bytes) : 1;
    return (long)(r - cd.recs);
}

void mpiccwrap_cdag_tick(void)
{
    ++cd.seq;
}

void mpiccwrap_cdag_done(long rec, const MPI_Status *st, MPI_Comm comm)
{
    struct mpiccwrap_cdag_record *r;
    int count = 0;
    if (rec < 0 || (size_t)rec >= cd.n)
        return;
    r = &cd.recs[rec];
    r->flags |= MPICCWRAP_CDAG_DONE;
    r->done = cd.seq;
    r->t_done_ns = cd_stamp();
    if ((r->kind != MPICCWRAP_CDAG_RECV && r->kind != MPICCWRAP_CDAG_PROBE) || !st ||
        st == MPI_STATUS_IGNORE)
        return;
    if (st->MPI_SOURCE == MPI_PROC_NULL) {
        r->flags |= MPICCWRAP_CDAG_NOPEER;
        return;
    }
    r->tag = st->MPI_TAG;
    if (r->flags & MPICCWRAP_CDAG_ANY_SOURCE) {
        uint64_t id;
        r->peer = cd_peer(comm, st->MPI_SOURCE, &id);
        if (r->peer < 0)
            r->flags |= MPICCWRAP_CDAG_NOPEER;
    }
    if (PMPI_Get_count(st, MPI_BYTE, &count) == MPI_SUCCESS && count != MPI_UNDEFINED)
        r->bytes = count;
    if (r->content == 1 && r->bytes > 0)
        r->content = cd_hash((const unsigned char *)(uintptr_t)r->addr, (size_t)r->bytes);
    else
        r->content = 0;
}

MPI_Status *mpiccwrap_cdag_statuses(int n, MPI_Status *given)
{
    if (!mpiccwrap_cdag_on || (given != MPI_STATUS_IGNORE && given != MPI_STATUSES_IGNORE))
        return given;
    if (n > cd.nscratch) {
        MPI_Status *p = realloc(cd.scratch, sizeof *p * (size_t)(n < 16 ? 16 : n));
        if (!p)
            return given;
        cd.scratch = p;
        cd.nscratch = n < 16 ? 16 : n;
    }
    return cd.scratch;
}

/* Object index and offset of every record's call site: dladdr once per distinct
 * site (a direct-mapped cache of the last sites seen), the executable's path once. */
static void cd_sites(struct mpiccwrap_cdag_header *h)
{
    enum { SLOTS = 256 };
    static struct { const void *site; int obj; uint64_t off; } seen[SLOTS];
    char exe[MPICCWRAP_CDAG_OBJ_SIZE] = "";
    size_t i;
    memset(seen, 0, sizeof seen);
    for (i = 0; i < cd.n; i++) {
        struct mpiccwrap_cdag_record *r = &cd.recs[i];
        const void *site = (const void *)(uintptr_t)r->offset;
        size_t slot = (size_t)(((uintptr_t)site >> 2) * 0x9e3779b97f4a7c15ull >> 56) % SLOTS;
        Dl_info info;
        uintptr_t base;
        const char *path = "";
        int k;
        if (site && seen[slot].site == site) {
            r->obj = seen[slot].obj;
            r->offset = seen[slot].off;
            continue;
        }
        r->obj = -1;
        seen[slot].site = site;
        seen[slot].obj = -1;
        seen[slot].off = r->offset;
        if (!site || !dladdr(site, &info) || !info.dli_fbase)
            continue;
        base = (uintptr_t)info.dli_fbase;
        if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_EXEC)
            base = 0;
        r->offset = seen[slot].off = (uint64_t)((uintptr_t)site - 1 - base);
        if (info.dli_fname && info.dli_fname[0] == '/')
            path = info.dli_fname;
        else {
            if (!exe[0]) {
                ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
                exe[len > 0 ? len : 0] = '\0';
            }
            path = exe;
        }
        for (k = 0; k < h->nobjs && strncmp(h->objs[k], path, MPICCWRAP_CDAG_OBJ_SIZE - 1);
             k++)
            ;
        if (k == h->nobjs && k < MPICCWRAP_CDAG_MAX_OBJS)
            snprintf(h->objs[h->nobjs++], MPICCWRAP_CDAG_OBJ_SIZE, "%s", path);
        r->obj = seen[slot].obj = k < h->nobjs ? k : -1;
    }
}

/* -- the measured alternative ------------------------------------------------------ */

/* Rank 0: start `mpicc-wrap-tool cdag --measure` (stdout: a pipe to us, stdin: a pipe
 * from us, stderr: ours) and read its plan into plan ("" unless it ends with "end"). */
static void cd_start_tool(char *plan)
{
    const char *tool = getenv("MPICC_WRAP_TOOL");
    const char *prog = tool && *tool ? tool : "mpicc-wrap-tool";
    char job[32], *argv[8];
    int out[2], in[2], rc;
    size_t len = 0;
    ssize_t got;
    posix_spawn_file_actions_t fa;
    plan[0] = '\0';
    if (cd.rank != 0 || !cd.report || !cd.job)
        return;
    cd.report = 0;
    snprintf(job, sizeof job, "%012llx", (unsigned long long)cd.job);
    argv[0] = (char *)prog;
    argv[1] = (char *)"cdag";
    argv[2] = (char *)"--measure";
    argv[3] = (char *)"--job";
    argv[4] = job;
    argv[5] = cd.dir;
    argv[6] = NULL;
    if (pipe(out))
        return;
    if (pipe(in)) {
        close(out[0]);
        close(out[1]);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    rc = posix_spawnp(&cd.tool, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(in[0]);
    if (rc) {
        cd.tool = 0;
        close(out[0]);
        close(in[1]);
        fprintf(stderr, "mpicc-wrap: cDAG: records in %s; run: mpicc-wrap-tool cdag %s\n",
                cd.dir, cd.dir);
        return;
    }
    cd.tool_in = in[1];
    while (len < CDAG_PLAN_SIZE - 1 &&
           (got = read(out[0], plan + len, CDAG_PLAN_SIZE - 1 - len)) != 0) {
        if (got < 0)
            break; /* EINTR included: the plan is then incomplete, so empty */
        len += (size_t)got;
        plan[len] = '\0';
        if (len >= 4 && !strcmp(plan + len - 4, "end\n"))
            break;
    }
    close(out[0]);
    if (len < 4 || strcmp(plan + len - 4, "end\n") || !cd.measure)
        plan[0] = '\0';
}

/* Is world rank r in "a-b,c,..."? (*below: how many members are below r) */
static int cd_member(const char *spec, int r, int *below)
{
    int in = 0;
    *below = 0;
    while (*spec) {
        char *end;
        long a = strtol(spec, &end, 10), b = a;
        if (end == spec)
            return 0;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        if (r >= a && r <= b)
            in = 1;
        *below += (int)((b < r ? b : r - 1) - a + 1 > 0 ? (b < r ? b : r - 1) - a + 1 : 0);
        spec = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    return in;
}

static int cd_collective(const char *name, char *sb, char *rb, int bytes, int root,
                         MPI_Comm comm)
{
    if (!strcmp(name, "MPI_Bcast"))
        return PMPI_Bcast(sb, bytes, MPI_BYTE, root, comm);
    if (!strcmp(name, "MPI_Scatter"))
        return PMPI_Scatter(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, root, comm);
    if (!strcmp(name, "MPI_Gather"))
        return PMPI_Gather(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, root, comm);
    if (!strcmp(name, "MPI_Allgather"))
        return PMPI_Allgather(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, comm);
    if (!strcmp(name, "MPI_Alltoall"))
        return PMPI_Alltoall(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, comm);
    if (!strcmp(name, "MPI_Reduce"))
        return PMPI_Reduce(sb, rb, bytes, MPI_BYTE, MPI_BOR, root, comm);
    return PMPI_Barrier(comm);
}

/* Seconds per call of one plan line's collective on its processes (slowest member),
 * -1 where it was not run; the value that counts is world rank 0's. */
static double cd_time_line(const char *line, MPI_Comm ctl)
{
    char name[32], ranks[CDAG_PLAN_SIZE];
    int idx, root, below = 0, member = 0, n = 0, ok, all_ok = 0, k;
    long long bytes;
    double t = -1, worst = -1, t0;
    MPI_Comm sub = MPI_COMM_NULL;
    char *sb = NULL, *rb = NULL;
    if (sscanf(line, "%d %31s %d %lld %4095s", &idx, name, &root, &bytes, ranks) == 5 &&
        bytes >= 0 && bytes <= INT32_MAX && strncmp(name, "MPI_", 4) == 0)
        member = cd_member(ranks, cd.rank, &below);
    else
        ranks[0] = '\0';
    /* every process parsed the same line: either all take part in the split or none */
    if (!ranks[0])
        return -1;
    PMPI_Comm_split(ctl, member ? 0 : MPI_UNDEFINED, cd.rank, &sub);
    if (sub != MPI_COMM_NULL) {
        int r = 0;
        size_t total;
        PMPI_Comm_size(sub, &n);
        if (root >= 0)
            cd_member(ranks, root, &r); /* the root's rank in sub: members below it */
        total = (size_t)bytes * (size_t)n;
        ok = total <= CDAG_MEASURE_BYTES && r < n;
        if (ok) {
            sb = calloc(total ? total : 1, 1);
            rb = calloc(total ? total : 1, 1);
            ok = sb && rb;
        }
        PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, sub);
        if (all_ok && cd_collective(name, sb, rb, (int)bytes, r, sub) == MPI_SUCCESS)
            for (k = 0; k < CDAG_REPS; k++) { /* the fastest call: least disturbed */
                double one;
                PMPI_Barrier(sub);
                t0 = PMPI_Wtime();
                cd_collective(name, sb, rb, (int)bytes, r, sub);
                one = PMPI_Wtime() - t0;
                t = k == 0 || one < t ? one : t;
            }
        free(sb);
        free(rb);
        PMPI_Comm_free(&sub);
        if (!all_ok)
            t = -1;
    }
    PMPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, ctl);
    return worst;
}

/* Every process: get rank 0's plan, time its lines, hand rank 0's times to the tool. */
static void cd_measure(MPI_Comm ctl)
{
    static char plan[CDAG_PLAN_SIZE];
    MPI_Request req;
    int flag = 0, lines = 0;
    char *line, *next;
    cd_start_tool(plan);
    plan[CDAG_PLAN_SIZE - 1] = '\0';
    if (PMPI_Ibcast(plan, CDAG_PLAN_SIZE, MPI_CHAR, 0, ctl, &req) != MPI_SUCCESS)
        return;
    while (!flag) {
        struct timespec ms = {0, 1000000};
        if (PMPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return;
        if (!flag)
            nanosleep(&ms, NULL);
    }
    plan[CDAG_PLAN_SIZE - 1] = '\0';
    for (line = plan; *line && lines < CDAG_PLAN_MAX; line = next, lines++) {
        double t;
        next = strchr(line, '\n');
        if (!next)
            break;
        *next++ = '\0';
        if (!strcmp(line, "end"))
            break;
        t = cd_time_line(line, ctl);
        if (cd.rank == 0 && cd.tool_in >= 0) {
            char out[64];
            int len = snprintf(out, sizeof out, "%d %.9g\n", atoi(line), t);
            struct sigaction ign, old;
            memset(&ign, 0, sizeof ign);
            ign.sa_handler = SIG_IGN;
            sigaction(SIGPIPE, &ign, &old); /* a tool that died must not kill the job */
            if (write(cd.tool_in, out, (size_t)len) != len) {
                close(cd.tool_in);
                cd.tool_in = -1;
            }
            sigaction(SIGPIPE, &old, NULL);
        }
    }
    if (cd.tool_in >= 0)
        close(cd.tool_in);
    cd.tool_in = -1;
}


void mpiccwrap_cdag_write(MPI_Comm ctl)
{
    static struct mpiccwrap_cdag_header h;
    char path[700];
    FILE *f;
    if (!mpiccwrap_cdag_on)
        return;
    memset(&h, 0, sizeof h);
    h.magic = MPICCWRAP_CDAG_MAGIC;
    h.version = MPICCWRAP_PROTOCOL_VERSION;
    h.header_size = sizeof h;
    h.record_size = sizeof(struct mpiccwrap_cdag_record);
    h.world_rank = cd.rank;
    h.world_size = cd.size;
    h.pid = (int32_t)getpid();
    h.job = cd.job;
    h.nrecords = cd.n;
    h.dropped = cd.dropped;
    h.cap = cd.max;
    cd_sites(&h);
    cd_times();
    snprintf(path, sizeof path, "%s/mpiccwrap-%012llx-%d.cdag", cd.dir,
             (unsigned long long)cd.job, cd.rank);
    f = fopen(path, "wb");
    if (!f || fwrite(&h, sizeof h, 1, f) != 1 ||
        (cd.n && fwrite(cd.recs, sizeof *cd.recs, cd.n, f) != cd.n)) {
        fprintf(stderr, "mpicc-wrap: cDAG: note: cannot write %s\n", path);
        cd.report = 0;
    }
    if (f)
        fclose(f);
    if (cd.mapped)
        munmap(cd.recs, cd.max * sizeof *cd.recs);
    else
        free(cd.recs);
    cd.recs = NULL;
    cd.mapped = 0;
    cd.n = cd.cap = 0;
    PMPI_Barrier(ctl);
    cd_measure(ctl);
    mpiccwrap_cdag_on = 0;
}

void mpiccwrap_cdag_report(void)
{
    int status = 0;
    if (cd.tool > 0)
        waitpid(cd.tool, &status, 0);
    cd.tool = 0;
}
