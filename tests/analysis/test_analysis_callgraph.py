"""Call classification, noreturn declarations, pointer targets and SCCs (callgraph)."""

from __future__ import annotations

from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser

from mpicc_wrap.analysis.callgraph import CallGraph, sccs
from mpicc_wrap.model import FunctionSummary

SOURCE = """
typedef int MPI_Comm;
__attribute__((noreturn)) void die(int c);
void __attribute__((__noreturn__)) die3(void);
void die4(void) __attribute__((noreturn));
_Noreturn void die5(void);
void declared_only(int);
int printf(const char *, ...);
static void one(MPI_Comm c) { (void)c; }
static void two(MPI_Comm c, int k) { (void)c; (void)k; }
static void var(int n, ...) { (void)n; }
void (*table[2])(MPI_Comm) = { one, 0 };
void user(void (*fp)(MPI_Comm), MPI_Comm c) {
  fp(c); one(c); declared_only(1); printf("x"); MPI_Barrier(c); undeclared(); (*fp)(c);
  var(1, 2); (void)two;
}
"""


def graph() -> tuple[CallGraph, list[c_ast.FuncCall]]:
    ast = GnuCParser().parse(SOURCE)
    ext = {"declared_only": FunctionSummary("declared_only", "b.c", 1, False, [], True)}
    g = CallGraph(ast, ext, frozenset({"printf"}))
    calls: list[c_ast.FuncCall] = []

    class V(c_ast.NodeVisitor):
        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            calls.append(node)
            self.generic_visit(node)

    V().visit(g.defs["user"])
    return g, calls


def test_noreturn_declarations() -> None:
    g, _ = graph()
    assert g.declared_noreturn == {"die", "die3", "die4", "die5"}


def test_call_classification() -> None:
    g, calls = graph()
    kinds = [(g.classify(c, "user").kind, g.classify(c, "user").name) for c in calls]
    assert kinds == [("pointer", "fp"), ("local", "one"), ("external", "declared_only"),
                     ("other", "printf"), ("mpi", "MPI_Barrier"), ("unknown", "undeclared"),
                     ("pointer", ""), ("local", "var")]


def test_a_local_variable_elsewhere_does_not_make_a_call_indirect() -> None:
    g, calls = graph()
    shadow = next(c for c in calls if c.name.name == "undeclared")
    g.locals["other"] = {"undeclared"}
    assert g.classify(shadow, "user").kind == "unknown"
    assert g.classify(shadow, "other").kind == "pointer"


def test_pointer_targets_are_address_taken_functions_of_matching_arity() -> None:
    g, _ = graph()
    assert g.address_taken == {"one", "two"}
    assert g.pointer_targets(1) == ["one"] and g.pointer_targets(2) == ["two"]


def test_sccs_put_callees_first_and_group_recursion() -> None:
    comps = sccs({"main": {"a"}, "a": {"b"}, "b": {"a", "c"}, "c": set()})
    assert comps == [["c"], ["a", "b"], ["main"]]
