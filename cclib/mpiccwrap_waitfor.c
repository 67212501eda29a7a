/* mpiccwrap_waitfor.c - the wait-for graph of a deadlock verdict, and its report.
 *
 * Input: one struct mpiccwrap_wf_state per world rank (mpiccwrap_protocol.h), each a
 * rank blocked in an MPI call or finished (in MPI_Finalize).  A rank's blocking call
 * waits for its WAITED operations, all of them (AND: Wait, Waitall, Sendrecv, blocking
 * calls) or any one (OR: Waitany, Waitsome).  One operation can complete when:
 *   - a send (a blocked standard send counts as synchronous): its destination has a
 *     matching receive or probe pending, or may still post one;
 *   - a receive or probe: a possible source (the source, or every rank of the
 *     communicator for MPI_ANY_SOURCE: an OR) has a matching send pending, or may
 *     still send;
 *   - a collective: every rank of the communicator is in the same collective on it,
 *     or may still get there (an AND over the ranks that are not);
 *   - an operation that cannot be judged (unknown request, intercommunicator,
 *     unknown membership) always counts as able to complete.
 * "May still" means the rank is released: the graph is reduced from its sinks as in
 * MUST's AND/OR wait-for graph (a rank whose call can complete is released; releasing
 * makes others' operations able to complete), to a fixed point.  The ranks left are
 * deadlocked: none of their calls can ever complete whatever the released ranks do.
 * The verdict errs on the side of "no deadlock": everything unknown is released.
 */
#define _POSIX_C_SOURCE 200809L /* popen */
#include "mpiccwrap_hang.h"
#include "mpiccwrap_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct mpiccwrap_wf_state wf_state;
typedef struct mpiccwrap_wf_op wf_op;

static int wf_comm_eq(uint64_t a, uint64_t b)
{
    return a == b || a == 0 || b == 0;
}

static int wf_is_recv(const wf_op *o)
{
    return o->kind == MPICCWRAP_WF_RECV || o->kind == MPICCWRAP_WF_PROBE;
}

/* Does send `s` of rank q match receive `r` of rank p? */
static int wf_match(int q, const wf_op *s, int p, const wf_op *r)
{
    return s->peer == p && (r->peer == MPICCWRAP_WF_ANY || r->peer == q) &&
           (r->tag == MPICCWRAP_WF_ANY || r->tag == s->tag) && wf_comm_eq(s->comm_id, r->comm_id);
}

/* The world ranks of o's communicator, as seen by rank r: *all set when it is every
 * rank; 0 when unknown. */
static int wf_members(const wf_state *st, int n, int r, const wf_op *o, const int32_t **list,
                      int *count, int *all)
{
    *all = 0;
    *list = NULL;
    *count = 0;
    if (o->comm_id == 1 || (o->comm_size == n && o->comm_id != 0)) {
        *all = 1;
        *count = n;
        return 1;
    }
    if (o->comm_id != 0 && st[r].members_comm == o->comm_id && st[r].nmembers >= 0) {
        *list = st[r].members;
        *count = st[r].nmembers;
        return 1;
    }
    return 0;
}

static const char *wf_base(const char *call)
{
    const char *b = strncmp(call, "MPI_", 4) ? call : call + 4;
    if (b[0] == 'I' && islower((unsigned char)b[1]))
        b++; /* MPI_Ibarrier and MPI_Barrier are the same collective here */
    return b;
}

static int wf_in_coll(const wf_state *s, const wf_op *o)
{
    int i;
    for (i = 0; i < s->nops; i++) {
        const wf_op *x = &s->ops[i];
        if ((x->flags & MPICCWRAP_WF_WAITED) && x->kind == MPICCWRAP_WF_COLL &&
            x->comm_id == o->comm_id && !strcasecmp(wf_base(x->call), wf_base(o->call)))
            return 1;
    }
    return 0;
}

