"""The arm of a rank test that only a broadcast's root runs, and the values it packs.

Issue 9's root-parameter pattern (beyond both papers; barrier matching §5 needs the
two arms' tests to be "the same single-valued expression", and they are, by value)::

    if (rank == 0) { params[32] = use_time; MPI_Bcast(params, 33, MPI_INT, 0, c);
                     if (use_time) MPI_Bcast(&t, 1, MPI_DOUBLE, 0, c); }
    else           { MPI_Bcast(params, 33, MPI_INT, 0, c); use_time = params[32];
                     if (use_time) MPI_Bcast(&t, 1, MPI_DOUBLE, 0, c); }

The root branches on the value it packed, the others on the copy they unpacked: the
same value on every process.  ``exchanges.py`` records, per arm, a local whose last
write is the shared output of a collective; an exchange names a part of that output
(``Exchange``'s last item: "" for all of it, ``[K]`` for one element).  A local comes
to hold a part in two more ways:

- **copied out**: ``x = buf[K]`` (``K`` a constant) or ``x = buf``, where the arm's
  last write of the tracked local ``buf`` is the whole shared output of a collective:
  ``x`` holds that part of it (``copied``);
- **packed in, by the root**: ``buf[K] = x``, then ``MPI_Bcast(buf, ...)`` covering the
  whole of ``buf`` with neither ``x`` nor ``buf[K]`` written in between, in an arm that
  only the broadcast's root runs: a root's buffer is what it sends, so after the call
  its ``x`` is every process's ``buf[K]`` (``sent``).  Any write of ``x`` or of ``buf``
  (but of another constant element) in any arm being walked forgets the packing
  (``forget``).

**Only the root runs the arm** (``root_arm``) when its test is ``r == t`` or ``t ==
r`` (the true arm), ``r != t`` (the false arm), ``!r`` (the true arm, root ``0``) or
``r`` (the false arm, root ``0``), where every write of the local ``r`` in the function
is ``MPI_Comm_rank(C, &r)`` with one text ``C``, and ``t`` and ``C`` are fixed: they
read only constants, locals and parameters that the function never assigns (but in
their declaration) and whose address it never takes, and addresses of objects
(``&ompi_mpi_comm_world``, Open MPI's handles).  The broadcast must name the same
``C`` and ``t`` as written.  Then the processes of ``C`` that run the arm are those
whose rank is ``t``: the root alone, and the root does run it whenever it reaches the
test (the arms start at one position: exchanges.py).  A root that differs between
processes is itself warned at the broadcast.  For any other broadcast, or any other
collective (an ``MPI_Allreduce``'s output is not its input), nothing is packed.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.exchanges import Arm, Exchange
from mpicc_wrap.analysis.rankdep.locations import uncast
from mpicc_wrap.analysis.visitor import INCREMENTS
from mpicc_wrap.frontend import positions

__all__ = ["RankLocals", "calls_rank", "copied", "element", "forget", "pack", "root_arm",
           "sent"]

_RANK_CALLS = frozenset({"MPI_Comm_rank", "PMPI_Comm_rank"})


@dataclass(frozen=True)
class RankLocals:
    """Of one function: its locals that only ``MPI_Comm_rank`` writes, with the
    communicator's text, and the names it never assigns after their declaration nor
    takes the address of."""

    ranks: dict[str, str]
    fixed: frozenset[str]

    @staticmethod
    def of(defn_body: c_ast.Node, names: set[str], params: list[str]) -> RankLocals:
        """Scan the body once; ``names``: the function's parameters and locals."""
        rank_calls: dict[str, dict[str, c_ast.Node]] = {}
        written: set[str] = set()
        addressed: set[str] = set()
        declared: set[str] = set(params)
        stack = [defn_body]
        while stack:
            node = stack.pop()
            if isinstance(node, c_ast.Decl) and node.name:
                if node.name in declared:  # two variables of one name: neither is fixed
                    written.add(node.name)
                declared.add(node.name)
            target = _rank_target(node)
            if target is not None:
                comm = node.args.exprs[0]  # type: ignore[union-attr]
                rank_calls.setdefault(target, {})[positions.c_text(comm)] = comm
                stack.append(comm)
                continue
            if isinstance(node, c_ast.Assignment):
                written |= _bases(node.lvalue)
            elif isinstance(node, c_ast.UnaryOp) and node.op in INCREMENTS:
                written |= _bases(node.expr)
            elif isinstance(node, c_ast.UnaryOp) and node.op == "&":
                addressed |= _bases(node.expr)
            stack.extend(child for _, child in node.children())
        fixed = frozenset(names - written - addressed)
        ranks = {r: text for r, comms in rank_calls.items() if len(comms) == 1
                 for text, comm in comms.items()
                 if r in names and r not in written | addressed and _is_fixed(comm, fixed)}
        return RankLocals(ranks, fixed)


def calls_rank(calls: list[str]) -> bool:
    """Some call of a function's ``calls`` (``FunctionFacts.calls``) is
    ``MPI_Comm_rank``: without one, no local of it is a rank (``RankLocals.of``
    finds none, and its scan of the body is skipped: 0.9 of t_filters_parallel.c's
    15.6 s, profiled)."""
    return not _RANK_CALLS.isdisjoint(calls)


