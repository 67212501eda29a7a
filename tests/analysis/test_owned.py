"""New memory (``analysis/rankdep/owned.py``): a pointer to what the call allocated
names the same object on every process whatever size each asked for, and a write
into it under the gates of the allocation is not gated; a further per-process test,
or a per-process value, still makes the write per-process."""

from __future__ import annotations

import pytest
from pycparserext.ext_c_parser import GnuCParser
from test_rankdep import analyse, verdicts

from mpicc_wrap.analysis.rankdep import owned
from mpicc_wrap.model import FunctionSummary

TYPES = """
typedef struct { int n; int k; int *data; } vec;
void *malloc(unsigned long); void free(void *);
int posix_memalign(void **, unsigned long, unsigned long);
vec *the_vec; vec shared_vec;
"""

RANK = "int me; MPI_Comm_rank(MPI_COMM_WORLD, &me); "


@pytest.mark.parametrize(("body", "multi"), [
    # a buffer of a per-process size is one object: what is stored in it is not
    ("int *p = malloc((me + 1) * sizeof(int)); p[0] = 5; if (p[0] == 5) B;", False),
    ("vec *v = malloc((me + 1) * sizeof(vec)); v->k = 3; if (v->k == 3) B;", False),
    ("int *p; p = (int *) malloc(me + 8); *p = 5; if (the_vec->data[0] == 5) B;", False),
    # created, filled and published under one test: the object exists only there,
    # and the pointer it is reached by carries the test
    ("if (me == 0) { vec *v = malloc(sizeof *v); v->k = 3; the_vec = v; } "
     "if (shared_vec.k == 3) B;", False),
    ("if (me == 0) { vec *v = malloc(sizeof *v); v->k = 3; the_vec = v; } "
     "if (the_vec->k == 3) B;", True),
    # what the processes store still counts
    ("vec *v = malloc(sizeof *v); v->k = me; if (shared_vec.k == 3) B;", True),
    ("int *p = malloc(8); p[0] = me; if (p[0] == 5) B;", True),
    # a further test inside: the object differs between the processes that have it
    ("vec *v = malloc(sizeof *v); if (me == 0) v->k = 3; the_vec = v; "
     "if (shared_vec.k == 3) B;", True),
    # allocated before the test, written under it
    ("vec *v = malloc(sizeof *v); if (me == 0) { v->n = 1; } if (the_vec->n) B;", True),
    # not owned: it may point to an object the processes share
    ("vec *v = malloc(sizeof *v); if (me == 0) v = &shared_vec; v->k = 3; "
     "if (shared_vec.k == 3) B;", True),
    ("vec *v = malloc(sizeof *v); vec **pv = &v; if (me == 0) { (*pv)->k = 3; } "
     "if (shared_vec.k == 3) B;", True),
])
def test_new_memory(body: str, multi: bool) -> None:
    code = TYPES + "int main(void) { " + RANK + body.replace(
        "B;", "MPI_Barrier(MPI_COMM_WORLD);") + " return 0; }"
    assert verdicts(code)[-1] is multi


def test_a_write_after_a_per_process_exit_is_under_the_gates_of_the_allocation() -> None:
    """After ``if (...) return NULL;`` every later statement is walked under the exit's
    gate (one frame, not one per statement): the allocation and the writes share it."""
    code = TYPES + """
vec *make(int n) { vec *v; if (n < 0) return 0; v = malloc(sizeof *v);
                   v->n = 1; v->k = n; return v; }
int main(void) { int me; vec *w; MPI_Comm_rank(MPI_COMM_WORLD, &me);
    w = make(me - 1); if (shared_vec.n == 1) MPI_Barrier(MPI_COMM_WORLD);
    if (shared_vec.k == 1) MPI_Barrier(MPI_COMM_WORLD); free(w); return 0; }
"""
    assert verdicts(code) == [False, True]


@pytest.mark.parametrize(("source", "expected"), [
    ("void *a(unsigned long n) { if (n == 0) return 0; return malloc(n); }", True),
    ("int *b(int n) { int *p = 0; p = malloc(n); if (!p) return 0; return p; }", True),
    ("void *c(unsigned long n) { void *p; posix_memalign(&p, 64, n); return p; }", True),
    ("vec *d(void) { return a(sizeof(vec)); }", True),  # through another
    ("vec *e(void) { return &shared_vec; }", False),
    ("vec *f(int i) { vec *v = malloc(8); if (i) v = the_vec; return v; }", False),
    ("int *g(void) { int *p = malloc(8); int **q = &p; return *q; }", False),
    ("int h(void) { return 0; }", False),  # no pointer
])
def test_allocating_functions(source: str, expected: bool) -> None:
    others = "void *a(unsigned long n) { if (n == 0) return 0; return malloc(n); }\n"
    ast = GnuCParser().parse(TYPES + (others if not source.startswith("void *a") else "")
                             + source)
    name = source.split("(")[0].split()[-1].lstrip("*")
    assert (name in owned.allocating(ast, {})) is expected


