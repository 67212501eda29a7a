"""Shared fixtures: the MPI compiler of the run, and Open MPI as a second MPI.

Tests find MPI the way users do (tests/mpirun.py): ``$MPICC_WRAP_CC`` if set, else the
active environment's ``mpicc``.  A test that needs Open MPI asks for ``openmpi`` (or
is parametrised over ``mpi_impl``): it runs with ``MPICC_WRAP_CC`` pointing at Open
MPI's compiler, so the wrapper, the helpers and ``mpiexec`` all follow.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import mpirun
import pytest

_STARTED = time.time() - 1  # (file times have coarse granularity)


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After each test, remove the MPI shared memory its killed or aborted jobs leaked
    (plain MPICH builds keep theirs; mpicc-wrap's own builds leave none)."""
    mpirun.release_leaked_shm(_STARTED)


# "default": whatever MPICC_WRAP_CC / the environment's mpicc is; "openmpi": Open MPI.
MPI_IMPLS = ("default", "openmpi")


@pytest.fixture()
def mpicc() -> list[str]:
    """The MPI C compiler command of this run (see mpirun.mpicc)."""
    return mpirun.mpicc()


def require_openmpi() -> str:
    """Path of Open MPI's compiler.  Absent: a failure under CI (where .ci/run
    installs it), a skip that says why anywhere else."""
    found = mpirun.openmpi_compiler()
    if found:
        return found
    reason = f"Open MPI is not installed ({mpirun.OPENMPI_CC} not on PATH)"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must test under Open MPI too")
    print(f"\nskipping: {reason}")
    pytest.skip(reason)


def _use(impl: str) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch:
        if impl == "openmpi":
            patch.setenv("MPICC_WRAP_CC", require_openmpi())
        yield impl


@pytest.fixture(scope="module")
def openmpi() -> Iterator[str]:
    """Run the requesting module's tests under Open MPI (MPICC_WRAP_CC set)."""
    yield from _use("openmpi")


@pytest.fixture(scope="module", params=MPI_IMPLS)
def mpi_impl(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run each requesting test under the default MPI and again under Open MPI."""
    yield from _use(request.param)
