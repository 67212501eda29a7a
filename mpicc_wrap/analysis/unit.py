"""The static collective analysis of one TU: ``analyse(tu, external) -> TUAnalysis``.

Per function: CFG (cfg.py), collective events of its call nodes (MPI collectives,
calls of functions that execute collectives, named by their fixed sequence when they
have one), PARCOACH Algorithm 1 (orders.py) and, for each cluster whose iterated
postdominance frontier holds a rank-dependent condition, a finding with a
counter-example.  Functions are summarised callees first (callgraph.py) so callers see
their callees' sequences.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from typing import Protocol

from pycparser import c_ast

from mpicc_wrap.analysis import callgraph, catalogue, cfg, findings
from mpicc_wrap.analysis.callgraph import Callee, CallGraph
from mpicc_wrap.analysis.orders import Events, fixed_sequence
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.frontend import positions
from mpicc_wrap.model import FunctionSummary, ParsedTU, Pos, TUAnalysis

POINTER_EVENT = "call through pointer"
EXIT_DIVERGENCE = "mpi-exit-divergence"


class RankOracle(Protocol):
    """The part of rankdep.RankDependence the analysis uses."""

    def reason(self, func_name: str, expr: c_ast.Node, comm: str = "") -> str | None: ...
    def returns_rank(self, func_name: str) -> bool: ...
    def rank_params(self, func_name: str) -> list[int]: ...


def _params(func: c_ast.FuncDef) -> list[str]:
    args = func.decl.type.args
    return [getattr(p, "name", None) or "" for p in (args.params if args else [])]


class _TU:
    """Shared state of one analysis run."""

    def __init__(self, tu: ParsedTU, external: dict[str, FunctionSummary],
                 oracle: RankOracle, error_exits: bool = True) -> None:
        self.tu = tu
        self.error_exits = error_exits
        self.external = external
        self.oracle = oracle
        self.graph = CallGraph(tu.ast, external, callgraph.system_functions(tu.text))
        self.summaries: dict[str, FunctionSummary] = {}
        self.recursive: set[str] = set()
        self.noreturn = (catalogue.NORETURN_FUNCTIONS | tu.noreturn
                         | self.graph.declared_noreturn
                         | {n for n, s in external.items() if s.noreturn})
        self.aborts = frozenset(n for n, f in catalogue.CATALOGUE.items() if f.kind == "abort")
        self.cfgs = self._build_cfgs()
        # Names declared at file scope (globals, functions): what a callee's
        # communicator expression may name to mean the same thing in a caller.
        self.file_names = {getattr(d, "name", None) or getattr(getattr(d, "decl", None),
                                                                  "name", "")
                           for d in tu.ast.ext} - {""}
        self.callees = {f: [(n.id, self.graph.classify(n.call, f)) for n in g.calls()]
                        for f, g in self.cfgs.items()}
        self.has = self._has_collectives()

    def _build_cfgs(self) -> dict[str, cfg.CFG]:
        """CFGs, re-built while functions turn out never to return or always to abort
        the job (an error handler wrapping MPI_Abort is an abort too)."""
        calls = {f: _called_names(d) for f, d in self.graph.defs.items()}
        built: dict[str, cfg.CFG] = {}
        stale = set(self.graph.defs)
        while stale:  # each round adds functions to aborts/noreturn: at most F rounds
            built.update({f: cfg.build(self.graph.defs[f], self.noreturn, self.aborts,
                                       self.error_exits) for f in stale})
            dooms = {f for f in stale if built[f].aborts and f not in self.aborts}
            never = {f for f in stale if f not in self.noreturn and not any(
                built[f].nodes[n].kind in ("return", "end")
                for n in built[f].reachable())}
            self.aborts = self.aborts | dooms
            self.noreturn = self.noreturn | never
            # Only the callers of what changed need a new CFG.
            stale = {f for f, names in calls.items() if names & (dooms | never)}
        return built

    def _has_collectives(self) -> dict[str, bool]:
        """Fixed point: a function executes collectives directly or via a callee."""
        has = {f: False for f in self.cfgs}
        changed = True
        while changed:
            changed = False
            for f, calls in self.callees.items():
                if not has[f] and any(self._may_collect(c, has) for _, c in calls):
                    has[f] = changed = True
        return has

    def _may_collect(self, c: Callee, has: dict[str, bool]) -> bool:
        if c.kind == "mpi":
            info = catalogue.lookup(c.name)
            return info is not None and info.is_collective
        if c.kind == "local":
            return has[c.name]
        if c.kind == "external":
            return self.external[c.name].has_collectives
        if c.kind == "pointer":
            return any(has[t] for t in self.graph.pointer_targets(c.nargs))
        return False

    def events(self, func: str, unknown: bool = False) -> Events:
        """Collective tokens of every call node of ``func``; with ``unknown`` calls of
        unseen external functions count too (for deferred findings)."""
        params = _params(self.graph.defs[func])
        g = self.cfgs[func]
        result: Events = {}
        for node, c in self.callees[func]:
            tokens = self.tokens(g.nodes[node].call, c, params, unknown)
            if tokens:
                result[node] = tokens
        return result

    def tokens(self, call: c_ast.FuncCall, c: Callee, params: list[str],
               unknown: bool) -> list[str]:
        args = call.args.exprs if call.args is not None else []

        def comm(text: str) -> str:
            return f"#{params.index(text)}" if text and text in params else text

        if c.kind == "mpi":
            info = catalogue.lookup(c.name)
            if info is None or not info.is_collective:
                return []
            return [f"{info.name}@{comm(site_comm(info, args))}"]
        if c.kind in ("local", "external"):
            summary = self.summaries.get(c.name) or self.external.get(c.name)
            if not self.has.get(c.name, summary is not None and summary.has_collectives):
                return []
            if summary is None or not summary.fixed or c.name in self.recursive:
                return [f"call {c.name}()"]
            return [_substitute(t, args, comm) for t in summary.sequence]
        if c.kind == "pointer":
            targets = self.graph.pointer_targets(c.nargs)
            return [POINTER_EVENT] if any(self.has[t] for t in targets) else []
        if c.kind == "unknown" and unknown and c.name not in self.noreturn:
            return [f"call {c.name}()"]
        return []

    def summarise(self) -> None:
        """Summaries of every function, callees first (SCCs of the call graph)."""
        edges = {f: {c.name for _, c in calls if c.kind == "local"}
                 for f, calls in self.callees.items()}
        for comp in callgraph.sccs(edges):
            if len(comp) > 1 or comp[0] in edges[comp[0]]:
                self.recursive.update(comp)
            for f in comp:
                self.summaries[f] = self._summary(f)

    def _summary(self, f: str) -> FunctionSummary:
        seq = None if f in self.recursive else fixed_sequence(self.cfgs[f], self.events(f))
        d = self.graph.defs[f]
        loc = self.tu.loc(positions.coord_pos(d.decl.coord))
        return FunctionSummary(
            f, loc.file, loc.line, self.has[f], seq or [], seq is not None,
            self.oracle.returns_rank(f), list(self.oracle.rank_params(f)),
            f in self.noreturn)


def _collect(tu: ParsedTU, external: dict[str, FunctionSummary], oracle: RankOracle,
             error_exits: bool, everything: bool) -> TUAnalysis:
    state = _TU(tu, external, oracle, error_exits)
    state.summarise()
    return findings.collect(state, everything)


def _with_exit_divergence(default: TUAnalysis, reported: TUAnalysis) -> TUAnalysis:
    """``reported`` (error exits treated as divergences), its findings that the default
    analysis does not make tagged ``mpi-exit-divergence``."""
    known = {(f.loc, f.collective) for f in default.findings}
    reported.findings = [f if (f.loc, f.collective) in known else
                         dataclasses.replace(f, tag=EXIT_DIVERGENCE)
                         for f in reported.findings]
    return reported


def _called_names(func: c_ast.FuncDef) -> set[str]:
    """Names of the functions ``func`` calls directly."""
    names: set[str] = set()

    class Calls(c_ast.NodeVisitor):
        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            if isinstance(node.name, c_ast.ID):
                names.add(node.name.name)
            self.generic_visit(node)

    Calls().visit(func.body)
    return names


def site_comm(info: catalogue.MPIFunc, args: list[c_ast.Node]) -> str:
    """C text of a collective's communicator; MPI_Finalize acts on MPI_COMM_WORLD."""
    if info.kind == "finalize":
        return "MPI_COMM_WORLD"
    if info.comm is not None and info.comm < len(args):
        return positions.c_text(args[info.comm])
    return ""


