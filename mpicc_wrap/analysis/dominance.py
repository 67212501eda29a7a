"""Postdominance, postdominance frontiers and their iterated, set-valued form.

Graphs are plain successor maps ``{node: [succ, ...]}`` with one ``exit`` every node
can reach (cfg.py adds fake exit edges for infinite loops; orders.py does the same
for its acyclic regions).  Definitions follow PARCOACH §3.1: ``u`` postdominates
``v`` when every path from ``v`` to exit goes through ``u``; a set ``U`` postdominates
``v`` when every such path goes through some node of ``U``;
``PDF(U) = {v | ∃ w ∈ succ(v), U ⊒ w and U does not postdominate v}``; ``PDF+`` is
its transitive closure.
"""

from __future__ import annotations

from collections.abc import Iterable

from mpicc_wrap.analysis import graphs

Graph = dict[int, list[int]]


reverse = graphs.predecessors  # the predecessor map of a successor map


def postdominators(succs: Graph, exit_node: int) -> dict[int, int]:
    """Immediate postdominator of every node that reaches exit (exit maps to itself).

    Cooper, Harvey and Kennedy's iterative dominator algorithm run on the reverse
    graph rooted at exit."""
    preds = reverse(succs)
    post = graphs.postorder(lambda n: preds.get(n, ()), [exit_node])
    index = {n: i for i, n in enumerate(post)}
    idom = {exit_node: exit_node}

    def intersect(a: int, b: int) -> int:
        while a != b:
            while index[a] < index[b]:
                a = idom[a]
            while index[b] < index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for n in reversed(post):
            if n == exit_node:
                continue
            done = [s for s in succs.get(n, ()) if s in idom]
            if not done:
                continue
            new = done[0]
            for s in done[1:]:
                new = intersect(s, new)
            if idom.get(n) != new:
                idom[n] = new
                changed = True
    return idom


def frontiers(succs: Graph, ipdom: dict[int, int]) -> dict[int, set[int]]:
    """Postdominance frontier of every single node (the dominance-frontier walk of
    Cooper et al. on the reverse graph)."""
    result: dict[int, set[int]] = {n: set() for n in ipdom}
    for v, ss in succs.items():
        if len(set(ss)) < 2 or v not in ipdom:
            continue
        for w in set(ss):
            runner = w
            while runner in ipdom and runner != ipdom[v]:
                result[runner].add(v)
                runner = ipdom[runner]
    return result


def postdominated(succs: Graph, exit_node: int, group: Iterable[int],
                  preds: Graph | None = None) -> set[int]:
    """Nodes from which every path to exit meets ``group`` (the set relation);
    ``preds`` is ``reverse(succs)`` when the caller already has it."""
    members = set(group)
    preds = reverse(succs) if preds is None else preds
    escape = set() if exit_node in members else graphs.reachable(
        lambda n: preds.get(n, ()), [exit_node], lambda p: p not in members)
    return {n for n in succs if n not in escape} | members


def pdf_set(succs: Graph, exit_node: int, group: Iterable[int],
            preds: Graph | None = None) -> set[int]:
    """PDF(U) for a set U (PARCOACH §3.1)."""
    covered = postdominated(succs, exit_node, group, preds)
    return {v for v, ss in succs.items()
            if v not in covered and any(w in covered for w in ss)}


def pdf_plus(succs: Graph, exit_node: int, group: Iterable[int],
             preds: Graph | None = None) -> set[int]:
    """Iterated postdominance frontier PDF+(U): the closure X = PDF(U ∪ X)."""
    base = set(group)
    preds = reverse(succs) if preds is None else preds
    result: set[int] = set()
    while True:
        new = pdf_set(succs, exit_node, base | result, preds)
        if new <= result:
            return result
        result |= new
