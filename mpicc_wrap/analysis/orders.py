"""PARCOACH Algorithm 1 (§3.1, "Step 1 - Static Pass") on one CFG.

Back edges are removed (DFS from entry) and the function is analysed as an acyclic
graph; every loop is also analysed on its own, its header being both entry and exit
(the copy ``loop_exit``), so a collective in a loop whose trip count may differ
between processes is blamed on the loop's exit condition.  In each such region every
node gets its execution order (the largest number of collective events on a path
from the region entry), events are clustered by (order, name) and the iterated
postdominance frontier of each cluster gives the nodes that decide whether the
cluster's collective is executed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from mpicc_wrap.analysis import graphs
from mpicc_wrap.analysis.cfg import CFG
from mpicc_wrap.analysis.dominance import (
    Condensed,
    Graph,
    condense,
    pdf_plus,
    postdominated,
    reverse,
)

Events = dict[int, list[str]]  # node -> collective tokens it executes, in order
# Two collective tokens whose relative order does not matter (``token_classes``).
Independent = Callable[[str, str], bool]
MAX_SEQUENCE = 64  # longer fixed sequences are not summarised (precision, not soundness)


@dataclass
class Region:
    """An acyclic graph analysed by Algorithm 1: the function or one loop."""

    succs: Graph
    entry: int
    exit: int
    header: int | None = None  # the loop header, None for the whole function
    body: set[int] = field(default_factory=set)  # CFG nodes of the loop
    exits: set[int] = field(default_factory=set)  # branches that may leave the loop
    _preds: Graph | None = field(default=None, repr=False, compare=False)
    _leaders: dict[int, int] | None = field(default=None, repr=False, compare=False)
    # PDF+ by the chain leaders of a cluster's sites (``clusters``)
    frontiers: dict[frozenset[int], set[int]] = field(default_factory=dict, repr=False,
                                                     compare=False)
    _condensed: dict[frozenset[int], Condensed] = field(default_factory=dict, repr=False,
                                                        compare=False)

    @property
    def preds(self) -> Graph:
        """The predecessor map of ``succs``, computed once (regions are not changed
        after ``regions`` builds them)."""
        if self._preds is None:
            self._preds = reverse(self.succs)
        return self._preds

    @property
    def leaders(self) -> dict[int, int]:
        """Node -> the first node of its chain: the longest path ending at the node
        whose every edge is the only way out of its source and the only way into its
        target (a basic block of the region).  Two site sets with the same leaders
        have the same PDF+: every path into a chain runs through it up to its end, so
        a set meets it or not wherever in the chain its member is, and a node inside a
        chain (one successor) is never in a frontier."""
        if self._leaders is None:
            preds = self.preds
            lead: dict[int, int] = {}
            for n in _topological(self):
                ps = preds.get(n, [])
                single = len(ps) == 1 and len(set(self.succs.get(ps[0], ()))) == 1
                lead[n] = lead.get(ps[0], ps[0]) if single else n
            self._leaders = lead
        return self._leaders

    def condensed(self, events: Events) -> Condensed:
        """The region reduced to its event nodes, loop exits and branches
        (``dominance.condense``), once per set of event nodes."""
        keep = frozenset(n for n in self.succs if n in events) | self.exits
        if keep not in self._condensed:
            self._condensed[keep] = condense(self.succs, self.exit, keep)
        return self._condensed[keep]


@dataclass
class Cluster:
    """C(r, c) with its iterated postdominance frontier."""

    order: int
    name: str
    sites: list[int]
    frontier: set[int]
    region: Region
    graph: Condensed | None = None  # the condensed region its frontier was computed on


def back_edges(cfg: CFG) -> set[tuple[int, int]]:
    """Edges to a node on the DFS stack (entry-rooted depth-first search)."""
    result: set[tuple[int, int]] = set()
    on_stack, seen = {cfg.entry}, {cfg.entry}
    stack = [(cfg.entry, iter(cfg.nodes[cfg.entry].succs))]
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            on_stack.discard(node)
            stack.pop()
        elif nxt in on_stack:
            result.add((node, nxt))
        elif nxt not in seen:
            seen.add(nxt)
            on_stack.add(nxt)
            stack.append((nxt, iter(cfg.nodes[nxt].succs)))
    return result


def _close(succs: Graph, exit_node: int) -> Graph:
    """Send every sink other than exit to exit (acyclic: all nodes then reach exit)."""
    succs.setdefault(exit_node, [])
    for n, ss in succs.items():
        if not ss and n != exit_node:
            ss.append(exit_node)
    return succs


def _reachable(succs: Graph, start: int) -> set[int]:
    return graphs.reachable(lambda n: succs.get(n, ()), [start])


def _bodies(cfg: CFG, backs: set[tuple[int, int]], reach: set[int]) -> dict[int, set[int]]:
    """Natural loop of every back-edge target: the nodes reaching a back-edge source
    without passing the header."""
    preds = cfg.preds()
    sources: dict[int, list[int]] = {}
    for u, h in sorted(backs):
        sources.setdefault(h, []).append(u)
    return {header: graphs.reachable(preds.__getitem__, sources[header], reach.__contains__,
                                     {header})
            for header in sorted(sources)}


def _afters(cfg: CFG, bodies: dict[int, set[int]]) -> dict[int, list[int]]:
    """Where a loop continues: the node after a structured loop, else (goto loops)
    every target of an edge leaving the loop."""
    result = {}
    for header, body in bodies.items():
        if header in cfg.loop_after:
            result[header] = [cfg.loop_after[header]]
        else:
            result[header] = sorted({s for n in body for s in cfg.nodes[n].succs
                                     if s not in body and s not in cfg.nodes[n].fake})
    return result


def _redirect(backs: set[tuple[int, int]], afters: dict[int, list[int]], node: int,
              succs: list[int]) -> list[int]:
    """Successors with back edges replaced by the loop's continuation (the loop is
    then seen as executed zero or one time)."""
    out: list[int] = []
    for s in succs:
        out += afters[s] if (node, s) in backs else [s]
    return out


def _loop_exits(cfg: CFG, body: set[int]) -> set[int]:
    """Branches of a loop with one way out of the loop and one way round it."""
    result = set()
    for n in body:
        node = cfg.nodes[n]
        real = [s for s in node.succs if s not in node.fake]
        if node.kind == "branch" and any(s in body for s in real) and any(
                s not in body for s in real):
            result.add(n)
    return result


def regions(cfg: CFG) -> list[Region]:
    """The function region and one region per loop header, built once per CFG (the
    summary's ``fixed_sequence`` and the findings' passes share them)."""
    found = cfg.memo.get("regions")
    if found is None:
        found = cfg.memo["regions"] = _build_regions(cfg)
    return cast(list[Region], found)


def _build_regions(cfg: CFG) -> list[Region]:
    backs = back_edges(cfg)
    reach = cfg.reachable()
    bodies = _bodies(cfg, backs, reach)
    afters = _afters(cfg, bodies)
    func = {n: _redirect(backs, afters, n, cfg.nodes[n].succs) for n in reach}
    result = [Region(_close(func, cfg.exit), cfg.entry, cfg.exit)]
    copy_base = len(cfg.nodes)
    for header, body in bodies.items():
        loop_exit = copy_base + header
        succs: Graph = {}
        for n in body:
            succs[n] = [loop_exit if s == header or s not in body else s
                        for t in cfg.nodes[n].succs
                        for s in ([t] if t == header else _redirect(backs, afters, n, [t]))]
        region = Region(_close(succs, loop_exit), header, loop_exit, header, body,
                        _loop_exits(cfg, body))
        keep = _reachable(region.succs, header)
        region.succs = {n: ss for n, ss in region.succs.items() if n in keep}
        result.append(region)
    return result


def _topological(region: Region) -> list[int]:
    indeg = {n: 0 for n in region.succs}
    for ss in region.succs.values():
        for s in ss:
            indeg[s] = indeg.get(s, 0) + 1
    queue = deque(n for n, d in indeg.items() if d == 0)
    order = []
    while queue:
        n = queue.popleft()
        order.append(n)
        for s in region.succs.get(n, ()):
            indeg[s] -= 1
            if indeg[s] == 0:
                queue.append(s)
    return order


def execution_orders(region: Region, events: Events) -> dict[int, int]:
    """Max number of collective events on a path from the region entry to each node
    (0 up to and including the first collective, PARCOACH §3.1)."""
    order = {n: 0 for n in region.succs}
    for n in _topological(region):
        step = order[n] + len(events.get(n, ()))
        for s in region.succs.get(n, ()):
            order[s] = max(order.get(s, 0), step)
    return order


def clusters(region: Region, events: Events,
             decides: Callable[[int], bool] | None = None,
             only: set[int] | None = None,
             independent: Independent | None = None,
             classes: list[tuple[set[str], Events]] | None = None) -> list[Cluster]:
    """Algorithm 1 lines 4-9: every C(r, c) and its PDF+ (possibly empty).

    With ``decides`` (the branch nodes whose condition matters: rank-dependent ones),
    a cluster that no such node can reach gets an empty PDF+ without computing it:
    PDF+(U) holds only nodes that reach U, so it could hold none of them.  With
    ``only``, the clusters without a site in it are left out (the caller wants those
    sites' clusters alone).  With ``independent`` (two tokens that need not keep
    their relative order), a token's order counts only the events it depends on
    (``token_classes``, or ``classes`` when the caller has them)."""
    if not any(n in events for n in region.succs if n != region.entry):
        return []  # no collective in the region (most loops): no cluster to order
    groups: dict[tuple[int, str], list[int]] = {}
    for members, counted in classes or token_classes(events, independent):
        order = execution_orders(region, counted)
        for n in sorted(region.succs):
            # a call whose callee runs k collectives holds orders r .. r+k-1, so it
            # matches the same collectives written inline
            for j, token in enumerate(counted.get(n, []) if n != region.entry else []):
                if token in members:
                    groups.setdefault((order[n] + j, token), []).append(n)
    # A collective in a loop runs as many times as the loop iterates: the branches
    # that may leave the loop decide it too (PARCOACH §3.1 blames the loop header).
    reached = _downstream(region, decides) if decides is not None else None
    graph: Condensed | None = None
    result = []
    for (r, name), sites in sorted(groups.items()):
        if only is not None and only.isdisjoint(sites):
            continue
        if reached is None or reached.intersection(sites):
            key = frozenset(region.leaders.get(n, n) for n in sites)
            graph = graph or region.condensed(events)
            if key not in region.frontiers:
                region.frontiers[key] = pdf_plus(graph.succs, region.exit, sites, graph.preds)
            frontier = set(region.frontiers[key])
        else:
            frontier = set()
        result.append(Cluster(r, name, sites, frontier | region.exits, region, graph))
    return result


def partners(region: Region, events: Events, node: int,
             independent: Independent | None = None) -> set[int]:
    """The other sites of ``region`` that Algorithm 1 puts in a cluster with one of
    ``node``'s collectives (the same token at the same execution order, ``clusters``):
    the calls other processes may make instead of ``node``'s, matched with it."""
    found: set[int] = set()
    if node not in region.succs or node == region.entry:
        return found
    for members, counted in token_classes(events, independent):
        mine = [t for t in counted.get(node, []) if t in members]
        if not mine:
            continue
        order = execution_orders(region, counted)
        keys = {(order[node] + j, t) for j, t in enumerate(counted[node]) if t in members}
        found |= {n for n in region.succs if n not in (node, region.entry)
                  and any((order[n] + j, t) in keys
                          for j, t in enumerate(counted.get(n, [])) if t in members)}
    return found


