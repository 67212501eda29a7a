"""Points-to sets of pointer values (Andersen-style, flow-insensitive, k-limited).

No side effects: reading a pointer expression only records which facts were read.
"""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.rankdep.locations import (
    ANY,
    MAX_POINTEES,
    Loc,
    Ret,
    Scope,
    callee,
    deref,
    is_scalar,
)

__all__ = ["PointsTo", "handle_cast"]


def handle_cast(e: c_ast.Cast) -> bool:
    """``(MPI_Comm) ...``: a value of an MPI handle type, which points to no memory of
    the program (``catalogue.HANDLE_TYPES``).  Without this, Open MPI's predefined
    handles (``(MPI_Datatype) &ompi_mpi_int``) were pointers to globals: an unknown
    call passed ``MPI_INT`` and a per-process value made the datatype object
    per-process, and with it every later unknown call passed ``MPI_INT``."""
    decl = getattr(e.to_type, "type", None)
    names = getattr(getattr(decl, "type", None), "names", None)
    return isinstance(decl, c_ast.TypeDecl) and names is not None and len(names) == 1 \
        and names[0] in catalogue.HANDLE_TYPES


class PointsTo(Scope):
    """``_pointees(e)``: the abstract locations the pointer value of ``e`` may point to."""

    def _pointees(self, e: c_ast.Node | None) -> set[Loc]:
        if isinstance(e, c_ast.ID):
            if self._scalar(e.name):
                return set()
            return self._load({self._key(e.name)})
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            return self._addr_of(e.expr)
        if isinstance(e, (c_ast.ArrayRef, c_ast.UnaryOp)) and getattr(e, "op", "*") == "*":
            inner = e.name if isinstance(e, c_ast.ArrayRef) else e.expr
            return self._load(self._pointees(inner))
        if isinstance(e, c_ast.StructRef):
            return set() if self._scalar_field(e) else self._load({self._field(e)})
        if isinstance(e, c_ast.Cast):
            return set() if self._no_pointer(e) else self._pointees(e.expr)
        if isinstance(e, c_ast.BinaryOp):
            return self._pointees(e.left) | self._pointees(e.right)
        if isinstance(e, c_ast.TernaryOp):
            return self._pointees(e.iftrue) | self._pointees(e.iffalse)
        if isinstance(e, c_ast.Assignment):
            return self._pointees(e.rvalue)
        f = self._funcs.get(callee(e) or "") if isinstance(e, c_ast.FuncCall) else None
        if f is not None and not f.returns_scalar:
            return self._load({Ret(f.name)})
        return set()

    def _no_pointer(self, e: c_ast.Cast) -> bool:
        """A cast to an MPI handle type (``handle_cast``) or to an arithmetic type
        (``(uint) ncap->ndefined``): the value points to nothing the program can
        reach through it."""
        return handle_cast(e) or is_scalar(getattr(e.to_type, "type", None),
                                           self._scalar_types)

    def _load(self, locs: set[Loc]) -> set[Loc]:
        """Pointees of a pointer value stored at any of ``locs`` (widened to ``{ANY}``
        past ``MAX_POINTEES``)."""
        if ANY in locs:
            return {ANY}
        out: set[Loc] = set()
        for k in locs:
            out.add(deref(k))
            out.update(self.store.pts_of(k))
            if len(out) > MAX_POINTEES or ANY in out:
                return {ANY}
        return out

    def _addr_of(self, e: c_ast.Node) -> set[Loc]:
        if isinstance(e, c_ast.ID):
            return {self._key(e.name)}
        if isinstance(e, c_ast.ArrayRef):
            return self._pointees(e.name)
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return self._pointees(e.expr)
        if isinstance(e, c_ast.StructRef):
            return {self._field(e)}
        if isinstance(e, c_ast.Cast):
            return self._addr_of(e.expr)
        return set()
