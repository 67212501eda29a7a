"""First, do no harm: with a check before every collective and at every exit of
every function (``MPICC_WRAP_INSTRUMENT=all``), every correct program must run
exactly as its plain mpicc build: same exit code, same stdout (lines sorted, since
ranks interleave).

Programs: every correct program of ``tests/corpus``, the MPICH collective tests of
``tests/thirdparty/mpich-coll`` (most free communicators through an ``MPI_Comm *``
parameter, the case that made instrumented builds abort at start-up), and the
Makefile integration project.  Every build is checked to be really instrumented
(no "analysis skipped" / "did not compile" note), so a silent fallback to the
original source cannot pass for a clean run.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import corpus_lib as corpus
import mpirun
import pytest
from integration_build import build_env, check, copy_projects
from paths import THIRDPARTY

pytestmark = [pytest.mark.mpi, pytest.mark.slow]

ALL = {"MPICC_WRAP_INSTRUMENT": "all"}
MPICH = THIRDPARTY / "mpich-coll"
HARNESS = ("mtest", "mtest_common", "mtest_single")
MPICH_PROGRAMS = sorted(p.stem for p in MPICH.glob("*.c") if p.stem not in HARNESS)
MPICH_NPROCS = 4
CORRECT = [p for p in corpus.discover() if not p.buggy]
CORPUS_CASES = corpus.params(CORRECT)
RUN_TIMEOUT = 90.0
SKIP_NOTES = ("analysis skipped", "did not compile")


@dataclass
class Pair:
    """The plain and the instrument-everything run of one case."""

    plain: mpirun.Run
    wrapped: mpirun.Run


def same(pair: Pair, where: str) -> None:
    plain, wrapped = pair.plain, pair.wrapped
    assert not plain.timed_out, f"{where}: the plain build hung"
    assert not wrapped.timed_out, f"{where}: hung when every collective is checked"
    assert "DYNAMIC-CHECK" not in wrapped.output, f"{where}: false report:\n{wrapped.output}"
    assert wrapped.returncode == plain.returncode, (
        f"{where}: exit {wrapped.returncode} instead of {plain.returncode}:\n"
        f"{wrapped.output[-3000:]}")
    assert corpus.sorted_stdout(wrapped.stdout) == corpus.sorted_stdout(plain.stdout), (
        f"{where}: stdout differs\n--- plain\n{plain.stdout}\n--- all\n{wrapped.stdout}")


def no_skip_note(text: str, where: str) -> None:
    notes = [line for line in text.splitlines() if any(n in line for n in SKIP_NOTES)]
    assert notes == [], f"{where}: not instrumented:\n" + "\n".join(notes)


# --- the MPICH collective tests ------------------------------------------------------

def build_mpich(compiler: str, out: Path, env: dict[str, str] | None) -> dict[str, Path]:
    """The harness objects once, then every program linked with them."""
    out.mkdir(parents=True)
    cc = mpirun.tool(compiler)
    objs = []
    for name in HARNESS:
        obj = out / f"{name}.o"
        res = mpirun.run([cc, "-I", str(MPICH), "-c", str(MPICH / f"{name}.c"), "-o", str(obj)],
                         timeout=300, env=env)
        assert res.returncode == 0, res.output
        no_skip_note(res.stderr, f"{compiler} {name}.c")
        objs.append(str(obj))
    exes = {}
    for name in MPICH_PROGRAMS:
        exe = out / name
        res = mpirun.run([cc, "-I", str(MPICH), str(MPICH / f"{name}.c"), *objs, "-lm",
                          "-o", str(exe)], timeout=300, env=env)
        assert res.returncode == 0, res.output
        no_skip_note(res.stderr, f"{compiler} {name}.c")
        exes[name] = exe
    return exes


@pytest.fixture(scope="module")
def mpich_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Pair]:
    root = tmp_path_factory.mktemp("mpich-coll")
    env = {"MPICC_WRAP_CACHE": str(root / "cache")}
    plain = build_mpich("mpicc", root / "plain", None)
    wrapped = build_mpich("mpicc-wrap", root / "all", {**env, **ALL})

    def one(name: str) -> Pair:
        return Pair(*(mpirun.mpiexec(exes[name], MPICH_NPROCS, timeout=RUN_TIMEOUT,
                                     cwd=exes[name].parent) for exes in (plain, wrapped)))

    return corpus.pool_map(one, [(n,) for n in MPICH_PROGRAMS], key=lambda n: n, workers=2)


def test_mpich_subset_is_the_dangerous_kind() -> None:
    """Most programs take communicators the harness frees through a pointer."""
    users = [n for n in MPICH_PROGRAMS
             if "MTestFreeComm" in (MPICH / f"{n}.c").read_text()]
    assert len(MPICH_PROGRAMS) >= 30 and len(users) >= 20
    assert "MPI_Comm_free(comm)" in (MPICH / "mtest.c").read_text()


@pytest.mark.parametrize("name", MPICH_PROGRAMS)
def test_mpich_program_runs_as_with_mpicc(name: str, mpich_runs: dict[str, Pair]) -> None:
    pair = mpich_runs[name]
    assert pair.plain.returncode == 0, f"{name} fails even when built with mpicc"
    same(pair, f"{name} at -n {MPICH_NPROCS}")
    assert " No Errors" in pair.wrapped.stdout


# --- the correct programs of the corpus ----------------------------------------------

@pytest.fixture(scope="module")
def corpus_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                ) -> dict[str, Pair | str]:
    cache = {"MPICC_WRAP_CACHE": str(tmp_path_factory.mktemp("cache"))}
    wrap = corpus.BuildCache("mpicc-wrap", tmp_path_factory.mktemp("all"), {**cache, **ALL})
    plain = corpus.BuildCache("mpicc", tmp_path_factory.mktemp("plain"))

    def one(program: corpus.Program, nprocs: int) -> Pair | str:
        builds = (plain.get(program), wrap.get(program))
        for b in builds:
            if not b.ok:
                return f"build failed:\n{b.log}"
        no_skip_note(builds[1].compile_stderr + builds[1].link_stderr, program.name)
        return Pair(*(mpirun.mpiexec(b.exe, nprocs, timeout=RUN_TIMEOUT, cwd=b.exe.parent)
                      for b in builds))

    return corpus.pool_map(one, corpus.selected(request, "case"),
                           key=lambda p, n: corpus.case_id((p, n)), workers=2)


@pytest.mark.parametrize("case", CORPUS_CASES, ids=corpus.case_id)
def test_correct_corpus_program_runs_as_with_mpicc(
        case: tuple[corpus.Program, int], corpus_runs: dict[str, Pair | str]) -> None:
    outcome = corpus_runs[corpus.case_id(case)]
    assert isinstance(outcome, Pair), outcome
    same(outcome, corpus.case_id(case))


# --- the integration projects --------------------------------------------------------

# How a project is built with compiler ``cc``: (commands, each with the directory it
# runs in, relative to the copy of integration/) and the executable to run.
Recipe = tuple[list[tuple[list[str], str]], str]


def integration_pair(tmp_path: Path, name: str, recipe: Callable[[str], Recipe]) -> None:
    """Build integration project ``name`` with plain mpicc and with mpicc-wrap under
    MPICC_WRAP_INSTRUMENT=all (each in its own copy), run both, compare."""
    runs = []
    for cc, extra in (("mpicc", {}), ("mpicc-wrap", ALL)):
        root = copy_projects(tmp_path / cc)
        env = {**build_env(tmp_path / "tmp"), **extra,
               "MPICC_WRAP_CACHE": str(tmp_path / "cache")}
        commands, exe = recipe(cc)
        output = "".join(check(cmd, root / where, env).output for cmd, where in commands)
        no_skip_note(output, f"{name} with {cc}")
        runs.append(mpirun.mpiexec(root / exe, 4, timeout=RUN_TIMEOUT))
    same(Pair(*runs), f"{name} {Path(exe).name}")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_project_runs_as_with_mpicc(tmp_path: Path) -> None:
    integration_pair(tmp_path, "make-project", lambda cc: (
        [(["make", "-j2", f"CC={cc}"], "make-project")], "make-project/build/jacobi"))


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_project_runs_as_with_mpicc(tmp_path: Path) -> None:
    """The same sources through CMake and the toolchain file (FindMPI, MPI::MPI_C)."""
    toolchain = mpirun.run([mpirun.tool("mpicc-wrap"), "--wrap-cmake-toolchain"],
                           timeout=60).stdout.strip()
    compiler = {"mpicc": f"-DCMAKE_C_COMPILER={mpirun.mpicc()[0]}",
                "mpicc-wrap": f"-DCMAKE_TOOLCHAIN_FILE={toolchain}"}
    integration_pair(tmp_path, "cmake-project", lambda cc: (
        [(["cmake", "-S", "cmake-project", "-B", "cmake-build", compiler[cc]], "."),
         (["cmake", "--build", "cmake-build", "-j2"], ".")], "cmake-build/jacobi"))


@pytest.mark.skipif(shutil.which("autoreconf") is None or shutil.which("automake") is None,
                    reason="autoreconf/automake are not installed (Debian: autoconf automake)")
def test_autotools_project_runs_as_with_mpicc(tmp_path: Path) -> None:
    integration_pair(tmp_path, "autotools-project", lambda cc: (
        [(["autoreconf", "-fi"], "autotools-project"),
         (["./configure", f"CC={cc}"], "autotools-project"),
         (["make", "-j2"], "autotools-project")], "autotools-project/ringstats"))
