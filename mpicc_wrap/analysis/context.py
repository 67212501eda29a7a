"""The facts one analysis run shares, built once and then frozen: ``Context``.

``build`` computes, for one TU: the call graph and the classification of every call
(callgraph.py), the CFG of every function (re-built while functions turn out never to
return or always to abort), which functions execute collectives, and the function
summaries, callees first (SCCs of the call graph).  ``Context.events`` names the
collective events of a function's call nodes from these facts.  The findings
(findings.py) read a ``Context`` and never change it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from pycparser import c_ast

from mpicc_wrap.analysis import callgraph, catalogue, cfg, failures, outputs
from mpicc_wrap.analysis.callgraph import Callee, CallGraph
from mpicc_wrap.analysis.orders import Events, fixed_sequence
from mpicc_wrap.analysis.rankdep import owned
from mpicc_wrap.analysis.rankdep.consensus import consensus_of
from mpicc_wrap.analysis.rankdep.exchanges import Seen
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend import positions
from mpicc_wrap.model import FunctionSummary, ParsedTU

__all__ = ["POINTER_EVENT", "Context", "RankOracle", "build", "site_comm"]

POINTER_EVENT = "call through pointer"


class RankOracle(Protocol):
    """The part of rankdep.RankDependence the analysis uses."""

    def reason(self, func_name: str, expr: c_ast.Node, comm: str = "") -> str | None: ...
    def returns_rank(self, func_name: str) -> bool: ...
    def arm_writes_at(self, test: c_ast.Node) -> Seen: ...
    def rank_params(self, func_name: str) -> list[int]: ...
    def effects(self, func_name: str) -> tuple[bool, list[str], list[str] | None]: ...
    def rank_bits(self, func_name: str) -> dict[str, int]: ...
    def ignores_arguments(self, func_name: str) -> bool: ...
    def arg_writes(self, func_name: str) -> list[str] | None: ...
    def init_writes(self, func_name: str) -> list[str]: ...
    def new_writes(self, func_name: str) -> list[str]: ...
    def callbacks(self, func_name: str) -> dict[str, list[str]]: ...
    def called_params(self, func_name: str
                      ) -> tuple[list[int], dict[str, list[str]], list[int]]: ...


@dataclass(frozen=True)
class Context:
    """Everything the findings of one TU are computed from (read-only)."""

    tu: ParsedTU
    external: Mapping[str, FunctionSummary]
    oracle: RankOracle
    graph: CallGraph
    cfgs: Mapping[str, cfg.CFG]
    # (CFG node, what it calls) of every call node, per function
    callees: Mapping[str, list[tuple[int, Callee]]]
    noreturn: frozenset[str]  # functions that never return (declared or found)
    aborts: frozenset[str]  # functions whose every path aborts the job
    # Names declared at file scope (globals, functions): what a callee's communicator
    # expression may name to mean the same thing in a caller.
    file_names: frozenset[str]
    has: Mapping[str, bool]  # the function executes collectives, directly or not
    recursive: frozenset[str]  # functions on a call-graph cycle
    summaries: Mapping[str, FunctionSummary]
    # the TU's status functions and allocating functions (failures.Facts)
    status: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    # the functions whose calls allocate (rankdep/owned.py): a summary's ``allocates``
    allocators: frozenset[str] = frozenset()

    def events(self, func: str, unknown: bool = False) -> Events:
        """Collective tokens of every call node of ``func``; with ``unknown`` calls of
        unseen external functions count too (for deferred findings)."""
        params = _params(self.graph.defs[func])
        g = self.cfgs[func]
        result: Events = {}
        for node, c in self.callees[func]:
            tokens = self._tokens(g.nodes[node].call, c, params, unknown)
            if tokens:
                result[node] = tokens
        return result

    def _tokens(self, call: c_ast.FuncCall, c: Callee, params: list[str],
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


def build(tu: ParsedTU, external: Mapping[str, FunctionSummary], oracle: RankOracle,
          error_exits: bool = True,
          failing: Mapping[int, failures.Arms] | None = None,
          status: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
          ) -> Context:
    """The context of one analysis run, summaries included.  ``error_exits``: paths
    that can only end in an error exit end the job like MPI_Abort (cfg.build); so do
    the failure arms of the failure tests ``failing`` (``failures.failure_tests``;
    None: none, -Wmpi-error-divergence).  ``status``: the TU's status functions and
    allocating functions (``failures.Facts``), for the summaries."""
    graph = CallGraph(tu.ast, dict(external), tu.system_calls)
    noreturn = (catalogue.NORETURN_FUNCTIONS | tu.noreturn | graph.declared_noreturn
                | {n for n, s in external.items() if s.noreturn})
    aborts = frozenset(n for n, f in catalogue.CATALOGUE.items() if f.kind == "abort")
    if error_exits:  # another file's function that always ends the job (sc_abort_verbose)
        aborts |= {n for n, s in external.items() if s.ends_job and n not in graph.defs}
    cfgs, noreturn, aborts = _build_cfgs(graph, noreturn, aborts, error_exits, failing or {})
    file_names: set[str] = {getattr(d, "name", None)
                            or getattr(getattr(d, "decl", None), "name", "") or ""
                            for d in tu.ast.ext} - {""} | tu.pruned
    callees = {f: [(n.id, graph.classify(n.call, f)) for n in g.calls()]
               for f, g in cfgs.items()}
    has = _has_collectives(callees, graph, external)
    edges = {f: {c.name for _, c in calls if c.kind == "local"} for f, calls in callees.items()}
    components = callgraph.sccs(edges)
    recursive = frozenset(f for comp in components
                          if len(comp) > 1 or comp[0] in edges[comp[0]] for f in comp)
    summaries: dict[str, FunctionSummary] = {}
    ctx = Context(tu, MappingProxyType(dict(external)), oracle, graph,
                  MappingProxyType(cfgs), MappingProxyType(callees), frozenset(noreturn),
                  frozenset(aborts), frozenset(file_names), MappingProxyType(has), recursive,
                  MappingProxyType(summaries), status,
                  owned.allocating(tu.ast, external))
    for comp in components:  # callees first: a caller's events read their summaries
        for f in comp:
            summaries[f] = _summary(ctx, f)
    return dataclasses.replace(ctx, summaries=MappingProxyType(dict(summaries)))


def _build_cfgs(graph: CallGraph, noreturn: frozenset[str], aborts: frozenset[str],
                error_exits: bool, failing: Mapping[int, tuple[bool, bool]],
                ) -> tuple[dict[str, cfg.CFG], frozenset[str], frozenset[str]]:
    """CFGs, re-built while functions turn out never to return or always to abort
    the job (an error handler wrapping MPI_Abort is an abort too)."""
    calls = {f: _called_names(d) for f, d in graph.defs.items()}
    built: dict[str, cfg.CFG] = {}
    stale = set(graph.defs)
    while stale:  # each round adds functions to aborts/noreturn: at most F rounds
        built.update({f: cfg.build(graph.defs[f], noreturn, aborts, error_exits, failing)
                      for f in stale})
        dooms = {f for f in stale if built[f].aborts and f not in aborts}
        never = {f for f in stale if f not in noreturn and not any(
            built[f].nodes[n].kind in ("return", "end") for n in built[f].reachable())}
        aborts, noreturn = aborts | dooms, noreturn | never
        # Only the callers of what changed need a new CFG.
        stale = {f for f, names in calls.items() if names & (dooms | never)}
    return built, noreturn, aborts


def _has_collectives(callees: Mapping[str, list[tuple[int, Callee]]], graph: CallGraph,
                     external: Mapping[str, FunctionSummary]) -> dict[str, bool]:
    """Fixed point: a function executes collectives directly or via a callee."""
    has = {f: False for f in callees}

    def may_collect(c: Callee) -> bool:
        if c.kind == "mpi":
            info = catalogue.lookup(c.name)
            return info is not None and info.is_collective
        if c.kind == "local":
            return has[c.name]
        if c.kind == "external":
            return external[c.name].has_collectives
        if c.kind == "pointer":
            return any(has[t] for t in graph.pointer_targets(c.nargs))
        return False

    changed = True
    while changed:
        changed = False
        for f, calls in callees.items():
            if not has[f] and any(may_collect(c) for _, c in calls):
                has[f] = changed = True
    return has


def _summary(ctx: Context, f: str) -> FunctionSummary:
    seq = None if f in ctx.recursive else fixed_sequence(ctx.cfgs[f], ctx.events(f))
    d = ctx.graph.defs[f]
    loc = ctx.tu.loc(positions.coord_pos(d.decl.coord))
    def multi(cond: c_ast.Node) -> bool:
        return ctx.oracle.reason(f, cond) is not None

    # other TUs can call it (not main: no file calls main)
    exported = "static" not in (d.decl.storage or []) and f != "main"
    returns, ranked, writes = ctx.oracle.effects(f)
    params = _params(d)
    shared, uniform = outputs.wrapper_facts(d, params, multi)
    status = f in ctx.status[0]  # 0 in every run without failures
    uniform = uniform or status or (exported and not returns and bool(params)
                                    and ctx.oracle.ignores_arguments(f))
    return FunctionSummary(
        f, loc.file, loc.line, ctx.has[f], seq or [], seq is not None,
        returns, list(ctx.oracle.rank_params(f)), f in ctx.noreturn, shared, uniform,
        f in ctx.aborts, ranked, writes, status, f in ctx.status[1],
        ctx.oracle.rank_bits(f), ctx.oracle.callbacks(f) if exported else {},
        *(ctx.oracle.called_params(f) if exported else ([], {}, [])),
        arg_writes=ctx.oracle.arg_writes(f) if exported else None,
        init_writes=ctx.oracle.init_writes(f),
        allocates=f in ctx.allocators, new_writes=ctx.oracle.new_writes(f),
        agreement=list(consensus_of(d.body, params, ctx.tu.handle_names) or ())
        if exported else [])


def _params(func: c_ast.FuncDef) -> list[str]:
    args = func.decl.type.args
    return [getattr(p, "name", None) or "" for p in (args.params if args else [])]


def _called_names(func: c_ast.FuncDef) -> set[str]:
    """Names of the functions ``func`` calls directly."""
    names: set[str] = set()

    class Calls(Visitor):
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
