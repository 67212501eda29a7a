"""benchmarks/tu_floor.py: which TUs it samples, what it sums, and that a failing
command is an error, not a time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paths import BENCHMARKS

sys.path.insert(0, str(BENCHMARKS))

import tu_floor  # noqa: E402
from _common import BenchError  # noqa: E402
from findings_diff import Compile  # noqa: E402


def _units(n: int) -> list[Compile]:
    return [Compile("/d", f"f{i}.c", ["-O2"], f"/d/f{i}.c") for i in range(n)]


def test_the_sample_is_spread_through_the_build() -> None:
    assert [c.source for c in tu_floor.sample(_units(10), 3)] == ["f0.c", "f3.c", "f6.c"]
    assert len(tu_floor.sample(_units(2), 5)) == 2


def test_sums_of_medians_per_command_after_one_untimed_wrapped_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    per_round = {"plain": [1.0, 3.0, 2.0], "start": [0.1, 0.1, 0.1],
                 "imports": [0.5, 0.4, 0.6], "wrapped": [9.0, 4.0, 5.0, 6.0]}

    def fake(cmd: list[str], cwd: str, env: dict[str, str]) -> float:
        kind = ("wrapped" if cmd[0].endswith("mpicc-wrap") else
                "start" if cmd[-1] == "pass" else
                "imports" if cmd[-1] == tu_floor.IMPORTS else "plain")
        calls.append(kind)
        assert env["MPICC_WRAP_RESULT_CACHE"] == "0"
        return per_round[kind][calls.count(kind) - 1]

    monkeypatch.setattr(tu_floor, "cpu_seconds", fake)
    monkeypatch.setattr(tu_floor, "tool", lambda name: f"/bin/{name}")
    sums = tu_floor.measure(_units(1), 3, {"MPICC_WRAP_RESULT_CACHE": "0"})
    assert calls[0] == "wrapped"  # the header cache's run, not timed
    assert sums == {"plain": 2.0, "start": 0.1, "imports": 0.5, "wrapped": 5.0}


def test_a_failing_command_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(BenchError):
        tu_floor.cpu_seconds([sys.executable, "-c", "raise SystemExit(3)"], str(tmp_path), {})
