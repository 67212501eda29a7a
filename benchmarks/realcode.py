"""Real-code corpus: build Debian source packages of MPI C projects with mpicc-wrap.

    python benchmarks/realcode.py [--projects hypre,pnetcdf,...] [--small] [--pairs 1]
                                  [--jobs 2] [--timeout 180] [--links wrap|plain]
                                  [--configure] [--collect] [--workdir DIR]

For each project: fetch it with ``apt-get source`` (adding a deb-src entry first if
none works and we are root), configure it once with plain mpicc, then run alternating
clean builds (``--pairs`` of them): ``make -jJOBS`` with plain mpicc, then with
mpicc-wrap with the analysis result cache off, so every TU is analysed.  CC is a
generated shell script, ``realcode-cc``, which in wrap mode runs mpicc-wrap under
``timeout`` (a hanging analysis is recorded and the compile is redone with plain
mpicc so the build goes on) and, when mpicc-wrap fails, reruns plain mpicc: if that
succeeds the failure is mpicc-wrap's and its stderr is kept.

Prints one row per project (TUs analysed, skipped, timed out, build status, analysis
seconds per TU from the JSON report -- parsing is not included there --, wall seconds
of each wrapped compile including parsing and gcc, make wall seconds and their ratio
mpicc-wrap/mpicc, warnings) and then the details.  Writes under WORKDIR/results:
``summary.txt``, ``PROJECT.json`` (all numbers and lists), ``warnings.txt``
(file:line: message, for triage), and the build logs and JSON reports.  WORKDIR
defaults to ``$REALCODE_WORKDIR``, else ``$XDG_CACHE_HOME/mpicc-wrap-realcode``.
``--collect`` only re-reads those files (e.g. after an interrupted run).
``--configure`` only fetches and configures.  ``--links plain`` gives link steps to
plain mpicc plus the checker runtime archive: mpicc-wrap's link-time relink recompiles
library members with deferred findings once per executable, over two minutes per
p4est example in 2026-11, so the per-TU figures are taken without it.

Build dependencies (Debian): dpkg-dev (apt-get source) and a deb-src entry; autoconf,
automake, libtool, m4 (pnetcdf's autoreconf, p4est's bootstrap); flex, bison and
zlib1g-dev (scotch); cmake (sundials).  hypre, hdf5 and fftw3 need only make and gcc.
Triage of the warnings: realcode-triage.md; minimal reproductions of the false ones:
realcode-fp/.

``--small`` builds hypre's ``src/utilities`` only (34 TUs), end to end; ``.ci/run``
runs it with ``--strict``: the exit status is then 1 unless every build of every
project succeeded with both compilers and no wrapped compile failed where mpicc
succeeded, timed out, or skipped its TU's analysis.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import BenchError, tool

# Commands are run in the project's source subdirectory; {cc} is realcode-cc, {jobs} -j.
Cmd = list[str]


@dataclass
class Project:
    """How to configure and build one Debian source package."""

    package: str  # Debian source package name
    subdir: str  # where the commands run, relative to the unpacked source
    configure: list[Cmd]  # untimed, once, with plain mpicc
    build: list[Cmd]  # timed
    clean: list[Cmd]  # untimed, before each build
    note: str = ""


MAKE = ["make", "-k", "-j{jobs}"]
MAKE_CLEAN = [["make", "-k", "clean"]]
MPICH_TEST_DIRS = ["util", "coll", "comm", "group", "topo", "init"]  # of 26: the collective ones

PROJECTS: dict[str, Project] = {
    "hypre": Project(
        "hypre", "src", [["./configure", "CC={cc}", "--disable-fortran"]], [MAKE], MAKE_CLEAN,
        "library (src/*), no examples or tests"),
    "hypre-utilities": Project(
        "hypre", "src", [["./configure", "CC={cc}", "--disable-fortran"]],
        [[*MAKE, "-C", "utilities"]],
        [["make", "-C", "utilities", "clean"], ["mkdir", "-p", "hypre/include", "hypre/lib"]],
        "src/utilities only (--small)"),
    "mpich-tests": Project(
        "mpich", "test/mpi",
        [["./configure", "CC={cc}", "MPICC={cc}", "--disable-fortran", "--disable-cxx",
          "--disable-spawn", "--disable-ft-tests"]],
        [[*MAKE, "-C", d] for d in MPICH_TEST_DIRS], MAKE_CLEAN,
        f"MPICH's own test suite, C: test/mpi/{{{','.join(MPICH_TEST_DIRS)}}}"),
    "pnetcdf": Project(
        "pnetcdf", ".",
        [["autoreconf", "-fi"],
         ["./configure", "MPICC={cc}", "--disable-fortran", "--disable-cxx"]],
        [MAKE], MAKE_CLEAN, "library and utilities (not the tests)"),
    "sundials": Project(
        "sundials", ".",
        [["cmake", "-S", ".", "-B", "build-rc", "-DCMAKE_C_COMPILER={cc}",
          "-DENABLE_MPI=ON", "-DMPI_C_COMPILER={cc}", "-DEXAMPLES_ENABLE_C=ON",
          "-DEXAMPLES_ENABLE_CXX=OFF", "-DBUILD_FORTRAN_MODULE_INTERFACE=OFF",
          "-DEXAMPLES_INSTALL=OFF", "-DBUILD_SHARED_LIBS=OFF"]],
        [[*MAKE, "-C", "build-rc"]], [["make", "-C", "build-rc", "clean"]],
        "CMake, ENABLE_MPI: all of src/ and the C examples (serial ones included)"),
    "hdf5": Project(
        "hdf5", ".",
        [["./configure", "CC={cc}", "--enable-parallel", "--disable-fortran", "--disable-cxx",
          "--disable-java", "--disable-hl", "--disable-shared"]],
        [[*MAKE, "-C", "src"], [*MAKE, "-C", "test", "libh5test.la"], [*MAKE, "-C", "testpar"]],
        [["make", "-k", "-C", d, "clean"] for d in ("src", "test", "testpar")],
        "parallel build: src/ and testpar/ (and test/'s libh5test); not the serial "
        "tests or tools"),
    "fftw3": Project(
        "fftw3", ".",
        [["./configure", "CC=gcc", "MPICC={cc}", "--enable-mpi", "--disable-fortran",
          "--disable-doc"], ["make", "-j{jobs}"]],
        [[*MAKE, "-C", "mpi"]], [["make", "-C", "mpi", "clean"]],
        "serial library built once with gcc; only mpi/ (compiled with MPICC) is timed"),
    "scotch": Project(
        "scotch", "src",
        [["sh", "-c", "sed -e 's|^CCS\\s*=.*|CCS = gcc|' -e 's|^CCP\\s*=.*|CCP = {cc}|' "
          "-e 's|^CCD\\s*=.*|CCD = {cc}|' Make.inc/Makefile.inc.x86-64_pc_linux2 "
          "> Makefile.inc"]],
        [[*MAKE, "ptscotch"]], [["make", "-k", "realclean"]],
        "PT-Scotch (make ptscotch): the sequential libscotch is compiled with gcc (CCS), "
        "only the parallel sources and tools with CCP"),
    "p4est": Project(
        "p4est", ".",
        [["./bootstrap"],
         ["./configure", "CC={cc}", "--enable-mpi", "--disable-shared", "--without-blas"]],
        [MAKE], MAKE_CLEAN,
        "p4est and its bundled libsc, MPI on; library, examples and tests as make builds them"),
}
DEFAULT_PROJECTS = ["hypre", "pnetcdf", "hdf5", "fftw3", "scotch", "sundials", "p4est"]

CC_SCRIPT = r"""#!/bin/sh
# CC of the realcode builds. REALCODE_MODE=wrap (or warm): mpicc-wrap under a timeout, logged;
# on timeout or failure the compile is redone with plain mpicc.  REALCODE_LINKS=plain:
# link steps go to plain mpicc with the checker runtime archive that mpicc-wrap would
# add (instrumented objects need it), without mpicc-wrap's link-time findings and relink.
real='@MPICC@'
# REALCODE_MODE=off: pure pass-through, mpicc-wrap with MPICC_WRAP_DISABLE=1, unlogged.
[ "$REALCODE_MODE" = off ] && MPICC_WRAP_DISABLE=1 MPICC_WRAP_CC="$real" exec '@WRAP@' "$@"
[ "$REALCODE_MODE" = wrap ] || [ "$REALCODE_MODE" = warm ] || exec "$real" "$@"
if [ "$REALCODE_LINKS" = plain ]; then  # links (no -c/-S/-E): plain mpicc + checker runtime
  case " $* " in *" -c "*|*" -S "*|*" -E "*) ;; *) exec "$real" "$@" '@RUNTIME@' ;; esac
