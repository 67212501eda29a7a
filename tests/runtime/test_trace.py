"""MPICC_WRAP_TRACE_DIR: each process writes the records of the checks it performed in
the protocol header's layout, and mpicc_wrap.trace reads them back (also through
``mpicc-wrap-tool trace``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mpirun import mpicc, mpiexec, run, tool

from mpicc_wrap import protocol
from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options
from mpicc_wrap.trace import reader

pytestmark = pytest.mark.mpi

PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include "mpiccwrap_cc.h"
static const struct mpiccwrap_site bcast = {1002, "MPI_Bcast", "MPI_COMM_WORLD", "t.c", 30,
    "main", "", 1, MPICCWRAP_CHECK_ROOT | MPICCWRAP_CHECK_SIZE};
static const struct mpiccwrap_site allred = {1003, "MPI_Allreduce", "sub", "t.c", 31, "work",
    "", 1, MPICCWRAP_CHECK_OP | MPICCWRAP_CHECK_SIZE};
static const struct mpiccwrap_site leave = {MPICCWRAP_COLOR_EXIT, "exit", "sub", "t.c", 40,
    "work", "t.c:29", 1, 0};
int main(int argc, char **argv) {
  int rank, x = 0, y = 0;
  MPI_Comm sub;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &sub);
  (mpiccwrap_cc(MPI_COMM_WORLD, &bcast, 0, (MPI_Op)0, 3, MPI_INT),
   MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD));
  (mpiccwrap_cc(sub, &allred, MPICCWRAP_NO_ROOT, MPI_SUM, 1, MPI_DOUBLE),
   MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, sub));
  mpiccwrap_cc_exit(sub, &leave);
  if (BUG && rank == 1)
    mpiccwrap_cc_exit(MPI_COMM_WORLD, &leave);
  else
    mpiccwrap_cc(MPI_COMM_WORLD, &bcast, 0, (MPI_Op)0, 3, MPI_INT);
  printf("%d done\n", rank);
  MPI_Comm_free(&sub);
  MPI_Finalize();
  return 0;
}
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("trace")
    args = library.link_args(mpicc(), Options(cache=str(tmp / "cache")))
    src = tmp / "t.c"
    src.write_text(PROGRAM)
    built = {}
    for name, bug in (("ok", 0), ("bug", 1)):
        exe = tmp / name
        res = run([*mpicc(), "-std=c99", f"-DBUG={bug}", "-I", str(Path(args[0]).parent),
                   str(src), *args, "-o", str(exe)], timeout=120)
        assert res.returncode == 0, res.output
        built[name] = exe
    return built


def test_each_rank_records_its_checks(programs: dict[str, Path], tmp_path: Path) -> None:
    traces_dir = tmp_path / "traces"  # created by the runtime
    res = mpiexec(programs["ok"], 2, timeout=60, env={"MPICC_WRAP_TRACE_DIR": str(traces_dir)})
    assert res.returncode == 0 and not res.timed_out, res.output
    traces = reader.read_dir(traces_dir)
    assert [(t.world_rank, t.world_size) for t in traces] == [(0, 2), (1, 2)]
    assert {Path(t.path).name.split("-")[1] for t in traces} == {"0", "1"}
    for trace in traces:
        assert trace.version == protocol.version()
        first, second, leave, last = trace.records
        assert [r.seq for r in trace.records] == [1, 2, 3, 4]
        assert {r.event for r in trace.records} == {"AGREED"}
        assert (first.kind, first.name, first.site, first.function) == (
            "COLLECTIVE", "MPI_Bcast", "t.c:30", "main")
        assert (first.comm, first.root, first.op, first.count, first.bytes) == (
            "MPI_COMM_WORLD", 0, None, 3, 12)
        assert (first.comm_rank, first.comm_size) == (trace.world_rank, 2)
        assert (second.name, second.comm, second.root, second.op, second.bytes) == (
            "MPI_Allreduce", "sub", None, "MPI_SUM", 8)
        assert (leave.kind, leave.site, leave.root, leave.op, leave.bytes) == (
            "EXIT", "t.c:40", None, None, None)
        assert leave.color == protocol.constant("MPICCWRAP_COLOR_EXIT")
        assert last.name == "MPI_Bcast"
    printed = run([tool("mpicc-wrap-tool"), "trace", str(traces_dir)], timeout=60)
    assert printed.returncode == 0, printed.output
    lines = printed.stdout.splitlines()
    assert lines[0].startswith("rank 0 of 2 (pid ") and lines[0].endswith("4 record(s)")
    assert lines[1] == ("  #1 MPI_Bcast at t.c:30 in main() on MPI_COMM_WORLD [rank 0 of 2] "
                        "(root 0, count 3, 12 bytes): agreed")
    assert lines[3] == "  #3 leave work() at t.c:40 in work() on sub [rank 0 of 2]: agreed"
    assert lines[-1] == "2 process(es), 8 record(s), 0 mismatch(es)"
    as_json = run([tool("mpicc-wrap-tool"), "trace", str(traces_dir), "--json"], timeout=60)
    data = json.loads(as_json.stdout)
    assert data["processes"][1]["records"][1]["op"] == "MPI_SUM"


def test_a_mismatch_is_recorded_before_the_abort(programs: dict[str, Path],
                                                tmp_path: Path) -> None:
    res = mpiexec(programs["bug"], 2, timeout=60, env={"MPICC_WRAP_TRACE_DIR": str(tmp_path)})
    assert res.returncode != 0 and not res.timed_out, res.output
    assert "DYNAMIC-CHECK: collective mismatch" in res.stderr
    traces = reader.read_dir(tmp_path)
    assert len(traces) == 2
    for trace in traces:
        last = trace.records[-1]
        assert last.event == "MISMATCH" and last.seq == 4
        assert (last.kind, last.name) == (("EXIT", "exit") if trace.world_rank == 1
                                          else ("COLLECTIVE", "MPI_Bcast"))


def test_no_trace_without_the_switch(programs: dict[str, Path], tmp_path: Path) -> None:
    res = mpiexec(programs["ok"], 2, timeout=60, cwd=tmp_path)
    assert res.returncode == 0, res.output
    assert list(tmp_path.iterdir()) == []


def test_unwritable_trace_dir_is_a_note_not_a_failure(programs: dict[str, Path],
                                                      tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    res = mpiexec(programs["ok"], 2, timeout=60,
                  env={"MPICC_WRAP_TRACE_DIR": str(blocker / "sub")})
    assert res.returncode == 0, res.output
    assert res.stderr.count("mpicc-wrap: note: cannot create") == 2
    assert {line for line in res.stdout.splitlines()} == {"0 done", "1 done"}


def test_reader_refuses_foreign_and_other_version_files(tmp_path: Path) -> None:
    with pytest.raises(reader.TraceError, match="no mpicc-wrap check records"):
        (tmp_path / "notes.txt").write_text("hello\n")
        reader.read_dir(tmp_path)
    with pytest.raises(reader.TraceError, match="not a directory"):
        reader.read_dir(tmp_path / "missing")
    ffi = protocol.ffi()
    head = ffi.new("struct mpiccwrap_trace_header *")
    head.magic = protocol.constant("MPICCWRAP_TRACE_MAGIC")
    head.version = protocol.version() + 1
    head.header_size = ffi.sizeof(head[0])
    head.record_size = ffi.sizeof("struct mpiccwrap_record")
    (tmp_path / "mpiccwrap-0-1.trace").write_bytes(bytes(ffi.buffer(head)))
    with pytest.raises(reader.TraceError, match="trace format version"):
        reader.read_dir(tmp_path)
    head.version = protocol.version()
    record = ffi.new("struct mpiccwrap_record *", {"seq": 1, "kind": 1, "event": 1})
    torn = bytes(ffi.buffer(head)) + bytes(ffi.buffer(record)) + b"\0" * 10
    (tmp_path / "mpiccwrap-0-1.trace").write_bytes(torn)
    [trace] = reader.read_dir(tmp_path)
    assert len(trace.records) == 1 and trace.records[0].kind == "COLLECTIVE"
