"""Summaries describe a function as a caller in another file calls it: with arguments
that are the same on every process, outside any per-process test (``solver._detached``).
The callers in the function's own file must not leak into it, and what those callers do
through it must stay in *their* summaries."""

from __future__ import annotations

import pytest
from test_rankdep import analyse, verdicts

from mpicc_wrap.model import FunctionSummary

# pnetcdf's ncmpio_NC_check_vlen: a pure function of *varp, called in its own file with
# a per-process varp; before, its summary said returns_rank.
OWN_FILE = """
typedef struct var { long n; long len; } Var;
Var *table[8];
long G, H, K;
int check(Var *v, long max) { return v->n > max ? 0 : 1; }
void set(long p) { G = p; }
void bump(Var *v) { v->len = 1; }
long get(void) { return G; }
void per_rank(void) { int me; MPI_Comm_rank(0, &me); if (check(table[me], 5)) H = 1; }
void sets_rank(void) { int me; MPI_Comm_rank(0, &me); set(me); }
void gated_set(void) { int me; MPI_Comm_rank(0, &me); if (me == 0) set(1); }
void gated_bump(Var *v) { int me; MPI_Comm_rank(0, &me); if (me == 0) bump(v); }
long reads(void) { sets_rank(); return get(); }
int own_seed(void) { int me; MPI_Comm_rank(0, &me); K = me; return me; }
static void load(void) { K = 2; }
static void sbump(Var *v) { v->len = 2; }
void setup(void) { int me; MPI_Comm_rank(0, &me); if (me == 0) load(); }
void setup_var(Var *v) { int me; MPI_Comm_rank(0, &me); if (me == 0) sbump(v); }
"""


@pytest.mark.parametrize(("func", "returns", "ranked"), [
    ("check", False, []),  # its own file passes a per-process pointer: not its fact
    ("set", False, []),  # per-process only when its caller passes the rank
    ("bump", False, []),  # called on rank 0 only in its file: the gate is the caller's
    ("per_rank", False, ["g:H:0"]),  # H = 1 under the per-process result of check
    ("sets_rank", False, ["g:G:0"]),  # passes the rank to set(): G is per-process
    ("gated_set", False, ["g:G:0"]),  # calls set() on rank 0 only
    # v->len written on rank 0 only, through bump(): before, bump's walk saw only its
    # entry gate, which summaries leave out, so this call's write was in no summary
    ("gated_bump", False, ["f:var.len:0"]),
    ("get", True, []),  # G is per-process in this file (sets_rank), whoever calls get
    ("reads", True, ["g:G:0"]),
    ("own_seed", True, ["g:K:0"]),
    # a static function called on rank 0 only: what it writes is per-process for the
    # callers of setup() in other files (before, in no summary: a missed warning)
    ("setup", False, ["g:K:0"]),
    ("setup_var", False, ["f:var.len:0"]),
])
def test_summary_as_a_caller_in_another_file_sees_it(func: str, returns: bool,
                                                      ranked: list[str]) -> None:
    assert summary_of(OWN_FILE, func) == (returns, ranked)


def summary_of(source: str, func: str) -> tuple[bool, list[str]]:
    """``returns_rank`` and ``rank_writes`` of ``func``'s summary."""
    rd, _ = analyse(source)
    returns, ranked, _ = rd.effects(func)
    return returns, ranked


def test_the_file_itself_still_sees_its_callers() -> None:
    """The findings of the file come from its own solve, per-process arguments and all."""
    body = OWN_FILE + """
    int main(void) { int me; MPI_Comm_rank(0, &me);
        if (check(table[me], 5)) MPI_Barrier(0);
        if (check(table[0], 5)) MPI_Barrier(0);
        return 0; }"""
    assert verdicts(body) == [True, True]  # table[0]->n: check's param is per-process


