"""The wrapper pipeline in-process: what it hands the stage, what it compiles, the
failure policy (notes, STRICT, no tracebacks), temp files, link hooks, discovery."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mpirun import mpicc, run, tool

from mpicc_wrap import switches
from mpicc_wrap.driver import cli, compiler, pipeline, stage
from mpicc_wrap.driver.stage import StageResult
from mpicc_wrap.errors import AnalysisSkipped, WrapError
from mpicc_wrap.report import emit
from mpicc_wrap.runtime import library, objects

PROGRAM = "#include <stdio.h>\nint main(void)\n{\n    puts(\"hi\");\n    return 0;\n}\n"
WRAP_ENV = ("MPICC_WRAP_DISABLE", "MPICC_WRAP_STRICT", "MPICC_WRAP_DEBUG", "MPICC",
            "MPICC_WRAP_CC", compiler.ACTIVE_MARKER)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory holding hello.c, as cwd, with a clean wrapper environment and a
    private TMPDIR (so leftover temporary directories can be seen)."""
    for name in WRAP_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hello.c").write_text(PROGRAM)
    return tmp_path


class FakeStage:
    """Stands in for stage.run: records its calls, returns or raises what it is told."""

    def __init__(self, result: Any = None, rewrite: Any = None) -> None:
        self.result, self.rewrite = result, rewrite
        self.calls: list[dict[str, Any]] = []

    def __call__(self, pp_text: str, source: str, compiler: list[str], options: Any,
                 external: Any = None, warning_flags: Any = None, stream: Any = None,
                 ) -> StageResult:
        self.calls.append({"text": pp_text, "source": source, "options": options,
                           "warning_flags": warning_flags, "external": external})
        if isinstance(self.result, BaseException):
            raise self.result
        if self.rewrite is not None:
            return StageResult(self.rewrite(pp_text))
        return self.result or StageResult(None)


def use_stage(monkeypatch: pytest.MonkeyPatch, fake: FakeStage) -> FakeStage:
    """Replace the stage; with no budget it runs in this process, so the fake sees
    its calls (a budgeted stage runs in a forked child)."""
    monkeypatch.setattr(stage, "run", fake)
    monkeypatch.setenv("MPICC_WRAP_BUDGET", "0")
    return fake


def leftovers(work: Path) -> list[str]:
    return os.listdir(work / "tmp")


def test_stage_gets_preprocessed_text_and_flags(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                ) -> None:
    fake = use_stage(monkeypatch, FakeStage())
    assert cli.main(["-DGREETING=1", "-Werror", "-Wno-mpi-collective-order", "-c",
                     "hello.c"]) == 0
    call = fake.calls[0]
    assert call["source"] == "hello.c"
    assert '# 1 "hello.c"' in call["text"] and "puts" in call["text"]
    assert call["warning_flags"] == {"mpi-collective-order": "off", "*": "error"}
    assert call["options"].werror
    assert (work / "hello.o").exists() and leftovers(work) == []


@pytest.mark.parametrize(("flags", "strict"), [([], True), (["-fno-strict-aliasing"], False)])
def test_stage_knows_whether_struct_types_may_be_punned(
        work: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], strict: bool) -> None:
    """-fno-strict-aliasing reaches the analysis (fields by name alone, layouts.py)."""
    fake = use_stage(monkeypatch, FakeStage())
    assert cli.main([*flags, "-c", "hello.c"]) == 0
    assert fake.calls[0]["options"].strict_aliasing is strict


def test_rewritten_text_is_what_gets_compiled(work: Path, monkeypatch: pytest.MonkeyPatch,
                                              ) -> None:
    use_stage(monkeypatch, FakeStage(rewrite=lambda t: t.replace("return 0", "return 3")))
    assert cli.main(["hello.c", "-o", "prog"]) == 0
    assert run([str(work / "prog")]).returncode == 3


def test_rewritten_compile_keeps_user_lines(work: Path, monkeypatch: pytest.MonkeyPatch,
                                            capfd: pytest.CaptureFixture[str]) -> None:
    use_stage(monkeypatch, FakeStage(rewrite=lambda t: t.replace(
        'puts("hi");', 'puts("hi"); int unused_var;')))
    assert cli.main(["-Wall", "-c", "hello.c"]) == 0
    err = capfd.readouterr().err
    assert "hello.c:4:" in err and "unused_var" in err
    assert ".i:" not in err and "mpicc-wrap-" not in err


