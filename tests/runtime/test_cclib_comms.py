"""The recorder's live-communicator set (cclib/mpiccwrap_recorder.c): a check never hands
MPI a freed or never-set communicator handle (MPICH aborts in MPI_Comm_test_inter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mpirun import mpiexec, run, tool

from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options

pytestmark = pytest.mark.mpi

PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include "mpiccwrap_cc.h"
#include "mpiccwrap_recorder.h"
static const struct mpiccwrap_site leave = {MPICCWRAP_COLOR_EXIT, "exit", "", "f.c", 9,
                                            "f", "", 1, 0};
MPI_Comm never_set; /* 0 under MPICH: not MPI_COMM_NULL, not a communicator */
%(extra)s
int main(int argc, char **argv) {
  MPI_Comm dup, split, keep, cart;
  int rank, dims[1] = {0}, periods[1] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank %% 2, rank, &split);
  MPI_Dims_create(2, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  keep = dup;
  printf("%%d world %%d self %%d null %%d never %%d dup %%d split %%d cart %%d\n", rank,
         mpiccwrap_comm_live(MPI_COMM_WORLD), mpiccwrap_comm_live(MPI_COMM_SELF),
         mpiccwrap_comm_live(MPI_COMM_NULL), mpiccwrap_comm_live(never_set),
         mpiccwrap_comm_live(dup), mpiccwrap_comm_live(split), mpiccwrap_comm_live(cart));
  MPI_Comm_free(&dup);
  MPI_Comm_free(&split);
  printf("%%d freed %%d cart %%d\n", rank, mpiccwrap_comm_live(keep), mpiccwrap_comm_live(cart));
  mpiccwrap_cc_exit(keep, &leave);      /* freed: skipped, not fatal */
  mpiccwrap_cc_exit(never_set, &leave); /* never set: skipped, not fatal */
  mpiccwrap_cc_exit(cart, &leave);      /* live: checked */
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
"""

# A program's own PMPI wrapper (a profiling layer) keeps working: ours are weak.
OWN_WRAPPER = r"""
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  int rc = PMPI_Comm_dup(comm, newcomm);
  fprintf(stderr, "own wrapper\n");
  return rc;
}
"""


def _build(tmp_path: Path, extra: str = "") -> Path:
    args = library.link_args([tool("mpicc")], Options(cache=str(tmp_path / "cache")))
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM % {"extra": extra})
    exe = tmp_path / "prog"
    done = run([tool("mpicc"), "-I", str(Path(args[0]).parent), str(src), *args, "-o",
                str(exe)], timeout=120)
    assert done.returncode == 0, done.output
    return exe


def test_live_set_follows_constructors_and_destructors(tmp_path: Path) -> None:
    res = mpiexec(_build(tmp_path), 2, timeout=60)
    assert res.returncode == 0, res.output
    lines = set(res.stdout.splitlines())
    for rank in (0, 1):
        assert f"{rank} world 1 self 1 null 0 never 0 dup 1 split 1 cart 1" in lines
        assert f"{rank} freed 0 cart 1" in lines


def test_a_programs_own_wrapper_wins_and_its_communicators_are_skipped(tmp_path: Path
                                                                        ) -> None:
    res = mpiexec(_build(tmp_path, OWN_WRAPPER), 2, timeout=60)
    assert res.returncode == 0, res.output
    assert res.stderr.count("own wrapper") == 2
    assert {"0 world 1 self 1 null 0 never 0 dup 0 split 1 cart 1",
            "1 world 1 self 1 null 0 never 0 dup 0 split 1 cart 1"} <= set(
        res.stdout.splitlines())