fi
err=$(mktemp "${TMPDIR:-/tmp}/realcode-cc.XXXXXX") || exit 1
t0=$(date +%s.%N)
MPICC_WRAP_CC="$real" timeout -k 10 "$REALCODE_TIMEOUT" '@WRAP@' "$@" 2>"$err"
rc=$?
t1=$(date +%s.%N)
cat "$err" >&2
kind=ok
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then kind=timeout; elif [ $rc -ne 0 ]; then kind=fail; fi
detail=-
if [ $kind != ok ]; then
  "$real" "$@"
  prc=$?
  if [ $kind = fail ] && [ $prc -ne 0 ]; then kind=bothfail; fi
  if [ $kind = fail ]; then
    detail="$REALCODE_LOG.fail.$$.$t1"
    { printf 'cwd: %s\nargs: %s\nexit: %s\n' "$PWD" "$*" "$rc"; cat "$err"; } > "$detail"
  fi
  rc=$prc
fi
rm -f "$err"
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$t0" "$t1" "$detail" "$PWD" "$*" >> "$REALCODE_LOG"
exit $rc
"""

ENTERING_RE = re.compile(r"(Entering|Leaving) directory '(.*)'")
WARNING_RE = re.compile(r"^(?P<loc>[^\s:]+:\d+)(?::\d+)?: warning: (?P<msg>.*\[-Wmpi-[\w-]+\])$")


@dataclass
class Compile:
    """One realcode-cc invocation in wrap mode, from the log."""

    kind: str  # ok | timeout | fail (mpicc-wrap only) | bothfail
    seconds: float
    detail: str
    cwd: str
    args: str


@dataclass
class Result:
    """Everything measured for one project."""

    name: str
    note: str
    plain_seconds: list[float] = field(default_factory=list)
    wrap_seconds: list[float] = field(default_factory=list)  # result cache cold
    warm_seconds: list[float] = field(default_factory=list)  # a rebuild: cache warm
    again_seconds: list[float] = field(default_factory=list)  # the next rebuild
    off_seconds: list[float] = field(default_factory=list)  # pure pass-through
    plain_failed: int = 0
    wrap_failed: int = 0
    warm_failed: int = 0
    again_failed: int = 0
    off_failed: int = 0
    tus: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    analysis_seconds: list[float] = field(default_factory=list)
    compiles: list[Compile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    wrap_failures: list[str] = field(default_factory=list)
    error: str = ""

    def ratio(self, mode: str = "wrap") -> float | None:
        """Median over the rounds of ``mode``'s make time / the same round's mpicc time."""
        pairs = list(zip(self.plain_seconds, getattr(self, f"{mode}_seconds"), strict=False))
        return statistics.median(w / p for p, w in pairs) if pairs else None


def log(message: str) -> None:
    """Progress line on stderr, with the time."""
    print(time.strftime("%H:%M:%S"), message, file=sys.stderr, flush=True)


def run(cmd: Cmd, cwd: Path, env: dict[str, str], out: Path) -> int:
    """Run ``cmd`` with output appended to ``out``; return its exit status."""
    with out.open("a") as handle:
        handle.write(f"\n$ (cd {cwd} && {' '.join(cmd)})\n")
        handle.flush()
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=handle, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, check=False).returncode


def ensure_deb_src(package: str) -> None:
    """Make ``apt-get source`` work: add deb-src twins of the deb entries if needed."""
    probe = subprocess.run(["apt-cache", "showsrc", package], capture_output=True, text=True,
                           check=False)
    if probe.stdout.strip():
        return
    if os.geteuid() != 0:
        raise BenchError(f"no deb-src entry for {package}; add one to the apt sources")
    sources = Path("/etc/apt/sources.list.d")
    for entry in sources.glob("*.sources"):
        text = entry.read_text()
        if re.search(r"^Types:.*\bdeb\b", text, re.M):
            twin = re.sub(r"^Types:.*$", "Types: deb-src", text, flags=re.M)
            (sources / f"mpicc-wrap-realcode-{entry.name}").write_text(twin)
    subprocess.run(["apt-get", "update", "-q"], check=True, stdout=subprocess.DEVNULL)


def fetch(package: str, srcdir: Path) -> Path:
    """The unpacked source tree of ``package`` under ``srcdir`` (apt-get source if absent)."""
    srcdir.mkdir(parents=True, exist_ok=True)
    found = sorted(p for p in srcdir.glob(f"{package}-[0-9]*") if p.is_dir())
    if not found:
        ensure_deb_src(package)
        log(f"apt-get source {package}")
        subprocess.run(["apt-get", "source", "-q", package], cwd=srcdir, check=True,
                       stdout=subprocess.DEVNULL)
        found = sorted(p for p in srcdir.glob(f"{package}-[0-9]*") if p.is_dir())
    if not found:
        raise BenchError(f"apt-get source {package} unpacked nothing in {srcdir}")
    return found[-1]


def runtime_archive(wrap: str, mpicc: str) -> str:
    """The checker runtime archive mpicc-wrap links into programs (built if needed)."""
    python = Path(wrap).parent / "python"
    code = ("import sys; from mpicc_wrap import switches; from mpicc_wrap.runtime import library; "
            "print(library.link_args([sys.argv[1]], switches.Options.from_env())[0])")
    done = subprocess.run([str(python if python.exists() else sys.executable), "-c", code,
                           mpicc], capture_output=True, text=True, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise BenchError(f"cannot locate the checker runtime: {done.stderr.strip()}")
    return done.stdout.strip()


def read_log(path: Path) -> list[Compile]:
    """The wrap-mode compiles recorded by realcode-cc."""
    compiles = []
    if path.is_file():
        for line in path.read_text(errors="replace").splitlines():
            parts = line.split("\t", 5)
            if len(parts) == 6:
                kind, t0, t1, detail, cwd, args = parts
                compiles.append(Compile(kind, float(t1) - float(t0), detail, cwd, args))
    return compiles


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile of ``values`` (non-empty)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Harness:
    """Builds projects under one work directory."""

    def __init__(self, workdir: Path, jobs: int, timeout: float, links: str = "wrap",
                 rebuild: bool = False) -> None:
        self.workdir = workdir
        self.rebuild = rebuild  # also time a warm-cache rebuild and a pass-through build
        self.results = workdir / "results"
        self.results.mkdir(parents=True, exist_ok=True)
        self.jobs = jobs
        self.timeout = timeout
        self.links = links
        self.cc = workdir / "realcode-cc"
        script = (CC_SCRIPT.replace("@MPICC@", tool("mpicc"))
                  .replace("@WRAP@", tool("mpicc-wrap"))
                  .replace("@RUNTIME@", runtime_archive(tool("mpicc-wrap"), tool("mpicc"))))
        if not self.cc.is_file() or self.cc.read_text() != script:  # a build may be using it
            self.cc.write_text(script)
            self.cc.chmod(0o755)
        self.bin = str(Path(tool("mpicc-wrap")).parent)

    def expand(self, cmd: Cmd) -> Cmd:
        return [a.replace("{cc}", str(self.cc)).replace("{jobs}", str(self.jobs)) for a in cmd]

    def env(self, mode: str, name: str) -> dict[str, str]:
        """wrap: result cache off (every TU analysed), except with ``--rebuild``: then a
        fresh result cache, which the warm build that follows finds full."""
        env = dict(os.environ, REALCODE_MODE="warm" if mode == "again" else mode,
                   REALCODE_TIMEOUT=str(self.timeout),
                   REALCODE_LINKS=self.links,
                   REALCODE_LOG=str(self.results / f"{name}.compiles.tsv"),
                   MPICC_WRAP_RESULT_CACHE="1" if self.rebuild else "0",
                   MPICC_WRAP_CACHE=str(self.workdir / "wrap-cache"),
                   MPICC_WRAP_REPORT=str(self.results / f"{name}.report.jsonl"))
        # Bytecode as an installed mpicc-wrap has it, even under PYTHONDONTWRITEBYTECODE.
        env.update(PYTHONDONTWRITEBYTECODE="", PYTHONPYCACHEPREFIX=str(self.workdir / "pyc"))
        if mode in ("warm", "again"):
            env["REALCODE_LOG"] = str(self.results / f"{name}.compiles.{mode}.tsv")
            del env["MPICC_WRAP_REPORT"]  # a report is not served by the direct cache
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        return env

    def project(self, name: str, pairs: int, collect_only: bool = False,
                configure_only: bool = False) -> Result:
        """Configure once, then ``pairs`` alternating clean builds plain / mpicc-wrap."""
        spec = PROJECTS[name]
        result = Result(name, spec.note)
        out = {m: self.results / f"{name}.{m}.log" for m in ("configure", *MODES)}
        if collect_only:  # build times and status from the last run, if any
            previous = self.results / f"{name}.json"
            if previous.is_file():
                old = json.loads(previous.read_text())
                for key in (f"{m}_{what}" for m in MODES for what in ("seconds", "failed")):
                    if key in old:
                        setattr(result, key, old[key])
            self.collect(result, out["wrap"])
            return result
        tree = fetch(spec.package, self.workdir / "src") / spec.subdir
        for path in [*out.values(), self.results / f"{name}.compiles.tsv",
                     self.results / f"{name}.report.jsonl"]:
            path.unlink(missing_ok=True)
        for stale in self.results.glob(f"{name}.compiles.tsv.fail.*"):
            stale.unlink()
        error = self.configure(name, tree, out["configure"])
        if error is not None:
            result.error = error
        if error is not None or configure_only:
            return result
        modes = MODES if self.rebuild else MODES[:2]
        for i in range(max(pairs, 1)):
            for mode in modes if pairs else ("wrap",):
                env = self.env(mode, name)
                if mode == "wrap" and self.rebuild:  # cold: no result of earlier builds
                    for cache in ("results", "direct"):
                        shutil.rmtree(self.workdir / "wrap-cache" / cache, ignore_errors=True)
                self.clean(name, tree, env, out[mode])
                if mode == "wrap" and i > 0:  # keep the report and log of the first pair
                    env["MPICC_WRAP_REPORT"] = os.devnull
                    env["REALCODE_LOG"] = str(self.results / f"{name}.compiles.later.tsv")
                log(f"{name}: build {i + 1}/{max(pairs, 1)} {mode}")
                start = time.perf_counter()
                failed = sum(bool(run(self.expand(c), tree, env, out[mode])) for c in spec.build)
                seconds = time.perf_counter() - start
                getattr(result, f"{mode}_seconds").append(seconds)
                setattr(result, f"{mode}_failed", getattr(result, f"{mode}_failed") + failed)
                log(f"{name}: build {i + 1}/{max(pairs, 1)} {mode}: {seconds:.1f} s, "
                    f"{'failed' if failed else 'ok'}")
        self.collect(result, out["wrap"])
        return result

    def configure(self, name: str, tree: Path, out: Path) -> str | None:
        """Configure ``tree`` once, with plain mpicc (a stamp file marks it done); why
        it failed, or None."""
        stamp = tree / ".realcode-configured"
        if not stamp.exists():
            log(f"{name}: configure in {tree}")
            for cmd in PROJECTS[name].configure:
                if run(self.expand(cmd), tree, self.env("plain", name), out):
                    return f"configure failed: {' '.join(cmd)} (see {out})"
            stamp.touch()
        return None

    def clean(self, name: str, tree: Path, env: dict[str, str], out: Path) -> None:
        """Clean ``tree`` for the next build, and drop the summaries beside its objects
        (a summary a build left would answer for a file the next one compiles)."""
        for cmd in PROJECTS[name].clean:
            run(self.expand(cmd), tree, env, out)
        for summary in tree.rglob("*.mpicc-wrap.json"):
            summary.unlink()

    def collect(self, result: Result, wrap_log: Path) -> None:
        """Fill ``result`` from the JSON report, realcode-cc's log and the build log."""
        name = result.name
        report = self.results / f"{name}.report.jsonl"
        latest: dict[tuple[str, str], dict[str, Any]] = {}
        if report.is_file():
            for line in report.read_text(errors="replace").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                latest[(record.get("cwd", ""), record.get("file", ""))] = record
        for (cwd, file), record in sorted(latest.items()):
            if record.get("skipped"):
                result.skipped.append((os.path.join(cwd, file), record.get("reason", "")))
            else:
                result.tus += 1
                result.analysis_seconds.append(float(record["stats"]["analysis_seconds"]))
        result.compiles = read_log(self.results / f"{name}.compiles.tsv")
        for compile_ in result.compiles:
            if compile_.kind == "fail":
                result.wrap_failures.append(Path(compile_.detail).read_text(errors="replace"))
        seen: set[str] = set()
        dirs = [""]  # make's directory stack, to make relative locations unambiguous
        if wrap_log.is_file():
            for line in wrap_log.read_text(errors="replace").splitlines():
                if move := ENTERING_RE.search(line):
                    if move[1] == "Entering":
                        dirs.append(move[2])
                    elif len(dirs) > 1:
                        dirs.pop()
                match = WARNING_RE.match(line.strip())
                if not match:
                    continue
                where = os.path.join(dirs[-1], match["loc"])
                text = f"{os.path.normpath(where)}: {match['msg']}"
                if text not in seen:
                    seen.add(text)
                    result.warnings.append(text)


