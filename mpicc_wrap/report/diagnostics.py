"""Compile-time diagnostics: GCC-format warnings with notes, escalation, suppression.

Its one job is the verdict on each finding (level, suppression) and the gcc-format
lines; ``report.emit`` sends a TU's findings to these lines and to the reports.

Each finding (PARCOACH Alg. 1 step 12, "output nodes in O as warnings", paper 004 §3.1)
is printed the way gcc prints its own diagnostics, so editors and CI parse it::

    src.c: In function 'f':
    src.c:47:5: warning: MPI_Barrier on MPI_COMM_WORLD may not be reached by all \
processes [-Wmpi-collective-order]
    src.c:45:7: note: this condition depends on the process rank (MPI_Comm_rank at src.c:12)
    src.c:45:7: note: ranks taking this branch call MPI_Barrier, the others leave f() at src.c:52

Severity of a tag (``severity``): ``warning_flags[tag]`` ("off" from -Wno-TAG, "error"
from -Werror=TAG, "warning" from -Wno-error=TAG) wins ("on", from -WTAG, defers);
then ``warning_flags["*"]`` ("error" for plain -Werror, "off" for -w, "warning" for
-Wno-error); then MPICC_WRAP_WERROR=1 makes it an error; otherwise a warning.

Suppression marker: a comment ``mpicc-wrap: ignore`` (optionally restricted to tags,
``mpicc-wrap: ignore(mpi-collective-order)``) on the line of the collective call, or
alone on the line just before it, silences that warning.  It silences the compile-time
warning only: the site keeps its run-time check, because a real mismatch at that site
would otherwise hang the job instead of aborting with a DYNAMIC-CHECK report.

``warning_flags["color"]`` may carry the driver's -fdiagnostics-color=MODE ("auto",
"always", "never"); colour otherwise follows gcc's auto mode and GCC_COLORS.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import TextIO

from mpicc_wrap import rules
from mpicc_wrap.model import Condition, Finding, Loc, Stats, Verdict
from mpicc_wrap.switches import Options

__all__ = [
    "SourceLines", "errors", "format_finding", "is_suppressed", "joined_json",
    "palette_for", "print_findings", "severity", "stats_line", "verdicts",
]

SEVERITIES = ("off", "warning", "error")

# -- severity -------------------------------------------------------------------------


def severity(tag: str, options: Options, warning_flags: dict[str, str]) -> str:
    """Return "off", "warning" or "error" for a diagnostic tag (see module docstring).
    A flag keyed by the tag without its "mpi-" prefix counts too; "on" (from -WTAG)
    only enables the tag, leaving escalation to -Werror as gcc does."""
    own = warning_flags.get(tag, warning_flags.get(tag.removeprefix("mpi-")))
    if own in SEVERITIES:
        return own
    rule = rules.lookup(tag)
    if own != "on" and rule is not None and rule.level == "off":
        return "off"
    general = warning_flags.get("*")
    if general in SEVERITIES:
        return general
    return "error" if options.werror else "warning"


# -- suppression marker ---------------------------------------------------------------

_MARKER = re.compile(r"(?://|/\*).*?\bmpicc-wrap:\s*ignore\b(?:\s*\(([^)]*)\))?")
_ALONE = re.compile(r"^\s*(?://.*|/\*.*?\*/\s*|/\*(?!.*\*/).*)$")  # a line holding only a comment


class SourceLines:
    """The user's original source lines, read once per file (comments are gone from
    the preprocessed text, so markers are looked up here).  Unreadable: no lines."""

    def __init__(self) -> None:
        self._files: dict[str, list[str]] = {}

    def line(self, file: str, number: int) -> str:
        """Line ``number`` (1-based) of ``file``, "" when there is no such line."""
        if file not in self._files:
            self._files[file] = []
            if not os.path.isfile(file):  # "<stdin>", a FIFO: nothing to read (never block)
                return ""
            try:
                with open(file, encoding="utf-8", errors="replace") as handle:
                    self._files[file] = handle.read().splitlines()
            except OSError:
                pass
        lines = self._files[file]
        return lines[number - 1] if 1 <= number <= len(lines) else ""


def _marker_covers(text: str, tag: str) -> bool:
    """True if ``text`` carries an ignore marker for ``tag`` (no tag list: all tags)."""
    match = _MARKER.search(text)
    if match is None:
        return False
    if match.group(1) is None or not match.group(1).strip():
        return True
    wanted = {t.strip().removeprefix("-W") for t in match.group(1).split(",")}
    return tag in wanted


def is_suppressed(finding: Finding, sources: SourceLines) -> bool:
    """True if the user's source marks the finding's line (or the line before it,
    when the marker comment stands alone there) with ``mpicc-wrap: ignore``."""
    file, line = finding.loc.file, finding.loc.line
    if _marker_covers(sources.line(file, line), finding.tag):
        return True
    previous = sources.line(file, line - 1)
    return bool(_ALONE.match(previous)) and _marker_covers(previous, finding.tag)


# -- formatting -----------------------------------------------------------------------

# gcc's default GCC_COLORS capabilities for the parts we print.
_DEFAULT_COLOURS = {"error": "01;31", "warning": "01;35", "note": "01;36", "locus": "01",
                    "quote": "01"}


class Palette:
    """SGR colour codes per gcc capability name; empty mapping means no colour."""

    def __init__(self, codes: dict[str, str] | None = None) -> None:
        self.codes = codes or {}

    def paint(self, cap: str, text: str) -> str:
        code = self.codes.get(cap)
        return f"\33[{code}m\33[K{text}\33[m\33[K" if code else text


PLAIN = Palette()


def palette_for(stream: TextIO, mode: str = "auto", env: dict[str, str] | None = None) -> Palette:
    """Colours following gcc's -fdiagnostics-color=MODE semantics: "auto" colours only
    a TTY with TERM other than "dumb"; GCC_COLORS overrides codes, empty disables."""
    e = os.environ if env is None else env
    if mode == "never" or e.get("GCC_COLORS") == "":
        return PLAIN
    if mode != "always":
        isatty = getattr(stream, "isatty", None)
        if not (isatty and isatty()) or e.get("TERM", "") == "dumb":
            return PLAIN
    codes = dict(_DEFAULT_COLOURS)
    for item in e.get("GCC_COLORS", "").split(":"):
        name, _, code = item.partition("=")
        if name and re.fullmatch(r"[0-9;]*", code):
            codes[name] = code
    return Palette(codes)


def _line(loc: Loc, kind: str, text: str, palette: Palette) -> str:
    return f"{palette.paint('locus', f'{loc}:')} {palette.paint(kind, f'{kind}:')} {text}"


def format_finding(finding: Finding, severity: str = "warning",
                   palette: Palette = PLAIN) -> list[str]:
    """Lines (no newline) gcc would print for one finding: the warning or error line
    with its [-W...] / [-Werror=...] tag, one note per responsible condition, then one
    note per counter-example note."""
    tag = f"[{palette.paint(severity, _option(finding.tag, severity))}]"
    lines = [_line(finding.loc, severity, f"{finding.message} {tag}", palette)]
    lines.extend(_line(cond.loc, "note", _reason(cond), palette) for cond in finding.conditions)
    lines.extend(_line(note.loc, "note", note.message, palette) for note in finding.notes)
    return lines


def _option(tag: str, severity: str) -> str:
    """The flag a diagnostic names, as gcc names it: ``-Werror=TAG`` for an error."""
    return f"-Werror={tag}" if severity == "error" else f"-W{tag}"


def _reason(cond: Condition) -> str:
    """The note on a condition a finding depends on."""
    return cond.reason or f"this condition ('{cond.text}') may differ between processes"


def function_context(file: str, function: str, palette: Palette = PLAIN) -> str:
    """gcc's context line printed before the first diagnostic in a function."""
    return f"{palette.paint('locus', f'{file}:')} In function '{palette.paint('quote', function)}':"


