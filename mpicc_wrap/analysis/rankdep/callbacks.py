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
a call of each (``callback_calls.CallbackCalls._bound``), as it takes ``(c ? f :
g)(args)``.

With internal linkage (``static``) that is every execution of ``g``.  Another file
may call an exported ``g`` with another function (``dgraphInduce2`` is exported, and
``library_dgraph_induce.c`` passes it ``dgraphInducePart2``): its summary lists
``F`` for ``p`` (``FunctionSummary.callbacks``), and a caller that passes anything
else takes the call through ``p`` as a call of an unknown function with the
caller's arguments (``CallbackCalls._unbound``: what its pointer arguments point to
written with a value derived from all of it, the result too).

A parameter its file does not bind is the callers' business.  p4est's
``p4est_new_ext(..., init_fn, user_pointer)`` calls ``init_fn(p4est, which_tree,
quadrant)`` on every local quadrant (through ``p4est_quadrant_init_data``, in another
file); as an unknown call made with per-process arguments it made the whole forest
per-process, and every caller read its ``user_pointer`` as per-process.  Rule:

* in the solve for summaries (``solver._detached``), a call through a parameter
  ``k`` of ``g`` (or handing it to a function that calls it: a summary's
  ``calls_params``, or a function of the file that does) writes nothing; ``g``'s
  summary lists ``k`` (``calls_params``), what the call hands the callback, by its
  argument position (``callback_writes``; through a function of the file, what that
  one hands it), and whether it makes the call under a per-process gate or with
  per-process arguments (``callback_rank``: p4est's loop over the local quadrants,
  not libsc's ``sc_hash_foreach`` over a table every process holds alike).  The
  first solve, whose facts give the findings in ``g``'s own body, keeps the call
  unknown.
* a caller that passes ``F`` at ``k`` (``CallbackCalls._call_backs``) runs it as
  ``g`` calls it back: a function of its file (``_called_back``) with its parameter
  ``i`` pointing to what ``g`` hands at ``i``, and, with ``callback_rank``, with its
  parameters and what they point to per-process and a per-process gate (its own
  walk then writes fields, globals and the handed memory accordingly); when it
  writes through a parameter whose handed memory is ``r``, the result is
  per-process (``Ctl(F()*i)``, set by ``Expressions._write``).  A function of another
  file is applied from its summary (``p`` tokens naming the handed positions); anything
  else writes all it is handed, from all of it.

A caller that passes a conditional, ``c ? F : G`` (p4est_wrap.c's ``weight_exponent ?
partition_weight : NULL``), passes one of its arms (``candidates``; a null arm passes
no function, so nothing is called back through it): each is run back as if passed
alone, and when ``c`` may differ between processes, as run on some processes only.
Before, a conditional was an unknown function.

Sound where the unknown call was: the callback can reach what it is handed, fields
and globals (one location each, ``locations.py``), and what its own file gives it;
it runs per-process wherever ``g``'s own solve says the call is.
Beyond PARCOACH and the barrier-matching paper, which leave calls through pointers
out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_expression, outcomes
from mpicc_wrap.analysis.rankdep.locations import uncast
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor
from mpicc_wrap.frontend.prototypes import param_names

__all__ = ["Written", "bound_callbacks", "candidates", "named"]


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


class Written(Visitor):
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


def candidates(arg: c_ast.Node) -> list[str | None]:
    """The functions a function-pointer argument may be: ``[f]`` for ``f`` or ``&f``
    (casts aside), each arm's for ``c ? a : b`` (``literals.outcomes``; a null arm is
    no function: nothing is called back through it), None for anything else
    (unknown)."""
    return [named(a) for a in outcomes(arg) if int_expression(a) != 0]


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
        written = Written()
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
