"""cDAG recording under a real mpiexec: hand-written collectives in
tests/cdag/programs/handwritten.c are reported by rank 0 after MPI_Finalize, a
stencil is not, and the program's output is the same with recording on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import mpirun
import pytest

pytestmark = pytest.mark.mpi

SOURCE = Path(__file__).parent / "programs" / "handwritten.c"
LINE = re.compile(r"mpicc-wrap: cDAG: pattern (MPI_\w+)(?: root=(\d+))? ranks=(\S+) "
                  r"bytes=(\d+) x(\d+) sites=(.*)")


@pytest.fixture(scope="module")
def exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cdag")
    built = mpirun.run([mpirun.tool("mpicc-wrap"), "-g", "-O0", str(SOURCE), "-o",
                        str(out / "handwritten")], timeout=300)
    assert built.returncode == 0, built.output
    return out / "handwritten"


def run(exe: Path, n: int, args: list[str], folder: Path, **env: str) -> mpirun.Run:
    done = mpirun.mpiexec(exe, n, args, timeout=90, cwd=folder,
                          env={"MPICC_WRAP_CDAG": "1", "MPICC_WRAP_CDAG_DIR": str(folder),
                               **env})
    assert done.returncode == 0 and not done.timed_out, done.output
    return done


def patterns(stderr: str) -> list[tuple[str, str | None, str, int, int]]:
    found = [LINE.search(line) for line in stderr.splitlines()]
    return [(m[1], m[2], m[3], int(m[4]), int(m[5])) for m in found if m]


@pytest.mark.parametrize(("pattern", "n", "name", "root"), [
    ("bcast_linear", 4, "MPI_Bcast", "0"),
    ("bcast_binomial", 7, "MPI_Bcast", "0"),
    ("gather", 5, "MPI_Gather", "0"),
    ("scatter", 3, "MPI_Scatter", "0"),
    ("ring_allgather", 6, "MPI_Allgather", None),
    ("alltoall", 8, "MPI_Alltoall", None),
    ("barrier", 5, "MPI_Barrier", None),
    ("tree_gather", 6, "MPI_Gather", "0"),
    ("doubling_allgather", 4, "MPI_Allgather", None),
    ("doubling_allgather", 8, "MPI_Allgather", None),
    ("butterfly", 4, "MPI_Alltoall", None),
    ("butterfly", 8, "MPI_Alltoall", None),
])
def test_hand_written_collective_is_reported(exe: Path, tmp_path: Path, pattern: str, n: int,
                                             name: str, root: str | None) -> None:
    done = run(exe, n, [pattern, "3", "noise"], tmp_path)
    size = 0 if name == "MPI_Barrier" else 32
    assert patterns(done.stderr) == [(name, root, f"0-{n - 1}", size, 3)], done.stderr
    assert "handwritten.c:" in done.stderr


def test_peers_of_split_communicators_are_their_world_ranks(exe: Path, tmp_path: Path) -> None:
    """Rank 0 of the split is world rank 0, then world rank 3 (reversed order), with
    the freed communicator's handle reused."""
    done = run(exe, 4, ["bcast_comm", "4"], tmp_path)
    assert sorted(patterns(done.stderr)) == [("MPI_Bcast", "0", "0-3", 32, 2),
                                             ("MPI_Bcast", "3", "0-3", 32, 2)], done.stderr


@pytest.mark.parametrize(("pattern", "n"), [
    ("stencil", 6), ("stencil2d", 6), ("stencil2d", 8), ("pipeline", 5),
    ("master_worker", 4), ("master_worker", 7)])
def test_exchanges_are_not_reported_and_output_is_unchanged(exe: Path, tmp_path: Path,
                                                            pattern: str, n: int) -> None:
    """Halo exchanges, a pipeline whose stages send their own results, and a master
    handing out tasks are not collectives; the program prints the same with recording."""
    plain = mpirun.mpiexec(exe, n, [pattern, "4"], timeout=90, cwd=tmp_path)
    recorded = run(exe, n, [pattern, "4"], tmp_path)
    assert patterns(recorded.stderr) == []
    assert "no hand-written collective found" in recorded.stderr
    assert mpirun.rank_lines(recorded.stdout) == mpirun.rank_lines(plain.stdout)
    assert len(mpirun.rank_lines(plain.stdout)) == n


def test_two_processes_report_nothing(exe: Path, tmp_path: Path) -> None:
    done = run(exe, 2, ["bcast_linear", "3"], tmp_path)
    assert patterns(done.stderr) == []


