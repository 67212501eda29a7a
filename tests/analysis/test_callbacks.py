"""Calls through a function-pointer parameter bound in its file (rankdep/callbacks.py),
in the file and for a caller in another file."""

from __future__ import annotations

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