/* Has rank q a pending send matching receive o of rank r (or unknown operations)? */
static int wf_offers_send(const wf_state *st, int q, int r, const wf_op *o)
{
    int i;
    if (st[q].truncated)
        return 1;
    for (i = 0; i < st[q].nops; i++)
        if (st[q].ops[i].kind == MPICCWRAP_WF_SEND && wf_match(q, &st[q].ops[i], r, o))
            return 1;
    return 0;
}

static int wf_offers_recv(const wf_state *st, int p, int r, const wf_op *o)
{
    int i;
    if (st[p].truncated)
        return 1;
    for (i = 0; i < st[p].nops; i++)
        if (wf_is_recv(&st[p].ops[i]) && wf_match(r, o, p, &st[p].ops[i]))
            return 1;
    return 0;
}

/* Can operation o of rank r complete, given the released ranks?  With `targets`, also
 * list the ranks it waits for that are not released (at most max). */
static int wf_holds(const wf_state *st, int n, int r, const wf_op *o, const char *rel,
                    int *targets, int max, int *ntargets)
{
    const int32_t *list;
    int count, all, i, m, ok = 0;
    if (ntargets)
        *ntargets = 0;
#define WF_TARGET(x)                                                                           \
    do {                                                                                        \
        if (targets && *ntargets < max)                                                         \
            targets[(*ntargets)++] = (x);                                                       \
    } while (0)
    switch (o->kind) {
    case MPICCWRAP_WF_SEND:
        if (o->peer < 0 || o->peer >= n)
            return 1;
        if (wf_offers_recv(st, o->peer, r, o) || rel[o->peer])
            return 1;
        WF_TARGET(o->peer);
        return 0;
    case MPICCWRAP_WF_RECV:
    case MPICCWRAP_WF_PROBE:
        if (o->peer >= 0) {
            if (o->peer >= n || wf_offers_send(st, o->peer, r, o) || rel[o->peer])
                return 1;
            WF_TARGET(o->peer);
            return 0;
        }
        if (o->peer != MPICCWRAP_WF_ANY || !wf_members(st, n, r, o, &list, &count, &all))
            return 1;
        for (i = 0; i < count; i++) {
            m = all ? i : list[i];
            if (m < 0 || m >= n)
                return 1;
            if (wf_offers_send(st, m, r, o) || (m != r && rel[m]))
                return 1;
            if (m != r)
                WF_TARGET(m);
        }
        return 0;
    case MPICCWRAP_WF_COLL:
        if (o->comm_id == 0 || !wf_members(st, n, r, o, &list, &count, &all))
            return 1;
        ok = 1;
        for (i = 0; i < count; i++) {
            m = all ? i : list[i];
            if (m < 0 || m >= n)
                return 1;
            if (m == r || wf_in_coll(&st[m], o) || rel[m])
                continue;
            ok = 0;
            WF_TARGET(m);
        }
        return ok;
    default:
        return 1;
    }
#undef WF_TARGET
}

static int wf_rank_holds(const wf_state *st, int n, int r, const char *rel)
{
    const wf_state *s = &st[r];
    int i, waited = 0, any = 0, every = 1;
    for (i = 0; i < s->nops; i++) {
        int h;
        if (!(s->ops[i].flags & MPICCWRAP_WF_WAITED))
            continue;
        waited = 1;
        h = wf_holds(st, n, r, &s->ops[i], rel, NULL, 0, NULL);
        any |= h;
        every &= h;
    }
    if (!waited)
        return 1;
    return s->join == MPICCWRAP_WF_OR ? any : every;
}

int mpiccwrap_wf_verdict(const struct mpiccwrap_wf_state *st, int n, char *rel)
{
    int r, changed = 1, stuck = 0;
    for (r = 0; r < n; r++)
        rel[r] = 0;
    while (changed) {
        changed = 0;
        for (r = 0; r < n; r++)
            if (!rel[r] && wf_rank_holds(st, n, r, rel)) {
                rel[r] = 1;
                changed = 1;
            }
    }
    for (r = 0; r < n; r++)
        stuck += !rel[r];
    return stuck > 0;
}

