"""The analysis-and-rewriting stage between preprocessing and compiling.

The driver calls ``run(pp_text, source, ...)`` for each C translation unit.  It
parses the preprocessed text (frontend), runs the static collective analysis
(analysis), prints the diagnostics, and returns the rewritten text when some
function needs run-time checks (instrument), or ``None`` when the user's original
source can be compiled unchanged.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO

from mpicc_wrap.model import FunctionSummary, Stats, TUAnalysis
from mpicc_wrap.switches import Options


@dataclass
class StageResult:
    """What the stage hands back to the driver."""

    text: str | None  # rewritten preprocessed text; None: compile the original source
    analysis: TUAnalysis | None = None
    errors: int = 0  # warnings escalated to errors (the compile must fail)
    summaries: dict[str, FunctionSummary] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)


def run(
    pp_text: str,
    source: str,
    compiler: list[str],
    options: Options,
    external: dict[str, FunctionSummary] | None = None,
    warning_flags: dict[str, str] | None = None,
    stream: TextIO | None = None,
) -> StageResult:
    """Analyse one preprocessed TU and return the text to compile.

    ``external`` holds summaries of functions defined in other TUs (cross-TU
    analysis); ``warning_flags`` maps a tag (e.g. "mpi-collective-order") to
    "off", "error" or "warning" from -Wno-mpi-*/-Werror=mpi-* flags.
    Raises ``AnalysisSkipped`` on our own failure.
    """
    from mpicc_wrap import analysis, diagnostics, frontend, instrument

    out = stream if stream is not None else sys.stderr
    tu = frontend.parse(pp_text, source, compiler, options)
    result = analysis.analyse(tu, external or {})
    errors = diagnostics.emit(tu, result, options, warning_flags or {}, out)
    text = None
    if options.instrument and result.plans:
        text = instrument.rewrite(tu, result.plans)
    return StageResult(text, result, errors, result.summaries, result.stats)
