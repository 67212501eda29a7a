"""Send findings to every output: gcc-format lines on stderr, the JSON Lines report and
the SARIF log.

The one path for compile-time findings (``emit``, per TU) and link-time findings
(``emit_link``, per program): the same -W flags, suppression markers and reports
apply to both.  ``diagnostics`` decides the verdicts and prints; ``jsonl`` and
``sarif`` record the findings with those verdicts.  None of the three imports another.
"""

from __future__ import annotations

from typing import TextIO

from mpicc_wrap.model import Finding, Stats, TUAnalysis, Verdict
from mpicc_wrap.report import diagnostics, jsonl
from mpicc_wrap.switches import Options

__all__ = ["emit", "emit_link"]


def emit(main_file: str, result: TUAnalysis, options: Options, warning_flags: dict[str, str],
         stream: TextIO) -> int:
    """Print one TU's findings (and its statistics line with MPICC_WRAP_STATS=1), write
    the JSON / SARIF reports when requested; return the number of errors.  ``result``
    is not changed (a cached analysis is emitted again as it is)."""
    judged = diagnostics.print_findings(result.findings, options, warning_flags, stream)
    if options.stats:
        suppressed = sum(v.suppressed for v in judged)
        stream.write(diagnostics.stats_line(main_file, result.stats, suppressed) + "\n")
    _record(main_file, result, judged, options, stream)
    return diagnostics.errors(judged)


def emit_link(output: str, findings: list[Finding], options: Options,
              warning_flags: dict[str, str], stream: TextIO) -> int:
    """Print and report the link step's findings (for the program ``output``) exactly
    as a TU's: the link command's -w / -Wno-mpi-* / -Werror flags apply."""
    judged = diagnostics.print_findings(findings, options, warning_flags, stream)
    if findings:
        _record(output, TUAnalysis(findings, [], {}, Stats()), judged, options, stream)
    return diagnostics.errors(judged)


def _record(file: str, result: TUAnalysis, judged: list[Verdict], options: Options,
            stream: TextIO) -> None:
    """Append ``result`` to the JSON / SARIF reports when requested."""
    if options.report:
        jsonl.record_tu(options, file, result, judged, stream)
    if options.sarif:
        from mpicc_wrap.report import sarif  # lazily: pathlib/urllib cost every compile ~5 ms

        sarif.record_tu(options, file, result.findings, judged, stream)
