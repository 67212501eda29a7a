"""The run-time checker (cclib) driven by small C programs under real mpiexec.

The programs call mpiccwrap_cc/mpiccwrap_cc_exit by hand (as the rewriter would) and
link the runtime through library.link_args; every run has a timeout.  Each
test runs under the default MPI and again under Open MPI (the ``mpi_impl`` fixture).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mpirun import mpicc, mpiexec, rank_lines, run

from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options

pytestmark = [pytest.mark.mpi, pytest.mark.usefixtures("mpi_impl")]

PRELUDE = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpiccwrap_cc.h"
#define W MPI_COMM_WORLD
#define SITE(var, color, name, line, fn, cond, checks) \
  static const struct mpiccwrap_site var = {color, name, "", "f.c", line, fn, cond, 1, checks}
SITE(barrier, 1001, "MPI_Barrier", 47, "f", "f.c:45", 0);
SITE(leave, MPICCWRAP_COLOR_EXIT, "exit", 52, "f", "f.c:45", 0);
SITE(bcast, 1002, "MPI_Bcast", 30, "main", "", MPICCWRAP_CHECK_ROOT | MPICCWRAP_CHECK_SIZE);
SITE(allred, 1003, "MPI_Allreduce", 31, "main", "", MPICCWRAP_CHECK_OP | MPICCWRAP_CHECK_SIZE);
#define NOARGS MPICCWRAP_NO_ROOT, MPI_OP_NULL, -1L, MPI_DATATYPE_NULL
"""


def compile_program(body: str, tmp: Path, args: list[str], name: str = "prog") -> Path:
    """Compile PRELUDE + body with mpicc against the checker runtime."""
    src = tmp / f"{name}.c"
    src.write_text(PRELUDE + body)
    exe = tmp / name
    include = Path(args[0]).parent
    res = run([*mpicc(), "-std=c99", "-I", str(include), str(src), *args, "-o", str(exe)],
              timeout=120)
    assert res.returncode == 0, res.output
    return exe


@pytest.fixture(scope="module")
def runtime_args(mpi_impl: str, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    cache = tmp_path_factory.mktemp("cache")
    return library.link_args(mpicc(), Options(cache=str(cache)))


MISMATCH = r"""
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  if (rank % 2 == 0) (mpiccwrap_cc(W, &barrier, NOARGS), MPI_Barrier(W));
  mpiccwrap_cc_exit(W, &leave);
  printf("after %d\n", rank);
  MPI_Finalize();
  return 0;
}
"""


@pytest.mark.parametrize("nprocs", [2, 3, 4])
def test_mismatch_barrier_vs_exit_is_reported(nprocs: int, tmp_path: Path,
                                              runtime_args: list[str]) -> None:
    exe = compile_program(MISMATCH, tmp_path, runtime_args)
    res = mpiexec(exe, nprocs, timeout=30)
    assert not res.timed_out
    assert res.returncode != 0
    evens = ",".join(str(r) for r in range(0, nprocs, 2))
    odds = ",".join(str(r) for r in range(1, nprocs, 2))
    barrier = "ranks " + evens if "," in evens else "rank " + evens
    leave = "ranks " + odds if "," in odds else "rank " + odds
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("DYNAMIC-CHECK:")]
    assert lines[0] == (
        f"DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: {barrier} "
        f"{'are' if ',' in evens else 'is'} about to call MPI_Barrier at f.c:47 in f(); "
        f"{leave} {'are' if ',' in odds else 'is'} about to leave f() at f.c:52; the "
        "divergence comes from the condition at f.c:45 (compile-time warning)")
    assert "aborting with code 77" in lines[1]
    assert "after" not in res.stdout


MATCHING = r"""
int main(int argc, char **argv) {
  int rank, x, y;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  x = rank;
  (mpiccwrap_cc(W, &barrier, NOARGS), MPI_Barrier(W));
  (mpiccwrap_cc(W, &bcast, 0, MPI_OP_NULL, 1, MPI_INT), MPI_Bcast(&x, 1, MPI_INT, 0, W));
  (mpiccwrap_cc(W, &allred, 0, MPI_SUM, 1, MPI_INT),
   MPI_Allreduce(&rank, &y, 1, MPI_INT, MPI_SUM, W));
  mpiccwrap_cc_exit(W, &leave);
  printf("%d x %d y %d\n", rank, x, y);
  MPI_Finalize();
  return 0;
}
"""


