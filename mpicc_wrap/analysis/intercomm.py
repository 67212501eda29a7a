"""Roots of intercommunicator collectives: where "the root may differ" is the protocol.

On an intercommunicator the root group passes ``MPI_ROOT`` (the root itself) and
``MPI_PROC_NULL`` (the others), and the other group passes the root's rank in the
remote group (MPI-4.0 §6.2.2): the root argument differs between processes by design,
and mpicc-wrap's run-time check skips intercommunicators for that reason
(cclib/mpiccwrap_cc.c).  Both constants are negative in every MPI library (MPICH -3/-1,
Open MPI -4/-2), and on an intracommunicator a root must be a rank, 0 <= root < size.
So a root argument that can be a negative integer constant marks an intercommunicator
collective, and a per-process root there is not a finding.

Sound for the checker as a whole: such a collective is still checked at run time (the
finding's site stays in the plan), and the check compares roots on intracommunicators,
so a wrapper that is also called with a per-process root on an intracommunicator is
still stopped before it hangs.  Found in MPICH's tests (``icbcast.c``:
``MTest_Bcast(buf, n, t, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, comm)``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pycparser import c_ast

from mpicc_wrap.analysis.cfg import CFG, callee_name
from mpicc_wrap.analysis.literals import outcomes
from mpicc_wrap.analysis.visitor import Visitor

__all__ = ["may_be_intercomm_root"]


def _negative(e: c_ast.Node) -> bool:
    """A negative integer constant: ``-3``, ``(-3)``, ``(int) -3``."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return (isinstance(e, c_ast.UnaryOp) and e.op == "-"
            and isinstance(e.expr, c_ast.Constant) and e.expr.type == "int")


def _constant_negative(e: c_ast.Node | None) -> bool:
    return any(_negative(c) for c in outcomes(e))


def _param_index(func: c_ast.FuncDef, name: str) -> int | None:
    args = func.decl.type.args
    for i, p in enumerate(args.params if args is not None else []):
        if getattr(p, "name", None) == name:
            return i
    return None


class _Stores(Visitor):
    """The values assigned to one local name (``x = v`` and ``T x = v``)."""

    def __init__(self, name: str) -> None:
        self.name, self.values = name, list[c_ast.Node]()

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(node.lvalue, c_ast.ID) and node.lvalue.name == self.name:
            self.values.append(node.rvalue)
        self.generic_visit(node)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name == self.name and node.init is not None:
            self.values.append(node.init)
        self.generic_visit(node)


def may_be_intercomm_root(root: c_ast.Node, func: c_ast.FuncDef,
                          cfgs: Mapping[str, CFG]) -> bool:
    """True when the root argument ``root`` of a collective in ``func`` can be a negative
    constant (``MPI_ROOT``/``MPI_PROC_NULL``): directly, through a local assigned one,
    or through a parameter some call of ``func`` in this TU passes one to."""
    if _constant_negative(root):
        return True
    while isinstance(root, c_ast.Cast):
        root = root.expr
    if not isinstance(root, c_ast.ID):
        return False
    stores = _Stores(root.name)
    stores.visit(func.body)
    if any(_constant_negative(v) for v in stores.values):
        return True
    index = _param_index(func, root.name)
    if index is None:
        return False
    name = func.decl.name
    for graph in cfgs.values():
        for node in graph.nodes:
            call = node.call
            if call is not None and callee_name(call) == name and call.args is not None \
                    and index < len(call.args.exprs) \
                    and _constant_negative(call.args.exprs[index]):
                return True
    return False
