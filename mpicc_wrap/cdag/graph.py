"""The communication DAG (cDAG, paper §1.5): send and receive operations per process
and the local dependencies ``D`` between them.

Operations are numbered 0..n-1 in the order they are added.  Completion events
(a blocking receive, a wait that completes receives) become no-op nodes numbered from
n on (the paper's set N of Alg. 3): every receive that completes in an event points
to it, the event points to the rank's next event, and each operation posted after
the event depends on it.  That keeps |D| linear in n and makes "posted after the
receive completed" transitive.  Sends complete locally (MPI may buffer them), so no
event waits for a send to be matched.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["RECV", "SEND", "Graph", "Op", "Program", "indegrees"]

SEND = 0
RECV = 1


@dataclass(slots=True)
class Op:
    """One send or receive: owner rank, peer (world rank; for a receive, its source as
    resolved at completion), tag, communicator id, bytes, buffer address, call site."""

    rank: int
    kind: int  # SEND or RECV
    peer: int
    size: int
    addr: int = 0
    tag: int = 0
    comm: int = 1
    site: str = ""
    call: str = ""
    content: int = 0  # hash of the bytes sent or received (0: unknown): shows rewrites
    wildcard: bool = False  # a receive posted with MPI_ANY_SOURCE
    time: float = 0.0  # seconds spent in the operation (post to completion)


@dataclass
class Graph:
    """Operations and dependency edges (``succ[a]`` holds b for every (a, b) in D)."""

    nranks: int
    ops: list[Op] = field(default_factory=list)
    succ: list[list[int]] = field(default_factory=list)
    _last_event: dict[int, int] = field(default_factory=dict)
    _events: list[list[int]] = field(default_factory=list)  # succ lists of no-op nodes
    _frozen: tuple[list[list[int]], int] | None = None
    posted_after: list[int] = field(default_factory=list)  # events of the rank before it
    completed_at: dict[int, int] = field(default_factory=dict)  # receive -> its event (1..)
    _nevents: dict[int, int] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.ops)

    def add(self, op: Op, after: tuple[int, ...] | list[int] = ()) -> int:
        """Add ``op``, dependent on the operations ``after`` and on its rank's latest
        completion event; return its number."""
        index = len(self.ops)
        self._frozen = None
        self.ops.append(op)
        self.posted_after.append(self._nevents.get(op.rank, 0))
        self.succ.append([])
        for a in after:
            self.succ[a].append(index)
        event = self._last_event.get(op.rank)
        if event is not None:
            self._events[event].append(index)
        return index

    def complete(self, rank: int, receives: list[int]) -> None:
        """A completion event on ``rank``: the receives ``receives`` are done; every
        operation the rank posts from now on depends on them."""
        if not receives:
            return
        self._frozen = None
        count = self._nevents[rank] = self._nevents.get(rank, 0) + 1
        for r in receives:
            self.completed_at[r] = count
        event = len(self._events)
        self._events.append([])
        node = self.event_node(event)
        for r in receives:
            self.succ[r].append(node)
        previous = self._last_event.get(rank)
        if previous is not None:
            self._events[previous].append(node)
        self._last_event[rank] = event

    def event_node(self, event: int) -> int:
        """Node number of completion event ``event`` (numbered after the operations, so
        only valid once every operation is added: callers use :meth:`freeze`)."""
        return -1 - event  # provisional: negative until frozen

    def freeze(self) -> tuple[list[list[int]], int]:
        """All dependency edges with event nodes numbered n, n+1, ...; and the node
        count (computed once; the algorithms never change the graph)."""
        if self._frozen is None:
            self._frozen = self._renumber()
        return self._frozen

    def _renumber(self) -> tuple[list[list[int]], int]:
        n = len(self.ops)

        def fix(x: int) -> int:
            return x if x >= 0 else n + (-1 - x)

        succ = [[fix(b) for b in row] for row in self.succ]
        succ += [[fix(b) for b in row] for row in self._events]
        return succ, len(succ)


def indegrees(succ: list[list[int]], count: int) -> list[int]:
    """Number of dependencies of each node."""
    indeg = [0] * count
    for row in succ:
        for b in row:
            indeg[b] += 1
    return indeg


class Program:
    """Build a cDAG the way MPI programs run: ``isend``/``irecv`` post, ``wait``
    completes, ``send`` is a posted send (sends complete locally), ``recv`` a posted
    receive completed at once.  For tests, benchmarks and the record reader."""

    def __init__(self, nranks: int) -> None:
        self.graph = Graph(nranks)

    def isend(self, rank: int, peer: int, size: int, addr: int = 0, tag: int = 0,
              content: int = 0, site: str = "", call: str = "MPI_Isend") -> int:
        return self.graph.add(Op(rank, SEND, peer, size, addr, tag, site=site, call=call,
                                 content=content))

    def irecv(self, rank: int, peer: int, size: int, addr: int = 0, tag: int = 0,
              wildcard: bool = False, site: str = "", call: str = "MPI_Irecv") -> int:
        return self.graph.add(Op(rank, RECV, peer, size, addr, tag, site=site, call=call,
                                 wildcard=wildcard))

    def wait(self, rank: int, ops: list[int]) -> None:
        self.graph.complete(rank, [i for i in ops if self.graph.ops[i].kind == RECV])

    def send(self, rank: int, peer: int, size: int, addr: int = 0, tag: int = 0,
             content: int = 0, site: str = "") -> int:
        return self.isend(rank, peer, size, addr, tag, content, site, "MPI_Send")

    def recv(self, rank: int, peer: int, size: int, addr: int = 0, tag: int = 0,
             wildcard: bool = False, site: str = "") -> int:
        i = self.irecv(rank, peer, size, addr, tag, wildcard, site, "MPI_Recv")
        self.wait(rank, [i])
        return i
