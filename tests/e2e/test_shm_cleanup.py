"""Do no harm to the node: a job built by mpicc-wrap that ends abnormally leaves no
MPI shared memory in /dev/shm (cclib/mpiccwrap_shm.c).

MPICH keeps its node segment linked until MPI_Finalize, so every MPI_Abort, non-zero
exit or killed hang of a plain build leaves 2-4 MB of RAM behind until reboot.  The
checker aborts by design, so a user debugging with it would fill the node; the
interception unlinks the segment once every rank has attached.  Open MPI removes its
own segments on abort, so these runs are MPICH's only.
"""

from __future__ import annotations

import os
from pathlib import Path

import mpirun
import pytest

pytestmark = pytest.mark.mpi

SHM = Path("/dev/shm")
PROGRAM = r"""
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argv[1][0] == 'c' && rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);          /* collective mismatch: the checker aborts */
  if (argv[1][0] == 'e' && rank == 1)
    exit(3);                              /* a rank's own error exit */
  while (argv[1][0] == 'h')
    sleep(1);                             /* a hang, killed by the time limit */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
"""


def segments() -> set[str]:
    return {p.name for p in SHM.glob("mpich_shm_*")}


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if mpirun.is_openmpi(mpirun.mpiexec_command()[0]):
        pytest.skip("Open MPI removes its own segments; the leak is MPICH's")
    if not SHM.is_dir() or not os.access(SHM, os.W_OK):
        pytest.skip("no writable /dev/shm")
    folder = tmp_path_factory.mktemp("shm")
    (folder / "prog.c").write_text(PROGRAM)
    done = mpirun.run([mpirun.tool("mpicc-wrap"), "prog.c", "-o", "prog"], cwd=folder,
                      timeout=180)
    assert done.returncode == 0, done.output
    return folder / "prog"


@pytest.mark.parametrize("how", ["collective", "exit", "hang"])
def test_an_abnormal_end_leaves_no_segment(program: Path, how: str) -> None:
    before = segments()
    done = mpirun.mpiexec(program, 2, [how], timeout=8 if how == "hang" else 60)
    assert done.timed_out == (how == "hang"), done.output
    assert done.returncode != 0, done.output
    if how == "collective":
        assert "DYNAMIC-CHECK" in done.output, done.output
    assert segments() - before == set()


def test_a_correct_run_is_unchanged(program: Path) -> None:
    done = mpirun.mpiexec(program, 3, ["ok"], timeout=60)
    assert done.returncode == 0 and not done.timed_out, done.output
