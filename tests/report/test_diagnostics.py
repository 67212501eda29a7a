"""GCC-format warnings, escalation, -Wno-, the ignore marker and the stats line."""

from __future__ import annotations

import copy
import io
import json
import os
from pathlib import Path

import pytest

from mpicc_wrap.model import (
    Condition,
    Finding,
    Loc,
    Note,
    ParsedTU,
    Pos,
    Stats,
    TUAnalysis,
    Verdict,
)
from mpicc_wrap.report import diagnostics
from mpicc_wrap.report.diagnostics import (
    SourceLines,
    format_finding,
    is_suppressed,
    palette_for,
    severity,
    stats_line,
)
from mpicc_wrap.report.emit import emit
from mpicc_wrap.switches import Options

TAG = "mpi-collective-order"


def finding(file: str = "src.c", line: int = 47, function: str = "f", **kw: object) -> Finding:
    cond = Condition(Pos(1, 7), Loc(file, 45, 7), "rank == 0",
                     "this condition depends on the process rank (MPI_Comm_rank at src.c:12)")
    note = Note(Loc(file, 45, 7),
                "ranks taking this branch call MPI_Barrier, the others leave f() at src.c:52")
    args: dict = dict(function=function, collective="MPI_Barrier", comm="MPI_COMM_WORLD",
                      pos=Pos(1, 5), loc=Loc(file, line, 5), conditions=[cond], notes=[note])
    args.update(kw)
    return Finding(**args)


def analysis(findings: list[Finding], stats: Stats | None = None) -> TUAnalysis:
    return TUAnalysis(findings=findings, plans=[], summaries={}, stats=stats or Stats())


def tu(main_file: str = "src.c") -> ParsedTU:
    return ParsedTU(ast=None, text="", main_file=main_file, linemap=[], user_lines=0)


def run_emit(findings: list[Finding], options: Options | None = None,
             flags: dict[str, str] | None = None, stats: Stats | None = None) -> tuple[str, int]:
    out = io.StringIO()
    errors = emit("src.c", analysis(findings, stats), options or Options(), flags or {}, out)
    return out.getvalue(), errors


WARNING = ("src.c:47:5: warning: MPI_Barrier on MPI_COMM_WORLD may not be reached by all "
           "processes [-Wmpi-collective-order]")
NOTES = [
    "src.c:45:7: note: this condition depends on the process rank (MPI_Comm_rank at src.c:12)",
    "src.c:45:7: note: ranks taking this branch call MPI_Barrier, the others leave f() at src.c:52",
]


def test_format_is_exactly_gcc_style() -> None:
    assert format_finding(finding()) == [WARNING, *NOTES]


def test_explicit_message_and_missing_reason() -> None:
    f = finding(message="call to helper() may not be reached by all processes")
    f.conditions = [Condition(Pos(1, 1), Loc("src.c", 9, 3), "x > 1", "")]
    lines = format_finding(f)
    assert lines[0] == ("src.c:47:5: warning: call to helper() may not be reached by all "
                        "processes [-Wmpi-collective-order]")
    assert lines[1] == "src.c:9:3: note: this condition ('x > 1') may differ between processes"


def test_default_message_without_communicator() -> None:
    assert format_finding(finding(collective="call to g()", comm=""))[0].startswith(
        "src.c:47:5: warning: call to g() may not be reached by all processes [")


def test_emit_prints_function_context_once_per_function_in_source_order() -> None:
    text, errors = run_emit([finding(line=60, function="g"), finding(line=50),
                             finding(line=47)])
    lines = text.splitlines()
    assert errors == 0
    assert lines[0] == "src.c: In function 'f':"
    assert lines[1] == WARNING
    assert [ln for ln in lines if "In function" in ln] == [
        "src.c: In function 'f':", "src.c: In function 'g':"]
    assert lines.index("src.c: In function 'g':") > max(
        i for i, ln in enumerate(lines) if ln.startswith("src.c:50:5: warning:"))


