"""Read the runtime's cDAG files (``MPICC_WRAP_CDAG=1``) and build the cDAG from them.

The layout is ``struct mpiccwrap_cdag_header`` and ``struct mpiccwrap_cdag_record`` of
``cclib/mpiccwrap_protocol.h``, read through :mod:`mpicc_wrap.protocol`'s FFI: the
record format for :mod:`struct` is derived from cffi's field offsets and types, so
nothing is repeated here and a million records decode in about a second.  Call sites
(object + offset) are turned into ``file:line`` with one ``addr2line`` run per object.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mpicc_wrap import protocol
from mpicc_wrap.cdag.graph import RECV, SEND, Op, Program
from mpicc_wrap.errors import WrapError

__all__ = ["CallSite", "CdagError", "RankFile", "Sites", "build_program", "call_sites",
           "read_dir", "read_file", "resolve_sites"]

_CODES = {"uint32_t": "I", "int32_t": "i", "uint64_t": "Q", "int64_t": "q"}


class CdagError(WrapError):
    """A directory or file that cannot be read; the message is one line."""


@dataclass
class RankFile:
    """One process's records (dicts of the record's fields) and header facts."""

    path: str
    world_rank: int
    world_size: int
    job: int
    dropped: int
    cap: int
    objs: list[str]
    records: list[dict[str, int]]


@dataclass
class CallSite:
    """The collectives (or probes) one call site made in the run: how many calls on
    which world ranks, the bytes each process passed in total, the time inside."""

    call: str
    site: str
    calls: int = 0
    bytes: int = 0
    seconds: float = 0.0
    ranks: set[int] = field(default_factory=set)


def _record_struct() -> tuple[struct.Struct, list[str]]:
    ffi = protocol.ffi()
    fields = ffi.typeof("struct mpiccwrap_cdag_record").fields
    fmt, at, names = "=", 0, []
    for name, f in sorted(fields, key=lambda nf: nf[1].offset):
        fmt += "x" * (f.offset - at) + _CODES[f.type.cname]
        at = f.offset + ffi.sizeof(f.type)
        names.append(name)
    fmt += "x" * (ffi.sizeof("struct mpiccwrap_cdag_record") - at)
    return struct.Struct(fmt), names


def read_file(path: str | Path) -> RankFile:
    """Decode one process's file."""
    ffi = protocol.ffi()
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise CdagError(f"cannot read {path}: {exc.strerror or exc}") from exc
    head_size = ffi.sizeof("struct mpiccwrap_cdag_header")
    if len(data) < head_size:
        raise CdagError(f"{path}: not an mpicc-wrap cDAG file (too short)")
    buf = ffi.from_buffer(data)
    head: Any = ffi.cast("struct mpiccwrap_cdag_header *", buf)
    if head.magic != protocol.constant("MPICCWRAP_CDAG_MAGIC"):
        raise CdagError(f"{path}: not an mpicc-wrap cDAG file (bad magic)")
    if head.version != protocol.version():
        raise CdagError(f"{path}: format version {head.version}, this mpicc-wrap reads "
                        f"version {protocol.version()}")
    rec, names = _record_struct()
    if (head.header_size, head.record_size) != (head_size, rec.size):
        raise CdagError(f"{path}: record layout differs from this machine's")
    count = min(int(head.nrecords), (len(data) - head_size) // rec.size)
    body = memoryview(data)[head_size:head_size + count * rec.size]
    records = [dict(zip(names, values, strict=True)) for values in rec.iter_unpack(body)]
    objs = [ffi.string(head.objs[i]).decode("utf-8", "replace") for i in range(head.nobjs)]
    return RankFile(str(path), int(head.world_rank), int(head.world_size), int(head.job),
                    int(head.dropped), int(head.cap), objs, records)


def read_dir(directory: str | Path, job: str | None = None) -> list[RankFile]:
    """The files of one run in ``directory``: job ``job`` (hex), else the newest."""
    folder = Path(directory)
    if not folder.is_dir():
        raise CdagError(f"{directory}: not a directory")
    files = sorted(folder.glob("mpiccwrap-*-*.cdag"))
    if not files:
        raise CdagError(f"{directory}: no cDAG files (run the program with MPICC_WRAP_CDAG=1 "
                        f"and MPICC_WRAP_CDAG_DIR={directory})")
    jobs: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        jobs[f.name.split("-")[1]].append(f)
    if job is None:
        job = max(jobs, key=lambda j: max(p.stat().st_mtime for p in jobs[j]))
    if job not in jobs:
        raise CdagError(f"{directory}: no cDAG files of job {job}")
    ranks = sorted((read_file(p) for p in jobs[job]), key=lambda r: r.world_rank)
    return ranks


def _call_name(code: int) -> str:
    name = protocol.enum_names("mpiccwrap_cdag_call", "MPICCWRAP_CDAG_CALL_").get(code)
    return "MPI_" + name.capitalize() if name else "?"


Sites = dict[tuple[str, int], str]


def resolve_sites(ranks: list[RankFile]) -> Sites:
    """file:line (or the function) of every (object, offset) call site of the run:
    one ``addr2line`` per object, shared by the graph and the per-site tables."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for rf in ranks:
        for r in rf.records:
            if 0 <= r["obj"] < len(rf.objs):
                wanted[rf.objs[r["obj"]]].add(r["offset"])
    tool = shutil.which("addr2line")
    out: dict[tuple[str, int], str] = {}
    for obj, offsets in wanted.items():
        order = sorted(offsets)
        lines: list[str] = []
        if tool and os.path.exists(obj):
            try:
                done = subprocess.run([tool, "-f", "-C", "-e", obj, *map(hex, order)],
                                      capture_output=True, text=True, timeout=120, check=False)
                lines = done.stdout.splitlines()
            except (OSError, subprocess.TimeoutExpired):
                lines = []
        for k, off in enumerate(order):
            func, where = (lines[2 * k], lines[2 * k + 1]) if len(lines) > 2 * k + 1 else ("", "")
            where = where.split(" ")[0]
            if where and not where.startswith("??"):
                out[(obj, off)] = os.path.basename(where)
            else:
                out[(obj, off)] = f"{func}()" if func and func != "??" else f"{obj}+{off:#x}"
    return out


def build_program(ranks: list[RankFile], sites: Sites | None = None
                  ) -> tuple[Program, list[str]]:
    """The cDAG of the run, in each process's event order, and notes (records the
    cap dropped, operations that cannot be placed); ``sites``: the run's resolved call
    sites, when already known."""
    size = max([rf.world_size for rf in ranks] + [1])
    prog = Program(size)
    sites = resolve_sites(ranks) if sites is None else sites
    c = protocol.constant
    done_bit, nopeer, anysrc = (c("MPICCWRAP_CDAG_DONE"), c("MPICCWRAP_CDAG_NOPEER"),
                                c("MPICCWRAP_CDAG_ANY_SOURCE"))
    recv_kind = c("MPICCWRAP_CDAG_RECV")
    p2p = (c("MPICCWRAP_CDAG_SEND"), recv_kind)
    notes = [f"rank {rf.world_rank} recorded {len(rf.records)} operations and dropped "
             f"{rf.dropped} past MPICC_WRAP_CDAG_MAX={rf.cap}: the analysis sees a prefix"
             for rf in ranks if rf.dropped]
    for rf in ranks:
        events = []
        for k, r in enumerate(rf.records):
            if (r["kind"] not in p2p or r["flags"] & nopeer
                    or (r["flags"] & anysrc and not r["flags"] & done_bit)):
                continue
            events.append((r["post"], 0, k))
            if r["flags"] & done_bit:
                events.append((r["done"], 1, k))
        events.sort()
        ids: dict[int, int] = {}
        completing: list[int] = []
        last_done = -1
        for seq, phase, k in events:
            if completing and (phase == 0 or seq != last_done):
                prog.wait(rf.world_rank, completing)
                completing = []
            r = rf.records[k]
            if phase == 0:
                obj = rf.objs[r["obj"]] if 0 <= r["obj"] < len(rf.objs) else ""
                spent = (r["t_done_ns"] - r["t_post_ns"]) / 1e9 if r["flags"] & done_bit else 0
                ids[k] = prog.graph.add(Op(
                    rf.world_rank, RECV if r["kind"] == recv_kind else SEND, r["peer"],
                    r["bytes"], r["addr"], r["tag"], r["comm_id"],
                    sites.get((obj, r["offset"]), "?"), _call_name(r["call"]), r["content"],
                    bool(r["flags"] & anysrc), max(spent, 0.0)))
            else:
                completing.append(ids[k])
                last_done = seq
        if completing:
            prog.wait(rf.world_rank, completing)
    return prog, notes


def call_sites(ranks: list[RankFile], kind: str = "COLL", sites: Sites | None = None
               ) -> list[CallSite]:
    """Per (call, site), the recorded operations of ``kind`` ("COLL": blocking
    collectives, "PROBE": probes that found a message), most calls first (FACT §5.2's
    volume attributes, per call site)."""
    code = protocol.constant(f"MPICCWRAP_CDAG_{kind}")
    done_bit = protocol.constant("MPICCWRAP_CDAG_DONE")
    wanted = [(rf, r) for rf in ranks for r in rf.records if r["kind"] == code]
    if sites is None:
        sites = resolve_sites(ranks) if wanted else {}
    table: dict[tuple[str, str], CallSite] = {}
    for rf, r in wanted:
        obj = rf.objs[r["obj"]] if 0 <= r["obj"] < len(rf.objs) else ""
        name, where = _call_name(r["call"]), sites.get((obj, r["offset"]), "?")
        entry = table.setdefault((name, where), CallSite(name, where))
        entry.calls += 1
        entry.bytes += max(r["bytes"], 0)
        entry.ranks.add(rf.world_rank)
        if r["flags"] & done_bit:
            entry.seconds += max(r["t_done_ns"] - r["t_post_ns"], 0) / 1e9
    return sorted(table.values(), key=lambda e: (-e.calls, e.call, e.site))
