"""Dataflow propagation into Static Single Transfer form (paper §2.3, Alg. 3 and 4).

Sends whose dependencies are satisfied are processed from a FIFO worklist (Alg. 3's
independent and active sends).  A send reads its buffer from its process's memory
map: the regions finished receives wrote, each remembering where its data came from
(source process, address there, and the original send S^0 that first read it).
Parts of the buffer no receive wrote are original data of the sender.  When the
buffer is exactly one received region the flow is passed on unchanged (Alg. 4 line
1, the expected case); otherwise the send and its matching receive are split into
one SST assignment per region (Alg. 4, the paper's Figure 5).  The matched receive
then finishes: its assignments are written into the receiver's map and its
dependencies are removed.

Three refinements make recorded MPI runs fit the paper's model:

* a receive's region enters the map when its completion event resolves, not before,
  so a send posted earlier still reads the older contents (buffers are reused);
* a region a later send forwards only in part is cut at the send's bounds, and the
  parts read by a send are marked ``forwarded`` (transit copies, which a binomial
  scatter leaves on its inner ranks: the final receives R^inf are the rest);
* a send of exactly a received buffer whose content hash differs from what was
  received forwards nothing: the program rewrote the buffer (local writes are not
  in the recorded graph, hashes show them).

Every operation is visited once and each map look-up costs O(log n): O(n log n).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from dataclasses import dataclass, field

from mpicc_wrap.cdag.graph import RECV, Graph, Op, indegrees
from mpicc_wrap.cdag.matching import Matching

__all__ = ["SST", "Flow", "propagate"]


@dataclass(slots=True)
class Flow:
    """One SST assignment (src, src_addr, size, dst, dst_addr): ``size`` bytes that
    process ``src`` held at ``src_addr`` end up at ``dst_addr`` on ``dst``."""

    src: int
    src_addr: int
    size: int
    dst: int
    dst_addr: int
    recv: int  # the receive that wrote them
    send: int  # the send that delivered them
    origin: int  # the original send (S^0) that first read them
    forwarded: bool = False  # a later send read them: a transit copy


@dataclass
class SST:
    """The SST form: every flow, and the sends the propagation could not process
    (unmatched, or waiting on a dependency cycle)."""

    flows: list[Flow]
    stuck_sends: list[int] = field(default_factory=list)


class _Memory:
    """One process's map of received regions: disjoint [start, end) -> flow index."""

    __slots__ = ("starts", "ends", "flows")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.flows: list[int] = []

    def overlapping(self, lo: int, hi: int) -> range:
        """Indices of the regions that overlap [lo, hi)."""
        first = bisect_right(self.starts, lo) - 1
        if first < 0 or self.ends[first] <= lo:
            first += 1
        last = bisect_left(self.starts, hi)
        return range(first, last)

    def write(self, lo: int, hi: int, flow: int) -> None:
        """Region [lo, hi) now holds ``flow``'s data; older regions are trimmed."""
        span = self.overlapping(lo, hi)
        if not span:  # the common case: fresh memory
            self.starts.insert(span.start, lo)
            self.ends.insert(span.start, hi)
            self.flows.insert(span.start, flow)
            return
        new: list[tuple[int, int, int]] = []
        for k in span:  # the parts of older regions left of lo and right of hi survive
            s, e, f = self.starts[k], self.ends[k], self.flows[k]
            if s < lo:
                new.append((s, lo, f))
            if e > hi:
                new.append((hi, e, f))
        new = sorted([*new, (lo, hi, flow)])
        self.starts[span.start:span.stop] = [x[0] for x in new]
        self.ends[span.start:span.stop] = [x[1] for x in new]
        self.flows[span.start:span.stop] = [x[2] for x in new]


def _pieces(mem: _Memory, rank: int, lo: int, hi: int, send: int, flows: list[Flow],
            reads: dict[int, list[tuple[int, int]]]) -> list[tuple[int, int, int, int, int]]:
    """Split [lo, hi) of ``rank``'s memory by origin (Alg. 4): (offset, length, source,
    source address, original send) per piece, neighbours of one origin merged."""
    span = mem.overlapping(lo, hi)
    if not span:  # the common case: an original send
        return [(0, hi - lo, rank, lo, send)]
    out: list[tuple[int, int, int, int, int]] = []
    at = lo
    for k in span:
        s, e, fi = mem.starts[k], mem.ends[k], mem.flows[k]
        if s > at:  # Alg. 4 lines 13-21: local data nobody sent here
            out.append((at - lo, s - at, rank, at, send))
            at = s
        end = min(e, hi)
        f = flows[fi]
        out.append((at - lo, end - at, f.src, f.src_addr + (at - f.dst_addr), f.origin))
        reads.setdefault(fi, []).append((at, end))  # lines 21-26: forwarded part
        at = end
    if at < hi:
        out.append((at - lo, hi - at, rank, at, send))
    merged: list[tuple[int, int, int, int, int]] = []
    for piece in out:
        if merged:
            off, length, src, addr, origin = merged[-1]
            if src == piece[2] and origin == piece[4] and addr + length == piece[3]:
                merged[-1] = (off, length + piece[1], src, addr, origin)
                continue
        merged.append(piece)
    return merged


