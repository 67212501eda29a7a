"""Line tables for the deadlock report: a C compile whose command has no ``-g`` option
gets ``-g1`` from mpicc-wrap (``commands.line_tables``), so that a report names
``file:line`` without ``-g`` (``tests/hangs/nodebug_o2.c``).  First, do no harm: the
code must be the very same, so an object compiled with the added ``-g1`` equals, once
``objcopy --strip-debug`` removed the debug sections, the one compiled without it
(``MPICC_WRAP_LINE_TABLES=0``), byte for byte, and the program runs as its plain
mpicc build; a user's ``-g0``, or ``-s`` at the link, still wins.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import corpus_lib as corpus
import mpirun
import pytest
from paths import ROOT

pytestmark = pytest.mark.mpi

PROGRAM = ROOT / "tests" / "corpus" / "correct_convergence_while.c"  # output-deterministic
OFF = {"MPICC_WRAP_LINE_TABLES": "0"}


def sections(path: Path) -> set[str]:
    out = subprocess.run(["readelf", "-W", "-S", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return {w for w in out.split() if w.startswith(".")}


def wrap(args: list[str], env: dict[str, str] | None = None) -> None:
    done = mpirun.run([mpirun.tool("mpicc-wrap"), *args], timeout=180, env=env)
    assert done.returncode == 0, done.output
    assert "analysis skipped" not in done.output and "did not compile" not in done.output


def stripped(obj: Path) -> bytes:
    out = obj.with_suffix(".stripped")
    # (clang's .llvm_addrsig holds symbol indices that objcopy leaves stale)
    subprocess.run(["objcopy", "--strip-debug", "--remove-section=.llvm_addrsig", str(obj),
                    str(out)], check=True)
    return out.read_bytes()


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("instrument", ["1", "all"])  # the user's source / rewritten text
def test_line_tables_leave_the_code_alone(opt: str, instrument: str, tmp_path: Path) -> None:
    env = {"MPICC_WRAP_INSTRUMENT": instrument}
    with_lines, without = tmp_path / "lines.o", tmp_path / "plain.o"
    wrap([opt, "-c", str(PROGRAM), "-o", str(with_lines)], env)
    wrap([opt, "-c", str(PROGRAM), "-o", str(without)], {**env, **OFF})
    assert ".debug_line" in sections(with_lines)
    assert ".debug_line" not in sections(without)
    assert stripped(with_lines) == stripped(without)
    # The program's output is unchanged: the mpicc-wrap build runs as the plain one.
    exe, plain = tmp_path / "wrapped", tmp_path / "plain"
    wrap([opt, str(PROGRAM), "-o", str(exe)], env)
    done = mpirun.run([*mpirun.mpicc(), opt, str(PROGRAM), "-o", str(plain)], timeout=180)
    assert done.returncode == 0, done.output
    assert ".debug_line" in sections(exe)
    runs = [mpirun.mpiexec(p, 2, timeout=60, cwd=tmp_path) for p in (exe, plain)]
    assert not any(r.timed_out for r in runs), runs
    assert runs[0].returncode == runs[1].returncode == 0, runs[0].output + runs[1].output
    assert corpus.sorted_stdout(runs[0].stdout) == corpus.sorted_stdout(runs[1].stdout)
    assert runs[0].stdout.strip()


def test_the_users_g0_and_s_win(tmp_path: Path) -> None:
    obj, exe = tmp_path / "g0.o", tmp_path / "stripped"
    wrap(["-O2", "-g0", "-c", str(PROGRAM), "-o", str(obj)])
    assert not any(s.startswith(".debug") for s in sections(obj))
    wrap(["-O2", "-s", str(PROGRAM), "-o", str(exe)])
    found = sections(exe)
    assert ".symtab" not in found and not any(s.startswith(".debug") for s in found), found
