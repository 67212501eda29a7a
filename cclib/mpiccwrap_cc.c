/* mpiccwrap_cc.c - the run-time collective checker (CC) of mpicc-wrap.
 *
 * Implements the CC function of PARCOACH (Saillard et al., section 3.2, Algorithm 3)
 * with a cheaper and wider check.  PARCOACH creates an "equalsop" operator and runs
 * MPI_Reduce + MPI_Bcast on MPI_COMM_WORLD at every call; here the fast path is ONE
 * MPI_Allreduce(MPI_MIN) of a fixed vector of 8 longs on the collective's own
 * communicator: [c, -c, r, -r, o, -o, s, -s] for the colour c of the collective (or
 * of "leave the function"), its root r, operator code o and data size s, so that
 * min(x) and max(x) = -min(-x) arrive at once and every rank sees the same verdict.
 * Nothing is allocated and nothing is printed on success.  Only on a mismatch is
 * every rank's site identity gathered to rank 0, which prints one report and aborts.
 *
 * Checks are skipped (the function returns at once) when MPI is not initialised or
 * already finalised, when comm is not a live communicator (freed, never set:
 * mpiccwrap_comms.c), when it is MPI_COMM_NULL or an intercommunicator (whose
 * collectives pair two groups with legitimately different roots), and when the
 * environment variable MPICC_WRAP_CHECK is 0/no/off/false (read once).
 *
 * With MPICC_WRAP_TRACE_DIR set, each check performed is handed to the recorder as a
 * struct mpiccwrap_record (mpiccwrap_protocol.h): kind, site, communicator, root,
 * operator, count and bytes, and whether the ranks agreed; a mismatch is recorded
 * before the report and the abort.
 *
 * Threads: every check is issued by the thread that issues the collective, right
 * before it, so MPI_THREAD_FUNNELED and MPI_THREAD_SERIALIZED programs are safe.
 * Under MPI_THREAD_MULTIPLE with several threads running collectives on the SAME
 * communicator, a check and its collective are not atomic: the checks of two
 * threads may interleave differently on different ranks and report a false
 * mismatch or block; run such programs with MPICC_WRAP_CHECK=0.  Different threads
 * on different communicators are fine.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "mpiccwrap_cc.h"
#include "mpiccwrap_text.h"
#include "mpiccwrap_hang.h"
#include "mpiccwrap_recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MW_NFIELDS = 4, MW_SHORT = 64, MW_LONG = 192 };

/* One rank's view of a failed check, gathered to rank 0 as raw bytes. */
struct mw_record {
    long v[MW_NFIELDS]; /* colour, root, operator code, data size in bytes */
    int line;
    int world;
    int flagged;
    int pad;
    char name[MW_SHORT];
    char comm[MW_SHORT];
    char function[MW_SHORT];
    char file[MW_LONG];
    char cond[MW_LONG];
};

/* The report is built in memory and written with one call, then rank 0 pauses
 * briefly before MPI_Abort: written piecemeal, part of it could be lost when the
 * process manager tears the job down. */
static struct mpiccwrap_text mw_report_buf;
#define mw_out(...) mpiccwrap_text_printf(&mw_report_buf, __VA_ARGS__)

static void mw_flush(void)
{
    struct timespec pause = {0, 200000000L};
    if (mw_report_buf.text)
        fwrite(mw_report_buf.text, 1, mw_report_buf.len, stderr);
    fflush(stderr);
    nanosleep(&pause, NULL);
}

static const char *const mw_field_names[MW_NFIELDS] = {"collective", "root", "operator",
                                                       "data size"};

static int mw_enabled(void)
{
    static volatile int state = -1; /* benign race: every thread computes the same */
    if (state < 0) {
        const char *e = getenv("MPICC_WRAP_CHECK");
        int off = e && (!strcmp(e, "0") || !strcmp(e, "no") || !strcmp(e, "off") ||
                        !strcmp(e, "false"));
        state = !off;
    }
    return state;
}

