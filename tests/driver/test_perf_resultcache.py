"""The analysis result cache (mpicc_wrap.driver.resultcache, wired in stage.run): a hit skips
parsing and analysis but prints, suppresses and reports exactly as a miss."""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpirun
import pytest
from paths import CORPUS

from mpicc_wrap.analysis import unit
from mpicc_wrap.driver import resultcache, stage
from mpicc_wrap.driver.stage import StageResult
from mpicc_wrap.frontend import parser
from mpicc_wrap.model import FunctionSummary
from mpicc_wrap.report import jsonl
from mpicc_wrap.switches import Options

BUGGY = "buggy_do_while_rank.c"
WARNED_LINE = 13  # the MPI_Barrier line carrying the expect-warning annotation


def preprocess(path: Path) -> str:
    return subprocess.run([*mpirun.mpicc(), "-E", path.name], capture_output=True, text=True,
                          timeout=60, check=True, cwd=path.parent).stdout


@pytest.fixture()
def program(tmp_path: Path) -> Path:
    path = tmp_path / BUGGY
    path.write_text((CORPUS / BUGGY).read_text())
    return path


def options(tmp_path: Path, **changes: object) -> Options:
    return Options(cache=str(tmp_path / "cache"), **changes)  # type: ignore[arg-type]


def run(text: str, path: Path, opts: Options,
        external: dict[str, FunctionSummary] | None = None) -> tuple[StageResult, str]:
    out = io.StringIO()
    result = stage.run(text, str(path), mpirun.mpicc(), opts, external, {}, out)
    return result, out.getvalue()


def forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise AssertionError("a cache hit must not parse")
    monkeypatch.setattr(parser, "parse", fail)


def entries(opts: Options) -> list[Path]:
    folder = Path(resultcache.directory(opts))
    return sorted(folder.glob("*" + resultcache.SUFFIX)) if folder.is_dir() else []


def test_hit_reprints_identical_diagnostics_without_parsing(
        program: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, opts = preprocess(program), options(tmp_path)
    first, printed = run(text, program, opts)
    assert "warning: MPI_Barrier" in printed and first.text is not None
    forbid_parsing(monkeypatch)
    second, reprinted = run(text, program, opts)
    assert reprinted == printed
    assert second.text == first.text and second.errors == first.errors
    assert second.summaries == first.summaries
    assert second.analysis is not None and first.analysis is not None
    assert second.analysis.deferred == first.analysis.deferred


def test_hit_rereads_suppression_markers_from_the_source(
        program: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(program.parent)  # locations name the file relative to here
    text, opts = preprocess(program), options(tmp_path)
    assert run(text, program, opts)[1]
    lines = program.read_text().splitlines()
    lines[WARNED_LINE - 1] += " /* mpicc-wrap: ignore */"
    program.write_text("\n".join(lines) + "\n")
    assert preprocess(program) == text  # a comment does not change the key...
    forbid_parsing(monkeypatch)
    assert "MPI_Barrier" not in run(text, program, opts)[1]  # ...but is honoured


def test_hit_escalates_with_werror_and_writes_the_json_report(
        program: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = tmp_path / "report.jsonl"
    text, opts = preprocess(program), options(tmp_path, report=str(report))
    run(text, program, opts)
    forbid_parsing(monkeypatch)
    result, printed = run(text, program, options(tmp_path, report=str(report), werror=True))
    assert result.errors == 1 and "error: MPI_Barrier" in printed
    first, second = jsonl.read_report(str(report))
    assert first["findings"][0]["message"] == second["findings"][0]["message"]


def test_corrupt_entry_is_ignored_and_replaced(program: Path, tmp_path: Path) -> None:
    text, opts = preprocess(program), options(tmp_path)
    _, printed = run(text, program, opts)
    [entry] = entries(opts)
    entry.write_bytes(b"\x80\x05garbage")
    _, reprinted = run(text, program, opts)
    assert reprinted == printed
    key = entry.name.removesuffix(resultcache.SUFFIX)
    assert resultcache.load(opts, key) is not None


def test_switch_off_neither_reads_nor_writes(program: Path, tmp_path: Path) -> None:
    assert not Options.from_env({"MPICC_WRAP_RESULT_CACHE": "0"}).result_cache
    assert Options.from_env({}).result_cache
    text, opts = preprocess(program), options(tmp_path, result_cache=False)
    run(text, program, opts)
    assert entries(opts) == []


def test_key_covers_external_summaries_instrumenting_and_text(tmp_path: Path) -> None:
    opts = options(tmp_path)
    summary = FunctionSummary("helper", "h.c", 3, True, ["MPI_Barrier"], True)
    cc = mpirun.mpicc()
    base = resultcache.key("int x;", "a.c", cc, opts, {})
    assert base == resultcache.key("int x;", "a.c", cc, opts, {})
    named = resultcache.key("int helper;", "a.c", cc, opts, {})
    assert named != resultcache.key("int helper;", "a.c", cc, opts, {"helper": summary})
    # A summary of a function the text never names cannot matter (make -j order varies).
    assert base == resultcache.key("int x;", "a.c", cc, opts, {"helper": summary})
    assert base != resultcache.key("int x;", "a.c", cc, options(tmp_path, instrument=False),
                                   {})
    assert base != resultcache.key("int y;", "a.c", cc, opts, {})
    assert base != resultcache.key("int x;", "b.c", cc, opts, {})


def test_eviction_drops_least_recently_used_entries(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    for age, name in enumerate(("old", "mid", "new")):
        path = folder / (name + resultcache.SUFFIX)
        path.write_bytes(b"x" * 100)
        os.utime(path, ns=(age * 10**9, age * 10**9))
    resultcache.evict(str(folder), 250)
    assert sorted(p.stem for p in folder.iterdir()) == ["mid", "new"]


def test_rebuild_through_the_wrapper_hits_and_prints_the_same(program: Path,
                                                              tmp_path: Path) -> None:
    """Two separate mpicc-wrap processes: the second loads the entry (its mtime is
    refreshed only by a successful load) and prints the same warnings.  A JSON report
    keeps the direct cache (test_direct_cache.py) out of the way."""
    env = {**os.environ, "MPICC_WRAP_CACHE": str(tmp_path / "cache"),
           "MPICC_WRAP_CC": shlex.join(mpirun.mpicc()),
           "MPICC_WRAP_REPORT": str(tmp_path / "report.jsonl")}
    env.pop("MPICC_WRAP_DEBUG", None)
    cmd = [mpirun.tool("mpicc-wrap"), "-c", program.name, "-o", "out.o"]

    def build() -> str:
        done = subprocess.run(cmd, cwd=program.parent, env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stderr

    first = build()
    [entry] = entries(options(tmp_path))
    os.utime(entry, ns=(0, 0))
    assert build() == first and "warning: MPI_Barrier" in first
    assert entries(options(tmp_path)) == [entry]
    assert entry.stat().st_mtime_ns > 0
    assert (program.parent / "out.o").is_file()


@pytest.mark.parametrize("odd", [threading.Lock, lambda: (lambda: 0)],
                         ids=["uncopyable", "unpicklable"])
def test_an_analysis_that_cannot_be_stored_still_builds(
        odd: Callable[[], object], program: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = unit.analyse

    def with_odd_field(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        result.deferred.append(odd())
        return result
    monkeypatch.setattr(unit, "analyse", with_odd_field)
    text, opts = preprocess(program), options(tmp_path)
    result, printed = run(text, program, opts)
    assert "warning: MPI_Barrier" in printed and result.text is not None
    assert entries(opts) == []
