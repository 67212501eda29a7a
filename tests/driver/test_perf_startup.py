"""Start-up cost guards: modules every compile imports must not pull in heavy
dependencies that only some paths need, and hot helpers stay linear-time in C."""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import mpirun
import pytest

from mpicc_wrap.frontend.positions import Text
from mpicc_wrap.model import Pos

CLEAN = """#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""

# Compile a TU that needs no rewriting, then report which heavy modules were loaded:
# the template engine and the runtime builder (cffi) serve only rewrites and links,
# SARIF only MPICC_WRAP_SARIF.
PROBE = """
import sys
HEAVY = ("jinja2", "cffi", "mpicc_wrap.runtime.library", "mpicc_wrap.report.sarif",
         "mpicc_wrap.instrument.rewrite")
from mpicc_wrap.driver.cli import main
code = main(["-c", "clean.c", "-o", "clean.o"])
print(code, *sorted(m for m in HEAVY if m in sys.modules))
"""


def test_compiling_an_unrewritten_tu_loads_no_heavy_module(tmp_path: Path) -> None:
    (tmp_path / "clean.c").write_text(CLEAN)
    env = {**os.environ, "MPICC_WRAP_CACHE": str(tmp_path / "cache"),
           "MPICC_WRAP_CC": shlex.join(mpirun.mpicc())}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, timeout=120,
                         capture_output=True, text=True)
    assert out.stdout.split() == ["0"], out.stderr
    assert (tmp_path / "clean.o").is_file()


@pytest.mark.parametrize("text", ["", "a", "a\n", "\n\nb\nc", "ab\ncd\n\n"])
def test_text_line_starts_match_a_character_scan(text: str) -> None:
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    index = Text(text)
    assert index.starts == starts
    for line, start in enumerate(starts, 1):
        assert index.offset(Pos(line, 1)) == start and index.pos(start) == Pos(line, 1)


def _char_scan(text: str, i: int, stop: str) -> int:
    """``Text.scan``'s contract, one character at a time: the offset one past the
    first ``stop`` at depth 0 (past the group the first bracket opens, for a
    closing ``stop``), skipping string and character literals and their escapes."""
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i += 1
            while i < len(text) and text[i] != ch:
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0 and ch == stop:
                return i + 1
        elif ch == stop and depth == 0:
            return i + 1
        i += 1
    return len(text)


SCANNED = ['f(a, "x)", \')\') + g(b);', 'if (s[0] == \'"\') { p("}\\"}"); } x;',
           'a = "\\\\"; b(c[1]); }', '{ q("unclosed); }', "'\\'' ; (x)", "",
           "(((;)));", "x = {1, {2}, [3]};\n y(z);"]


@pytest.mark.parametrize("text", SCANNED + ["".join(random.Random(k).choice(
    "ab ;(){}[]\"'\\\n") for _ in range(60)) for k in range(40)])
def test_text_scan_jumps_to_the_same_ends_as_a_character_scan(text: str) -> None:
    index = Text(text)
    for offset in range(len(text)):
        for stop in (";", ")", "}"):
            want = _char_scan(text, offset, stop)
            assert index.offset(index.scan(index.pos(offset), stop)) == want, (offset, stop)


# A pass-through execs the compiler: the probe's execve reports what was loaded by then.
PASS_PROBE = """
import os, sys
from mpicc_wrap.driver.cli import main
LOADED = ("mpicc_wrap.driver.pipeline", "mpicc_wrap.driver.stage")
def execve(path, args, env):
    print("exec", *sorted(m for m in LOADED if m in sys.modules), flush=True)
    os._exit(0)
os.execve = execve
sys.argv = ["mpicc-wrap", *sys.argv[1:]]
print("returned", main())
"""


@pytest.mark.parametrize("args, env", [
    (["-E", "clean.c", "-o", "clean.i"], {}),
    (["-c", "clean.c", "-o", "clean.o"], {"MPICC_WRAP_DISABLE": "1"}),
], ids=["preprocess-only", "disabled"])
def test_pass_through_runs_do_not_load_the_pipeline(args: list[str], env: dict[str, str],
                                                   tmp_path: Path) -> None:
    (tmp_path / "clean.c").write_text(CLEAN)
    full = {**os.environ, "MPICC_WRAP_CACHE": str(tmp_path / "cache"),
            "MPICC_WRAP_CC": shlex.join(mpirun.mpicc()), **env}
    out = subprocess.run([sys.executable, "-c", PASS_PROBE, *args], cwd=tmp_path, env=full,
                         timeout=120, capture_output=True, text=True)
    assert out.stdout.split() == ["exec"], out.stderr
    real = subprocess.run([sys.executable, "-c", RUN, *args], cwd=tmp_path, env=full,
                          timeout=120, capture_output=True, text=True)
    assert real.returncode == 0, real.stderr
    assert (tmp_path / args[-1]).is_file()


RUN = "import sys; from mpicc_wrap.driver.cli import main; sys.exit(main())"


@pytest.mark.parametrize("env", [{}, {"MPICC_WRAP_DISABLE": "1"}], ids=["-E", "disabled"])
def test_a_pass_through_gives_the_compilers_status_and_messages(env: dict[str, str],
                                                                 tmp_path: Path) -> None:
    """The exec'd compiler's failure is the user's: same status, same message."""
    args = ["-E", "missing.c"] if not env else ["-c", "missing.c"]
    full = {**os.environ, "MPICC_WRAP_CC": shlex.join(mpirun.mpicc()), **env}
    plain = subprocess.run([*mpirun.mpicc(), *args], cwd=tmp_path, timeout=120,
                           capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-c", RUN, *args], cwd=tmp_path, env=full,
                          timeout=120, capture_output=True, text=True)
    assert plain.returncode != 0
    assert ours.returncode == plain.returncode
    assert "missing.c" in ours.stderr and "Traceback" not in ours.stderr