static int mw_active(MPI_Comm comm)
{
    int flag = 0;
    if (!mw_enabled() || comm == MPI_COMM_NULL)
        return 0;
    MPI_Initialized(&flag);
    if (!flag)
        return 0;
    MPI_Finalized(&flag);
    if (flag || !mpiccwrap_comm_live(comm)) /* freed or never set: never touch it */
        return 0;
    MPI_Comm_test_inter(comm, &flag);
    return !flag;
}

struct mw_opname {
    MPI_Op op;
    long code; /* enum mpiccwrap_op */
    const char *name;
};

/* Predefined operators and their protocol codes, as data. */
static int mw_ops(struct mw_opname *out)
{
    struct mw_opname t[] = {
        {MPI_MAX, MPICCWRAP_OP_MAX, "MPI_MAX"},
        {MPI_MIN, MPICCWRAP_OP_MIN, "MPI_MIN"},
        {MPI_SUM, MPICCWRAP_OP_SUM, "MPI_SUM"},
        {MPI_PROD, MPICCWRAP_OP_PROD, "MPI_PROD"},
        {MPI_LAND, MPICCWRAP_OP_LAND, "MPI_LAND"},
        {MPI_BAND, MPICCWRAP_OP_BAND, "MPI_BAND"},
        {MPI_LOR, MPICCWRAP_OP_LOR, "MPI_LOR"},
        {MPI_BOR, MPICCWRAP_OP_BOR, "MPI_BOR"},
        {MPI_LXOR, MPICCWRAP_OP_LXOR, "MPI_LXOR"},
        {MPI_BXOR, MPICCWRAP_OP_BXOR, "MPI_BXOR"},
        {MPI_MINLOC, MPICCWRAP_OP_MINLOC, "MPI_MINLOC"},
        {MPI_MAXLOC, MPICCWRAP_OP_MAXLOC, "MPI_MAXLOC"},
        {MPI_REPLACE, MPICCWRAP_OP_REPLACE, "MPI_REPLACE"},
        {MPI_NO_OP, MPICCWRAP_OP_NO_OP, "MPI_NO_OP"},
    };
    int n = (int)(sizeof t / sizeof t[0]);
    if (out)
        memcpy(out, t, sizeof t);
    return n;
}

static long mw_opcode(MPI_Op op)
{
    struct mw_opname t[32];
    int i, n;
    if (op == MPI_OP_NULL)
        return MPICCWRAP_OP_NONE;
    n = mw_ops(t);
    for (i = 0; i < n; i++)
        if (t[i].op == op)
            return t[i].code;
    return MPICCWRAP_OP_USER;
}

static const char *mw_opname(long code)
{
    struct mw_opname t[32];
    int i, n = mw_ops(t);
    for (i = 0; i < n; i++)
        if (t[i].code == code)
            return t[i].name;
    return code == MPICCWRAP_OP_USER ? "a user-defined operator" : "no operator";
}

static long mw_size(long count, MPI_Datatype type)
{
    int tsize = 0;
    if (count < 0 || type == MPI_DATATYPE_NULL)
        return MPICCWRAP_NO_COUNT;
    MPI_Type_size(type, &tsize);
    return count * (long)tsize;
}

