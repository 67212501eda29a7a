"""A rewrite that does not type-check is never compiled (``netcompile``).

The rewritten text is compiled with ``-Werror=int-conversion`` and its like; a
failure that is ours (the user's own text does not fail that way) makes the driver
compile the original source with an "instrumented code did not compile" note.  The
user's own int/pointer mixing neither loses the instrumentation nor reaches the
user's original compile as an error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mpirun import run, tool

from mpicc_wrap.driver import cmdline, netcompile, pipeline, stage
from mpicc_wrap.driver.stage import StageResult
from mpicc_wrap.switches import Options

USER = """#include <mpi.h>
int f(MPI_Comm *pc) {
  int sloppy = (long) 0;
  return MPI_Barrier(*pc) + sloppy;
}
"""
OURS_BROKEN = "int mpiccwrap__bad(MPI_Comm *pc) { MPI_Comm c = pc; return (int) c; }\n"
USER_SLOPPY = USER.replace("int sloppy = (long) 0;", "int sloppy = pc;")


def preprocessed(tmp: Path, name: str, text: str) -> str:
    """``text`` as u.c preprocessed into NAME.i (both texts name the same user file,
    as the original and the rewritten text of one TU do)."""
    src = tmp / "u.c"
    src.write_text(text)
    out = tmp / f"{name}.i"
    res = run([tool("mpicc"), "-E", str(src), "-o", str(out)], timeout=60)
    assert res.returncode == 0, res.output
    return str(out)


def compile_pair(tmp: Path, original: str, rewritten: str, *flags: str) -> tuple[int, str]:
    inv = cmdline.parse([*flags, "-c", str(tmp / "u.c"), "-o", str(tmp / "u.o")])
    orig = preprocessed(tmp, "orig", original)
    rew = preprocessed(tmp, "rew", rewritten)
    code, err = netcompile.compile_rewritten([tool("mpicc")], inv, rew, orig, str(tmp / "u.o"))
    return code, err.decode(errors="replace")


@pytest.mark.parametrize("flags", [(), ("-w",), ("-Wno-int-conversion",)])
def test_broken_rewrite_fails_under_the_net(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """Plain gcc only warns (and -w or -Wno-int-conversion would hide even that)."""
    plain = run([tool("mpicc"), *flags, "-c", "-x", "c", "-", "-o", str(tmp_path / "p.o")],
                stdin=USER + OURS_BROKEN, timeout=60)
    assert plain.returncode == 0, plain.output
    code, err = compile_pair(tmp_path, USER, USER + OURS_BROKEN, *flags)
    assert code != 0 and "int-conversion" in err


def test_users_own_sloppiness_keeps_the_instrumentation(tmp_path: Path) -> None:
    code, err = compile_pair(tmp_path, USER_SLOPPY, USER_SLOPPY + "int mpiccwrap__ok;\n")
    assert code == 0, err
    assert "warning:" in err and "int-conversion" in err  # the user's own warning, as gcc
    assert (tmp_path / "u.o").exists()


def test_ours_on_top_of_the_users_is_still_caught(tmp_path: Path) -> None:
    code, _ = compile_pair(tmp_path, USER_SLOPPY, USER_SLOPPY + OURS_BROKEN)
    assert code != 0


def test_net_errors_are_counted_by_line_and_option() -> None:
    err = ("a.c:3:15: error: initialization of 'int' from 'int *' makes integer from pointer "
           "without a cast [-Werror=int-conversion]\n"
           "a.c:4:1: error: expected ';' before '}' token\n")
    found, other = netcompile.net_errors(err)
    assert found == {("a.c", "3", "-Werror=int-conversion"): 1} and other == 1


def test_command_puts_the_net_last_and_only_on_our_text() -> None:
    inv = cmdline.parse(["-O2", "-w", "-DX=1", "-c", "u.c", "-o", "u.o"])
    cmd = netcompile._command(["mpicc"], inv, "r.i", "u.o", True, keep_w=False)
    assert cmd[-len(netcompile.NET_FLAGS):] == list(netcompile.NET_FLAGS)
    assert "-w" not in cmd and "-DX=1" not in cmd and "r.i" in cmd
    from mpicc_wrap.driver import commands as pp
    original = pp.compile_original_command(["mpicc"], inv, inv.sources[0], "u.o")
    assert not set(netcompile.NET_FLAGS) & set(original)


def test_driver_falls_back_to_the_original_with_a_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "u.c"
    src.write_text(USER)
    pp_text = Path(preprocessed(tmp_path, "pp", USER)).read_text()
    monkeypatch.setattr(stage, "run", lambda *a, **k: StageResult(pp_text + OURS_BROKEN))
    inv = cmdline.parse(["-c", str(src), "-o", str(tmp_path / "u.o")])
    options = Options(cache=str(tmp_path / "cache"), result_cache=False)
    assert pipeline.run(inv, [tool("mpicc")], options) == 0
    err = capfd.readouterr().err
    assert f"analysis skipped for {src}: {pipeline.BROKEN_REWRITE}" in err
    nm = run(["nm", str(tmp_path / "u.o")], timeout=30)
    assert " f\n" in nm.stdout and "mpiccwrap__bad" not in nm.stdout
