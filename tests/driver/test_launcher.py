"""The ``mpicc-wrap`` command is a sh launcher (mpicc_wrap/driver/bin/mpicc-wrap): a
plain pass-through (MPICC_WRAP_DISABLE=1) runs the compiler without starting Python;
everything else reaches the Python driver.

The installed command is found on PATH, as users find it.  A shadow ``mpicc_wrap``
package put first on PYTHONPATH records every start of the driver, so each test sees
whether Python ran; a fake compiler prints its arguments and the recursion marker."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

LAUNCHER = shutil.which("mpicc-wrap")

FAKE_CC = """#!/bin/sh
echo "cc[$MPICC_WRAP_ACTIVE]:" "$@"
"""
SHADOW_MAIN = """import os, sys
with open(os.environ["SHADOW_MARK"], "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
"""

pytestmark = pytest.mark.skipif(LAUNCHER is None, reason="mpicc-wrap is not on PATH")


def _executable(path: Path, text: str) -> str:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def run(tmp_path: Path):
    """Run the launcher with ``args`` and extra environment; (stdout, driver starts)."""
    shadow = tmp_path / "shadow" / "mpicc_wrap"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    (shadow / "__main__.py").write_text(SHADOW_MAIN)
    fake = _executable(tmp_path / "fakecc", FAKE_CC)
    mark = tmp_path / "mark"

    def go(args: list[str], **env: str) -> tuple[str, list[str]]:
        base = {k: v for k, v in os.environ.items()
                if k not in ("MPICC_WRAP_CC", "MPICC", "MPICC_WRAP_ACTIVE",
                             "MPICC_WRAP_DISABLE")}
        full = {**base, "PYTHONPATH": str(shadow.parent), "SHADOW_MARK": str(mark),
                "MPICC_WRAP_CC": fake, **env}
        out = subprocess.run([str(LAUNCHER), *args], env=full, capture_output=True,
                             text=True, timeout=60, cwd=tmp_path)
        starts = mark.read_text().splitlines() if mark.exists() else []
        mark.unlink(missing_ok=True)
        return out.stdout.strip(), starts

    return go


def test_disabled_runs_the_compiler_without_python(run) -> None:
    out, starts = run(["-O2", "-c", "a b.c"], MPICC_WRAP_DISABLE="1")
    assert out == "cc[1]: -O2 -c a b.c"
    assert starts == []


def test_enabled_runs_the_driver(run) -> None:
    out, starts = run(["-c", "x.c"])
    assert starts == ["-c x.c"] and out == ""


@pytest.mark.parametrize("args", [["-Wmpi-collective-order", "-c", "x.c"],
                                  ["@opts"], ["--wrap-cmake-toolchain"]])
def test_what_only_the_driver_understands_goes_to_it(run, args: list[str]) -> None:
    out, starts = run(args, MPICC_WRAP_DISABLE="1")
    assert starts == [" ".join(args)]


def test_other_spellings_of_the_switch_go_to_the_driver(run) -> None:
    assert run(["-c", "x.c"], MPICC_WRAP_DISABLE="Yes")[1] == ["-c x.c"]


def test_compiler_words_and_the_fallback_to_mpicc_variable(run, tmp_path: Path) -> None:
    fake = str(tmp_path / "fakecc")
    out, starts = run(["-c", "x.c"], MPICC_WRAP_DISABLE="1", MPICC_WRAP_CC=f"{fake} -DW=1")
    assert out == "cc[1]: -DW=1 -c x.c" and starts == []
    # MPICC_WRAP_CC naming mpicc-wrap itself is skipped, as the driver skips it
    out, starts = run(["-c", "x.c"], MPICC_WRAP_DISABLE="1", MPICC_WRAP_CC="mpicc-wrap",
                      MPICC=fake)
    assert out == "cc[1]: -c x.c" and starts == []


def test_a_recursive_call_or_a_missing_compiler_goes_to_the_driver(run) -> None:
    assert run(["-c", "x.c"], MPICC_WRAP_DISABLE="1", MPICC_WRAP_ACTIVE="1")[1] == ["-c x.c"]
    assert run(["-c", "x.c"], MPICC_WRAP_DISABLE="1",
               MPICC_WRAP_CC="no-such-compiler-here")[1] == ["-c x.c"]