def row(result: Result) -> list[str]:
    """The summary-table cells of one project."""
    walls = [c.seconds for c in result.compiles if "-c" in c.args.split()]
    timeouts = sum(c.kind == "timeout" for c in result.compiles)
    wrap_fail = sum(c.kind == "fail" for c in result.compiles)
    status = [f"{mode} {'FAIL' if getattr(result, f'{mode}_failed') else 'ok'}"
              for mode in MODES if getattr(result, f"{mode}_seconds")]
    builds = result.error or ", ".join([*status, f"{wrap_fail} wrap-only fail"])
    timed = [mode for mode in MODES if getattr(result, f"{mode}_seconds")] or ["plain", "wrap"]
    builds_wall = "/".join(f"{statistics.median(t):.0f}" if (t := getattr(
        result, f"{mode}_seconds")) else "-" for mode in timed)
    ratios = "/".join(f"{r:.2f}" if (r := result.ratio(mode)) else "-"
                      for mode in timed if mode != "plain")
    return [result.name, str(result.tus), str(len(result.skipped)), str(timeouts), builds,
            spread(result.analysis_seconds), spread(walls), builds_wall, ratios,
            str(len(result.warnings))]


# Timed builds: mpicc, mpicc-wrap with a cold result cache, (--rebuild) the same again
# with the caches warm (the first rebuild after the cold build, then the next one:
# under make -j the first may miss where a callee's object finished at another time),
# and mpicc-wrap passing through (MPICC_WRAP_DISABLE=1).
MODES = ("plain", "wrap", "warm", "again", "off")


