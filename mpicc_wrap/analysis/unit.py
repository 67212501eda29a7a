"""The static collective analysis of one TU: ``analyse(tu, external) -> TUAnalysis``.

Its one job is the run: the rank-dependence oracle (rankdep.py), the frozen analysis
context (context.py: CFGs, call classification, collective events of call nodes,
summaries callees first), the findings and plans (findings.py: PARCOACH Algorithm 1
per function and a counter-example for each cluster whose iterated postdominance
frontier holds a rank-dependent condition), the optional exit-divergence pass, the
statistics, and the failure policy (``AnalysisSkipped``).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping

from mpicc_wrap import rules
from mpicc_wrap.analysis import callgraph, context, failures, findings
from mpicc_wrap.analysis.context import RankOracle
from mpicc_wrap.analysis.rankdep import seeds
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.model import FunctionSummary, ParsedTU, Pos, TUAnalysis

__all__ = ["WRITES_SOLVE_FUNCTIONS", "RankOracle", "analyse"]

# A TU without seeds is solved only to say what its functions write (their summaries'
# ``writes``), and only up to this many function definitions: pnetcdf's 815-function
# dispatcher var_getput.c took 1.6 s more for it, its ncx.c (513) 0.6 s; past it the
# summaries say "unknown" and callers assume every pointer argument is written.
WRITES_SOLVE_FUNCTIONS = 300


def _collect(tu: ParsedTU, external: dict[str, FunctionSummary], oracle: RankOracle,
             error_exits: bool, everything: bool, failing: Mapping[int, failures.Arms],
             status: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
             ) -> TUAnalysis:
    return findings.collect(context.build(tu, external, oracle, error_exits, failing,
                                          status), everything)


def _tagged(default: TUAnalysis, reported: TUAnalysis, rule: rules.Rule) -> TUAnalysis:
    """``reported`` (an analysis that drops one of the default's assumptions), its
    findings that the default analysis does not make tagged with ``rule``."""
    known = {(f.loc, f.collective) for f in default.findings}
    reported.findings = [f if (f.loc, f.collective) in known else
                         dataclasses.replace(f, tag=rule.tag)
                         for f in reported.findings]
    return reported


def _oracle(tu: ParsedTU, external: dict[str, FunctionSummary], called: set[str],
            failing: Mapping[int, failures.Arms], strict_aliasing: bool = True
            ) -> RankOracle:
    from mpicc_wrap.analysis import rankdep
    from mpicc_wrap.analysis.rankdep.layouts import Layouts

    def where(line: int) -> str:
        """A seed's preprocessed line as the user's ``file.c:LINE``."""
        loc = tu.loc(Pos(line, 1))
        return f"{os.path.basename(loc.file)}:{loc.line}"

    def solve() -> rankdep.RankDependence:
        return rankdep.RankDependence(
            tu.ast, external, loc=where, handle_names=tu.handle_names,
            const_params=tu.const_params, scalar_types=tu.scalar_typedefs,
            failures=failing, fields=Layouts(tu.ast.ext, strict_aliasing))

    if not seeds.has_seeds(tu.ast, external, called):
        defined = callgraph.functions(tu.ast)
        if len(defined) > WRITES_SOLVE_FUNCTIONS or not set(defined) - {"main"} - set(
                callgraph.internal(tu.ast)):
            return seeds.Uniform()  # too large, or nothing another file can call
        solved: list[rankdep.RankDependence] = []

        def once() -> rankdep.RankDependence:
            """The solve of a TU without seeds: it finds no per-process value, only
            the points-to facts (once, when a summary first asks)."""
            if not solved:
                solved.append(solve())
            return solved[0]

        return seeds.Uniform(once)
    return solve()


def analyse(tu: ParsedTU, external: dict[str, FunctionSummary],
            oracle: RankOracle | None = None, exit_divergence: bool = False,
            everything: bool = False, error_divergence: bool = False,
            strict_aliasing: bool = True) -> TUAnalysis:
    """Run the static collective analysis on one TU.  ``oracle`` replaces the
    rank-dependence analysis (tests).  Paths that can only end in an error exit
    (``exit(1)``, ``abort()``, a failed assert) end the job like MPI_Abort; with
    ``exit_divergence`` (-Wmpi-exit-divergence) the findings they cause are reported
    too, tagged ``mpi-exit-divergence``.  MPI calls and allocations are assumed to
    succeed (``analysis/failures.py``); with ``error_divergence``
    (-Wmpi-error-divergence) the findings only a failure causes are reported too,
    tagged ``mpi-error-divergence``.  ``everything`` plans checks for every
    function that executes collectives, flagged or not (MPICC_WRAP_INSTRUMENT=all).
    ``strict_aliasing`` False (-fno-strict-aliasing): fields by name alone
    (``rankdep/layouts.py``).  Raises AnalysisSkipped on internal failure."""
    start = time.perf_counter()
    try:
        # Other TUs' summaries are read only for functions this TU calls by name and
        # does not define (another TU's summary of a static function, or of a header's
        # inline one compiled into each object, is not the function called here).
        called = seeds.call_names(tu.ast)
        consulted = called - set(callgraph.functions(tu.ast))
        external = {n: s for n, s in external.items() if n in consulted}
        facts = failures.analyse(tu.ast, external, tu.linemap)  # one scan: the oracle and the CFGs
        failing = facts.tests
        oracle = oracle or _oracle(tu, external, called, failing, strict_aliasing)
        result = _collect(tu, external, oracle, True, everything, failing,
                          (facts.status, facts.fresh))
        if exit_divergence:
            result = _tagged(result, _collect(tu, external, oracle, False, everything,
                                              failing), rules.EXIT_DIVERGENCE)
        if error_divergence and not isinstance(oracle, seeds.Uniform):
            failing_too = _oracle(tu, external, called, {}, strict_aliasing)
            result = _tagged(result, _collect(tu, external, failing_too,
                                              not exit_divergence, everything, {}),
                             rules.ERROR_DIVERGENCE)
    except AnalysisSkipped:
        raise
    except Exception as exc:  # our failure on valid code: the driver compiles unchanged
        raise AnalysisSkipped(f"internal analysis error ({type(exc).__name__}: {exc})") from exc
    result.consulted = sorted(consulted)
    result.internal = sorted(callgraph.internal(tu.ast))
    result.stats.analysis_seconds = time.perf_counter() - start
    result.stats.user_lines = tu.user_lines
    return result
