"""Analysis speed of two versions of mpicc-wrap on the same TUs, in one run.

    python benchmarks/analysis_speed.py [--before REF] [--after REF|WORKTREE]
                                        [--rounds 3] [--sources DIR ...] [--include DIR ...]

Each version is exported from git (``git archive REF``; ``--after WORKTREE``, the
default, takes the checkout as it is) into a scratch directory and run as
``python -m mpicc_wrap -c SRC`` with that directory first on PYTHONPATH, the analysis
result cache off (every TU parsed and analysed) and a JSON report.  Per TU and round
the two versions run back to back, in alternating order, so load drift hits both
alike.  Printed per version: the sum over TUs of the median analysis seconds
(``stats.analysis_seconds`` of the report: rank dependence, Algorithm 1, findings,
plans; not parsing), the sum of median wall seconds of the whole wrapped compile,
per-TU p50/p99/max analysis seconds, and the ratios before/after.  Timing is printed,
never asserted.

The default TUs are the annotated corpus (tests/corpus) and MPICH's vendored coll
tests (tests/thirdparty/mpich-coll); ``--sources`` adds directories of ``*.c``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, BenchError, mpirun

DEFAULT_BEFORE = "4ca3baa"  # main before the 2026-11-23 rework (flat package)
CORPUS = ROOT / "tests" / "corpus"
MPICH = ROOT / "tests" / "thirdparty" / "mpich-coll"


def export(ref: str, into: Path) -> Path:
    """The tree of ``ref`` (or the checkout itself for ``WORKTREE``)."""
    if ref == "WORKTREE":
        return ROOT
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True)
    if archive.returncode != 0:
        raise BenchError(f"git archive {ref}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


class Version:
    """One version of the tool: its tree, its cache directory and its report file."""

    def __init__(self, name: str, tree: Path, scratch: Path) -> None:
        self.name, self.tree = name, tree
        self.cache = scratch / f"cache-{name}"
        self.report = scratch / f"report-{name}.jsonl"
        self.analysis: dict[str, list[float]] = {}
        self.wall: dict[str, list[float]] = {}

    def env(self) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": str(self.tree), "MPICC_WRAP_RESULT_CACHE": "0",
                "MPICC_WRAP_CACHE": str(self.cache), "MPICC_WRAP_REPORT": str(self.report),
                "MPICC_WRAP_BUDGET": "600"}

    def compile(self, src: Path, includes: list[Path], out: Path, record: bool) -> None:
        """Compile ``src`` once; when ``record``, keep its analysis and wall seconds."""
        self.report.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "mpicc_wrap", *[f"-I{d}" for d in includes],
               "-c", str(src), "-o", str(out)]
        start = time.perf_counter()
        result = mpirun.run(cmd, timeout=900, cwd=out.parent, env=self.env())
        wall = time.perf_counter() - start
        if result.timed_out or result.returncode != 0:
            raise BenchError(f"{self.name}: {' '.join(cmd)} failed:\n{result.output[-1500:]}")
        if record:
            self.analysis.setdefault(str(src), []).append(analysis_seconds(self.report))
            self.wall.setdefault(str(src), []).append(wall)


def analysis_seconds(report: Path) -> float:
    """Analysis seconds of the one TU a report holds (0 when the TU had none)."""
    total = 0.0
    if report.exists():
        for line in report.read_text().splitlines():
            total += json.loads(line).get("stats", {}).get("analysis_seconds", 0.0)
    return total


def sources(extra: list[Path]) -> list[Path]:
    found = sorted(CORPUS.glob("*.c")) + sorted(MPICH.glob("*.c"))
    for directory in extra:
        found += sorted(directory.glob("*.c"))
    return found


def summary(version: Version) -> tuple[float, float, list[float]]:
    per_tu = [statistics.median(v) for v in version.analysis.values()]
    wall = sum(statistics.median(v) for v in version.wall.values())
    return sum(per_tu), wall, sorted(per_tu)


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))] if values else 0.0


def report(before: Version, after: Version) -> str:
    rows = [f"{'version':8}  {'analysis s':>10}  {'wall s':>8}  {'p50':>6}  {'p99':>6}  "
            f"{'max':>6}"]
    totals = {}
    for v in (before, after):
        analysis, wall, per_tu = summary(v)
        totals[v.name] = (analysis, wall)
        rows.append(f"{v.name:8}  {analysis:10.2f}  {wall:8.2f}  {percentile(per_tu, .5):6.3f}  "
                    f"{percentile(per_tu, .99):6.3f}  {per_tu[-1] if per_tu else 0:6.3f}")
    (ba, bw), (aa, aw) = totals["before"], totals["after"]
    rows.append(f"speed-up before/after: analysis {ba / aa if aa else float('inf'):.2f}x, "
                f"whole wrapped compile {bw / aw if aw else float('inf'):.2f}x")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default=DEFAULT_BEFORE)
    ap.add_argument("--after", default="WORKTREE")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sources", type=Path, nargs="*", default=[])
    ap.add_argument("--include", type=Path, nargs="*", default=[])
    ap.add_argument("--limit", type=int, default=0, help="only the first N TUs (0: all)")
    args = ap.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="mpicc-wrap-speed-") as tmp:
            scratch = Path(tmp)
            versions = [Version("before", export(args.before, scratch / "before"), scratch),
                        Version("after", export(args.after, scratch / "after"), scratch)]
            tus = sources(args.sources)[: args.limit or None]
            includes = [MPICH, *args.include]
            out = scratch / "out.o"
            for v in versions:  # untimed: fills each version's header cache
                v.compile(tus[0], includes, out, record=False)
            for r in range(args.rounds):
                for i, src in enumerate(tus):
                    order = versions if (i + r) % 2 == 0 else versions[::-1]
                    for v in order:
                        v.compile(src, includes, out, record=True)
                print(f"round {r + 1}/{args.rounds} done ({len(tus)} TUs)", flush=True)
            print(f"TUs: {len(tus)}; before = {args.before}, after = {args.after}")
            print(report(*versions))
    except BenchError as exc:
        print(f"analysis_speed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
