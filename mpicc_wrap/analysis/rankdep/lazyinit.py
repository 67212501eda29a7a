"""Lazy initialisation: an arm that sets the variable its test finds unset.

hypre's ``hypre_handle()`` and every HDF5 ``FUNC_ENTER`` (beyond both papers)::

    if (!_hypre_handle) _hypre_handle = hypre_HandleCreate();
    if (!H5Z_init_g && !H5_libterm_g) {
        H5Z_init_g = TRUE;
        if (H5Z__init_package() < 0) { H5Z_init_g = FALSE; goto done; }
    }

Whether a process runs the arm depends on whether it has run it before, which depends
on which functions it called, so a checker that gates the arm by its test, or by the
per-process gate some caller reached the function under, makes the flag and everything
the initialisation fills per-process -- and with them every later test of the flag.
In HDF5 every function body runs under ``if (H5Z_init_g || !H5_libterm_g)``, so one
package called on rank 0 alone made every collective of the package conditional;
in hypre, ``_hypre_handle`` and every field read through it.

The rule: after such an ``if``, the variable is set on every process that ran the
statement -- those that took the arm set it, the others had -- and the initialisation
computes the same state wherever and whenever it runs, from single-valued inputs.  So
the arm's writes to memory are gated by nothing outside it: neither by the flag's own
test (its other conjuncts must be single-valued) nor by the gates the ``if`` or the
function is reached under, and the callees it makes are called under no gate.  Writes
to the flag itself, anywhere in the arm (the failure path's reset too), take no gate:
initialisation is taken to succeed or fail alike everywhere.  What the arm computes
still differs where its inputs do (``v = rank`` is per-process).  The tracked locals
it writes differ between the processes that ran it and those that did not only as
the flag does: they are gated at the join by the test, which is per-process when a
write outside the idiom made the flag so (the flag keeps such facts: memory is
flow-insensitive, ``locations.py``).

This is an assumption, not a proof: code that reads the initialised state on some
ranks before others initialise it, without passing through the idiom, can differ.
Collectives in the arm are judged as everywhere else (the findings read the test).

The idiom is taken only under no per-process test of the function itself (a lazy
initialisation inside ``if (rank == 0)`` is walked as any other arm), and a summary
says which of its writes only lazy initialisations make (``init_writes``), so that
callers in other files do not gate them either (``solver.init_writes``).

The shape: no ``else``; the test is ``!v``, ``v == 0`` or ``v == NULL`` (either
order), alone or as a conjunct of ``&&`` whose other conjuncts have no side effects;
``v`` is a file-scope or ``static`` variable; the arm assigns ``v`` a value other
than 0 by a top-level statement that no jump precedes.
"""

from __future__ import annotations

from collections.abc import Container

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.rankdep.locations import uncast
from mpicc_wrap.analysis.visitor import INCREMENTS, Visitor

__all__ = ["flag_name", "init_test"]

_JUMPS = (c_ast.Return, c_ast.Goto, c_ast.Break, c_ast.Continue)


def init_test(s: c_ast.If, memory: Container[str]) -> tuple[str, list[c_ast.Node]] | None:
    """The flag ``v`` of a lazy initialisation ``s`` (module docstring) and the other
    conjuncts of its test; ``memory``: the names that are file-scope or static."""
    if s.iffalse is not None or s.iftrue is None:
        return None
    conjuncts = _conjuncts(s.cond)
    for i, c in enumerate(conjuncts):
        v = _unset(c)
        if v is not None and v in memory and _sets(s.iftrue, v):
            others = conjuncts[:i] + conjuncts[i + 1:]
            return (v, others) if all(_pure(o) for o in others) else None
    return None


def _conjuncts(e: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(e, c_ast.BinaryOp) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def flag_name(e: c_ast.Node) -> str | None:
    """The variable ``e`` names (through casts), if it is one."""
    e = uncast(e)
    return e.name if isinstance(e, c_ast.ID) else None


def _unset(e: c_ast.Node) -> str | None:
    """``v`` of ``!v``, ``v == 0``, ``0 == v`` (``NULL`` is 0)."""
    if isinstance(e, c_ast.UnaryOp) and e.op == "!":
        return flag_name(e.expr)
    if isinstance(e, c_ast.BinaryOp) and e.op == "==":
        for place, other in ((e.left, e.right), (e.right, e.left)):
            if (v := flag_name(place)) is not None and int_expression(other) == 0:
                return v
    return None


def _sets(arm: c_ast.Node, v: str) -> bool:
    """The arm assigns ``v`` a value other than 0 in a top-level statement that no
    jump precedes."""
    items = (arm.block_items or []) if isinstance(arm, c_ast.Compound) else [arm]
    for item in items:
        if (isinstance(item, c_ast.Assignment) and item.op == "="
                and flag_name(item.lvalue) == v and int_expression(item.rvalue) != 0):
            return True
        if _Finds.any(item, _JUMPS):
            return False
    return False


def _pure(e: c_ast.Node) -> bool:
    """``e`` has no side effects: no call, assignment, increment or decrement."""
    return not _Finds.any(e, (c_ast.FuncCall, c_ast.Assignment), INCREMENTS)


class _Finds(Visitor):
    """Whether a node holds one of ``kinds``, or a unary operator of ``ops``."""

    def __init__(self, kinds: tuple[type, ...], ops: Container[str]) -> None:
        self.kinds, self.ops, self.found = kinds, ops, False

    @classmethod
    def any(cls, node: c_ast.Node, kinds: tuple[type, ...],
            ops: Container[str] = frozenset()) -> bool:
        finder = cls(kinds, ops)
        finder.visit(node)
        return finder.found

    def generic_visit(self, node: c_ast.Node) -> None:
        if isinstance(node, self.kinds) or (
                isinstance(node, c_ast.UnaryOp) and node.op in self.ops):
            self.found = True
            return
        super().generic_visit(node)
