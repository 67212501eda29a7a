"""Failure tests: conditions that hold only when an MPI call or an allocation failed.

A run in which nothing fails is the run a collective-ordering warning is about: there
every MPI function returns ``MPI_SUCCESS`` (MPI-4 §9.3: the default error handler of
communicators and windows, ``MPI_ERRORS_ARE_FATAL``, ends the job on any error, so
there the return is always ``MPI_SUCCESS``; only files default to
``MPI_ERRORS_RETURN``) and every allocation returns a pointer.  Under this success
assumption the test ``rc != MPI_SUCCESS`` has one value on every process (false) and
the arm it guards never runs, so what that arm writes (an error code, an error
flag) differs from nothing.  pnetcdf's header reader shows why it matters:

    if (rank == 0) { mpireturn = MPI_File_read_at(...);
                     if (mpireturn != MPI_SUCCESS) err = ncmpii_error_mpi2nc(...); }
    ... return err;                       /* per-process only if the read failed */

Every caller's ``if (err != NC_NOERR) return err;`` then made every collective after
it conditional; each such warning is real only after an I/O failure on rank 0.  The
rank-dependence analysis skips the failure arm of such a test and takes the test as
single-valued (``rankdep.RankDependence(success=True)``, the default), and the CFG
prunes that arm like a path to ``MPI_Abort`` (``cfg.build``: no process of a run
without failures takes it, so no collective there or exit there is an alternative);
a collective there is not checked at run time either (the checks follow the CFG);
``-Wmpi-error-divergence`` drops the assumption and reports those paths, tagged
(``analysis/unit.py``).  Beyond PARCOACH and the barrier-matching paper, which treat
every branch as takeable.

Recognised, each under casts, ``!``, ``&&``, ``||`` and ``__builtin_expect``:

* an error code: the result of a call of an MPI function (``MPI_*``/``PMPI_*`` other
  than those that return no error code, and not defined in this TU), an assignment
  of one, or a local that the function writes only with such results or the constant
  0 (``MPI_SUCCESS`` after preprocessing) and whose address it never takes; it is
  true (non-zero) only on failure;
* a fresh pointer: the result of ``malloc`` and its kin, an assignment of one, or a
  local that the function writes only with such results (never NULL, never through its
  address); it is false (NULL) only on failure.

An arm that holds a label (``if (rc) { fail: cleanup(); return rc; }``, the target of
a ``goto fail`` elsewhere) or a ``case`` is reached without its test, so it is walked
and kept in the CFG like any other arm.
"""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_constant
from mpicc_wrap.analysis.visitor import Visitor

__all__ = ["ALLOCATORS", "NO_ERROR_CODE", "Arms", "failure_tests"]

# MPI functions whose result is not an error code (MPI-4 §9.6 and the handle
# conversions of §19.3.4), and the tool interface (MPI_T_*, whose error classes also
# answer "no such variable" or "index past the end" in runs where nothing failed).
NO_ERROR_CODE = frozenset({
    "MPI_Wtime", "MPI_Wtick", "MPI_Aint_add", "MPI_Aint_diff",
})
_NO_CODE_PREFIXES = ("MPI_T_",)
_NO_CODE_SUFFIXES = ("_c2f", "_f2c", "_toint", "_fromint", "_c2f08", "_f082c")
# Allocators that return NULL only when the allocation failed (glibc returns a pointer
# for a size of 0 too).  Not realloc: ``realloc(p, 0)`` frees p and returns NULL.
ALLOCATORS = frozenset({
    "malloc", "calloc", "aligned_alloc", "strdup", "strndup", "valloc", "memalign",
    "pvalloc",
})

# (true => failed, false => failed): what a test's outcome says of a failure.
Arms = tuple[bool, bool]
_NOTHING: Arms = (False, False)


def failure_tests(ast: c_ast.FileAST) -> dict[int, Arms]:
    """{id(test): arms} for every test of an ``if`` or ``?:`` of the TU that says
    something of a failure: ``arms[0]``, its true outcome happens only after a failure
    (the then-arm is a failure arm); ``arms[1]``, likewise its false outcome (the
    else-arm).  libsc checks each MPI call as ``(rc == 0) ? (void) 0 : sc_abort(...)``."""
    defs = [d for d in ast.ext if isinstance(d, c_ast.FuncDef)]
    defined = frozenset(d.decl.name for d in defs)
    found: dict[int, Arms] = {}
    for d in defs:
        scan = _Writes(defined)
        scan.visit(d.body)
        codes, fresh = scan.codes(), scan.fresh()
        for test, then, other in scan.tests:
            t, f = _arms(test, defined, codes, fresh)
            arms = (t and not _entered(then), f and not _entered(other))
            if arms != _NOTHING:
                found[id(test)] = arms
    return found


def _entered(arm: c_ast.Node | None) -> bool:
    """True when a jump can enter ``arm`` without its test: it holds a label or a
    ``case``/``default`` (of a switch around the test)."""
    if arm is None:
        return False
    scan = _Labels()
    scan.visit(arm)
    return scan.found