def test_relative_path_spelling_is_kept() -> None:
    text, _ = run_emit([finding(file="sub/../src/x.c")])
    assert "sub/../src/x.c:47:5: warning: " in text


@pytest.mark.parametrize(("options", "flags", "expected"), [
    (Options(), {}, "warning"),
    (Options(werror=True), {}, "error"),
    (Options(), {TAG: "error"}, "error"),
    (Options(), {"*": "error"}, "error"),
    (Options(), {"*": "error", TAG: "warning"}, "warning"),
    (Options(werror=True), {TAG: "warning"}, "warning"),
    (Options(), {TAG: "off"}, "off"),
    (Options(werror=True), {TAG: "off"}, "off"),
    (Options(), {"*": "off"}, "off"),
    (Options(), {"other-tag": "error"}, "warning"),
    (Options(), {"collective-order": "off"}, "off"),  # key without the "mpi-" prefix
    (Options(), {"collective-order": "error"}, "error"),
    (Options(), {TAG: "on"}, "warning"),
    (Options(), {TAG: "on", "*": "error"}, "error"),  # -Werror -Wmpi-...: still an error
    (Options(werror=True), {TAG: "on"}, "error"),
    (Options(werror=True), {"*": "warning"}, "warning"),  # -Wno-error
])
def test_severity_table(options: Options, flags: dict[str, str], expected: str) -> None:
    assert severity(TAG, options, flags) == expected


def test_werror_escalates_and_counts_errors() -> None:
    text, errors = run_emit([finding(), finding(line=50)], Options(werror=True))
    assert errors == 2
    assert ("src.c:47:5: error: MPI_Barrier on MPI_COMM_WORLD may not be reached by all "
            "processes [-Werror=mpi-collective-order]") in text.splitlines()
    assert "warning:" not in text


def test_werror_flag_per_tag_escalates() -> None:
    text, errors = run_emit([finding()], flags={TAG: "error"})
    assert errors == 1 and "[-Werror=mpi-collective-order]" in text


def test_no_error_flag_keeps_a_warning_under_plain_werror() -> None:
    text, errors = run_emit([finding()], flags={"*": "error", TAG: "warning"})
    assert errors == 0 and text.splitlines()[1] == WARNING


def test_wno_silences_the_tag() -> None:
    text, errors = run_emit([finding()], Options(werror=True), {TAG: "off"})
    assert text == "" and errors == 0


# -- suppression marker ---------------------------------------------------------------

