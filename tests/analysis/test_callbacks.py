"""Calls through a function-pointer parameter bound in its file (rankdep/callbacks.py),
in the file and for a caller in another file."""

from __future__ import annotations

import dataclasses

from pycparser import c_ast
from test_rankdep import analyse, verdicts

from mpicc_wrap.analysis.rankdep.callbacks import bound_callbacks
from mpicc_wrap.model import FunctionSummary

# Scotch's dgraphInduce2: the callback fills the induced graph's arrays from halo data
# that differs between processes; the graph's counts stay the same on every process.
INDUCE = """
typedef struct g { int n; long *data; } G;
static void fill_list(G *g, long *halo) { g->data[0] = halo[0]; }
static void fill_part(G *g, long *halo) { g->data[1] = 2; }
STORAGE int induce(G *g, void (*fn)(G *, long *), long *halo) { fn(g, halo); return 0; }
void induce_list(G *g, long *h) { induce(g, fill_list, h); }
void induce_part(G *g, long *h) { induce(g, (void (*)(G *, long *)) &fill_part, h); }
int main(void) {
    G g; long h[1]; int me;
    MPI_Comm_rank(0, &me);
    h[0] = me;
    g.n = 4;
    induce_list(&g, h);
    if (g.n > 0) MPI_Barrier(0);
    return 0;
}
"""


def test_a_static_parameter_is_bound_to_the_functions_every_call_passes() -> None:
    rd, _ = analyse(INDUCE.replace("STORAGE", "static"))
    assert rd._callbacks == {("induce", "fn"): ("fill_list", "fill_part")}
    assert rd.callbacks("induce") == {"1": ["fill_list", "fill_part"]}


def test_a_bound_callback_is_walked_instead_of_an_unknown_call() -> None:
    # before: fn(g, halo) wrote the halo's per-process data through g, and g.n with it
    assert verdicts(INDUCE.replace("STORAGE", "static")) == [False]
    assert verdicts(INDUCE.replace("STORAGE", "")) == [False]


def test_a_bound_callback_that_writes_the_rank_keeps_the_warning() -> None:
    src = INDUCE.replace("STORAGE", "static").replace(
        "g->data[1] = 2;", "int me; MPI_Comm_rank(0, &me); g->n = me;")
    assert verdicts(src) == [True]


def test_a_parameter_is_not_bound_when_the_function_escapes_or_assigns_it() -> None:
    escaped = INDUCE.replace("STORAGE", "static") + "void *keep = (void *) induce;\n"
    assert analyse(escaped)[0]._callbacks == {}
    assigned = INDUCE.replace("STORAGE", "static").replace(
        "{ fn(g, halo);", "{ if (!fn) fn = fill_part; fn(g, halo);")
    assert analyse(assigned)[0]._callbacks == {}
    variable = INDUCE.replace("STORAGE", "static").replace(
        "induce(g, fill_list, h); }", "void (*f)(G *, long *) = fill_list; induce(g, f, h); }")
    assert analyse(variable)[0]._callbacks == {}


def test_bound_callbacks_needs_a_function_name_at_every_call() -> None:
    from pycparser import c_ast
    ast = analyse(INDUCE.replace("STORAGE", "static"))[1]
    assert bound_callbacks(ast.ext, lambda n: n == "fill_list") == {}
    assert bound_callbacks([n for n in ast.ext if not isinstance(n, c_ast.FuncDef)],
                           lambda n: True) == {}


def _summary(**kw: object) -> dict[str, FunctionSummary]:
    base = dict(name="induce", file="induce.c", line=1, has_collectives=False,
                sequence=[], fixed=True, rank_writes=[], writes=["p0:1"],
                callbacks={"1": ["fill_list"]})
    base.update(kw)
    return {"induce": FunctionSummary(**base)}  # type: ignore[arg-type]


CALLER = """
typedef struct g { int n; long *data; } G;
int induce(G *g, void (*fn)(G *, long *), long *halo);
void fill_list(G *g, long *halo);
static void mine(G *g, long *halo) { g->n = halo[0]; }
int main(void) {
    G g; long buf[1]; int me;
    MPI_Comm_rank(0, &me);
    g.data = buf;
    buf[0] = me;
    g.n = 4;
    induce(&g, CALLBACK, g.data);
    if (g.n > 0) MPI_Barrier(0);
    return 0;
}
"""


def test_a_caller_passing_a_listed_callback_applies_the_summary() -> None:
    # the summary, made with fill_list, says induce writes the graph's array only
    assert verdicts(CALLER.replace("CALLBACK", "fill_list"), external=_summary(
        writes=["f:g.data:1"])) == [False]


