"""Consensus: a collective vote on a per-process predicate makes the predicate's
truth the same on every process that goes on, though its value still differs.

Beyond both papers, which keep a per-process value per-process until it is written
again (paper 003 §3, Definition 3.1; PARCOACH, paper 004 §3.1).  FFTW plans each
process's own block, so a child plan may be NULL on some processes only; it then
votes, ``if (XM(any_true)(!cld1, comm)) goto nada;``, where ``any_true`` is
``MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm); return result;``.
Each process that falls through took part in an OR that came out false, so its own
``!cld1`` was false: past the test every process that goes on has a non-NULL
``cld1``, and a later ``if (cld1) cld1->apply(...)`` is taken by all of them or by
none.  The fact is about each process, not about a communicator, so it holds whatever
communicator the later collective uses.

* ``consensus_of``: a function whose result is one parameter reduced by a logical
  operation (``OPERATIONS``), by the shape of its body; a summary carries it to other
  files (``FunctionSummary.agreement``).
* ``arm_facts``: the predicates each arm of a test of such a result decides.
* ``decided``: the variables a decided predicate decides, and to what truth.

The walk keeps the decision beside the value (``TRUTH``): a tracked local ``x`` that
is multi-valued but whose truth is the same on every process has the key ``"!x"`` in
the walk's environment besides ``"x"``; memory keeps it in ``Store.truthy`` (fields,
function results).

Soundness.  (1) The vote's operand is evaluated once, at the call, and every process
that returns from the call learnt the reduction of all operands of its communicator,
its own among them; so in the arm the result decides, each process's own operand has
the decided truth -- the same on every process that takes the arm.  (2) The fact
lasts until the local is written: a write of a value whose truth is not known to be
uniform, or any write under a per-process gate, drops it (``Expressions._write``); a
write through ``&x`` by a call counts as such a write.  (3) Where paths meet the fact
holds only if it holds on every path on which the local is multi-valued (``join``; a
path on which it is single-valued has all processes on it agree, and a multi-valued
test choosing between the paths taints the local at the join, dropping the fact);
an arm that leaves by ``return`` or ``goto`` takes its facts with the jump
(``join_exits``).  (4) Memory is flow-insensitive: a field or result is truthy only
while every store into it was of a uniform truth under no gate, and a later other
store undoes it for the whole program (``Store.mark``).  MAX, SUM and MIN decide only
0/1 operands, where they equal OR, OR and AND.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.rankdep.locations import uncast
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend import handles, positions

__all__ = ["OPERATIONS", "TRUTH", "Agreement", "arm_facts", "boolean", "consensus_of",
           "decided", "from_summary", "truth_key", "zero_compared"]

TRUTH = "!"  # prefix of an environment key: the truth of that local is uniform

# Reduction operation -> (what a result says, whether of any integer operand):
# "any": the result is true exactly when some process's operand is (its false arm
# decides: every operand is false); "all": a true result means every operand is (its
# true arm decides).  MAX, SUM and MIN say so only of 0/1 operands (a boolean
# argument at the call: ``!p``, a comparison): max(-1, 0) is 0 though -1 is true.
OPERATIONS: dict[str, tuple[str, bool]] = {
    "MPI_LOR": ("any", True), "MPI_BOR": ("any", True),
    "MPI_LAND": ("all", True), "MPI_BAND": ("all", True),
    "MPI_MAX": ("any", False), "MPI_SUM": ("any", False), "MPI_MIN": ("all", False),
}

_ALLREDUCE = ("MPI_Allreduce", "PMPI_Allreduce")
_BOOLEAN_OPS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})

Facts = list[tuple[c_ast.Node, bool]]  # (predicate, its truth on every process)


class Agreement(NamedTuple):
    """A function returns parameter ``param`` reduced over a communicator: ``kind``
    "any" or "all" (``OPERATIONS``); ``exact``: for any integer, not only 0/1."""

    param: int
    kind: str
    exact: bool


def from_summary(values: list[int | str | bool]) -> Agreement | None:
    """The ``Agreement`` a summary's ``agreement`` list states (None: none, or a list
    of another shape)."""
    if len(values) != 3:
        return None
    param, kind, exact = values
    if isinstance(param, bool) or not isinstance(param, int) or kind not in ("any", "all"):
        return None
    return Agreement(param, str(kind), exact is True)


def truth_key(name: str) -> str:
    """The environment key saying the truth of local ``name`` is uniform."""
    return TRUTH + name


def consensus_of(body: c_ast.Node, params: list[str],
                 names: dict[str, str]) -> Agreement | None:
    """The agreement a function body computes, when it is exactly declarations, one
    ``MPI_Allreduce(&p, &r, 1, type, OP, comm)`` (a statement, or assigned to a local)
    and ``return r;``, with ``p`` a parameter read nowhere else and ``r`` a local
    read nowhere else; ``names``: the MPI handles' preprocessed spellings."""
    items = list(body.block_items or []) if isinstance(body, c_ast.Compound) else []
    decls = [i for i in items if isinstance(i, c_ast.Decl)]
    rest = [i for i in items if not isinstance(i, c_ast.Decl)]
    if len(rest) != 2 or not isinstance(rest[1], c_ast.Return):
        return None
    if any(d.init is not None and int_expression(d.init) is None for d in decls):
        return None
    call = _allreduce(rest[0])
    returned = uncast(rest[1].expr) if rest[1].expr is not None else None
    if call is None or not isinstance(returned, c_ast.ID):
        return None
    args = list(call.args.exprs) if call.args is not None else []
    if len(args) != 6 or int_expression(args[2]) != 1:
        return None
    sent, received = _address(args[0]), _address(args[1])
    op = OPERATIONS.get(handles.display(positions.c_text(args[4]), names) or "")
    if op is None or sent is None or sent not in params or received != returned.name \
            or received not in {d.name for d in decls}:
        return None
    uses = _Uses.of(body)
    if uses.get(sent) != 1 or uses.get(returned.name) != 2:
        return None
    return Agreement(params.index(sent), *op)