def write_source(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "prog.c"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize(("lines", "suppressed"), [
    (["  MPI_Barrier(c); // mpicc-wrap: ignore"], True),
    (["  MPI_Barrier(c); /* mpicc-wrap: ignore */"], True),
    (["  MPI_Barrier(c); // mpicc-wrap:ignore(mpi-collective-order)"], True),
    (["  MPI_Barrier(c); // mpicc-wrap: ignore(-Wmpi-collective-order)"], True),
    (["  MPI_Barrier(c); // mpicc-wrap: ignore(mpi-other, mpi-collective-order)"], True),
    (["  // mpicc-wrap: ignore", "  MPI_Barrier(c);"], True),
    (["  /* mpicc-wrap: ignore(mpi-collective-order) */", "  MPI_Barrier(c);"], True),
    (["  MPI_Barrier(c); // mpicc-wrap: ignore(mpi-other-tag)"], False),
    (["  // mpicc-wrap: ignore(mpi-other-tag)", "  MPI_Barrier(c);"], False),
    (["  x = 1; // mpicc-wrap: ignore", "  MPI_Barrier(c);"], False),  # not alone
    (["  /* mpicc-wrap: ignore */ x = 1;", "  MPI_Barrier(c);"], False),  # not alone
    (["  // mpicc-wrap: ignore", "", "  MPI_Barrier(c);"], False),  # two lines above
    (["  MPI_Barrier(c); // mpicc-wrap ignore"], False),
    (['  MPI_Barrier(c); puts("mpicc-wrap: ignore");'], False),  # not a comment
])
def test_marker(tmp_path: Path, lines: list[str], suppressed: bool) -> None:
    path = write_source(tmp_path, lines)
    f = finding(file=path, line=len(lines))
    assert is_suppressed(f, SourceLines()) is suppressed


def test_suppressed_finding_is_not_printed_but_judged_and_counted(tmp_path: Path) -> None:
    path = write_source(tmp_path, ["MPI_Barrier(c); // mpicc-wrap: ignore", "MPI_Barrier(c);"])
    quiet, loud = finding(file=path, line=1), finding(file=path, line=2)
    out = io.StringIO()
    stats = Stats(collective_sites=2, flagged_sites=2, instrumented_sites=2)
    result = analysis([quiet, loud], stats)
    before = copy.deepcopy(result)
    errors = emit(path, result, Options(werror=True, stats=True), {}, out)
    text = out.getvalue()
    assert result == before  # printing never changes the analysis (the cache keeps it)
    judged = diagnostics.print_findings([quiet, loud], Options(), {}, io.StringIO())
    assert judged == [Verdict("warning", True), Verdict("warning", False)]
    assert errors == 1
    assert f"{path}:1:5:" not in text and f"{path}:2:5: error:" in text
    assert text.rstrip().endswith(", 1 suppressed")


def test_missing_source_file_means_no_suppression(tmp_path: Path) -> None:
    f = finding(file=str(tmp_path / "gone.c"))
    text, _ = run_emit([f])
    assert diagnostics.verdicts([f], Options(), {}) == [Verdict("warning")]
    assert "gone.c:47:5: warning:" in text


def test_fifo_source_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.c"
    os.mkfifo(fifo)
    assert SourceLines().line(str(fifo), 1) == ""  # would block forever if opened


def test_source_lines_are_read_once_per_emit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    path = write_source(tmp_path, ["a;", "b;", "c;"])
    opened: list[str] = []
    real_open = open

    def counting_open(file: str, *args: object, **kw: object):  # type: ignore[no-untyped-def]
        opened.append(file)
        return real_open(file, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", counting_open)
    run_emit([finding(file=path, line=n) for n in (1, 2, 3)])
    assert opened.count(path) == 1


# -- statistics and colour --------------------------------------------------------------

def test_stats_line_exact() -> None:
    stats = Stats(collective_sites=12, flagged_sites=2, instrumented_sites=5, functions=8,
                  functions_instrumented=1, user_lines=340, analysis_seconds=0.05)
    assert stats_line("src.c", stats) == (
        "mpicc-wrap: stats: src.c: 12 collective sites, 2 flagged, 5 instrumented (41.7%), "
        "1/8 functions instrumented, 340 user lines analysed in 0.05 s (6800 lines/s)")


def test_stats_line_without_sites_or_time() -> None:
    assert stats_line("a.c", Stats()) == (
        "mpicc-wrap: stats: a.c: 0 collective sites, 0 flagged, 0 instrumented (-), "
        "0/0 functions instrumented, 0 user lines analysed in 0.00 s")


def test_stats_printed_only_when_enabled() -> None:
    assert run_emit([])[0] == ""
    text, _ = run_emit([], Options(stats=True), stats=Stats(collective_sites=3))
    assert text.startswith("mpicc-wrap: stats: src.c: 3 collective sites,")


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_colour_when_not_a_tty() -> None:
    assert palette_for(io.StringIO(), "auto", {"TERM": "xterm"}).codes == {}


def test_colour_on_tty_uses_gcc_colors() -> None:
    palette = palette_for(FakeTTY(), "auto", {"TERM": "xterm", "GCC_COLORS": "warning=01;33"})
    line = format_finding(finding(), "warning", palette)[0]
    assert "\33[01;33m\33[Kwarning:\33[m\33[K" in line
    assert line.replace("\33[01;33m", "").replace("\33[01m", "").replace(
        "\33[m", "").replace("\33[K", "") == WARNING


@pytest.mark.parametrize(("stream", "mode", "env", "coloured"), [
    (FakeTTY(), "auto", {"TERM": "dumb"}, False),
    (FakeTTY(), "auto", {"TERM": "xterm", "GCC_COLORS": ""}, False),
    (FakeTTY(), "never", {"TERM": "xterm"}, False),
    (io.StringIO(), "always", {}, True),
])
def test_colour_modes(stream: io.StringIO, mode: str, env: dict[str, str],
                      coloured: bool) -> None:
    assert bool(palette_for(stream, mode, env).codes) is coloured


def test_color_flag_from_driver_reaches_output() -> None:
    text, _ = run_emit([finding()], flags={"color": "always"})
    assert "\33[" in text


@pytest.mark.parametrize(("stderr", "expected"), [
    (b"[]\n[]\n", b"[]\n"),
    (b'[{"kind": "warning"}]\n[]\n', b'[{"kind": "warning"}]\n'),
    (b'ld: text\n[{"a": 1}]\nmore\n[{"b": 2}]\n', b'ld: text\n[{"a": 1}, {"b": 2}]\nmore\n'),
    (b"no json here\n", b"no json here\n"),
    (b"", b""),
    (b"{}\n[]", b"{}\n[]\n"),  # an object is not gcc's array: kept as it is
])
def test_joined_json_makes_one_array_of_a_tus_compiler_runs(stderr: bytes,
                                                             expected: bytes) -> None:
    """gcc's arrays of the preprocess and of the rewritten compile become one, where the
    first was; other lines stay in place."""
    assert diagnostics.joined_json(stderr) == expected


def test_json_format_is_gcc_json_on_one_line() -> None:
    """-fdiagnostics-format=json: gcc's shape, one array per line, notes as children,
    no text lines (a tool parses stderr line by line as JSON)."""
    text, errors = run_emit([finding(), finding(line=60, tag="mpi-collective-root")],
                            flags={"format": "json", "mpi-collective-root": "error"})
    lines = text.splitlines()
    assert len(lines) == 1 and errors == 1
    first, second = json.loads(lines[0])
    assert first["kind"] == "warning" and first["option"] == "-Wmpi-collective-order"
    assert first["message"] == WARNING.split(": warning: ")[1].split(" [")[0]
    assert first["locations"] == [{"caret": {"file": "src.c", "line": 47, "column": 5,
                                             "display-column": 5, "byte-column": 5}}]
    assert [c["message"] for c in first["children"]] == [n.split(": note: ")[1] for n in NOTES]
    assert {c["kind"] for c in first["children"]} == {"note"}
    assert second["kind"] == "error" and second["option"] == "-Werror=mpi-collective-root"


def test_json_format_prints_nothing_without_findings() -> None:
    assert run_emit([], flags={"format": "json"})[0] == ""


def test_print_findings_is_reusable_for_link_step() -> None:
    out = io.StringIO()
    judged = diagnostics.print_findings([finding(function="")], Options(), {TAG: "error"}, out)
    assert diagnostics.errors(judged) == 1 and out.getvalue().startswith("src.c:47:5: error:")


def test_stage_passes_escalated_errors_to_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    from mpicc_wrap.analysis import unit as analysis_mod
    from mpicc_wrap.driver import stage
    from mpicc_wrap.frontend import parser

    monkeypatch.setattr(parser, "parse", lambda *a: tu())
    monkeypatch.setattr(analysis_mod, "analyse", lambda *a, **kw: analysis([finding()]))
    out = io.StringIO()
    res = stage.run("", "src.c", ["mpicc"], Options(instrument=False), {}, {TAG: "error"}, out)
    assert res.errors == 1 and "src.c:47:5: error: MPI_Barrier" in out.getvalue()


class CountingStream(io.StringIO):
    writes = 0

    def write(self, s: str) -> int:
        self.writes += 1
        return super().write(s)


def test_one_write_per_tu_so_parallel_compiles_do_not_interleave() -> None:
    out = CountingStream()
    emit("src.c", analysis([finding(), finding(line=50, function="g")]), Options(), {}, out)
    assert out.writes == 1 and out.getvalue().count("warning:") == 2