def test_a_caller_passing_another_callback_takes_the_call_as_unknown() -> None:
    # mine() copies the halo into g->n: the summary, made with fill_list, cannot say so
    assert verdicts(CALLER.replace("CALLBACK", "mine"), external=_summary(
        writes=["f:g.data:1"])) == [True]
    # without the list the caller applies the summary as it reads: g.n unwritten
    assert verdicts(CALLER.replace("CALLBACK", "mine"), external=_summary(
        writes=["f:g.data:1"], callbacks={})) == [False]


# p4est's pattern: the library calls back the function it is given on every local
# quadrant, and its file cannot know what that function writes.
LIBRARY = """
typedef struct forest { int rank; void *user; long nlocal; long *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, long *q);
void init_data(Forest *f, long which, long *q, init_t init_fn) {
    if (init_fn != 0) init_fn(f, which, q);
}
Forest *forest_new(int n, init_t init_fn, void *user) {
    Forest *f = (Forest *) malloc(sizeof *f);
    long i;
    MPI_Comm_rank(0, &f->rank);
    f->user = user;
    f->nlocal = f->rank + n;
    f->quads = (long *) malloc(8 * f->nlocal);
    for (i = 0; i < f->nlocal; i++) init_data(f, i, &f->quads[i], init_fn);
    return f;
}
"""


def test_a_summary_leaves_the_calls_through_its_parameters_to_its_callers() -> None:
    rd, _ = analyse(LIBRARY)
    # (the quadrants' array too: this file hands init_data a pointer into it)
    assert rd.called_params("init_data") == (
        [3], {"0": ["p0:1"], "2": ["f:forest.quads:1", "p2:1"]}, [])
    # handed to init_data, which calls it with the forest and a quadrant
    # and on as many quadrants as the process has: per-process (callback_rank)
    assert rd.called_params("forest_new") == (
        [1], {"0": ["r"], "2": ["f:forest.quads:1"]}, [1])
    # before: the unknown call wrote per-process data through every pointer it was
    # given, the whole forest among it ('r'), and the quadrants' array; the
    # quadrants' pointer is new memory, the same object whatever its size (owned.py)
    assert rd.effects("forest_new")[1] == ["f:forest.nlocal:0", "f:forest.rank:0"]
    assert rd.effects("init_data")[1] == []


def _forest() -> dict[str, FunctionSummary]:
    return {"forest_new": FunctionSummary(
        "forest_new", "forest.c", 7, True, ["MPI_Comm_rank@#0"], True,
        rank_writes=["f:forest.nlocal:0", "f:forest.quads:0", "f:forest.rank:0"],
        writes=["f:forest.nlocal:0", "f:forest.quads:0", "f:forest.rank:0",
                "f:forest.user:0"], calls_params=[1],
        callback_writes={"0": ["r"], "2": ["f:forest.quads:1"]}, callback_rank=[1])}


APPLICATION = """
typedef struct forest { int rank; void *user; long nlocal; long *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, long *q);
typedef struct ctx { int steps; } Ctx;
Forest *forest_new(int n, init_t init_fn, void *user);
long last;
static void init(Forest *f, long which, long *q) { BODY }
int main(void) {
    Ctx c; Forest *f; Ctx *ctx;
    c.steps = 3;
    f = forest_new(4, CALLBACK, &c);
    ctx = (Ctx *) f->user;
    if (ctx->steps > 0) MPI_Barrier(0);
    if (last > 2) MPI_Barrier(0);
    return 0;
}
"""


def _app(body: str, callback: str = "init") -> list[bool]:
    return verdicts(APPLICATION.replace("BODY", body).replace("CALLBACK", callback),
                    external=_forest())


def test_a_callback_that_writes_its_quadrant_leaves_the_forest_alone() -> None:
    assert _app("*q = which;") == [False, False]


def test_a_callback_is_called_with_per_process_arguments() -> None:
    # each process numbers its own quadrants: what the callback stores from them
    # differs, and so does what it reaches through the forest it is given
    assert _app("last = which;") == [False, True]
    assert _app("((Ctx *) f->user)->steps = (int) which;") == [True, False]


def test_a_callback_the_application_does_not_know_is_an_unknown_call() -> None:
    src = APPLICATION.replace("BODY", "*q = which;").replace("CALLBACK", "pick()").replace(
        "Forest *forest_new(", "init_t pick(void);\nForest *forest_new(")
    assert verdicts(src, external=_forest()) == [True, False]
    assert _app("*q = which;", "0") == [False, False]  # no callback at all


