"""The Makefile sample project (integration/make-project) built with mpicc-wrap as CC.

The mpicc build is the reference: the mpicc-wrap build must give the same stdout
under ``mpiexec -n 4``, print no collective warning (the project is correct MPI),
keep -MMD -MP dependency files pointing at the user's sources, and survive repeated
parallel builds without leaving temporary files behind.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from integration_build import (
    INTEGRATION,
    build_env,
    check,
    copy_projects,
    leftover_temp,
    mpi_warnings,
    plain_cc,
    run_program,
    tree_files,
)

from mpicc_wrap.analysis.summaries import INDEX, SIDE_SUFFIX

pytestmark = pytest.mark.mpi

LIB_TUS = 10
APP_TUS = 3


def _make(project: Path, tmp: Path, *args: str, cc: str = "mpicc-wrap",
          cc_in_env: bool = False) -> str:
    """Run make in ``project``; CC on the command line or in the environment."""
    env = build_env(tmp)
    cmd = ["make", *args]
    if cc_in_env:
        env["CC"] = cc
    else:
        cmd.append(f"CC={cc}")
    return check(cmd, project, env).output


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Stdout of the mpicc build, the output every other build must reproduce."""
    root = copy_projects(tmp_path_factory.mktemp("make-ref"))
    project = root / "make-project"
    _make(project, root / "tmp", "-j2", cc=plain_cc())
    return run_program(project / "build" / "jacobi")


def test_project_shape() -> None:
    """At least 10 TUs (7 in the library, 3 in the executable) and a header dir."""
    src = INTEGRATION / "make-project"
    assert len(list((src / "lib").glob("*.c"))) == LIB_TUS
    assert len(list((src / "app").glob("*.c"))) == APP_TUS
    assert (src / "include" / "halo.h").is_file()


def test_reference_output_is_deterministic(reference: str) -> None:
    """Rank 0 prints a fixed-precision report (the comparison below relies on it)."""
    assert reference.startswith("jacobi: n=64 iters=40 ranks=4\n")
    assert "final residual" in reference and "checksum" in reference


@pytest.mark.parametrize("cc_in_env", [False, True], ids=["make-CC=", "CC=-make"])
def test_wrap_build_matches_mpicc(tmp_path: Path, reference: str, cc_in_env: bool) -> None:
    """`make CC=mpicc-wrap -j4` and `CC=mpicc-wrap make -j4` build a program whose
    output equals the mpicc build's, with no false collective warning."""
    root = copy_projects(tmp_path)
    project = root / "make-project"
    output = _make(project, tmp_path / "tmp", "-j4", cc_in_env=cc_in_env)
    assert "mpicc-wrap" in output  # make echoed the wrapper as the compiler
    assert mpi_warnings(output) == []
    assert run_program(project / "build" / "jacobi") == reference


def test_dependency_files_track_user_headers(tmp_path: Path) -> None:
    """-MMD -MP through the wrapper: .d files name the user's files, not a temporary
    rewritten copy, and touching a header rebuilds exactly its dependants."""
    root = copy_projects(tmp_path)
    project = root / "make-project"
    tmp = tmp_path / "tmp"
    _make(project, tmp, "-j4")
    dep = (project / "build" / "lib" / "stencil.d").read_text()
    assert dep.startswith("build/lib/stencil.o:")
    assert "lib/stencil.c" in dep and "include/halo.h" in dep and "include/halo.h:" in dep
    assert "mpicc-wrap-" not in dep

    assert "Nothing to be done" in _make(project, tmp)
    time.sleep(1.1)  # make compares whole-second mtimes on some filesystems
    (project / "lib" / "stencil.c").touch()
    rebuilt = _make(project, tmp)
    assert rebuilt.count(" -c ") == 1 and "lib/stencil.c" in rebuilt
    time.sleep(1.1)
    (project / "include" / "jacobi.h").touch()
    rebuilt = _make(project, tmp)
    assert rebuilt.count(" -c ") == APP_TUS


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 20 full builds; about 2 min on an idle 2-core machine
def test_parallel_builds_twenty_times_leave_nothing_behind(tmp_path: Path) -> None:
    """`make -j8` 20 times in a row (clean between): never fails, leaves no
    temporary file in TMPDIR and no file in the project but the build products
    (object and depfile, maybe the wrapper's cross-TU summary beside an object and its
    per-function index)."""
    root = copy_projects(tmp_path)
    project = root / "make-project"
    tmp = tmp_path / "tmp"
    sources = tree_files(project)
    stems = [f"build/{Path(s).with_suffix('')}" for s in sources if s.endswith(".c")]
    required = sources | {"build/libhalo.a", "build/jacobi"}
    required |= {stem + ext for stem in stems for ext in (".o", ".d")}
    optional = {stem + ".o" + SIDE_SUFFIX for stem in stems}
    for attempt in range(20):
        _make(project, tmp, "-j8")
        files = tree_files(project)
        assert required <= files, f"build {attempt}: missing {sorted(required - files)}"
        stray = {f for f in files - required - optional if f"/{INDEX}/" not in f}
        assert not stray, f"build {attempt}: stray {stray}"
        assert leftover_temp(tmp) == [], f"build {attempt} left temporary files"
        assert os.access(project / "build" / "jacobi", os.X_OK)
        _make(project, tmp, "clean")
    assert tree_files(project) == sources