def spread(values: list[float]) -> str:
    """median/p99/max, or "-"."""
    if not values:
        return "-"
    return f"{statistics.median(values):.2f}/{percentile(values, 0.99):.2f}/{max(values):.2f}"


HEADER = ["project", "TUs", "skipped", "timeouts", "builds", "analysis s med/p99/max",
          "wrapped compile s med/p99/max", "make s plain/wrap[/warm/again/off]",
          "ratio wrap[/warm/again/off]", "warnings"]


def table(rows: list[list[str]]) -> str:
    """Aligned text table with a header line."""
    cells = [HEADER, *rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(HEADER))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in cells) + "\n"


def details(result: Result, slow: float) -> str:
    """Timeouts, slow compiles, skips, wrap-only failures of one project, as text."""
    lines = [f"== {result.name}: {result.note}"]
    if result.error:
        lines.append(f"  error: {result.error}")
    for c in sorted(result.compiles, key=lambda c: -c.seconds):
        if c.kind == "timeout" or c.seconds > slow:
            lines.append(f"  {c.kind} {c.seconds:.1f} s: (cd {c.cwd} && mpicc {c.args})")
    reasons: dict[str, int] = {}
    for _, reason in result.skipped:
        reasons[reason] = reasons.get(reason, 0) + 1
    lines += [f"  skip reason ({count} TUs): {reason}" for reason, count in
              sorted(reasons.items(), key=lambda item: -item[1])]
    lines += [f"  skipped {file}: {reason}" for file, reason in result.skipped]
    lines += ["  mpicc-wrap failed, mpicc ok:\n    " + f.strip().replace("\n", "\n    ")
              for f in result.wrap_failures]
    return "\n".join(lines) + "\n"


