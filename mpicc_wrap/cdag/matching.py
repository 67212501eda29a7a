"""Message matching (paper §2.1, appendix Alg. 1).

A symbolic execution of the cDAG: operations whose dependencies are all removed wait
in the matching queue MQ; a popped send looks for a posted receive of its peer with
the same (communicator, tag), a popped receive for a posted send, and otherwise joins
its process's queue AQ.  AQ is kept as FIFO queues keyed by (sender, receiver,
communicator, tag): MPI's non-overtaking rule matches in posting order per key, and a
dict of deques finds the partner in O(1) (the paper's red-black trees give
O(log n)).  A matched receive, and a completion event all of whose receives are
matched, remove their dependencies (``remove_deps``) and may free new operations.
Sends never block the simulation: MPI may buffer them.  Total O(n + m).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from mpicc_wrap.cdag.graph import RECV, SEND, Graph, indegrees

__all__ = ["Matching", "match"]


@dataclass
class Matching:
    """The matching set M as partner arrays, and what stayed unmatched."""

    partner: list[int]  # partner[op] = matched op, -1 if none
    unmatched_sends: list[int]
    unmatched_recvs: list[int]

    def pairs(self, graph: Graph) -> list[tuple[int, int]]:
        """(send, receive) pairs of M, in send order."""
        return [(a, b) for a, b in enumerate(self.partner)
                if b >= 0 and graph.ops[a].kind == SEND]


def match(graph: Graph) -> Matching:
    """Compute M from the per-process operations and dependencies (App. Alg. 1)."""
    ops = graph.ops
    n = len(ops)
    succ, count = graph.freeze()
    indeg = indegrees(succ, count)
    partner = [-1] * n
    mq = deque(i for i in range(count) if indeg[i] == 0)  # line 1: independent nodes
    posted: dict[tuple[int, int, int, int, int], deque[int]] = {}  # the AQ_i

    def remove_deps(node: int) -> None:  # Procedure remove_deps
        for b in succ[node]:
            indeg[b] -= 1
            if indeg[b] == 0:
                mq.append(b)

    while mq:  # line 3
        a = mq.popleft()
        if a >= n:  # a completion event (no-op): nothing to match
            remove_deps(a)
            continue
        op = ops[a]
        if op.kind == SEND:
            key = (RECV, op.rank, op.peer, op.comm, op.tag)
            mine = (SEND, op.rank, op.peer, op.comm, op.tag)
        else:
            key = (SEND, op.peer, op.rank, op.comm, op.tag)
            mine = (RECV, op.peer, op.rank, op.comm, op.tag)
        waiting = posted.get(key)  # line 6-7: the inverted tuple y in AQ_peer?
        if waiting:
            y = waiting.popleft()
            partner[a], partner[y] = y, a  # line 11
            remove_deps(a)  # lines 9-10
            remove_deps(y)
        else:
            posted.setdefault(mine, deque()).append(a)  # line 13
    return Matching(partner,
                    [i for i in range(n) if partner[i] < 0 and ops[i].kind == SEND],
                    [i for i in range(n) if partner[i] < 0 and ops[i].kind == RECV])
