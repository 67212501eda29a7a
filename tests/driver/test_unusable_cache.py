"""An unusable cache directory (a path under a regular file) never fails a build: the
analysis caches are skipped and the checker runtime is built privately for the link."""

from __future__ import annotations

from pathlib import Path

from mpirun import run, tool

PROGRAM = """#include <mpi.h>
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


def test_link_succeeds_with_an_unusable_cache(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file, not a directory\n")
    (tmp_path / "prog.c").write_text(PROGRAM)
    env = {"MPICC_WRAP_CACHE": str(tmp_path / "blocker" / "cache")}
    done = run([tool("mpicc-wrap"), "prog.c", "-o", "prog"], cwd=tmp_path, env=env,
               timeout=600)
    assert not done.timed_out
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "prog").exists()
    assert "[-Wmpi-collective-order]" in done.stderr
    assert "Traceback" not in done.stderr
