"""Unreferenced prototypes blanked before parsing (frontend/prune.py)."""

from __future__ import annotations

from analysis_helpers import parse_source

from mpicc_wrap.analysis import unit
from mpicc_wrap.frontend.prune import prune
from mpicc_wrap.model import FunctionSummary

KEPT = """typedef int T;
int used(int);
int (*fp)(int);
struct s { int a; int (*g)(void); } x;
int knr(a) int a; { return used(a); }
int arr[3] = {1, 2, 3};
void twice(void); void twice(void);
int g(void) { return 1e5 + used(2); }
#pragma weak pw
void pw(void);
int a1(void), a2(void);
"""


def test_unreferenced_prototypes_become_blanks_of_the_same_shape() -> None:
    src = ("extern void gone(int a,\n  char *b) __attribute__((noreturn));\n"
           '__attribute__((visibility("default"))) int gone2(void);\n' + KEPT
           + "static int later(void);\n")
    out, names = prune(src)
    assert names == {"gone", "gone2", "later"}
    assert len(out) == len(src) and out.count("\n") == src.count("\n")
    assert out.splitlines()[:3] == [" " * len(line) for line in src.splitlines()[:3]]
    assert out.endswith(KEPT + " " * len("static int later(void);") + "\n")


def test_anything_named_elsewhere_or_not_understood_is_kept() -> None:
    """A call, a second declaration, a pragma, a function pointer, a K&R definition
    (its parameter declarations end in ';' before the body), a declarator list."""
    assert prune(KEPT) == (KEPT, frozenset())
    assert prune("int f(void) { return 0; }\nint h(void);\n}\nint z(void);\n")[1] == {"h"}


def test_the_parsed_tu_lists_the_pruned_names_and_keeps_the_rest() -> None:
    tu = parse_source("#include <mpi.h>\nint lib_used(void);\nint lib_other(int);\n"
                      "int main(void) { return lib_used(); }\n")
    assert tu.pruned == {"lib_other"}
    names = {getattr(d, "name", None) for d in tu.ast.ext}
    assert "lib_used" in names and "lib_other" not in names


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
