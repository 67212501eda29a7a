"""JSON Lines report of findings and statistics, and its build-level summary.

With MPICC_WRAP_REPORT=FILE every compiled TU appends one JSON object as one line:
``{"version", "file", "cwd", "skipped", "reason", "findings", "deferred", "stats"}``.
Each record is written by a single ``write`` on an O_APPEND descriptor held under an
exclusive ``flock``, so concurrent compiles under ``make -j`` never interleave lines.

``mpicc-wrap-tool report FILE`` (:mod:`mpicc_wrap.driver.tool`) prints the per-build
statistics table (:func:`aggregate`, :func:`format_table`) in the style of PARCOACH
Table 1 (paper 004 §4.2: collective call sites, sites found by Alg. 1, share
instrumented).  A TU compiled several times (rebuilds appending to the
same file) counts once, with its latest record.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import Any, TextIO

from mpicc_wrap.fileutil import locked, write_all
from mpicc_wrap.model import Finding, Stats, TUAnalysis, Verdict
from mpicc_wrap.switches import Options

__all__ = [
    "REPORT_VERSION", "aggregate", "format_table", "read_report", "record_skip", "record_tu",
    "tu_record",
]

REPORT_VERSION = 1
STAT_FIELDS = tuple(f.name for f in dataclasses.fields(Stats))


def finding_dict(finding: Finding, verdict: Verdict) -> dict[str, Any]:
    """All fields of a finding as plain JSON data, with the verdict's ``level`` and
    ``suppressed``; locations are {file, line, column}."""
    data = dataclasses.asdict(finding)
    data["level"] = verdict.level
    data["suppressed"] = verdict.suppressed
    return data


def tu_record(file: str, result: TUAnalysis | None, judged: list[Verdict],
              skipped: str = "") -> dict[str, Any]:
    """The report record of one TU (``skipped`` is the reason analysis did not run)."""
    stats = result.stats if result is not None else Stats(skipped=1)
    findings = result.findings if result is not None else []
    deferred = result.deferred if result is not None else []
    return {
        "version": REPORT_VERSION,
        "file": file,
        "cwd": os.getcwd(),
        "skipped": bool(skipped),
        "reason": skipped,
        "findings": [finding_dict(f, v) for f, v in zip(findings, judged, strict=True)],
        "deferred": [finding_dict(f, Verdict("deferred")) for f in deferred],
        "stats": dataclasses.asdict(stats),
    }


def append_record(path: str, record: dict[str, Any]) -> None:
    """Append one record as one line, atomically with respect to other writers."""
    data = (json.dumps(record, separators=(",", ":")) + "\n").encode()
    with locked(path, os.O_WRONLY | os.O_APPEND) as fd:
        write_all(fd, data)


def _append_or_warn(path: str, record: dict[str, Any], stream: TextIO) -> None:
    try:
        append_record(path, record)
    except OSError as err:
        stream.write(f"mpicc-wrap: warning: cannot write report {path}: {err.strerror}\n")


def record_tu(options: Options, file: str, result: TUAnalysis, judged: list[Verdict],
              stream: TextIO) -> None:
    """Append the record of an analysed TU (``judged``: the verdict on each of its
    findings) to the JSON report, if one is requested."""
    if options.report:
        _append_or_warn(options.report, tu_record(file, result, judged), stream)


def record_skip(options: Options, source: str, reason: str, stream: TextIO | None = None) -> None:
    """Append a skip record (stats.skipped = 1) for a TU whose analysis did not run."""
    if options.report:
        record = tu_record(source, None, [], reason or "analysis skipped")
        _append_or_warn(options.report, record, stream or sys.stderr)


def read_report(path: str) -> list[dict[str, Any]]:
    """All records of a JSON Lines report, in order; blank or torn lines are skipped."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


def _latest_per_tu(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        key = (str(record.get("cwd", "")), str(record.get("file", "")))
        latest.pop(key, None)
        latest[key] = record
    return list(latest.values())


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _row(record: dict[str, Any]) -> dict[str, Any]:
    stats = {name: record.get("stats", {}).get(name, 0) for name in STAT_FIELDS}
    findings = record.get("findings", [])
    return {
        "file": record.get("file", "?"),
        **stats,
        "findings": len(findings),
        "suppressed": sum(bool(f.get("suppressed")) for f in findings),
        "share_instrumented": _share(stats["instrumented_sites"], stats["collective_sites"]),
    }


def aggregate(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-TU rows and build totals: every Stats field summed, finding and suppressed
    counts, share of collective sites instrumented, and analysis speed."""
    rows = [_row(r) for r in _latest_per_tu(records)]
    totals: dict[str, Any] = {name: sum(r[name] for r in rows)
                              for name in (*STAT_FIELDS, "findings", "suppressed")}
    totals["tus"] = len(rows)
    totals["share_instrumented"] = _share(totals["instrumented_sites"], totals["collective_sites"])
    totals["lines_per_second"] = _share(totals["user_lines"], totals["analysis_seconds"])
    return {"records": len(records), "rows": rows, "totals": totals}


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100.0 * share:.1f}%"


TABLE_COLUMNS = (  # (heading, how to show a row or the totals)
    ("TU", lambda r: "skipped: " + r["file"] if r["skipped"] and "tus" not in r else r["file"]),
    ("collective sites", lambda r: str(r["collective_sites"])),
    ("flagged", lambda r: str(r["flagged_sites"])),
    ("instrumented", lambda r: str(r["instrumented_sites"])),
    ("share", lambda r: _percent(r["share_instrumented"])),
    ("functions touched", lambda r: f"{r['functions_instrumented']}/{r['functions']}"),
    ("suppressed", lambda r: str(r["suppressed"])),
)


def format_table(summary: dict[str, Any]) -> str:
    """The aggregate as an aligned text table with a total line."""
    total = dict(summary["totals"], file=f"total ({summary['totals']['tus']} TUs)")
    cells = [[h for h, _ in TABLE_COLUMNS]]
    cells += [[show(r) for _, show in TABLE_COLUMNS] for r in [*summary["rows"], total]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(TABLE_COLUMNS))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(row, widths, strict=True))).rstrip() for row in cells]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - 1, "-" * len(lines[0]))
    totals = summary["totals"]
    lines.append(f"{totals['skipped']} TU(s) skipped, {totals['findings']} finding(s), "
                 f"{totals['user_lines']} user lines analysed in "
                 f"{totals['analysis_seconds']:.2f} s")
    return "\n".join(lines) + "\n"
