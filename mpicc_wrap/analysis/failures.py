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
  0 (``MPI_SUCCESS`` after preprocessing), not counting writes inside failure arms
  (Scotch's ``cheklocval = 1`` after a failed allocation), and whose address it never
  takes; it is true (non-zero) only on failure;
* a fresh pointer: the result of ``malloc`` and its kin, an assignment of one, or a
  local that the function writes only with such results (never NULL, never through its
  address); it is false (NULL) only on failure.

Beyond the MPI library and the C allocators, the TU's own functions and other TUs'
(through their summaries: ``status_code``, ``fresh_result``) are recognised the same
way, to a fixed point over the TU:

* a *status function* returns 0 in a run without failures: every ``return`` outside a
  failure arm returns 0, an error code, or a local written (outside failure arms) only
  with those.  Scotch's ``dgraphHaloSync`` sets ``o = 1`` only after an MPI call
  failed and returns ``o``; its callers' ``if (dgraphHaloSync(...) != 0) return 1;``
  is then a failure test, like ``rc != MPI_SUCCESS``;
* an *allocating function* returns NULL only after a failure: every ``return``
  outside a failure arm returns a fresh pointer (Scotch's ``memAllocGroup``, which
  returns the block ``malloc`` gave, or NULL when it gave none).  A function the TU
  only declares, with no summary (a library, or a file built without mpicc-wrap:
  Scotch builds ``common_memory.c`` into its sequential library), is taken as one when
  its prototype returns a pointer and its name says it allocates (``alloc`` in any
  case, but not ``realloc``/``dealloc``: ``memAllocGroup``, ``H5MM_malloc``,
  ``sc_malloc``): an assumption, stated here because nothing checks it.

A run without failures is also one in which the program reports no error: an *error
arm*, an arm that calls an error reporter (a function with ``error`` in its name:
Scotch's ``SCOTCH_errorPrint``, hypre's ``hypre_error_w_msg``, PETSc's ``PetscError``)
and then returns a non-zero constant, returns nothing (from a function that returns
nothing, whose only way to fail is the state its reporter sets: hypre's Euclid, whose
``SET_V_ERROR`` is ``{ setError_dh(msg, ...); return; }`` and whose ``CHECK_V_ERROR``
after each call is ``if (errFlag_dh) { setError_dh("", ...); return; }``), returns a
variable that is neither a parameter nor a local of the function (the error state the
reporter keeps: hypre's ``{ hypre_error_w_msg(...); return hypre_error_flag; }``,
whose flag is the global ``hypre__global_error``) or jumps (to the cleanup of an
error path: hdf5's ``HGOTO_ERROR``), or does nothing but set flags to non-zero
constants (``{ errorPrint ("out of memory"); cheklocval = 1; }``, an error a later
reduction or test acts on), is a failure arm whatever its test. Scotch's
``dgraphBuild3`` checks the labels it received from its neighbours and, on a
duplicate, reports it and returns 1; without this the test differed between processes,
``dgraphBuild3`` "returned the rank", and every caller's ``if (dgraphBuild3(...) != 0)
return 1;`` made all it wrote afterwards per-process, across files (the summaries of
``dgraphInduceList`` and its kin). An assumption: a root that cannot open its input
and says so through such a reporter before returning is not warned by default
(``-Wmpi-error-divergence`` reports it); ``fprintf(stderr, ...)`` is no reporter, nor
is a function with ``warn`` in its name (Scotch's ``errorPrintW`` reports a warning,
and the run goes on). The flag form is Scotch's: ``dgraphBand2Coll`` is passed an
array its caller allocated, and on ``(vnumgsttax == NULL) || (memAllocGroup (...) ==
NULL)`` reports and sets ``reduglbtab[0] = 1``, then returns 1 when it is set.

A call passed its own source location reports too, whatever its name: a string equal
to its file and an integer equal to the line it is written on (the ``__FILE__,
__LINE__`` of an error macro). hdf5's ``HGOTO_ERROR(maj, min, FAIL, msg)`` is ``{
H5E_printf_stack(NULL, "H5Dmpio.c", __func__, 1364, ...); err_occurred = TRUE;
err_occurred = err_occurred; ret_value = FAIL; goto done; }`` (``x = x`` changes
nothing and may stand among the flags). So is an arm that stores a message saying
something failed (or any message, in a variable whose name says so: ``failure_mssg``,
``errmsg``), then leaves or besides only sets flags to constants, zero too, an error
arm: hdf5's tests keep ``pass = TRUE`` and on each failed step run ``{ pass = FALSE;
failure_mssg = "H5Fcreate() failed."; }``, and test ``if (pass)`` before the next
step.

An arm that holds a label (``if (rc) { fail: cleanup(); return rc; }``, the target of
a ``goto fail`` elsewhere) or a ``case`` is reached without its test, so it is walked
and kept in the CFG like any other arm.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence, Set
from typing import NamedTuple

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_constant
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor
from mpicc_wrap.frontend.prototypes import is_function_type, param_names
from mpicc_wrap.model import FunctionSummary

__all__ = ["ALLOCATORS", "NO_ERROR_CODE", "Arms", "Facts", "analyse", "declared_allocators",
           "failure_tests", "says_it_allocates"]

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


class Facts(NamedTuple):
    """The failure facts of a TU: its failure tests, and which of its functions are
    status functions and allocating functions (module docstring)."""

    tests: dict[int, Arms]
    status: frozenset[str]
    fresh: frozenset[str]


def failure_tests(ast: c_ast.FileAST,
                  external: Mapping[str, FunctionSummary] | None = None) -> dict[int, Arms]:
    """{id(test): arms} for every test of an ``if`` or ``?:`` of the TU that says
    something of a failure: ``arms[0]``, its true outcome happens only after a failure
    (the then-arm is a failure arm); ``arms[1]``, likewise its false outcome (the
    else-arm).  libsc checks each MPI call as ``(rc == 0) ? (void) 0 : sc_abort(...)``."""
    return analyse(ast, external).tests


def analyse(ast: c_ast.FileAST,
            external: Mapping[str, FunctionSummary] | None = None,
            linemap: Sequence[tuple[str, int]] = ()) -> Facts:
    """The TU's failure facts; ``external``: other TUs' summaries (their status and
    allocating functions); ``linemap``: the user's (file, line) of each preprocessed
    line (``ParsedTU.linemap``; empty: no call is taken as passing its location).
    Functions join the two sets until neither grows (each
    round adds a function or stops: at most as many rounds as functions)."""
    defs = [d for d in ast.ext if isinstance(d, c_ast.FuncDef)]
    defined = frozenset(d.decl.name for d in defs)
    ext = {n: s for n, s in (external or {}).items() if n not in defined}
    status = {n for n, s in ext.items() if s.status_code}
    fresh = {n for n, s in ext.items() if s.fresh_result} | {
        n for n in declared_allocators(ast) if n not in defined and n not in ext}
    bodies = [_Writes.of(d) for d in defs]
    while True:
        known = _Known(defined, frozenset(status), frozenset(fresh), linemap)
        found: dict[int, Arms] = {}
        grew = False
        for d, body in zip(defs, bodies, strict=True):
            scan = _function(d, body, known, found)
            name = d.decl.name
            if name not in status and _returns_status(d, scan):
                status.add(name)
                grew = True
            if name not in fresh and _returns_fresh(d, scan):
                fresh.add(name)
                grew = True
        if not grew:
            return Facts(found, frozenset(status & defined), frozenset(fresh & defined))


_ALLOC_NAME = re.compile(r"alloc", re.IGNORECASE)
_NOT_ALLOC_NAME = re.compile(r"realloc|dealloc|unalloc|alloca$", re.IGNORECASE)


def says_it_allocates(name: str) -> bool:
    """The function's name says it allocates (module docstring)."""
    return bool(_ALLOC_NAME.search(name)) and not _NOT_ALLOC_NAME.search(name)


def declared_allocators(ast: c_ast.FileAST) -> set[str]:
    """Functions declared at file scope whose prototype returns a pointer and whose
    name says they allocate (module docstring)."""
    return {d.name for d in ast.ext
            if isinstance(d, c_ast.Decl)
            and is_function_type(d.type)
            and isinstance(d.type.type, c_ast.PtrDecl) and d.name
            and says_it_allocates(d.name)}


class _Known(NamedTuple):
    defined: frozenset[str]  # the TU's functions (an MPI_ name defined here is not MPI)
    status: frozenset[str]  # status functions, of this TU or others
    fresh: frozenset[str]  # allocating functions, of this TU or others
    linemap: Sequence[tuple[str, int]]  # preprocessed line - 1 -> the user's (file, line)


def _function(d: c_ast.FuncDef, body: _Writes, known: _Known,
              found: dict[int, Arms]) -> _Outside:
    """Read one function's scan (``body``) until its failure tests settle (writes made
    in a failure arm do not count, which can make more locals error codes, and more
    tests failure tests); add its tests to ``found``; return the last reading."""
    arms: dict[int, Arms] = {}
    params = set(param_names(d.decl))
    while True:  # arms only grow (a test's pair only gains outcomes): this ends
        scan = body.outside(known, arms)
        codes, fresh = scan.zeros(), scan.fresh()
        names = frozenset(scan.locals | params)  # what an error arm's returned variable is not
        grown = dict(arms)
        for test, then, other in scan.tests:
            t, f = _arms(test, known, codes, fresh)
            t = t or body.reports_error(then, names, known.linemap)
            f = f or body.reports_error(other, names, known.linemap)
            old = grown.get(id(test), _NOTHING)
            pair = (old[0] or (t and not body.entered(then)),
                    old[1] or (f and not body.entered(other)))
            if pair != _NOTHING:
                grown[id(test)] = pair
        if grown == arms:
            found.update(arms)
            return scan
        arms = grown


def _returns_status(d: c_ast.FuncDef, scan: _Outside) -> bool:
    """Every return outside failure arms gives 0, an error code or a local written
    only with those (and the function returns a value that is no pointer)."""
    return not _returns_pointer(d) and _every_return(
        scan, lambda e: int_constant(e) == 0 or _is_code(e, scan.known), scan.zeros())


def _returns_fresh(d: c_ast.FuncDef, scan: _Outside) -> bool:
    """Every return outside failure arms gives a fresh pointer."""
    return _returns_pointer(d) and _every_return(
        scan, lambda e: _is_allocation(e, scan.known), scan.fresh())


def _every_return(scan: _Outside, value: Callable[[c_ast.Node], bool],
                  locals_: frozenset[str]) -> bool:
    """The function returns (outside failure arms), and every such ``return`` gives a
    value ``value`` accepts or one of the locals ``locals_``."""
    def accepted(e: c_ast.Node | None) -> bool:
        bare = _strip(e) if e is not None else None
        return e is not None and (value(e) or (
            isinstance(bare, c_ast.ID) and bare.name in locals_))

    return bool(scan.returns) and all(accepted(e) for e in scan.returns)


def _returns_pointer(d: c_ast.FuncDef) -> bool:
    return isinstance(getattr(d.decl.type, "type", None), c_ast.PtrDecl)


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


def _is_code(e: c_ast.Node, known: _Known) -> bool:
    """A call of an MPI function that returns an error code, or of a status
    function."""
    e = _strip(e)
    if not isinstance(e, c_ast.FuncCall):
        return False
    name = _name(e)
    if name in known.status:
        return True
    mpi = name[1:] if name.startswith("PMPI_") else name
    return (mpi.startswith("MPI_") and name not in known.defined
            and mpi not in NO_ERROR_CODE and not mpi.startswith(_NO_CODE_PREFIXES)
            and not mpi.endswith(_NO_CODE_SUFFIXES))


def _is_allocation(e: c_ast.Node, known: _Known) -> bool:
    e = _strip(e)
    return isinstance(e, c_ast.FuncCall) and (
        _name(e) in ALLOCATORS or _name(e) in known.fresh)


# The arms a node is in, outermost first: (id of the test, 0 for its true arm, 1 for
# its false arm) of each enclosing ``if`` and ``?:``
_Path = tuple[tuple[int, int], ...]


class _Writes(Visitor):
    """Per function, in one walk: each name's writes (the value written; None for
    ``+=``, ``++`` and the like), its non-static locals, the tests of its ``if``
    statements and ``?:`` expressions, and the values its ``return`` statements give,
    each with the arms it is in.  ``outside`` reads them for a set of failure arms:
    the function's tests settle over several readings (``_function``), and the
    TU's status functions over several rounds (``analyse``), with one walk."""

    def __init__(self) -> None:
        self.path: _Path = ()
        self.writes: list[tuple[str, c_ast.Node | None, _Path]] = []
        self.locals: list[tuple[str, _Path]] = []
        self.tests: list[tuple[c_ast.Node, c_ast.Node | None, c_ast.Node | None, _Path]] = []
        self.returns: list[tuple[c_ast.Node | None, _Path]] = []
        self._entered: dict[int, bool] = {}  # id(arm) -> entered
        self._reports: dict[tuple[int, frozenset[str]], bool] = {}  # -> reports_error

    @classmethod
    def of(cls, d: c_ast.FuncDef) -> _Writes:
        """The walk of ``d``'s body."""
        scan = cls()
        scan.visit(d.body)
        return scan

    def entered(self, arm: c_ast.Node | None) -> bool:
        """``_entered``, once per arm."""
        key = id(arm)
        if key not in self._entered:
            self._entered[key] = _entered(arm)
        return self._entered[key]

    def reports_error(self, arm: c_ast.Node | None, locals_: frozenset[str],
                      linemap: Sequence[tuple[str, int]]) -> bool:
        """``_reports_error``, once per arm and set of locals (the linemap is the
        TU's)."""
        key = (id(arm), locals_)
        if key not in self._reports:
            self._reports[key] = _reports_error(arm, locals_, linemap)
        return self._reports[key]

    def outside(self, known: _Known, arms: Mapping[int, Arms]) -> _Outside:
        """What the function does outside the failure arms of ``arms``."""
        def kept(path: _Path) -> bool:  # in no failure arm
            return not any(arms.get(test, _NOTHING)[side] for test, side in path)

        kinds: dict[str, set[str]] = {}
        for name, value, path in self.writes:
            if kept(path):
                kinds.setdefault(name, set()).add(
                    "other" if value is None else _kind(value, known))
        return _Outside(known, kinds, {n for n, path in self.locals if kept(path)},
                        [(c, t, e) for c, t, e, path in self.tests if kept(path)],
                        [e for e, path in self.returns if kept(path)])

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and "static" not in (node.storage or []):
            self.locals.append((node.name, self.path))
        if node.name and node.init is not None:
            self.writes.append((node.name, node.init, self.path))
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        target = _strip(node.lvalue)
        if isinstance(target, c_ast.ID):
            self.writes.append((target.name, node.rvalue if node.op == "=" else None,
                                self.path))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in WRITES_OPERAND and isinstance(node.expr, c_ast.ID):
            self.writes.append((node.expr.name, None, self.path))
        self.generic_visit(node)

    def visit_Return(self, node: c_ast.Return) -> None:
        self.returns.append((node.expr, self.path))
        self.generic_visit(node)

    def visit_If(self, node: c_ast.If) -> None:
        self.tests.append((node.cond, node.iftrue, node.iffalse, self.path))
        self.visit(node.cond)
        outer = self.path
        for side, arm in enumerate((node.iftrue, node.iffalse)):
            if arm is not None:  # every arm: ``outside`` drops the failure arms
                self.path = (*outer, (id(node.cond), side))
                self.visit(arm)
        self.path = outer

    visit_TernaryOp = visit_If


def _kind(value: c_ast.Node, known: _Known) -> str:
    """What ``value`` is, written to a name: an error code, an allocation ("fresh"),
    zero, or other."""
    if _is_code(value, known):
        return "code"
    if _is_allocation(value, known):
        return "fresh"
    return "zero" if int_constant(value) == 0 else "other"


class _Outside(NamedTuple):
    """A function outside its failure arms (``_Writes.outside``): what each name is
    written with (``code``: an error code, ``zero``, ``fresh``: an allocation,
    ``other``), its non-static locals, its tests and the values it returns."""

    known: _Known
    kinds: dict[str, set[str]]
    locals: set[str]
    tests: list[tuple[c_ast.Node, c_ast.Node | None, c_ast.Node | None]]
    returns: list[c_ast.Node | None]

    def zeros(self) -> frozenset[str]:
        """Locals written (outside failure arms) only with error codes and 0: 0 in a
        run without failures, so non-zero only after one."""
        return frozenset(n for n, k in self.kinds.items()
                         if n in self.locals and k <= {"code", "zero"})

    def fresh(self) -> frozenset[str]:
        """Locals written only with allocations."""
        return frozenset(n for n, k in self.kinds.items()
                         if n in self.locals and k == {"fresh"})


# A function that reports an error: Scotch's ``SCOTCH_errorPrint``, hypre's
# ``hypre_error_w_msg``, PETSc's ``PetscError`` (hdf5's ``H5E_printf_stack`` is one
# by the location it is passed: ``_passes_location``).
_REPORTER = re.compile(r"error", re.IGNORECASE)
_WARNING = re.compile(r"warn|PrintW$", re.IGNORECASE)


def _reports_error(arm: c_ast.Node | None, locals_: Set[str],
                   linemap: Sequence[tuple[str, int]]) -> bool:
    """``arm`` reports an error and leaves with a failure: it calls an error reporter
    (a function with ``error`` in its name, or one passed its own source location;
    not ``warn``) and ends in ``return`` of a
    non-zero constant, of nothing or of a variable not in ``locals_`` (the function's
    parameters and locals), or in a ``goto``, or besides reporting only sets flags to
    non-zero constants (module docstring: error arms)."""
    items = _statements(arm)
    if not items:
        return False
    last = items[-1]
    leaves = isinstance(last, c_ast.Goto) or (
        isinstance(last, c_ast.Return) and (
            last.expr is None
            or int_constant(_strip(last.expr)) not in (None, 0)
            or _names_state(last.expr, locals_)))
    rest = items[:-1] if leaves else items
    reports = [s for s in rest if _is_report(s, linemap)]
    if reports and (leaves or all(s in reports or _sets_flag(s) for s in rest)):
        return True
    messages = [s for s in rest if _states_failure(s)]
    return bool(messages) and (leaves or all(
        s in messages or _sets_flag(s, zero=True) for s in rest))


def _names_state(e: c_ast.Node, locals_: Set[str]) -> bool:
    """``e`` is a variable that is not one of ``locals_``: state outside the function."""
    bare = _strip(e)
    return isinstance(bare, c_ast.ID) and bare.name not in locals_


def _statements(arm: c_ast.Node | None) -> list[c_ast.Node]:
    """The statements of ``arm`` but empty ones, with a block that ends it opened in
    place (Euclid's ``{ hypre_sprintf(msgBuf_dh, ...); SET_V_ERROR(msgBuf_dh); }``,
    whose macro is a block of its own followed by ``;``)."""
    items: list[c_ast.Node] = [] if arm is None else [arm]
    while items and isinstance(items[-1], (c_ast.Compound, c_ast.EmptyStatement)):
        last = items.pop()
        if isinstance(last, c_ast.Compound):
            items += last.block_items or []
    return [s for s in items if not isinstance(s, c_ast.EmptyStatement)]


def _is_report(s: c_ast.Node, linemap: Sequence[tuple[str, int]]) -> bool:
    if not isinstance(s, c_ast.FuncCall) or _WARNING.search(_name(s)):
        return False
    return bool(_REPORTER.search(_name(s))) or _passes_location(s, linemap)


def _passes_location(call: c_ast.FuncCall, linemap: Sequence[tuple[str, int]]) -> bool:
    """``call`` is passed the file and the line it is written on: a string equal to
    its file and an integer equal to its line (``__FILE__, __LINE__``)."""
    line = getattr(call.coord, "line", 0)
    if not call.args or not 1 <= line <= len(linemap):
        return False
    file, user_line = linemap[line - 1]
    consts = [a for a in call.args.exprs if isinstance(a, c_ast.Constant)]
    return (any(a.type == "string" and a.value[1:-1] == file for a in consts)
            and any(int_constant(a) == user_line for a in consts if a.type == "int"))


def _sets_flag(s: c_ast.Node, zero: bool = False) -> bool:
    """``x = K`` or ``a[i] = K`` with ``K`` a non-zero integer constant (or any, with
    ``zero``), or ``x = x`` (hdf5's error macros follow ``err_occurred = TRUE;`` with
    ``err_occurred = err_occurred;``, to quiet a compiler's unused-variable
    warning)."""
    if not isinstance(s, c_ast.Assignment) or s.op != "=":
        return False
    value = _strip(s.rvalue)
    if isinstance(s.lvalue, c_ast.ID) and isinstance(value, c_ast.ID):
        return value.name == s.lvalue.name
    return (isinstance(s.lvalue, (c_ast.ID, c_ast.ArrayRef))
            and int_constant(value) not in ((None,) if zero else (None, 0)))


# A message that says something failed (hdf5's tests: failure_mssg = "H5Fcreate()
# failed.\n"): "fail", "failed", "failure" or "error" as a word; or any message
# stored in a variable so named (failure_mssg = "unexpectedly large file size.").
_FAILURE_MESSAGE = re.compile(r"\bfail(ed|ure)?\b|\berror\b", re.IGNORECASE)
_FAILURE_NAME = re.compile(r"fail|err", re.IGNORECASE)


def _states_failure(s: c_ast.Node) -> bool:
    """``s`` stores a string that says something failed, or stores a string in a
    variable whose name says so: ``msg = "... failed."``, ``failure_mssg = "..."``."""
    if not isinstance(s, c_ast.Assignment) or s.op != "=":
        return False
    value, target = _strip(s.rvalue), _strip(s.lvalue)
    return (isinstance(value, c_ast.Constant) and value.type == "string"
            and (bool(_FAILURE_MESSAGE.search(value.value))
                 or isinstance(target, c_ast.ID) and bool(_FAILURE_NAME.search(target.name))))


def _arms(e: c_ast.Node, known: _Known, codes: frozenset[str],
          fresh: frozenset[str]) -> Arms:
    """What the outcomes of the test ``e`` say of a failure (module docstring)."""
    e = _strip(e)

    def arms(x: c_ast.Node) -> Arms:
        return _arms(x, known, codes, fresh)

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
    if _is_code(value, known):
        return True, False
    return (False, True) if _is_allocation(value, known) else _NOTHING
