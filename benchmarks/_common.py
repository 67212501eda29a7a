"""Timing helpers shared by the benchmarks: alternate the variants being compared
round after round (so machine-load drift hits both alike), report medians.

Processes run through tests/mpirun.py: each in its own process group with a timeout,
so a hung build or MPI job is killed instead of blocking the benchmark.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import mpirun  # noqa: E402  (tests/mpirun.py: the hang-proof process runner)

MAKE_PROJECT = ROOT / "integration" / "make-project"


class BenchError(Exception):
    """A command the benchmark needs failed: printed as one line, exit status 1."""


@dataclass
class Series:
    """The times of one variant over the rounds, plus free-form per-round extras."""

    name: str
    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
          timeout: float = 900) -> float:
    """Wall-clock seconds of ``cmd``; raise BenchError if it fails or times out."""
    start = time.perf_counter()
    result = mpirun.run(cmd, timeout=timeout, cwd=cwd, env=env)
    elapsed = time.perf_counter() - start
    if result.timed_out or result.returncode != 0:
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise BenchError(f"{' '.join(cmd)} ({cwd}) {why}:\n{result.output[-2000:]}")
    return elapsed


def alternate(variants: dict[str, Callable[[int], float]], rounds: int,
              log: Callable[[str], None] = print) -> dict[str, Series]:
    """Run every variant once per round, in a fixed alternating order; log each round."""
    series = {name: Series(name) for name in variants}
    for i in range(rounds):
        cells = []
        for name, run_once in variants.items():
            seconds = run_once(i)
            series[name].times.append(seconds)
            cells.append(f"{name} {seconds:7.3f} s")
        base, other = (series[n].times[-1] for n in list(variants)[:2])
        log(f"round {i + 1:2d}: " + "   ".join(cells) + f"   ratio {other / base:5.2f}")
    return series


def ratio_table(series: dict[str, Series], baseline: str) -> str:
    """Median time of each variant and its ratio to the baseline, as aligned text.

    The ratio is the median of the per-round ratios (robust to a slow round)."""
    base = series[baseline]
    width = max(len(name) for name in series)
    lines = [f"{'variant'.ljust(width)}  median s  ratio to {baseline}"]
    for name, s in series.items():
        ratios = [t / b for t, b in zip(s.times, base.times, strict=True)]
        lines.append(f"{name.ljust(width)}  {s.median:8.3f}  {statistics.median(ratios):6.2f}")
    return "\n".join(lines)


def fresh_copy(source: Path, parent: Path, name: str) -> Path:
    """A clean copy of a project directory (no build products) under ``parent``."""
    dest = parent / name
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("build", "*.o", "*.a", "*.d"))
    return dest


def tool(name: str) -> str:
    """Path of a command, preferring the running interpreter's venv (see mpirun.tool)."""
    try:
        return mpirun.tool(name)
    except RuntimeError as err:
        raise BenchError(str(err)) from None
