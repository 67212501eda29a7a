"""The least an analysed compile can cost: Python's start and imports against the compile.

    python benchmarks/tu_floor.py W/results/PROJECT.compiles.tsv [...] [--sample N]
                                  [--rounds R]

Issue 9 asks ``make -j2`` with every TU analysed to stay within 1.5x of mpicc.  Here a
wrapped compile runs the compile itself and, whatever the TU holds, a Python
interpreter that imports the driver, the parser and the analysis.  For N TUs of each
project (evenly spaced through the compiles ``benchmarks/realcode.py`` recorded), four
commands run round after round, alternating, and each is timed in CPU seconds (user
and system, the process and every child it waited for):

* ``plain``: ``mpicc FLAGS -c SRC -o TMP`` (the compile);
* ``start``: ``python -c pass`` (the interpreter the driver runs in);
* ``imports``: ``python -c 'import ...'`` of what an analysed TU imports (the driver's
  pipeline, the frontend's parser, the analysis), nothing run: the interpreter's start
  included;
* ``wrapped``: ``mpicc-wrap FLAGS -c SRC -o TMP`` with the analysis result cache off
  (``MPICC_WRAP_RESULT_CACHE=0``; the header cache warm, as in a build).

Printed per project: the sums over the sampled TUs of each command's median, the floor
``(plain + imports) / plain`` (what no analysis, however fast, can beat while each
compile starts its own interpreter), and the measured ``wrapped / plain``.  With every
core busy, as in an every-TU ``make -j2``, CPU seconds turn into wall time one to one,
so the floor bounds that build's ratio from below.  Timing is printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _common import BenchError, mpirun, tool
from findings_diff import Compile, compiles

IMPORTS = ("import mpicc_wrap.driver.pipeline, mpicc_wrap.frontend.parser, "
           "mpicc_wrap.analysis.unit")
COMMANDS = ("plain", "start", "imports", "wrapped")


def cpu_seconds(cmd: list[str], cwd: str, env: dict[str, str]) -> float:
    """User plus system seconds of ``cmd`` and its waited-for children; raise
    BenchError when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = mpirun.run(cmd, timeout=600, cwd=cwd, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.timed_out or done.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} ({cwd}): exit {done.returncode}\n"
                         f"{done.output[-1000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sample(units: list[Compile], n: int) -> list[Compile]:
    """``n`` compiles evenly spaced through the build (all of them when fewer)."""
    if n >= len(units):
        return units
    step = len(units) / n
    return [units[int(i * step)] for i in range(n)]


def runners(c: Compile, out: str, env: dict[str, str]) -> dict[str, Callable[[], float]]:
    """The four commands of the module docstring for one compile."""
    compile_args = [*c.flags, "-c", c.source, "-o", out]
    python = sys.executable
    return {
        "plain": lambda: cpu_seconds([*mpirun.mpicc(), *compile_args], c.cwd, env),
        "start": lambda: cpu_seconds([python, "-c", "pass"], c.cwd, env),
        "imports": lambda: cpu_seconds([python, "-c", IMPORTS], c.cwd, env),
        "wrapped": lambda: cpu_seconds([tool("mpicc-wrap"), *compile_args], c.cwd, env),
    }


def measure(units: list[Compile], rounds: int, env: dict[str, str]) -> dict[str, float]:
    """Per command, the sum over ``units`` of its median CPU seconds over ``rounds``."""
    sums = dict.fromkeys(COMMANDS, 0.0)
    with tempfile.TemporaryDirectory(prefix="tu-floor-") as tmp:
        for c in units:
            run = runners(c, os.path.join(tmp, "out.o"), env)
            run["wrapped"]()  # untimed: the header cache of this include chain
            times: dict[str, list[float]] = {k: [] for k in COMMANDS}
            for _ in range(rounds):
                for k in COMMANDS:
                    times[k].append(run[k]())
            for k in COMMANDS:
                sums[k] += statistics.median(times[k])
    return sums


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tsv", type=Path, nargs="+")
    ap.add_argument("--sample", type=int, default=24, help="TUs per project")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    env = {"MPICC_WRAP_RESULT_CACHE": "0"}
    print(f"{'project':10} {'TUs':>4} {'plain':>7} {'start':>7} {'imports':>8} "
          f"{'wrapped':>8} {'floor':>6} {'wrapped/plain':>14}   (CPU s, sums of medians)")
    for tsv in args.tsv:
        units = sample(compiles(tsv), args.sample)
        try:
            s = measure(units, args.rounds, env)
        except BenchError as err:
            print(f"{tsv.name}: {err}", file=sys.stderr)
            return 1
        name = tsv.name.split(".")[0]
        print(f"{name:10} {len(units):4} {s['plain']:7.2f} {s['start']:7.2f} "
              f"{s['imports']:8.2f} {s['wrapped']:8.2f} "
              f"{(s['plain'] + s['imports']) / s['plain']:6.2f} "
              f"{s['wrapped'] / s['plain']:14.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
