"""The user's compile runs beside the analysis (driver/speculate.py): its object and
its messages are the build's when the analysis rewrites nothing; an instrumented TU
stops it; it never runs where a sequential build could end differently."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mpirun import mpicc
from test_wrapper_pipeline import FakeStage, use_stage, work  # noqa: F401 (fixture)

from mpicc_wrap.driver import cli, speculate
from mpicc_wrap.driver.stage import StageResult

# The fake MPI compiler: the user's own command (a compile, not the -E run, -show
# or the compile of the rewritten text) leaves a mark, and with SLOW set then sleeps
# in a child; everything else is the real mpicc.
FAKE = """#!/bin/sh
case " $* " in
  *" -E "*|*" -show "*|*rewritten.i*) ;;
  *" -c "*|*" -S "*)
    echo "compiler: note from the user's compile" >&2
    if [ -t 2 ]; then echo "compiler: stderr is a terminal" >&2; fi
    touch "$MARK"
    if [ -n "$SLOW" ]; then sleep 120 & echo $! > "$SLOW"; wait; exit 0; fi ;;
esac
exec {real} "$@"
"""


class WaitingStage(FakeStage):
    """A stage that looks for the mark of the user's compile: did it start while the
    analysis was still running?  Waits up to ``seconds`` for it."""

    def __init__(self, mark: Path, seconds: float, **kw: Any) -> None:
        super().__init__(**kw)
        self.mark, self.seconds, self.seen = mark, seconds, False

    def __call__(self, *args: Any, **kw: Any) -> StageResult:
        deadline = time.monotonic() + self.seconds
        while not self.mark.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.seen = self.mark.exists()
        print("mpicc-wrap: finding from the analysis", file=sys.stderr)
        return super().__call__(*args, **kw)


@pytest.fixture
def fake(work: Path, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: F811
    script = work / "fakecc"
    script.write_text(FAKE.replace("{real}", " ".join(mpicc())))
    script.chmod(0o755)
    monkeypatch.setenv("MPICC_WRAP_CC", str(script))
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "always")  # not on the machine's load
    # every compile reaches the stage: a result-cache hit (hello.c is compiled by other
    # tests too) answers without the analysis child whose wait the tests observe
    monkeypatch.setenv("MPICC_WRAP_RESULT_CACHE", "0")
    monkeypatch.setenv("MARK", str(work / "started"))
    return work / "started"


def test_unchanged_tu_keeps_the_compile_started_with_the_analysis(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capfd: pytest.CaptureFixture[str]) -> None:
    stage = use_stage(monkeypatch, WaitingStage(fake, 60))
    assert cli.main(["-c", "hello.c"]) == 0
    assert stage.seen, "the user's compile did not run beside the analysis"
    err = capfd.readouterr().err
    # the compiler's messages once, after ours: the order of a sequential build
    assert err.count("compiler: note") == 1
    assert err.index("finding from the analysis") < err.index("compiler: note")
    speculative = (work / "hello.o").read_bytes()
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "0")
    fake.unlink()
    stage.seconds = 0
    assert cli.main(["-c", "hello.c"]) == 0
    assert (work / "hello.o").read_bytes() == speculative


@pytest.mark.parametrize("setting", ["MPICC_WRAP_SPECULATE=0", "MPICC_WRAP_STRICT=1",
                                     "MPICC_WRAP_WERROR=1", "-Werror",
                                     "-Werror=mpi-collective-order", "-o -", "stdin"])
def test_no_speculation_where_a_sequential_build_could_differ(
        setting: str, fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        ) -> None:
    """Our errors must leave no object; strict mode fails on a skipped analysis; a
    compile to stdout or from stdin cannot run twice.  (A correct build never creates
    the mark early, so these cannot pass by luck of timing.)"""
    stage = use_stage(monkeypatch, WaitingStage(fake, 0.5))
    args = ["-S" if setting == "-o -" else "-c", "hello.c"]
    if "=" in setting and setting.startswith("MPICC_"):
        name, value = setting.split("=")
        monkeypatch.setenv(name, value)
    elif setting == "stdin":
        args = ["-x", "c", "-c", "-", "-o", "hello.o"]
        monkeypatch.setattr("sys.stdin", open(work / "hello.c"))  # noqa: SIM115
    else:
        args += setting.split()
    cli.main(args)
    assert stage.calls and not stage.seen


def test_on_a_terminal_the_compiler_writes_to_a_terminal(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capfd: pytest.CaptureFixture[str]) -> None:
    """A compiler colours what it writes to a terminal: with our stderr a terminal,
    the compile beside the analysis writes to a pseudo-terminal, and its bytes reach
    ours unchanged ("\\n", not the terminal's "\\r\\n")."""
    stage = use_stage(monkeypatch, WaitingStage(fake, 60))
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert cli.main(["-c", "hello.c"]) == 0
    assert stage.seen
    err = capfd.readouterr().err
    assert "compiler: note from the user's compile\ncompiler: stderr is a terminal\n" in err
    assert "\r" not in err


def test_a_large_tu_speculates_on_a_busy_machine(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Its compile and its analysis are the critical path: overlap them anyway."""
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "1")
    monkeypatch.setattr(speculate, "idle_cpu", lambda: False)
    monkeypatch.setattr(speculate, "LARGE_BYTES", 1000)  # hello.c with stdio.h: more
    stage = use_stage(monkeypatch, WaitingStage(fake, 60))
    assert cli.main(["-c", "hello.c"]) == 0
    assert stage.seen


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1].startswith("Z")  # reaped soon by init
    except FileNotFoundError:
        return True


def test_instrumented_tu_stops_the_users_compile(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capfd: pytest.CaptureFixture[str]) -> None:
    """The user's compile would sleep for two minutes (and write nothing); the build
    ends with the rewritten object, and no process of that compile is left."""
    pid_file = work / "sleeper.pid"
    monkeypatch.setenv("SLOW", str(pid_file))
    stage = use_stage(monkeypatch, WaitingStage(
        fake, 60, rewrite=lambda t: t.replace("return 0", "return 3")))
    assert cli.main(["hello.c", "-c", "-o", "prog.o"]) == 0
    assert stage.seen
    assert _gone(int(pid_file.read_text()))
    assert "compiler: note" not in capfd.readouterr().err  # not the build's compile
    subprocess.run([*mpicc(), "prog.o", "-o", "prog"], check=True)
    assert subprocess.run([str(work / "prog")], timeout=60).returncode == 3


def test_an_interrupt_while_waiting_for_the_compile_stops_it(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Ctrl-C reaches mpicc-wrap's process group, not the compile's: mpicc-wrap
    stops it on its way out (exit 130), also while it waits for it."""
    pid_file = work / "sleeper.pid"
    monkeypatch.setenv("SLOW", str(pid_file))
    use_stage(monkeypatch, WaitingStage(fake, 60))
    def interrupted(self: speculate.Speculation) -> int:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text().strip():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        raise KeyboardInterrupt

    monkeypatch.setattr(speculate.Speculation, "finish", interrupted)
    assert cli.main(["-c", "hello.c"]) == 130
    assert _gone(int(pid_file.read_text()))


def test_errors_of_ours_leave_no_object(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The backstop: a stage reporting errors where none could be expected still fails
    the build without an object, even when the compile beside it has finished."""
    stage = use_stage(monkeypatch, WaitingStage(fake, 60, result=StageResult(None, errors=1)))
    monkeypatch.setattr(speculate.Speculation, "cancel", _finish_first)
    assert cli.main(["-c", "hello.c"]) == 1
    assert stage.seen and not (work / "hello.o").exists()


def _finish_first(self: speculate.Speculation) -> None:
    self.proc.wait()


@pytest.mark.parametrize(("loadavg", "cpus", "idle"), [
    ("0.50 0.40 0.30 1/345 5784", 2, True),    # this process alone
    ("1.90 1.80 1.70 2/345 5784", 2, False),   # another compile on the other core
    ("3.10 2.00 1.50 3/345 5784", 4, True),
    ("0.00 0.00 0.00 1/10 1", 1, False),        # one CPU: ours
])
def test_idle_cpu_counts_the_tasks_runnable_now(loadavg: str, cpus: int, idle: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cpus)))
    assert speculate.idle_cpu(loadavg) is idle


def test_default_speculates_only_on_an_idle_cpu(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "1")
    for idle in (False, True):
        fake.unlink(missing_ok=True)
        monkeypatch.setattr(speculate, "idle_cpu", lambda idle=idle: idle)
        stage = use_stage(monkeypatch, WaitingStage(fake, 60 if idle else 0.5))
        assert cli.main(["-c", "hello.c"]) == 0
        assert stage.seen is idle


def test_warn_only_speculates_on_a_busy_machine(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """MPICC_WRAP_INSTRUMENT=0 rewrites nothing: the compile is always the build's."""
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "1")
    monkeypatch.setenv("MPICC_WRAP_INSTRUMENT", "0")
    monkeypatch.setattr(speculate, "idle_cpu", lambda: False)
    stage = use_stage(monkeypatch, WaitingStage(fake, 60))
    assert cli.main(["-c", "hello.c"]) == 0
    assert stage.seen


def test_a_cpu_freed_during_the_analysis_starts_the_compile(
        fake: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Busy when mpicc-wrap starts, idle a moment later (the other job of a make -j2
    ended): the budgeted analysis, in its child, sees the compile start."""
    monkeypatch.setenv("MPICC_WRAP_SPECULATE", "1")
    checks: list[int] = []

    def idle() -> bool:
        checks.append(1)
        return len(checks) >= 3

    monkeypatch.setattr(speculate, "idle_cpu", idle)
    use_stage(monkeypatch, WaitingStage(fake, 60))
    monkeypatch.setenv("MPICC_WRAP_BUDGET", "120")  # a child, and the parent ticks
    assert cli.main(["-c", "hello.c"]) == 0
    assert fake.exists() and len(checks) >= 3 and (work / "hello.o").exists()


def test_finish_replays_stderr_and_status(tmp_path: Path,
                                          capfd: pytest.CaptureFixture[str]) -> None:
    spec = speculate.Speculation(["sh", "-c", "echo said >&2; exit 3"], str(tmp_path))
    assert spec.finish() == 3
    assert capfd.readouterr().err == "said\n"
    spec = speculate.Speculation(["sh", "-c", "kill -TERM $$"], str(tmp_path))
    assert spec.finish() == 128 + 15


def test_cancel_stops_the_whole_process_group(tmp_path: Path) -> None:
    """The compiler driver's children (cc1, as) outlive a killed driver unless the
    group is stopped: here a child that ignores SIGTERM."""
    pid_file = tmp_path / "child.pid"
    spec = speculate.Speculation(
        ["sh", "-c", f"sh -c 'trap \"\" TERM; echo $$ > {pid_file}; "
                     "while :; do sleep 1; done' & wait"], str(tmp_path))
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    spec.cancel()
    assert _gone(int(pid_file.read_text()))
    with pytest.raises(ProcessLookupError):
        os.killpg(spec.proc.pid, 0)