def test_analysis_skipped_note_and_original_compile(work: Path, capfd: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    use_stage(monkeypatch, FakeStage(AnalysisSkipped("parser limit")))
    assert cli.main(["-c", "hello.c"]) == 0
    assert capfd.readouterr().err == (
        "mpicc-wrap: note: analysis skipped for hello.c: parser limit\n")
    assert (work / "hello.o").exists()


def test_internal_error_never_fails_the_build(work: Path, capfd: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    use_stage(monkeypatch, FakeStage(RuntimeError("boom")))
    assert cli.main(["hello.c", "-o", "prog"]) == 0
    err = capfd.readouterr().err
    assert err == ("mpicc-wrap: note: analysis skipped for hello.c: "
                   "internal error: RuntimeError: boom\n")
    assert "Traceback" not in err and (work / "prog").exists()


def test_strict_turns_the_note_into_an_error(work: Path, capfd: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPICC_WRAP_STRICT", "1")
    use_stage(monkeypatch, FakeStage(AnalysisSkipped("parser limit")))
    assert cli.main(["-c", "hello.c"]) == 1
    assert capfd.readouterr().err == (
        "mpicc-wrap: error: analysis skipped for hello.c: parser limit\n")
    assert not (work / "hello.o").exists() and leftovers(work) == []


def test_debug_keeps_temporary_files_and_shows_traceback(work: Path, capfd: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPICC_WRAP_DEBUG", "1")
    use_stage(monkeypatch, FakeStage(RuntimeError("boom")))
    assert cli.main(["-c", "hello.c"]) == 0
    err = capfd.readouterr().err
    assert "Traceback" in err and "temporary files kept in" in err
    kept = leftovers(work)
    assert len(kept) == 1 and os.listdir(work / "tmp" / kept[0])


def test_escalated_warnings_fail_without_output(work: Path, monkeypatch: pytest.MonkeyPatch,
                                                ) -> None:
    use_stage(monkeypatch, FakeStage(StageResult(None, errors=1)))
    assert cli.main(["-c", "hello.c"]) == 1
    assert not (work / "hello.o").exists()


def test_broken_rewrite_falls_back_to_original(work: Path, capfd: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    use_stage(monkeypatch, FakeStage(rewrite=lambda t: t + "\nthis is not C;\n"))
    assert cli.main(["-c", "hello.c"]) == 0
    assert capfd.readouterr().err == (
        "mpicc-wrap: note: analysis skipped for hello.c: instrumented code did not compile\n")
    assert (work / "hello.o").exists()


def test_user_error_after_rewrite_is_reported_once(work: Path, capfd: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "bad.c").write_text("int f(void) { return undeclared_name; }\n")
    use_stage(monkeypatch, FakeStage(rewrite=lambda t: t))
    assert cli.main(["-c", "bad.c"]) == 1
    err = capfd.readouterr().err
    assert "bad.c:1:22: error:" in err
    assert err.count("undeclared (first use in this function)") == 1
    assert "mpicc-wrap" not in err and not (work / "bad.o").exists()


def test_disable_is_pure_passthrough(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPICC_WRAP_DISABLE", "1")
    fake = use_stage(monkeypatch, FakeStage())
    assert cli.main(["-Wno-mpi-collective-order", "-c", "hello.c"]) == 0
    assert fake.calls == [] and (work / "hello.o").exists()


def test_link_hooks(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "util.c").write_text("int twice(int x) { return 2 * x; }\n")
    assert cli.main(["-c", "util.c"]) == 0
    seen: dict[str, Any] = {}
    stored: list[str] = []
    monkeypatch.setattr(objects, "store", lambda obj, *a: stored.append(obj))
    monkeypatch.setattr(objects, "read_inputs",
                        lambda inputs: seen.setdefault("inputs", inputs) and [])
    monkeypatch.setattr(library, "link_args", lambda cc, options, scratch: ["-lm"])
    use_stage(monkeypatch, FakeStage())
    assert cli.main(["hello.c", "util.o", "-o", "prog"]) == 0
    assert seen["inputs"][1] == "util.o" and seen["inputs"][0].endswith("0-hello.o")
    assert stored == [seen["inputs"][0]]
    monkeypatch.setattr(emit, "emit_link", lambda *args: 2)
    (work / "prog").unlink()
    assert cli.main(["hello.c", "util.o", "-o", "prog"]) == 1
    assert not (work / "prog").exists()


def test_store_after_compile(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stored: list[str] = []
    monkeypatch.setattr(objects, "store", lambda obj, *a: stored.append(obj))
    use_stage(monkeypatch, FakeStage())
    assert cli.main(["-c", "hello.c", "-o", "x.o"]) == 0
    assert stored == ["x.o"]


def test_runtime_error_is_one_line(work: Path, capfd: Any, monkeypatch: pytest.MonkeyPatch,
                                   ) -> None:
    def fail(compiler: list[str], options: switches.Options, scratch: str) -> list[str]:
        raise WrapError("checker runtime cannot be built: no cffi")

    monkeypatch.setattr(library, "link_args", fail)
    use_stage(monkeypatch, FakeStage(rewrite=lambda text: text))  # instrumented: needed
    assert cli.main(["hello.c", "-o", "prog"]) == 1
    assert capfd.readouterr().err == "mpicc-wrap: error: checker runtime cannot be built: no cffi\n"
    assert leftovers(work) == [] and not (work / "prog").exists()


def test_runtime_failure_does_not_fail_a_link_that_needs_no_checker(
        work: Path, capfd: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Failure policy: nothing this command compiled is instrumented, so a runtime that
    cannot be built is a note, not a failed link (it failed every link before)."""
    def fail(compiler: list[str], options: switches.Options, scratch: str) -> list[str]:
        raise WrapError("checker runtime cannot be built: no cffi")

    monkeypatch.setattr(library, "link_args", fail)
    use_stage(monkeypatch, FakeStage())
    assert cli.main(["hello.c", "-o", "prog"]) == 0
    assert capfd.readouterr().err == ("mpicc-wrap: note: checker runtime cannot be built: "
                                      "no cffi; linking without it (nothing here is "
                                      "instrumented)\n")
    assert (work / "prog").exists()
    monkeypatch.setenv("MPICC_WRAP_STRICT", "1")
    assert cli.main(["hello.c", "-o", "prog"]) == 1


def test_keyboard_interrupt_and_internal_bug(work: Path, capfd: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*a: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "run", interrupt)
    assert cli.main(["-c", "hello.c"]) == 130
    monkeypatch.setattr(pipeline, "run", lambda *a: 1 // 0)
    assert cli.main(["-c", "hello.c"]) == 1
    assert capfd.readouterr().err == (
        "mpicc-wrap: error: internal error: ZeroDivisionError: "
        "integer division or modulo by zero\n")


def test_wrap_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--wrap-help"]) == 0
    assert capsys.readouterr().out == switches.help_text()
    assert cli.main(["--wrap-cmake-toolchain"]) == 0
    path = capsys.readouterr().out.strip()
    assert os.path.isabs(path) and path.endswith("mpicc-wrap-toolchain.cmake")


def test_sigterm_removes_temporary_files(work: Path) -> None:
    slow = work / "slowcc"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    env = {**os.environ, "MPICC_WRAP_CC": str(slow)}
    proc = subprocess.Popen([tool("mpicc-wrap"), "-c", "hello.c"], env=env, cwd=work,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.time() + 20
        while not leftovers(work) and time.time() < deadline:
            time.sleep(0.1)
        assert leftovers(work), "mpicc-wrap never created its private directory"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert leftovers(work) == []
    assert b"Traceback" not in proc.stderr.read()  # type: ignore[union-attr]


def _script(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_find_compiler(tmp_path: Path) -> None:
    real = _script(tmp_path / "real-mpicc", "#!/bin/sh\n")
    env = {"PATH": str(tmp_path), "MPICC_WRAP_CC": f"{real} -cc=gcc", "MPICC": "nope"}
    assert compiler.find(env) == [str(real), "-cc=gcc"]
    assert compiler.find({"PATH": str(tmp_path), "MPICC": "real-mpicc"}) == [str(real)]
    with pytest.raises(WrapError, match="MPICC=nope: command not found"):
        compiler.find({"PATH": str(tmp_path), "MPICC": "nope"})


def test_find_skips_ourselves(tmp_path: Path) -> None:
    first, second, third = (tmp_path / d for d in ("a", "b", "c"))
    for d in (first, second, third):
        d.mkdir()
    (first / "mpicc").symlink_to(tool("mpicc-wrap"))  # a symlink named mpicc to us
    _script(second / "mpicc", "#!/usr/bin/python3\nfrom mpicc_wrap.driver.cli import main\n")
    real = _script(third / "mpicc", "#!/bin/sh\n")
    path = os.pathsep.join(map(str, (first, second, third)))
    assert compiler.find({"PATH": path, "MPICC": tool("mpicc-wrap")}) == [str(real)]
    with pytest.raises(WrapError) as exc:
        compiler.find({"PATH": os.pathsep.join(map(str, (first, second)))})
    assert str(exc.value) == compiler.NOT_FOUND
    with pytest.raises(WrapError, match="runs mpicc-wrap again"):
        compiler.find({"PATH": path, compiler.ACTIVE_MARKER: "1"})


def test_no_compiler_message(tmp_path: Path) -> None:
    (tmp_path / "mpicc").symlink_to(tool("mpicc-wrap"))
    r = run([tool("mpicc-wrap"), "-c", "x.c"], env={"PATH": str(tmp_path)}, cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == ("mpicc-wrap: error: no MPI C compiler found; install MPI or set "
                        "MPICC_WRAP_CC\n")


def test_recursion_through_a_wrapper_script_stops(tmp_path: Path) -> None:
    loop = _script(tmp_path / "loopcc", f"#!/bin/sh\nexec {tool('mpicc-wrap')} \"$@\"\n")
    (tmp_path / "x.c").write_text(PROGRAM)
    r = run([tool("mpicc-wrap"), "-c", "x.c"], env={"MPICC_WRAP_CC": str(loop)},
            cwd=tmp_path, timeout=60)
    assert not r.timed_out and r.returncode != 0
    assert "runs mpicc-wrap again" in r.stderr


def test_strict_with_invalid_c_gives_the_compilers_message(
        work: Path, capfd: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPICC_WRAP_STRICT", "1")
    (work / "bad.c").write_text("int f(void) { return 0 }\n")
    use_stage(monkeypatch, FakeStage(AnalysisSkipped("parse error")))
    assert cli.main(["-c", "bad.c"]) == 1
    err = capfd.readouterr().err
    assert "bad.c:1:" in err and "error: expected" in err and "mpicc-wrap" not in err


def test_no_note_when_the_users_compile_fails(work: Path, capfd: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "bad.c").write_text("int f(void) { return undeclared_name; }\n")
    use_stage(monkeypatch, FakeStage(AnalysisSkipped("whatever")))
    assert cli.main(["-c", "bad.c"]) == 1
    assert "mpicc-wrap" not in capfd.readouterr().err


def test_python_dash_m_is_the_console_script() -> None:
    r = run([sys.executable, "-m", "mpicc_wrap", "--wrap-help"])
    assert (r.returncode, r.stdout) == (0, switches.help_text())


def test_failing_summary_hooks_never_fail_the_build(work: Path, capfd: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> Any:
        raise OSError("disk full")

    monkeypatch.setattr(objects, "store", broken)
    monkeypatch.setattr(objects, "read_inputs", broken)
    use_stage(monkeypatch, FakeStage())
    assert cli.main(["hello.c", "-o", "prog"]) == 0
    assert capfd.readouterr().err == (
        "mpicc-wrap: note: analysis skipped for hello.c: internal error: OSError: disk full\n"
        "mpicc-wrap: note: analysis skipped for prog: internal error: OSError: disk full\n")
    assert (work / "prog").exists()


def _debug_names(obj: Path) -> list[str]:
    info = run(["readelf", "--debug-dump=info", "-s", str(obj)]).stdout
    return [line.split(":")[-1].strip() for line in info.splitlines()
            if "DW_AT_comp_dir" in line or "DW_AT_name" in line and "hello" in line
            ] + [line.split()[-1] for line in info.splitlines() if " FILE " in line]


def test_rewritten_debug_info_names_the_users_file(work: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if not shutil.which("readelf"):
        pytest.skip("readelf (binutils) is not installed")
    use_stage(monkeypatch, FakeStage(rewrite=lambda t: t))
    assert cli.main(["-g", "-c", "hello.c", "-o", "rewritten.o"]) == 0
    assert run([*mpicc(), "-g", "-c", "hello.c", "-o", "ref.o"], cwd=work).returncode == 0
    names = _debug_names(work / "ref.o")
    assert names == _debug_names(work / "rewritten.o")
    assert names == ["hello.c", str(work), "hello.c"]
