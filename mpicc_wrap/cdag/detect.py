"""Collective detection on the SST form (paper §2.4, Alg. 5) and on process subsets
(§4.2), plus reduce-like trees and barriers.

Flows are grouped by size and by (source, destination) pair; each pair keeps its
flows in order (final receives before transit copies).  Per size, from the most to
the least abstract pattern (§2.4.2):

1. all pairs present: allgather (every source sends the same data to everyone) or
   alltoall (different data per destination) — Alg. 5 lines 3-9;
2. one root and every other process: broadcast (the same data) or scatter (distinct
   addresses at the root), and gather (distinct addresses at the root) — lines 10-23;
3. reduce-like trees: every process but the root sends the size to one parent, the
   parents form a tree into the root (a star or a binomial tree), into which the
   data is combined (the combining itself is local and unseen);
4. §4.2: the same rooted patterns on the largest process subsets, root = the process
   with the most flows; a subset pattern must repeat (SUBSET_REPEATS times).

Each pattern repeats as often as its scarcest pair allows (§2.4.3: detect, remove,
repeat).  Guards keep exchanges out: a rooted pattern whose every member also sends
the root the same size is a neighbourhood exchange (a stencil), not a collective;
patterns need MIN_RANKS processes (with two, any message is a "broadcast"); zero-byte
flows carry no data; flows into MPI_ANY_SOURCE receives do not form reduce-like trees
(a master collecting results).  Barriers (zero- and few-byte messages) are found with
wait sets (§2.4 "Barrier Collectives", §4.1).
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

from mpicc_wrap.cdag.dataflow import SST, Flow
from mpicc_wrap.cdag.graph import Graph
from mpicc_wrap.cdag.matching import Matching
from mpicc_wrap.cdag.waitsets import has_barrier_semantics, wait_sets

__all__ = ["MIN_RANKS", "Instance", "detect"]

MIN_RANKS = 3
SUBSET_REPEATS = 2  # a subset pattern seen once is as likely a few unrelated messages
BARRIER_BYTES = 4  # messages up to this size may be barrier tokens


@dataclass
class Instance:
    """One detected collective: its name, root, process set, block size, and the
    flows (or, for barriers, operations) that form it."""

    name: str
    root: int | None
    ranks: tuple[int, ...]
    size: int
    flows: list[Flow] = field(default_factory=list)
    ops: set[int] = field(default_factory=set)
    subset: bool = False

    def op_ids(self) -> set[int]:
        """Every operation taking part: original sends, forwarding sends, receives."""
        out = set(self.ops)
        for f in self.flows:
            out.update((f.origin, f.send, f.recv))
        return out


class _Pairs:
    """Flows of one size by (source, destination), consumed front to back."""

    def __init__(self, flows: list[Flow]) -> None:
        table: dict[tuple[int, int], list[Flow]] = defaultdict(list)
        for f in flows:
            if f.src != f.dst:
                table[(f.src, f.dst)].append(f)
        self.q = {k: deque(sorted(v, key=lambda f: f.forwarded)) for k, v in table.items()}

    def count(self, src: int, dst: int) -> int:
        q = self.q.get((src, dst))
        return len(q) if q else 0

    def take(self, src: int, dst: int) -> Flow:
        return self.q[(src, dst)].popleft()

    def live(self) -> list[tuple[int, int]]:
        return [k for k, q in self.q.items() if q]


def _same_data(graph: Graph, flows: list[Flow]) -> bool:
    """The flows carry one block: read at one address, by original sends that held the
    same bytes.  Content hashes cover a whole send, so they compare only sends of the
    same extent (recursive doubling sends a block first alone, then inside a larger
    message: the same data, hashed differently)."""
    if len({f.src_addr for f in flows}) != 1:
        return False
    content: dict[tuple[int, int], int] = {}
    for f in flows:
        origin = graph.ops[f.origin]
        if content.setdefault((origin.addr, origin.size), origin.content) != origin.content:
            return False
    return True


def _distinct(addrs: list[int]) -> bool:
    return len(set(addrs)) == len(addrs)


def _all_to_all(graph: Graph, pairs: _Pairs, p: int, size: int) -> list[Instance]:
    """Alg. 5 lines 3-9: p(p-1) pairs -> allgather or alltoall, once per instance."""
    live = pairs.live()
    if p < MIN_RANKS or len(live) != p * (p - 1):
        return []
    k = min(pairs.count(a, b) for a, b in live)
    out = []
    for _ in range(k):
        taken = {(a, b): pairs.take(a, b) for a, b in live}
        by_src = defaultdict(list)
        for (a, _b), f in taken.items():
            by_src[a].append(f)
        gather = all(_same_data(graph, fs) for fs in by_src.values())
        name = "MPI_Allgather" if gather else "MPI_Alltoall"
        out.append(Instance(name, None, tuple(range(p)), size, list(taken.values())))
    return out


def _exchange(pairs: _Pairs, root: int, members: list[int], outward: bool) -> bool:
    """Every member also sends to (outward) / receives from the root: an exchange."""
    if outward:
        return all(pairs.count(m, root) for m in members)
    return all(pairs.count(root, m) for m in members)


def _rooted(graph: Graph, pairs: _Pairs, root: int, members: list[int], size: int,
            outward: bool, subset: bool) -> list[Instance]:
    """Alg. 5 lines 10-23 for one root and member set: bcast/scatter (outward) or
    gather (inward), as many instances as the scarcest pair allows."""
    if len(members) + 1 < MIN_RANKS or _exchange(pairs, root, members, outward):
        return []
    ends = [(root, m) if outward else (m, root) for m in members]
    k = min(pairs.count(a, b) for a, b in ends)
    if subset and k < SUBSET_REPEATS:
        return []
    ranks = tuple(sorted([root, *members]))
    out = []
    for _ in range(k):
        flows = [pairs.q[e][0] for e in ends]
        if outward and _same_data(graph, flows):
            name = "MPI_Bcast"
        elif outward and _distinct([f.src_addr for f in flows]):
            name = "MPI_Scatter"
        elif not outward and _distinct([f.dst_addr for f in flows]):
            name = "MPI_Gather"
        else:
            break  # mixed data: not this collective
        for e in ends:
            pairs.take(*e)
        out.append(Instance(name, root, ranks, size, flows, subset=subset))
    return out


def _full_rooted(graph: Graph, pairs: _Pairs, p: int, size: int) -> list[Instance]:
    """Roots whose flows reach (or come from) every other process: O(pairs)."""
    out: list[Instance] = []
    for outward in (True, False):
        for r, peers in _fans(pairs, outward, finals_only=False).items():
            if len(peers) == p - 1:
                out += _rooted(graph, pairs, r, sorted(peers), size, outward, False)
    return out


def _fans(pairs: _Pairs, outward: bool, finals_only: bool) -> dict[int, set[int]]:
    """Per process, the peers it has live flows to (outward) or from."""
    fan: dict[int, set[int]] = defaultdict(set)
    for a, b in pairs.live():
        if finals_only and pairs.q[(a, b)][0].forwarded:
            continue
        if outward:
            fan[a].add(b)
        else:
            fan[b].add(a)
    return fan


def _reduce_tree(graph: Graph, pairs: _Pairs, p: int, size: int) -> list[Instance]:
    """A reduce-like tree: each non-root sends to one parent, parents lead to the root,
    the root has at least two children; instances = the scarcest edge's count."""
    parent: dict[int, int] = {}
    for a, b in pairs.live():
        usable = [f for f in pairs.q[(a, b)]
                  if not f.forwarded and not graph.ops[f.recv].wildcard]
        if not usable:
            continue
        if a in parent:
            return []  # two parents: not a tree
        parent[a] = b
    roots = {r for r in range(p) if r not in parent}
    if p < MIN_RANKS or len(roots) != 1 or len(parent) != p - 1:
        return []
    root = roots.pop()
    if sum(1 for b in parent.values() if b == root) < 2:
        return []  # a chain is a pipeline
    for start in parent:  # every path ends at the root (no cycle)
        seen, at = 0, start
        while at != root and seen <= p:
            at, seen = parent[at], seen + 1
        if at != root:
            return []
    edges = list(parent.items())
    if all(pairs.count(b, a) for a, b in edges):
        return []  # every edge also carries data back: an exchange
    k = min(pairs.count(a, b) for a, b in edges)
    out = []
    for _ in range(k):
        flows = [pairs.take(a, b) for a, b in edges]
        out.append(Instance("MPI_Reduce", root, tuple(range(p)), size, flows))
    return out


