"""Do no harm on a real project: its own MPI programs, built by plain mpicc and by
mpicc-wrap with every site instrumented, exit the same way and print the same.

    python benchmarks/realcode_differential.py --workdir W [--project sundials]
                                               [--jobs 2] [--timeout 120]

``tests/e2e/test_differential.py`` proves this on the corpus and the vendored MPICH
tests; this script proves it on code nobody here wrote.  It builds the project twice
with ``realcode.py``'s recipe in ``W/src`` (fetched from Debian if missing): once with
plain mpicc, once with mpicc-wrap and ``MPICC_WRAP_INSTRUMENT=all`` (a check at every
collective and every function exit, flagged or not; links add the checker runtime).
After each build it copies the project's parallel programs (``PROGRAMS``: for SUNDIALS
its MPI examples and tests, with the process counts and arguments its CMake lists give
them) to ``W/differential/PROJECT/MODE``.  Then it runs each program built both ways
under ``mpiexec`` (each run in its own process group, killed after ``--timeout``
seconds) and compares exit codes and stdout.  When they differ, the plain program runs
again: if its two runs differ too, the program is nondeterministic, not harmed.  Output
whose lines are the same but in another order (ranks print concurrently, mpiexec
forwards them as they come) counts as the same lines.

Prints one line per program and a summary; exits 1 if an instrumented program exited
or printed differently from a deterministic plain one, or if a compile fell back to
plain mpicc (then the comparison would not be of an instrumented program).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from _common import mpirun
from realcode import PROJECTS, Harness, fetch, read_log, run, workdir_default

# One SUNDIALS example list entry (examples/*/CMakeLists.txt): "name\;nodes\;tasks\;type"
# or "name\;args\;nodes\;tasks\;type[\;...]" (the lists' comments do not always say
# which: four fields or more after the name hold arguments).
_ENTRY = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)\\;([^"]*)"')


class Program(NamedTuple):
    """One run of a program of the project: where the build leaves it, how to run it."""

    path: str  # relative to the project tree
    nprocs: int
    args: tuple[str, ...]

    @property
    def label(self) -> str:
        return " ".join([self.path, f"-n {self.nprocs}", *self.args])


def sundials_programs(tree: Path, built: Path | None = None) -> list[Program]:
    """SUNDIALS' MPI examples and tests, as its CMake example lists run them (the
    parallel ones: a task count given), that the build made; not the ``develop``
    ones, which its releases leave out of ``make test``.  ``built``: where to look
    for the programs (default: ``tree``)."""
    out: list[Program] = []
    for lists in sorted((tree / "examples").rglob("CMakeLists.txt")):
        text = lists.read_text(errors="replace")
        folder = lists.parent.relative_to(tree / "examples")
        for name, rest in _ENTRY.findall(text):
            fields = rest.split("\\;")
            padded = [*fields, "", ""]
            args, tasks, kind = ((fields[0], fields[2], fields[3]) if len(fields) >= 4
                                 else ("", padded[1], padded[2]))
            exe = Path("build-rc") / "examples" / folder / name
            if kind == "develop":
                continue  # not in the release's own test set (long-running)
            if tasks.strip().isdigit() and ((built or tree) / exe).is_file():
                out.append(Program(str(exe), int(tasks), tuple(args.split())))
    return sorted(set(out))


PROGRAMS: dict[str, Callable[[Path, Path | None], list[Program]]] = {"sundials": sundials_programs}


def build(harness: Harness, name: str, mode: str, extra: dict[str, str]) -> Path:
    """Configure once (with plain mpicc), clean, and build the project with ``mode``
    (plain, wrap); return its tree.  Logs under ``W/results/NAME.differential.*``,
    apart from ``realcode.py``'s."""
    spec = PROJECTS[name]
    tree = fetch(spec.package, harness.workdir / "src") / spec.subdir
    error = harness.configure(name, tree,
                              harness.results / f"{name}.differential.configure.log")
    if error:
        raise SystemExit(f"realcode_differential: {error}")
    log = harness.results / f"{name}.differential.{mode}.log"
    env = {**harness.env(mode, name), **extra, "MPICC_WRAP_REPORT": os.devnull,
           "REALCODE_LOG": str(compiles_log(harness, name))}
    log.unlink(missing_ok=True)
    harness.clean(name, tree, env, log)
    for cmd in spec.build:
        run(harness.expand(cmd), tree, env, log)
    return tree


def compiles_log(harness: Harness, name: str) -> Path:
    """realcode-cc's record of the instrumented build's compiles."""
    return harness.results / f"{name}.differential.compiles.tsv"


