"""Set-valued postdominance, its frontier PDF(U) and the iterated frontier PDF+(U).

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
from typing import NamedTuple

from mpicc_wrap.analysis import graphs

Graph = dict[int, list[int]]


reverse = graphs.predecessors  # the predecessor map of a successor map


def postdominated(succs: Graph, exit_node: int, group: Iterable[int],
                  preds: Graph | None = None) -> set[int]:
    """Nodes from which every path to exit meets ``group`` (the set relation);
    ``preds`` is ``reverse(succs)`` when the caller already has it.  The nodes that
    escape are those exit reaches backwards without entering ``group`` (the walk is
    written out: it is the analysis' innermost loop on large functions)."""
    members = set(group)
    preds = reverse(succs) if preds is None else preds
    escape: set[int] = set()
    if exit_node not in members:
        escape.add(exit_node)
        stack = [exit_node]
        while stack:
            for p in preds.get(stack.pop(), ()):
                if p not in escape and p not in members:
                    escape.add(p)
                    stack.append(p)
    return (succs.keys() - escape) | members


def pdf_set(succs: Graph, exit_node: int, group: Iterable[int],
            preds: Graph | None = None) -> set[int]:
    """PDF(U) for a set U (PARCOACH §3.1): the nodes not postdominated by U with a
    successor that is (found from the covered side, through ``preds``)."""
    preds = reverse(succs) if preds is None else preds
    covered = postdominated(succs, exit_node, group, preds)
    return {v for w in covered for v in preds.get(w, ()) if v not in covered}


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


class Condensed(NamedTuple):
    """A graph reduced by ``condense``: its successor and predecessor maps, and for
    every node of the original the kept node that stands in for it."""

    succs: Graph
    preds: Graph
    stand_in: dict[int, int]


def condense(succs: Graph, exit_node: int, keep: Iterable[int]) -> Condensed:
    """``succs`` reduced to ``keep``, exit and the nodes that still branch once every
    other node is replaced by the kept node it leads to (its ``stand_in``).

    Exact for groups of kept nodes (beyond PARCOACH, which walks the whole CFG for each
    cluster): a node outside the group whose successors all stand for one node is
    postdominated by the group exactly when that node is, and is never in PDF (with
    that node covered, so is it); so postdominance of the kept nodes, PDF and PDF+ are
    the same on both graphs.  Large functions are mostly such nodes (statements
    between calls, branches whose arms hold no event), and Algorithm 1 computes one
    PDF+ per cluster.  ``succs`` must be acyclic (Algorithm 1's regions)."""
    kept = set(keep) | {exit_node}
    nodes = set(succs).union(*succs.values())
    stand_in: dict[int, int] = {}
    reduced: Graph = {}
    for n in graphs.postorder(lambda n: succs.get(n, ()), sorted(nodes)):  # successors first
        after = list(dict.fromkeys(stand_in[s] for s in succs.get(n, ())))
        if n in kept or len(after) != 1:
            stand_in[n] = n
            reduced[n] = after
        else:
            stand_in[n] = after[0]
    return Condensed(reduced, reverse(reduced), stand_in)