def _subsets(graph: Graph, pairs: _Pairs, size: int) -> list[Instance]:
    """§4.2: the root with the most distinct peers roots the largest subset pattern;
    remove its flows and go on with the next largest (one pass per direction)."""
    out: list[Instance] = []
    for outward in (True, False):
        fan = _fans(pairs, outward, finals_only=True)
        big = [r for r in fan if len(fan[r]) + 1 >= MIN_RANKS]
        for root in sorted(big, key=lambda r: (-len(fan[r]), r)):
            members = sorted(m for m in fan[root]
                             if pairs.count(*((root, m) if outward else (m, root))))
            out += _rooted(graph, pairs, root, members, size, outward, True)
    return out


def _barriers(graph: Graph, matching: Matching, p: int, used: set[int]) -> list[Instance]:
    """Barriers: per (communicator, tag), token messages that every process sends and
    receives alike, cut into periods; a period after which every wait set is complete
    (§2.4, §4.1) is a barrier."""
    if p < MIN_RANKS:
        return []
    classes: dict[tuple[int, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, op in enumerate(graph.ops):
        if matching.partner[i] >= 0 and op.size <= BARRIER_BYTES and i not in used:
            classes[(op.comm, op.tag)][op.rank].append(i)
    out: list[Instance] = []
    for per_rank in classes.values():
        if len(per_rank) != p:
            continue
        period = _period(graph, per_rank)
        if not period:
            continue
        rounds = len(per_rank[0]) // period
        for t in range(rounds):
            chosen = sorted(i for r in range(p) for i in per_rank[r][t * period:(t + 1) * period])
            masks = wait_sets(graph, matching, chosen)
            if not has_barrier_semantics(masks, list(range(p))):
                break
            out.append(Instance("MPI_Barrier", None, tuple(range(p)), 0, ops=set(chosen)))
    return out


def _period(graph: Graph, per_rank: dict[int, list[int]]) -> int:
    """The common length of one round: the smallest m with every rank's sequence of
    (kind, peer offset) repeating every m operations; 0 when none."""
    lengths = {len(v) for v in per_rank.values()}
    if len(lengths) != 1:
        return 0
    n = lengths.pop()
    for m in range(1, n + 1):
        if n % m == 0 and all(_repeats(graph, seq, m) for seq in per_rank.values()):
            return m
    return 0


def _repeats(graph: Graph, seq: list[int], m: int) -> bool:
    ops = graph.ops
    shape = [(ops[i].kind, ops[i].peer) for i in seq]
    return all(shape[i] == shape[i % m] for i in range(len(shape)))


def detect(graph: Graph, matching: Matching, sst: SST) -> list[Instance]:
    """Alg. 5 and §4.2 over every size present in the SST form."""
    p = graph.nranks
    by_size: dict[int, list[Flow]] = defaultdict(list)
    for f in sst.flows:
        if f.size > 0:
            by_size[f.size].append(f)
    out: list[Instance] = []
    for size in sorted(by_size):
        pairs = _Pairs(by_size[size])
        out += _all_to_all(graph, pairs, p, size)
        out += _full_rooted(graph, pairs, p, size)
        out += _reduce_tree(graph, pairs, p, size)
        out += _subsets(graph, pairs, size)
    used = {i for inst in out for i in inst.op_ids()}
    return out + _barriers(graph, matching, p, used)
