"""The test helpers themselves (tests/mpirun.py, tests/conftest.py): how the MPI
compiler and its launcher are found, and reading several ranks' output."""

from __future__ import annotations

import mmap
import os
import time
from pathlib import Path

import conftest
import mpirun
import pytest


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_mpicc_is_the_environments_without_mpicc_wrap_cc(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.delenv("MPICC_WRAP_CC", raising=False)
    assert mpirun.mpicc() == [mpirun.tool("mpicc")]


def test_mpicc_follows_mpicc_wrap_cc_with_arguments(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cc = _script(tmp_path / "bin" / "mycc", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("MPICC_WRAP_CC", "mycc -DX=1")
    assert mpirun.mpicc() == [str(cc), "-DX=1"]
    monkeypatch.setenv("MPICC_WRAP_CC", "no-such-compiler-here")
    with pytest.raises(RuntimeError, match="no-such-compiler-here"):
        mpirun.mpicc()


def test_launcher_is_the_compilers_sibling_with_open_mpi_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mpicc.X -> mpiexec.X beside it; an Open MPI launcher gets --oversubscribe, and
    --allow-run-as-root only for root."""
    folder = tmp_path / "bin"
    _script(folder / "mpicc.fake", "#!/bin/sh\n")
    launcher = _script(folder / "mpiexec.fake", "#!/bin/sh\necho 'mpiexec (OpenRTE) 4.1.4'\n")
    monkeypatch.setenv("MPICC_WRAP_CC", str(folder / "mpicc.fake"))
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    assert mpirun.mpiexec_command() == [str(launcher), *root, "--oversubscribe"]
    shim = mpirun.mpiexec_shim(tmp_path / "shim") / "mpiexec"
    assert shim.read_text().startswith(f"#!/bin/sh\nexec {launcher} ")
    assert os.access(shim, os.X_OK)


def test_launcher_of_the_default_mpi_has_no_extra_options(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MPICC_WRAP_CC", raising=False)
    command = mpirun.mpiexec_command()
    assert Path(command[0]).name == "mpiexec" and Path(command[0]).is_file()
    if not mpirun.is_openmpi(command[0]):
        assert command == [command[0]]


def test_rank_lines_ignore_order_but_not_lines_run_together() -> None:
    one = "0 passed\n1 passed\n"
    other = "\n1 passed\n0 passed"
    assert mpirun.rank_lines(one) == mpirun.rank_lines(other) == {(0, "passed"), (1, "passed")}
    assert mpirun.rank_lines("rank 3 done\n") == {(3, "done")}
    assert (-1, "passed passed") in mpirun.rank_lines("passed passed\n0\n1\n")


def test_openmpi_absent_fails_under_ci_and_skips_elsewhere(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(mpirun, "openmpi_compiler", lambda: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must test under Open MPI"):
        conftest.require_openmpi()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="Open MPI is not installed"):
        conftest.require_openmpi()
    assert "skipping: Open MPI is not installed" in capsys.readouterr().out


def test_leaked_shared_memory_goes_but_live_and_older_files_stay(tmp_path: Path) -> None:
    started = time.time() - 1
    for name in ("mpich_shm_1_0", "mpich_shm_2_0", "mpich_shm_3_0", "vader_segment.h.1.0",
                 "user_file"):
        (tmp_path / name).write_bytes(b"\0" * 4096)
    os.utime(tmp_path / "mpich_shm_3_0", (started - 3600, started - 3600))  # not ours
    with open(tmp_path / "mpich_shm_2_0", "r+b") as live, mmap.mmap(live.fileno(), 4096):
        removed = mpirun.release_leaked_shm(started, str(tmp_path))
    assert sorted(removed) == ["mpich_shm_1_0", "vader_segment.h.1.0"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mpich_shm_2_0", "mpich_shm_3_0", "user_file"]


def test_processes_that_leave_the_group_do_not_outlive_the_run(tmp_path: Path) -> None:
    """A child in a session of its own (as hydra starts each rank) is killed when the
    run ends, normally or by timeout."""
    pidfile = tmp_path / "pid"
    away = "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > pid"
    for script, timeout in ((away, 30.0), (f"{away}; sleep 300", 1.0)):
        done = mpirun.run(["sh", "-c", script], cwd=tmp_path, timeout=timeout)
        assert done.timed_out == (timeout == 1.0)
        pid = int(pidfile.read_text())
        for _ in range(50):  # the kill is asynchronous: give the kernel a moment
            if not Path(f"/proc/{pid}").exists() or "Z" in _state(pid):
                break
            time.sleep(0.1)
        assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid), script


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
