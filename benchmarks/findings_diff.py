"""Findings of two versions of the analysis on every TU of a real-code build, in process.

    python benchmarks/findings_diff.py W/results/PROJECT.compiles.tsv [...]
                                       [--before REF] [--after REF|WORKTREE] [--rounds N]
                                       [--summaries-before DIR --summaries-after DIR]

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
With ``--summaries-before`` and ``--summaries-after`` (directories holding the side
files, ``*.mpicc-wrap.json``, of a build by each version, in any layout) each version
sees every summary of its own build instead: the steady state of a build in which
every TU was compiled after every other, so that a change to what summaries say is
compared without the noise of the order ``make -j`` ran in.
Also compared: a digest of everything else the analysis returns for a TU (deferred
findings, plans, summaries, the names it consulted), so that a change meant to save
time only can be shown to change nothing ("same result on N of M TUs").
Also printed per project and version: the CPU seconds of parsing and of analysis,
summed over the TUs (each TU's median over ``--rounds`` runs of each version, the
versions alternating round by round), and their ratios before / after; and the
median, p99 and maximum of those per-TU medians of the analysis.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from _common import BenchError, mpirun
from analysis_speed import export, percentile

# Flags that name outputs or dependency files: dropped (with their argument) for -E.
_WITH_ARGUMENT = frozenset({"-o", "-MT", "-MF", "-MQ"})
_ALONE = frozenset({"-c", "-MD", "-MMD", "-MP"})
# Flags that make a second compile of a source another TU (macros; libtool's second, -fPIC,
# compile of each source is the same TU; SUNDIALS' -DMANYVECTOR_BUILD_WITH_MPI is not).
_VARIANT_PREFIXES = ("-D", "-U", "-include", "-std")


class Compile(NamedTuple):
    """One recorded compile: its directory, source and the flags -E keeps."""

    cwd: str
    source: str
    flags: list[str]
    key: str  # the source's path; a second variant of it: ``path [2]``, and so on


def compiles(tsv: Path) -> list[Compile]:
    """The successful ``-c`` compiles of exactly one C source, each source once per
    set of flags: SUNDIALS compiles ``nvector_manyvector.c`` twice, the second time
    with ``-DMANYVECTOR_BUILD_WITH_MPI``, which holds all its MPI code."""
    found: dict[tuple[str, tuple[str, ...]], Compile] = {}
    variants: dict[str, int] = {}
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
        path = os.path.join(parts[4], sources[0])
        variant = tuple(f for f in flags if f.startswith(_VARIANT_PREFIXES))
        if (path, variant) in found:
            continue
        variants[path] = variants.get(path, 0) + 1
        key = path if variants[path] == 1 else f"{path} [{variants[path]}]"
        found[(path, variant)] = Compile(parts[4], sources[0], flags, key)
    return list(found.values())


class Found(NamedTuple):
    """One version's findings (``file:line:collective``), result digests and CPU
    seconds, per TU."""

    findings: dict[str, list[str]]
    parse: dict[str, float]
    analysis: dict[str, float]
    digests: dict[str, str]


def preprocessed(c: Compile) -> str | None:
    """The TU of ``c`` as ``mpicc -E`` gives it, or None if that fails."""
    pp = subprocess.run([*mpirun.mpicc(), "-E", *c.flags, c.source], cwd=c.cwd,
                        capture_output=True, text=True, timeout=300)
    return pp.stdout if pp.returncode == 0 else None


def digest(result: Any) -> str:
    """A digest of a ``TUAnalysis`` but its statistics (timings) and the fields left
    empty (``_filled``): a version that adds a summary field then compares equal
    wherever the field is empty, and differs where it holds something."""
    fields = _filled(dataclasses.asdict(result))
    fields.pop("stats", None)
    return hashlib.sha256(repr(sorted(fields.items())).encode()).hexdigest()[:16]


def _filled(value: Any) -> Any:
    """``value`` with every dictionary entry whose value is an empty list or
    dictionary left out, at any depth."""
    if isinstance(value, dict):
        return {k: _filled(v) for k, v in value.items() if v != [] and v != {}}
    if isinstance(value, (list, tuple)):
        return type(value)(_filled(v) for v in value)
    return value


def side_summaries(folder: Path | None) -> dict[str, Any]:
    """Every summary of the side files under ``folder``, one per name as a compile
    would merge them (``sideindex.merged``), in the fields this version knows; {} for
    None."""
    from mpicc_wrap import model, sideindex
    from mpicc_wrap.analysis import summaries

    if folder is None:
        return {}
    known = {f.name for f in dataclasses.fields(model.FunctionSummary)}
    entries = []
    for path in sorted(folder.rglob(f"*{sideindex.SIDE_SUFFIX}")):
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        entries += [(str(path), {k: v for k, v in s.items() if k in known})
                    for s in raw.get("summaries", []) if isinstance(s, dict)]
    return summaries.from_raw(entries)


def analyse_all(tsv: Path, side: Path | None = None) -> Found:
    """The findings and CPU times of every TU with the mpicc_wrap this process imports,
    seeing the summaries under ``side`` (``side_summaries``)."""
    from analysis_helpers import OPTIONS  # tests/ is on sys.path (_common)

    from mpicc_wrap.analysis import unit
    from mpicc_wrap.frontend import parser

    external = side_summaries(side)
    out = Found({}, {}, {}, {})
    for c in compiles(tsv):
        key = c.key
        text = preprocessed(c)
        if text is None:
            continue
        try:
            start = time.process_time()
            tu = parser.parse(text, key, mpirun.mpicc(), OPTIONS)
            parsed = time.process_time()
            result = unit.analyse(tu, external)
            out.analysis[key] = time.process_time() - parsed
            out.parse[key] = parsed - start
        except Exception as e:  # a TU this version cannot parse: shown, not fatal
            out.findings[key] = [f"skipped: {type(e).__name__}"]
            continue
        out.findings[key] = sorted(f"{f.loc.file}:{f.loc.line}:{f.collective}"
                                   for f in result.findings)
        out.digests[key] = digest(result)
    return out


def differences(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[str]:
    """``- TU finding`` / ``+ TU finding`` lines for the findings one side lacks."""
    lines = []
    for tu in sorted(set(before) | set(after)):
        old, new = set(before.get(tu, [])), set(after.get(tu, []))
        lines += [f"- {tu}: {f}" for f in sorted(old - new)]
        lines += [f"+ {tu}: {f}" for f in sorted(new - old)]
    return lines


def changed_results(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The TUs the first version analysed whose result digest the second lacks or
    differs from."""
    return sorted(t for t in before if after.get(t) != before[t])


