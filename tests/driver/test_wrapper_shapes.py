"""The command-line shape corpus: every shape in tests/shapes/shapes.txt is run with
mpicc and with mpicc-wrap (also with every TU forced through the rewritten-text
path) in separate directories; exit codes, produced files, depfiles, text outputs,
stdout/stderr and the built programs' output must agree."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from mpirun import mpicc, mpiexec, run, tool
from paths import SHAPES

from mpicc_wrap.analysis.summaries import INDEX, SIDE_SUFFIX
from mpicc_wrap.driver import cmdline

HERE = SHAPES
OURS = re.compile(r"^-W(no-|error=|no-error=)?mpi-")
TEXT_SUFFIXES = (".d", ".dep", ".i", ".s")


def load_shapes() -> list[tuple[str, list[list[str]], list[str]]]:
    shapes = []
    for line in (HERE / "shapes.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, rest = line.split(":", 1)
        body, _, runner = rest.partition("=>")
        steps = [shlex.split(s) for s in body.split(" ; ")]
        shapes.append((name.strip(), steps, shlex.split(runner)))
    return shapes


SHAPES = load_shapes()
WRAPPERS = {
    "wrap": lambda: [tool("mpicc-wrap")],
    "rewrite": lambda: [sys.executable, str(HERE / "rewrite_wrap.py")],
}


def _has_c_source(steps: list[list[str]]) -> bool:
    return any(s[0] == "CC" and cmdline.parse(s[1:]).sources for s in steps)


def _params() -> list[object]:
    out: list[object] = []
    for name, steps, runner in SHAPES:
        for wrapper in WRAPPERS:
            marks = [pytest.mark.mpi] if runner[:1] == ["mpirun"] else []
            if wrapper == "rewrite" and not _has_c_source(steps):
                continue
            out.append(pytest.param(steps, runner, wrapper, id=f"{name}-{wrapper}",
                                    marks=marks))
    return out


def build(steps: list[list[str]], cc: list[str], workdir: Path, ours: bool) -> list[str]:
    """Run the steps in ``workdir``; a transcript of codes and normalised output."""
    shutil.copytree(HERE / "src", workdir)
    log = []
    for step in steps:
        stdin = None
        if "<" in step:
            k = step.index("<")
            stdin = (workdir / step[k + 1]).read_text(encoding="utf-8")
            step = step[:k]
        if step[0] == "CC":
            args = [a for a in step[1:] if ours or not OURS.match(a)]
            cmd = cc + args
        else:
            cmd = step
        r = run(cmd, cwd=workdir, stdin=stdin, timeout=120)
        assert not r.timed_out, cmd
        err = "".join(line for line in r.stderr.splitlines(keepends=True)
                      if not line.startswith("mpicc-wrap: note:"))
        log.append(f"$ {step}\nexit {r.returncode}\n{r.stdout}\n--stderr--\n{err}")
    return [norm(entry, workdir) for entry in log]


TEMP_OBJECT = re.compile(r"/tmp/(cc\w{6}|mpicc-wrap-\w+/\d+-[^:\s]*)\.o\b")


def norm(text: str, workdir: Path) -> str:
    """Text with the work directory and the linker's temporary object names (random
    under gcc and under mpicc-wrap alike) replaced by placeholders."""
    return TEMP_OBJECT.sub("<TMP>.o", text.replace(str(workdir), "<DIR>"))


def produced(workdir: Path) -> dict[str, str]:
    """Produced files -> normalised contents for text outputs, '' otherwise."""
    out = {}
    for path in sorted(workdir.rglob("*")):
        rel = str(path.relative_to(workdir))
        if rel.endswith(SIDE_SUFFIX) or INDEX in path.parts:
            continue  # summaries beside objects: mpicc-wrap's own, documented output
        if path.is_file() and not (HERE / "src" / rel).exists():
            text = path.read_text(errors="replace") if rel.endswith(TEXT_SUFFIXES) else ""
            out[rel] = norm(text, workdir)
    return out


def program_output(runner: list[str], workdir: Path) -> str:
    if not runner:
        return ""
    exe = workdir / runner[1]
    if not exe.exists():
        return "<not built>"
    if runner[0] == "mpirun":
        r = mpiexec(exe, 2, runner[2:], timeout=60, cwd=workdir)
        return f"exit {r.returncode} timeout {r.timed_out}\n" + "".join(
            sorted(r.stdout.splitlines(keepends=True)))
    r = run([str(exe), *runner[2:]], cwd=workdir, timeout=30)
    return f"exit {r.returncode}\n{r.stdout}"


@pytest.mark.parametrize("steps,runner,wrapper", _params())
def test_shape(steps: list[list[str]], runner: list[str], wrapper: str,
               tmp_path: Path) -> None:
    ref_dir, wrap_dir = tmp_path / "ref", tmp_path / "wrap"
    ref_log = build(steps, mpicc(), ref_dir, ours=False)
    wrap_log = build(steps, WRAPPERS[wrapper](), wrap_dir, ours=True)
    assert wrap_log == ref_log
    assert produced(wrap_dir) == produced(ref_dir)
    assert program_output(runner, wrap_dir) == program_output(runner, ref_dir)