def token_classes(events: Events, independent: Independent | None
                  ) -> list[tuple[set[str], Events]]:
    """The tokens grouped by the set of tokens their execution order counts, each
    group with the events restricted to that set (beyond PARCOACH, which counts every
    collective: MPI orders collectives per communicator, and a nonblocking one does not
    wait for anything, so a nonblocking call on one communicator and any call on a
    provably different one may come in either order without a deadlock; two blocking
    calls on different communicators still count, each can wait for the other)."""
    tokens = sorted({t for ts in events.values() for t in ts})
    if independent is None or len(tokens) < 2:
        return [(set(tokens), events)]
    by_counted: dict[frozenset[str], set[str]] = {}
    for t in tokens:
        counted = frozenset(u for u in tokens if u == t or not independent(u, t))
        by_counted.setdefault(counted, set()).add(t)
    if len(by_counted) == 1:
        return [(set(tokens), events)]
    return [(members, {n: kept for n, ts in events.items()
                       if (kept := [t for t in ts if t in counted])})
            for counted, members in by_counted.items()]


def _downstream(region: Region, decides: Callable[[int], bool]) -> set[int]:
    """Nodes reachable from a branch node of the region for which ``decides`` holds."""
    starts = [n for n, ss in region.succs.items() if len(set(ss)) > 1 and decides(n)]
    return graphs.reachable(lambda n: region.succs.get(n, ()), starts)


