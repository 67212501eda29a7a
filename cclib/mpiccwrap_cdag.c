/* mpiccwrap_cdag.c - cDAG recording: every point-to-point operation of this process,
 * kept in memory and written at MPI_Finalize (issue 11; layout in mpiccwrap_protocol.h).
 *
 * Switches (read once in MPI_Init; the interception of mpiccwrap_hang.c is kept on
 * while recording, even with MPICC_WRAP_DEADLOCK=0):
 *   MPICC_WRAP_CDAG=1         record;
 *   MPICC_WRAP_CDAG_DIR=dir   where the files go (default: the working directory);
 *   MPICC_WRAP_CDAG_MAX=n     records per process (default MPICCWRAP_CDAG_CAP_DEFAULT,
 *                             104 bytes each): past it, operations are only counted and
 *                             the report says so: memory stays bounded;
 *   MPICC_WRAP_CDAG_REPORT=0  do not run the analysis at the end (rank 0 otherwise runs
 *                             `mpicc-wrap-tool cdag` on the files after MPI_Finalize;
 *                             MPICC_WRAP_TOOL names the program if it is not on PATH).
 *
 * Per operation (the fast path: O(1), no allocation but the array doubling, no system
 * call): one record appended, the peer as a world rank, the buffer's address and
 * extent (predefined datatypes from a table made in MPI_Init, others asked of MPI), a
 * hash of at most CDAG_HASH_BYTES bytes sent or received (contiguous data only: the
 * first and last CDAG_HASH_BYTES / 2; it tells a buffer the program rewrote between
 * two sends, or between receiving and sending it on, from one that it sent again),
 * one clock read per MPI call (the records that one call posts or completes share it),
 * and the return address as the call site (turned into object + offset when written).
 * `python benchmarks/cdag_overhead.py` measures what this costs.
 */
#define _GNU_SOURCE /* dladdr */
#include "mpiccwrap_cdag.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { CDAG_HASH_BYTES = 64, CDAG_MAX_TYPES = 32 };

int mpiccwrap_cdag_on;

static struct {
    struct mpiccwrap_cdag_record *recs;
    size_t n, cap, max;
    uint64_t dropped, seq, job;
    int rank, size, report, noted;
    char dir[512];
    MPI_Status *scratch;
    int nscratch;
    int batch;     /* 1: the records posted or completed now belong to one MPI call */
    uint64_t t;    /* that call's clock read, 0: not read yet */
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

/* The current MPI call's time: one clock read per call (see mpiccwrap_cdag_batch). */
static uint64_t cd_stamp(void)
{
    if (!cd.batch || !cd.t)
        cd.t = cd_now();
    return cd.t;
}

void mpiccwrap_cdag_batch(int on)
{
    cd.batch = on;
    cd.t = 0;
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
    unsigned long long job = 0;
    cd.rank = world_rank;
    cd.size = world_size;
    cd.max = MPICCWRAP_CDAG_CAP_DEFAULT;
    if (max && *max)
        cd.max = (size_t)strtoull(max, NULL, 10);
    snprintf(cd.dir, sizeof cd.dir, "%s", dir && *dir ? dir : ".");
    cd.report = cd_flag("MPICC_WRAP_CDAG_REPORT", 1);
    if (world_rank == 0)
        job = (cd_now() ^ ((uint64_t)getpid() << 32)) & 0xffffffffffffull;
    PMPI_Bcast(&job, 1, MPI_UNSIGNED_LONG_LONG, 0, ctl);
    cd.job = job;
    cd_type_table();
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
    if (peer == MPI_ANY_SOURCE)
        r->flags |= MPICCWRAP_CDAG_ANY_SOURCE;
    else {
        r->peer = peer == MPI_PROC_NULL ? -1 : mpiccwrap_hang_world_rank(comm, peer);
        if (r->peer < 0)
            r->flags |= MPICCWRAP_CDAG_NOPEER;
    }
    r->comm_id = mpiccwrap_hang_comm_id(comm);
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
    if (r->kind != MPICCWRAP_CDAG_RECV || !st || st == MPI_STATUS_IGNORE)
        return;
    if (st->MPI_SOURCE == MPI_PROC_NULL) {
        r->flags |= MPICCWRAP_CDAG_NOPEER;
        return;
    }
    r->tag = st->MPI_TAG;
    if (r->flags & MPICCWRAP_CDAG_ANY_SOURCE) {
        r->peer = mpiccwrap_hang_world_rank(comm, st->MPI_SOURCE);
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

/* Object index and offset of every record's call site. */
static void cd_sites(struct mpiccwrap_cdag_header *h)
{
    size_t i;
    const void *last = NULL;
    int last_obj = -1;
    uint64_t last_off = 0;
    for (i = 0; i < cd.n; i++) {
        struct mpiccwrap_cdag_record *r = &cd.recs[i];
        const void *site = (const void *)(uintptr_t)r->offset;
        Dl_info info;
        uintptr_t base;
        char path[MPICCWRAP_CDAG_OBJ_SIZE];
        int k;
        if (site == last && last) {
            r->obj = last_obj;
            r->offset = last_off;
            continue;
        }
        last = site;
        r->obj = last_obj = -1;
        if (!site || !dladdr(site, &info) || !info.dli_fbase)
            continue;
        base = (uintptr_t)info.dli_fbase;
        if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_EXEC)
            base = 0;
        r->offset = last_off = (uint64_t)((uintptr_t)site - 1 - base);
        path[0] = '\0';
        if (info.dli_fname && info.dli_fname[0] == '/')
            snprintf(path, sizeof path, "%s", info.dli_fname);
        else {
            ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
            path[len > 0 ? len : 0] = '\0';
        }
        for (k = 0; k < h->nobjs && strcmp(h->objs[k], path); k++)
            ;
        if (k == h->nobjs && k < MPICCWRAP_CDAG_MAX_OBJS)
            snprintf(h->objs[h->nobjs++], MPICCWRAP_CDAG_OBJ_SIZE, "%s", path);
        r->obj = last_obj = k < h->nobjs ? k : -1;
    }
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
    free(cd.recs);
    cd.recs = NULL;
    cd.n = cd.cap = 0;
    PMPI_Barrier(ctl);
    mpiccwrap_cdag_on = 0;
}

void mpiccwrap_cdag_report(void)
{
    const char *tool = getenv("MPICC_WRAP_TOOL");
    char job[32];
    pid_t pid;
    int status = 0;
    if (cd.rank != 0 || !cd.report || !cd.job)
        return;
    cd.report = 0;
    snprintf(job, sizeof job, "%012llx", (unsigned long long)cd.job);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        const char *prog = tool && *tool ? tool : "mpicc-wrap-tool";
        dup2(2, 1); /* the report goes to stderr, the program's output stays as it was */
        execlp(prog, prog, "cdag", "--job", job, cd.dir, (char *)NULL);
        fprintf(stderr, "mpicc-wrap: cDAG: records in %s; run: mpicc-wrap-tool cdag %s\n",
                cd.dir, cd.dir);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, &status, 0);
}