def test_matching_sites_are_silent(tmp_path: Path, runtime_args: list[str]) -> None:
    exe = compile_program(MATCHING, tmp_path, runtime_args)
    res = mpiexec(exe, 3, timeout=30)
    assert res.returncode == 0, res.output
    assert res.stderr == ""
    assert rank_lines(res.stdout) == {(r, "x 0 y 3") for r in range(3)}


def test_two_sites_of_the_same_collective_match(tmp_path: Path,
                                                runtime_args: list[str]) -> None:
    body = r"""
SITE(other_barrier, 1001, "MPI_Barrier", 60, "g", "", 0);
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  if (rank == 0) (mpiccwrap_cc(W, &barrier, NOARGS), MPI_Barrier(W));
  else (mpiccwrap_cc(W, &other_barrier, NOARGS), MPI_Barrier(W));
  MPI_Finalize();
  return 0;
}
"""
    res = mpiexec(compile_program(body, tmp_path, runtime_args), 2, timeout=30)
    assert res.returncode == 0 and "DYNAMIC-CHECK" not in res.output, res.output


THREE_WAY = r"""
SITE(reduce, 1004, "MPI_Reduce", 61, "g", "f.c:45, f.c:60", 0);  /* f.c:45 shared */
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  if (rank == 0) mpiccwrap_cc(W, &barrier, NOARGS);
  else if (rank == 1) mpiccwrap_cc(W, &reduce, NOARGS);
  else mpiccwrap_cc_exit(W, &leave);
  MPI_Finalize();
  return 0;
}
"""


def test_three_way_mismatch_lists_every_group_and_condition(tmp_path: Path,
                                                            runtime_args: list[str]) -> None:
    """Every group is named, and a condition shared by two sites only once."""
    res = mpiexec(compile_program(THREE_WAY, tmp_path, runtime_args), 4, timeout=30)
    assert not res.timed_out and res.returncode != 0
    assert ("DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: rank 0 is about to call "
            "MPI_Barrier at f.c:47 in f(); rank 1 is about to call MPI_Reduce at f.c:61 in g(); "
            "ranks 2-3 are about to leave f() at f.c:52; the divergence comes from the "
            "conditions at f.c:45, f.c:60 (compile-time warning)\n") in res.stderr


SPLIT = r"""
int main(int argc, char **argv) {
  int rank, sub_rank;
  MPI_Comm sub;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  MPI_Comm_split(W, rank % 2, rank, &sub);
  MPI_Comm_rank(sub, &sub_rank);
  if (rank % 2 == 0) {          /* only the even sub-communicator checks */
    (mpiccwrap_cc(sub, &barrier, NOARGS), MPI_Barrier(sub));
    mpiccwrap_cc_exit(sub, &leave);
  }
  if (argc > 1 && rank % 2 == 1 && sub_rank == 0)
    (mpiccwrap_cc(sub, &barrier, NOARGS), MPI_Barrier(sub));
  if (argc > 1 && rank % 2 == 1) mpiccwrap_cc_exit(sub, &leave);
  MPI_Barrier(W);  /* nobody finalizes before the abort: Open MPI 4.1's mpiexec may crash
                      or hang when MPI_Abort follows other ranks' MPI_Finalize */
  printf("%d done\n", rank);
  MPI_Comm_free(&sub);
  MPI_Finalize();
  return 0;
}
"""


def test_sub_communicator_checks_do_not_deadlock(tmp_path: Path,
                                                 runtime_args: list[str]) -> None:
    res = mpiexec(compile_program(SPLIT, tmp_path, runtime_args), 4, timeout=30)
    assert res.returncode == 0, res.output
    assert rank_lines(res.stdout) == {(r, "done") for r in range(4)}
    assert "DYNAMIC-CHECK" not in res.output


def test_sub_communicator_mismatch_names_world_ranks(tmp_path: Path,
                                                     runtime_args: list[str]) -> None:
    res = mpiexec(compile_program(SPLIT, tmp_path, runtime_args), 4, ["bug"], timeout=30)
    assert not res.timed_out and res.returncode != 0
    assert ("rank 0 (MPI_COMM_WORLD 1) is about to call MPI_Barrier at f.c:47 in f(); "
            "rank 1 (MPI_COMM_WORLD 3) is about to leave f()") in res.stderr