def _rank_target(node: c_ast.Node) -> str | None:
    """``MPI_Comm_rank(C, &r)``: r."""
    if not (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID)
            and node.name.name in _RANK_CALLS and node.args is not None
            and len(node.args.exprs) == 2):
        return None
    out = uncast(node.args.exprs[1])
    if isinstance(out, c_ast.UnaryOp) and out.op == "&" and isinstance(out.expr, c_ast.ID):
        return out.expr.name
    return None


def _bases(e: c_ast.Node) -> set[str]:
    """The variable an lvalue designates or is part of (none behind a pointer)."""
    while isinstance(e, (c_ast.StructRef, c_ast.ArrayRef, c_ast.Cast)):
        if isinstance(e, c_ast.StructRef) and e.type == "->":
            return set()
        e = e.name if isinstance(e, (c_ast.StructRef, c_ast.ArrayRef)) else e.expr
    return {e.name} if isinstance(e, c_ast.ID) else set()


def _is_fixed(e: c_ast.Node, fixed: frozenset[str]) -> bool:
    """``e`` reads only constants, ``fixed`` names, and addresses of objects."""
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.UnaryOp) and node.op == "&" \
                and isinstance(node.expr, c_ast.ID):
            continue
        if isinstance(node, c_ast.ID):
            if node.name not in fixed:
                return False
        elif isinstance(node, (c_ast.FuncCall, c_ast.Assignment, c_ast.ArrayRef,
                               c_ast.StructRef)) \
                or isinstance(node, c_ast.UnaryOp) and node.op in INCREMENTS | {"*"}:
            return False
        stack.extend(child for _, child in node.children())
    return True


def root_arm(test: c_ast.Node, facts: RankLocals) -> tuple[bool, tuple[str, str]] | None:
    """Which arm of ``test`` only the root runs (True: the true arm), with the
    (communicator, root) texts it is the root of; None when neither is known to."""
    e = uncast(test)
    if isinstance(e, c_ast.UnaryOp) and e.op == "!" \
            and (comm := _rank_of(e.expr, facts)) is not None:
        return True, (comm, "0")
    if (comm := _rank_of(e, facts)) is not None:
        return False, (comm, "0")
    if not (isinstance(e, c_ast.BinaryOp) and e.op in ("==", "!=")):
        return None
    for r, t in ((e.left, e.right), (e.right, e.left)):
        if (comm := _rank_of(r, facts)) is not None and _is_fixed(t, facts.fixed):
            return e.op == "==", (comm, positions.c_text(t))
    return None


def _rank_of(e: c_ast.Node, facts: RankLocals) -> str | None:
    e = uncast(e)
    return facts.ranks.get(e.name) if isinstance(e, c_ast.ID) else None


def element(lvalue: c_ast.Node) -> tuple[str, str] | None:
    """``buf[K]`` with a constant ``K``: (buf, K's text)."""
    e = uncast(lvalue)
    if isinstance(e, c_ast.ArrayRef) and isinstance(e.name, c_ast.ID) \
            and isinstance(e.subscript, c_ast.Constant):
        return e.name.name, positions.c_text(e.subscript)
    return None


def copied(rvalue: c_ast.Node, arm: Arm) -> Exchange | None:
    """The part of a shared output ``x = rvalue`` copies out in ``arm``, if any."""
    e = uncast(rvalue)
    if isinstance(e, c_ast.ID):
        return arm.last.get(e.name)
    place = element(e)
    if place is None:
        return None
    whole = arm.last.get(place[0])
    return whole[:4] + (f"[{place[1]}]",) if whole is not None and whole[4] == "" \
        else None


def pack(arm: Arm, lvalue: c_ast.Node, rvalue: c_ast.Node, tracked: set[str]) -> None:
    """``buf[K] = x`` in ``arm``: remember that ``x`` is in ``buf[K]``.  Only for a
    tracked local ``x`` (``FunctionFacts.tracked``), every write of which the walk
    sees by its name, so that ``forget`` hears of it."""
    place, value = element(lvalue), uncast(rvalue)
    if place is not None and isinstance(value, c_ast.ID) and value.name != place[0] \
            and value.name in tracked and place[0] in tracked:
        arm.packed.setdefault(place[0], {})[place[1]] = value.name


def forget(arms: list[Arm], name: str, place: tuple[str, str] | None) -> None:
    """A write of ``name`` (``place``: the element it is, when a constant one) ends
    every packing it could change, in every arm being walked."""
    for arm in arms:
        if not arm.packed:
            continue
        if name in arm.packed:
            kept = arm.packed.pop(name)
            if place is not None and place[0] == name:
                kept.pop(place[1], None)
                arm.packed[name] = kept
        for buf, items in list(arm.packed.items()):
            for k in [k for k, x in items.items() if x == name]:
                del items[k]
            if not items:
                del arm.packed[buf]


def sent(arm: Arm, buf: str, packed: dict[str, str], exchange: Exchange) -> None:
    """After ``MPI_Bcast(buf, ...)`` wrote all of ``buf`` as ``exchange``, ``packed``
    being what was packed into ``buf`` before: when only its root runs ``arm``, each
    local packed holds its element of the output."""
    if not packed or arm.root != (exchange[2], exchange[3]) \
            or arm.last.get(buf) != exchange:
        return
    for k, x in packed.items():
        arm.last[x] = exchange[:4] + (f"[{k}]",)