static void mw_copy(char *dst, const char *src, size_t n)
{
    size_t len;
    if (!src)
        src = "";
    len = strlen(src);
    if (len > n - 1)
        len = n - 1; /* truncated */
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static void mw_fill(struct mw_record *r, const struct mpiccwrap_site *s, const long *v)
{
    memset(r, 0, sizeof *r);
    memcpy(r->v, v, sizeof r->v);
    r->line = s->line;
    r->flagged = s->flagged;
    MPI_Comm_rank(MPI_COMM_WORLD, &r->world);
    mw_copy(r->name, s->name, sizeof r->name);
    mw_copy(r->comm, s->comm, sizeof r->comm);
    mw_copy(r->function, s->function, sizeof r->function);
    mw_copy(r->file, s->file, sizeof r->file);
    mw_copy(r->cond, s->cond, sizeof r->cond);
    if (!r->file[0]) /* a check made by the interception (MPICC_WRAP_CHECK=all) */
        mpiccwrap_hang_where(r->file, sizeof r->file, &r->line, r->function,
                             sizeof r->function);
}

/* Print "rank 2" or "ranks 0-3,5" for the ranks i with key[i] == want. */
static int mw_print_ranks(const int *key, int n, int want, const struct mw_record *all)
{
    int i, count = 0, first = 1, world_differs = 0;
    for (i = 0; i < n; i++)
        count += key[i] == want;
    mw_out("%s", count == 1 ? "rank " : "ranks ");
    for (i = 0; i < n; i++) {
        int j = i;
        if (key[i] != want)
            continue;
        world_differs |= all[i].world != i;
        while (j + 1 < n && key[j + 1] == want)
            j++;
        mw_out(j > i ? "%s%d-%d" : "%s%d", first ? "" : ",", i, j);
        for (; i < j; i++)
            world_differs |= all[i + 1].world != i + 1;
        first = 0;
    }
    if (world_differs) {
        mw_out("%s", " (MPI_COMM_WORLD");
        for (i = 0; i < n; i++)
            if (key[i] == want)
                mw_out(" %d", all[i].world);
        mw_out("%s", ")");
    }
    return count;
}

static int mw_same_site(const struct mw_record *a, const struct mw_record *b)
{
    return a->v[0] == b->v[0] && a->line == b->line && !strcmp(a->file, b->file) &&
           !strcmp(a->function, b->function) && !strcmp(a->name, b->name);
}

/* Group ranks: key[i] is the index of the first rank in the same group. */
static void mw_group(const struct mw_record *all, int n, int field, int *key)
{
    int i, j;
    for (i = 0; i < n; i++) {
        key[i] = i;
        for (j = 0; j < i; j++) {
            int same = field < 0 ? mw_same_site(&all[i], &all[j])
                                 : all[i].v[field] == all[j].v[field];
            if (same) {
                key[i] = key[j];
                break;
            }
        }
    }
}

static void mw_print_site(const struct mw_record *r, int plural)
{
    const char *verb = plural ? "are" : "is";
    if (r->v[0] == MPICCWRAP_COLOR_EXIT)
        mw_out(" %s about to leave %s() at %s:%d", verb, r->function, r->file, r->line);
    else
        mw_out(" %s about to call %s at %s:%d in %s()", verb, r->name, r->file, r->line,
                r->function);
}

/* Is `loc` one of the ", "-separated locations in `list`? */
static int mw_has_location(const char *list, const char *loc)
{
    size_t len = strlen(loc);
    const char *p = list;
    while ((p = strstr(p, loc)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ','))
            return 1;
        p += len;
    }
    return 0;
}

/* Append each ", "-separated location of `cond` to `out` unless it is there already,
 * so conditions shared by several sites are named once. */
static void mw_add_locations(char *out, size_t size, const char *cond)
{
    char one[MW_LONG];
    const char *p = cond;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len >= sizeof one)
            len = sizeof one - 1;
        memcpy(one, p, len);
        one[len] = '\0';
        if (one[0] && !mw_has_location(out, one) && strlen(out) + len + 3 < size) {
            if (out[0])
                strcat(out, ", ");
            strcat(out, one);
        }
        p += strcspn(p, ",");
        while (*p == ',' || *p == ' ')
            p++;
    }
}

static void mw_print_conditions(const struct mw_record *all, const int *key, int n)
{
    char where[4 * MW_LONG] = "";
    int i;
    for (i = 0; i < n; i++)
        if (key[i] == i)
            mw_add_locations(where, sizeof where, all[i].cond);
    if (where[0])
        mw_out("; the divergence comes from the condition%s at %s (compile-time warning)",
               strchr(where, ',') ? "s" : "", where);
}