def _rewritten(mem: _Memory, lo: int, hi: int, content: int, flows: list[Flow],
               ops: list[Op]) -> bool:
    """The send reads exactly one received buffer whose bytes it no longer holds (both
    hashes known and different): the program rewrote it, the data is original."""
    span = mem.overlapping(lo, hi)
    if len(span) != 1 or (mem.starts[span.start], mem.ends[span.start]) != (lo, hi):
        return False
    received = ops[flows[mem.flows[span.start]].recv].content
    return bool(content and received and content != received)


def propagate(graph: Graph, matching: Matching) -> SST:
    """Alg. 3: propagate every send's data to the final receives (SST form)."""
    ops = graph.ops
    n = len(ops)
    succ, count = graph.freeze()
    indeg = indegrees(succ, count)
    for i, op in enumerate(ops):  # receives finish when posted and their data arrived
        if op.kind == RECV and matching.partner[i] >= 0:  # (line 14)
            indeg[i] += 1
    memory = [_Memory() for _ in range(graph.nranks)]
    flows: list[Flow] = []
    reads: dict[int, list[tuple[int, int]]] = {}
    written: dict[int, list[int]] = {}  # event node -> receives whose regions it writes
    by_recv: dict[int, list[int]] = {}
    for i, op in enumerate(ops):
        if op.kind == RECV:
            events = [b for b in succ[i] if b >= n]
            if events:
                written.setdefault(events[0], []).append(i)
    work = deque(i for i in range(count) if indeg[i] == 0)
    done = [False] * n

    def write(r: int) -> None:
        for fi in by_recv.get(r, ()):
            f = flows[fi]
            memory[f.dst].write(f.dst_addr, f.dst_addr + f.size, fi)

    def release(node: int) -> None:
        for b in succ[node]:
            indeg[b] -= 1
            if indeg[b] == 0:
                work.append(b)

    while work:
        a = work.popleft()
        if a >= n:  # a completion event: its receives' regions become visible
            for r in written.get(a, ()):
                write(r)
            release(a)
            continue
        op = ops[a]
        if op.kind == RECV:  # its data arrived (see below)
            if not any(b >= n for b in succ[a]):
                write(a)
            release(a)
            continue
        done[a] = True
        r = matching.partner[a]
        if r < 0:
            continue
        size = min(op.size, ops[r].size) if ops[r].size >= 0 else op.size
        if _rewritten(memory[op.rank], op.addr, op.addr + size, op.content, flows, ops):
            pieces = [(0, size, op.rank, op.addr, a)]
        else:
            pieces = _pieces(memory[op.rank], op.rank, op.addr, op.addr + size, a, flows,
                             reads)
        target = ops[r]
        mine = by_recv.setdefault(r, [])
        for off, length, src, addr, origin in pieces:
            mine.append(len(flows))
            flows.append(Flow(src, addr, length, target.rank, target.addr + off, r, a,
                              origin))
        if size == 0:
            mine.append(len(flows))
            flows.append(Flow(op.rank, op.addr, 0, target.rank, target.addr, r, a, a))
        indeg[r] -= 1
        if indeg[r] == 0:
            work.append(r)
    stuck = [i for i, op in enumerate(ops) if op.kind != RECV and not done[i]]
    return SST(_cut(flows, reads), stuck)


def _cut(flows: list[Flow], reads: dict[int, list[tuple[int, int]]]) -> list[Flow]:
    """Cut each forwarded flow at the bounds of the sends that read it; mark the read
    parts ``forwarded`` (the rest are final receives)."""
    out: list[Flow] = []
    for fi, f in enumerate(flows):
        ranges = reads.get(fi)
        if not ranges:
            out.append(f)
            continue
        lo, hi = f.dst_addr, f.dst_addr + f.size
        cuts = sorted({lo, hi, *(x for r in ranges for x in r if lo < x < hi)})
        for s, e in zip(cuts, cuts[1:], strict=False):
            read = any(a < e and b > s for a, b in ranges)
            out.append(Flow(f.src, f.src_addr + (s - lo), e - s, f.dst, s, f.recv, f.send,
                            f.origin, read))
    return out