NONBLOCKING = r"""
int main(int argc, char **argv) {
  int rank, x = 5;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  int root = argc > 1 ? rank % 2 : 0;
  (mpiccwrap_cc(W, &bcast, root, MPI_OP_NULL, 1, MPI_INT),
   MPI_Ibcast(&x, 1, MPI_INT, root, W, &req));
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  printf("%d x %d\n", rank, x);
  MPI_Finalize();
  return 0;
}
"""


def test_nonblocking_collective_checked_where_it_starts(tmp_path: Path,
                                                        runtime_args: list[str]) -> None:
    exe = compile_program(NONBLOCKING, tmp_path, runtime_args)
    good = mpiexec(exe, 2, timeout=30)
    assert good.returncode == 0, good.output
    assert rank_lines(good.stdout) == {(0, "x 5"), (1, "x 5")}, good.output
    bad = mpiexec(exe, 4, ["bug"], timeout=30)
    assert not bad.timed_out and bad.returncode != 0
    assert ("DYNAMIC-CHECK: MPI_Bcast at f.c:30 in main() on MPI_COMM_WORLD: ranks disagree "
            "on the root: ranks 0,2 use root 0, ranks 1,3 use root 1") in bad.stderr


ARGS = r"""
int main(int argc, char **argv) {
  int rank, x = 1, y = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  int n = argv[1][0] == 's' && rank > 0 ? 2 : 1;
  MPI_Op op = argv[1][0] == 'o' && rank == 1 ? MPI_MAX : MPI_SUM;
  mpiccwrap_cc(W, &allred, 0, op, n, MPI_INT);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, W);
  MPI_Finalize();
  return 0;
}
"""


@pytest.mark.parametrize("mode, expected", [
    ("size", "ranks disagree on the data size: rank 0 uses 4 bytes, ranks 1-2 use 8 bytes"),
    ("op", "ranks disagree on the operator: ranks 0,2 use MPI_SUM, rank 1 uses MPI_MAX"),
])
def test_argument_mismatch_reports(mode: str, expected: str, tmp_path: Path,
                                   runtime_args: list[str]) -> None:
    res = mpiexec(compile_program(ARGS, tmp_path, runtime_args), 3, [mode], timeout=30)
    assert not res.timed_out and res.returncode != 0
    assert ("DYNAMIC-CHECK: MPI_Allreduce at f.c:31 in main() on MPI_COMM_WORLD: "
            + expected) in res.stderr


OUTSIDE = r"""
int main(int argc, char **argv) {
  int rank;
  mpiccwrap_cc(W, &barrier, NOARGS);      /* before MPI_Init: no MPI call at all */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  mpiccwrap_cc(MPI_COMM_NULL, &barrier, NOARGS);
  MPI_Finalize();
  mpiccwrap_cc_exit(W, &leave);            /* after MPI_Finalize */
  printf("%d ok\n", rank);
  return 0;
}
"""


def test_no_check_outside_init_finalize_or_on_comm_null(tmp_path: Path,
                                                        runtime_args: list[str]) -> None:
    res = mpiexec(compile_program(OUTSIDE, tmp_path, runtime_args), 2, timeout=30)
    assert res.returncode == 0, res.output
    assert rank_lines(res.stdout) == {(0, "ok"), (1, "ok")}


ONLY_CHECKS_DIFFER = r"""
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  if (rank == 0) mpiccwrap_cc(W, &barrier, NOARGS);
  else mpiccwrap_cc_exit(W, &leave);
  printf("ran %d\n", rank);
  MPI_Finalize();
  return 0;
}
"""


def test_check_switch_turns_checks_off(tmp_path: Path, runtime_args: list[str]) -> None:
    exe = compile_program(ONLY_CHECKS_DIFFER, tmp_path, runtime_args)
    off = mpiexec(exe, 2, timeout=30, env={"MPICC_WRAP_CHECK": "0"})
    assert off.returncode == 0 and "DYNAMIC-CHECK" not in off.output, off.output
    on = mpiexec(exe, 2, timeout=30, env={"MPICC_WRAP_CHECK": "1"})
    assert on.returncode != 0 and "DYNAMIC-CHECK: collective mismatch" in on.stderr


def test_executable_runs_after_cache_is_cleaned(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    args = library.link_args(mpicc(), Options(cache=str(cache)))
    exe = compile_program(MATCHING, tmp_path, args)
    shutil.rmtree(cache)
    res = mpiexec(exe, 2, timeout=30, env={"LD_LIBRARY_PATH": ""})
    assert res.returncode == 0, res.output
