"""``mpicc-wrap-tool``: the user-facing reports, kept out of ``mpicc-wrap`` so that the
compiler wrapper accepts nothing but compiler arguments.

Subcommands:

* ``report FILE [--json]``: the per-build statistics table of a JSON Lines report
  written under ``MPICC_WRAP_REPORT`` (:mod:`mpicc_wrap.report.jsonl`);
* ``trace DIR [--json]``: the records the runtime wrote under ``MPICC_WRAP_TRACE_DIR``
  (:mod:`mpicc_wrap.trace.reader`);
* ``cdag DIR [--job ID] [--json]``: hand-written collectives found in the
  point-to-point operations recorded with ``MPICC_WRAP_CDAG=1`` (:mod:`mpicc_wrap.cdag`);
  MPI_Finalize runs it on world rank 0 by itself, with ``--measure``: the plan of
  collectives to time goes to stdout (ended by "end"), their times come back on stdin
  ("index seconds" lines) and the report goes to stderr;
* ``matrix DIR [--job ID] [--csv FILE] [--png FILE] [--json]``: who sent whom how many
  messages and bytes in that run (blocks of ranks past 32), the collectives and probes
  per call site, and the patterns with their call sites (a run recorded with
  ``MPICC_WRAP_CDAG=1`` or ``MPICC_WRAP_TRACE_DIR``); ``--png``
  draws the bytes as a heatmap (:mod:`mpicc_wrap.cdag.heatmap`, matplotlib).

Bad input (unknown subcommand, missing or unreadable file, not a trace) is one
``mpicc-wrap-tool: error: ...`` line and exit status 2; no traceback reaches a user
unless MPICC_WRAP_DEBUG=1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from mpicc_wrap.driver import entry
from mpicc_wrap.errors import WrapError

__all__ = ["USAGE_ERROR", "main"]

PROG = "mpicc-wrap-tool"
USAGE_ERROR = 2  # exit status for bad input


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line and status 2 (not usage + message)."""

    def error(self, message: str) -> NoReturn:
        raise WrapError(f"{message} (see {PROG} --help)", USAGE_ERROR)


def _report(args: argparse.Namespace) -> int:
    from mpicc_wrap.report import jsonl

    try:
        summary = jsonl.aggregate(jsonl.read_report(args.file))
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or err
        raise WrapError(f"cannot read report {args.file}: {reason}", USAGE_ERROR) from err
    sys.stdout.write(json.dumps(summary, indent=2) + "\n" if args.json
                     else jsonl.format_table(summary))
    return 0


def _trace(args: argparse.Namespace) -> int:
    from mpicc_wrap.trace import reader

    try:
        traces = reader.read_dir(args.dir)
    except reader.TraceError as err:
        raise WrapError(str(err), USAGE_ERROR) from err
    sys.stdout.write(json.dumps(reader.to_json(traces), indent=2) + "\n" if args.json
                     else reader.format_traces(traces))
    return 0


def _load_cdag(args: argparse.Namespace) -> Any:
    from mpicc_wrap.cdag import records, report

    try:
        ranks = records.read_dir(args.dir, args.job)
    except records.CdagError as err:
        raise WrapError(str(err), USAGE_ERROR) from err
    sites = records.resolve_sites(ranks)  # addr2line once for all three tables
    prog, notes = records.build_program(ranks, sites)
    analysis = report.analyse(prog.graph)
    analysis.notes[:0] = notes
    analysis.collectives = records.call_sites(ranks, "COLL", sites)
    analysis.probes = records.call_sites(ranks, "PROBE", sites)
    return analysis


def _cdag(args: argparse.Namespace) -> int:
    from mpicc_wrap.cdag import report

    analysis = _load_cdag(args)
    out = sys.stdout
    if args.measure:  # MPI_Finalize reads the plan up to "end" (an error: end of file)
        sys.stdout.write("".join(line + "\n" for line in report.plan(analysis)) + "end\n")
        sys.stdout.flush()
        report.apply_times(analysis, sys.stdin.read())
        out = sys.stderr
    out.write(json.dumps(report.to_json(analysis), indent=2) + "\n" if args.json
              else "".join(line + "\n" for line in report.format_lines(analysis)))
    return 0


