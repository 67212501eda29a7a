"""JSON Lines and SARIF reports: content, concurrency under make -j, aggregation, CLI."""

from __future__ import annotations

import dataclasses
import io
import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from mpirun import run, tool
from test_diagnostics import TAG, analysis, finding

from mpicc_wrap.model import Stats
from mpicc_wrap.report import jsonl
from mpicc_wrap.report.emit import emit
from mpicc_wrap.switches import Options

WRITERS = 8
PER_WRITER = 25


def emit_to(options: Options, findings: list, stats: Stats | None = None,
            main_file: str = "src.c", flags: dict[str, str] | None = None) -> str:
    out = io.StringIO()
    emit(main_file, analysis(findings, stats), options, flags or {}, out)
    return out.getvalue()


# -- JSON Lines -----------------------------------------------------------------------

def test_json_record_has_all_fields(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    stats = Stats(collective_sites=4, flagged_sites=1, instrumented_sites=2, functions=3,
                  functions_instrumented=1, user_lines=50, analysis_seconds=0.01)
    emit_to(Options(report=str(path)), [finding()], stats, flags={TAG: "error"})
    [record] = jsonl.read_report(str(path))
    assert record["file"] == "src.c" and record["skipped"] is False
    assert record["cwd"] == os.getcwd()
    assert record["stats"] == dataclasses.asdict(stats)
    [f] = record["findings"]
    assert f["loc"] == {"file": "src.c", "line": 47, "column": 5}
    assert f["conditions"][0]["loc"] == {"file": "src.c", "line": 45, "column": 7}
    assert f["conditions"][0]["text"] == "rank == 0"
    assert f["notes"][0]["message"].startswith("ranks taking this branch")
    assert f["message"] == "MPI_Barrier on MPI_COMM_WORLD may not be reached by all processes"
    assert (f["level"], f["tag"], f["suppressed"], f["function"]) == ("error", TAG, False, "f")
    assert set(f) >= {field.name for field in dataclasses.fields(type(finding()))}


def test_json_lines_are_appended(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    for name in ("a.c", "b.c"):
        emit_to(Options(report=str(path)), [], main_file=name)
    assert [r["file"] for r in jsonl.read_report(str(path))] == ["a.c", "b.c"]
    assert len(path.read_text().splitlines()) == 2


def test_no_report_unless_requested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    emit_to(Options(), [finding()])
    assert list(tmp_path.iterdir()) == []


def test_record_skip(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    jsonl.record_skip(Options(report=str(path)), "weird.c", "parser limit")
    jsonl.record_skip(Options(), "ignored.c", "no report requested")
    [record] = jsonl.read_report(str(path))
    assert record["skipped"] is True and record["reason"] == "parser limit"
    assert record["stats"] == dataclasses.asdict(Stats(skipped=1))
    assert record["findings"] == []


def test_unwritable_report_warns_instead_of_crashing(tmp_path: Path) -> None:
    text = emit_to(Options(report=str(tmp_path / "no" / "dir" / "r.jsonl")), [finding()])
    assert "mpicc-wrap: warning: cannot write report" in text


def _json_writer(args: tuple[str, int]) -> None:
    path, writer = args
    options = Options(report=path)
    for i in range(PER_WRITER):
        big = finding(message="x" * 5000)  # records larger than a pipe buffer
        emit(f"w{writer}_{i}.c", analysis([big]), options, {}, io.StringIO())


def run_concurrently(target: Any, path: str) -> None:
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(WRITERS) as pool:
        pool.map_async(target, [(path, w) for w in range(WRITERS)]).get(timeout=120)


def test_concurrent_json_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "r.jsonl")
    run_concurrently(_json_writer, path)
    lines = Path(path).read_text().splitlines()
    assert len(lines) == WRITERS * PER_WRITER
    files = {json.loads(line)["file"] for line in lines}  # every line parses
    assert files == {f"w{w}_{i}.c" for w in range(WRITERS) for i in range(PER_WRITER)}


# -- aggregation and CLI ----------------------------------------------------------------

def record(file: str, sites: int, flagged: int, instrumented: int, cwd: str = "/b",
           skipped: int = 0, suppressed: int = 0) -> dict[str, Any]:
    stats = Stats(collective_sites=sites, flagged_sites=flagged, instrumented_sites=instrumented,
                  functions=4, functions_instrumented=1 if instrumented else 0, user_lines=100,
                  analysis_seconds=0.5, skipped=skipped)
    findings = [{"suppressed": i < suppressed} for i in range(flagged)]
    return {"file": file, "cwd": cwd, "skipped": bool(skipped), "findings": findings,
            "stats": dataclasses.asdict(stats)}


def test_aggregate_totals_and_share() -> None:
    summary = jsonl.aggregate([record("a.c", 10, 2, 3, suppressed=1), record("b.c", 6, 0, 0),
                                 record("c.c", 0, 0, 0, skipped=1)])
    totals = summary["totals"]
    assert totals["tus"] == 3 and totals["skipped"] == 1
    assert (totals["collective_sites"], totals["flagged_sites"]) == (16, 2)
    assert totals["instrumented_sites"] == 3 and totals["share_instrumented"] == 3 / 16
    assert totals["functions"] == 12 and totals["functions_instrumented"] == 1
    assert totals["findings"] == 2 and totals["suppressed"] == 1
    assert totals["lines_per_second"] == pytest.approx(300 / 1.5)
    assert summary["rows"][0]["share_instrumented"] == 0.3
    assert summary["rows"][2]["share_instrumented"] is None


def test_aggregate_keeps_latest_record_per_tu() -> None:
    summary = jsonl.aggregate([record("a.c", 10, 2, 3), record("a.c", 10, 0, 0, cwd="/other"),
                                 record("a.c", 8, 1, 1)])
    assert summary["records"] == 3 and summary["totals"]["tus"] == 2
    assert summary["totals"]["collective_sites"] == 18
    assert [r["flagged_sites"] for r in summary["rows"]] == [0, 1]


def test_table_lists_tus_and_total() -> None:
    table = jsonl.format_table(jsonl.aggregate([record("a.c", 10, 2, 3),
                                                    record("skip.c", 0, 0, 0, skipped=1)]))
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["TU", "collective", "sites"]
    assert lines[2].split() == ["a.c", "10", "2", "3", "30.0%", "1/4", "0"]
    assert lines[3].split() == ["skipped:", "skip.c", "0", "0", "0", "-", "0/4", "0"]
    assert lines[5].split() == ["total", "(2", "TUs)", "10", "2", "3", "30.0%", "1/8", "0"]
    assert lines[6].startswith("1 TU(s) skipped, 2 finding(s), 200 user lines")


def test_read_report_skips_torn_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"file": "a.c"}\n{"file": "b\n\n[1]\n')
    assert jsonl.read_report(str(path)) == [{"file": "a.c"}]


def test_cli_prints_table(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    emit_to(Options(report=str(path)), [finding()], Stats(collective_sites=4, flagged_sites=1,
                                                          instrumented_sites=1, functions=2,
                                                          functions_instrumented=1))
    res = run([tool("mpicc-wrap-tool"), "report", str(path)], timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[2].split() == ["src.c", "4", "1", "1", "25.0%", "1/2", "0"]
    res = run([tool("mpicc-wrap-tool"), "report", str(path), "--json"], timeout=60)
    assert json.loads(res.stdout)["totals"]["collective_sites"] == 4


@pytest.mark.parametrize("args", [["report"], ["report", "missing.jsonl"], [], ["frobnicate"],
                                  ["report", "a", "b"], ["trace"], ["trace", "missing"],
                                  ["report", "."], ["trace", "r.jsonl"]])
def test_cli_errors_are_one_line_with_status_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "r.jsonl").write_text("{}\n")
    res = run([tool("mpicc-wrap-tool"), *args], timeout=60, cwd=tmp_path)
    assert res.returncode == 2, res.output
    assert res.stdout == "" and len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith("mpicc-wrap-tool: error: ") and "Traceback" not in res.stderr


def test_cli_help_names_both_subcommands() -> None:
    res = run([tool("mpicc-wrap-tool"), "--help"], timeout=60)
    assert res.returncode == 0 and "report" in res.stdout and "trace" in res.stdout


# -- SARIF ----------------------------------------------------------------------------

def check_sarif(log: dict[str, Any]) -> None:
    """The structure SARIF 2.1.0 requires of what we write (jsonschema is not a dep)."""
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    [run_] = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "mpicc-wrap"
    rule_ids = [r["id"] for r in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"]
    for uri_base in run_.get("originalUriBaseIds", {}).values():
        assert uri_base["uri"].startswith("file://") and uri_base["uri"].endswith("/")
    for result in run_["results"]:
        assert result["ruleId"] in rule_ids
        assert result["level"] in ("none", "note", "warning", "error")
        assert result["message"]["text"]
        for loc in result["locations"] + result.get("relatedLocations", []):
            phys = loc["physicalLocation"]
            assert phys["artifactLocation"]["uri"]
            assert phys["region"]["startLine"] >= 1 and phys["region"]["startColumn"] >= 1
        for i, loc in enumerate(result.get("relatedLocations", [])):
            assert loc["id"] == i and loc["message"]["text"]


def load(path: Path) -> dict[str, Any]:
    log = json.loads(path.read_text())
    check_sarif(log)
    return log


def test_sarif_result_content(tmp_path: Path) -> None:
    path = tmp_path / "out.sarif"
    src = tmp_path / "src" / "a.c"
    emit_to(Options(sarif=str(path)), [finding(file=str(src))], main_file=str(src),
            flags={TAG: "error"})
    log = load(path)
    [result] = log["runs"][0]["results"]
    assert result["ruleId"] == TAG and result["level"] == "error"
    assert result["message"]["text"] == ("MPI_Barrier on MPI_COMM_WORLD may not be reached "
                                          "by all processes")
    phys = result["locations"][0]["physicalLocation"]
    assert phys["artifactLocation"] == {"uri": "src/a.c", "uriBaseId": "SRCROOT"}
    assert phys["region"] == {"startLine": 47, "startColumn": 5}
    related = result["relatedLocations"]
    assert [r["physicalLocation"]["region"]["startLine"] for r in related] == [45, 45]
    assert related[0]["message"]["text"].startswith("this condition depends on the process rank")
    assert related[1]["message"]["text"].startswith("ranks taking this branch")
    assert log["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] == tmp_path.as_uri() + "/"


def test_sarif_outside_base_is_absolute_uri(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    path = tmp_path / "reports" / "out.sarif"
    src = str(tmp_path / "a b.c")
    emit_to(Options(sarif=str(path)), [finding(file=src)], main_file=src)
    [result] = load(path)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == Path(src).as_uri() and "%20" in uri


def test_sarif_suppressed_and_off(tmp_path: Path) -> None:
    path = tmp_path / "out.sarif"
    src = tmp_path / "a.c"
    src.write_text("MPI_Barrier(c); // mpicc-wrap: ignore\n")
    emit_to(Options(sarif=str(path)), [finding(file=str(src), line=1)], main_file=str(src))
    [result] = load(path)["runs"][0]["results"]
    assert result["suppressions"][0]["kind"] == "inSource"
    emit_to(Options(sarif=str(path)), [finding(file=str(src), line=1)], main_file=str(src),
            flags={TAG: "off"})
    assert load(path)["runs"][0]["results"] == []


def test_sarif_rebuild_replaces_the_tus_results(tmp_path: Path) -> None:
    path = tmp_path / "out.sarif"
    options = Options(sarif=str(path))
    emit_to(options, [finding(file="a.c")], main_file=str(tmp_path / "a.c"))
    emit_to(options, [finding(file="b.c"), finding(file="b.c", line=50)],
            main_file=str(tmp_path / "b.c"))
    emit_to(options, [finding(file="a.c", line=9)], main_file=str(tmp_path / "a.c"))
    results = load(path)["runs"][0]["results"]
    lines = sorted((r["properties"]["mpiccWrapTranslationUnit"].rsplit("/", 1)[1],
                    r["locations"][0]["physicalLocation"]["region"]["startLine"])
                   for r in results)
    assert lines == [("a.c", 9), ("b.c", 47), ("b.c", 50)]
    assert [r["id"] for r in load(path)["runs"][0]["tool"]["driver"]["rules"]] == [TAG]


def test_sarif_replaces_a_file_that_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "out.sarif"
    path.write_text("garbage")
    emit_to(Options(sarif=str(path)), [finding()])
    assert len(load(path)["runs"][0]["results"]) == 1


def _sarif_writer(args: tuple[str, int]) -> None:
    path, writer = args
    options = Options(sarif=path)
    for i in range(PER_WRITER // 5):
        main = f"w{writer}_{i}.c"
        emit(main, analysis([finding(file=main), finding(file=main, line=60)]), options, {},
             io.StringIO())


def test_concurrent_sarif_merge_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "out.sarif"
    run_concurrently(_sarif_writer, str(path))
    results = load(path)["runs"][0]["results"]
    tus = {os.path.basename(r["properties"]["mpiccWrapTranslationUnit"]) for r in results}
    assert len(results) == 2 * WRITERS * (PER_WRITER // 5)
    assert tus == {f"w{w}_{i}.c" for w in range(WRITERS) for i in range(PER_WRITER // 5)}
