"""Sign tests that every process answers alike: ``rank < 0`` after MPI_Comm_rank.

SUNDIALS checks ``rank = SubvectorMPIRank(comm); if (rank < 0) return NULL;``
(benchmarks/realcode-fp/06), where the helper returns the rank, or -1 when
``MPI_Comm_rank`` fails.  A rank is never negative, and the failure branch is decided by
an MPI return code, which the analysis already takes as uniform (under the default
``MPI_ERRORS_ARE_FATAL`` a failing call never returns), so ``rank < 0`` has one value on
every process; without this the rest of the function, and every struct field stored
there, looked per-process.

* ``nonnegative(f)``: locals of ``f`` whose every write is ``MPI_Comm_rank(c, &v)``,
  ``MPI_Comm_size(c, &v)``, a non-negative integer constant, or a call of a
  ``rank_or_code`` function of the TU; their address is taken nowhere else and they
  are never incremented (``--`` would make ``0 - 1``).
* ``rank_or_code(g)``: every ``return`` of ``g`` yields a ``nonnegative(g)`` local or a
  non-negative constant, or yields any constant inside ``if`` statements whose
  conditions only compare MPI return codes (``MPI_X(...) != MPI_SUCCESS``, or
  ``err != MPI_SUCCESS`` for a local ``err`` written only with MPI calls' results).

``v < 0``, ``v >= 0``, ``0 > v`` and ``0 <= v`` for such a ``v`` (or such a call) are
then single-valued (``Expressions.visit_BinaryOp``).
"""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.literals import int_constant
from mpicc_wrap.analysis.rankdep.locations import FunctionFacts, callee
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor

__all__ = ["Signs"]

_OUTPUTS = {"MPI_Comm_rank", "PMPI_Comm_rank", "MPI_Comm_size", "PMPI_Comm_size"}
_SIGN_OPS = {("<", "right"), (">=", "right"), (">", "left"), ("<=", "left")}


def _mpi_name(e: c_ast.Node) -> bool:
    """An MPI constant left as a name (Open MPI's MPI_SUCCESS is an enumerator; the
    standard reserves the MPI_ prefix, so no program variable carries it)."""
    return isinstance(e, c_ast.ID) and e.name.startswith("MPI_")


def _is_mpi_call(e: c_ast.Node | None) -> bool:
    return isinstance(e, c_ast.FuncCall) and catalogue.lookup(callee(e) or "") is not None


def _mpi_code_test(cond: c_ast.Node, codes: set[str]) -> bool:
    """A condition made of MPI return codes (a call, or a local ``codes`` holds: every
    write to it is an MPI call's result) and constants only."""
    if _is_mpi_call(cond) or (isinstance(cond, c_ast.ID) and cond.name in codes):
        return True
    if isinstance(cond, c_ast.BinaryOp):
        return all(_mpi_code_test(p, codes) or int_constant(p) is not None or _mpi_name(p)
                   for p in (cond.left, cond.right)) and (
            _mpi_code_test(cond.left, codes) or _mpi_code_test(cond.right, codes))
    if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
        return _mpi_code_test(cond.expr, codes)
    return False