static void mw_report_sites(const struct mw_record *all, int n, const char *comm, int *key)
{
    int i, first = 1;
    mw_group(all, n, -1, key);
    mw_out("DYNAMIC-CHECK: collective mismatch on %s:", comm);
    for (i = 0; i < n; i++) {
        if (key[i] != i)
            continue;
        mw_out("%s", first ? " " : "; ");
        mw_print_site(&all[i], mw_print_ranks(key, n, i, all) > 1);
        first = 0;
    }
    mw_print_conditions(all, key, n);
    mw_out("%s", "\n");
}

static void mw_print_value(int field, long value)
{
    if (field == 1)
        mw_out(" root %ld", value);
    else if (field == 2)
        mw_out(" %s", mw_opname(value));
    else
        mw_out(" %ld bytes", value);
}

static void mw_report_args(const struct mw_record *all, int n, const char *comm, int *key)
{
    int field, i;
    for (field = 1; field < MW_NFIELDS; field++) {
        int first = 1, differs = 0;
        for (i = 1; i < n; i++)
            differs |= all[i].v[field] != all[0].v[field];
        if (!differs)
            continue;
        mw_group(all, n, field, key);
        mw_out("DYNAMIC-CHECK: %s at %s:%d in %s() on %s: ranks disagree on the %s:",
                all[0].name, all[0].file, all[0].line, all[0].function, comm,
                mw_field_names[field]);
        for (i = 0; i < n; i++) {
            int many;
            if (key[i] != i)
                continue;
            mw_out("%s", first ? " " : ", ");
            many = mw_print_ranks(key, n, i, all) > 1;
            mw_out("%s", many ? " use" : " uses");
            mw_print_value(field, all[i].v[field]);
            first = 0;
        }
        mw_out("%s", "\n");
    }
}

/* Rank 0's side of the error path: print the report and abort. */
static void mw_print_report(MPI_Comm comm, const struct mw_record *all, int n)
{
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0, i, mixed = 0;
    int *key = malloc(sizeof(int) * (size_t)n);
    MPI_Comm_get_name(comm, name, &len);
    if (!name[0])
        mw_copy(name, all[0].comm[0] ? all[0].comm : "a communicator", sizeof name);
    for (i = 1; i < n; i++)
        mixed |= all[i].v[0] != all[0].v[0];
    if (key && mixed)
        mw_report_sites(all, n, name, key);
    else if (key)
        mw_report_args(all, n, name, key);
    mw_out("DYNAMIC-CHECK: aborting with code %d before any rank blocks in a "
                    "mismatched collective (MPICC_WRAP_CHECK=0 disables the checks)\n",
            MPICCWRAP_ABORT_CODE);
    mw_flush();
    free(key);
}

static void mw_report(MPI_Comm comm, const struct mpiccwrap_site *site, const long *v)
{
    struct mw_record rec, *all = NULL;
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    mw_fill(&rec, site, v);
    if (rank == 0)
        all = calloc((size_t)size, sizeof rec);
    if (rank == 0 && !all) {
        mw_out("DYNAMIC-CHECK: collective mismatch at %s:%d in %s()\n", rec.file, rec.line,
               rec.function);
        mw_flush();
        MPI_Abort(comm, MPICCWRAP_ABORT_CODE);
        _Exit(MPICCWRAP_ABORT_CODE);
    }
    MPI_Gather(&rec, (int)sizeof rec, MPI_BYTE, all, (int)sizeof rec, MPI_BYTE, 0, comm);
    if (rank == 0) {
        mw_print_report(comm, all, size);
        MPI_Abort(comm, MPICCWRAP_ABORT_CODE);
        _Exit(MPICCWRAP_ABORT_CODE);
    }
    /* Wait for rank 0's abort so that its report is not cut short by our exit.  The
     * barrier may return with an error once rank 0 is gone, and MPI_Abort may return
     * when the job is already being torn down: never go on into the collective. */
    MPI_Barrier(comm);
    MPI_Abort(comm, MPICCWRAP_ABORT_CODE);
    _Exit(MPICCWRAP_ABORT_CODE);
}

