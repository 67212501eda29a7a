"""The measured alternative (issue 11, beyond the paper): the analysis hands the
runtime a plan of the detected collectives, the runtime times them in MPI_Finalize on
the same processes and the report shows the time beside the hand-written pattern's.

The plan/answer protocol is tested on synthetic graphs; the runtime's side with the
real analysis and with a stand-in tool (MPICC_WRAP_TOOL) whose plan names process
subsets, roots, a block too large to time and a line it cannot parse."""

from __future__ import annotations

import sys
from pathlib import Path

import mpirun
import patterns as P
import pytest

from mpicc_wrap.cdag import report
from mpicc_wrap.cdag.graph import Program

SOURCE = Path(__file__).parent / "programs" / "handwritten.c"


def test_plan_names_each_pattern_with_root_bytes_and_world_ranks() -> None:
    analysis = report.analyse(P.linear_bcast(5, size=16, reps=2).graph)
    assert report.plan(analysis) == ["0 MPI_Bcast 0 16 0-4"]
    barrier = report.analyse(P.pairwise_alltoall(4, size=8).graph)
    assert report.plan(barrier) == ["0 MPI_Alltoall -1 8 0-3"]


def test_plan_keeps_to_the_runtime_limits() -> None:
    analysis = report.analyse(Program(3).graph)
    analysis.patterns = [report.Pattern("MPI_Bcast", 0, tuple(range(0, 4000, 2)), 8, 2, True)]
    analysis.patterns += [report.Pattern("MPI_Bcast", 0, tuple(range(0, 64, 2)), 8, 2, True)
                          for _ in range(40)]
    lines = report.plan(analysis)
    assert [int(x.split()[0]) for x in lines] == list(range(1, 1 + len(lines)))
    assert 10 < len(lines) <= report.PLAN_MAX
    assert sum(len(x) + 1 for x in lines) + len("end\n") < report.PLAN_SIZE


def test_times_are_shown_beside_the_patterns_time() -> None:
    analysis = report.analyse(P.linear_bcast(4, size=8, reps=3).graph)
    analysis.patterns[0].seconds = 0.0123
    report.apply_times(analysis, "junk\n7 0.5\n0 -1\n")
    assert analysis.patterns[0].measured is None  # not run, out of range, unparsable
    report.apply_times(analysis, "0 0.0004\n")
    line = report.format_lines(analysis)[0]
    assert line.endswith(": 12.3 ms in these messages; one MPI_Bcast per instance took "
                         "0.4 ms here"), line
    assert report.to_json(analysis)["patterns"][0]["measured_seconds"] == 0.0004


@pytest.fixture(scope="module")
def exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("measured")
    built = mpirun.run([mpirun.tool("mpicc-wrap"), "-g", "-O0", str(SOURCE), "-o",
                        str(out / "handwritten")], timeout=300)
    assert built.returncode == 0, built.output
    return out / "handwritten"


def run(exe: Path, n: int, args: list[str], folder: Path, **env: str) -> mpirun.Run:
    done = mpirun.mpiexec(exe, n, args, timeout=120, cwd=folder,
                          env={"MPICC_WRAP_CDAG": "1", "MPICC_WRAP_CDAG_DIR": str(folder),
                               **env})
    assert done.returncode == 0 and not done.timed_out, done.output
    return done


@pytest.mark.mpi
def test_detected_collective_is_timed_in_finalize(exe: Path, tmp_path: Path) -> None:
    plain = mpirun.mpiexec(exe, 4, ["bcast_linear", "3"], timeout=90, cwd=tmp_path)
    done = run(exe, 4, ["bcast_linear", "3"], tmp_path)
    lines = [x for x in done.stderr.splitlines() if "pattern MPI_Bcast" in x]
    assert len(lines) == 1 and "; one MPI_Bcast per instance took " in lines[0], done.stderr
    assert lines[0].endswith(" ms here")
    assert mpirun.rank_lines(done.stdout) == mpirun.rank_lines(plain.stdout)


@pytest.mark.mpi
def test_measuring_can_be_switched_off(exe: Path, tmp_path: Path) -> None:
    done = run(exe, 4, ["gather", "2"], tmp_path, MPICC_WRAP_CDAG_MEASURE="0")
    assert "pattern MPI_Gather root=0" in done.stderr
    assert "per instance took" not in done.stderr


STAND_IN = """\
import sys
sys.stdout.write({plan!r})
sys.stdout.flush()
if not {plan!r}.endswith("end\\n"):
    sys.exit(1)  # a tool that failed half-way
open({answer!r}, "w").write(sys.stdin.read())
"""


@pytest.mark.mpi
@pytest.mark.parametrize("plan_end", ["end\n", ""])
def test_runtime_times_exactly_the_plan_it_was_given(exe: Path, tmp_path: Path,
                                                     plan_end: str) -> None:
    """Subsets and roots inside them are run; a block over the size limit and a
    malformed line are not (-1); a plan without "end" (the tool died) runs nothing."""
    answer = tmp_path / "answer.txt"
    plan = ("0 MPI_Bcast 2 64 1-3\n1 MPI_Gather 3 16 1,3\n2 MPI_Alltoall -1 99999999 0-4\n"
            "3 garbage\n4 MPI_Reduce 4 8 0,2,4\n5 MPI_Barrier -1 0 0-4\n" + plan_end)
    tool = tmp_path / "stand-in"
    tool.write_text(f"#!{sys.executable}\n" + STAND_IN.format(plan=plan, answer=str(answer)))
    tool.chmod(0o755)
    done = run(exe, 5, ["stencil", "2"], tmp_path, MPICC_WRAP_TOOL=str(tool))
    assert "pattern" not in done.stderr
    if not plan_end:
        assert not answer.exists()
        return
    times = dict(line.split() for line in answer.read_text().splitlines())
    assert sorted(times) == ["0", "1", "2", "3", "4", "5"], done.output
    assert {k for k, t in times.items() if float(t) >= 0} == {"0", "1", "4", "5"}