def _matrix(args: argparse.Namespace) -> int:
    from mpicc_wrap.cdag import heatmap, report

    if args.png:  # before the analysis: a missing extra fails at once
        try:
            heatmap.require()
        except heatmap.PlotUnavailable as err:
            raise WrapError(f"--png needs matplotlib ({err}): pip install "
                            f"'mpicc-wrap[plot]'", USAGE_ERROR) from err
    analysis = _load_cdag(args)
    graph, matching = analysis.graph, analysis.matching
    if args.png:
        try:
            heatmap.write_png(report.matrix(graph, matching), graph.nranks, args.png)
        except OSError as err:
            raise WrapError(f"cannot write {args.png}: {err.strerror or err}",
                            USAGE_ERROR) from err
    if args.csv:
        try:
            with open(args.csv, "w") as out:
                out.write(report.matrix_csv(graph, matching))
        except OSError as err:
            raise WrapError(f"cannot write {args.csv}: {err.strerror or err}",
                            USAGE_ERROR) from err
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(analysis), indent=2) + "\n")
        return 0
    lines = ["messages/bytes per pair of world ranks:", *report.format_matrix(graph, matching)]
    lines += report.format_calls(analysis.collectives, "collectives")
    lines += report.format_calls(analysis.probes, "probes that found a message", timed=False)
    lines += report.format_lines(analysis)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def _parser() -> _Parser:
    parser = _Parser(prog=PROG, description="Reports of mpicc-wrap builds and runs.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_Parser)
    report = sub.add_parser("report", help="per-build statistics of an MPICC_WRAP_REPORT file")
    report.add_argument("file", metavar="FILE", help="JSON Lines report (MPICC_WRAP_REPORT)")
    report.add_argument("--json", action="store_true", help="print the aggregate as JSON")
    report.set_defaults(run=_report)
    trace = sub.add_parser("trace", help="records written under MPICC_WRAP_TRACE_DIR")
    trace.add_argument("dir", metavar="DIR", help="directory of the run's trace files")
    trace.add_argument("--json", action="store_true", help="print the records as JSON")
    trace.set_defaults(run=_trace)
    cdag = sub.add_parser("cdag", help="hand-written collectives in an MPICC_WRAP_CDAG run")
    _cdag_run(cdag)
    cdag.add_argument("--json", action="store_true", help="print patterns and matrix as JSON")
    cdag.add_argument("--measure", action="store_true",
                      help="protocol of MPI_Finalize: print the collectives to time, read "
                           "their times on stdin, report on stderr")
    cdag.set_defaults(run=_cdag)
    table = sub.add_parser("matrix", help="communication matrix of an MPICC_WRAP_CDAG run")
    _cdag_run(table)
    table.add_argument("--csv", metavar="FILE", help="also write the matrix as CSV")
    table.add_argument("--png", metavar="FILE",
                       help="also draw the bytes per pair as a heatmap (needs matplotlib: "
                            "the 'plot' extra)")
    table.add_argument("--json", action="store_true", help="print matrix and patterns as JSON")
    table.set_defaults(run=_matrix)
    return parser


def _cdag_run(sub: argparse.ArgumentParser) -> None:
    """The arguments naming one MPICC_WRAP_CDAG run (``cdag`` and ``matrix``)."""
    sub.add_argument("dir", metavar="DIR", help="directory of the run's .cdag files")
    sub.add_argument("--job", help="job number (file name part); default: the newest run")


def main(argv: list[str] | None = None) -> int:
    """Run ``mpicc-wrap-tool`` with ``argv`` (default: the process arguments)."""
    args = sys.argv[1:] if argv is None else list(argv)

    def body() -> int:
        namespace = _parser().parse_args(args)
        code: int = namespace.run(namespace)
        return code

    return entry.guarded(PROG, body)


if __name__ == "__main__":
    sys.exit(main())
