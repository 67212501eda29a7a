"""Calls through a function-pointer parameter that every call in the TU binds to a
function the TU names.

Scotch's ``dgraphInduce2(orggrafptr, orgfuncptr, orgdataptr, ...)`` is a static
function that its file calls twice, with ``dgraphInduceList2`` and with
``dgraphInducePart2``, and that calls ``orgfuncptr(indgrafptr, orggrafptr, orgdataptr,
orgindxgsttax)``.  As a call of an unknown function that call was taken to write a
value derived from all its arguments point to through every pointer argument: the
halo data in ``orgindxgsttax`` made the whole induced graph per-process, and through
``dgraphInduceList``'s summary 50 fields of every graph it induces, in every file
that induces one (``hdgraph_order_nd.c``, ``kdgraph_map_rb_part.c``).

Rule: a parameter ``p`` of a function ``g`` is *bound* to the functions ``F`` when
every occurrence of ``g`` in the TU is the callee of a direct call, each such call
passes for ``p`` the name of a function (casts and ``&`` aside), ``F`` being those
names, and ``g`` never assigns ``p`` nor takes its address.  Nothing in the TU holds
``g``'s address, so every execution of ``g`` from the TU has ``p`` equal to one of
``F``, and a call ``p(args)`` in ``g`` is a call of one of them: the walk takes it as
a call of each (``Expressions._bound``), as it takes ``(c ? f : g)(args)``.

With internal linkage (``static``) that is every execution of ``g``.  Another file
may call an exported ``g`` with another function (``dgraphInduce2`` is exported, and
``library_dgraph_induce.c`` passes it ``dgraphInducePart2``): its summary lists
``F`` for ``p`` (``FunctionSummary.callbacks``), and a caller that passes anything
else takes the call through ``p`` as a call of an unknown function with the
caller's arguments (``Expressions._unbound``: what its pointer arguments point to
written with a value derived from all of it, the result too).  Beyond PARCOACH and
the barrier-matching paper, which leave calls through pointers out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.locations import param_names, uncast
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor

__all__ = ["bound_callbacks", "named"]


class _Uses(Visitor):
    """Every identifier occurrence, and the direct calls, of a whole TU."""

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.calls: dict[str, list[c_ast.FuncCall]] = {}

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names[node.name] = self.names.get(node.name, 0) + 1

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if isinstance(node.name, c_ast.ID):
            self.calls.setdefault(node.name.name, []).append(node)
        self.generic_visit(node)


class _Written(Visitor):
    """Names a body assigns, increments or takes the address of."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(target := uncast(node.lvalue), c_ast.ID):
            self.names.add(target.name)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in WRITES_OPERAND and isinstance(target := uncast(node.expr), c_ast.ID):
            self.names.add(target.name)
        self.generic_visit(node)


def named(arg: c_ast.Node) -> str | None:
    """The identifier an argument is (``f``, ``&f``, casts aside), or None."""
    arg = uncast(arg)
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
        arg = uncast(arg.expr)
    return arg.name if isinstance(arg, c_ast.ID) else None


def _function_name(arg: c_ast.Node, is_function: Callable[[str], bool]) -> str | None:
    """The function ``arg`` names, or None."""
    name = named(arg)
    return name if name is not None and is_function(name) else None


def bound_callbacks(ext: Iterable[c_ast.Node], is_function: Callable[[str], bool]
                    ) -> dict[tuple[str, str], tuple[str, ...]]:
    """``(g, p) -> F`` for each parameter bound by the rule of the module docstring
    (``is_function``: the name is a function the TU defines or declares)."""
    defs = [n for n in ext if isinstance(n, c_ast.FuncDef)]
    uses = _Uses()
    for node in ext:
        uses.visit(node)
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for d in defs:
        name, calls = d.decl.name, uses.calls.get(d.decl.name, [])
        if not calls or uses.names.get(name, 0) != len(calls):
            continue  # never called, or its address is taken somewhere
        written = _Written()
        written.visit(d.body)
        for i, p in enumerate(param_names(d.decl)):
            if not p or p in written.names:
                continue
            found = {_function_name(c.args.exprs[i], is_function)
                     if c.args is not None and i < len(c.args.exprs) else None
                     for c in calls}
            if found and None not in found:
                out[(name, p)] = tuple(sorted(n for n in found if n))
    return out