def static_pass(cfg: CFG, events: Events,
                decides: Callable[[int], bool] | None = None,
                only: set[int] | None = None,
                found: list[Region] | None = None,
                independent: Independent | None = None) -> list[Cluster]:
    """Algorithm 1 on the function and on each loop: clusters with a non-empty PDF+
    (see ``clusters`` for ``decides``, ``only`` and ``independent``; ``found``:
    ``regions(cfg)`` when the caller keeps them, with the frontiers they memoise,
    across passes)."""
    classes = token_classes(events, independent)
    return [c for region in (found if found is not None else regions(cfg))
            for c in clusters(region, events, decides, only, independent, classes)
            if c.frontier]


def frontier_without(cluster: Cluster, cut: set[tuple[int, int]]) -> set[int]:
    """The cluster's PDF+ in its region without the edges ``cut`` (edges no process
    takes in a run where the cluster can diverge, ``alone.py``)."""
    succs = {n: [s for s in ss if (n, s) not in cut] for n, ss in cluster.region.succs.items()}
    return pdf_plus(succs, cluster.region.exit, cluster.sites) | cluster.region.exits


def diverging_successors(cluster: Cluster, node: int) -> tuple[int, int] | None:
    """For a frontier node, one successor leading to the cluster and one that may not
    (the two sides of the counter-example, barrier matching §5.2)."""
    group = set(cluster.sites) | (cluster.frontier - {node})  # PDF+ is iterated
    region, graph = cluster.region, cluster.graph
    if graph is None or any(graph.stand_in.get(n) != n for n in group):
        graph = Condensed(region.succs, region.preds, {n: n for n in region.succs})
    covered = postdominated(graph.succs, region.exit, group, graph.preds)
    succs = region.succs.get(node, [])
    inside = [s for s in succs if graph.stand_in.get(s, s) in covered]
    outside = [s for s in succs if graph.stand_in.get(s, s) not in covered]
    if not inside or not outside:
        return None
    return inside[0], outside[0]


