"""CMake: the toolchain file (integration/mpicc-wrap-toolchain.cmake) and the sample
project (integration/cmake-project, find_package(MPI) + MPI::MPI_C)."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
from pathlib import Path

import mpirun
import pytest
from integration_build import (
    INTEGRATION,
    build_env,
    check,
    copy_projects,
    mpi_warnings,
    run_program,
)

pytestmark = [
    pytest.mark.mpi,
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed"),
]

TOOLCHAIN = INTEGRATION / "mpicc-wrap-toolchain.cmake"


def _cache(build: Path) -> dict[str, str]:
    """CMakeCache.txt entries as NAME -> value."""
    entries = {}
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if ":" in line and "=" in line and not line.startswith(("//", "#")):
            key, _, value = line.partition("=")
            entries[key.split(":")[0]] = value
    return entries


def _configure_and_build(root: Path, build: Path, tmp: Path, *defs: str) -> str:
    env = build_env(tmp)
    out = check(["cmake", "-S", str(root / "cmake-project"), "-B", str(build), *defs],
                root, env).output
    out += check(["cmake", "--build", str(build), "-j4"], root, env).output
    return out


def test_wrapper_prints_toolchain_path() -> None:
    """`mpicc-wrap --wrap-cmake-toolchain` names this repository's toolchain file."""
    result = mpirun.run([mpirun.tool("mpicc-wrap"), "--wrap-cmake-toolchain"], timeout=60)
    assert result.returncode == 0, result.output
    printed = Path(result.stdout.strip())
    assert printed.is_absolute() and printed.is_file()
    assert printed.read_text() == TOOLCHAIN.read_text()


@pytest.mark.parametrize("flag", ["-show", "-compile-info", "-link-info"])
def test_findmpi_interrogation_passes_through(flag: str) -> None:
    """FindMPI asks the MPI compiler for its flags (-show & co): through mpicc-wrap
    it must get mpicc's exact answer."""
    plain = mpirun.run([*mpirun.mpicc(), flag], timeout=60)
    wrapped = mpirun.run([mpirun.tool("mpicc-wrap"), flag], timeout=60)
    assert plain.returncode == 0, plain.output
    assert (wrapped.returncode, wrapped.stdout) == (0, plain.stdout)


def test_toolchain_finds_wrapper_of_its_install_prefix(tmp_path: Path) -> None:
    """Installed at PREFIX/lib/python3.11/site-packages/mpicc_wrap/integration, the
    toolchain picks PREFIX/bin/mpicc-wrap even when PREFIX/bin is not on PATH."""
    prefix = tmp_path / "prefix"
    installed = prefix / "lib/python3.11/site-packages/mpicc_wrap/integration"
    installed.mkdir(parents=True)
    shutil.copy2(TOOLCHAIN, installed)
    fake = prefix / "bin" / "mpicc-wrap"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\nexec {shlex.join(mpirun.mpicc())} "$@"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    root = copy_projects(tmp_path / "src")
    build = tmp_path / "build"
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    result = mpirun.run(
        ["/usr/bin/env", "-i", *(f"{k}={v}" for k, v in env.items()), shutil.which("cmake") or
         "cmake", "-S", str(root / "cmake-project"), "-B", str(build),
         f"-DCMAKE_TOOLCHAIN_FILE={installed / TOOLCHAIN.name}"], timeout=300)
    assert result.returncode == 0, result.output
    cache = _cache(build)
    assert cache["MPICC_WRAP_EXECUTABLE"] == str(fake)
    assert cache["MPI_C_COMPILER"] == str(fake)


def test_toolchain_fails_clearly_without_wrapper(tmp_path: Path) -> None:
    """No mpicc-wrap anywhere: configuring stops with a message saying so."""
    lonely = tmp_path / "share"
    lonely.mkdir()
    shutil.copy2(TOOLCHAIN, lonely)
    root = copy_projects(tmp_path / "src")
    result = mpirun.run(
        ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", shutil.which("cmake") or "cmake",
         "-S", str(root / "cmake-project"), "-B", str(tmp_path / "build"),
         f"-DCMAKE_TOOLCHAIN_FILE={lonely / TOOLCHAIN.name}"], timeout=300)
    assert result.returncode != 0
    assert "mpicc-wrap not found" in result.output


def test_cmake_build_with_wrapper_matches_mpicc(tmp_path: Path) -> None:
    """The project built through the toolchain file (FindMPI introspecting
    mpicc-wrap) runs with the same output as the plain mpicc build."""
    root = copy_projects(tmp_path)
    plain = tmp_path / "build-mpicc"
    _configure_and_build(root, plain, tmp_path / "tmp",
                         f"-DCMAKE_C_COMPILER={mpirun.mpicc()[0]}")
    toolchain = mpirun.run([mpirun.tool("mpicc-wrap"), "--wrap-cmake-toolchain"], timeout=60)
    assert toolchain.returncode == 0, toolchain.output
    wrapped = tmp_path / "build-wrap"
    output = _configure_and_build(root, wrapped, tmp_path / "tmp",
                                  f"-DCMAKE_TOOLCHAIN_FILE={toolchain.stdout.strip()}")
    assert "Found MPI_C" in output
    assert Path(_cache(wrapped)["MPI_C_COMPILER"]).name == "mpicc-wrap"
    assert mpi_warnings(output) == []
    assert run_program(wrapped / "jacobi") == run_program(plain / "jacobi")
