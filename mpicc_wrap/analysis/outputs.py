"""Which pointer parameters of a function return a collective's shared output.

``int allreduce_max(long *loc, long *glb, int n, MPI_Comm comm) { return
MPI_Allreduce(loc, glb, n, MPI_LONG, MPI_MAX, comm); }`` leaves ``*glb`` equal on every
rank.  Inside the TU the rank-dependence solver sees that through the call; a caller in
another TU sees only the summary, and an unknown call writes its per-process inputs into
every pointer argument -- Scotch's ``dgraphAllreduceMaxSum`` made 39 warnings that way
(benchmarks/realcode-fp/08).  ``FunctionSummary.shared_outputs`` lists the parameters
for which this holds; the solver then treats the argument like an MPI shared output.

Rule (conservative): parameter ``p`` is a shared output when

* ``p`` itself (casts aside) is a shared-output argument of an MPI call in the body,
  or every use of ``p`` is ``*p = x`` (casts aside) with ``x`` a plain local that is
  itself only the shared output of MPI calls (``&x``) and the source of such copies
  (hypre's ``hypre_MPI_Comm_size``: ``MPI_Comm_size(comm, &mpi_size); *size =
  (HYPRE_Int) mpi_size;``, a copy that converts the type);
* ``p`` occurs nowhere else in the body (nothing else writes through it or lets it
  escape); and
* no condition of the function may differ between processes, so every rank that
  returns from the call executed the collective alike.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.rankdep.locations import uncast
from mpicc_wrap.analysis.visitor import Visitor

__all__ = ["wrapper_facts"]

_CONDITIONAL = (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.For, c_ast.TernaryOp)


class _Scan(Visitor):
    """Uses of every name, the shared-output uses, and the conditions of a body."""

    def __init__(self) -> None:
        self.uses: dict[str, int] = {}
        self.shared: dict[str, int] = {}
        self.addressed: dict[str, int] = {}  # ``&x`` as a shared-output argument
        self.copies: list[tuple[str, str]] = []  # ``*p = x``: (p, x)
        self.locals: dict[str, bool] = {}  # plain local variables: initialized?
        self.conditions: list[c_ast.Node] = []
        self.returns: list[c_ast.Node | None] = []

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and isinstance(node.type, c_ast.TypeDecl) \
                and not {"static", "extern"} & set(node.storage or []):
            plain = node.init is None or _code(node.init)
            self.locals[node.name] = plain and node.name not in self.locals
        self.generic_visit(node)

    def visit_Return(self, node: c_ast.Return) -> None:
        self.returns.append(node.expr)
        self.generic_visit(node)

    def visit_ID(self, node: c_ast.ID) -> None:
        self.uses[node.name] = self.uses.get(node.name, 0) + 1

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        target, value = node.lvalue, uncast(node.rvalue)
        if node.op == "=" and isinstance(target, c_ast.UnaryOp) and target.op == "*" \
                and isinstance(pointer := uncast(target.expr), c_ast.ID) \
                and isinstance(value, c_ast.ID):
            self.copies.append((pointer.name, value.name))
        self.generic_visit(node)

    def copied_output(self, p: str) -> bool:
        """Every use of ``p`` is ``*p = x`` with ``x`` a plain local that only the
        shared outputs of MPI calls write and that nothing else reads (module
        docstring)."""
        sources = [x for q, x in self.copies if q == p]
        if not sources or len(sources) != self.uses.get(p, 0):
            return False
        return all(self._collective_local(x, sum(1 for _, y in self.copies if y == x))
                   for x in set(sources))

    def _collective_local(self, x: str, reads: int) -> bool:
        """``x`` is a plain local that only collectives write (``&x`` as their shared
        output) and that is read ``reads`` times besides."""
        return self.locals.get(x, False) and self.addressed.get(x, 0) > 0 \
            and self.uses.get(x, 0) == self.addressed[x] + reads

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        entry = catalogue.lookup(name) if name else None
        args = node.args.exprs if node.args is not None else []
        for i in entry.shared_outputs if entry else ():
            arg = uncast(args[i]) if i < len(args) else None
            if isinstance(arg, c_ast.ID):
                self.shared[arg.name] = self.shared.get(arg.name, 0) + 1
            elif isinstance(arg, c_ast.UnaryOp) and arg.op == "&" \
                    and isinstance(arg.expr, c_ast.ID):
                self.addressed[arg.expr.name] = self.addressed.get(arg.expr.name, 0) + 1
        self.generic_visit(node)

    def collective_result(self, e: c_ast.Node) -> bool:
        """``e`` (casts aside) is a plain local that only collectives write (``&x`` as
        their shared output) and nothing else reads but ``return x`` (p4est's
        ``p4est_comm_sync_flag``: ``MPI_Allreduce(&l, &g, ...); return (int) g;``)."""
        e = uncast(e)
        if not isinstance(e, c_ast.ID):
            return False
        returned = sum(1 for r in self.returns if r is not None
                       and isinstance(u := uncast(r), c_ast.ID) and u.name == e.name)
        return self._collective_local(e.name, returned)

    def generic_visit(self, node: c_ast.Node) -> None:
        if isinstance(node, _CONDITIONAL) and node.cond is not None:
            self.conditions.append(node.cond)
        elif isinstance(node, c_ast.Switch):
            self.conditions.append(node.cond)
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            self.conditions.append(node.left)
        for child in node:
            self.visit(child)


def wrapper_facts(func: c_ast.FuncDef, params: list[str],
                  multi_valued: Callable[[c_ast.Node], bool]) -> tuple[list[int], bool]:
    """(``shared_outputs``, ``uniform_return``) of ``func`` from one scan of its body;
    ``multi_valued(cond)`` asks rankdep.

    ``shared_outputs``: indexes of the parameters that hold a collective's shared output
    on return (rule in the module docstring).  ``uniform_return``: ``func`` returns the
    same value on every rank whatever its arguments -- each ``return`` yields constants,
    MPI return codes (error codes, which rankdep takes as uniform: MPI_ERRORS_ARE_FATAL
    ends the job on a failure) or a local only collectives write
    (``_Scan.collective_result``), and no condition of the body may differ between
    processes, so every rank executed the same collectives.  A caller in another TU
    cannot know that from ``returns_rank``, which assumes uniform arguments."""
    scan = _Scan()
    scan.visit(func.body)
    found = [i for i, p in enumerate(params)
             if p and (scan.shared.get(p) and scan.shared[p] == scan.uses.get(p, 0)
                       or scan.copied_output(p))]
    codes = bool(scan.returns) and all(
        e is None or _code(e) or scan.collective_result(e) for e in scan.returns)
    if (found or codes) and any(multi_valued(c) for c in scan.conditions):
        return [], False
    return found, codes


def _code(e: c_ast.Node) -> bool:
    """An expression of constants and MPI calls' return values only."""
    if isinstance(e, c_ast.Constant):
        return True
    if isinstance(e, c_ast.FuncCall):
        return isinstance(e.name, c_ast.ID) and catalogue.lookup(e.name.name) is not None
    if isinstance(e, c_ast.Cast):
        return _code(e.expr)
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "!", "~", "+"):
        return _code(e.expr)
    if isinstance(e, c_ast.BinaryOp):
        return _code(e.left) and _code(e.right)
    if isinstance(e, c_ast.TernaryOp):
        return _code(e.iftrue) and _code(e.iffalse)
    return False
