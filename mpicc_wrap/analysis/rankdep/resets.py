"""Resets: ``if (p->buf != NULL) { free(p->buf); p->buf = NULL; }``.

After such an ``if``, the place holds the constant it was tested against on every
process that ran the statement: those that took the arm stored it, the others already
held it.  So the store in the arm makes nothing differ between processes, though the
test does when the place's old value did.  Memory is flow-insensitive
(``locations.py``), so the place stays per-process when some other write made it so;
only the gate of this one write is dropped.  That matters for summaries: a function
that frees an object it is given listed the reset fields in its ``rank_writes``
whenever its own file held per-process values there, and its callers in other files
took them as per-process (pnetcdf's ``ncmpio_free_NC``: ``if (ncp->mpiinfo !=
MPI_INFO_NULL) MPI_Info_free(&ncp->mpiinfo);``, a cycle through ``ncmpio__enddef``'s
summary that kept 12 false warnings alive in the whole-program view).

The rule holds only where nothing else decides: the ``if`` is under no other
per-process test, the store is under no deeper one (``Expressions._reset_write``), it
stores the very constant of the test, and the arm assigns none of the variables the
place is reached through (``p = q; p->buf = NULL;`` would reset another object).
"""

from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor
from mpicc_wrap.frontend import handles, positions

__all__ = ["Reset", "assigns_any", "constant", "reset_test"]


class Reset(NamedTuple):
    """An arm that resets ``place`` (its C text), reached through ``variable``, to
    ``value``; entered at gate depth ``depth`` (``Expressions._gates``)."""

    place: str
    value: int | str
    variable: str
    depth: int = 0


def constant(e: c_ast.Node, names: dict[str, str]) -> int | str | None:
    """The constant ``e`` is: the name of an MPI null handle (``MPI_INFO_NULL`` as the
    library spells it, ``handles.display``: MPICH's ``((MPI_Info)0x1c000000)``, Open
    MPI's ``((MPI_Info) &ompi_mpi_info_null)``), or an integer (``NULL`` is 0)."""
    shown = handles.display(positions.c_text(e), names)
    if shown.startswith("MPI_") and shown.endswith("_NULL"):
        return shown
    return int_expression(e)


def _base(e: c_ast.Node) -> str | None:
    """The variable of a place: ``p`` of ``p->f.g`` or of ``p``; None for anything
    else (a call, an index, a dereference: not read without side effects or not one
    object)."""
    while isinstance(e, c_ast.StructRef):
        e = e.name
    return e.name if isinstance(e, c_ast.ID) else None


def reset_test(cond: c_ast.Node, names: dict[str, str]) -> Reset | None:
    """The reset a test's true arm may make: of ``place`` to ``value`` for ``place !=
    value`` (either order), to 0 for ``place`` alone."""
    if (base := _base(cond)) is not None:
        return Reset(positions.c_text(cond), 0, base)
    if not isinstance(cond, c_ast.BinaryOp) or cond.op != "!=":
        return None
    for place, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if (base := _base(place)) is not None and (
                value := constant(other, names)) is not None:
            return Reset(positions.c_text(place), value, base)
    return None


class _Assigns(Visitor):
    def __init__(self, names: set[str]) -> None:
        self.names, self.found = names, False

    def _target(self, e: c_ast.Node) -> None:
        if isinstance(e, c_ast.ID) and e.name in self.names:
            self.found = True

    def visit_Assignment(self, e: c_ast.Assignment) -> None:
        self._target(e.lvalue)
        self.generic_visit(e)

    def visit_UnaryOp(self, e: c_ast.UnaryOp) -> None:
        if e.op in WRITES_OPERAND:
            self._target(e.expr)
        self.generic_visit(e)


def assigns_any(node: c_ast.Node | None, names: set[str]) -> bool:
    """``node`` assigns one of ``names``, or takes its address (a callee may)."""
    if node is None:
        return False
    finder = _Assigns(names)
    finder.visit(node)
    return finder.found
