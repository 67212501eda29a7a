"""The direct cache: a rebuild of an unchanged compile skips the preprocessor, the
analysis and the compiler (ccache's "direct mode", applied to the whole wrapped compile).

``store``: after a successful ``-c`` of one C source, the pipeline records under a key
of the raw command line an entry holding
- what the compile read: the source and every header the preprocessor entered (its
  line markers name them), each with its sha256;
- the compilers it ran (the MPI wrapper and the compiler its ``-show`` names), by
  size and modification time, as ccache's default ``compiler_check`` does;
- the cross-TU summaries the analysis read: the names it consulted (the functions
  the TU calls and does not define) and a digest of the live index entries for them
  (``sideindex.visible``), since they change the analysis and so the object;
- what it produced: the object (with its summary section), the depfile, everything
  written to stderr (the compiler's messages and ours), the object's side record.

``serve`` runs first in ``python -m mpicc_wrap``, before anything heavy is imported: with
the same key and every recorded file, compiler and summary unchanged it writes the
outputs back, republishes the object's summaries, replays stderr and exits 0.
Anything else is a miss, and the full pipeline runs (and stores anew).

Key: entry format, Python version, this tool's code (``tool_fingerprint``), the
arguments, the working directory (relative paths, debug info) and the environment
variables that can change what the compilers or mpicc-wrap do (``ENV_PREFIXES``,
``ENV_NAMES``).

Not served while a JSON or SARIF report is requested (its records come from the
analysis), though such a compile stores its entry.  Not cached: stderr is a terminal
(compilers colour their messages there; a replay would not); anything but ``-c`` of
exactly one C source file; a failed compile or a skipped analysis; a used
``__DATE__``, ``__TIME__`` or ``__TIMESTAMP__``; flags that read or write files the
entry does not track (``UNCACHEABLE``); ``@file`` arguments.
``MPICC_WRAP_RESULT_CACHE=0`` (every TU analysed) turns it off with the result cache.

Limit, shared with ccache's direct mode: a header created later in an include
directory searched before the one where a recorded header was found is not noticed
(``make clean`` or ``MPICC_WRAP_RESULT_CACHE=0`` recovers).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from mpicc_wrap import sideindex
from mpicc_wrap.fileutil import write_all, write_atomically

__all__ = ["ENV_NAMES", "ENV_PREFIXES", "FOLDER", "UNCACHEABLE", "cacheable_args",
           "digest", "serve", "store", "tool_fingerprint"]

FORMAT = "mpicc-wrap-direct-3"  # bump when an entry changes meaning
VARIANTS = 4  # results kept per command (see ``store``)
FOLDER = "direct"  # under the cache directory
ENV_PREFIXES = ("MPICC_WRAP_", "MPICH_", "OMPI_", "OPAL_", "GCC_", "LC_")
REPORTS = ("MPICC_WRAP_REPORT", "MPICC_WRAP_SARIF")  # outside the key: no effect on outputs
ENV_NAMES = frozenset({"PATH", "MPICC", "CPATH", "C_INCLUDE_PATH", "COMPILER_PATH",
                       "SOURCE_DATE_EPOCH", "DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES",
                       "LANG", "LANGUAGE", "PYTHONPATH", "XDG_CACHE_HOME", "HOME"})
# Flags whose extra inputs or outputs an entry does not track, or whose messages vary.
UNCACHEABLE = ("-save-temps", "-fdump-", "-ftest-coverage", "--coverage", "-fprofile-",
               "-fauto-profile", "-gsplit-dwarf", "-fstack-usage", "-fcallgraph-info",
               "-aux-info", "-specs", "-fplugin", "-wrapper", "-B", "-iplugindir",
               "-fsanitize-blacklist", "-fsanitize-ignorelist", "-fsave-optimization-record",
               "-fopt-info", "-ftime-report", "-fmem-report", "-fcompare-debug",
               "-fdiagnostics-format", "-Q", "-v", "-###", "-E", "-M")
_TIME_MACROS = (b"__DATE__", b"__TIME__", b"__TIMESTAMP__")
_OFF = ("", "0", "no", "off", "false")
_BUFFER = 1 << 20


# -- the key -------------------------------------------------------------------------


def cacheable_args(argv: list[str]) -> bool:
    """A quick screen of the raw arguments: a compile (-c), no response file, no flag
    of ``UNCACHEABLE`` (``-M`` covers -M/-MM/-MG; -MD/-MMD/-MF/-MT/-MQ/-MP are fine)."""
    if "-c" not in argv:
        return False
    for arg in argv:
        if arg.startswith("@") or arg == "-":
            return False
        if arg in ("-MD", "-MMD", "-MF", "-MT", "-MQ", "-MP"):
            continue
        if arg.startswith(UNCACHEABLE):
            return False
    return True


def _on(env: dict[str, str] | os._Environ[str], name: str, default: str) -> bool:
    """The switch reading of ``switches._flag``, without importing it."""
    return env.get(name, default).strip().lower() not in _OFF


def usable(env: dict[str, str] | os._Environ[str]) -> bool:
    """Whether this environment may store in the direct cache (see the module doc)."""
    return (_on(env, "MPICC_WRAP_RESULT_CACHE", "1") and not _on(env, "MPICC_WRAP_DEBUG", "0")
            and not _on(env, "MPICC_WRAP_DISABLE", "0") and not env.get("MPICC_WRAP_ACTIVE")
            and not os.isatty(2))


def servable(env: dict[str, str] | os._Environ[str]) -> bool:
    """Whether a hit may be served: not when a report asks for the analysis' records
    (a compile that writes one still stores its entry, for the rebuilds without)."""
    return usable(env) and not any(env.get(name) for name in REPORTS)


def key(argv: list[str], env: dict[str, str] | os._Environ[str], cwd: str) -> str:
    """The entry name (hex sha256) of a command run in ``cwd`` under ``env``."""
    h = hashlib.sha256(FORMAT.encode())
    h.update(sys.version.encode())
    h.update(tool_fingerprint())
    settings = sorted((k, v) for k, v in env.items()
                      if (k in ENV_NAMES or k.startswith(ENV_PREFIXES)) and k not in REPORTS)
    for part in (cwd, *argv, "\1", *(f"{k}={v}" for k, v in settings)):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


_fingerprint: bytes | None = None


def tool_fingerprint() -> bytes:
    """Identity of this tool's code (every file of the package and of its templates:
    name, size, mtime) and of the parsers it runs on (found on ``sys.path`` without
    importing them), so that an upgrade or a local edit never serves results of other
    code."""
    global _fingerprint
    if _fingerprint is None:
        package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        h = hashlib.sha256(sys.version.encode())
        for parser in ("pycparser", "pycparserext"):
            for entry in sys.path:
                init = os.path.join(entry or ".", parser, "__init__.py")
                if os.path.exists(init):
                    st = os.stat(init)
                    h.update(f"{parser}\0{init}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
                    break
        beside = os.path.join(os.path.dirname(package), "templates")  # a source checkout
        for folder in (package, *([beside] if os.path.isdir(beside) else [])):
            for root, dirs, files in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(files):
                    st = os.stat(os.path.join(root, name))
                    h.update(f"{root}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        _fingerprint = h.digest()
    return _fingerprint


def digest(entries: list[tuple[str, dict[str, Any]]]) -> str:
    """A digest of the summaries a compile saw (``sideindex.visible`` of the names its
    analysis consulted, ``TUAnalysis.consulted``) as the analysis sees them: one per
    name (``sideindex.merged``), whichever objects published it (that varies with the
    order of a parallel build)."""
    import json

    view = sideindex.merged(entries)
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()


def _path(cache: str, name: str) -> str:
    return os.path.join(cache, FOLDER, name + ".entry")


# -- serving a hit -------------------------------------------------------------------


def serve(argv: list[str]) -> int | None:
    """Replay the entry of this command if everything it recorded is unchanged: the exit
    status (0), else None (a miss: run the pipeline).  Never raises."""
    try:
        env = os.environ
        if not cacheable_args(argv) or not servable(env):
            return None
        cache = env.get("MPICC_WRAP_CACHE") or os.path.join(  # as switches.cache_dir
            env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "mpicc-wrap")
        path = _path(cache, key(argv, env, os.getcwd()))
        hashes: dict[str, str] = {}
        for variant in _variants(path):
            if _unchanged(variant, hashes):
                _replay(variant)
                os.utime(path)  # recently used: evicted last
                return 0
        return None
    except Exception:  # absent, unreadable, corrupt or unwritable: the pipeline decides
        return None


def _variants(path: str) -> list[dict[str, Any]]:
    """The results stored under ``path``, newest first ([] if none or unreadable)."""
    try:
        with open(path, "rb") as f:
            entry = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return []
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        return []
    return list(entry["variants"])


def _unchanged(variant: dict[str, Any], hashes: dict[str, str]) -> bool:
    """Every file, compiler and visible summary the variant recorded is as it was
    (``hashes``: file digests already computed for the variants tried before)."""
    for path, size, mtime in variant["tools"]:
        st = os.stat(path)
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return False
    for path, sha in variant["inputs"]:
        if path not in hashes:
            hashes[path] = _sha256(path)
        if hashes[path] != sha:
            return False
    seen = sideindex.visible(variant["object"][0], variant["names"], variant["dirs"])
    return digest(seen) == variant["external"]


def _replay(entry: dict[str, Any]) -> None:
    """Write the outputs back as the compile wrote them."""
    mask = os.umask(0)
    os.umask(mask)
    obj, data = entry["object"]
    write_atomically(obj, data, 0o666 & ~mask)
    if entry["depfile"] is not None:
        dep, text = entry["depfile"]
        write_atomically(dep, text, 0o666 & ~mask)
    side = entry["side"]
    try:
        if side is None:
            os.unlink(sideindex.side_file(obj))
        else:
            sideindex.publish(obj, side[0], side[1])
    except OSError:
        pass  # no stale side file, or a read-only directory: as objects.store
    if entry["stderr"]:
        sys.stderr.flush()
        write_all(2, entry["stderr"])


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_BUFFER):
            h.update(chunk)
    return h.hexdigest()


# -- storing -------------------------------------------------------------------------


def inputs(pp_text: str, cwd: str) -> list[str]:
    """The files a preprocessed TU was made of, from its line markers
    (``# LINE "FILE" FLAGS``), in order of first appearance; ``<built-in>`` and the
    like left out, and so is the working directory that gcc names (``"DIR//"``) under
    ``-g``."""
    import re

    found: dict[str, None] = {}
    for match in re.finditer(r'^# \d+ "((?:[^"\\]|\\.)*)"', pp_text, re.MULTILINE):
        name = re.sub(r"\\(.)", r"\1", match.group(1))
        if not name.startswith("<") and not name.endswith("//"):
            found[os.path.join(cwd, name)] = None
    return list(found)


def expands_time(pp_text: str) -> bool:
    """Whether the preprocessed text may hold an expansion of ``__DATE__`` ("Nov 24
    2026"), ``__TIME__`` ("19:58:12") or ``__TIMESTAMP__`` (both).  Headers often
    define a version string with them that a TU never uses; only a use changes the
    object from one build to the next."""
    import re

    return re.search(r"\b(?:[A-Z][a-z]{2} [ \d]\d \d{4}|\d\d:\d\d:\d\d)\b", pp_text) is not None


def store(argv: list[str], cache: str, record: dict[str, Any]) -> bool:
    """Store ``record`` (object, depfile, stderr, side, names, external, tools and the
    preprocessed ``text``) as the newest result of this command; False when it must
    not be cached (a time macro used) or cannot be (an unreadable input, an
    unwritable cache).

    A command keeps up to ``VARIANTS`` results that differ in what they saw: under
    ``make -j`` a callee's object may or may not be done when its caller compiles, so
    successive rebuilds can alternate between two sets of visible summaries."""
    from mpicc_wrap.driver import resultcache

    cwd = os.getcwd()
    text = record.pop("text")
    files = []
    try:
        for path in inputs(text, cwd):
            with open(path, "rb") as f:
                data = f.read()
            if any(macro in data for macro in _TIME_MACROS) and expands_time(text):
                return False
            files.append((path, hashlib.sha256(data).hexdigest()))
        tools = [(p, st.st_size, st.st_mtime_ns)
                 for p in record.pop("tool_paths") for st in [os.stat(p)]]
        new = {"inputs": files, "tools": tools, **record}
        path = _path(cache, key(argv, os.environ, cwd))
        same = ("inputs", "tools", "external")
        older = [v for v in _variants(path) if any(v[k] != new[k] for k in same)]
        entry = {"format": FORMAT, "variants": [new, *older][:VARIANTS]}
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomically(path, marshal.dumps(entry), 0o600)
        if int(path[-14:-6], 16) % resultcache.EVICT_EVERY == 0:  # about one write in 32
            resultcache.evict(os.path.dirname(path), resultcache.MAX_BYTES, ".entry")
    except (OSError, ValueError):
        return False
    return True
