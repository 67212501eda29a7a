"""The benchmark scripts' own logic: alternation, ratio table, report parsing.
(The timings themselves are printed, never asserted.)"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from paths import BENCHMARKS, CORPUS

sys.path.insert(0, str(BENCHMARKS))

import _common  # noqa: E402
import compile_overhead  # noqa: E402
import findings_diff  # noqa: E402
import realcode_differential  # noqa: E402
import run_overhead  # noqa: E402


def test_alternate_runs_variants_in_turn_and_logs_ratios() -> None:
    calls: list[str] = []
    fake = {"a": [1.0, 2.0, 4.0], "b": [3.0, 2.0, 2.0]}

    def variant(name: str) -> Callable[[int], float]:
        def run_once(i: int) -> float:
            calls.append(f"{name}{i}")
            return fake[name][i]
        return run_once

    logged: list[str] = []
    series = _common.alternate({"a": variant("a"), "b": variant("b")}, 3, logged.append)
    assert calls == ["a0", "b0", "a1", "b1", "a2", "b2"]
    assert series["b"].times == [3.0, 2.0, 2.0]
    assert logged[0].endswith("ratio  3.00") and logged[2].endswith("ratio  0.50")
    table = _common.ratio_table(series, "a").splitlines()
    assert table[1].split() == ["a", "2.000", "1.00"]
    assert table[2].split() == ["b", "2.000", "1.00"]  # median of ratios 3, 1, 0.5


def test_timed_reports_failures_as_bench_errors(tmp_path: Path) -> None:
    assert _common.timed(["true"], tmp_path) >= 0.0
    with pytest.raises(_common.BenchError, match="exit 3"):
        _common.timed(["sh", "-c", "exit 3"], tmp_path)


def _report(path: Path, *stats: dict[str, float]) -> Path:
    lines = [json.dumps({"file": f"f{i}.c", "stats": s}) for i, s in enumerate(stats)]
    path.write_text("\n".join([*lines, "{torn"]) + "\n")
    return path


def test_throughput_sums_report_records(tmp_path: Path) -> None:
    report = _report(tmp_path / "r", {"user_lines": 100, "analysis_seconds": 0.5},
                     {"user_lines": 50, "analysis_seconds": 0.25})
    assert compile_overhead.analysis_throughput(report) == (150, 0.75)
    assert compile_overhead.analysis_throughput(tmp_path / "missing") is None
    assert "200 user lines/s" in compile_overhead.throughput_line([(150, 0.75)])
    assert compile_overhead.throughput_line([]).startswith("analysis throughput: n/a")


def test_instrumented_sites_counts_report(tmp_path: Path) -> None:
    report = _report(tmp_path / "r", {"instrumented_sites": 1, "collective_sites": 4},
                     {"instrumented_sites": 0, "collective_sites": 3})
    assert run_overhead.instrumented_sites(report) == "1 of 7 collective sites"
    assert run_overhead.instrumented_sites(tmp_path / "missing") == "n/a"


def test_fresh_copy_leaves_build_products_out(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "build").mkdir(parents=True)
    (src / "build" / "x.o").write_text("")
    (src / "a.c").write_text("int a;\n")
    copy = _common.fresh_copy(src, tmp_path, "copy")
    assert sorted(p.name for p in copy.iterdir()) == ["a.c"]


def test_compile_builder_environment(tmp_path: Path) -> None:
    """--cold-cache gives each timed build its own wrapper cache; otherwise one cache
    is shared (and warmed by an untimed build)."""
    warm = compile_overhead.Builder(tmp_path, 2, cold_cache=False)
    assert warm.env("a")["MPICC_WRAP_CACHE"] == warm.env("b")["MPICC_WRAP_CACHE"]
    cold = compile_overhead.Builder(tmp_path, 2, cold_cache=True)
    assert cold.env("a")["MPICC_WRAP_CACHE"] != cold.env("b")["MPICC_WRAP_CACHE"]
    assert warm.env("a")["MPICC_WRAP_REPORT"].startswith(str(tmp_path))


def test_findings_diff_reads_the_compiles_of_one_c_source(tmp_path: Path) -> None:
    tsv = tmp_path / "p.compiles.tsv"
    tsv.write_text("\n".join([
        "ok\t1\t2\t-\t/src/a\t-DX=1 -I. -MT a.lo -MD -MP -MF .deps/a.Tpo -c a.c -o a.o",
        "ok\t1\t2\t-\t/src/a\t-DX=1 -c a.c -fPIC -o .libs/a.o",  # the same TU again
        "fail\t1\t2\t-\t/src/a\t-c b.c -o b.o",
        "ok\t1\t2\t-\t/src/a\ta.o b.o -o prog",  # a link
        "ok\t1\t2\t-\t/src/a\t-DX=1 -DMPI -I. -c a.c -o m.o",  # another TU of a.c
        "torn line"]))
    assert findings_diff.compiles(tsv) == [
        findings_diff.Compile("/src/a", "a.c", ["-DX=1", "-I."], "/src/a/a.c"),
        findings_diff.Compile("/src/a", "a.c", ["-DX=1", "-DMPI", "-I."], "/src/a/a.c [2]")]


def test_findings_diff_lists_what_one_version_lacks() -> None:
    before = {"a.c": ["a.c:3:MPI_Barrier", "a.c:9:MPI_Bcast"], "b.c": ["skipped: X"]}
    after = {"a.c": ["a.c:9:MPI_Bcast", "a.c:12:MPI_Reduce"], "b.c": []}
    assert findings_diff.differences(before, after) == [
        "- a.c: a.c:3:MPI_Barrier", "+ a.c: a.c:12:MPI_Reduce", "- b.c: skipped: X"]
    assert findings_diff.total(before) == 2 and findings_diff.total(after) == 2


def test_findings_diff_digest_ignores_timings_and_sees_summaries() -> None:
    """Two analyses of a TU that differ only in their statistics have one digest; a
    summary that differs changes it, and the TU is listed as changed."""
    from mpicc_wrap.model import FunctionSummary, Stats, TUAnalysis

    def result(seconds: float, returns_rank: bool) -> TUAnalysis:
        summary = FunctionSummary("f", "a.c", 3, False, [], True, returns_rank)
        return TUAnalysis([], [], {"f": summary}, Stats(analysis_seconds=seconds))

    first = findings_diff.digest(result(0.5, False))
    assert findings_diff.digest(result(2.0, False)) == first
    other = findings_diff.digest(result(0.5, True))
    assert other != first
    assert findings_diff.changed_results({"a.c": first, "b.c": first},
                                         {"a.c": first, "b.c": other}) == ["b.c"]
    assert findings_diff.changed_results({"a.c": first}, {}) == ["a.c"]


def test_findings_diff_digest_leaves_out_empty_fields() -> None:
    """A version that adds a summary field compares equal where the field is empty,
    as an older version without it would, and differs where the field holds
    something; an empty field in a nested dictionary is left out too."""
    from mpicc_wrap.model import FunctionSummary, Stats, TUAnalysis

    def result(**kw: object) -> TUAnalysis:
        summary = FunctionSummary("f", "a.c", 3, False, [], True, **kw)  # type: ignore[arg-type]
        return TUAnalysis([], [], {"f": summary}, Stats())

    empty = findings_diff.digest(result())
    assert findings_diff.digest(result(init_writes=[])) == empty
    assert findings_diff.digest(result(init_writes=["g:h:0"])) != empty
    assert findings_diff.digest(result(rank_writes=["g:h:0"])) != empty
    assert findings_diff._filled({"a": {"b": [], "c": [1]}, "d": {}}) == {"a": {"c": [1]}}


def test_findings_diff_times_are_sums_of_per_tu_medians() -> None:
    """A TU one run could not parse has no time in that run: it is left out of both
    versions' sums."""
    def run(a: float, b: float | None) -> findings_diff.Found:
        parse = {"a.c": a} if b is None else {"a.c": a, "b.c": b}
        return findings_diff.Found({}, parse, {t: 1.0 for t in parse}, {})
    runs = {"before": [run(4, 2), run(6, 9), run(5, None)], "after": [run(1, 1), run(3, 1)]}
    assert findings_diff.median_times(runs["after"], "parse", {"a.c", "b.c"}) == 3
    assert findings_diff.time_row("p", runs) == (
        "p              parse     5.0 ->     2.0 s (2.50x), analysis     1.0 ->     1.0 s"
        " (1.00x)")
    runs["after"][1].analysis["a.c"] = 5.0  # a.c's median after: 3.0 (b.c is left out)
    assert findings_diff.spread_row("p", runs) == (
        "p              analysis s per TU med/p99/max 1.00/1.00/1.00 -> 3.00/3.00/3.00")