def test_a_static_function_keeps_its_callers() -> None:
    """Only what another file can call is detached: a static function's facts are its
    callers' in the file, as before."""
    rd, _ = analyse("""
    static int twice(int x) { return 2 * x; }
    int go(void) { int me; MPI_Comm_rank(0, &me); return twice(me); }""")
    assert rd.effects("twice")[0] is True
    assert rd.effects("go")[0] is True


@pytest.mark.parametrize(("summary", "expected"), [
    (FunctionSummary("check", "v.c", 1, False, [], True, rank_writes=[], writes=[]),
     [False, True]),
    (FunctionSummary("check", "v.c", 1, False, [], True, returns_rank=True, rank_writes=[],
                     writes=[]), [True, True]),
])
def test_a_caller_in_another_file(summary: FunctionSummary, expected: list[bool]) -> None:
    """With the detached summary a caller passing the same pointer everywhere gets one
    answer; one passing a per-process pointer still gets a per-process answer."""
    body = """
    typedef struct var { long n; } Var;
    Var *table[8];
    int check(Var *v, long max);
    int main(void) { int me; MPI_Comm_rank(0, &me);
        if (check(table[0], 5)) MPI_Barrier(0);
        if (check(table[me], 5)) MPI_Barrier(0);
        return 0; }"""
    assert verdicts(body, external={"check": summary}) == expected


def test_a_call_passing_the_address_of_a_per_process_local() -> None:
    """The callee may read ``*p``: with a per-process ``x``, ``ext(&x)`` has a
    per-process result even when ext's summary says it writes nothing and returns the
    same value for the same arguments (before, single-valued: a missed warning)."""
    summary = FunctionSummary("ext", "x.c", 1, False, [], True, rank_writes=[], writes=[])
    body = """int ext(int *p);
    int main(void) { int x, y = 1; MPI_Comm_rank(0, &x);
        if (ext(&x)) MPI_Barrier(0);
        if (ext(&y)) MPI_Barrier(0);
        return 0; }"""
    assert verdicts(body, external={"ext": summary}) == [True, False]


def test_detached_reads_through_the_address_of_a_local() -> None:
    """``above(&x)`` in its own file with a per-process ``x``: its summary is that of
    a pure function, and the caller of the file still gets a per-process result."""
    rd, _ = analyse("""int above(int *p) { return *p > 2; }
    int mine(void) { int x; MPI_Comm_rank(0, &x); return above(&x); }
    int all(void) { int y = 4; return above(&y); }""")
    assert rd.effects("above")[0] is False
    assert rd.effects("mine")[0] is True
    assert rd.effects("all")[0] is False


def test_a_detached_call_keeps_the_callees_own_per_process_writes() -> None:
    """fftw3's ``mkproblem_dft_d(sz, ...)`` calls ``mkproblem_dft`` on a tensor whose
    fields are per-process in the file: the caller's summary lists what the callee
    writes per-process (from those fields), not everything the callee writes."""
    rd, _ = analyse("""
    typedef struct t { int rnk; } T;
    typedef struct p { int flags; int vn; T *sz; } P;
    T *canon(T *); P *alloc_p(void); T *make_t(int);
    P *mk(T *sz, int vn, int flags) { P *e = alloc_p(); e->sz = canon(sz); e->vn = vn;
        if (e->sz->rnk > 1) flags = 0; e->flags = flags; return e; }
    P *mk_d(T *sz, int vn, int flags) { return mk(sz, vn, flags); }
    void per(void) { int me; MPI_Comm_rank(0, &me); T *t = make_t(me); mk_d(t, 1, 0); }""")
    own = rd.effects("mk")[1]
    assert "f:p.flags:0" in own and "f:p.vn:0" not in own
    assert rd.effects("mk_d")[1] == own