class _Scan(Visitor):
    """Writes of each local and the returns (with their enclosing conditions)."""

    def __init__(self) -> None:
        self.writes: dict[str, list[c_ast.Node | None]] = {}  # None: not a known shape
        self.returns: list[tuple[c_ast.Node | None, list[c_ast.Node]]] = []
        self.outputs: set[str] = set()  # written as an MPI call's output argument
        self._conds: list[c_ast.Node] = []

    def _write(self, name: str, value: c_ast.Node | None) -> None:
        self.writes.setdefault(name, []).append(value)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and node.init is not None:
            self._write(node.name, node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(node.lvalue, c_ast.ID):
            self._write(node.lvalue.name, node.rvalue if node.op == "=" else None)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in WRITES_OPERAND and isinstance(node.expr, c_ast.ID):
            self._write(node.expr.name, None)
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        args = node.args.exprs if node.args is not None else []
        out = args[1] if len(args) == 2 else None
        if (callee(node) in _OUTPUTS and isinstance(out, c_ast.UnaryOp) and out.op == "&"
                and isinstance(out.expr, c_ast.ID)):
            self._write(out.expr.name, node)
            self.outputs.add(out.expr.name)  # a value MPI stores, not a return code
            self.visit(args[0])
            return
        self.generic_visit(node)

    def visit_If(self, node: c_ast.If) -> None:
        self.visit(node.cond)
        self._conds.append(node.cond)
        for arm in (node.iftrue, node.iffalse):
            if arm is not None:
                self.visit(arm)
        self._conds.pop()

    def visit_Return(self, node: c_ast.Return) -> None:
        self.returns.append((node.expr, list(self._conds)))
        self.generic_visit(node)

    def _loop(self, node: c_ast.Node) -> None:
        self._conds.append(c_ast.ID("<loop>"))  # a return in a loop: not a code test
        self.generic_visit(node)
        self._conds.pop()

    visit_While = visit_DoWhile = visit_For = visit_Switch = _loop


class Signs:
    """The sign facts of one TU (module docstring)."""

    def __init__(self, funcs: dict[str, FunctionFacts]) -> None:
        self._scans = {n: _Scan() for n in funcs}
        for n, f in funcs.items():
            self._scans[n].visit(f.body)
        self._locals = {n: f.locals - set(f.params) for n, f in funcs.items()}
        self._mpi_codes = {n: {v for v, ws in self._scans[n].writes.items()
                               if v in self._locals[n] and v not in self._scans[n].outputs
                               and all(map(_is_mpi_call, ws))}
                           for n in funcs}
        self.codes: set[str] = set()
        self.nonneg: dict[str, set[str]] = {n: set() for n in funcs}
        changed = True
        while changed:  # codes and nonneg locals only grow: at most F + L rounds
            changed = False
            for n in funcs:
                found = {v for v, ws in self._scans[n].writes.items()
                         if v in self._locals[n] and all(self._good(w) for w in ws)}
                if found != self.nonneg[n]:
                    self.nonneg[n], changed = found, True
                if n not in self.codes and self._returns_code(n):
                    self.codes.add(n)
                    changed = True

    def _good(self, w: c_ast.Node | None) -> bool:
        if w is None:
            return False
        if isinstance(w, c_ast.FuncCall):
            name = callee(w)
            return name in _OUTPUTS or name in self.codes
        value = int_constant(w)
        return value is not None and value >= 0

    def _returns_code(self, n: str) -> bool:
        returns = self._scans[n].returns
        return bool(returns) and all(self._code_return(n, e, conds) for e, conds in returns)

    def _code_return(self, n: str, e: c_ast.Node | None, conds: list[c_ast.Node]) -> bool:
        if isinstance(e, c_ast.ID) and e.name in self.nonneg[n]:
            return True
        value = int_constant(e)
        if value is None:
            return False
        return value >= 0 or (bool(conds) and all(_mpi_code_test(c, self._mpi_codes[n])
                                                  for c in conds))

    def sign_test(self, func: str | None, e: c_ast.BinaryOp) -> bool:
        """True for ``v < 0`` (and its three mirrors) on a non-negative rank value."""
        for op, side in _SIGN_OPS:
            if e.op != op:
                continue
            zero, value = (e.right, e.left) if side == "right" else (e.left, e.right)
            if int_constant(zero) != 0:
                continue
            while isinstance(value, c_ast.Cast):
                value = value.expr
            if isinstance(value, c_ast.ID) and func and value.name in self.nonneg.get(func, ()):
                return True
            if isinstance(value, c_ast.FuncCall) and callee(value) in self.codes:
                return True
        return False
