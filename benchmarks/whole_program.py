"""Findings of a real-code build once every summary exists, in process.

    python benchmarks/whole_program.py W/results/PROJECT.compiles.tsv [...] [--passes N]

A clean ``make -j2`` analyses each file with the summaries of the files compiled
before it (``analysis/summaries.py``): a callee compiled later is an unknown
function there, assumed to write per-process data through its pointer arguments,
and the summaries computed under that assumption travel on to later files.  So the
warnings of a build depend on the order ``make`` happened to compile in, and a
rebuild of some files after a full build can give more warnings or fewer.  This
script gives the order-free answer: the least fixed point of the summaries over
every TU of the build.  Pass 0 analyses every TU with a *bottom* summary for each
function another TU defines (no collectives, no writes, a single-valued result);
pass k analyses every TU with the summaries pass k-1 exported; it stops when the
summaries stop changing.  Printed per pass: the findings (one per warning or note
site, grouped causes count each) per file, and whether the summaries changed.

The TUs are those ``benchmarks/realcode.py`` recorded (``findings_diff.compiles``);
a name two TUs define (libtool's two compiles of one source, a ``static`` function
is not exported) keeps the summary that executes collectives, as the link does.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import NamedTuple

from _common import mpirun
from findings_diff import Compile, compiles, preprocessed

from mpicc_wrap.model import FunctionSummary


class Unit(NamedTuple):
    """A TU of the build: its compile, its preprocessed text and its identifiers."""

    compile: Compile
    text: str
    names: frozenset[str]


def preprocess(tsv: Path) -> list[Unit]:
    """Every TU of ``tsv`` that ``mpicc -E`` preprocesses, with its identifiers."""
    from mpicc_wrap.analysis.summaries import identifiers

    units = []
    for c in compiles(tsv):
        if (text := preprocessed(c)) is not None:
            units.append(Unit(c, text, frozenset(identifiers(text))))
    return units


def bottom(summary: FunctionSummary) -> FunctionSummary:
    """The least summary of a function: it runs no collective, writes nothing, and
    returns the same value on every process for the same arguments."""
    return FunctionSummary(summary.name, summary.file, summary.line, False, [], True,
                           rank_writes=[], writes=[])


def merge(into: dict[str, FunctionSummary], new: dict[str, FunctionSummary]) -> None:
    """Add exported summaries; on a clash keep one that executes collectives (the rule
    of ``summaries._merge``, written here again so that the script runs against any
    version of the package on ``PYTHONPATH``)."""
    for name, s in new.items():
        if name not in into or (s.has_collectives and not into[name].has_collectives):
            into[name] = s


def one_pass(units: list[Unit], known: dict[str, FunctionSummary]
             ) -> tuple[dict[str, int], dict[str, FunctionSummary]]:
    """Findings per TU, and the summaries the TUs export, with ``known`` visible."""
    from analysis_helpers import OPTIONS  # tests/ is on sys.path (_common)

    from mpicc_wrap.analysis import unit
    from mpicc_wrap.frontend import parser

    found: dict[str, int] = {}
    exported: dict[str, FunctionSummary] = {}
    for u in units:
        key = u.compile.key
        try:
            tu = parser.parse(u.text, key, mpirun.mpicc(), OPTIONS)
            result = unit.analyse(tu, {n: s for n, s in known.items() if n in u.names})
        except Exception as e:  # a TU this version cannot parse: shown, not fatal
            print(f"  skipped {key}: {type(e).__name__}", file=sys.stderr)
            continue
        found[key] = len(result.findings)
        merge(exported, result.exported())
    return found, exported


class Pass(NamedTuple):
    """One pass: findings per TU, and whether the summaries it used were stable."""

    found: dict[str, int]
    stable: bool


def fixed_point(units: list[Unit], passes: int) -> list[Pass]:
    """Iterate ``one_pass`` from the bottom summaries until they stop changing (at
    most ``passes`` passes)."""
    _, first = one_pass(units, {})
    known = {n: bottom(s) for n, s in first.items()}
    out: list[Pass] = []
    for _ in range(passes):
        found, exported = one_pass(units, known)
        out.append(Pass(found, exported == known))
        if out[-1].stable:
            break
        known = exported
    return out


def report(runs: list[Pass]) -> None:
    """One line per pass, then the last pass's findings per file."""
    for k, p in enumerate(runs):
        print(f"pass {k}: {sum(p.found.values())} findings"
              f"{' (summaries stable)' if p.stable else ''}", flush=True)
    per_file = collections.Counter({Path(t).name: n for t, n in runs[-1].found.items() if n})
    for name, n in sorted(per_file.items()):
        print(f"    {n:4} {name}")
    if not runs[-1].stable:
        print(f"  not stable after {len(runs)} passes")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tsv", type=Path, nargs="+")
    ap.add_argument("--passes", type=int, default=8, help="at most this many passes")
    args = ap.parse_args()
    for tsv in args.tsv:
        print(f"== {tsv.name.split('.')[0]}", flush=True)
        report(fixed_point(preprocess(tsv), args.passes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