def _allreduce(s: c_ast.Node) -> c_ast.FuncCall | None:
    """The allreduce call statement ``s`` is: the call, or ``x = call``, casts aside."""
    e = uncast(s.rvalue) if isinstance(s, c_ast.Assignment) and s.op == "=" \
        and isinstance(s.lvalue, c_ast.ID) else uncast(s)
    if isinstance(e, c_ast.FuncCall) and isinstance(e.name, c_ast.ID) \
            and e.name.name in _ALLREDUCE:
        return e
    return None


def _address(e: c_ast.Node) -> str | None:
    e = uncast(e)
    if isinstance(e, c_ast.UnaryOp) and e.op == "&" and isinstance(e.expr, c_ast.ID):
        return e.expr.name
    return None


class _Uses(Visitor):
    """How many times each identifier occurs in a body."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}

    @classmethod
    def of(cls, body: c_ast.Node) -> dict[str, int]:
        scan = cls()
        scan.visit(body)
        return scan.count

    def visit_ID(self, node: c_ast.ID) -> None:
        self.count[node.name] = self.count.get(node.name, 0) + 1


def boolean(e: c_ast.Node) -> bool:
    """``e`` is 0 or 1 on every process: a negation, a comparison, a logical
    operation or the constant 0 or 1."""
    e = uncast(e)
    if isinstance(e, c_ast.UnaryOp):
        return e.op == "!"
    if isinstance(e, c_ast.BinaryOp):
        return e.op in _BOOLEAN_OPS
    return int_expression(e) in (0, 1)


def zero_compared(e: c_ast.BinaryOp) -> c_ast.Node | None:
    """The side of ``a == 0`` / ``a != 0`` (either order, ``NULL`` too) that is
    compared with zero; None for any other operation."""
    if e.op not in ("==", "!="):
        return None
    if int_expression(e.right) == 0:
        return e.left
    if int_expression(e.left) == 0:
        return e.right
    return None


def arm_facts(cond: c_ast.Node,
              agreement: Callable[[c_ast.FuncCall], Agreement | None]) -> tuple[Facts, Facts]:
    """The predicates whose truth every process knows in the arm where ``cond`` is
    true, and in the arm where it is false; ``agreement(call)``: what a call votes."""
    e = uncast(cond)
    if isinstance(e, c_ast.UnaryOp) and e.op == "!":
        when_true, when_false = arm_facts(e.expr, agreement)
        return when_false, when_true
    if isinstance(e, c_ast.BinaryOp):
        if (other := zero_compared(e)) is not None:
            when_true, when_false = arm_facts(other, agreement)
            return (when_false, when_true) if e.op == "==" else (when_true, when_false)
        if e.op in ("&&", "||"):
            left, right = arm_facts(e.left, agreement), arm_facts(e.right, agreement)
            if e.op == "&&":  # true: both are; false: either may be
                return left[0] + right[0], []
            return [], left[1] + right[1]
    if isinstance(e, c_ast.FuncCall) and e.args is not None \
            and (found := agreement(e)) is not None and found.param < len(e.args.exprs):
        arg = e.args.exprs[found.param]
        if found.exact or boolean(arg):
            return ([(arg, True)], []) if found.kind == "all" else ([], [(arg, False)])
    return [], []


def decided(e: c_ast.Node, truth: bool) -> Iterator[tuple[str, bool]]:
    """The variables whose truth ``e`` having ``truth`` on every process decides."""
    e = uncast(e)
    if isinstance(e, c_ast.ID):
        yield e.name, truth
    elif isinstance(e, c_ast.UnaryOp) and e.op == "!":
        yield from decided(e.expr, not truth)
    elif isinstance(e, c_ast.BinaryOp):
        if (other := zero_compared(e)) is not None:
            yield from decided(other, truth if e.op == "!=" else not truth)
        elif e.op == "&&" and truth or e.op == "||" and not truth:
            yield from decided(e.left, truth)
            yield from decided(e.right, truth)
