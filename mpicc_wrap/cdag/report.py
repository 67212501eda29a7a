"""The cDAG analysis end to end and its outputs: one line per detected pattern, JSON,
and the communication matrix (messages and bytes per pair of processes).

Instances of one collective (same name, root, process set and block size) are
counted together; their call sites are the operations that formed them (original
and forwarding sends, receives) and their time the time spent in those operations.
"""

from __future__ import annotations

import gc
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mpicc_wrap.cdag.dataflow import SST, propagate
from mpicc_wrap.cdag.detect import Instance, detect
from mpicc_wrap.cdag.graph import SEND, Graph
from mpicc_wrap.cdag.matching import Matching, match
from mpicc_wrap.cdag.records import CallSite

__all__ = ["PLAN_MAX", "Analysis", "Pattern", "analyse", "apply_times", "format_calls",
           "format_lines", "format_matrix", "format_ranks", "matrix", "matrix_blocks",
           "matrix_csv", "phases", "plan", "to_json"]

PREFIX = "mpicc-wrap: cDAG:"
PLAN_MAX = 16  # plan lines the runtime times (CDAG_PLAN_MAX in cclib/mpiccwrap_cdag.c)
PLAN_SIZE = 4096  # bytes of plan text it reads, "end" line included (CDAG_PLAN_SIZE)
TEXT_CELLS = 32  # ranks per side of the text matrix before blocks of ranks are summed


@dataclass
class Pattern:
    """A detected collective and how often it ran."""

    name: str
    root: int | None
    ranks: tuple[int, ...]
    bytes: int
    count: int
    subset: bool
    sites: list[tuple[str, str, int]] = field(default_factory=list)  # site, call, ops
    seconds: float = 0.0
    measured: float | None = None  # one call of the real collective here (the plan)


@dataclass
class Analysis:
    """Everything the analysis found in one run's graph."""

    graph: Graph
    matching: Matching
    sst: SST
    patterns: list[Pattern]
    notes: list[str] = field(default_factory=list)
    collectives: list[CallSite] = field(default_factory=list)  # the trace's, per site
    probes: list[CallSite] = field(default_factory=list)


def format_ranks(ranks: tuple[int, ...] | list[int]) -> str:
    """"0-3,5" for 0, 1, 2, 3, 5."""
    values = sorted(ranks)
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ",".join(parts)


def _patterns(graph: Graph, instances: list[Instance]) -> list[Pattern]:
    groups: dict[tuple[Any, ...], list[Instance]] = {}
    for inst in instances:
        key = (inst.name, inst.root, inst.ranks, inst.size, inst.subset)
        groups.setdefault(key, []).append(inst)
    out = []
    for (name, root, ranks, size, subset), group in groups.items():
        ids: set[int] = set()
        for inst in group:
            ids |= inst.op_ids()
        sites = Counter((graph.ops[i].site or "?", graph.ops[i].call or "?") for i in ids)
        seconds = sum(graph.ops[i].time for i in ids)
        out.append(Pattern(name, root, ranks, size, len(group), subset,
                           sorted((s, c, n) for (s, c), n in sites.items()), seconds))
    return sorted(out, key=lambda p: (-p.count * len(p.ranks), p.name, p.root or 0))


def _notes(graph: Graph, matching: Matching) -> list[str]:
    notes = []
    for label, ids in (("sent and never received", matching.unmatched_sends),
                       ("received and never matched", matching.unmatched_recvs)):
        if ids:
            sites = Counter(f"{graph.ops[i].site or '?'} ({graph.ops[i].call or '?'})"
                            for i in ids)
            listed = ", ".join(f"{s} x{n}" for s, n in sorted(sites.items()))
            notes.append(f"{len(ids)} message(s) {label}: {listed}")
    return notes


def phases(graph: Graph) -> tuple[Matching, SST, list[Instance]]:
    """Matching (App. Alg. 1), dataflow (Alg. 3, 4), detection (Alg. 5, §4.2), with
    the cyclic garbage collector paused: they allocate many small objects and no
    cycles, and its full passes would otherwise cost more than the analysis."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        matching = match(graph)
        sst = propagate(graph, matching)
        return matching, sst, detect(graph, matching, sst)
    finally:
        if enabled:
            gc.enable()


def analyse(graph: Graph) -> Analysis:
    """The whole analysis and its patterns and notes."""
    matching, sst, instances = phases(graph)
    return Analysis(graph, matching, sst, _patterns(graph, instances),
                    _notes(graph, matching))


def format_lines(analysis: Analysis) -> list[str]:
    """The report lines: one per pattern, then the notes."""
    lines = []
    for p in analysis.patterns:
        root = f" root={p.root}" if p.root is not None else ""
        subset = " (process subset)" if p.subset else ""
        sites = ", ".join(f"{s} ({c})" for s, c, _ in p.sites)
        spent = f": {p.seconds * 1e3:.3g} ms in these messages" if p.seconds else ""
        if p.measured is not None:
            spent += ("; " if spent else ": ") + (
                f"one {p.name} per instance took {p.measured * 1e3:.3g} ms here")
        lines.append(f"{PREFIX} pattern {p.name}{root} ranks={format_ranks(p.ranks)}"
                     f"{subset} bytes={p.bytes} x{p.count} sites={sites}{spent}")
    lines += [f"{PREFIX} note: {n}" for n in analysis.notes]
    if not analysis.patterns:
        lines.insert(0, f"{PREFIX} no hand-written collective found in "
                        f"{len(analysis.graph.ops)} point-to-point operation(s)")
    return lines


def plan(analysis: Analysis) -> list[str]:
    """The collectives for the runtime to time in MPI_Finalize (the measured
    alternative, beyond the paper): "index name root bytes ranks" per pattern, root -1
    when there is none, ranks as world ranks in ranges; at most PLAN_MAX lines and
    fewer than PLAN_SIZE bytes with the closing "end" line."""
    lines: list[str] = []
    used = len("end\n")
    for i, p in enumerate(analysis.patterns[:PLAN_MAX]):
        line = (f"{i} {p.name} {p.root if p.root is not None else -1} {p.bytes} "
                f"{format_ranks(p.ranks)}")
        if used + len(line) + 1 >= PLAN_SIZE:
            continue  # not timed (a long list of scattered ranks)
        used += len(line) + 1
        lines.append(line)
    return lines


def apply_times(analysis: Analysis, answer: str) -> None:
    """Set the patterns' measured time from the runtime's "index seconds" lines (a
    negative time: not run, e.g. buffers too large; bad lines are ignored)."""
    for line in answer.splitlines():
        parts = line.split()
        if len(parts) != 2:
            continue
        try:
            index, seconds = int(parts[0]), float(parts[1])
        except ValueError:
            continue
        if 0 <= index < len(analysis.patterns) and seconds >= 0:
            analysis.patterns[index].measured = seconds


def matrix(graph: Graph, matching: Matching) -> dict[tuple[int, int], tuple[int, int]]:
    """(messages, bytes) per (sender, receiver) of every matched message."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for s, r in matching.pairs(graph):
        key = (graph.ops[s].rank, graph.ops[r].rank)
        count, size = out.get(key, (0, 0))
        out[key] = (count + 1, size + graph.ops[s].size)
    return out


