"""Wait sets (paper §2.3): the processes each process must wait for.

W_i holds every process from which a path of matched messages and local order leads
to process i's last operation: a reverse traversal of G = (V, M ∪ D).  Local order
here is what a process waits for: an operation depends on the receives its process
completed before it was posted (a send never waits for its receiver).  The sets are
bit masks, computed as a fixpoint (see :func:`wait_sets`).
"""

from __future__ import annotations

from bisect import bisect_right

from mpicc_wrap.cdag.graph import RECV, Graph
from mpicc_wrap.cdag.matching import Matching

__all__ = ["has_barrier_semantics", "wait_sets"]


def wait_sets(graph: Graph, matching: Matching, subset: list[int] | None = None) -> list[int]:
    """W_i as a bit mask per rank, over the operations ``subset`` (default: all).

    An operation waits for the receives of its process that completed before it was
    posted, a receive also for its matched send.  Masks only grow, so a fixpoint of
    passes (each O(k log k) with per-process prefix unions over completion order)
    gives them; the number of passes is the longest chain of messages."""
    ops = graph.ops
    chosen = list(range(len(ops))) if subset is None else subset
    inside = set(chosen)
    recvs: dict[int, list[tuple[int, int]]] = {}  # rank -> [(completion event, op)]
    for i in chosen:
        if ops[i].kind == RECV and i in graph.completed_at:
            recvs.setdefault(ops[i].rank, []).append((graph.completed_at[i], i))
    for row in recvs.values():
        row.sort()
    mask = {i: 1 << ops[i].rank for i in chosen}
    for _ in range(len(chosen) + 1):
        prefix = {}
        for rank, row in recvs.items():
            acc, acc_list = 0, []
            for _, r in row:
                acc |= mask[r]
                acc_list.append(acc)
            prefix[rank] = ([e for e, _ in row], acc_list)
        changed = False
        for i in chosen:
            new = mask[i]
            events, accs = prefix.get(ops[i].rank, ([], []))
            k = bisect_right(events, graph.posted_after[i])
            if k:
                new |= accs[k - 1]
            partner = matching.partner[i]
            if ops[i].kind == RECV and partner in inside:
                new |= mask[partner]
            if new != mask[i]:
                mask[i], changed = new, True
        if not changed:
            break
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
