"""Open MPI as a second MPI: the README demo, the corpus run-time checks at one process
count, the make and CMake builds, and the checker runtime's cache, with
``MPICC_WRAP_CC`` naming Open MPI's compiler (the ``openmpi`` fixture) and Open MPI's
mpiexec (tests/mpirun.py).  The cclib tests run under Open MPI too (test_cclib.py,
``mpi_impl``).  Without Open MPI these fail under CI and skip, saying why, elsewhere.

Known differences from MPICH, documented in the README's limits:
* ``MPI_Comm`` is a pointer type: compile-time messages still say ``MPI_COMM_WORLD``
  (the handle probe maps Open MPI's expansion back to the name);
* a rank exiting with status 0 without MPI_Finalize makes Open MPI's mpiexec
  abort the job and return 1 (MPICH's returns 0).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import corpus_lib as corpus
import mpirun
import pytest
from integration_build import copy_projects, mpi_warnings, plain_cc, run_program
from paths import ROOT
from test_corpus_dynamic import Outcome, check_case, run_case
from test_integration_cmake import _cache, _configure_and_build
from test_integration_make import _make

from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options

pytestmark = [pytest.mark.mpi, pytest.mark.usefixtures("openmpi")]

# Compile-time messages name handles as written, under Open MPI too.
WORLD = "MPI_COMM_WORLD"
PROGRAMS = corpus.discover()
# One process count per program: 2 where the program runs at 2, else its first.
CASES = [(p, 2 if 2 in p.nprocs else p.nprocs[0]) for p in PROGRAMS]
ABORT_CODE = 77


def test_the_launcher_is_open_mpis() -> None:
    command = mpirun.mpiexec_command()
    assert mpirun.is_openmpi(command[0]), command
    assert "--oversubscribe" in command
    assert Path(mpirun.mpicc()[0]).name == mpirun.OPENMPI_CC


def test_demo_warns_then_stops_the_run(tmp_path: Path,
                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    """examples/demo.sh under Open MPI: the warning, then the abort with code 77."""
    shim = mpirun.mpiexec_shim(tmp_path_factory.mktemp("shim"))
    result = mpirun.run(["sh", str(ROOT / "examples" / "demo.sh")], timeout=180,
                        env={"TMPDIR": str(tmp_path),
                             "PATH": f"{shim}:{mpirun.search_path()}"})
    assert result.returncode == 0, result.output
    assert re.search(rf"demo\.c:22:9: warning: MPI_Allreduce on {WORLD} may be called in a "
                     r"different order by different processes \[-Wmpi-collective-order\]",
                     result.stdout), result.stdout
    assert "DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: ranks 0,2 are about to " \
        "call MPI_Allreduce at demo.c:22" in result.stdout
    assert f"(exit status {ABORT_CODE}: stopped by the run-time check)" in result.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def runs(openmpi: str, request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Outcomes of every selected corpus case, built and run with Open MPI."""
    wrap = corpus.BuildCache("mpicc-wrap", tmp_path_factory.mktemp("ompi-wrapped"))
    plain = corpus.BuildCache("mpicc", tmp_path_factory.mktemp("ompi-plain"))
    return corpus.pool_map(lambda p, n: run_case(wrap, plain, p, n),
                           corpus.selected(request, "case"),
                           key=lambda p, n: corpus.case_id((p, n)), workers=2)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=corpus.case_id)
def test_corpus_wrapped_run(case: tuple[corpus.Program, int], runs: dict[str, Outcome]
                            ) -> None:
    check_case(case, runs)


def test_make_build_matches_plain_open_mpi(tmp_path: Path) -> None:
    """`make CC=mpicc-wrap` over Open MPI: no false warning, same output as CC=mpicc."""
    root = copy_projects(tmp_path)
    project = root / "make-project"
    _make(project, tmp_path / "tmp", "-j2", cc=plain_cc())
    reference = run_program(project / "build" / "jacobi")
    _make(project, tmp_path / "tmp", "clean")
    output = _make(project, tmp_path / "tmp", "-j2")
    assert "mpicc-wrap" in output and mpi_warnings(output) == []
    assert reference.startswith("jacobi: n=64 iters=40 ranks=4\n")
    assert run_program(project / "build" / "jacobi") == reference


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_build_matches_plain_open_mpi(tmp_path: Path) -> None:
    """The toolchain file over Open MPI: FindMPI introspects mpicc-wrap, which answers
    with Open MPI's flags; the program runs like the plain build."""
    root = copy_projects(tmp_path)
    plain = tmp_path / "build-plain"
    _configure_and_build(root, plain, tmp_path / "tmp", f"-DCMAKE_C_COMPILER={plain_cc()}")
    toolchain = mpirun.run([mpirun.tool("mpicc-wrap"), "--wrap-cmake-toolchain"], timeout=60)
    assert toolchain.returncode == 0, toolchain.output
    wrapped = tmp_path / "build-wrap"
    output = _configure_and_build(root, wrapped, tmp_path / "tmp",
                                  f"-DCMAKE_TOOLCHAIN_FILE={toolchain.stdout.strip()}")
    assert "Found MPI_C" in output and mpi_warnings(output) == []
    assert Path(_cache(wrapped)["MPI_C_COMPILER"]).name == "mpicc-wrap"
    assert "libopen-pal" in _linked_libraries(wrapped / "jacobi")  # Open MPI's runtime
    assert run_program(wrapped / "jacobi") == run_program(plain / "jacobi")


def _linked_libraries(exe: Path) -> str:
    return subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=60,
                          check=True).stdout


def _undefined(archive: Path) -> set[str]:
    out = subprocess.run(["nm", "-u", str(archive)], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip().startswith("U ")}


def test_runtime_cache_keeps_one_build_per_mpi(tmp_path: Path) -> None:
    """The checker runtime built for the environment's MPICH and for Open MPI in one
    cache: two entries, each linked against its own MPI, neither rebuilt by the other."""
    options = Options(cache=str(tmp_path / "cache"))
    mpich = library.ensure_runtime([mpirun.tool("mpicc")], options)
    stamp = mpich.archive.stat().st_mtime_ns
    ompi = library.ensure_runtime(mpirun.mpicc(), options)
    assert ompi.directory != mpich.directory
    assert ompi.directory.parent == mpich.directory.parent
    assert mpich.archive.stat().st_mtime_ns == stamp
    assert library.ensure_runtime([mpirun.tool("mpicc")], options) == mpich
    assert any(name.startswith("ompi_") for name in _undefined(ompi.archive))
    assert not any(name.startswith("ompi_") for name in _undefined(mpich.archive))
    done = sorted(p.parent.name for p in (tmp_path / "cache" / "runtime").glob("*/BUILD-COMPLETE"))
    assert done == sorted([mpich.directory.name, ompi.directory.name])


def test_rank_exiting_zero_without_finalize_aborts_the_job(tmp_path: Path) -> None:
    """Documented difference: Open MPI's mpiexec ends such a job with status 1."""
    src = tmp_path / "early.c"
    src.write_text("#include <mpi.h>\n#include <stdlib.h>\n"
                   "int main(int argc, char **argv) {\n  int rank;\n"
                   "  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
                   "  if (rank == 1) exit(0);\n  MPI_Barrier(MPI_COMM_WORLD);\n"
                   "  MPI_Finalize();\n  return 0;\n}\n")
    built = mpirun.run([*mpirun.mpicc(), str(src), "-o", str(tmp_path / "early")], timeout=120)
    assert built.returncode == 0, built.output
    res = mpirun.mpiexec(tmp_path / "early", 3, timeout=60)
    assert not res.timed_out and res.returncode == 1, res.output