# -- printing -------------------------------------------------------------------------


def verdicts(findings: Sequence[Finding], options: Options, warning_flags: dict[str, str],
             sources: SourceLines | None = None) -> list[Verdict]:
    """The verdict on each finding, in order: its level under the -W flags and whether
    the user's source suppresses it.  Findings are not changed."""
    sources = sources or SourceLines()
    return [Verdict(level := severity(f.tag, options, warning_flags),
                    level != "off" and is_suppressed(f, sources)) for f in findings]


def print_findings(findings: Sequence[Finding], options: Options, warning_flags: dict[str, str],
                   stream: TextIO, sources: SourceLines | None = None) -> list[Verdict]:
    """Print the shown findings in source order, with gcc's function context lines;
    return the verdict on each finding (in the order given): what the reports record,
    and how many were printed as errors (``errors``)."""
    judged = verdicts(findings, options, warning_flags, sources)
    shown = sorted(((f, v) for f, v in zip(findings, judged, strict=True) if v.shown),
                   key=lambda p: p[0].loc)
    if warning_flags.get("format") == "json":
        if shown:
            stream.write(gcc_json(shown) + "\n")
            stream.flush()
        return judged
    palette = palette_for(stream, warning_flags.get("color", "auto"))
    context, lines = ("", ""), []
    for finding, verdict in shown:
        if finding.function and (finding.loc.file, finding.function) != context:
            context = (finding.loc.file, finding.function)
            lines.append(function_context(*context, palette=palette))
        lines.extend(format_finding(finding, verdict.level, palette))
    if lines:  # one write, so that parallel compiles do not interleave our lines
        stream.write("".join(line + "\n" for line in lines))
        stream.flush()
    return judged


