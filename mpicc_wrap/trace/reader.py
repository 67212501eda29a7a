"""Read the per-process trace files the runtime writes under ``MPICC_WRAP_TRACE_DIR``.

The file format is defined once, in ``cclib/mpiccwrap_protocol.h``: a
``struct mpiccwrap_trace_header`` and then ``struct mpiccwrap_record`` entries, in the
writer's byte order.  This module lays them out with the FFI that
:mod:`mpicc_wrap.protocol` builds from the header's own text (cffi
``ffi.cdef``), and names codes by the header's enumerators, so no offset, size or
code is repeated here.  Files whose magic, version or sizes differ are refused with
a one-line :class:`TraceError`; a torn last record (a process killed mid-write) is
dropped.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mpicc_wrap import protocol
from mpicc_wrap.errors import WrapError

__all__ = ["RankTrace", "Record", "TraceError", "format_traces", "read_dir", "read_file",
           "to_json"]


class TraceError(WrapError):
    """A trace directory or file that cannot be read; the message is one line."""


@dataclass(frozen=True)
class Record:
    """One record: a check the checker performed (fields of ``struct mpiccwrap_record``;
    codes as the header's names without their prefix; None for "not compared")."""

    seq: int
    kind: str  # "COLLECTIVE" or "EXIT" (MPICCWRAP_REC_*)
    event: str  # "AGREED" or "MISMATCH" (MPICCWRAP_EV_*)
    name: str
    file: str
    line: int
    function: str
    comm: str
    comm_handle: int
    comm_rank: int
    comm_size: int
    color: int
    root: int | None
    op: str | None  # "MPI_SUM", "a user-defined operator", None: not compared
    count: int | None
    bytes: int | None
    checks: int

    @property
    def site(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class RankTrace:
    """The trace file of one process."""

    path: str
    version: int
    world_rank: int
    world_size: int
    pid: int
    records: tuple[Record, ...]


def _names(enum: str, prefix: str) -> dict[int, str]:
    return protocol.enum_names(enum, prefix)


def _text(ffi: Any, field: Any) -> str:
    return str(ffi.string(field).decode("utf-8", "replace"))


def _op_name(code: int) -> str | None:
    name = _names("mpiccwrap_op", "MPICCWRAP_OP_").get(code)
    if name == "NONE":
        return None
    if name == "USER" or name is None:
        return "a user-defined operator" if name else f"operator code {code}"
    return "MPI_" + name


def _record(ffi: Any, raw: Any) -> Record:
    c = protocol.constant
    no_count = c("MPICCWRAP_NO_COUNT")
    kinds = _names("mpiccwrap_record_kind", "MPICCWRAP_REC_")
    events = _names("mpiccwrap_event", "MPICCWRAP_EV_")
    return Record(
        seq=int(raw.seq), kind=kinds.get(raw.kind, f"kind {raw.kind}"),
        event=events.get(raw.event, f"event {raw.event}"), name=_text(ffi, raw.name),
        file=_text(ffi, raw.file), line=int(raw.line), function=_text(ffi, raw.function),
        comm=_text(ffi, raw.comm_name), comm_handle=int(raw.comm),
        comm_rank=int(raw.comm_rank), comm_size=int(raw.comm_size), color=int(raw.color),
        root=None if raw.root == c("MPICCWRAP_NO_ROOT") else int(raw.root),
        op=_op_name(int(raw.op)),
        count=None if raw.count == no_count else int(raw.count),
        bytes=None if raw.bytes == no_count else int(raw.bytes), checks=int(raw.checks))


def read_file(path: str | Path) -> RankTrace:
    """Decode one trace file."""
    ffi = protocol.ffi()
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise TraceError(f"cannot read trace file {path}: {exc.strerror or exc}") from exc
    head_size = ffi.sizeof("struct mpiccwrap_trace_header")
    rec_size = ffi.sizeof("struct mpiccwrap_record")
    if len(data) < head_size:
        raise TraceError(f"{path}: not an mpicc-wrap trace file (too short)")
    buf = ffi.from_buffer(data)  # keeps ``data`` alive while the casts below read it
    head = ffi.cast("struct mpiccwrap_trace_header *", buf)
    if head.magic != protocol.constant("MPICCWRAP_TRACE_MAGIC"):
        raise TraceError(f"{path}: not an mpicc-wrap trace file (bad magic)")
    if head.version != protocol.version():
        raise TraceError(f"{path}: trace format version {head.version}, this mpicc-wrap "
                         f"reads version {protocol.version()}")
    if (head.header_size, head.record_size) != (head_size, rec_size):
        raise TraceError(f"{path}: record layout differs from this machine's "
                         f"({head.header_size}/{head.record_size} bytes, expected "
                         f"{head_size}/{rec_size}): written on another architecture?")
    count = (len(data) - head_size) // rec_size
    records = ffi.cast("struct mpiccwrap_record *", ffi.cast("char *", buf) + head_size)
    return RankTrace(str(path), int(head.version), int(head.world_rank),
                     int(head.world_size), int(head.pid),
                     tuple(_record(ffi, records[i]) for i in range(count)))


def read_dir(directory: str | Path) -> list[RankTrace]:
    """Every trace file in ``directory`` (files with the protocol's magic), by rank."""
    folder = Path(directory)
    if not folder.is_dir():
        raise TraceError(f"{directory}: not a directory")
    magic = protocol.constant("MPICCWRAP_TRACE_MAGIC")
    width = protocol.ffi().sizeof("uint64_t")
    traces = []
    for entry in sorted(folder.iterdir()):
        try:
            with entry.open("rb") as handle:
                start = handle.read(width)
        except OSError:
            continue  # a sub-directory or unreadable entry is not ours
        if len(start) == width and int.from_bytes(start, sys.byteorder) == magic:
            traces.append(read_file(entry))
    if not traces:
        hint = (": the run made no checks; `mpicc-wrap-tool matrix DIR` prints its "
                "communication trace" if any(folder.glob("mpiccwrap-*-*.cdag")) else
                " (MPICC_WRAP_TRACE_DIR names the directory a run writes them to)")
        raise TraceError(f"{directory}: no mpicc-wrap check records{hint}")
    return sorted(traces, key=lambda t: (t.world_rank, t.pid, t.path))


def _describe(r: Record) -> str:
    what = f"leave {r.function}()" if r.kind == "EXIT" else r.name
    args = [f"root {r.root}"] if r.root is not None else []
    args += [r.op] if r.op else []
    if r.bytes is not None:
        args.append(f"count {r.count}, {r.bytes} bytes")
    detail = f" ({', '.join(args)})" if args else ""
    return (f"#{r.seq} {what} at {r.site} in {r.function}() on {r.comm} "
            f"[rank {r.comm_rank} of {r.comm_size}]{detail}: {r.event.lower()}")


def format_traces(traces: list[RankTrace]) -> str:
    """Plain text: one line per record, grouped by rank, then a summary line."""
    lines = []
    for trace in traces:
        lines.append(f"rank {trace.world_rank} of {trace.world_size} (pid {trace.pid}): "
                     f"{len(trace.records)} record(s)")
        lines += [f"  {_describe(r)}" for r in trace.records]
    total = sum(len(t.records) for t in traces)
    mismatches = sum(r.event == "MISMATCH" for t in traces for r in t.records)
    lines.append(f"{len(traces)} process(es), {total} record(s), {mismatches} mismatch(es)")
    return "\n".join(lines) + "\n"


def to_json(traces: list[RankTrace]) -> dict[str, Any]:
    """The traces as plain JSON data."""
    return {"version": protocol.version(), "processes": [asdict(t) for t in traces]}
