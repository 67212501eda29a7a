"""What a function leaves per-process for callers in other TUs: the summary's
``rank_writes`` (analysis/rankdep/effects.py), computed in the callee's TU and applied
in the caller's."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source
from test_rankdep import PRELUDE, analyse, verdicts

from mpicc_wrap.analysis import unit
from mpicc_wrap.analysis.rankdep import effects
from mpicc_wrap.analysis.rankdep.locations import Field
from mpicc_wrap.model import FunctionSummary

CALLEE = """
typedef struct node { struct node *next, *prev; int owner; } node;
typedef struct { int me; int parts; } ctx;
int shared_rank; int *shared_ptr;
void get_rank(int *r) { MPI_Comm_rank(0, r); }
void get_deep(int **r) { MPI_Comm_rank(0, *r); }
void init(ctx *c) { MPI_Comm_rank(0, &c->me); MPI_Comm_size(0, &c->parts); }
void unlink_node(ctx *c, node *n) { if (n->owner == c->me) return; n->next->prev = n->prev; }
void publish(void) { MPI_Comm_rank(0, &shared_rank); }
void publish_deep(void) { MPI_Comm_rank(0, shared_ptr); }
void via_helper(int *r) { get_rank(r); }
int *rank_buffer(void) { static int b; MPI_Comm_rank(0, &b); return &b; }
int count(ctx *c) { return c->parts; }
typedef struct { int comm; int pos; } buf_t;
void fill_local(ctx *c, int *out) { buf_t b; MPI_Comm_rank(0, &b.pos); b.comm = c->parts;
                                    *out = b.comm; }
void gated(int *r) { *r = 1; }
typedef struct item { long id; struct { int a, b; } pos; union { int i; struct { int x; } s; } u;
                     double w; } item;
typedef struct items { long n; item *at; } items;
typedef struct forest { int me; items list; } forest;
typedef struct bag { int me; item first; } bag;
item *push(items *l);
forest *forest_new(void) { forest *f = malloc(sizeof *f); item *q, t;
    MPI_Comm_rank(0, &f->me); t.id = 0; q = push(&f->list); if (f->me) *q = t; return f; }
bag *bag_new(void) { bag *b = malloc(sizeof *b); item *q; int me;
    MPI_Comm_rank(0, &me); q = push(0); q->id = me; if (me) *q = *q; return b; }
typedef struct hidden hidden;
hidden *find_hidden(void); void touch(void *);
forest *forest_hidden(void) { forest *f = malloc(sizeof *f); hidden *h = find_hidden();
    MPI_Comm_rank(0, &f->me); if (f->me) touch(h); return f; }
hidden *hidden_new(void) { hidden *h = find_hidden(); item *q = push(0); int me;
    MPI_Comm_rank(0, &me); if (me) *q = *q; return h; }
void *opaque_new(void) { void *o = malloc(8); item *q; int me;
    MPI_Comm_rank(0, &me); q = push(0); if (me) *q = *q; return o; }
void split_rows(int me, int *rows);
ctx *ctx_rows(void) { ctx *c = malloc(sizeof *c); int me, rows[2], grid[2][2];
    MPI_Comm_rank(0, &me); split_rows(me, rows); split_rows(me, grid[1]);
    c->parts = 2; return c; }