/* Hand the recorder the record of one check performed. */
static void mw_trace(MPI_Comm comm, const struct mpiccwrap_site *s, const long *mine,
                     long count, int mismatch)
{
    struct mpiccwrap_record r;
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0, rank = 0, size = 0;
    memset(&r, 0, sizeof r);
    r.kind = s->color == MPICCWRAP_COLOR_EXIT ? MPICCWRAP_REC_EXIT : MPICCWRAP_REC_COLLECTIVE;
    r.event = mismatch ? MPICCWRAP_EV_MISMATCH : MPICCWRAP_EV_AGREED;
    r.color = mine[0];
    r.root = mine[1];
    r.op = mine[2];
    r.count = s->checks & MPICCWRAP_CHECK_SIZE ? count : MPICCWRAP_NO_COUNT;
    r.bytes = mine[3];
    memcpy(&r.comm, &comm, sizeof comm < sizeof r.comm ? sizeof comm : sizeof r.comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    r.comm_rank = rank;
    r.comm_size = size;
    r.line = s->line;
    r.checks = s->checks;
    MPI_Comm_get_name(comm, name, &len);
    mw_copy(r.name, s->name, sizeof r.name);
    mw_copy(r.comm_name, name[0] ? name : s->comm, sizeof r.comm_name);
    mw_copy(r.function, s->function, sizeof r.function);
    mw_copy(r.file, s->file, sizeof r.file);
    mpiccwrap_trace_record(&r);
}

int mpiccwrap_cc(MPI_Comm comm, const struct mpiccwrap_site *site, int root, MPI_Op op,
                 long count, MPI_Datatype type)
{
    return mpiccwrap_cc_at(comm, site, root, op, count, type, __builtin_return_address(0));
}

int mpiccwrap_cc_at(MPI_Comm comm, const struct mpiccwrap_site *site, int root, MPI_Op op,
                    long count, MPI_Datatype type, const void *where)
{
    long mine[MW_NFIELDS], vec[2 * MW_NFIELDS], res[2 * MW_NFIELDS];
    int i, mismatch = 0;
    if (!site || !mw_active(comm))
        return 0;
    /* MPICC_WRAP_CHECK=all: the interception checks every collective itself; the
     * checks inserted before collectives stand aside, exit checks stay. */
    if (site->color != MPICCWRAP_COLOR_EXIT && !mpiccwrap_hang_in_check &&
        mpiccwrap_hang_checks_all())
        return 0;
    mpiccwrap_hang_in_check++;
    mine[0] = site->color;
    mine[1] = site->checks & MPICCWRAP_CHECK_ROOT ? root : MPICCWRAP_NO_ROOT;
    mine[2] = site->checks & MPICCWRAP_CHECK_OP ? mw_opcode(op) : 0;
    mine[3] = site->checks & MPICCWRAP_CHECK_SIZE ? mw_size(count, type) : MPICCWRAP_NO_COUNT;
    for (i = 0; i < MW_NFIELDS; i++) {
        vec[2 * i] = mine[i];
        vec[2 * i + 1] = -mine[i];
    }
    mpiccwrap_hang_check_allreduce(vec, res, 2 * MW_NFIELDS, comm, site->name, where);
    for (i = 0; i < MW_NFIELDS; i++)
        mismatch |= res[2 * i] != -res[2 * i + 1];
    if (mpiccwrap_trace_on())
        mw_trace(comm, site, mine, count, mismatch);
    if (mismatch)
        mw_report(comm, site, mine);
    mpiccwrap_hang_in_check--;
    return 0;
}

void mpiccwrap_cc_exit(MPI_Comm comm, const struct mpiccwrap_site *site)
{
    mpiccwrap_cc_at(comm, site, MPICCWRAP_NO_ROOT, MPI_OP_NULL, MPICCWRAP_NO_COUNT,
                    MPI_DATATYPE_NULL, __builtin_return_address(0));
}

MPI_Comm mpiccwrap_comm_world(void)
{
    return MPI_COMM_WORLD;
}

MPI_Comm mpiccwrap_comm_self(void)
{
    return MPI_COMM_SELF;
}

MPI_Comm mpiccwrap_comm_null(void)
{
    return MPI_COMM_NULL;
}
