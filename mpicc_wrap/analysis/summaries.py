"""Cross-TU function summaries: stored with each object, read back at compile and link.

PARCOACH (paper 004 §3.1) summarises each function by the collectives it executes so
that callers can be checked; across translation units those summaries must travel with
the objects.  ``store`` records, for every object the wrapper compiles:

1. the summaries and the *deferred* findings (a call, under a rank-dependent condition,
   to a function of another TU: the warning holds only if that callee executes
   collectives) as JSON in a non-allocated ELF section ``.mpicc_wrap`` added with
   ``objcopy`` — so it travels into static archives and survives ``make install``;
2. the same JSON beside the object, ``<obj>.mpicc-wrap.json``, written atomically
   (temporary file + ``os.replace``) so parallel ``make -j`` compiles never see a torn
   file.

What a build order can see: ``visible`` gives a compile the side files already present
in the directory of the object it produces and in the current directory.  A caller
compiled *after* its callee therefore gets the callee's summary at compile time and is
warned and instrumented then; a caller compiled *before* its callee only records a
deferred finding, which ``link_findings`` turns into a warning at link time, when every
object's summaries (from the ELF section of each object and of each static archive
member, falling back to side files) are known.  An object with deferred findings also
records how to recompile its source (``rebuild``: path, cwd, flags, sha256), so that
``relink`` can re-instrument it at the link.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import json
import mmap
import os
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

from mpicc_wrap.fileutil import write_atomically
from mpicc_wrap.model import Condition, Finding, FunctionSummary, Loc, Note, Pos
from mpicc_wrap.switches import Options

SCHEMA = 1
SECTION = ".mpicc_wrap"
SIDE_SUFFIX = ".mpicc-wrap.json"

# -- JSON encoding --------------------------------------------------------------------


def encode(summaries: dict[str, FunctionSummary], deferred: list[Finding],
           rebuild: dict[str, Any] | None = None) -> bytes:
    """The JSON record stored for one object.  ``rebuild`` (optional key, so schema 1
    readers ignore it) says how to recompile the object's source at link time."""
    doc: dict[str, Any] = {"schema": SCHEMA, "tool": "mpicc-wrap",
                           "summaries": [dataclasses.asdict(s) for s in summaries.values()],
                           "deferred": [dataclasses.asdict(f) for f in deferred]}
    if rebuild:
        doc["rebuild"] = rebuild
    return json.dumps(doc, sort_keys=True).encode()


def decode(data: bytes) -> tuple[dict[str, FunctionSummary], list[Finding]] | None:
    """Inverse of ``encode``; None for anything unreadable or of another schema."""
    try:
        doc = json.loads(data.rstrip(b"\0"))
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            return None
        sums = [FunctionSummary(**s) for s in doc["summaries"]]
        return {s.name: s for s in sums}, [_finding(f) for f in doc["deferred"]]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def decode_rebuild(data: bytes) -> dict[str, Any] | None:
    """The ``rebuild`` entry of a record (see ``encode``), or None."""
    try:
        doc = json.loads(data.rstrip(b"\0"))
    except ValueError:
        return None
    rebuild = doc.get("rebuild") if isinstance(doc, dict) else None
    return rebuild if isinstance(rebuild, dict) else None


def _finding(d: dict[str, Any]) -> Finding:
    d = dict(d)
    d.pop("suppressed", None)  # written by versions that kept verdicts in findings
    d["pos"], d["loc"] = Pos(**d["pos"]), Loc(**d["loc"])
    d["conditions"] = [Condition(Pos(**c["pos"]), Loc(**c["loc"]), c["text"], c["reason"])
                       for c in d["conditions"]]
    d["notes"] = [Note(Loc(**n["loc"]), n["message"]) for n in d["notes"]]
    return Finding(**d)


# -- store ----------------------------------------------------------------------------


def side_file(obj_path: str) -> str:
    return obj_path + SIDE_SUFFIX


def store(obj_path: str, summaries: dict[str, FunctionSummary], deferred: list[Finding],
          options: Options, rebuild: dict[str, Any] | None = None) -> None:
    """Record an object's summaries in its ELF section and in its side file.  An object
    with nothing to record loses any stale side file.  Never raises."""
    if not summaries and not deferred:
        with contextlib.suppress(OSError):
            os.unlink(side_file(obj_path))
        return
    data = encode(summaries, deferred, rebuild if deferred else None)
    try:
        write_atomically(side_file(obj_path), data)
    except OSError:
        pass  # a read-only build dir: the ELF section still carries the data
    _embed(obj_path, data)