/* -- report ----------------------------------------------------------------------------- */

static struct mpiccwrap_text wf_buf;
#define wf_out(...) mpiccwrap_text_printf(&wf_buf, __VA_ARGS__)

/* Take the text written since `mark` out of the buffer, as a new string. */
static char *wf_take(size_t mark)
{
    char *s;
    if (!wf_buf.text || wf_buf.len < mark)
        return NULL;
    s = malloc(wf_buf.len - mark + 1);
    if (s) {
        memcpy(s, wf_buf.text + mark, wf_buf.len - mark);
        s[wf_buf.len - mark] = '\0';
    }
    wf_buf.len = mark;
    return s;
}

enum { WF_SITES = 512 };
static struct {
    char obj[MPICCWRAP_WF_OBJ_SIZE];
    uint64_t offset;
    char text[320];
} wf_sites[WF_SITES];
static int wf_nsites;

static const char *wf_basename(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int mpiccwrap_wf_resolve(const char *obj, uint64_t offset, char *file, size_t fsize,
                         int *line, char *func, size_t nsize)
{
    char cmd[MPICCWRAP_WF_OBJ_SIZE + 64], f[256] = "", where[512] = "";
    FILE *p = NULL;
    char *colon;
    file[0] = func[0] = '\0';
    *line = 0;
    if (!obj[0] || strchr(obj, '\'') || strlen(obj) >= MPICCWRAP_WF_OBJ_SIZE)
        return 0;
    snprintf(cmd, sizeof cmd, "addr2line -f -e '%s' 0x%llx 2>/dev/null", obj,
             (unsigned long long)offset);
    p = popen(cmd, "r");
    if (!p)
        return 0;
    if (fgets(f, sizeof f, p))
        f[strcspn(f, "\r\n")] = '\0';
    if (fgets(where, sizeof where, p))
        where[strcspn(where, "\r\n (")] = '\0';
    pclose(p);
    if (f[0] && strcmp(f, "??"))
        snprintf(func, nsize, "%s", f);
    colon = strrchr(where, ':');
    if (colon && strncmp(where, "??", 2)) {
        *colon = '\0';
        *line = atoi(colon + 1);
        snprintf(file, fsize, "%s", wf_basename(where));
    }
    return func[0] || file[0];
}

/* "file.c:12 in f()" for an address of an object, by addr2line (run only once the
 * job is known to be dead), cached. */
static const char *wf_site(const wf_state *s, int obj, uint64_t offset)
{
    static char fallback[320];
    char func[128], file[128];
    const char *path;
    int i, line;
    if (obj < 0 || obj >= s->nobjs || !s->objs[obj][0])
        return "an unknown site";
    path = s->objs[obj];
    for (i = 0; i < wf_nsites; i++)
        if (wf_sites[i].offset == offset && !strcmp(wf_sites[i].obj, path))
            return wf_sites[i].text;
    mpiccwrap_wf_resolve(path, offset, file, sizeof file, &line, func, sizeof func);
    if (file[0] && func[0])
        snprintf(fallback, sizeof fallback, "%s:%d in %s()", file, line, func);
    else if (func[0])
        snprintf(fallback, sizeof fallback, "%s+0x%llx in %s()", wf_basename(path),
                 (unsigned long long)offset, func);
    else
        snprintf(fallback, sizeof fallback, "%s+0x%llx", wf_basename(path),
                 (unsigned long long)offset);
    if (wf_nsites < WF_SITES) {
        i = wf_nsites++;
        snprintf(wf_sites[i].obj, sizeof wf_sites[i].obj, "%s", path);
        wf_sites[i].offset = offset;
        snprintf(wf_sites[i].text, sizeof wf_sites[i].text, "%s", fallback);
        return wf_sites[i].text;
    }
    return fallback;
}

static void wf_comm(const wf_op *o)
{
    if (o->comm_name[0])
        wf_out("%s", o->comm_name);
    else if (o->comm_id == 1)
        wf_out("MPI_COMM_WORLD");
    else
        wf_out("a communicator of %d ranks", o->comm_size);
}

static void wf_peer(const char *word, int peer)
{
    if (peer == MPICCWRAP_WF_ANY)
        wf_out("%s any source", word);
    else if (peer >= 0)
        wf_out("%s rank %d", word, peer);
}

static void wf_tag(int tag)
{
    if (tag == MPICCWRAP_WF_ANY)
        wf_out(", any tag, ");
    else
        wf_out(", tag %d, ", tag);
}

/* "MPI_Recv(from rank 1, tag 0, MPI_COMM_WORLD)" */
static void wf_describe(const wf_op *o)
{
    wf_out("%s(", o->call);
    switch (o->kind) {
    case MPICCWRAP_WF_SEND:
    case MPICCWRAP_WF_SENT:
        wf_peer("to", o->peer);
        wf_tag(o->tag);
        wf_comm(o);
        if (o->bytes >= 0)
            wf_out(", %lld bytes", (long long)o->bytes);
        break;
    case MPICCWRAP_WF_RECV:
    case MPICCWRAP_WF_PROBE:
        wf_peer("from", o->peer);
        wf_tag(o->tag);
        wf_comm(o);
        break;
    case MPICCWRAP_WF_COLL:
        wf_comm(o);
        break;
    default:
        wf_out("not judged");
    }
    wf_out(")");
}

static int wf_is_own(const wf_state *s, const wf_op *o)
{
    return !strcmp(o->call, s->call) && o->obj == s->obj && o->offset == s->offset;
}

/* What rank r is stuck in, without the rank: folded with identical lines. */
static char *wf_rank_text(const wf_state *st, int r)
{
    const wf_state *s = &st[r];
    size_t mark = wf_buf.len;
    int i, first = 1, nw = 0;
    for (i = 0; i < s->nops; i++)
        nw += !!(s->ops[i].flags & MPICCWRAP_WF_WAITED);
    if (nw == 1 && wf_is_own(s, &s->ops[0])) {
        wf_describe(&s->ops[0]);
    } else {
        wf_out("%s", s->call);
        for (i = 0; i < s->nops; i++) {
            if (!(s->ops[i].flags & MPICCWRAP_WF_WAITED))
                continue;
            wf_out(first ? " for " : (s->join == MPICCWRAP_WF_OR ? " or " : " and "));
            wf_describe(&s->ops[i]);
            if (!wf_is_own(s, &s->ops[i]))
                wf_out(" posted at %s", wf_site(s, s->ops[i].obj, s->ops[i].offset));
            first = 0;
        }
    }
    wf_out(" at %s", wf_site(s, s->obj, s->offset));
    return wf_take(mark);
}

static void wf_ranks(const int *key, int n, int want)
{
    int i, count = 0, first = 1;
    for (i = 0; i < n; i++)
        count += key[i] == want;
    wf_out(count == 1 ? "rank " : "ranks ");
    for (i = 0; i < n; i++) {
        int j = i;
        if (key[i] != want)
            continue;
        while (j + 1 < n && key[j + 1] == want)
            j++;
        wf_out(j > i ? "%s%d-%d" : "%s%d", first ? "" : ",", i, j);
        first = 0;
        i = j;
    }
}

/* The first unreleased rank r waits for, or -1. */
static int wf_next(const wf_state *st, int n, int r, const char *rel)
{
    int i, t[1], nt = 0;
    for (i = 0; i < st[r].nops; i++)
        if ((st[r].ops[i].flags & MPICCWRAP_WF_WAITED) &&
            !wf_holds(st, n, r, &st[r].ops[i], rel, t, 1, &nt) && nt > 0 && !rel[t[0]])
            return t[0];
    return -1;
}

static int wf_cycle(const wf_state *st, int n, const char *rel, int *path)
{
    int start = -1, r, len = 0, i, j;
    int *seen = calloc((size_t)n, sizeof *seen);
    if (!seen)
        return 0;
    for (r = 0; r < n && start < 0; r++)
        if (!rel[r])
            start = r;
    r = start;
    while (r >= 0 && !seen[r] && len < n) {
        seen[r] = len + 1;
        path[len++] = r;
        r = wf_next(st, n, r, rel);
    }
    free(seen);
    if (r < 0)
        return 0;
    for (i = 0; i < len && path[i] != r; i++)
        ;
    for (j = 0; i + j < len; j++)
        path[j] = path[i + j];
    path[j] = r;
    return j + 1;
}

/* One closest-candidate line for a receive (or send) that nothing matches. */
static int wf_hint(const wf_state *st, int n, int r, const wf_op *o)
{
    int q, i, best = 0, bq = -1;
    const wf_op *bo = NULL;
    if (wf_is_recv(o)) {
        for (q = 0; q < n; q++)
            for (i = 0; i < st[q].nops; i++) {
                const wf_op *x = &st[q].ops[i];
                int score = 0;
                if ((x->kind != MPICCWRAP_WF_SEND && x->kind != MPICCWRAP_WF_SENT) ||
                    x->peer != r)
                    continue;
                if (wf_comm_eq(x->comm_id, o->comm_id) &&
                    (o->peer == q || o->peer == MPICCWRAP_WF_ANY))
                    score = 4; /* another tag */
                else if (o->peer == q || o->peer == MPICCWRAP_WF_ANY)
                    score = 3; /* another communicator */
                else if (wf_comm_eq(x->comm_id, o->comm_id))
                    score = 2; /* another source */
                else
                    score = 1;
                score = 2 * score + (x->kind == MPICCWRAP_WF_SEND);
                if (score > best) {
                    best = score;
                    bq = q;
                    bo = x;
                }
            }
        if (!bo) {
            for (i = 0; i < st[r].nops; i++)
                if (st[r].ops[i].kind == MPICCWRAP_WF_UNRECEIVED) {
                    const wf_op *x = &st[r].ops[i];
                    wf_out("DEADLOCK: closest candidate: a message from rank %d with tag %d "
                           "(%lld bytes, ", x->peer, x->tag, (long long)x->bytes);
                    wf_comm(x);
                    wf_out(") arrived at rank %d and was not received; ", r);
                    break;
                }
            if (i == st[r].nops)
                return 0;
        } else {
            wf_out("DEADLOCK: closest candidate: rank %d %s tag %d to rank %d on ", bq,
                   bo->kind == MPICCWRAP_WF_SEND ? "sends" : "sent", bo->tag, r);
            wf_comm(bo);
            wf_out(" at %s (%s); ", wf_site(&st[bq], bo->obj, bo->offset), bo->call);
        }
        wf_out("rank %d waits for ", r);
        if (o->tag == MPICCWRAP_WF_ANY)
            wf_out("any tag");
        else
            wf_out("tag %d", o->tag);
        wf_out(" ");
        wf_peer("from", o->peer);
        wf_out(" on ");
        wf_comm(o);
        wf_out(" at %s (%s)\n", wf_site(&st[r], o->obj, o->offset), o->call);
        return 1;
    }
    if (o->kind != MPICCWRAP_WF_SEND || o->peer < 0 || o->peer >= n)
        return 0;
    q = o->peer;
    for (i = 0; i < st[q].nops; i++)
        if (wf_is_recv(&st[q].ops[i])) {
            const wf_op *x = &st[q].ops[i];
            wf_out("DEADLOCK: closest candidate: rank %d waits for ", q);
            if (x->tag == MPICCWRAP_WF_ANY)
                wf_out("any tag");
            else
                wf_out("tag %d", x->tag);
            wf_out(" ");
            wf_peer("from", x->peer);
            wf_out(" at %s (%s); rank %d sends tag %d to rank %d at %s (%s)\n",
                   wf_site(&st[q], x->obj, x->offset), x->call, r, o->tag, q,
                   wf_site(&st[r], o->obj, o->offset), o->call);
            return 1;
        }
    return 0;
}

static void wf_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static const char *wf_kind_name(int kind)
{
    static const char *const names[] = {"", "send", "recv", "probe", "collective", "unknown",
                                        "sent", "unreceived"};
    return kind > 0 && kind < 8 ? names[kind] : "unknown";
}

static void wf_files(const wf_state *st, int n, const char *rel, const int *cycle, int nc,
                     double timeout, char *json_path, char *dot_path, size_t size)
{
    const char *dir = getenv("MPICC_WRAP_DEADLOCK_DIR");
    FILE *f;
    int r, i, k, t[8], nt;
    if (!dir || !*dir)
        dir = ".";
    snprintf(json_path, size, "%s/mpiccwrap-deadlock.json", dir);
    snprintf(dot_path, size, "%s/mpiccwrap-deadlock.dot", dir);
    f = fopen(json_path, "w");
    if (!f)
        json_path[0] = '\0';
    else {
        fprintf(f, "{\"version\": %d, \"exit_code\": %d, \"timeout\": %g, \"ranks\": [",
                MPICCWRAP_PROTOCOL_VERSION, MPICCWRAP_DEADLOCK_CODE, timeout);
        for (r = 0; r < n; r++) {
            const wf_state *s = &st[r];
            fprintf(f, "%s\n  {\"rank\": %d, \"status\": \"%s\", \"deadlocked\": %s, "
                       "\"call\": ", r ? "," : "", r,
                    s->status == MPICCWRAP_WF_FINISHED ? "finished" : "blocked",
                    rel[r] ? "false" : "true");
            wf_json_str(f, s->call);
            fprintf(f, ", \"site\": ");
            wf_json_str(f, wf_site(s, s->obj, s->offset));
            fprintf(f, ", \"join\": \"%s\", \"ops\": [",
                    s->join == MPICCWRAP_WF_OR ? "or" : "and");
            for (i = 0; i < s->nops; i++) {
                const wf_op *o = &s->ops[i];
                fprintf(f, "%s{\"kind\": \"%s\", \"call\": ", i ? ", " : "",
                        wf_kind_name(o->kind));
                wf_json_str(f, o->call);
                fprintf(f, ", \"peer\": %d, \"tag\": %d, \"comm\": ", o->peer, o->tag);
                wf_json_str(f, o->comm_name[0] ? o->comm_name : "");
                fprintf(f, ", \"comm_id\": %llu, \"comm_size\": %d, \"bytes\": %lld, "
                           "\"waited\": %s, \"site\": ",
                        (unsigned long long)o->comm_id, o->comm_size, (long long)o->bytes,
                        o->flags & MPICCWRAP_WF_WAITED ? "true" : "false");
                wf_json_str(f, wf_site(s, o->obj, o->offset));
                fprintf(f, "}");
            }
            fprintf(f, "]}");
        }
        fprintf(f, "\n], \"cycle\": [");
        for (i = 0; i < nc; i++)
            fprintf(f, "%s%d", i ? ", " : "", cycle[i]);
        fprintf(f, "]}\n");
        if (fclose(f) != 0)
            json_path[0] = '\0';
    }
    f = fopen(dot_path, "w");
    if (!f) {
        dot_path[0] = '\0';
        return;
    }
    fprintf(f, "digraph deadlock {\n  node [shape=box];\n");
    for (r = 0; r < n; r++) {
        if (rel[r])
            continue;
        fprintf(f, "  r%d [label=\"rank %d\\n%s\\n", r, r, st[r].call);
        for (k = 0; wf_site(&st[r], st[r].obj, st[r].offset)[k]; k++) {
            char c = wf_site(&st[r], st[r].obj, st[r].offset)[k];
            if (c != '"' && c != '\\')
                fputc(c, f);
        }
        fprintf(f, "\", color=red];\n");
    }
    for (r = 0; r < n; r++) {
        if (rel[r])
            continue;
        for (i = 0; i < st[r].nops; i++) {
            const wf_op *o = &st[r].ops[i];
            int or_arc = st[r].join == MPICCWRAP_WF_OR || o->peer == MPICCWRAP_WF_ANY;
            if (!(o->flags & MPICCWRAP_WF_WAITED) || wf_holds(st, n, r, o, rel, t, 8, &nt))
                continue;
            for (k = 0; k < nt; k++)
                fprintf(f, "  r%d -> r%d [label=\"%s\"%s];\n", r, t[k], o->call,
                        or_arc ? ", style=dashed" : "");
        }
    }
    fprintf(f, "}\n");
    if (fclose(f) != 0)
        dot_path[0] = '\0';
}

void mpiccwrap_wf_report(const struct mpiccwrap_wf_state *st, int n, const char *rel,
                         double timeout)
{
    char **text = calloc((size_t)n, sizeof *text);
    int *key = calloc((size_t)n, sizeof *key), *cycle = calloc((size_t)n + 1, sizeof *cycle);
    int r, q, i, stuck = 0, hints = 0, nc = 0;
    char json[4096], dot[4096];
    if (!text || !key || !cycle) {
        fprintf(stderr, "DEADLOCK: every rank is blocked and no blocked call can complete\n");
        return;
    }
    for (r = 0; r < n; r++) {
        stuck += !rel[r];
        key[r] = -1;
    }
    wf_out("DEADLOCK: %d of %d rank%s can never leave the MPI call they are blocked in "
           "(every rank blocked or finished, nothing changed after MPICC_WRAP_HANG_TIMEOUT=%g "
           "s):\n", stuck, n, n == 1 ? "" : "s", timeout);
    for (r = 0; r < n; r++)
        if (!rel[r])
            text[r] = wf_rank_text(st, r);
    for (r = 0; r < n; r++) {
        if (rel[r] || !text[r])
            continue;
        key[r] = r;
        for (q = 0; q < r; q++)
            if (key[q] == q && text[q] && !strcmp(text[q], text[r])) {
                key[r] = q;
                break;
            }
    }
    for (r = 0; r < n; r++) {
        int many = 0;
        if (key[r] != r)
            continue;
        for (q = r + 1; q < n; q++)
            many |= key[q] == r;
        wf_out("DEADLOCK: ");
        wf_ranks(key, n, r);
        if (st[r].status == MPICCWRAP_WF_FINISHED)
            wf_out(many ? " have finished and wait in " : " has finished and waits in ");
        else
            wf_out(many ? " wait in " : " waits in ");
        wf_out("%s\n", text[r]);
    }
    nc = wf_cycle(st, n, rel, cycle);
    if (nc > 1) {
        wf_out("DEADLOCK: cycle");
        for (i = 0; i < nc; i++)
            wf_out("%s%d", i ? " -> " : " ", cycle[i]);
        wf_out("\n");
    }
    for (r = 0; r < n && hints < 8; r++) {
        if (rel[r])
            continue;
        for (i = 0; i < st[r].nops && hints < 8; i++) {
            const wf_op *o = &st[r].ops[i];
            if ((o->flags & MPICCWRAP_WF_WAITED) && (wf_is_recv(o) || o->kind == MPICCWRAP_WF_SEND) &&
                !wf_holds(st, n, r, o, rel, NULL, 0, NULL))
                hints += wf_hint(st, n, r, o);
        }
    }
    wf_files(st, n, rel, cycle, nc, timeout, json, dot, sizeof json);
    if (json[0] || dot[0])
        wf_out("DEADLOCK: wait-for graph written to %s%s%s\n", json, json[0] && dot[0] ? " and " : "",
               dot);
    wf_out("DEADLOCK: aborting the job with code %d (MPICC_WRAP_DEADLOCK=0 turns the "
           "diagnosis off)\n", MPICCWRAP_DEADLOCK_CODE);
    if (wf_buf.text)
        fwrite(wf_buf.text, 1, wf_buf.len, stderr);
    fflush(stderr);
    for (r = 0; r < n; r++)
        free(text[r]);
    free(text);
    free(key);
    free(cycle);
}
