"""Link-time re-instrumentation: recompile, with every link input's summaries visible,
the objects whose deferred findings the link resolves.

A caller compiled before the TU defining its callee (make's usual order) only records a
*deferred* finding: the call is suspect only if the callee executes collectives, which
no compile-time analysis could see (see ``summaries``).  At the link every object's
summaries are known.  Like LTO, but only for the TUs that need it, ``substitutes``
recompiles each such object's source (recorded by ``describe`` at compile time, with
its sha256) through the normal stage — the deferred finding is now a real one, so the
rewriter inserts the PARCOACH run-time check (paper 004 §3.2, Algorithm 2) before the
call — into the private temporary directory, and the driver links that object instead
(for an archive member: a private copy of the archive with the member replaced).  The
user's files are never modified.  Our failure here is one ``note:`` and the original
objects are linked (an error under MPICC_WRAP_STRICT=1).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import os
import shutil
import subprocess
import sys
from typing import Any, TextIO

from mpicc_wrap.analysis import summaries
from mpicc_wrap.analysis.summaries import Record
from mpicc_wrap.driver import cmdline, netcompile, resultcache, stage
from mpicc_wrap.driver import commands as pp
from mpicc_wrap.driver import compiler as cc
from mpicc_wrap.driver.cmdline import Arg, Invocation
from mpicc_wrap.errors import AnalysisSkipped, WrapError
from mpicc_wrap.fileutil import write_atomically
from mpicc_wrap.model import FunctionSummary
from mpicc_wrap.switches import Options, cache_dir

__all__ = ["VERSION", "describe", "substitutes"]

VERSION = 1
SOURCE_CHANGED = "source changed since it was compiled; rebuild it"
NO_SOURCE = "its source was not recorded when it was compiled; rebuild it"
RELINK_SUFFIX = ".o"


class CannotRelink(Exception):
    """This object cannot be re-instrumented; the message says why."""


def describe(inv: Invocation, source: Arg) -> dict[str, Any] | None:
    """What ``substitutes`` needs to recompile ``source`` later: its path as given and
    absolute, the cwd, the user's compile flags (no -c/-o, dependency flags or other
    inputs) and the sha256 of its contents now.  None for standard input."""
    if source.value == "-":
        return None
    path = os.path.abspath(source.value)
    try:
        digest = _sha256(path)
    except OSError:
        return None
    return {"version": VERSION, "source": path, "given": source.value, "cwd": os.getcwd(),
            "args": pp.words(inv, pp.PREPROCESS_KINDS), "sha256": digest}


def _sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def substitutes(records: list[Record], compiler: list[str], options: Options, tmp: str,
                stream: TextIO | None = None) -> dict[str, str]:
    """From the ``records`` of the link inputs (``runtime.objects.read_inputs``), map
    each link input holding an object with resolved deferred findings to its
    re-instrumented replacement in ``tmp``.  Inputs that cannot be redone get a note
    (or raise ``WrapError`` under MPICC_WRAP_STRICT) and are linked as they are."""
    out = stream if stream is not None else sys.stderr
    if not options.instrument:
        return {}
    known = summaries.known_summaries(records)
    tmp = os.path.abspath(tmp)  # recompiles run in the cwd of their original compile
    subst: dict[str, str] = {}
    for k, record in enumerate(records):
        if not summaries.resolved(record, known) or (record.path in subst
                                                      and not record.member):
            continue  # nothing to check, or an object listed twice: already done
        try:
            obj = recompile(record, summaries.known_summaries(records, skip=record),
                            compiler, options, os.path.join(tmp, f"relink-{k}"))
            if obj is not None:
                _substitute(subst, record, obj, tmp, k)
        except (CannotRelink, OSError, subprocess.SubprocessError, WrapError) as exc:
            _note(record.origin, str(exc), options, out)
        except Exception as exc:  # our failure never fails the user's link
            _note(record.origin, f"internal error: {type(exc).__name__}: {exc}", options, out)
    return subst


def _note(origin: str, reason: str, options: Options, out: TextIO) -> None:
    message = f"cannot re-instrument {origin}: {reason}"
    if options.strict:
        raise WrapError(message)
    print(f"mpicc-wrap: note: {message}", file=out)


def recompile(record: Record, external: dict[str, FunctionSummary], compiler: list[str],
              options: Options, workdir: str) -> str | None:
    """Recompile the source of ``record`` with ``external``
    visible into ``workdir``; the new object, or None when nothing needs a check."""
    info = record.rebuild
    if not info or info.get("version") != VERSION:
        raise CannotRelink(NO_SOURCE)
    try:
        unchanged = _sha256(info["source"]) == info["sha256"]
    except OSError:
        unchanged = False
    if not unchanged:
        raise CannotRelink(SOURCE_CHANGED)
    os.makedirs(workdir, exist_ok=True)
    name = os.path.basename(record.member) if record.member else pp.stem(info["given"]) + ".o"
    obj = os.path.join(workdir, name)
    with contextlib.chdir(info["cwd"]):
        return obj if _compile(info, external, compiler, options, workdir, obj) else None


def _compile(info: dict[str, Any], external: dict[str, FunctionSummary],
             compiler: list[str], options: Options, workdir: str, obj: str) -> bool:
    """Preprocess, analyse (printing nothing: the link warning already said it), rewrite
    and compile; False when the analysis finds nothing to check after all."""
    inv = cmdline.parse([*info["args"], "-c", "-x", "c", info["given"], "-o", obj])
    text_path, dep_path = os.path.join(workdir, "tu.i"), os.path.join(workdir, "tu.d")
    _run(pp.preprocess_command(compiler, inv, inv.sources[0], text_path, dep_path),
         "preprocessing failed")
    with open(text_path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    quiet = options._replace(report="", sarif="", stats=False, werror=False)
    cached = _cached(text, info, external, compiler, quiet)
    if cached is not None and cached.hit(obj):
        return cached.instrumented
    try:
        result = stage.run_budgeted(text, info["given"], compiler, quiet, external=external,
                                    warning_flags=inv.warning_flags, stream=io.StringIO())
    except AnalysisSkipped as exc:
        raise CannotRelink(str(exc)) from None
    if result.text is None:
        if cached is not None:
            cached.keep(None)
        return False
    rewritten = os.path.join(workdir, "tu-rewritten.i")
    with open(rewritten, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(result.text)
    code, err = netcompile.compile_rewritten(compiler, inv, rewritten, text_path, obj)
    if code != 0:
        raise CannotRelink("instrumented code did not compile: " + _first_line(err)
                           if err.strip() else "instrumented code did not compile")
    if options.debug:
        print(f"mpicc-wrap: debug: re-instrumented {info['given']} at link time",
              file=sys.stderr)
    if cached is not None:
        cached.keep(obj)
    return True


@dataclasses.dataclass
class _Cached:
    """A re-instrumented object in the cache: every executable linked against the same
    archive needs the same replacement members, and recompiling them at each link cost
    a p4est example link 28 s (plain: 0.3 s).  ``path`` holds the object, or is an
    empty file when the analysis found nothing to check after all."""

    path: str
    instrumented: bool = False

    def hit(self, obj: str) -> bool:
        """Copy the cached object to ``obj``; False on a miss."""
        try:
            size = os.path.getsize(self.path)
            self.instrumented = size > 0
            if self.instrumented:
                shutil.copyfile(self.path, obj)
            os.utime(self.path)  # recently used: evicted last
        except OSError:
            return False
        return True

    def keep(self, obj: str | None) -> None:
        """Store ``obj`` (None: nothing to check); failures are ignored."""
        try:
            data = b""
            if obj is not None:
                with open(obj, "rb") as f:
                    data = f.read()
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_atomically(self.path, data, 0o600)
            if int(os.path.basename(self.path)[:8], 16) % resultcache.EVICT_EVERY == 0:
                resultcache.evict(os.path.dirname(self.path), resultcache.MAX_BYTES,
                                  RELINK_SUFFIX)
        except OSError:
            pass


def _cached(text: str, info: dict[str, Any], external: dict[str, FunctionSummary],
            compiler: list[str], options: Options) -> _Cached | None:
    """The cache slot of this recompile, keyed like an analysis result (preprocessed
    text, external summaries it names, tool, mode) plus the compile flags; None when
    the result cache is off."""
    if not resultcache.enabled(options):
        return None
    name = resultcache.key(text, info["given"], [*compiler, "\0", *info["args"]],
                           options, external)
    return _Cached(os.path.join(cache_dir(options), "relink", name + RELINK_SUFFIX))


def _run(cmd: list[str], failure: str) -> None:
    code, err = cc.run(cmd, capture=True)
    if code != 0:
        raise CannotRelink(f"{failure}: {_first_line(err)}" if err.strip() else failure)


def _first_line(err: bytes) -> str:
    return err.decode(errors="replace").strip().splitlines()[0][:200]


def _substitute(subst: dict[str, str], record: Record, obj: str, tmp: str, k: int) -> None:
    """Link ``obj`` instead of the record's object; for an archive member, replace the
    member in a private copy of the archive (``ar r`` keeps the member order)."""
    if not record.member:
        subst[record.path] = obj
        return
    copy = subst.get(record.path)
    if copy is None:
        copy = os.path.join(tmp, f"relink-{k}-{os.path.basename(record.path)}")
        with open(record.path, "rb") as f:
            if f.read(8) != b"!<arch>\n":
                raise CannotRelink("thin or unknown archive format")
        shutil.copyfile(record.path, copy)
    ar = shutil.which("ar")
    if ar is None:
        raise CannotRelink("ar not found")
    done = subprocess.run([ar, "r", copy, obj], capture_output=True, timeout=120,
                          check=False)
    if done.returncode != 0:
        raise CannotRelink("ar failed to replace the member")
    subst[record.path] = copy
