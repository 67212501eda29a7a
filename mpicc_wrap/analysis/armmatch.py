"""The two arms of a per-process test must make a cluster's collective alike
(barrier matching §4-5, beyond PARCOACH).

PARCOACH's Algorithm 1 (§3.1) flags a cluster when a node of its PDF+ is
rank-dependent.  A per-process test whose arms *both* decide the cluster is not in
PDF+: every path from it meets a site or a deciding node, so it is postdominated by
the group.  When those deciding nodes are uniform the cluster was silent, yet
``if (rank == 0) { if (argc > 1) MPI_Barrier(c); } else { if (argc <= 1)
MPI_Barrier(c); }`` hangs for every ``argc``: "uniform" holds among the processes that
reach a node, and the two tests are reached by different processes and ask different
things.

The barrier-matching paper compares the barrier expressions of the two arms of a
multi-valued branch (§4: concatenation, alternation, repetition; §5: a branch is
safe when its arms' expressions are equal).  Here, per cluster, each arm of a
per-process test ``R`` gets the expression of the cluster's sites between ``R``'s
successor and its immediate postdominator ``J`` (the join of the arms): a site is
``S``, and a branch whose own arms give different expressions is the alternation
``(key, arms)``.  A branch whose arms give the same expression is left out (it decides
nothing for the cluster).  ``R`` is safe when its arms' expressions are equal; a
branch's ``key`` is equal in both arms only when its test is provably the same value on
every process (``keys`` decides that; otherwise it is the node itself, never equal to
another).  An unsafe ``R`` decides the cluster like a node of PDF+.

Soundness: on the acyclic region each process runs one path from ``R`` to ``J``; the
number of the cluster's collectives it makes there is the expression evaluated with
the outcomes of the branches on its path.  Equal expressions whose keys are values
every process shares evaluate alike on every process, whichever arm it took.  A
branch whose two arms give the same expression contributes nothing either way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import cast

from mpicc_wrap.analysis import graphs
from mpicc_wrap.analysis.dominance import Graph, reverse

__all__ = ["Expr", "immediate_postdominators", "arm_expressions", "unmatched"]

# ("S", site) for a site, (key, (arm, ...)) for a branch whose arms differ
Expr = tuple[tuple[object, ...], ...]


def immediate_postdominators(succs: Graph, exit_node: int) -> dict[int, int]:
    """Immediate postdominator of every node of the acyclic ``succs`` that reaches
    ``exit_node`` (the exit maps to itself): successors first, each node's is the
    nearest common postdominator of its successors' (Cooper, Harvey, Kennedy)."""
    order = list(graphs.postorder(lambda n: succs.get(n, ()), sorted(succs)))
    rank = {n: i for i, n in enumerate(order)}  # successors before predecessors
    ipdom: dict[int, int] = {exit_node: exit_node}
    for n in order:
        if n == exit_node:
            continue
        found: int | None = None
        for s in succs.get(n, ()):
            if s not in ipdom:
                continue
            found = s if found is None else _meet(ipdom, rank, found, s)
        if found is not None:
            ipdom[n] = found
    return ipdom


def _meet(ipdom: dict[int, int], rank: dict[int, int], a: int, b: int) -> int:
    """The nearest common postdominator of ``a`` and ``b``: the one farther from the
    exit (the higher postorder rank) climbs first."""
    while a != b:
        while rank[a] > rank[b]:
            a = ipdom[a]
        while rank[b] > rank[a]:
            b = ipdom[b]
    return a


class _Expressions:
    """The cluster expressions of paths between two nodes, memoised."""

    def __init__(self, succs: Graph, exit_node: int, sites: set[int],
                 key: Callable[[int], Hashable], ipdom: dict[int, int]) -> None:
        self.succs, self.exit, self.sites, self.key = succs, exit_node, sites, key
        self.ipdom = ipdom
        self.memo: dict[tuple[int, int], Expr] = {}

    def between(self, n: int, stop: int) -> Expr:
        """The expression of the paths from ``n`` up to (not including) ``stop``."""
        if (n, stop) in self.memo:
            return self.memo[n, stop]
        items: list[tuple[object, ...]] = []
        start = n
        while n != stop and n != self.exit and n in self.ipdom:
            if n in self.sites:
                items.append(("S", n))
            arms = list(dict.fromkeys(self.succs.get(n, ())))
            if len(arms) > 1:
                join = self.ipdom[n]
                exprs = tuple(self.between(s, join) for s in arms)
                if len({_shape(e) for e in exprs}) > 1:
                    items.append((self.key(n), exprs))
                n = join
            elif arms:
                n = arms[0]
            else:
                break
        self.memo[start, stop] = result = tuple(items)
        return result


def _shape(e: Expr) -> Hashable:
    """An expression without the site nodes: two arms calling the cluster's collective
    at different sites make the same collective."""
    return tuple(("S",) if item[0] == "S" else
                 (item[0], tuple(_shape(a) for a in cast(tuple[Expr, ...], item[1])))
                 for item in e)


def arm_expressions(succs: Graph, exit_node: int, sites: Iterable[int], node: int,
                    key: Callable[[int], Hashable],
                    ipdom: dict[int, int] | None = None) -> tuple[Expr, ...]:
    """The cluster expression of each distinct successor of ``node`` up to its join."""
    ipdom = immediate_postdominators(succs, exit_node) if ipdom is None else ipdom
    walker = _Expressions(succs, exit_node, set(sites), key, ipdom)
    join = ipdom.get(node, exit_node)
    return tuple(walker.between(s, join) for s in dict.fromkeys(succs.get(node, ())))


def unmatched(succs: Graph, exit_node: int, sites: Iterable[int], frontier: set[int],
              per_process: Callable[[int], bool], key: Callable[[int, int], Hashable]
              ) -> dict[int, tuple[Expr, ...]]:
    """The per-process branches outside ``frontier`` that reach it and whose arms make
    the cluster's collective differently, each with its arms' expressions
    (``key(r, n)``: the key of branch ``n`` inside the arms of ``r``)."""
    preds = reverse(succs)
    inside = graphs.reachable(lambda n: preds.get(n, ()), list(frontier))
    candidates = [n for n in sorted(inside) if n not in frontier
                  and len(set(succs.get(n, ()))) > 1 and per_process(n)]
    if not candidates:
        return {}
    ipdom = immediate_postdominators(succs, exit_node)
    site_set = set(sites)
    found: dict[int, tuple[Expr, ...]] = {}
    for n in candidates:
        if n not in ipdom:
            continue
        exprs = arm_expressions(succs, exit_node, site_set, n,
                                lambda v, r=n: key(r, v), ipdom)  # type: ignore[misc]
        if len({_shape(e) for e in exprs}) > 1:
            found[n] = exprs
    return found
