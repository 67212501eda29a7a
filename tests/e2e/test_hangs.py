"""Run-time deadlock diagnosis (MPICC_WRAP_DEADLOCK) on the hang corpus, tests/hangs.

Each program carries its expectation inline (see tests/hangs/README.md):
``// hang: deadlock`` programs must end, within the hang timeout plus 10 s, with exit
code 78, a ``DEADLOCK:`` report naming every ``// expect-deadlock: CALL`` line as
``file:line`` and containing every ``// expect-report: TEXT``, the JSON and DOT files,
and no process left.  ``// hang: correct`` programs (slow, computing, polling) must run
to the end with exit 0 and no report.  Every case runs under the default MPI and under
Open MPI.  ``// hang: dynamic-check`` programs (run with ``MPICC_WRAP_CHECK=all``)
must abort with the checker's code 77 and a ``DYNAMIC-CHECK:`` report naming every
``// expect-dynamic: CALL`` line.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import mpirun
import pytest

pytestmark = pytest.mark.mpi

HANGS = Path(__file__).resolve().parent.parent / "hangs"
TIMEOUT = 2.0  # MPICC_WRAP_HANG_TIMEOUT in these tests
DEADLOCK_CODE = 78
CHECK_CODE = 77
SLACK = 10.0  # a report must come within the timeout plus this


@dataclass
class Program:
    name: str
    files: list[Path]
    verdict: str  # "deadlock", "dynamic-check" or "correct"
    nprocs: list[int]
    env: dict[str, str] = field(default_factory=dict)
    sites: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, call)
    texts: list[str] = field(default_factory=list)
    cflags: list[str] = field(default_factory=lambda: ["-g", "-O0"])


def _parse(name: str, files: list[Path]) -> Program:
    prog = Program(name, files, "correct", [2, 3, 4])
    for path in files:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for key, value in re.findall(r"//\s*([a-z-]+):\s*(.*?)\s*$", line):
                if key == "hang":
                    prog.verdict = value
                elif key == "nprocs":
                    prog.nprocs = [int(v) for v in value.split()]
                elif key == "env":
                    k, _, v = value.partition("=")
                    prog.env[k] = v
                elif key in ("expect-deadlock", "expect-dynamic"):
                    prog.sites.append((path.name, lineno, value))
                elif key == "expect-report":
                    prog.texts.append(value)
                elif key == "cflags":
                    prog.cflags = value.split()
    return prog


def discover() -> list[Program]:
    out = []
    for entry in sorted(HANGS.iterdir()):
        if entry.suffix == ".c":
            out.append(_parse(entry.stem, [entry]))
        elif entry.is_dir():
            out.append(_parse(entry.name, sorted(entry.glob("*.c"))))
    return out


PROGRAMS = discover()
CASES = [pytest.param(p, n, id=f"{p.name}-n{n}") for p in PROGRAMS for n in p.nprocs]


def build(prog: Program, out: Path) -> Path:
    """mpicc-wrap builds (with ``-g -O0``, or the program's ``// cflags:``) and links; a
    file marked ``// compile: mpicc`` is compiled by the plain MPI compiler (a TU
    mpicc-wrap never saw)."""
    exe = out / prog.name
    objs = []
    for src in prog.files:
        plain = "// compile: mpicc" in src.read_text()
        cc = mpirun.mpicc() if plain else [mpirun.tool("mpicc-wrap")]
        obj = out / (src.stem + ".o")
        done = mpirun.run([*cc, *prog.cflags, "-c", str(src), "-o", str(obj)], timeout=180)
        assert done.returncode == 0, done.output
        objs.append(str(obj))
    done = mpirun.run([mpirun.tool("mpicc-wrap"), *prog.cflags, *objs, "-o", str(exe)],
                      timeout=180)
    assert done.returncode == 0, done.output
    return exe


_built: dict[tuple[str, str], Path] = {}


def executable(prog: Program, impl: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    key = (prog.name, impl)
    if key not in _built:
        _built[key] = build(prog, tmp_path_factory.mktemp(f"{prog.name}-{impl}"))
    return _built[key]


def _left_running(exe: Path, grace: float = 5.0) -> str:
    """Processes of ``exe`` still alive ``grace`` s after mpiexec returned (after an
    abort mpiexec may return while the process manager is still killing ranks)."""
    deadline = time.monotonic() + grace
    while True:
        found = subprocess.run(["pgrep", "-af", str(exe)], capture_output=True, text=True,
                               check=False).stdout.strip()
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


@pytest.mark.parametrize(("prog", "nprocs"), CASES)
def test_hang_corpus(prog: Program, nprocs: int, mpi_impl: str,
                     tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    exe = executable(prog, mpi_impl, tmp_path_factory)
    env = {"MPICC_WRAP_DEADLOCK": "1", "MPICC_WRAP_HANG_TIMEOUT": str(TIMEOUT),
           "MPICC_WRAP_DEADLOCK_DIR": str(tmp_path), **prog.env}
    limit = TIMEOUT + SLACK + (10.0 if nprocs > 4 else 0.0)  # 16 ranks start slowly here
    stops = prog.verdict != "correct"
    start = time.monotonic()
    ran = mpirun.mpiexec(exe, nprocs, timeout=limit if stops else 60, cwd=tmp_path, env=env)
    elapsed = time.monotonic() - start
    left = _left_running(exe)
    assert not left, left
    if not stops:
        assert not ran.timed_out and ran.returncode == 0, ran.output
        assert "DEADLOCK" not in ran.output and "DYNAMIC-CHECK" not in ran.output, ran.output
        return
    prefix = "DEADLOCK:" if prog.verdict == "deadlock" else "DYNAMIC-CHECK:"
    assert not ran.timed_out, f"no report within {limit} s:\n{ran.output}"
    assert ran.returncode == (DEADLOCK_CODE if prefix == "DEADLOCK:" else CHECK_CODE), ran.output
    report = [line for line in ran.stderr.splitlines() if line.startswith(prefix)]
    assert report, ran.output
    text = "\n".join(report)
    for fname, line, call in prog.sites:
        assert any(f"{fname}:{line}" in r and call in r for r in report), (
            f"{call} at {fname}:{line} not named:\n{text}")
    for want in prog.texts:
        assert want in text, f"{want!r} missing:\n{text}"
    if prefix == "DEADLOCK:":
        graph = json.loads((tmp_path / "mpiccwrap-deadlock.json").read_text())
        assert len(graph["ranks"]) == nprocs
        assert any(r["deadlocked"] for r in graph["ranks"])
        assert (tmp_path / "mpiccwrap-deadlock.dot").read_text().startswith("digraph")
    print(f"{prog.name} -n {nprocs}: report after {elapsed:.1f} s")


@pytest.mark.parametrize("switch", ["default", "0"])
def test_diagnosis_is_on_by_default_and_switches_off(
        switch: str, mpi_impl: str, tmp_path_factory: pytest.TempPathFactory,
        tmp_path: Path) -> None:
    prog = next(p for p in PROGRAMS if p.name == "recv_recv_cycle")
    exe = executable(prog, mpi_impl, tmp_path_factory)
    env = {"MPICC_WRAP_HANG_TIMEOUT": "1", "MPICC_WRAP_DEADLOCK_DIR": str(tmp_path)}
    if switch == "0":
        env["MPICC_WRAP_DEADLOCK"] = "0"
    ran = mpirun.mpiexec(exe, 2, timeout=8, cwd=tmp_path, env=env)
    if switch == "0":  # the plain hang: mpirun.py kills it
        assert ran.timed_out and "DEADLOCK" not in ran.output, ran.output
    else:
        assert not ran.timed_out and ran.returncode == DEADLOCK_CODE, ran.output
        assert "DEADLOCK: cycle 0 -> 1 -> 0" in ran.stderr
    left = _left_running(exe)
    assert not left, left