def first_stop(region: Region, start: int, stops: Callable[[int], bool]) -> int:
    """Breadth-first, the nearest node from ``start`` for which ``stops`` holds (an
    event or a way out); the region exit when none is met."""
    seen, queue = {start}, deque([start])
    while queue:
        n = queue.popleft()
        if n == region.exit or stops(n):
            return n
        for s in region.succs.get(n, ()):
            if s not in seen:
                seen.add(s)
                queue.append(s)
    return region.exit


def fixed_sequence(cfg: CFG, events: Events) -> list[str] | None:
    """The collective sequence every normal return of the function executes, or None
    when it may differ between paths (an event in a loop, or arms that disagree) or is
    longer than ``MAX_SEQUENCE`` (callees' sequences are inlined, so a call chain that
    doubles at each level would otherwise grow exponentially)."""
    if not events:  # every path executes the empty sequence
        return []
    found = regions(cfg)
    if any(n in events for r in found[1:] for n in r.succs if n != r.exit):
        return None
    func = found[0]
    conflict: tuple[str, ...] = ("<conflict>",)
    seq: dict[int, tuple[str, ...]] = {cfg.entry: ()}
    for n in _topological(func):
        if n not in seq:
            continue
        after = seq[n] + tuple(events.get(n, ()))
        if seq[n] == conflict:
            after = conflict
        elif len(after) > MAX_SEQUENCE:
            return None
        for s in func.succs.get(n, ()):
            if s == cfg.exit and cfg.nodes[n].kind not in ("return", "end"):
                continue
            seq[s] = after if seq.get(s, after) == after else conflict
    result = seq.get(cfg.exit, ())
    return None if result == conflict else list(result)
