"""The analysis budget: no build waits on the analysis longer than MPICC_WRAP_BUDGET,
no analysis takes more memory than MPICC_WRAP_MEMORY; past either the TU compiles
unchanged with a note, recorded in the JSON report."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from mpirun import run, tool

from mpicc_wrap.driver import budget
from mpicc_wrap.errors import AnalysisSkipped

BUGGY = """#include <mpi.h>
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


def _forever() -> None:
    while True:
        pass


def test_result_comes_back_from_the_child() -> None:
    assert budget.run(lambda: {"answer": [42]}, 30, 512) == {"answer": [42]}


@pytest.mark.timeout(60)
def test_a_runaway_analysis_is_stopped_at_the_deadline() -> None:
    start = time.monotonic()
    with pytest.raises(AnalysisSkipped, match=r"analysis budget of 1 s exceeded"):
        budget.run(_forever, 1, 512)
    print(f"stopped after {time.monotonic() - start:.2f} s (budget 1 s)")


def test_memory_cap_is_a_skip_not_a_crash() -> None:
    def hog() -> int:
        return len(bytearray(8 << 30))

    with pytest.raises(AnalysisSkipped, match=r"memory cap of 64 MiB exceeded"):
        budget.run(hog, 30, 64)


def test_our_exception_in_the_child_is_one_line() -> None:
    def boom() -> None:
        raise ValueError("boom")

    with pytest.raises(AnalysisSkipped, match=r"^internal error: ValueError: boom$"):
        budget.run(boom, 30, 512)


def test_skip_raised_by_the_analysis_keeps_its_reason() -> None:
    def skip() -> None:
        raise AnalysisSkipped("cannot parse: line 3")

    with pytest.raises(AnalysisSkipped, match=r"^cannot parse: line 3$"):
        budget.run(skip, 30, 512)


def test_budget_zero_runs_in_process() -> None:
    import os

    assert budget.run(os.getpid, 0, 0) == os.getpid()


def _compile(tmp_path: Path, env: dict[str, str], source: str = BUGGY,
             name: str = "prog.c") -> tuple[int, str]:
    (tmp_path / name).write_text(source)
    done = run([tool("mpicc-wrap"), "-c", name, "-o", "prog.o"], cwd=tmp_path, timeout=300,
               env={"MPICC_WRAP_RESULT_CACHE": "0", **env})
    assert not done.timed_out
    return done.returncode, done.stderr


def test_over_budget_compiles_unchanged_with_a_note_and_a_report(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    code, err = _compile(tmp_path, {"MPICC_WRAP_BUDGET": "0.001",
                                    "MPICC_WRAP_REPORT": str(report)})
    assert code == 0 and (tmp_path / "prog.o").exists()
    assert ("mpicc-wrap: note: analysis skipped for prog.c: analysis budget of 0.001 s "
            "exceeded") in err
    assert "Traceback" not in err and "-Wmpi-collective-order" not in err
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert any("budget" in json.dumps(r) for r in records)


def test_within_budget_the_analysis_runs(tmp_path: Path) -> None:
    code, err = _compile(tmp_path, {"MPICC_WRAP_BUDGET": "120"})
    assert code == 0 and "[-Wmpi-collective-order]" in err and "skipped" not in err


def test_memory_cap_through_the_wrapper(tmp_path: Path) -> None:
    code, err = _compile(tmp_path, {"MPICC_WRAP_MEMORY": "1"})
    assert code == 0 and (tmp_path / "prog.o").exists()
    assert "analysis skipped for prog.c: analysis memory cap of 1 MiB exceeded" in err


@pytest.mark.parametrize("name,value", [("MPICC_WRAP_BUDGET", "soon"),
                                        ("MPICC_WRAP_BUDGET", "-1"),
                                        ("MPICC_WRAP_MEMORY", "1.5")])
def test_malformed_switch_is_a_one_line_error(tmp_path: Path, name: str, value: str) -> None:
    code, err = _compile(tmp_path, {name: value})
    assert code == 1
    assert err.strip() == f"mpicc-wrap: error: {name}={value}: expected a non-negative number"


@pytest.mark.parametrize("budget", ["30", "0"])
def test_long_else_if_chain_is_analysed(tmp_path: Path, budget: str) -> None:
    """400 arms: the CFG builder recursed past Python's limit ("analysis skipped");
    the stage now runs on the deep stack, in the budgeted child and without a budget."""
    arms = "\n".join(f"    else if (x == {k}) y += {k};" for k in range(1, 400))
    source = f"""#include <mpi.h>
int pick(int x) {{
    int y = 0;
    if (x == 0) y = 1;
{arms}
    return y;
}}
int main(int argc, char **argv) {{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (pick(rank)) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}}
"""
    code, err = _compile(tmp_path, {"MPICC_WRAP_STRICT": "1", "MPICC_WRAP_BUDGET": budget},
                         source)
    assert code == 0, err
    assert "[-Wmpi-collective-order]" in err and "skipped" not in err


def test_a_cache_hit_needs_no_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rebuild of an unchanged TU is served from the result cache in the wrapper's
    own process: no fork, no budget."""
    import io

    from analysis_helpers import preprocess

    from mpicc_wrap.driver import stage
    from mpicc_wrap.switches import Options

    text = preprocess(BUGGY, "prog.c")
    options = Options(cache=str(tmp_path / "cache"))
    first, second = io.StringIO(), io.StringIO()
    miss = stage.run_budgeted(text, "prog.c", [tool("mpicc")], options, stream=first)

    def no_fork(*args: object) -> None:
        raise AssertionError("a cache hit forked a child")

    monkeypatch.setattr(budget, "run", no_fork)
    hit = stage.run_budgeted(text, "prog.c", [tool("mpicc")], options, stream=second)
    assert first.getvalue() == second.getvalue() and "-Wmpi-collective-order" in first.getvalue()
    assert hit.text == miss.text


def test_the_child_never_writes_to_the_users_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    """Python's last-resort reports in the child (a MemoryError inside a thread's
    excepthook under a tight MPICC_WRAP_MEMORY, seen once in CI) must not reach the
    user: the child's fd 2 goes to /dev/null unless MPICC_WRAP_DEBUG is set."""
    def noisy() -> int:
        os.write(2, b"Traceback (most recent call last): noise\n")
        return 7

    assert budget.run(noisy, 30, 0) == 7
    assert "Traceback" not in capfd.readouterr().err


def test_a_deep_stack_thread_that_dies_is_a_memory_failure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mpicc_wrap.frontend import parser

    monkeypatch.setattr(parser.threading.Thread, "start", lambda self: None)
    monkeypatch.setattr(parser.threading.Thread, "join", lambda self: None)
    with pytest.raises(MemoryError):
        parser.deep_stack(lambda: 1)


def test_the_analysis_runs_with_fewer_cyclic_collections(tmp_path: Path) -> None:
    """The stage raises the cyclic GC's thresholds before it parses (stage.GC_THRESHOLDS:
    the default's collections re-scan the live AST again and again)."""
    import gc
    import io

    from analysis_helpers import preprocess

    from mpicc_wrap.driver import stage
    from mpicc_wrap.switches import Options

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        options = Options(cache=str(tmp_path / "cache"), budget=0, result_cache=False)
        stage.run_budgeted(preprocess(BUGGY, "prog.c"), "prog.c", [tool("mpicc")], options,
                           stream=io.StringIO())
        assert gc.get_threshold() == stage.GC_THRESHOLDS != (700, 10, 10)
    finally:
        gc.set_threshold(*before)
