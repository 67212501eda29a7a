"""How many elements of its base type one item of a local derived datatype holds.

A collective's shared output overwrites what it names (a strong update) only when its
count covers the whole tracked array (``expressions._covers``).  Scotch and others
reduce an array in one item of a contiguous type,
``MPI_Type_contiguous(6, GNUM_MPI, &t); MPI_Allreduce(loc, glb, 1, t, op, comm);``:
counted as 1 element, the call covered one element of ``glb[6]``, so the values the
array held before (per-process error flags) stayed after the reduction.

``contiguous(body)``: {local: k} for every local datatype ``t`` that the function
builds only as ``MPI_Type_contiguous(k, base, &t)`` with a constant ``k`` (several such
calls: the smallest ``k``), and otherwise only commits, frees or reads.  Any other
write (an assignment, ``&t`` given to another call) drops ``t``: one item then counts
as one element, as before, which is never more than it holds.  A contiguous type of a
derived base holds at least ``k`` elements, so ``k`` is a lower bound there too.
"""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_constant
from mpicc_wrap.analysis.visitor import INCREMENTS, Visitor

__all__ = ["BUILDERS", "contiguous"]

# Calls that may take ``&t`` without changing what one item of ``t`` holds.
_KEEP = frozenset({"MPI_Type_commit", "MPI_Type_free", "PMPI_Type_commit", "PMPI_Type_free"})
BUILDERS = frozenset({"MPI_Type_contiguous", "PMPI_Type_contiguous"})


class _Scan(Visitor):
    """Contiguous builds, and every other way a name is written."""

    def __init__(self) -> None:
        self.built: dict[str, int] = {}
        self.spoiled: set[str] = set()

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = node.name.name if isinstance(node.name, c_ast.ID) else ""
        args = node.args.exprs if node.args is not None else []
        for i, arg in enumerate(args):
            target = _address_of(arg)
            if target is None:
                continue
            if name in BUILDERS and i == 2 and (k := int_constant(args[0])) is not None:
                self.built[target] = min(k, self.built.get(target, k))
            elif name not in _KEEP:
                self.spoiled.add(target)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(node.lvalue, c_ast.ID):
            self.spoiled.add(node.lvalue.name)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in INCREMENTS and isinstance(node.expr, c_ast.ID):
            self.spoiled.add(node.expr.name)
        self.generic_visit(node)


def _address_of(arg: c_ast.Node) -> str | None:
    """``x`` for an argument ``&x`` (under casts)."""
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ID):
        return arg.expr.name
    return None


def contiguous(body: c_ast.Node) -> dict[str, int]:
    """{local datatype: elements per item} of ``body`` (see the module docstring)."""
    scan = _Scan()
    scan.visit(body)
    return {t: k for t, k in scan.built.items() if t not in scan.spoiled and k > 0}