int main(void) { int me; MPI_Comm_rank(0, &me); if (me == 0) gated(&me); return 0; }
"""


@pytest.mark.parametrize(("func", "tokens"), [
    ("get_rank", ["p0:1"]),
    ("get_deep", ["p0:2"]),
    ("init", ["f:ctx.me:0"]),  # the field me of the struct type ctx
    ("unlink_node", ["f:node.prev:0"]),
    ("publish", ["g:shared_rank:0"]),
    ("publish_deep", ["g:shared_ptr:1"]),
    ("via_helper", ["p0:1"]),  # through a function of the same TU
    ("rank_buffer", ["r"]),
    ("count", []),
    ("fill_local", []),  # the fields of its local struct die with the call
    ("gated", []),  # per-process only because main calls it under 'me == 0'
    # what a local item pointer points to cannot be the forest it returns (C11 6.5p7):
    # the fields of an item (and of its by-value members), not "the returned memory"
    # (a struct inside a union is read through either member: its fields' owner is
    # unknown, "f:x:0")
    ("forest_new", ["f:forest.me:0", "f:item.id:0", "f:item.pos.a:0", "f:item.pos.b:0",
                    "f:item.pos:0", "f:item.u.|i|s:0", "f:item.u:0", "f:item.w:0",
                    "f:x:0"]),
    ("bag_new", ["f:item.id:0", "r"]),  # a bag holds an item: it may be the returned one
    ("opaque_new", ["r"]),  # a void * may point to anything
    ("forest_hidden", ["f:forest.me:0", "r"]),  # a struct whose members this file
    # does not know: its fields cannot be named, so the write stays "r"; nor can
    # this file tell that such a struct holds no item
    ("hidden_new", ["r"]),
    # the elements of its automatic arrays die with the call: not "r" (hypre's
    # hypre_ParVectorCreate and its 'HYPRE_BigInt partitioning[2]')
    ("ctx_rows", []),
])
def test_rank_writes_name_what_a_caller_can_reach(func: str, tokens: list[str]) -> None:
    rd, _ = analyse(CALLEE)
    assert rd.effects(func)[1] == tokens


def test_a_void_function_never_returns_the_rank() -> None:
    rd, _ = analyse(CALLEE)
    assert not rd.returns_rank("unlink_node")  # its result slot is gated, not a value
    assert not rd.returns_rank("count")


def summary(name: str, writes: list[str] | None, returns: bool = False) -> FunctionSummary:
    return FunctionSummary(name, "other.c", 1, False, [], True, returns_rank=returns,
                           rank_writes=writes)


CALLER = """
typedef struct { int me; int parts; int *buf; } ctx;
int shared_rank; int other_global;
void ext(ctx *c, int *out, int **deep);
int main(void) { ctx c; int a = 0, b = 0, v = 0; int *p = &v; c.parts = 2;
    int r = ext(&c, &a, &p);
    if (c.parts) ; if (c.me) ; if (a) ; if (b) ; if (*p) ; if (shared_rank) ;
    if (other_global) ; if (r) ; return 0; }
