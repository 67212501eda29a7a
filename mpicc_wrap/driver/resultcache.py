"""A ccache-like cache of analysis results, so that rebuilding an unchanged TU skips
parsing and analysis (the dominant per-TU cost after Python start-up).

Key: sha256 of the preprocessed text, the TU name, the compiler command, the visible
external summaries of functions named in the text, ``MPICC_WRAP_INSTRUMENT`` (0, 1, all) and a
fingerprint of this tool's own code.  Value: the ``TUAnalysis`` (printing never changes
it: it returns verdicts), the rewritten text and the main file name (pickled, zlib-compressed).
Printing is not cached: on a hit the stage re-runs ``report.emit``, so warnings,
suppression markers (read from the user's source, not from the preprocessed text),
colours, -W flags and JSON/SARIF reports behave exactly as on a miss.

Entries live in ``cache_dir(options)/results/``, are written atomically (temporary
file + ``os.replace``, safe under ``make -j``), are private to the user (0600, the
directory is the user's own cache) and the whole store is bounded by ``MAX_BYTES``
(oldest-used entries evicted, checked on about one write in ``EVICT_EVERY``).
An unreadable or corrupt entry is a miss.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import pickle
import sys
import zlib
from dataclasses import dataclass

from mpicc_wrap import packagedata
from mpicc_wrap.analysis import summaries
from mpicc_wrap.fileutil import write_atomically
from mpicc_wrap.model import FunctionSummary, TUAnalysis
from mpicc_wrap.switches import Options, cache_dir

__all__ = [
    "EVICT_EVERY", "MAX_BYTES", "SUFFIX", "Entry", "directory", "enabled", "evict", "key",
    "load", "store", "tool_fingerprint",
]

FORMAT = b"mpicc-wrap-results-1"  # bump when the cached value changes meaning
MAX_BYTES = 200 * 1024 * 1024
# Scanning the store costs O(entries); it runs on about one write in EVICT_EVERY (the
# key is a uniform hash), so the store may exceed MAX_BYTES by ~EVICT_EVERY entries.
EVICT_EVERY = 32
_PARSERS = ("pycparser", "pycparserext")
SUFFIX = ".pickle"


@dataclass
class Entry:
    """What a cache hit gives back to the stage."""

    main_file: str
    analysis: TUAnalysis
    text: str | None  # rewritten preprocessed text, None: compile the original source


def enabled(options: Options) -> bool:
    return options.result_cache and not options.debug


def directory(options: Options) -> str:
    return os.path.join(cache_dir(options), "results")


@functools.cache
def tool_fingerprint() -> bytes:
    """Identity of this tool's code (module and template files: name, size, mtime) and
    of the parsers it runs on (pycparser, pycparserext: located without importing
    them), so that an upgrade or a local edit never serves results of other code."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    digest = hashlib.sha256(sys.version.encode())
    for parser in _PARSERS:  # their version decides what the frontend accepts
        spec = importlib.util.find_spec(parser)
        origin = spec.origin if spec is not None else None
        if origin and os.path.exists(origin):
            st = os.stat(origin)
            digest.update(f"{parser}\0{origin}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    templates = str(packagedata.data_dir("templates"))
    for folder in sorted({package, os.path.realpath(templates)}):
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                st = os.stat(os.path.join(root, name))
                digest.update(f"{root}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.digest()


def key(pp_text: str, source: str, compiler: list[str], options: Options,
        external: dict[str, FunctionSummary]) -> str:
    """The cache key of one analysis (hex sha256)."""
    digest = hashlib.sha256(FORMAT)
    digest.update(tool_fingerprint())
    visible = repr(sorted(relevant(pp_text, external).items()))
    mode = (f"{options.instrument}/{options.instrument_all}/{options.exit_divergence}/"
            f"{options.error_divergence}/{options.strict_aliasing}")
    for part in (source, "\0".join(compiler), mode, visible):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0\1")
    digest.update(pp_text.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def relevant(pp_text: str, external: dict[str, FunctionSummary],
             ) -> dict[str, FunctionSummary]:
    """The external summaries the analysis of ``pp_text`` can consult: it looks them up
    only by the names of functions the TU calls or declares, so a summary whose name
    is not an identifier of the text cannot change the result.  Keying on these alone
    keeps hits under ``make -j``, where which other objects already exist varies.
    (One scan of the text: a link offers thousands of summaries, and a substring search
    per name cost 0.3 s per object on p4est.)"""
    names = summaries.identifiers(pp_text)
    return {name: s for name, s in external.items() if name in names}


def load(options: Options, name: str) -> Entry | None:
    """The entry stored under ``name``, or None (absent, unreadable or corrupt)."""
    path = os.path.join(directory(options), name + SUFFIX)
    try:
        with open(path, "rb") as f:
            data = f.read()
        entry = pickle.loads(zlib.decompress(data))
    except Exception:  # absent, unreadable, truncated or from an older layout
        return None
    if not isinstance(entry, Entry) or not isinstance(entry.analysis, TUAnalysis):
        return None
    try:
        os.utime(path)  # recently used: evicted last
    except OSError:
        pass
    return entry


def store(options: Options, name: str, entry: Entry) -> None:
    """Write ``entry`` under ``name`` atomically, then keep the store within bounds.
    Failures (read-only or full disk) are ignored: the cache is an optimisation."""
    folder = directory(options)
    try:
        os.makedirs(folder, exist_ok=True)
        data = zlib.compress(pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL), 1)
        write_atomically(os.path.join(folder, name + SUFFIX), data, 0o600)
        if int(name[:8], 16) % EVICT_EVERY == 0:  # about one write in EVICT_EVERY
            evict(folder, MAX_BYTES)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # unwritable, or a value that cannot be pickled: no entry


def evict(folder: str, limit: int, suffix: str = SUFFIX) -> None:
    """Delete the least recently used entries until the store holds at most ``limit``
    bytes (entries another process deletes meanwhile are skipped)."""
    entries = []
    for item in os.scandir(folder):
        if item.name.endswith(suffix):
            try:
                st = item.stat()
            except OSError:
                continue
            entries.append((st.st_mtime_ns, st.st_size, item.path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        try:
            os.unlink(path)
        except OSError:
            pass
        total -= size