def test_differential_reads_sundials_example_lists(tmp_path: Path) -> None:
    """Both tuple layouts of SUNDIALS' example lists; only what was built, runs in
    parallel (a task count) and is in the release's tests (not ``develop``) is kept."""
    lists = tmp_path / "examples" / "cvode" / "parallel" / "CMakeLists.txt"
    lists.parent.mkdir(parents=True)
    lists.write_text("\n".join([
        '# Example lists are tuples "name\\;nodes\\;tasks\\;type"',
        'set(X "cvA\\;2\\;4\\;exclude-single"',
        '  "cvB\\;\\;1\\;4\\;exclude-single\\;default")',
        'list(APPEND X "cvC\\;--monitor --tf 3\\;1\\;2\\;\\;2")',
        'list(APPEND X "cvD\\;--long\\;1\\;2\\;develop\\;2")',  # not released
        '  "cvSerial\\;1000 0\\;\\;\\;"',  # no task count: sequential
        '  "cvMissing\\;2\\;4\\;exclude-single"']))  # not built
    built = tmp_path / "build-rc" / "examples" / "cvode" / "parallel"
    built.mkdir(parents=True)
    for name in ("cvA", "cvB", "cvC", "cvD", "cvSerial"):
        (built / name).write_text("")
    exe = "build-rc/examples/cvode/parallel/"
    assert realcode_differential.sundials_programs(tmp_path) == [
        realcode_differential.Program(exe + "cvA", 4, ()),
        realcode_differential.Program(exe + "cvB", 4, ()),
        realcode_differential.Program(exe + "cvC", 2, ("--monitor", "--tf", "3"))]


