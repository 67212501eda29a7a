"""Under Open MPI, messages name handles as the user wrote them (``MPI_COMM_WORLD``),
not as the preprocessor expanded them (``(MPI_Comm) ((void *) (&ompi_mpi_comm_world))``).

The probe once preprocessed mpi.h from stdin, where Open MPI's wrapper adds no -I flag:
it found no handle at all (and cached that)."""

from __future__ import annotations

from pathlib import Path

from conftest import require_openmpi
from mpirun import run, tool
from paths import EXAMPLES

from mpicc_wrap.frontend import handles
from mpicc_wrap.switches import Options

DEMO = EXAMPLES / "demo.c"


def _openmpi() -> str:
    return require_openmpi()


def test_probe_finds_open_mpi_handles(tmp_path: Path) -> None:
    names = dict(handles.probe([_openmpi()], Options(cache=str(tmp_path))))
    assert "MPI_COMM_WORLD" in names.values() and "MPI_SUM" in names.values()
    assert handles.display("(MPI_Comm) ((void *) (&ompi_mpi_comm_world))",
                           names) == "MPI_COMM_WORLD"


def test_warning_names_mpi_comm_world_under_open_mpi(tmp_path: Path) -> None:
    (tmp_path / "demo.c").write_text(DEMO.read_text())
    done = run([tool("mpicc-wrap"), "-c", "demo.c"], cwd=tmp_path, timeout=300,
               env={"MPICC_WRAP_CC": _openmpi(), "MPICC_WRAP_CACHE": str(tmp_path / "c")})
    assert done.returncode == 0, done.stderr
    assert "MPI_Allreduce on MPI_COMM_WORLD may be called" in done.stderr
    assert "ompi_mpi_comm_world" not in done.stderr


# A counter-example quotes the condition: handles in it are named as written too.
NULL_TEST = """#include <mpi.h>
int main(int argc, char **argv)
{
    int rank;
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank, &c);
    if (c != MPI_COMM_NULL && rank > 1)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


def test_counter_example_names_mpi_comm_null_under_both_mpis(tmp_path: Path) -> None:
    (tmp_path / "null.c").write_text(NULL_TEST)
    for cc in (None, _openmpi()):
        env = {"MPICC_WRAP_CACHE": str(tmp_path / "c")}
        if cc:
            env["MPICC_WRAP_CC"] = cc
        done = run([tool("mpicc-wrap"), "-c", "null.c"], cwd=tmp_path, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        assert "ranks where '(c != (MPI_COMM_NULL)) && (rank > 1)' is true" in done.stderr, (
            cc, done.stderr)


# An unknown call given MPI_INT and the rank, then an unknown call given MPI_INT: under
# Open MPI, MPI_INT is the address of a library global, which the first call seemed to
# fill with per-process data.  Both MPIs must judge the second call alike (uniform).
HANDLE_ARGUMENT = """#include <mpi.h>
extern void helper(int *buf, int n, MPI_Datatype t);
extern int other(int n, MPI_Datatype t);
void f(MPI_Comm comm)
{
    int rank, x;
    MPI_Comm_rank(comm, &rank);
    helper(&x, rank, MPI_INT);
    if (other(1, MPI_INT))
        MPI_Barrier(comm);
}
"""


def test_a_handle_passed_to_unknown_calls_is_judged_alike_under_both_mpis(
        tmp_path: Path) -> None:
    (tmp_path / "handle.c").write_text(HANDLE_ARGUMENT)
    for cc in (None, _openmpi()):
        env = {"MPICC_WRAP_CACHE": str(tmp_path / "c")}
        if cc:
            env["MPICC_WRAP_CC"] = cc
        done = run([tool("mpicc-wrap"), "-c", "handle.c"], cwd=tmp_path, timeout=300,
                   env=env)
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr, (cc, done.stderr)