# hdf5's H5O_loc_reset: a function that clears the struct it is given, in a file
# where another function leaves that struct type's fields per-process
CLEARS = """void *memset(void *, int, unsigned long);
struct loc { long addr; int holding; };
void loc_reset(struct loc *l) { memset(l, 0, sizeof(struct loc)); l->addr = -1; }
void copy_from(struct loc *l, const struct loc *s) { memcpy(l, s, sizeof(struct loc)); }
void touch(struct loc *l) { int me; MPI_Comm_rank(0, &me); l->holding = me;
    if (me == 0) loc_reset(l); }
"""


def test_clearing_a_struct_writes_what_the_call_stores() -> None:
    """``memset`` stores its second argument, ``memcpy`` what its source points to:
    not what the destination held (catalogue.READS_MEMORY_OF), so the clearing
    function writes nothing per-process, the copying one what it is given."""
    rd, _ = analyse(CLEARS.replace("void copy_from", "void *memcpy(void *, const void *, "
                                   "unsigned long);\nvoid copy_from"))
    assert rd.effects("loc_reset")[1] == []
    assert rd.effects("copy_from")[1] == []
    assert rd.effects("touch")[1] == ["f:loc.addr:0", "f:loc.holding:0", "p0:1"]


# hdf5's FUNC_ENTER: each function of a package sets the package's init flag once,
# and a caller may pass it a per-process pointer
INIT_FLAG = """struct loc { long addr; };
static int init_g = 0;
static int pkg_init(void) { return 0; }
int loc_reset(struct loc *l) {
    if (!init_g) { init_g = 1; if (pkg_init() < 0) init_g = 0; }
    l->addr = -1; return 0; }
int touch(struct loc *l, struct loc *m) { int me; MPI_Comm_rank(0, &me);
    loc_reset(me ? l : m); return 0; }
"""


def test_a_lazy_initialisation_called_with_a_per_process_argument() -> None:
    """What a function of the file makes in its lazy initialisation from something
    else than its arguments stays single-valued in its caller's summary, as when a
    caller in another file applies its summary (``Expressions._call_detached``)."""
    rd, _ = analyse(INIT_FLAG)
    assert "g:init_g:0" not in rd.effects("touch")[1]
    assert rd.effects("touch")[1] == ["f:loc.addr:0"]


# hypre's hypre_StructMapFineToCoarse(findex, index, stride, cindex): its file passes
# the corners of local boxes (per-process), another file a copy of the global box
THROUGH_PARAMS = """
typedef struct box { int lo[3]; int hi[3]; } Box;
int G;
int map(int *f, int *s, int *c) { c[0] = f[0] / s[0]; return 0; }
int first(int *f) { return f[0] > 1; }
void rank_into(int *r) { MPI_Comm_rank(0, r); }
void local_box(Box *b, int *s) { int me; MPI_Comm_rank(0, &me); b->lo[0] = me;
    map(b->lo, s, b->lo); if (first(b->lo)) G = 1; }
void set_g(void) { rank_into(&G); }
"""


@pytest.mark.parametrize(("func", "returns", "ranked"), [
    # reads through its parameters see the argument, not its file's per-process boxes
    ("map", False, []),
    ("first", False, []),
    # (and in what its file passes: writes reach the first solve's places)
    ("rank_into", False, ["g:G:0", "p0:1"]),
    # a callee's per-process write through a parameter still lands in what it is given
    ("set_g", False, ["g:G:0"]),
    # the callee may read the per-process box it is given: as a caller in another file
    ("local_box", False, ["f:box.lo:1", "g:G:0"]),
])
def test_reads_through_parameters_see_the_arguments(func: str, returns: bool,
                                                    ranked: list[str]) -> None:
    assert summary_of(THROUGH_PARAMS, func) == (returns, ranked)


def test_the_file_still_reads_its_boxes_through_the_parameters() -> None:
    """The file's own findings keep what its callers pass (its own solve)."""
    body = THROUGH_PARAMS + """
    int main(void) { Box b; int s[3] = {2, 2, 2}; local_box(&b, s);
        if (first(b.lo)) MPI_Barrier(0);
        return 0; }"""
    assert verdicts(body) == [True]
