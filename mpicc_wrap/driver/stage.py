"""The analysis-and-rewriting stage between preprocessing and compiling.

The driver calls ``run(pp_text, source, ...)`` for each C translation unit.  It
parses the preprocessed text (frontend), runs the static collective analysis
(analysis), prints the diagnostics, and returns the rewritten text when some
function needs run-time checks (instrument), or ``None`` when the user's original
source can be compiled unchanged.  An unchanged TU is not re-analysed: its analysis
comes from the result cache (resultcache) and only the printing is redone.
"""

from __future__ import annotations

import gc
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from mpicc_wrap import rules
from mpicc_wrap.model import FunctionSummary, Stats, TUAnalysis
from mpicc_wrap.switches import Options

if TYPE_CHECKING:
    from mpicc_wrap.driver.resultcache import Entry

__all__ = ["StageResult", "run", "run_budgeted"]


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
    analysis); ``warning_flags`` maps a tag (``rules.COLLECTIVE_ORDER.tag``) to
    "off", "error" or "warning" from -Wno-mpi-*/-Werror=mpi-* flags.
    Raises ``AnalysisSkipped`` on our own failure.
    """
    from mpicc_wrap.driver import resultcache

    out = stream if stream is not None else sys.stderr
    external = external or {}
    flags = warning_flags or {}
    options = _with_flags(options, flags)
    if not resultcache.enabled(options):
        return _analyse(pp_text, source, compiler, options, external, flags, out)[0]
    name = resultcache.key(pp_text, source, compiler, options, external)
    hit = _cached(options, name, flags, out)
    if hit is not None:
        return hit
    return _miss(pp_text, source, compiler, options, external, flags, out, name)


def _with_flags(options: Options, flags: dict[str, str]) -> Options:
    """The options the analysis runs with: -Wmpi-exit-divergence and
    -Wmpi-error-divergence change it."""
    if flags.get(rules.EXIT_DIVERGENCE.tag, "off") != "off":
        options = options._replace(exit_divergence=True)
    if flags.get(rules.ERROR_DIVERGENCE.tag, "off") != "off":
        options = options._replace(error_divergence=True)
    return options


def _cached(options: Options, name: str, flags: dict[str, str],
            out: TextIO) -> StageResult | None:
    """The result cached under ``name``, printed; None on a miss.  A hit prints exactly
    as a miss would: suppression markers, -W flags, colours and the JSON/SARIF reports
    are all recomputed from the cached analysis."""
    from mpicc_wrap.driver import resultcache
    from mpicc_wrap.report import emit

    entry = resultcache.load(options, name)
    if entry is None:
        return None
    errors = emit.emit(entry.main_file, entry.analysis, options, flags, out)
    analysed = entry.analysis
    return StageResult(entry.text, analysed, errors, analysed.exported(), analysed.stats)


def _miss(pp_text: str, source: str, compiler: list[str], options: Options,
          external: dict[str, FunctionSummary], flags: dict[str, str], out: TextIO,
          name: str) -> StageResult:
    """Analyse a TU the cache does not hold and store the result under ``name``."""
    from mpicc_wrap.driver import resultcache

    result, entry = _analyse(pp_text, source, compiler, options, external, flags, out,
                             snapshot=True)
    if entry is not None:
        resultcache.store(options, name, entry)
    return result


def run_budgeted(pp_text: str, source: str, compiler: list[str], options: Options,
                 external: dict[str, FunctionSummary] | None = None,
                 warning_flags: dict[str, str] | None = None,
                 stream: TextIO | None = None,
                 tick: Callable[[], None] | None = None) -> StageResult:
    """``run`` within the time and memory budget of ``options`` (see ``budget``); what
    it prints reaches ``stream`` only when it finishes.  A cache hit is served here,
    without a child process.  ``tick``: called now and then while the child runs.
    Raises ``AnalysisSkipped``."""
    from mpicc_wrap.driver import budget, resultcache

    out = stream if stream is not None else sys.stderr
    external = external or {}
    flags = warning_flags or {}
    keyed = _with_flags(options, flags)
    name = None
    if options.budget > 0 and resultcache.enabled(keyed):
        name = resultcache.key(pp_text, source, compiler, keyed, external)
        hit = _cached(keyed, name, flags, out)
        if hit is not None:
            return hit

    def stage() -> tuple[StageResult, str]:
        printed = _Captured(out)
        if name is not None:  # known to miss: no second lookup in the child
            result = _miss(pp_text, source, compiler, keyed, external, flags, printed, name)
        else:
            result = run(pp_text, source, compiler, options, external, flags, printed)
        return result, printed.getvalue()

    result, printed = budget.run(stage, options.budget, options.memory, options.debug,
                                 tick)
    out.write(printed)
    out.flush()
    return result


class _Captured(io.StringIO):
    """Collects what the stage prints; a terminal as far as colouring is concerned
    when the real stream is one."""

    def __init__(self, real: TextIO) -> None:
        super().__init__()
        self._tty = bool(getattr(real, "isatty", lambda: False)())

    def isatty(self) -> bool:
        return self._tty


# Cyclic-GC thresholds for the parse and the analysis (Python's are 700, 10, 10).  They
# build hundreds of thousands of AST nodes, dicts and sets that live until the stage
# ends or die by reference counting, so the default's frequent collections mostly
# re-scan live objects: about a quarter of the parse and analysis time on large TUs,
# for a few MB more at the peak (pnetcdf's var_getput.c: 151 -> 157 MB).
GC_THRESHOLDS = (50_000, 20, 100)


def _analyse(pp_text: str, source: str, compiler: list[str], options: Options,
             external: dict[str, FunctionSummary], warning_flags: dict[str, str],
             out: TextIO, snapshot: bool = False) -> tuple[StageResult, Entry | None]:
    """Parse, analyse, print, rewrite.  With ``snapshot``, also the cache entry (the
    analysis itself: printing returns verdicts and leaves it unchanged, so a hit
    re-reads the suppression markers and re-applies the flags)."""
    from mpicc_wrap.analysis import unit
    from mpicc_wrap.driver.resultcache import Entry
    from mpicc_wrap.frontend import parser
    from mpicc_wrap.report import emit

    gc.set_threshold(*GC_THRESHOLDS)
    tu = parser.parse(pp_text, source, compiler, options)
    result = unit.analyse(tu, external, exit_divergence=options.exit_divergence,
                          error_divergence=options.error_divergence,
                          strict_aliasing=options.strict_aliasing,
                          everything=options.instrument_all)
    errors = emit.emit(tu.main_file, result, options, warning_flags, out)
    text = None
    if options.instrument and result.plans:
        from mpicc_wrap.instrument import rewrite  # jinja2 is loaded only for a TU to rewrite

        text = rewrite.rewrite(tu, result.plans)
    staged = StageResult(text, result, errors, result.exported(), result.stats)
    return staged, Entry(tu.main_file, result, text) if snapshot else None