def _substitute(token: str, args: list[c_ast.Node], comm: Callable[[str], str]) -> str:
    """Replace a callee's parameter reference ``NAME@#i`` by the caller's argument."""
    name, _, where = token.partition("@")
    if where.startswith("#") and where[1:].isdigit() and int(where[1:]) < len(args):
        return f"{name}@{comm(positions.c_text(args[int(where[1:])]))}"
    return token


def _oracle(tu: ParsedTU, external: dict[str, FunctionSummary]) -> RankOracle:
    from mpicc_wrap.analysis import rankdep

    def where(line: int) -> str:
        """A seed's preprocessed line as the user's ``file.c:LINE``."""
        loc = tu.loc(Pos(line, 1))
        return f"{os.path.basename(loc.file)}:{loc.line}"

    return rankdep.RankDependence(tu.ast, external, loc=where, handle_names=tu.handle_names)


def analyse(tu: ParsedTU, external: dict[str, FunctionSummary],
            oracle: RankOracle | None = None, exit_divergence: bool = False,
            everything: bool = False) -> TUAnalysis:
    """Run the static collective analysis on one TU.  ``oracle`` replaces the
    rank-dependence analysis (tests).  Paths that can only end in an error exit
    (``exit(1)``, ``abort()``, a failed assert) end the job like MPI_Abort; with
    ``exit_divergence`` (-Wmpi-exit-divergence) the findings they cause are reported
    too, tagged ``mpi-exit-divergence``.  ``everything`` plans checks for every
    function that executes collectives, flagged or not (MPICC_WRAP_INSTRUMENT=all).
    Raises AnalysisSkipped on internal failure."""
    start = time.perf_counter()
    try:
        oracle = oracle or _oracle(tu, external)
        result = _collect(tu, external, oracle, True, everything)
        if exit_divergence:
            result = _with_exit_divergence(result,
                                           _collect(tu, external, oracle, False, everything))
    except AnalysisSkipped:
        raise
    except Exception as exc:  # our failure on valid code: the driver compiles unchanged
        raise AnalysisSkipped(f"internal analysis error ({type(exc).__name__}: {exc})") from exc
    result.stats.analysis_seconds = time.perf_counter() - start
    result.stats.user_lines = tu.user_lines
    return result
