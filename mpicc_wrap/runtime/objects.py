"""Object files as carriers of summaries: the ELF section and ``ar`` reader, the
objcopy writer, and the per-object records the link step reads.

``store`` writes an object's summary record (``analysis.summaries.encode``) into a
non-allocated ELF section ``.mpicc_wrap`` with ``objcopy`` (so it travels into static
archives and survives ``make install``) and beside the object as
``<obj>.mpicc-wrap.json`` (atomically, ``fileutil``).  ``read_inputs`` gives the
``Record`` of every object and archive member among the link inputs (the ELF section,
else the side file), for the link check (``analysis.summaries.link_findings``) and
the link-time re-instrumentation (``driver.relink``).  The readers parse ELF32/ELF64
of either byte order and System V/GNU/BSD/thin archives in pure Python.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

from mpicc_wrap.analysis.summaries import (
    SECTION,
    Record,
    decode,
    decode_rebuild,
    encode,
    publish,
    side_file,
)
from mpicc_wrap.model import Finding, FunctionSummary
from mpicc_wrap.switches import Options

__all__ = ["archive_members", "elf_section", "read_inputs", "store"]


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
        publish(obj_path, summaries, deferred, rebuild)
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


# -- link inputs ------------------------------------------------------------------------


def read_inputs(link_inputs: list[str]) -> list[Record]:
    """Records of every object and archive member among the link inputs."""
    records: list[Record] = []
    for path in link_inputs:
        members = list(archive_members(path))
        if members:
            for name, data in members:
                raw = elf_section(data, SECTION) or b""
                record = decode(raw)
                if record:
                    records.append(Record(f"{path}({name})", *record, _rebuild(record, raw),
                                           path, name))
            continue
        raw = _read_object(path) or b""
        record = decode(raw)
        if record:
            records.append(Record(path, *record, _rebuild(record, raw), path))
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