def workdir_default() -> Path:
    if env := os.environ.get("REALCODE_WORKDIR"):
        return Path(env)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "mpicc-wrap-realcode"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--projects", default=",".join(DEFAULT_PROJECTS),
                        help=f"comma-separated subset of {', '.join(PROJECTS)}")
    parser.add_argument("--small", action="store_true", help="hypre src/utilities only (CI)")
    parser.add_argument("--pairs", type=int, default=1,
                        help="alternating build pairs (0: one mpicc-wrap build, no ratio)")
    parser.add_argument("--collect", action="store_true",
                        help="no builds: summarise the logs and reports already in WORKDIR")
    parser.add_argument("--configure", action="store_true",
                        help="fetch and configure only (untimed), no builds")
    parser.add_argument("--jobs", type=int, default=2, help="make -j")
    parser.add_argument("--timeout", type=float, default=180, help="seconds per wrapped compile")
    parser.add_argument("--links", choices=("wrap", "plain"), default="wrap",
                        help="plain: link steps use plain mpicc (mpicc-wrap's link-time "
                        "relink recompiles library members with deferred findings for "
                        "every executable, which can take minutes per link)")
    parser.add_argument("--slow", type=float, default=5, help="list compiles slower than this")
    parser.add_argument("--nice", type=int, default=10, help="niceness of the builds")
    parser.add_argument("--workdir", type=Path, default=workdir_default())
    parser.add_argument("--rebuild", action="store_true",
                        help="each round also times two rebuilds with the caches warm "
                        "and a build through mpicc-wrap with MPICC_WRAP_DISABLE=1")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 on any failed build, wrap-only failure, timeout or "
                        "skipped TU (CI)")
    args = parser.parse_args(argv)
    names = ["hypre-utilities"] if args.small else args.projects.split(",")
    if unknown := [n for n in names if n not in PROJECTS]:
        parser.error(f"unknown project(s): {', '.join(unknown)}")
    os.nice(args.nice)
    harness = Harness(args.workdir.resolve(), args.jobs, args.timeout, args.links,
                      args.rebuild)
    results, rows = [], []
    for name in names:
        try:
            result = harness.project(name, args.pairs, args.collect, args.configure)
        except (BenchError, subprocess.CalledProcessError, OSError) as err:
            result = Result(name, PROJECTS[name].note, error=str(err))
        results.append(result)
        rows.append(row(result))
        (harness.results / f"{name}.json").write_text(json.dumps(
            {"row": dict(zip(HEADER, rows[-1], strict=True)), **vars(result),
             "compiles": [vars(c) for c in result.compiles]}, indent=1))
        log("\n" + table(rows[-1:]))
    settings = (f"make -j{args.jobs}, --pairs {args.pairs}, --timeout {args.timeout:g} s per "
                f"compile, links: {args.links}, niceness {args.nice}\n")
    if args.collect:  # the flags of this call say nothing about the runs collected
        settings = "collected from earlier runs (their settings are not recorded)\n"
    summary = (settings + table(rows) + "\n"
               + "".join(details(r, args.slow) for r in results))
    warnings = [w for r in results for w in r.warnings]
    summary += f"\n{len(warnings)} warning(s) in all: {harness.results / 'warnings.txt'}\n"
    (harness.results / "warnings.txt").write_text("".join(w + "\n" for w in warnings))
    (harness.results / "summary.txt").write_text(summary)
    print(summary, end="")
    problems = [p for r in results for p in (problems_of(r) if args.strict else
                                             [r.error] if r.error else [])]
    for problem in problems:
        log(f"realcode: {problem}")
    return 1 if problems else 0


def problems_of(result: Result) -> list[str]:
    """What makes a project's run a failure under ``--strict``, one line each."""
    counts = {
        "error": 1 if result.error else 0,
        "mpicc build(s) failed": result.plain_failed,
        "mpicc-wrap build(s) failed": result.wrap_failed + result.warm_failed
        + result.again_failed + result.off_failed,
        "compile(s) failed with mpicc-wrap only": sum(c.kind == "fail" for c in result.compiles),
        "wrapped compile(s) timed out": sum(c.kind == "timeout" for c in result.compiles),
        "TU(s) skipped by the analysis": len(result.skipped),
        "TUs analysed: none": 0 if result.tus else 1,
    }
    lines = [f"{result.name}: {count} {what}" for what, count in counts.items() if count]
    return [*lines, *([f"{result.name}: {result.error}"] if result.error else [])]


if __name__ == "__main__":
    sys.exit(main())