def _embed(obj_path: str, data: bytes) -> bool:
    """Add (or replace) the ``.mpicc_wrap`` section of an ELF object with objcopy."""
    objcopy = shutil.which("objcopy")
    if objcopy is None or not _is_elf(obj_path):
        return False
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(obj_path) or ".", prefix=".mpicc-wrap-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        cmd = [objcopy, f"--remove-section={SECTION}", "--add-section", f"{SECTION}={tmp}",
               obj_path]
        done = subprocess.run(cmd, capture_output=True, timeout=60, check=False)
        return done.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


# -- visible at compile time ----------------------------------------------------------


def visible(obj_path: str, options: Options) -> dict[str, FunctionSummary]:
    """Summaries from side files in the object's directory and the current directory,
    except the object's own (stale) one and those whose object is gone (``make clean``
    removes objects, not our side files: a deleted function must not stay visible)."""
    own = os.path.abspath(side_file(obj_path))
    dirs = {os.path.abspath(os.path.dirname(obj_path) or "."), os.path.abspath(".")}
    merged: dict[str, FunctionSummary] = {}
    for d in sorted(dirs):
        for path in sorted(glob.glob(os.path.join(glob.escape(d), "*" + SIDE_SUFFIX))):
            if os.path.abspath(path) != own and os.path.exists(path[:-len(SIDE_SUFFIX)]):
                _merge(merged, _read_side(path))
    return merged


def _read_side(path: str) -> dict[str, FunctionSummary]:
    try:
        with open(path, "rb") as f:
            record = decode(f.read())
    except OSError:
        return {}
    return record[0] if record else {}


def _merge(into: dict[str, FunctionSummary], new: dict[str, FunctionSummary]) -> None:
    """Add summaries; on a name clash keep one that executes collectives (a static
    function of another TU may share the name: stay on the side of warning)."""
    for name, s in new.items():
        if name not in into or (s.has_collectives and not into[name].has_collectives):
            into[name] = s


# -- ELF and ar readers ---------------------------------------------------------------


