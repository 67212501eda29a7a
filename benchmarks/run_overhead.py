"""Run-time overhead of an mpicc-wrap build of integration/make-project.

    python benchmarks/run_overhead.py [--pairs 5] [--np 4] [--args "256 200"]

Builds the project once with mpicc and once with mpicc-wrap, then runs
`mpiexec -n NP build/jacobi ARGS` for each build alternately, PAIRS rounds, and
prints the times and the median ratio.  The project is correct MPI, so the wrapper
should insert no check into it: the report line "instrumented sites" says how many
collective call sites of the build carry a run-time check (the run-time cost of the
checks themselves is what an allreduce micro-benchmark measures).  Timing is
printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

from _common import MAKE_PROJECT, BenchError, alternate, fresh_copy, ratio_table, timed, tool


def instrumented_sites(report: Path) -> str:
    """Sum of stats.instrumented_sites / stats.collective_sites over the report."""
    if not report.is_file():
        return "n/a"
    done = total = 0
    for text in report.read_text().splitlines():
        try:
            stats = json.loads(text).get("stats", {})
        except (json.JSONDecodeError, AttributeError):
            continue
        done += int(stats.get("instrumented_sites", 0))
        total += int(stats.get("collective_sites", 0))
    return f"{done} of {total} collective sites"


def build(cc: str, work: Path, name: str, report: Path) -> Path:
    """Build a clean copy with CC=cc; return the executable."""
    project = fresh_copy(MAKE_PROJECT, work, name)
    timed(["make", "-j2", f"CC={cc}"], project, {"MPICC_WRAP_REPORT": str(report)})
    return project / "build" / "jacobi"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--np", type=int, default=4, help="mpiexec -n value (default 4)")
    parser.add_argument("--args", default="256 200", help='jacobi arguments (default "256 200")')
    args = parser.parse_args(argv)
    try:
        mpiexec = tool("mpiexec")
        with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
            work = Path(tmp)
            plain = build(tool("mpicc"), work, "plain", work / "plain.jsonl")
            wrapped = build(tool("mpicc-wrap"), work, "wrapped", work / "wrapped.jsonl")
            print(f"jacobi {args.args} under mpiexec -n {args.np}, {args.pairs} pairs; "
                  f"instrumented sites: {instrumented_sites(work / 'wrapped.jsonl')}")

            def run(exe: Path) -> float:
                cmd = [mpiexec, "-n", str(args.np), str(exe), *shlex.split(args.args)]
                return timed(cmd, work, timeout=300)

            series = alternate({"mpicc": lambda i: run(plain),
                                "mpicc-wrap": lambda i: run(wrapped)}, args.pairs)
    except BenchError as err:
        print(f"run_overhead: error: {err}", file=sys.stderr)
        return 1
    print(ratio_table(series, "mpicc"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