"""


@pytest.mark.parametrize(("writes", "returns", "expected"), [
    # out-parameter 1 only
    (["p1:1"], False, [False, False, True, False, False, False, False, False]),
    # a field by name, a global, and one level deeper through parameter 2
    (["f:me:0", "g:shared_rank:0", "p2:2"], False,
     [False, True, False, False, True, True, False, False]),
    # the field me of the struct type ctx (layouts.py), as the callee's TU names it
    (["f:ctx.me:0"], False, [False, True, False, False, False, False, False, False]),
    # the field me of another struct type: not c.me
    (["f:node.me:0"], False, [False, False, False, False, False, False, False, False]),
    # nothing per-process, but the result
    ([], True, [False, False, False, False, False, False, False, True]),
    # a summary of a version without rank_writes: the result through every argument
    (None, True, [True, True, True, False, True, False, False, True]),
    # anything: every argument
    (["*"], False, [True, True, True, False, True, False, False, False]),
    # a buffer reached through the returned pointer: the result
    (["r"], False, [False, False, False, False, False, False, False, True]),
])
def test_a_caller_applies_rank_writes(writes: list[str] | None, returns: bool,
                                      expected: list[bool]) -> None:
    assert verdicts(CALLER, external={"ext": summary("ext", writes, returns)}) == expected


def test_tokens_parse_and_reject_garbage() -> None:
    assert effects.parse("p3:1") == ("p", "3", 1)
    assert effects.parse("p0:0") == ("p", "0", 1)  # a parameter is at least *p
    assert effects.parse("f:next:7") == ("f", "next", 2)  # k-limited (MAX_DEREF)
    assert effects.parse("g:x:0") == ("g", "x", 0)
    assert effects.parse("f:ctx.me:1") == ("f", "ctx.me", 1)
    assert effects.field("ctx.me") == Field("me", "ctx")
    assert effects.field("word.|f|i") == Field("|f|i", "word")  # a union (layouts.py)
    assert effects.field("me") == Field("me")
    for bad in ("*", "r", "q:x:1", "f::1", "f:x:y", "p:1", ""):
        assert effects.parse(bad) is None


def test_a_union_written_in_one_file_is_read_through_another_member_in_another() -> None:
    """The callee's TU names the union's one location (``f:word.|f|i``); the caller
    reads the member ``f`` of the same union type, and of an unknown owner."""
    callee = ("union word { int i; float f; };\n"
              "void set(union word *w) { MPI_Comm_rank(0, &w->i); }\n")
    rd, _ = analyse(callee)
    assert rd.effects("set")[1] == ["f:word.|f|i:0"]
    caller = ("union word { int i; float f; };\nvoid set(union word *w);\n"
              "int main(void) { union word w; set(&w); if (w.f > 0) ; if (undeclared()->f) ;"
              " return 0; }\n")
    assert verdicts(caller, external={"set": summary("set", ["f:word.|f|i:0"])}) == [True, True]


def test_writes_name_everything_a_caller_can_reach_that_is_written() -> None:
    rd, _ = analyse(CALLEE)
    assert rd.effects("unlink_node")[2] == ["f:node.prev:0"]
    assert rd.effects("init")[2] == ["f:ctx.me:0", "f:ctx.parts:0"]
    assert rd.effects("gated")[2] == ["p0:1"]
    assert rd.effects("count")[2] == []
    assert rd.effects("fill_local")[2] == ["p1:1"]  # not b.comm, b.pos (f:comm, f:pos)


MOD_CALLER = """
typedef struct { int n; int *buf; } obj;
void put(obj *o, int *buf);
int main(void) { obj o; int rank, data[4]; o.n = 2;
    MPI_Comm_rank(0, &rank);
    data[0] = rank;
    put(&o, data);
    if (o.n) ;
    if (rank == 0) put(&o, data);
    if (o.n) ; return 0; }
"""
# put() gets per-process data, then is called by rank 0 alone; the third condition is
# the rank test itself.


@pytest.mark.parametrize(("writes", "expected"), [
    (None, [True, True, True]),  # unknown: every pointer argument may be written
    (["*"], [True, True, True]),
    (["p1:1"], [False, True, False]),  # put() writes through its second argument only
    (["f:n:0"], [True, True, True]),  # ... or the field n of whatever it reaches
    ([], [False, True, False]),  # nothing at all
])
def test_a_caller_writes_only_what_the_callee_may_write(writes: list[str] | None,
                                                        expected: list[bool]) -> None:
    ext = {"put": FunctionSummary("put", "put.c", 1, False, [], True, writes=writes)}
    assert verdicts(MOD_CALLER, external=ext) == expected


ARGUMENTS = """
int count(int *data, int n) { int s = 0, i; for (i = 0; i < n; i++) s += data[i]; return s; }
int positive(int *data) { return data[0] > 0; }
int fill(int *data, int n) { int i; for (i = 0; i < n; i++) data[i] = i; return 3; }
int exchange(int *data, int n) { int o = 0;
    if (MPI_Bcast(data, n, 0, 0, 0) != 0) o = 1;
    return o; }
static int hidden(int *data) { return 0 * data[0]; }
int main(void) { int rank, d[4]; MPI_Comm_rank(0, &rank); d[0] = rank;
    return count(d, 4) + positive(d) + fill(d, 4) + exchange(d, 4) + hidden(d); }