def matrix_csv(graph: Graph, matching: Matching) -> str:
    """The matrix as CSV: src,dst,messages,bytes per pair that exchanged messages."""
    rows = ["src,dst,messages,bytes"]
    rows += [f"{a},{b},{c},{n}" for (a, b), (c, n) in sorted(matrix(graph, matching).items())]
    return "\n".join(rows) + "\n"


def format_matrix(graph: Graph, matching: Matching, max_cells: int = TEXT_CELLS) -> list[str]:
    """A text table: one row per sender, "messages/bytes" per receiver.  Past
    ``max_cells`` ranks, blocks of consecutive ranks are summed into one cell (rows
    and columns named "first-last"), so 1,024 ranks still fit a terminal."""
    p = graph.nranks
    cells, block = matrix_blocks(matrix(graph, matching), p, max_cells)
    names = [str(b * block) if block == 1 else f"{b * block}-{min(p, (b + 1) * block) - 1}"
             for b in range(-(-p // block))]
    width = max([len(f"{c}/{n}") for c, n in cells.values()] + [len(x) for x in names] + [5])
    lines = ["from\\to " + " ".join(f"{j:>{width}}" for j in names)]
    for i, name in enumerate(names):
        row = [f"{cells[(i, j)][0]}/{cells[(i, j)][1]}" if (i, j) in cells else "."
               for j in range(len(names))]
        lines.append(f"{name:>7} " + " ".join(f"{x:>{width}}" for x in row))
    return lines


def matrix_blocks(cells: dict[tuple[int, int], tuple[int, int]], nranks: int,
                  max_cells: int) -> tuple[dict[tuple[int, int], tuple[int, int]], int]:
    """The (messages, bytes) cells summed over blocks of consecutive ranks, and the
    block size: the smallest that fits ``nranks`` in ``max_cells`` per side (the text
    table and the heatmap both draw at most that many cells)."""
    block = max(1, -(-nranks // max_cells))
    if block == 1:
        return cells, 1
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for (a, b), (count, size) in cells.items():
        key = (a // block, b // block)
        c0, s0 = out.get(key, (0, 0))
        out[key] = (c0 + count, s0 + size)
    return out, block


def format_calls(sites: list[CallSite], what: str, timed: bool = True) -> list[str]:
    """One line per (call, site): calls over all ranks, the ranks, the bytes they
    passed in total, and (timed) the time spent inside the calls."""
    if not sites:
        return []
    lines = [f"{what} per call site (calls over all ranks, bytes passed"
             f"{', time inside' if timed else ''}):"]
    for e in sites:
        spent = f", {_seconds(e.seconds)}" if timed else ""
        lines.append(f"  {e.call} at {e.site}: {e.calls} call(s) on ranks "
                     f"{format_ranks(sorted(e.ranks))}, {e.bytes} bytes{spent}")
    return lines


def _seconds(t: float) -> str:
    return f"{t * 1e3:.3g} ms" if t < 1 else f"{t:.3g} s"


def to_json(analysis: Analysis) -> dict[str, Any]:
    """Patterns, notes and the matrix as plain JSON data."""
    graph = analysis.graph
    return {
        "ranks": graph.nranks,
        "operations": len(graph.ops),
        "messages": sum(1 for s, _ in analysis.matching.pairs(graph)
                        if graph.ops[s].kind == SEND),
        "patterns": [{"name": p.name, "root": p.root, "ranks": list(p.ranks),
                      "bytes": p.bytes, "count": p.count, "subset": p.subset,
                      "seconds": p.seconds, "measured_seconds": p.measured,
                      "sites": [{"site": s, "call": c, "operations": n}
                                for s, c, n in p.sites]} for p in analysis.patterns],
        "notes": analysis.notes,
        "matrix": [{"src": a, "dst": b, "messages": c, "bytes": n}
                   for (a, b), (c, n) in sorted(matrix(graph, analysis.matching).items())],
        "collectives": [_site_json(e) for e in analysis.collectives],
        "probes": [_site_json(e) for e in analysis.probes],
    }


def _site_json(e: CallSite) -> dict[str, Any]:
    return {"call": e.call, "site": e.site, "calls": e.calls, "ranks": sorted(e.ranks),
            "bytes": e.bytes, "seconds": e.seconds}
