"""benchmarks/compile_overhead.py --cache cold|warm: cold clears only the analysis
result cache before each build (the header cache persists), warm keeps both."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paths import BENCHMARKS

sys.path.insert(0, str(BENCHMARKS))

import compile_overhead  # noqa: E402


def fake_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, bool]]:
    """Replace copying and timing; record (results present, headers present) per build,
    then leave both caches filled as a real wrapped build would."""
    seen: list[tuple[bool, bool]] = []

    def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
        cache = Path(env["MPICC_WRAP_CACHE"])
        seen.append(((cache / "results").is_dir(), (cache / "headers").is_dir()))
        for sub in ("results", "headers"):
            (cache / sub).mkdir(parents=True, exist_ok=True)
        return 1.0

    monkeypatch.setattr(compile_overhead, "fresh_copy", lambda *args: tmp_path / "project")
    monkeypatch.setattr(compile_overhead, "timed", timed)
    return seen


@pytest.mark.parametrize("mode, expected", [("cold", (False, True)), ("warm", (True, True))])
def test_result_cache_mode(mode: str, expected: tuple[bool, bool], tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    seen = fake_builds(tmp_path, monkeypatch)
    builder = compile_overhead.Builder(tmp_path, 2, False, mode)
    builder.build("mpicc-wrap", "w0")
    builder.build("mpicc-wrap", "w1")
    assert seen[1] == expected


def test_wrapped_builds_write_bytecode_outside_the_tree(tmp_path: Path) -> None:
    env = compile_overhead.Builder(tmp_path, 2, False).env("w0")
    assert env["PYTHONDONTWRITEBYTECODE"] == ""
    assert env["PYTHONPYCACHEPREFIX"].startswith(str(tmp_path))


def test_cpu_line_reports_medians_and_the_median_ratio() -> None:
    line = compile_overhead.cpu_line({"mpicc": [1.0, 2.0, 1.0], "mpicc-wrap": [3.0, 3.0, 2.0]})
    assert line == "cpu (user+sys) per build: mpicc 1.00 s, mpicc-wrap 3.00 s, ratio 2.00"
    assert compile_overhead.cpu_line({"mpicc": [1.0]}) == "cpu (user+sys): n/a"


def test_build_records_cpu_per_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_builds(tmp_path, monkeypatch)
    builder = compile_overhead.Builder(tmp_path, 2, False)
    builder.build("/bin/mpicc", "c0")
    builder.build("/x/mpicc-wrap", "w0")
    assert sorted(builder.cpu) == ["mpicc", "mpicc-wrap"]
    assert all(len(v) == 1 and v[0] >= 0 for v in builder.cpu.values())