def test_tool_reads_the_files_again_as_json(exe: Path, tmp_path: Path) -> None:
    run(exe, 4, ["scatter", "2"], tmp_path, MPICC_WRAP_CDAG_REPORT="0")
    tool = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "cdag", "--json", str(tmp_path)])
    assert tool.returncode == 0, tool.output
    data = json.loads(tool.stdout)
    assert [(p["name"], p["root"], p["count"]) for p in data["patterns"]] == [
        ("MPI_Scatter", 0, 2)]
    assert {(m["src"], m["dst"], m["messages"], m["bytes"]) for m in data["matrix"]} == {
        (0, j, 2, 64) for j in (1, 2, 3)}


def test_cap_bounds_the_records_with_a_note(exe: Path, tmp_path: Path) -> None:
    done = run(exe, 3, ["bcast_linear", "50"], tmp_path, MPICC_WRAP_CDAG_MAX="10")
    assert "stops recording after 10 operations" in done.stderr
    assert "dropped" in done.stderr


def test_tool_refuses_a_directory_without_files(tmp_path: Path) -> None:
    tool = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "cdag", str(tmp_path)])
    assert tool.returncode == 2
    assert tool.stderr.count("\n") == 1 and "no cDAG files" in tool.stderr


def test_matrix_holds_the_messages_the_program_sends(exe: Path, tmp_path: Path) -> None:
    """Linear broadcast, 3 rounds at -n 4 with the extra messages (k -> k+2): rank 0
    sends 3 x 32 bytes to each rank, plus 4 bytes to 2; rank 1 4 bytes to 3; rank 2 4
    bytes to 0."""
    run(exe, 4, ["bcast_linear", "3", "noise"], tmp_path, MPICC_WRAP_CDAG_REPORT="0")
    csv = tmp_path / "m.csv"
    tool = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "matrix", "--csv", str(csv),
                       str(tmp_path)])
    assert tool.returncode == 0, tool.output
    assert csv.read_text().splitlines() == [
        "src,dst,messages,bytes", "0,1,3,96", "0,2,4,100", "0,3,3,96", "1,3,1,4", "2,0,1,4"]
    assert "pattern MPI_Bcast root=0" in tool.stdout
    assert "      0     .  3/96 4/100  3/96" in tool.stdout.splitlines()


def test_trace_dir_records_collectives_and_probes_per_site(exe: Path, tmp_path: Path) -> None:
    """MPICC_WRAP_TRACE_DIR alone: the files are written, no analysis runs at the end,
    and the report counts the collectives and probes of each call site."""
    for pattern in ("collectives", "gather"):
        env = {"MPICC_WRAP_TRACE_DIR": str(tmp_path / pattern)}
        (tmp_path / pattern).mkdir()
        plain = mpirun.mpiexec(exe, 4, [pattern, "3"], timeout=90, cwd=tmp_path)
        traced = mpirun.mpiexec(exe, 4, [pattern, "3"], timeout=90, cwd=tmp_path, env=env)
        assert traced.returncode == 0 and not traced.timed_out, traced.output
        assert "cDAG" not in traced.stderr
        assert mpirun.rank_lines(traced.stdout) == mpirun.rank_lines(plain.stdout)
    tool = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "matrix", "--json",
                       str(tmp_path / "collectives")])
    assert tool.returncode == 0, tool.output
    calls = {(c["call"], c["calls"], c["bytes"], tuple(c["ranks"]))
             for c in json.loads(tool.stdout)["collectives"]}
    assert calls == {("MPI_Allreduce", 12, 12 * 32, (0, 1, 2, 3)),
                     ("MPI_Bcast", 12, 12 * 32, (0, 1, 2, 3))}
    text = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "matrix", str(tmp_path / "gather")])
    assert "MPI_Probe at handwritten.c:" in text.stdout and "9 call(s) on ranks 0, 288 bytes" \
        in text.stdout, text.stdout
    assert "pattern MPI_Gather root=0" in text.stdout


def test_cdag_alone_records_probes_but_not_collectives(exe: Path, tmp_path: Path) -> None:
    """MPICC_WRAP_CDAG=1 without a trace: probes are recorded (the issue lists them),
    blocking collectives are not (the analysis needs none, and they would cost every
    collective a record)."""
    for pattern in ("gather", "collectives"):
        (tmp_path / pattern).mkdir()
        run(exe, 3, [pattern, "2"], tmp_path / pattern, MPICC_WRAP_CDAG_REPORT="0")
    data = {}
    for pattern in ("gather", "collectives"):
        tool = mpirun.run([mpirun.tool("mpicc-wrap-tool"), "matrix", "--json",
                           str(tmp_path / pattern)])
        assert tool.returncode == 0, tool.output
        data[pattern] = json.loads(tool.stdout)
    assert [(p["call"], p["calls"]) for p in data["gather"]["probes"]] == [("MPI_Probe", 4)]
    assert data["collectives"]["collectives"] == []
