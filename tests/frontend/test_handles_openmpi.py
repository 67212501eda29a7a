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
