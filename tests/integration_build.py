"""Helpers for the build-system integration tests (tests/test_integration_*.py).

Every build happens in a temporary copy of integration/ (never in the source tree),
with TMPDIR pointing at a private directory so that temporary files the wrapper
leaves behind can be detected without racing other processes on the machine.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import mpirun

INTEGRATION = Path(__file__).resolve().parent.parent / "integration"
PROJECTS = ("make-project", "cmake-project", "autotools-project")
COMPILERS = ("mpicc", "mpicc-wrap")
NPROCS = 4
# mpiexec on a loaded 2-core machine can take seconds just to start 4 ranks.
RUN_TIMEOUT = 90
BUILD_TIMEOUT = 600


def copy_projects(dest: Path) -> Path:
    """Copy the sample projects (siblings, since cmake-project uses make-project's
    sources) into ``dest/integration`` and return that directory."""
    root = dest / "integration"
    root.mkdir(parents=True)
    ignore = shutil.ignore_patterns("build", "_build*", "*.o", "*.a", "*.d", "__pycache__")
    for name in PROJECTS:
        shutil.copytree(INTEGRATION / name, root / name, ignore=ignore)
    shutil.copy2(INTEGRATION / "mpicc-wrap-toolchain.cmake", root)
    return root


def plain_cc() -> str:
    """The reference compiler for CC=: the MPI compiler of the run, as one word list."""
    return shlex.join(mpirun.mpicc())


def build_env(tmpdir: Path) -> dict[str, str]:
    """Environment for a build: private TMPDIR, wrapper switches at their defaults."""
    tmpdir.mkdir(parents=True, exist_ok=True)
    return {"TMPDIR": str(tmpdir), "MPICC_WRAP_DISABLE": "0", "MPICC_WRAP_DEBUG": "0"}


def check(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
          timeout: float = BUILD_TIMEOUT) -> mpirun.Run:
    """Run a build command; fail the test with its output unless it succeeds."""
    result = mpirun.run(cmd, timeout=timeout, cwd=cwd, env=env)
    assert not result.timed_out, f"{cmd} timed out after {timeout}s:\n{result.output[-4000:]}"
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.output[-4000:]}"
    return result


def run_program(exe: Path, args: list[str] | None = None) -> str:
    """Run ``exe`` under ``mpiexec -n 4``; return its stdout after checking it ran clean."""
    result = mpirun.mpiexec(exe, NPROCS, args, timeout=RUN_TIMEOUT)
    assert not result.timed_out, f"{exe} hung:\n{result.output[-4000:]}"
    assert result.returncode == 0, f"{exe} exited {result.returncode}:\n{result.output[-4000:]}"
    assert "DYNAMIC-CHECK" not in result.output, result.output
    return result.stdout


def mpi_warnings(text: str) -> list[str]:
    """Lines of compiler output that are mpicc-wrap collective-ordering warnings."""
    return [line for line in text.splitlines() if "[-Wmpi-" in line]


def leftover_temp(tmpdir: Path) -> list[str]:
    """Names of anything the wrapper left in its private TMPDIR."""
    return sorted(p.name for p in tmpdir.iterdir())


def tree_files(root: Path) -> set[str]:
    """Every file below ``root``, relative, as POSIX paths."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
