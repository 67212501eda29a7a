"""Wait sets (paper §2.3): the processes each process must wait for.

W_i holds every process from which a path of matched messages and local order leads
to process i's last operation: a reverse traversal of G = (V, M ∪ D).  Local order
here is what a process waits for: an operation depends on the receives its process
completed before it (a send never waits for its receiver).  The sets are bit masks,
computed in one topological pass (Kahn), O((n + m) · p / 64).
"""

from __future__ import annotations

from collections import deque

from mpicc_wrap.cdag.graph import RECV, Graph
from mpicc_wrap.cdag.matching import Matching

__all__ = ["has_barrier_semantics", "wait_sets"]


def wait_sets(graph: Graph, matching: Matching, subset: list[int] | None = None) -> list[int]:
    """W_i as a bit mask per rank, over the operations ``subset`` (default: all),
    which must be listed in each rank's program order."""
    ops = graph.ops
    chosen = list(range(len(ops))) if subset is None else subset
    inside = set(chosen)
    preds: dict[int, list[int]] = {i: [] for i in chosen}
    last_recv: dict[int, int] = {}
    for i in chosen:
        op = ops[i]
        if op.rank in last_recv:
            preds[i].append(last_recv[op.rank])
        if op.kind == RECV:
            partner = matching.partner[i]
            if partner in inside:
                preds[i].append(partner)
            last_recv[op.rank] = i
    succ: dict[int, list[int]] = {i: [] for i in chosen}
    indeg = {i: len(p) for i, p in preds.items()}
    for i, p in preds.items():
        for a in p:
            succ[a].append(i)
    mask = {i: 1 << ops[i].rank for i in chosen}
    work = deque(i for i in chosen if indeg[i] == 0)
    while work:
        a = work.popleft()
        for b in succ[a]:
            mask[b] |= mask[a]
            indeg[b] -= 1
            if indeg[b] == 0:
                work.append(b)
    result = [0] * graph.nranks
    for i in chosen:
        result[ops[i].rank] |= mask[i]
    return result


def has_barrier_semantics(masks: list[int], ranks: list[int]) -> bool:
    """§4.1: every process of ``ranks`` waits for every other one."""
    want = 0
    for r in ranks:
        want |= 1 << r
    return all(masks[r] & want == want for r in ranks)