def test_differential_names_the_first_difference() -> None:
    run = _common.mpirun.Run
    plain = run(0, "a\nb\nc\n", "", False)
    assert realcode_differential.first_difference(plain, run(0, "a\nB\nc\n", "", False)) \
        == "line 2: 'b' -> 'B'"
    assert realcode_differential.first_difference(plain, run(0, "a\nb\n", "", False)) \
        == "3 -> 2 lines"
    assert realcode_differential.first_difference(plain, run(1, "", "boom\n", False)) \
        == "exit 0 -> 1: boom"


def test_whole_program_reaches_the_order_free_answer() -> None:
    """A caller analysed before its callee's summary exists misses what the callee
    writes; the fixed point over both TUs finds it, then stops once stable."""
    import whole_program
    from analysis_helpers import preprocess

    from mpicc_wrap.analysis.summaries import identifiers

    program = CORPUS / "buggy_xtu_static_loader_on_root"
    units = []
    for name in ("b_main.c", "a_setup.c"):
        text = preprocess((program / name).read_text(), name)
        units.append(whole_program.Unit(findings_diff.Compile("/", name, [], name), text,
                                        frozenset(identifiers(text))))
    runs = whole_program.fixed_point(units, 5)
    assert runs[0].found == {"b_main.c": 0, "a_setup.c": 0}  # setup(): the bottom summary
    assert runs[-1].stable and runs[-1].found == {"b_main.c": 1, "a_setup.c": 0}
    assert len(runs) == 3  # bottom summaries, the real ones, the same again: stable


def test_findings_diff_reads_the_summaries_of_a_build(tmp_path: Path) -> None:
    """Every side file under the folder, at any depth; a field this version does not
    know is left out (an older version reads a newer build); one summary per name, the
    one that executes collectives winning a clash, as a compile merges them."""
    def side(name: str, collectives: bool) -> dict[str, object]:
        return {"name": name, "file": "a.c", "line": 1, "has_collectives": collectives,
                "sequence": [], "fixed": True, "a_field_from_the_future": 1}

    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "a.o.mpicc-wrap.json").write_text(
        json.dumps({"summaries": [side("f", False), side("g", False)]}))
    (tmp_path / "d" / "e" / "b.o.mpicc-wrap.json").write_text(
        json.dumps({"summaries": [side("f", True)]}))
    (tmp_path / "d" / "broken.o.mpicc-wrap.json").write_text("{")
    found = findings_diff.side_summaries(tmp_path)
    assert sorted(found) == ["f", "g"] and found["f"].has_collectives
    assert findings_diff.side_summaries(None) == {}
