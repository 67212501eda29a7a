"""The README opens with the install+demo and install+test commands, the latter
identical to what .ci/run runs, and documents every environment switch."""

from __future__ import annotations

import re
from pathlib import Path

import mpirun
import pytest

from mpicc_wrap.switches import SWITCHES, Switch

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CI_STEPS = ("python3 -m venv", ".venv/bin/pip install", ".venv/bin/python -m pytest")


def _code_blocks(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"```(?:sh)?\n(.*?)```", text, re.S)]


def _ci_commands() -> list[str]:
    """The venv, install and pytest lines of .ci/run, in order."""
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    return [line for line in lines if line.startswith(CI_STEPS)]


def test_readme_opens_with_demo_then_test_command() -> None:
    first, second = _code_blocks(README)[:2]
    demo = first.split(" && ")
    assert demo[0] == "python3 -m venv .venv"
    assert re.fullmatch(r"\.venv/bin/pip install (-q )?'\.\[mpi\]'", demo[1])
    assert demo[2] == "PATH=$PWD/.venv/bin:$PATH sh examples/demo.sh"
    assert second.split(" && ") == _ci_commands()


def test_ci_runs_three_steps() -> None:
    """Guards the comparison above against .ci/run changing shape unnoticed."""
    assert [c.split()[0] for c in _ci_commands()] == ["python3", ".venv/bin/pip",
                                                       ".venv/bin/python"]


@pytest.mark.mpi
def test_demo_warns_then_stops_the_run(tmp_path: Path) -> None:
    """examples/demo.sh (the README's first command): the compile warning, then the
    DYNAMIC-CHECK abort instead of a hang; it cleans up its executable."""
    result = mpirun.run(["sh", str(ROOT / "examples" / "demo.sh")], timeout=180,
                        env={"TMPDIR": str(tmp_path)})
    assert result.returncode == 0, result.output
    assert "demo.c:22:9: warning: MPI_Allreduce on MPI_COMM_WORLD" in result.stdout
    assert "[-Wmpi-collective-order]" in result.stdout
    assert "DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD" in result.stdout
    assert "stopped by the run-time check" in result.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("switch", SWITCHES, ids=lambda s: s.name)
def test_every_switch_is_documented(switch: Switch) -> None:
    name = switch.name
    row = next((line for line in README.splitlines() if line.startswith(f"| `{name}`")), "")
    assert row, f"{name} has no row in the README's switch table"
    if switch.default:
        assert row.split("|")[2].strip() == switch.default, f"{name}: default differs"
