"""File-scope declarations nothing kept names, blanked before parsing (frontend/prune.py)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis import unit
from mpicc_wrap.frontend.prune import prune
from mpicc_wrap.model import FunctionSummary

# Roots: kept whatever names them.
ROOTS = """int knr(a) int a; { return used(a); }
int arr[3] = {1, 2, 3};
int g(void) { return 1e5 + used(2) + arr[0]; }
#pragma weak pw
void pw(void);
static void (*table[])(void) = { handler };
_Static_assert(1, "one");
"""


def blanked(src: str, out: str) -> list[str]:
    """The lines of ``src`` that ``out`` holds as blanks (non-blank lines only)."""
    pairs = zip(src.splitlines(), out.splitlines(), strict=True)
    return [a for a, b in pairs if a.strip() and not b.strip()]


def test_unreferenced_declarations_become_blanks_of_the_same_shape() -> None:
    src = ("extern void gone(int a,\n  char *b) __attribute__((noreturn));\n"
           '__attribute__((visibility("default"))) int gone2(void);\n'
           "typedef int T;\nint (*fp)(int);\nstruct s { int a; int (*g)(void); } x;\n"
           "void twice(void); void twice(void);\nint a1(void), a2(void);\n"
           "enum colour { RED, BLUE };\nextern const char *const names[];\n"
           + ROOTS + "static int later(void);\n")
    out, names = prune(src)
    assert len(out) == len(src) and out.count("\n") == src.count("\n")
    assert names == {"gone", "gone2", "T", "fp", "x", "twice", "a1", "a2", "RED", "BLUE",
                     "names", "later"}
    assert blanked(src, out) == [line for line in src.splitlines()
                                 if line.strip() and line not in ROOTS.splitlines()]
    assert out.count(ROOTS) == 1


def test_roots_and_what_they_name_are_kept() -> None:
    """Function definitions, initialised objects (their initialisers take addresses),
    pragmas, K&R definitions and static assertions are kept, and so is every declaration
    of a name they spell: ``used``'s prototype, ``handler``'s."""
    src = "int used(int);\nvoid handler(void);\n" + ROOTS
    assert prune(src) == (src, frozenset())


@pytest.mark.parametrize("decl, use", [
    ("typedef struct node { struct node *next; } node_t;",
     "int f(node_t *head) { return head != 0; }"),
    ("struct tag { int a; };", "int f(struct tag *t) { return t->a; }"),
    ("enum { LIMIT = 4 };", "int f(void) { return LIMIT; }"),
    ("typedef int (*cb_t)(int);", "int f(cb_t c) { return c(1); }"),
    ("extern int counter;", "int f(void) { return counter; }"),
    ("void (*hook)(void);", "void f(void) { hook(); }"),
])
def test_a_declaration_a_kept_one_names_is_kept(decl: str, use: str) -> None:
    src = f"{decl}\n{use}\n"
    assert prune(src) == (src, frozenset())


def test_reachability_is_transitive_and_stops_at_unnamed_declarations() -> None:
    """``f`` names ``B``, whose typedef names ``struct a``, whose body names ``C``'s
    enumerator: all kept; ``D`` and its tag are named by nothing kept."""
    src = ("enum { C_ONE };\nstruct a { int v[C_ONE + 1]; };\ntypedef struct a B;\n"
           "typedef struct d { B *b; } D;\nint f(B *b) { return b->v[0]; }\n")
    out, names = prune(src)
    assert blanked(src, out) == ["typedef struct d { B *b; } D;"]
    assert names == {"D"}


def test_unbalanced_text_is_kept_from_where_it_starts() -> None:
    src = "int f(void) { return 0; }\nint h(void);\n}\nint z(void);\n"
    out, names = prune(src)
    assert names == {"h"} and blanked(src, out) == ["int h(void);"]


def test_a_name_shared_with_a_field_or_variable_keeps_the_typedef() -> None:
    """Words are compared without C's name spaces: a field called ``plan`` keeps the
    typedef ``plan``, so a parse that needs it never misses it."""
    src = ("typedef struct p_s plan;\nstruct w { int plan; };\n"
           "int f(struct w *x) { return x->plan; }\n")
    assert prune(src) == (src, frozenset())


def test_the_parsed_tu_lists_the_pruned_names_and_keeps_the_rest() -> None:
    tu = parse_source("#include <mpi.h>\nint lib_used(void);\nint lib_other(int);\n"
                      "typedef struct { int n; } lib_pair;\nenum lib_kind { LIB_A };\n"
                      "int main(void) { return lib_used(); }\n")
    assert tu.pruned == {"lib_other", "lib_pair", "LIB_A"}
    names = {getattr(d, "name", None) for d in tu.ast.ext}
    assert "lib_used" in names and not {"lib_other", "lib_pair"} & names


def test_a_callee_communicator_named_by_a_pruned_function_stays_in_scope() -> None:
    """A summary's ``get_comm()`` means the same function in this file although the
    file never names it: the run-time check reads that communicator."""
    tu = parse_source("#include <mpi.h>\nMPI_Comm get_comm(void);\nvoid helper(void);\n"
                      "void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                      " if (r == 0) helper(); }\n")
    assert tu.pruned == {"get_comm"}
    helper = FunctionSummary("helper", "h.c", 3, True, ["MPI_Barrier@get_comm()"], True)
    (plan,) = unit.analyse(tu, {"helper": helper}).plans
    assert [s.comm for s in plan.sites] == ["get_comm()"]


def test_a_table_of_function_pointers_keeps_its_functions_callable_through_pointers() -> None:
    """An initialiser takes addresses (a root even when nothing here names the table):
    a call through a pointer in this file may reach ``coll``, so it is a collective
    call site on a rank-dependent path."""
    tu = parse_source("#include <mpi.h>\nvoid coll(void) { MPI_Barrier(MPI_COMM_WORLD); }\n"
                      "void (*ops[])(void) = { coll };\n"
                      "void run(void (*op)(void)) { int r;"
                      " MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r) op(); }\n")
    assert "ops" not in tu.pruned
    assert unit.analyse(tu, {}).findings


def test_grouped_declarators_declare_the_name_inside_the_parentheses() -> None:
    """``T (*name)(...)``: the name is inside; ``T`` is a type the declaration uses
    (SUNDIALS' ``typedef ARKRhsFn (*ARKTimestepGetImplicitRHSFn)(void *)``)."""
    src = ("typedef int R;\ntypedef R (*get_fn)(void *);\n"
           "void (*signal_like(int, void (*)(int)))(int);\n"
           "struct mem { get_fn step; };\nint f(struct mem *m) { return m->step(0); }\n")
    out, names = prune(src)
    assert blanked(src, out) == ["void (*signal_like(int, void (*)(int)))(int);"]
    assert names == {"signal_like"}


def test_a_text_the_prune_breaks_is_parsed_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prune only saves time: should it blank a typedef the code needs, the TU is
    parsed again unpruned instead of being skipped."""
    from mpicc_wrap.frontend import parser
    from mpicc_wrap.frontend import prune as module

    def blank_the_typedef(text: str) -> tuple[str, frozenset[str]]:
        typedef = "typedef int Gnum;"
        return text.replace(typedef, " " * len(typedef)), frozenset({"Gnum"})

    monkeypatch.setattr(module, "prune", blank_the_typedef)
    before = parser.COUNTERS["fast"]
    tu = parse_source("#include <mpi.h>\ntypedef int Gnum;\nint f(Gnum g) { return g; }\n")
    assert parser.COUNTERS["fast"] == before + 2 and tu.pruned == frozenset()
    assert [getattr(d, "name", None) or d.decl.name for d in tu.ast.ext] == ["Gnum", "f"]


def test_static_functions_nothing_kept_calls_are_blanked() -> None:
    """A static definition is kept only when kept code names it (``used`` through
    ``chain``, ``handler`` through a table); unnamed ones, a recursive one naming only
    itself, one whose ``static`` follows an attribute, and the prototype only they
    name go.  Functions with external linkage (``static`` inside an array parameter
    is not a storage class), K&R ones and those marked to run or stay unnamed are
    roots, and so is one a pragma precedes (in the pragma's item: the pragma has no
    ``;``); an alias's target is kept."""
    src = ("static inline int helper(int x) { return x + 1; }\n"
           "static int rec(int n) { return n ? rec(n - 1) : only_rec(); }\n"
           "int only_rec(void);\n"
           "static int used(int y) { return y; }\n"
           "static int chain(int n) { return used(n); }\n"
           "static void handler(void) { }\n"
           "static void (*const table[])(void) = { handler };\n"
           "static void __attribute__((constructor)) setup(void) { }\n"
           "static void __attribute__((used)) kept(void) { }\n"
           "static int knr(a) int a; { return a; }\n"
           "inline int plain_inline(void) { return 0; }\n"
           "int array_param(int a[static 4]) { return a[0]; }\n"
           "__attribute__((always_inline)) static inline int late(void) { return 0; }\n"
           "#pragma weak pw2\nstatic void glued(void) { }\nvoid pw2(void);\n"
           "static void impl(void) { }\n"
           "void api(void) __attribute__((alias(\"impl\")));\n"
           "int main(void) { return chain(1); }\n")
    out, names = prune(src)
    assert names == {"helper", "rec", "only_rec", "late", "api"}
    lines = src.splitlines()
    late, api = (next(x for x in lines if name in x) for name in ("late", "api"))
    assert blanked(src, out) == [*lines[:3], late, api]


def test_a_header_function_the_file_never_calls_is_neither_parsed_nor_warned() -> None:
    """A header's static inline function with a rank-dependent collective: warned in
    the TU that calls it, absent from one that does not (it never runs there)."""
    header = ("static inline void sync_if(int r) { if (r == 0)"
              " MPI_Barrier(MPI_COMM_WORLD); }\n")
    caller = ("void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); sync_if(r); }\n")
    other = "int g(int x) { return x + 1; }\n"
    with_call = parse_source("#include <mpi.h>\n" + header + caller)
    without = parse_source("#include <mpi.h>\n" + header + other)
    assert unit.analyse(with_call, {}).findings
    assert without.pruned == {"sync_if"} and not unit.analyse(without, {}).findings