# p4est_wrap.c passes `weight_exponent ? partition_weight : NULL`: the library calls
# back one of the conditional's functions, here alike on every process
CHOSEN = """
typedef struct forest { int rank; void *user; long nlocal; long *quads; } Forest;
typedef void (*init_t)(Forest *f, long which, long *q);
typedef struct ctx { int steps; } Ctx;
Forest *forest_new(int n, init_t init_fn, void *user);
static void one(Forest *f, long which, long *q) { ((Ctx *) f->user)->steps = 1; }
static void two(Forest *f, long which, long *q) { ((Ctx *) f->user)->steps = 2; }
int main(void) {
    Ctx c; Forest *f; int me;
    MPI_Comm_rank(0, &me);
    c.steps = 3;
    f = forest_new(4, CHOICE, &c);
    if (((Ctx *) f->user)->steps > 0) MPI_Barrier(0);
    return 0;
}
"""


def _chosen(choice: str) -> bool:
    """Whether the barrier's test may differ (the conditional is a test too)."""
    alike = dataclasses.replace(_forest()["forest_new"], callback_rank=[])
    return verdicts(CHOSEN.replace("CHOICE", choice), external={"forest_new": alike})[-1]


def test_a_callback_chosen_by_a_conditional_is_called_back_as_each_arm() -> None:
    # before: a conditional was an unknown function, which could write all the
    # library hands it from all of it (the forest, whose rank and counts differ)
    assert not _chosen("c.steps > 1 ? one : two")
    assert not _chosen("c.steps > 1 ? one : 0")
    assert not _chosen("c.steps > 1 ? (init_t) 0 : &two")


def test_a_callback_chosen_per_process_runs_on_some_processes() -> None:
    # rank 0 stores 2, the others 1: each arm runs on some processes only
    assert _chosen("me ? one : two")
    assert _chosen("me ? one : 0")


def test_a_callback_writes_through_its_parameter_in_a_function_it_hands_it_to() -> None:
    # store() writes *q for init(): what the library hands at position 2 is written
    body = "store(q, which);"
    src = APPLICATION.replace("static void init(", "static void store(long *p, long v) "
                              "{ *p = v; }\nstatic void init(").replace("BODY", body)
    forest = _forest()
    forest["forest_new"].rank_writes = ["f:forest.nlocal:0", "f:forest.rank:0"]
    rd, _ = analyse(src.replace("CALLBACK", "init"), forest)
    assert rd.reason("main", _deref_quads()) is not None
    quiet = src.replace("store(q, which);", "last = which;")  # no write through q
    rd, _ = analyse(quiet.replace("CALLBACK", "init"), forest)
    assert rd.reason("main", _deref_quads()) is None


def _deref_quads() -> c_ast.Node:
    """``f->quads[0]`` in main (what the library handed init() at position 2)."""
    return c_ast.ArrayRef(c_ast.StructRef(c_ast.ID("f"), "->", c_ast.ID("quads")),
                          c_ast.Constant("int", "0"))


# sc_hash_foreach: every entry of a table, on every process alike (no callback_rank)
FOREACH = """
typedef struct table { long n; long *items; } Table;
long total;
void foreach(Table *t, int (*fn)(long *item, void *u));
static int visit(long *item, void *u) { total += *item; return 1; }
int main(void) {
    Table t; long items[2] = {1, 2};
    t.n = 2; t.items = items;
    foreach(&t, visit);
    if (total > 0) MPI_Barrier(0);
    return 0;
}
"""


def _foreach(rank: list[int]) -> dict[str, FunctionSummary]:
    return {"foreach": FunctionSummary(
        "foreach", "table.c", 1, False, [], True, rank_writes=[], writes=[],
        calls_params=[1], callback_writes={"0": ["f:table.items:1"]}, callback_rank=rank)}


def test_a_callback_called_alike_on_every_process_reads_what_it_is_handed() -> None:
    # before this rule was refined, every callback ran with per-process arguments,
    # and libsc's option tables (built on sc_hash_foreach) became per-process
    assert verdicts(FOREACH, external=_foreach([])) == [False]
    assert verdicts(FOREACH, external=_foreach([1])) == [True]
    # the table's items differ here: what the callback reads from them does too
    per_rank = FOREACH.replace("t.n = 2;", "t.n = 2; MPI_Comm_rank(0, (int *) &items[0]);")
    assert verdicts(per_rank, external=_foreach([])) == [True]
