"""Autotools: `autoreconf -fi && ./configure CC=mpicc-wrap && make` on
integration/autotools-project gives the same program output as CC=mpicc."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from integration_build import (
    build_env,
    check,
    copy_projects,
    mpi_warnings,
    plain_cc,
    run_program,
)

pytestmark = [
    pytest.mark.mpi,
    pytest.mark.skipif(shutil.which("autoreconf") is None or shutil.which("automake") is None,
                       reason="autoreconf/automake are not installed (Debian: autoconf automake)"),
]


def _build(tmp_path: Path, name: str, cc: str) -> tuple[Path, str]:
    """Configure and build a fresh copy (in ``tmp_path/name``) with CC=cc; return it and
    the build output."""
    root = copy_projects(tmp_path / name)
    project = root / "autotools-project"
    env = build_env(tmp_path / "tmp")
    output = check(["autoreconf", "-fi"], project, env).output
    output += check(["./configure", f"CC={cc}"], project, env).output
    output += check(["make", "-j2"], project, env).output
    return project, output


def test_configure_and_make_with_wrapper_matches_mpicc(tmp_path: Path) -> None:
    """configure's compiler probes (conftest, -E, --version...) pass through the
    wrapper, the build warns about nothing, and the program behaves the same."""
    plain, _ = _build(tmp_path, "mpicc", plain_cc())
    wrapped, output = _build(tmp_path, "mpicc-wrap", "mpicc-wrap")
    assert "checking for MPI_Init... yes" in output
    assert "checking whether the C compiler works... yes" in output
    assert mpi_warnings(output) == []
    config = (wrapped / "config.log").read_text()
    assert "CC='mpicc-wrap'" in config
    expected = run_program(plain / "ringstats")
    assert expected == "ranks 4 token 110 mean 3.500000 std 3.500000\n"
    assert run_program(wrapped / "ringstats") == expected