def gcc_json(shown: Sequence[tuple[Finding, Verdict]]) -> str:
    """The findings as gcc 12's ``-fdiagnostics-format=json`` prints diagnostics: one
    JSON array on one line, a finding's conditions and notes as its ``children``, so
    that a tool reading the compiler's JSON reads ours too."""
    def entry(kind: str, loc: Loc, message: str) -> dict[str, object]:
        caret = {"file": loc.file, "line": loc.line, "column": loc.column,
                 "display-column": loc.column, "byte-column": loc.column}
        return {"kind": kind, "locations": [{"caret": caret}], "message": message}

    out = []
    for finding, verdict in shown:
        item = entry(verdict.level, finding.loc, finding.message)
        item["column-origin"], item["escape-source"] = 1, False
        item["option"] = _option(finding.tag, verdict.level)
        item["children"] = [
            *(entry("note", c.loc, _reason(c)) for c in finding.conditions),
            *(entry("note", n.loc, n.message) for n in finding.notes)]
        out.append(item)
    return json.dumps(out)


def errors(judged: Sequence[Verdict]) -> int:
    """How many findings were printed as errors (the compile or link must fail)."""
    return sum(v.shown and v.level == "error" for v in judged)


def stats_line(file: str, stats: Stats, suppressed: int = 0) -> str:
    """One line of per-TU statistics (PARCOACH Table 1 columns, paper 004 §4.2)."""
    share = (f"{100.0 * stats.instrumented_sites / stats.collective_sites:.1f}%"
             if stats.collective_sites else "-")
    rate = (f" ({stats.user_lines / stats.analysis_seconds:.0f} lines/s)"
            if stats.analysis_seconds > 0 else "")
    extra = f", {suppressed} suppressed" if suppressed else ""
    return (f"mpicc-wrap: stats: {file}: {stats.collective_sites} collective sites, "
            f"{stats.flagged_sites} flagged, {stats.instrumented_sites} instrumented ({share}), "
            f"{stats.functions_instrumented}/{stats.functions} functions instrumented, "
            f"{stats.user_lines} user lines analysed in {stats.analysis_seconds:.2f} s"
            f"{rate}{extra}")


def joined_json(stderr: bytes) -> bytes:
    """The compiler's stderr of one TU under ``-fdiagnostics-format=json`` with its JSON
    array lines joined into one, where the first stood, other lines kept as they are.
    A wrapped compile runs gcc twice (the preprocess, then the rewritten text), and
    each run prints an array, ``[]`` when it has nothing to say: a plain compile
    prints one, so a tool that reads gcc's one array per TU read the preprocessor's
    (its ``#warning`` lines) and missed the compiler's."""
    lines, joined, at = stderr.splitlines(keepends=True), [], None
    kept: list[bytes] = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if not isinstance(value, list):
            kept.append(line)
            continue
        joined.extend(value)
        if at is None:
            at = len(kept)
            kept.append(b"")
    if at is None:
        return stderr
    kept[at] = json.dumps(joined).encode() + b"\n"
    return b"".join(kept)