def elf_section(data: bytes | mmap.mmap, name: str) -> bytes | None:
    """Contents of section ``name`` of an ELF32/ELF64 image of either byte order, or
    None (not ELF, no such section, or a corrupt section table)."""
    if len(data) < 52 or data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    is64, end = data[4] == 2, "<" if data[5] == 1 else ">"
    try:
        if is64:
            shoff, = struct.unpack_from(end + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
        else:
            shoff, = struct.unpack_from(end + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
        fmt = end + ("IIQQQQIIQQ" if is64 else "IIIIIIIIII")
        if shoff == 0 or shentsize < struct.calcsize(fmt):
            return None
        shnum = shnum or struct.unpack_from(fmt, data, shoff)[5]  # extended numbering
        if shoff + shnum * shentsize > len(data):
            return None
        headers = [struct.unpack_from(fmt, data, shoff + i * shentsize) for i in range(shnum)]
        if shstrndx == 0xFFFF:  # SHN_XINDEX: the real index is in section 0's sh_link
            shstrndx = headers[0][6]
        strtab = _contents(data, headers[shstrndx])
        for h in headers:
            if _cstring(strtab, h[0]) == name.encode():
                return _contents(data, h) if h[1] != 8 else b""  # SHT_NOBITS
    except (struct.error, IndexError, OverflowError):
        return None
    return None


def _contents(data: bytes | mmap.mmap, header: tuple[int, ...]) -> bytes:
    offset, size = header[4], header[5]
    if offset + size > len(data):
        raise IndexError("section beyond end of file")
    return data[offset:offset + size]


def _cstring(table: bytes, offset: int) -> bytes:
    endpos = table.find(b"\0", offset)
    return table[offset:endpos if endpos >= 0 else len(table)]


def archive_members(path: str) -> Iterator[tuple[str, bytes]]:
    """(name, contents) of each member of a System V/GNU or BSD ``ar`` archive, thin
    archives included (their members are read from disk).  Stops at corruption."""
    with _mapped(path) as data:
        yield from _members(path, data)


def _members(path: str, data: bytes | mmap.mmap) -> Iterator[tuple[str, bytes]]:
    thin = data[:8] == b"!<thin>\n"
    if not (thin or data[:8] == b"!<arch>\n"):
        return
    pos, longnames = 8, b""
    while pos + 60 <= len(data):
        header = data[pos:pos + 60]
        if header[58:60] != b"`\n":
            return
        raw, size = header[:16].rstrip(b" "), _int(header[48:58])
        if size is None:
            return
        body = pos + 60
        pos = body + (0 if thin and raw not in (b"/", b"//", b"/SYM64/") else size)
        pos += pos % 2
        if raw == b"//":
            longnames = data[body:body + size]
            continue
        if raw in (b"/", b"/SYM64/", b"__.SYMDEF", b"__.SYMDEF SORTED"):
            continue
        name, skip = _member_name(raw, longnames, data, body)
        if thin:
            member = _read_thin(path, name)
        else:
            member = data[body + skip:body + size]
        if member is not None:
            yield name, member


@contextlib.contextmanager
def _mapped(path: str) -> Iterator[bytes | mmap.mmap]:
    """The file's bytes, memory-mapped (libraries can be large); b"" if unreadable."""
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError:  # missing, unreadable, a directory
        yield b""
        return
    with f:
        try:
            m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # empty files cannot be mapped
            yield b""
            return
        with m:
            yield m


def _int(field: bytes) -> int | None:
    try:
        return int(field.strip() or b"0")
    except ValueError:
        return None


def _member_name(raw: bytes, longnames: bytes, data: bytes | mmap.mmap, body: int
                 ) -> tuple[str, int]:
    """Member name and how many bytes of BSD long name precede its contents."""
    if raw.startswith(b"#1/"):  # BSD: the name follows the header
        n = _int(raw[3:]) or 0
        return data[body:body + n].rstrip(b"\0").decode(errors="replace"), n
    if raw.startswith(b"/") and raw[1:].isdigit():  # GNU: offset into the "//" table
        offset = int(raw[1:])
        endpos = longnames.find(b"/\n", offset)
        name = longnames[offset:endpos if endpos >= 0 else len(longnames)]
        return name.decode(errors="replace"), 0
    return raw.rstrip(b"/").decode(errors="replace"), 0


def _read_thin(archive: str, name: str) -> bytes | None:
    try:
        with open(os.path.join(os.path.dirname(archive), name), "rb") as f:
            return f.read()
    except OSError:
        return None


# -- link step ------------------------------------------------------------------------


@dataclasses.dataclass
class _Record:
    """What one object contributes: where it came from, its summaries and deferrals."""

    origin: str
    summaries: dict[str, FunctionSummary]
    deferred: list[Finding]
    rebuild: dict[str, Any] | None = None  # how to recompile it (objects with deferrals)
    path: str = ""  # the link input it comes from (the archive, for a member)
    member: str = ""  # the archive member name, "" for an object


Record = _Record  # public name, for the link-time re-instrumentation (relink)


def read_inputs(link_inputs: list[str]) -> list[_Record]:
    """Records of every object and archive member among the link inputs."""
    records: list[_Record] = []
    for path in link_inputs:
        members = list(archive_members(path))
        if members:
            for name, data in members:
                raw = elf_section(data, SECTION) or b""
                record = decode(raw)
                if record:
                    records.append(_Record(f"{path}({name})", *record, _rebuild(record, raw),
                                           path, name))
            continue
        raw = _read_object(path) or b""
        record = decode(raw)
        if record:
            records.append(_Record(path, *record, _rebuild(record, raw), path))
    return records


def _rebuild(record: tuple[dict[str, FunctionSummary], list[Finding]], raw: bytes
             ) -> dict[str, Any] | None:
    return decode_rebuild(raw) if record[1] else None


def _read_object(path: str) -> bytes | None:
    """The raw record of an object: its ELF section, else its side file."""
    with _mapped(path) as data:
        section = elf_section(data, SECTION)
    if section is not None:
        return section
    try:
        with open(side_file(path), "rb") as f:
            return f.read()
    except OSError:
        return None


def link_findings(link_inputs: list[str]) -> list[Finding]:
    """Deferred calls whose callee, now known at link time, executes collectives (the
    driver prints and reports them like compile-time findings)."""
    records = read_inputs(link_inputs)
    known = known_summaries(records)
    findings: dict[tuple[Loc, str], Finding] = {}
    for r in records:
        for f in resolved(r, known):
            findings.setdefault((f.loc, f.callee), _escalate(f, known[f.callee]))
    return list(findings.values())


def known_summaries(records: list[_Record], skip: _Record | None = None
                    ) -> dict[str, FunctionSummary]:
    """Every summary of the records (but ``skip``'s), merged as ``_merge`` does."""
    known: dict[str, FunctionSummary] = {}
    for r in records:
        if r is not skip:
            _merge(known, r.summaries)
    return known


def resolved(record: _Record, known: dict[str, FunctionSummary]) -> list[Finding]:
    """The deferred findings of ``record`` whose callee, per ``known``, executes
    collectives: they hold."""
    return [f for f in record.deferred
            if f.callee in known and known[f.callee].has_collectives]


def _escalate(f: Finding, callee: FunctionSummary) -> Finding:
    """The link-time warning for a deferred finding whose callee executes collectives."""
    first = callee.sequence[0].split("@")[0] if callee.sequence else "collectives"
    where = f"{first} in {callee.name}() at {callee.file}:{callee.line}"
    message = (f"call to {callee.name}() executes collectives ({where}) and may not be "
               f"reached by all processes")
    return dataclasses.replace(f, collective=f"call to {callee.name}()", message=message)