"""


@pytest.mark.parametrize(("func", "ignores"), [
    ("count", False),  # the sum of what it is given
    ("positive", False),
    ("fill", True),  # always 3
    ("exchange", True),  # 0 unless the broadcast failed (the failure arm is not walked)
])
def test_a_result_that_ignores_the_arguments(func: str, ignores: bool) -> None:
    rd, _ = analyse(ARGUMENTS)
    assert rd.ignores_arguments(func) is ignores


def test_the_summary_of_a_function_that_ignores_its_arguments_is_uniform() -> None:
    """Its callers in other TUs pass it per-process data (Scotch's dgraphHaloSync) and
    must not take its result, an error code, as per-process."""
    tu = parse_source(PRELUDE + ARGUMENTS)
    s = unit.analyse(tu, {}).summaries
    assert [n for n in ("count", "positive", "fill", "exchange", "hidden")
            if s[n].uniform_return] == ["fill", "exchange"]


def test_a_tu_without_seeds_still_says_what_its_functions_write() -> None:
    """No per-process value in the file, but its callers need to know which arguments
    a function writes (Scotch's dgraphGhst2, in a file without seeds)."""
    tu = parse_source(PRELUDE + """
        typedef struct { int n; int *tab; } graph;
        void set(int *p, int *q) { *p = *q; }
        void build(graph *g) { g->n = 1; }""")
    s = unit.analyse(tu, {}).summaries
    assert s["set"].writes == ["p0:1"] and s["build"].writes == ["f:graph.n:0"]


def test_a_large_tu_without_seeds_is_not_solved_for_writes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve made only for the summaries is bounded by the number of functions
    (pnetcdf's 815-function var_getput.c): past it, what they write is unknown."""
    monkeypatch.setattr(unit, "WRITES_SOLVE_FUNCTIONS", 1)
    tu = parse_source(PRELUDE + "void set(int *p) { *p = 1; } void two(void) { }")
    assert unit.analyse(tu, {}).summaries["set"].writes is None


# hypre's hypre_SeqVectorCreate(size): the size it is given, a constant count
CREATE = """
typedef struct vec { int size; int nv; double *data; } vec;
vec *create(int size) { vec *v = (vec *) malloc(sizeof *v);
    v->size = size; v->nv = 1; v->data = 0; return v; }
void set(int *p) { *p = 1; }
void set_count(vec *q) { q->nv = 2; }
void resize(vec *q, int n) { if (n > 0) q->nv = 3; }
void copy(vec *q, vec *r) { q->size = r->size; }
"""


@pytest.mark.parametrize(("func", "tokens"), [
    ("create", ["f:vec.size:0"]),  # not the constant count, not the pointer
    ("set", ["p0:1"]),  # a constant, but where it goes is the argument
    ("set_count", ["f:vec.nv:0"]),  # ... through the argument
    ("resize", ["f:vec.nv:0"]),  # under a test of an argument
    ("copy", ["f:vec.size:0"]),
])
def test_arg_writes_are_the_writes_arguments_reach(func: str, tokens: list[str]) -> None:
    rd, _ = analyse(CREATE)
    assert rd.arg_writes(func) == tokens


def test_the_summary_lists_the_writes_arguments_reach() -> None:
    s = unit.analyse(parse_source(PRELUDE + CREATE), {}).summaries  # no seeds
    assert s["create"].writes == ["f:vec.data:0", "f:vec.nv:0", "f:vec.size:0"]
    assert s["create"].arg_writes == ["f:vec.size:0"]
    # the vector it allocates, whatever the size (before: scalar results only, and
    # never in a file without seeds)
    assert s["create"].uniform_return


def test_a_pointer_into_what_the_arguments_reach_is_not_uniform() -> None:
    rd, _ = analyse(CREATE + """
        double *at(vec *q, int i) { return &q->data[i]; }
        vec *same(vec *q) { return q; }
        double *buffer(vec *q) { return q->data; }""")
    assert [rd.ignores_arguments(f) for f in ("create", "at", "same", "buffer")] == [
        True, False, False, False]


VEC_CALLER = """
typedef struct vec { int size; int nv; double *data; } vec;
vec *create(int size);
int main(void) { int rank; vec *v;
    MPI_Comm_rank(0, &rank);
    v = create(rank + 1);
    if (v->nv != 1) return 1;
    if (v->size > 1) ; return 0; }
"""


@pytest.mark.parametrize(("arg_writes", "expected"), [
    (["f:vec.size:0"], [False, True]),  # the local size differs, the count does not
    (None, [True, True]),  # a summary without them: every write takes the argument
])
def test_a_caller_taints_only_the_writes_its_arguments_reach(
        arg_writes: list[str] | None, expected: list[bool]) -> None:
    ext = {"create": FunctionSummary(
        "create", "vec.c", 2, False, [], True, rank_writes=[], uniform_return=True,
        writes=["f:vec.data:0", "f:vec.nv:0", "f:vec.size:0"], arg_writes=arg_writes)}
    assert verdicts(VEC_CALLER, external=ext) == expected


OWN_MEMORY = """
typedef struct obj { int n; int m; } obj;
void release(void *p); void move(void *dst, void *src);
obj a_obj, b_obj;
int main(void) { int rank; obj *p;
    MPI_Comm_rank(0, &rank);
    MPI_Comm_rank(0, (int *) &a_obj);
    p = &a_obj; release(p);
    p = &b_obj; CALL;
    if (b_obj.n) MPI_Barrier(0);
    return 0; }
"""


@pytest.mark.parametrize(("call", "expected"), [
    # p points to a_obj, whose memory differs, or to b_obj, whose memory does not: the
    # pointer is the same everywhere, so the object written is, and b_obj is written
    # from b_obj (hypre's hypre_Free(matrix) in hypre_ParCSRMatrixDestroy)
    ("release(p)", [False]),
    # another argument's memory differs: what it writes through p may come from it
    ("move(p, &a_obj)", [True]),
    # some processes only make the call: every object it writes is gated
    ("if (rank) release(p)", [True, True]),
])
def test_a_write_through_an_argument_is_per_process_in_the_objects_that_differ(
        call: str, expected: list[bool]) -> None:
    ext = {name: FunctionSummary(name, "mem.c", 1, False, [], True, rank_writes=[],
                                 writes=["p0:1"], arg_writes=["p0:1"])
           for name in ("release", "move")}
    assert verdicts(OWN_MEMORY.replace("CALL", call), external=ext) == expected


# Three static helpers that never see the exported function's parameter
UNRELATED = ARGUMENTS + """
int g1, g2, g3;
static void h1(void) { g1 = g2 + 1; }
static void h2(void) { g2 = g3 * 2; }
static void h3(void) { g3 = g1 - 1; }
int twice(int x) { h1(); h2(); h3(); return 2 * x; }
"""


def test_the_argument_solve_walks_only_the_units_its_marks_reach() -> None:
    """``_arguments`` starts from the first solve's fixed point and walks first only the
    units that read a fact its marks grew (the exported functions reading their
    parameters), not every unit again: the helpers that read none are not walked, and
    what they record is the first solve's."""
    rd, _ = analyse(UNRELATED)
    assert rd.ignores_arguments("fill") and not rd.ignores_arguments("twice")
    # each exported function once (its parameters grew); main and the helpers never
    assert rd._arguments.walks == len(rd._exported) == 5 < len(rd._funcs) + 1
    # the records of the helpers are there all the same: what twice() writes through
    # its callees, none of it from its argument
    assert rd.arg_writes("twice") == []
    assert rd.effects("twice")[2] == ["g:g1:0", "g:g2:0", "g:g3:0"]


def test_the_argument_solve_of_a_tu_without_parameters_walks_nothing() -> None:
    """No exported function takes a parameter: the marks grow nothing and no unit is
    walked again (before: every unit, for answers the first solve already had)."""
    rd, _ = analyse("""int g; static int h(void) { return g; }
        int get(void) { return h(); }
        int main(void) { int r; MPI_Comm_rank(0, &r); g = r; return get(); }""")
    assert not rd.ignores_arguments("get")
    assert rd._arguments.walks == 0
