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
    Local,
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
    """``_pointees(e)``: the abstract locations the pointer value of ``e`` may point to;
    with ``writing``, the places a write through ``e`` may reach.

    The two differ in the solve that detaches the exported functions from their
    callers in the TU (``solver._detached``): there a read through a parameter of such
    a function sees the argument's memory only (``Deref(param)``), which a summary
    takes as the same on every process (a caller with per-process memory makes the
    call per-process itself: ``_pointed``); before, it saw the memory every caller
    in the TU passed, which its points-to set holds.  hypre's
    ``hypre_StructMapFineToCoarse(findex, index, stride, cindex)`` computes
    ``cindex[i]`` from ``findex[i]``; its file passes the corners of local boxes,
    so its summary wrote every box's corners per-process.  Writes still reach what
    the set holds: a callee's per-process write through a parameter lands in the
    caller's memory, which the caller's summary lists.  A copy of the parameter
    (``q = p``) keeps the whole set: solving the sets again without the bindings
    cost a fifth of hypre's analysis time (struct_matvec.c 1.7 -> 2.1 s)."""

    _bare: frozenset[str] = frozenset()  # functions whose parameters read bare

    def _pointees(self, e: c_ast.Node | None, writing: bool = False) -> set[Loc]:
        if isinstance(e, c_ast.ID):
            if self._scalar(e.name):
                return set()
            return self._load({self._key(e.name)}, writing)
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            return self._addr_of(e.expr, writing)
        if isinstance(e, (c_ast.ArrayRef, c_ast.UnaryOp)) and getattr(e, "op", "*") == "*":
            inner = e.name if isinstance(e, c_ast.ArrayRef) else e.expr
            return self._load(self._pointees(inner, writing), writing)
        if isinstance(e, c_ast.StructRef):
            return set() if self._scalar_field(e) else self._load({self._field(e)},
                                                                  writing)
        if isinstance(e, c_ast.Cast):
            return set() if self._no_pointer(e) else self._pointees(e.expr, writing)
        if isinstance(e, c_ast.BinaryOp):
            return self._pointees(e.left, writing) | self._pointees(e.right, writing)
        if isinstance(e, c_ast.TernaryOp):
            return self._pointees(e.iftrue, writing) | self._pointees(e.iffalse, writing)
        if isinstance(e, c_ast.Assignment):
            return self._pointees(e.rvalue, writing)
        f = self._funcs.get(callee(e) or "") if isinstance(e, c_ast.FuncCall) else None
        if f is not None and not f.returns_scalar:
            return self._load({Ret(f.name)}, writing)
        return set()

    def _no_pointer(self, e: c_ast.Cast) -> bool:
        """A cast to an MPI handle type (``handle_cast``) or to an arithmetic type
        (``(uint) ncap->ndefined``): the value points to nothing the program can
        reach through it."""
        return handle_cast(e) or is_scalar(getattr(e.to_type, "type", None),
                                           self._scalar_types)

    def _load(self, locs: set[Loc], writing: bool = False) -> set[Loc]:
        """Pointees of a pointer value stored at any of ``locs`` (widened to ``{ANY}``
        past ``MAX_POINTEES``); for a read, a parameter of a function of ``_bare``
        points to its argument only."""
        if ANY in locs:
            return {ANY}
        out: set[Loc] = set()
        for k in locs:
            out.add(deref(k))
            if writing or not self._bare or not self._bare_param(k):
                out.update(self.store.pts_of(k))
            if len(out) > MAX_POINTEES or ANY in out:
                return {ANY}
        return out

    def _bare_param(self, k: Loc) -> bool:
        """``k`` is a parameter of a function of ``_bare``."""
        return isinstance(k, Local) and k.fn in self._bare \
            and k.name in self._funcs[k.fn].params

    def _addr_of(self, e: c_ast.Node, writing: bool = False) -> set[Loc]:
        if isinstance(e, c_ast.ID):
            return {self._key(e.name)}
        if isinstance(e, c_ast.ArrayRef):
            return self._pointees(e.name, writing)
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return self._pointees(e.expr, writing)
        if isinstance(e, c_ast.StructRef):
            return {self._field(e)}
        if isinstance(e, c_ast.Cast):
            return self._addr_of(e.expr, writing)
        return set()