def test_declared_and_summarised_allocators() -> None:
    ast = GnuCParser().parse(TYPES + "void *my_alloc(unsigned long); void *lookup(int);")
    external = {"get_block": FunctionSummary("get_block", "b.c", 1, False, [], True,
                                             allocates=True)}
    found = owned.allocating(ast, external)
    assert {"malloc", "my_alloc", "get_block"} <= found and "lookup" not in found


CALLEE = TYPES + """
vec *make(int n) { vec *v = malloc(sizeof *v); v->n = 1; v->k = n; v->data = 0;
                   return v; }
void fill(vec *v) { v->n = 2; }
"""


def test_the_summary_lists_what_only_new_memory_takes() -> None:
    rd, _ = analyse(CALLEE + "int main(void) { fill(&shared_vec); return 0; }")
    assert rd.new_writes("make") == ["f:vec.data:0", "f:vec.k:0", "f:vec.n:0"]
    assert rd.new_writes("fill") == []


def _make(new: list[str]) -> dict[str, FunctionSummary]:
    return {"make": FunctionSummary(
        "make", "m.c", 1, False, [], True, rank_writes=[],
        writes=["f:vec.data:0", "f:vec.k:0", "f:vec.n:0"], arg_writes=["f:vec.k:0"],
        allocates=True, new_writes=new)}


@pytest.mark.parametrize(("new", "expected"), [
    # made on rank 0 alone, with a per-process size: the constant is the same
    # wherever it is, the size is not
    (["f:vec.data:0", "f:vec.k:0", "f:vec.n:0"], [False, True, False]),
    ([], [True, True, True]),  # a summary that does not say so: gated as before
])
def test_a_caller_in_another_file(new: list[str], expected: list[bool]) -> None:
    code = TYPES + """vec *make(int n);
int main(void) { int me; vec *w = 0; MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) w = make(me);
    if (shared_vec.n == 1) MPI_Barrier(MPI_COMM_WORLD);
    if (shared_vec.k == 1) MPI_Barrier(MPI_COMM_WORLD);
    if (the_vec->data) MPI_Barrier(MPI_COMM_WORLD); free(w); return 0; }
"""
    assert verdicts(code, external=_make(new))[1:] == expected


def test_the_result_of_an_allocating_call_is_the_same_everywhere() -> None:
    code = TYPES + """vec *make(int n);
int main(void) { int me; vec *w; MPI_Comm_rank(MPI_COMM_WORLD, &me);
    w = make(me); w->n = 4; the_vec = w;
    if (shared_vec.n == 4) MPI_Barrier(MPI_COMM_WORLD); free(w); return 0; }
"""
    assert verdicts(code, external=_make([])) == [False]
    unknown = _make([])
    unknown["make"].allocates = False
    assert verdicts(code, external=unknown) == [True]


def test_a_caller_in_the_same_file_summarised_for_another() -> None:
    """Summaries call the file's exported functions as another file would
    (``solver._detached``): made on rank 0 with the rank, only the field the
    argument reaches is per-process."""
    rd, _ = analyse(CALLEE + """
void load(void) { int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
                  if (me == 0) the_vec = make(me); }
""")
    assert rd.effects("load")[1] == ["f:vec.k:0", "g:the_vec:0"]


@pytest.mark.parametrize(("made", "multi"), [
    ("v = malloc(sizeof *v); init(v);", False),  # made and filled on rank 0 alone
    ("init(v);", True),  # filled on rank 0 alone, made by all
    ("v = &shared_vec; init(v);", True),
])
def test_an_object_made_and_filled_by_a_function_of_the_file(made: str,
                                                             multi: bool) -> None:
    code = TYPES + """static void init(vec *v) { v->n = 1; }
int main(void) { int me; vec *v = malloc(sizeof *v); MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) { MADE the_vec = v; }
    if (shared_vec.n == 1) MPI_Barrier(MPI_COMM_WORLD); return 0; }
""".replace("MADE", made)
    assert verdicts(code)[-1] is multi


def test_a_name_that_may_mean_something_else_is_not_owned() -> None:
    """An inner declaration may shadow a parameter or a global the body also uses."""
    ast = GnuCParser().parse(TYPES + """
void f(vec *v, int n) { { vec *v = malloc(8); v->n = 1; } v->k = n; }
void g(int n) { if (n) { vec *the_vec = malloc(8); the_vec->n = 1; } the_vec->k = n; }
void h(void) { int *p = malloc(8); p[0] = 1; free(p); }
""")
    defs = {d.decl.name: d for d in ast.ext if hasattr(d, "body")}
    allocators = owned.allocating(ast, {})
    names = owned.file_names(ast)
    assert owned.owned_locals(defs["f"], allocators, names) == frozenset()
    assert owned.owned_locals(defs["g"], allocators, names) == frozenset()
    assert owned.owned_locals(defs["h"], allocators, names) == {"p"}