def collect(tree: Path, programs: list[Program], dest: Path) -> None:
    """Copy the programs the build made to ``dest`` (same relative paths)."""
    shutil.rmtree(dest, ignore_errors=True)
    for p in programs:
        if (tree / p.path).is_file():
            (dest / p.path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(tree / p.path, dest / p.path)


# More ranks than cores (SUNDIALS' examples want 4): MPICH's busy polling then starves
# the ranks that have work. Throttled polling sleeps 1 us after N polls that made no
# progress; MPICH's default N (4096) was not enough on a 2-core machine with MPICH
# 5.0.2: ark_diurnal_kry_bbd_p -n 4 ran over 300 s with it, 15 s with N = 1 (2,000
# allreduces on 4 ranks: 16 s unthrottled, 0.1 s with N = 16).
# (Open MPI's launcher already yields when oversubscribed.)
_QUIET_POLLING = {"MPIR_CVAR_CH4_PROGRESS_THROTTLE": "1",
                  "MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT": "1"}


class Outcome(NamedTuple):
    program: Program
    verdict: str  # same, same lines, DIFFERS, nondeterministic, missing, timeout
    detail: str = ""


def compare(program: Program, plain: Path, wrapped: Path, timeout: float) -> Outcome:
    """Run ``program`` built both ways and compare exit code and stdout."""
    if not (plain / program.path).is_file() or not (wrapped / program.path).is_file():
        return Outcome(program, "missing", "not built both ways")
    cwd = (plain / program.path).parent

    def go(root: Path) -> mpirun.Run:
        return mpirun.mpiexec(root / program.path, program.nprocs, list(program.args),
                              timeout=timeout, cwd=cwd, env=_QUIET_POLLING)

    a, b = go(plain), go(wrapped)
    if a.timed_out or b.timed_out:
        return Outcome(program, "timeout", f"plain {a.timed_out}, instrumented {b.timed_out}")
    if (a.returncode, a.stdout) == (b.returncode, b.stdout):
        return Outcome(program, "same")
    if a.returncode == b.returncode and _lines(a) == _lines(b):
        return Outcome(program, "same lines", "in another order: ranks print concurrently")
    again = go(plain)
    if (again.returncode, again.stdout) != (a.returncode, a.stdout):
        return Outcome(program, "nondeterministic", "two plain runs differ")
    return Outcome(program, "DIFFERS", first_difference(a, b))


def _lines(r: mpirun.Run) -> list[str]:
    """The run's stdout lines, sorted: the same whatever order mpiexec forwarded the
    ranks' output in."""
    return sorted(r.stdout.splitlines())


def first_difference(a: mpirun.Run, b: mpirun.Run) -> str:
    """Where the instrumented run ``b`` departs from the plain run ``a``."""
    if a.returncode != b.returncode:
        return f"exit {a.returncode} -> {b.returncode}: {b.stderr.strip()[-300:]}"
    for i, (x, y) in enumerate(zip(a.stdout.splitlines(), b.stdout.splitlines(),
                                   strict=False)):
        if x != y:
            return f"line {i + 1}: {x!r} -> {y!r}"
    return f"{len(a.stdout.splitlines())} -> {len(b.stdout.splitlines())} lines"


def fallbacks(tsv: Path) -> list[str]:
    """Compiles mpicc-wrap failed or timed out on (realcode-cc redid them plainly)."""
    return [f"{c.kind}: {c.detail}" for c in read_log(tsv) if c.kind != "ok"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", type=Path, default=workdir_default())
    ap.add_argument("--project", default="sundials", choices=sorted(PROGRAMS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run")
    ap.add_argument("--only", help="run only the programs whose label matches this")
    ap.add_argument("--no-build", action="store_true",
                    help="run the programs the last builds copied (W/differential)")
    args = ap.parse_args(argv)
    harness = Harness(args.workdir.resolve(), args.jobs, 600, links="plain")
    name, out = args.project, args.workdir.resolve() / "differential" / args.project
    tree = fetch(PROJECTS[name].package, harness.workdir / "src") / PROJECTS[name].subdir
    if not args.no_build:
        compiles_log(harness, name).unlink(missing_ok=True)
        for mode, extra in (("plain", {}), ("wrap", {"MPICC_WRAP_INSTRUMENT": "all"})):
            built = build(harness, name, mode, extra)
            collect(built, PROGRAMS[name](built, None), out / mode)
    programs = PROGRAMS[name](tree, out / "wrap")
    fell_back = fallbacks(compiles_log(harness, name))
    outcomes = []
    for p in programs:
        if args.only and not re.search(args.only, p.label):
            continue
        o = compare(p, out / "plain", out / "wrap", args.timeout)
        outcomes.append(o)
        print(f"{o.verdict:16s} {o.program.label}" + (f"  ({o.detail})" if o.detail else ""),
              flush=True)
    counts = {v: sum(o.verdict == v for o in outcomes)
              for v in ("same", "same lines", "DIFFERS", "nondeterministic", "timeout",
                        "missing")}
    print(f"{name}: {len(outcomes)} runs: " + ", ".join(f"{n} {v}" for v, n in counts.items())
          + f"; {len(fell_back)} compiles fell back to plain mpicc")
    for line in fell_back:
        print(f"  fell back: {line}")
    return 1 if counts["DIFFERS"] or fell_back else 0


if __name__ == "__main__":
    sys.exit(main())
