"""Findings of two versions of the analysis on every TU of a real-code build, in process.

    python benchmarks/findings_diff.py W/results/PROJECT.compiles.tsv [...]
                                       [--before REF] [--after REF|WORKTREE]

``benchmarks/realcode.py`` records each wrapped compile of a project in
``PROJECT.compiles.tsv`` (status, start, end, -, directory, arguments).  For every
successful ``-c`` of one C source there, this preprocesses the source with ``mpicc``
and the recorded flags (less outputs and dependency options), then parses and analyses
it in process with each version (``git archive REF``, or the checkout for
``WORKTREE``, first on PYTHONPATH), with no other TU's summary: the comparison shows
what a version changes in the analysis itself, not the order in which ``make -j``
happened to publish summaries.  Printed: the findings (``file:line:collective``) only
one version has, per TU, then per project the TUs analysed and the findings of each.
Findings grouped under one cause count once each; the build prints fewer warnings.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from _common import BenchError, mpirun
from analysis_speed import export

# Flags that name outputs or dependency files: dropped (with their argument) for -E.
_WITH_ARGUMENT = frozenset({"-o", "-MT", "-MF", "-MQ"})
_ALONE = frozenset({"-c", "-MD", "-MMD", "-MP"})


class Compile(NamedTuple):
    """One recorded compile: its directory, source and the flags -E keeps."""

    cwd: str
    source: str
    flags: list[str]


def compiles(tsv: Path) -> list[Compile]:
    """The successful ``-c`` compiles of exactly one C source, each source once."""
    found: dict[str, Compile] = {}
    for line in tsv.read_text().splitlines():
        parts = line.split("\t")
        if len(parts) < 6 or parts[0] != "ok":
            continue
        args = shlex.split(parts[5])
        sources = [a for a in args if a.endswith(".c")]
        if len(sources) != 1 or "-c" not in args:
            continue
        flags, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a in _WITH_ARGUMENT:
                skip = True
            elif a not in _ALONE and a != sources[0]:
                flags.append(a)
        found.setdefault(os.path.join(parts[4], sources[0]),
                         Compile(parts[4], sources[0], flags))
    return list(found.values())


def analyse_all(tsv: Path) -> dict[str, list[str]]:
    """``{TU path: sorted findings}`` with the mpicc_wrap this process imports."""
    from analysis_helpers import OPTIONS  # tests/ is on sys.path (_common)

    from mpicc_wrap.analysis import unit
    from mpicc_wrap.frontend import parser

    out: dict[str, list[str]] = {}
    for c in compiles(tsv):
        key = os.path.join(c.cwd, c.source)
        pp = subprocess.run([*mpirun.mpicc(), "-E", *c.flags, c.source], cwd=c.cwd,
                            capture_output=True, text=True, timeout=300)
        if pp.returncode != 0:
            continue
        try:
            result = unit.analyse(parser.parse(pp.stdout, key, mpirun.mpicc(), OPTIONS), {})
        except Exception as e:  # a TU this version cannot parse: shown, not fatal
            out[key] = [f"skipped: {type(e).__name__}"]
            continue
        out[key] = sorted(f"{f.loc.file}:{f.loc.line}:{f.collective}"
                          for f in result.findings)
    return out


def differences(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[str]:
    """``- TU finding`` / ``+ TU finding`` lines for the findings one side lacks."""
    lines = []
    for tu in sorted(set(before) | set(after)):
        old, new = set(before.get(tu, [])), set(after.get(tu, []))
        lines += [f"- {tu}: {f}" for f in sorted(old - new)]
        lines += [f"+ {tu}: {f}" for f in sorted(new - old)]
    return lines


def total(found: dict[str, list[str]]) -> int:
    """The number of findings (a TU a version could not parse counts none)."""
    return sum(len(f) for f in found.values() if not f or not f[0].startswith("skipped"))


def run_version(tree: Path, tsv: Path, out: Path) -> dict[str, list[str]]:
    """Analyse ``tsv``'s TUs in a child process that imports mpicc_wrap from ``tree``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tree), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    done = subprocess.run([sys.executable, __file__, "--dump", str(out), str(tsv)],
                          env=env, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise BenchError(f"analysing {tsv} with {tree}: exit {done.returncode}")
    result: dict[str, list[str]] = json.loads(out.read_text())
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tsv", type=Path, nargs="+")
    ap.add_argument("--before", default="HEAD")
    ap.add_argument("--after", default="WORKTREE")
    ap.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:  # the child: one version, one project
        args.dump.write_text(json.dumps(analyse_all(args.tsv[0]), indent=0))
        return 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            trees = {v: export(ref, Path(tmp) / v)
                     for v, ref in (("before", args.before), ("after", args.after))}
            rows = []
            for tsv in args.tsv:
                project = tsv.name.removesuffix(".compiles.tsv")
                found = {v: run_version(t, tsv, Path(tmp) / f"{v}-{project}.json")
                         for v, t in trees.items()}
                for line in differences(found["before"], found["after"]):
                    print(project, line)
                rows.append(f"{project:14} {len(found['after']):5} "
                            + "  ".join(f"{total(found[v]):5}" for v in trees))
    except BenchError as e:
        print(f"findings_diff: {e}", file=sys.stderr)
        return 1
    print(f"{'project':14} {'TUs':>5} {args.before:>5}  {args.after:>5}")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
