"""Compile-time overhead of mpicc-wrap over mpicc on integration/make-project.

    python benchmarks/compile_overhead.py [--pairs 5] [--jobs 2] [--cold-cache]
                                          [--cache cold|warm]

Each round builds a clean copy of the project with `make -jJOBS CC=mpicc`, then
with CC=mpicc-wrap (alternating, so load drift affects both alike), and prints the
times, the median ratio mpicc-wrap/mpicc, and the analysis throughput in user lines
per second read from the wrapper's JSON report (MPICC_WRAP_REPORT, fields
stats.user_lines and stats.analysis_seconds; "n/a" when the report has none).
Timing is printed, never asserted.  One untimed build of each variant runs first to
warm the file cache and the wrapper's header cache (--cold-cache: a fresh wrapper
cache for every timed build instead).  --cache cold clears only the analysis result
cache (MPICC_WRAP_CACHE/results) before each timed wrapped build, so every TU is parsed
and analysed (the header cache, per include chain, legitimately persists); --cache warm
(the default) keeps it, as a rebuild would.  Python bytecode is written to a scratch
pycache (PYTHONPYCACHEPREFIX) even if PYTHONDONTWRITEBYTECODE is set, as for an
installed mpicc-wrap whose .pyc files pip compiled.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _common import MAKE_PROJECT, BenchError, alternate, fresh_copy, ratio_table, timed, tool


def analysis_throughput(report: Path) -> tuple[int, float] | None:
    """(user lines, analysis seconds) summed over a JSON Lines report, if present."""
    if not report.is_file():
        return None
    lines, seconds = 0, 0.0
    for text in report.read_text().splitlines():
        try:
            stats = json.loads(text).get("stats", {})
        except (json.JSONDecodeError, AttributeError):
            continue
        lines += int(stats.get("user_lines", 0))
        seconds += float(stats.get("analysis_seconds", 0.0))
    return (lines, seconds) if seconds > 0 else None


class Builder:
    """Clean builds of the project in a scratch directory, one compiler each."""

    def __init__(self, work: Path, jobs: int, cold_cache: bool, results: str = "warm") -> None:
        self.work = work
        self.jobs = jobs
        self.cold_cache = cold_cache
        self.results = results  # "cold": clear the analysis result cache before a build
        self.cpu: dict[str, list[float]] = {}  # user+sys seconds of each build, per compiler
        self.throughput: list[tuple[int, float]] = []

    def env(self, tag: str) -> dict[str, str]:
        cache = self.work / (f"cache-{tag}" if self.cold_cache else "cache")
        return {"MPICC_WRAP_CACHE": str(cache), "MPICC_WRAP_REPORT": str(self.work / "report"),
                "PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(self.work / "pyc")}

    def build(self, cc: str, tag: str) -> float:
        project = fresh_copy(MAKE_PROJECT, self.work, "project")
        env = self.env(tag)
        report = Path(env["MPICC_WRAP_REPORT"])
        report.unlink(missing_ok=True)
        if self.results == "cold":
            shutil.rmtree(Path(env["MPICC_WRAP_CACHE"]) / "results", ignore_errors=True)
        before = children_cpu()
        seconds = timed(["make", f"-j{self.jobs}", f"CC={cc}"], project, env)
        self.cpu.setdefault(Path(cc).name, []).append(children_cpu() - before)
        if Path(cc).name == "mpicc-wrap" and (numbers := analysis_throughput(report)):
            self.throughput.append(numbers)
        return seconds


def children_cpu() -> float:
    """user+sys seconds of all waited-for child processes so far (robust to the load
    other users put on a shared machine, unlike wall time)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_line(cpu: dict[str, list[float]], base: str = "mpicc", other: str = "mpicc-wrap") -> str:
    """Median CPU seconds per build of both compilers and the median per-round ratio."""
    a, b = cpu.get(base, []), cpu.get(other, [])
    if not a or len(a) != len(b):
        return "cpu (user+sys): n/a"
    ratios = [y / x for x, y in zip(a, b, strict=True) if x > 0]
    ratio = f"{statistics.median(ratios):.2f}" if ratios else "n/a"
    return (f"cpu (user+sys) per build: {base} {statistics.median(a):.2f} s, "
            f"{other} {statistics.median(b):.2f} s, ratio {ratio}")


def throughput_line(samples: list[tuple[int, float]]) -> str:
    if not samples:
        return "analysis throughput: n/a (no MPICC_WRAP_REPORT statistics)"
    rates = [lines / seconds for lines, seconds in samples]
    return (f"analysis throughput: {statistics.median(rates):,.0f} user lines/s "
            f"(median of {len(rates)} builds, {samples[0][0]} user lines per build)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="make -j value (default 2)")
    parser.add_argument("--cold-cache", action="store_true",
                        help="fresh mpicc-wrap cache for every timed build")
    parser.add_argument("--cache", choices=("cold", "warm"), default="warm",
                        help="cold: clear the analysis result cache before each wrapped "
                             "build; warm: keep it (default)")
    args = parser.parse_args(argv)
    try:
        mpicc, wrap = tool("mpicc"), tool("mpicc-wrap")
        with tempfile.TemporaryDirectory(prefix="bench-compile-") as work:
            builder = Builder(Path(work), args.jobs, args.cold_cache, args.cache)
            print(f"project {MAKE_PROJECT.name}: make -j{args.jobs}, {args.pairs} pairs, "
                  f"{'cold' if args.cold_cache else 'warm'} wrapper cache, "
                  f"{args.cache} result cache")
            if not args.cold_cache:
                builder.build(mpicc, "warm")
                builder.build(wrap, "warm")
                builder.throughput.clear()
                builder.cpu.clear()
            series = alternate({
                "mpicc": lambda i: builder.build(mpicc, f"c{i}"),
                "mpicc-wrap": lambda i: builder.build(wrap, f"w{i}"),
            }, args.pairs)
    except BenchError as err:
        print(f"compile_overhead: error: {err}", file=sys.stderr)
        return 1
    print(ratio_table(series, "mpicc"))
    print(cpu_line(builder.cpu))
    print(throughput_line(builder.throughput))
    return 0


if __name__ == "__main__":
    sys.exit(main())