def total(found: dict[str, list[str]]) -> int:
    """The number of findings (a TU a version could not parse counts none)."""
    return sum(len(f) for f in found.values() if not f or not f[0].startswith("skipped"))


def run_version(tree: Path, tsv: Path, out: Path, side: Path | None = None) -> Found:
    """Analyse ``tsv``'s TUs in a child process that imports mpicc_wrap from ``tree``
    (and sees the summaries under ``side``)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tree), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    extra = ["--side", str(side.resolve())] if side is not None else []
    done = subprocess.run([sys.executable, __file__, "--dump", str(out), *extra, str(tsv)],
                          env=env, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise BenchError(f"analysing {tsv} with {tree}: exit {done.returncode}")
    return Found(*json.loads(out.read_text()))


def median_times(runs: list[Found], which: str, tus: set[str]) -> float:
    """The sum over ``tus`` of each TU's median CPU seconds of ``which`` over the runs."""
    return sum(statistics.median(getattr(r, which)[t] for r in runs) for t in tus)


def _common_tus(runs: dict[str, list[Found]]) -> set[str]:
    """The TUs that every run of both versions parsed and analysed."""
    return set.intersection(*(set(r.analysis) for rs in runs.values() for r in rs))


def time_row(project: str, runs: dict[str, list[Found]]) -> str:
    """``project parse before -> after (ratio), analysis ...``, over ``_common_tus``."""
    tus = _common_tus(runs)
    cells = []
    for which in ("parse", "analysis"):
        before, after = (median_times(runs[v], which, tus) for v in ("before", "after"))
        ratio = before / after if after else float("nan")
        cells.append(f"{which} {before:7.1f} -> {after:7.1f} s ({ratio:.2f}x)")
    return f"{project:14} " + ", ".join(cells)


def spread_row(project: str, runs: dict[str, list[Found]]) -> str:
    """``project analysis per TU med/p99/max before -> after``: the distribution of
    the per-TU medians over ``_common_tus`` (issue 9's target is the p99 of one TU's
    analysis)."""
    tus = _common_tus(runs)
    cells = []
    for v in ("before", "after"):
        per_tu = sorted(statistics.median(r.analysis[t] for r in runs[v]) for t in tus)
        cells.append("/".join(f"{x:.2f}" for x in (
            statistics.median(per_tu) if per_tu else 0.0, percentile(per_tu, 0.99),
            per_tu[-1] if per_tu else 0.0)))
    return f"{project:14} analysis s per TU med/p99/max {cells[0]} -> {cells[1]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tsv", type=Path, nargs="+")
    ap.add_argument("--before", default="HEAD")
    ap.add_argument("--after", default="WORKTREE")
    ap.add_argument("--rounds", type=int, default=1,
                    help="runs of each version, alternating (CPU times: per-TU medians)")
    ap.add_argument("--summaries-before", type=Path,
                    help="side files of a build by the before version")
    ap.add_argument("--summaries-after", type=Path,
                    help="side files of a build by the after version")
    ap.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--side", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:  # the child: one version, one project, the summaries it sees
        args.dump.write_text(json.dumps(analyse_all(args.tsv[0], args.side), indent=0))
        return 0
    sides = {"before": args.summaries_before, "after": args.summaries_after}
    if (sides["before"] is None) != (sides["after"] is None):
        print("findings_diff: give both --summaries-before and --summaries-after, or "
              "neither", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as tmp:
            trees = {v: export(ref, Path(tmp) / v)
                     for v, ref in (("before", args.before), ("after", args.after))}
            rows, times = [], []
            for tsv in args.tsv:
                project = tsv.name.removesuffix(".compiles.tsv")
                runs: dict[str, list[Found]] = {v: [] for v in trees}
                for _ in range(max(args.rounds, 1)):
                    for v, t in trees.items():
                        runs[v].append(run_version(t, tsv, Path(tmp) / f"{v}-{project}.json",
                                                   sides[v]))
                found = {v: r[0].findings for v, r in runs.items()}
                for line in differences(found["before"], found["after"]):
                    print(project, line)
                before, after = runs["before"][0].digests, runs["after"][0].digests
                changed = changed_results(before, after)
                for tu in changed:
                    print(project, f"result differs: {tu}")
                rows.append(f"{project:14} {len(found['after']):5} "
                            + "  ".join(f"{total(found[v]):5}" for v in trees)
                            + f"  {len(before) - len(changed):5}")
                times += [time_row(project, runs), spread_row(project, runs)]
    except BenchError as e:
        print(f"findings_diff: {e}", file=sys.stderr)
        return 1
    print(f"{'project':14} {'TUs':>5} {args.before:>5}  {args.after:>5}  same result")
    print("\n".join(rows))
    print(f"CPU seconds, sums of per-TU medians over {max(args.rounds, 1)} round(s), "
          f"{args.before} -> {args.after}:")
    print("\n".join(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