class _Labels(Visitor):
    """Whether a subtree holds a label, or a case of a switch outside it."""

    def __init__(self) -> None:
        self.found = False
        self.switches = 0  # the cases of a switch inside the subtree are its own

    def visit_Label(self, node: c_ast.Node) -> None:
        self.found = True

    def visit_Switch(self, node: c_ast.Switch) -> None:
        self.switches += 1
        self.generic_visit(node)
        self.switches -= 1

    def visit_Case(self, node: c_ast.Node) -> None:
        self.found = self.found or self.switches == 0
        self.generic_visit(node)

    visit_Default = visit_Case


def _name(call: c_ast.FuncCall) -> str:
    return call.name.name if isinstance(call.name, c_ast.ID) else ""


def _strip(e: c_ast.Node) -> c_ast.Node:
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e


def _is_mpi_code(e: c_ast.Node, defined: frozenset[str]) -> bool:
    """A call of an MPI function that returns an error code."""
    e = _strip(e)
    if not isinstance(e, c_ast.FuncCall):
        return False
    name = _name(e)
    mpi = name[1:] if name.startswith("PMPI_") else name
    return (mpi.startswith("MPI_") and name not in defined and mpi not in NO_ERROR_CODE
            and not mpi.startswith(_NO_CODE_PREFIXES)
            and not mpi.endswith(_NO_CODE_SUFFIXES))


def _is_allocation(e: c_ast.Node) -> bool:
    e = _strip(e)
    return isinstance(e, c_ast.FuncCall) and _name(e) in ALLOCATORS


class _Writes(Visitor):
    """Per function: what each name is written with (``code``: an MPI error code,
    ``zero``, ``fresh``: an allocation, ``other``), its non-static locals, and the
    tests of its ``if`` statements and ``?:`` expressions."""

    def __init__(self, defined: frozenset[str]) -> None:
        self.defined = defined
        self.kinds: dict[str, set[str]] = {}
        self.locals: set[str] = set()
        self.tests: list[tuple[c_ast.Node, c_ast.Node | None, c_ast.Node | None]] = []

    def _kind(self, value: c_ast.Node) -> str:
        if _is_mpi_code(value, self.defined):
            return "code"
        if _is_allocation(value):
            return "fresh"
        return "zero" if int_constant(value) == 0 else "other"

    def _written(self, name: str, kind: str) -> None:
        self.kinds.setdefault(name, set()).add(kind)

    def codes(self) -> frozenset[str]:
        """Locals written with MPI error codes, and else only with 0."""
        return frozenset(n for n, k in self.kinds.items()
                         if n in self.locals and "code" in k and k <= {"code", "zero"})

    def fresh(self) -> frozenset[str]:
        """Locals written only with allocations."""
        return frozenset(n for n, k in self.kinds.items()
                         if n in self.locals and k == {"fresh"})

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and "static" not in (node.storage or []):
            self.locals.add(node.name)
        if node.name and node.init is not None:
            self._written(node.name, self._kind(node.init))
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        target = _strip(node.lvalue)
        if isinstance(target, c_ast.ID):
            self._written(target.name,
                          self._kind(node.rvalue) if node.op == "=" else "other")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("&", "++", "--", "p++", "p--") and isinstance(node.expr, c_ast.ID):
            self._written(node.expr.name, "other")
        self.generic_visit(node)

    def visit_If(self, node: c_ast.If) -> None:
        self.tests.append((node.cond, node.iftrue, node.iffalse))
        self.generic_visit(node)

    visit_TernaryOp = visit_If


def _arms(e: c_ast.Node, defined: frozenset[str], codes: frozenset[str],
          fresh: frozenset[str]) -> Arms:
    """What the outcomes of the test ``e`` say of a failure (module docstring)."""
    e = _strip(e)

    def arms(x: c_ast.Node) -> Arms:
        return _arms(x, defined, codes, fresh)

    if isinstance(e, c_ast.UnaryOp) and e.op == "!":
        t, f = arms(e.expr)
        return f, t
    if isinstance(e, c_ast.FuncCall) and _name(e) == "__builtin_expect" and e.args:
        return arms(e.args.exprs[0])
    if isinstance(e, c_ast.BinaryOp) and e.op in ("&&", "||"):
        (lt, lf), (rt, rf) = arms(e.left), arms(e.right)
        if e.op == "&&":
            return lt or rt, lf and rf
        return lt and rt, lf or rf
    if isinstance(e, c_ast.BinaryOp) and e.op in ("!=", "=="):
        for x, y in ((e.left, e.right), (e.right, e.left)):
            if int_constant(y) == 0:
                t, f = arms(x)
                return (t, f) if e.op == "!=" else (f, t)
        return _NOTHING
    if isinstance(e, c_ast.Assignment) and e.op == "=":
        value = e.rvalue
    elif isinstance(e, c_ast.ID):
        if e.name in codes:
            return True, False
        return (False, True) if e.name in fresh else _NOTHING
    else:
        value = e
    if _is_mpi_code(value, defined):
        return True, False
    return (False, True) if _is_allocation(value) else _NOTHING
