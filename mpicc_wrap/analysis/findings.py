"""Turn Algorithm 1 clusters into findings (with counter-examples), deferred findings
and instrumentation plans (PARCOACH Alg. 1 output set O, then Alg. 2's input)."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from typing import cast

from pycparser import c_ast

from mpicc_wrap import rules
from mpicc_wrap.analysis import catalogue, graphs
from mpicc_wrap.analysis.alone import alone_edges, one_member, self_dup_arrays
from mpicc_wrap.analysis.armkeys import ArmKeys
from mpicc_wrap.analysis.armmatch import Expr, unmatched
from mpicc_wrap.analysis.callgraph import Callee
from mpicc_wrap.analysis.context import Context
from mpicc_wrap.analysis.intercomm import may_be_intercomm_root
from mpicc_wrap.analysis.orders import (
    Cluster,
    Events,
    Region,
    diverging_successors,
    first_stop,
    frontier_without,
    partners,
    regions,
    static_pass,
)
from mpicc_wrap.analysis.rankdep.communicators import (
    joins_another,
    opened_files,
    sole_constructors,
)
from mpicc_wrap.analysis.rankdep.locations import callee
from mpicc_wrap.frontend import handles, positions
from mpicc_wrap.model import (
    Condition,
    Finding,
    FunctionPlan,
    Loc,
    Note,
    Pos,
    Site,
    Stats,
    TUAnalysis,
)

__all__ = ["collect", "one_per_cause"]

Flags = dict[int, dict[int, Cluster]]  # site node -> {condition node: its cluster}
_IDENT = re.compile(r"\b[A-Za-z_]\w*")
_ELEMENT = re.compile(r"\s*([A-Za-z_]\w*)\s*\[[^\[\]]*\]\s*")  # ``a[i]``, nothing else
_COMM_HANDLES = frozenset({"MPI_COMM_WORLD", "MPI_COMM_SELF", "MPI_COMM_NULL"})


def display(state: Context, text: str) -> str:
    """A communicator as the user wrote it (MPI_COMM_WORLD, not its expansion)."""
    return handles.display(text, state.tu.handle_names)


class _Function:
    """Findings and plan of one function."""

    def __init__(self, state: Context, name: str, text: positions.Text) -> None:
        self.state, self.name, self.text = state, name, text
        self.cfg = state.cfgs[name]
        self.defn = state.graph.defs[name]
        self.callee: dict[int, Callee] = dict(state.callees[name])
        self.reasons: dict[tuple[int, str], str | None] = {}
        self._regions: list[Region] | None = None  # orders.regions, kept across passes
        self._created: dict[str, int] | None = None  # handle -> its constructor's node
        self._files: dict[str, str] | None = None  # file handle -> its communicator
        self._kinds: dict[str, tuple[bool, str] | None] = {}  # token -> _token_kind
        self._events: Events | None = None  # those ``flags`` is judging (``_lockstep``)
        self._locksteps: dict[str, bool] = {}  # handle -> _lockstep, for those events
        # (condition node, id of its cluster) -> (the cluster, counter-example): every
        # site of a cluster shares its conditions, so each is described once
        self.examples: dict[tuple[int, int], tuple[Cluster, tuple[str, bool]]] = {}
        self._keys: ArmKeys | None = None  # ``arm_key``'s view of the function's AST
        # (per-process test, id of its cluster) -> its arms' expressions (``unmatched_arms``)
        self.arm_exprs: dict[tuple[int, int], tuple[Expr, ...]] = {}

    def reason(self, node: int, comm: str = "") -> str | None:
        """Why the condition at ``node`` may differ between processes (with ``comm``:
        between members of that communicator, the handle's C text), or None."""
        if (node, comm) not in self.reasons:
            pred = self.cfg.nodes[node].pred if node < len(self.cfg.nodes) else None
            self.reasons[node, comm] = (
                None if pred is None or (comm and self.reason(node) is None)
                else self.state.oracle.reason(self.name, pred, comm) if comm
                else self.state.oracle.reason(self.name, pred))
        return self.reasons[node, comm]

    def handle(self, token: str) -> str:
        """C text of the communicator handle a collective token acts on ("" when it
        is not a communicator: judged against the world)."""
        name, _, where = token.partition("@")
        info = catalogue.lookup(name)
        text = self.unparam(where)
        if info is None or info.comm is None or not text:
            return ""
        if info.handle == "file":
            return self._opened_on(info.handle_arg(info.comm, text))
        return info.handle_arg(info.comm, text) if info.handle == "comm" else ""

    def _opened_on(self, fh: str) -> str:
        """C text of the communicator the file handle ``fh`` was opened on, when the
        function opens it on that one communicator only and writes it nowhere else
        (``communicators.opened_files``): the file's collectives are those of that
        communicator's group, and are judged against it ("" for any other file
        handle: against the world)."""
        if self._files is None:
            self._files = opened_files(self.defn)
        return self._files.get(fh, "")

    def flags(self, events: Events, only: set[int] | None = None) -> Flags:
        """Sites whose cluster's PDF+ holds a condition that may differ between the
        members of the cluster's communicator (with ``only``: the clusters of those
        sites alone)."""
        result: Flags = {}
        if not events:  # no cluster: skip the regions and the alone edges
            return result
        if events is not self._events:
            self._events, self._locksteps = events, {}
        alone = alone_edges(self.cfg, self.defn)
        single: set[str] | None = None
        arrays: frozenset[str] = frozenset()
        if self._regions is None:
            self._regions = regions(self.cfg)
        for cl in static_pass(self.cfg, events, lambda v: self.reason(v) is not None,
                              only, self._regions, self.independent):
            comm = self.handle(cl.name)
            if comm:  # a collective on a one-member communicator cannot diverge
                if single is None:
                    names = self.state.tu.handle_names
                    single = one_member(self.defn.body, names)
                    arrays = self_dup_arrays(self.state.tu.ast, names)
                if comm in single or display(self.state, comm) in single \
                        or ((m := _ELEMENT.fullmatch(comm)) is not None and m[1] in arrays):
                    continue
            frontier = frontier_without(cl, alone[comm]) if comm in alone else cl.frontier
            conds = [v for v in sorted(frontier) if self.reason(v, comm)]
            if conds and comm in self.created \
                    and not self.matched_elsewhere(self.created[comm], events):
                conds = self.after_creation(cl, self.created[comm], conds)
            if not conds and frontier and cl.graph is not None:
                conds = self.unmatched_arms(cl, frontier, comm, alone.get(comm, set()))
            for site in cl.sites if conds else []:
                for v in conds:
                    result.setdefault(site, {}).setdefault(v, cl)
        return result

    def unmatched_arms(self, cl: Cluster, frontier: set[int], comm: str,
                       cut: set[tuple[int, int]]) -> list[int]:
        """The per-process tests outside the cluster's PDF+ whose two arms make its
        collective under different uniform tests (``armmatch``): each decides it.
        Only for a cluster whose PDF+ was computed (``cl.graph``): otherwise no
        per-process branch reaches its sites (``orders.clusters``), so none can be
        such a test."""
        region, graph = cl.region, cl.graph
        assert graph is not None
        succs = {n: list(dict.fromkeys(graph.stand_in.get(s, s)
                                       for s in region.succs.get(n, ()) if (n, s) not in cut))
                 for n in graph.succs}
        found = unmatched(succs, region.exit, cl.sites, frontier,
                          lambda v: self.reason(v, comm) is not None,
                          lambda r, v: self.arm_key(r, v, comm))
        for v, exprs in found.items():
            self.arm_exprs[v, id(cl)] = exprs
        return sorted(found)

    def arm_key(self, outer: int, node: int, comm: str) -> object:
        """``armkeys.ArmKeys.key`` of the test at ``node`` in the arms of ``outer``."""
        if self._keys is None:
            self._keys = ArmKeys(self.defn, self.state.file_names,
                                 self.state.oracle.arm_writes_at)
        nodes = self.cfg.nodes
        test = nodes[node].pred if node < len(nodes) else None
        return self._keys.key(nodes[outer].pred, test, node,
                              test is not None and self.reason(node, comm) is None)

    def independent(self, a: str, b: str) -> bool:
        """Tokens ``a`` and ``b`` need not keep their relative order
        (``orders.token_classes``): their communicators are provably different
        (MPI_COMM_WORLD, MPI_COMM_SELF, or a handle the function creates and writes
        nowhere else: every constructor call makes a new one), and one of them is
        nonblocking or on a communicator whose members run in lockstep
        (``_lockstep``)."""
        return self._apart(a, b, self._lockstep)

    def _lockstep(self, ident: str) -> bool:
        """The communicator ``ident`` (``_token_kind``) is one the function creates, and
        its members agree on the whole sequence of collectives from its creation on:
        with every blocking collective counted in one order (PARCOACH's and the
        barrier-matching paper's rule), no cluster past the constructor has a
        condition that may differ between its members (judged against it, as its
        own collectives are).  Beyond both papers.

        Then each member runs the collectives on it at the same places among its
        other collectives, so they can neither wait for a process outside it nor
        keep one waiting (a cycle of waits needs two members that ordered a call on
        it and another call differently), and the calls on other communicators are
        matched among themselves as if they were not there.  A correct program:
        ``split(world, colour, &c); if (colour == 0) { Bcast(c); Barrier(world); }
        else Barrier(world);`` -- the two barriers match, whatever the colour
        (``correct_split_arm_then_world_collective.c``).  Not when another call may
        be the constructor's match (``matched_elsewhere``): its members came from
        more than one place."""
        if not ident.startswith("new ") or self._events is None:
            return False
        comm = ident[4:]
        if comm not in self._locksteps:
            self._locksteps[comm] = False  # the plain rule while matched_elsewhere asks
            self._locksteps[comm] = self._in_lockstep(comm, self._events)
        return self._locksteps[comm]

    def _in_lockstep(self, comm: str, events: Events) -> bool:
        made = self.created[comm]
        if self.matched_elsewhere(made, events):
            return False
        nodes = self.cfg.nodes
        after = graphs.reachable(lambda n: nodes[n].succs, nodes[made].succs)

        def splits(v: int) -> bool:
            return v in after and self.reason(v, comm) is not None

        if self._regions is None:
            self._regions = regions(self.cfg)
        return not any(any(map(splits, cl.frontier)) for cl in static_pass(
            self.cfg, events, splits, None, self._regions, self._apart))

    def _apart(self, a: str, b: str, lockstep: Callable[[str], bool] | None = None
               ) -> bool:
        """``independent``; without ``lockstep``, only when one of them is nonblocking
        (``_in_lockstep``'s own pass)."""
        ka, kb = self._token_kind(a), self._token_kind(b)
        return ka is not None and kb is not None and ka[1] != kb[1] and (
            ka[0] or kb[0] or lockstep is not None and (lockstep(ka[1]) or lockstep(kb[1])))

    def _token_kind(self, token: str) -> tuple[bool, str] | None:
        """(nonblocking, the communicator's identity) of a collective token; None when
        the communicator is not provably told apart from others."""
        if token not in self._kinds:
            name = token.partition("@")[0]
            info = catalogue.lookup(name)
            comm = self.handle(token)
            shown = display(self.state, comm) if comm else ""
            ident = (shown if shown in ("MPI_COMM_WORLD", "MPI_COMM_SELF")
                     else f"new {comm}" if comm and comm in self.created else "")
            self._kinds[token] = (info.starts_only, ident) \
                if info is not None and ident else None
        return self._kinds[token]

    @property
    def created(self) -> dict[str, int]:
        """Local handles written only by one constructor call, with that call's node
        (``rankdep.communicators.sole_constructors``)."""
        if self._created is None:
            # only a constructor at a call node can be in the result: without one
            # the body is not scanned (most functions create no communicator)
            calls = {id(call): handle
                     for handle, call in sole_constructors(self.defn).items()
                     } if self._constructs() else {}
            self._created = {calls[id(n.call)]: n.id for n in self.cfg.nodes
                             if n.call is not None and id(n.call) in calls}
        return self._created

    def _constructs(self) -> bool:
        """Some call node of the function calls a handle constructor (the catalogue's
        ``creates``), the calls ``sole_constructors`` collects."""
        return any(n.call is not None and (spec := catalogue.lookup(
            callee(n.call) or "")) is not None and spec.creates is not None
            for n in self.cfg.nodes)

    def matched_elsewhere(self, made: int, events: Events) -> bool:
        """Another call of the function may be the match of the constructor call at
        ``made``, so the ranks that skipped ``made`` can be members of its communicator
        too: Algorithm 1 pairs it with another site in one of its regions (a split in
        the other arm into another handle: ``if (P) split(c, 1, &a) else split(c, 1,
        &b)`` makes one communicator of both arms, and neither call is flagged), or
        another call of the same constructor that is no collective on a communicator
        (``MPI_Comm_create_group``).  A split with colour ``MPI_UNDEFINED`` or another
        constant colour puts its callers elsewhere (``joins_another``;
        ``rankdep.communicators.rematched`` is the same rule on the AST)."""
        if self._regions is None:
            self._regions = regions(self.cfg)
        name = self.callee[made].name
        others = {n for n, c in self.callee.items()
                  if n != made and c.kind == "mpi" and c.name == name} \
            if made not in events else set()
        for region in self._regions:
            others |= partners(region, events, made, self.independent)
        mine = self.cfg.nodes[made].call
        return any(mine is None or (call := self.cfg.nodes[n].call) is None
                   or not joins_another(mine, call) for n in others)

    def after_creation(self, cl: Cluster, made: int, conds: list[int]) -> list[int]:
        """The conditions of ``conds`` that can split the members of a communicator
        the function has just created (beyond both papers).

        Every member of it made the one constructor call at node ``made`` (its handle is
        a local nothing else writes), the same execution of it.  So each test they
        passed on the way there had one outcome on all of them.  When ``made``
        dominates every site of the cluster in the cluster's region (the function, or
        one round of a loop: back edges are cut), only the tests reachable from
        ``made`` can make members diverge before the collective; the others are
        dropped.  A handle created in one round and used in a later one is not
        dominated in the loop's region, and keeps every test."""
        region = cl.region
        if made not in region.succs:
            return conds
        step = region.succs.get
        around = graphs.reachable(lambda n: step(n, ()), [region.entry],
                                  allow=lambda n: n != made)
        if made == region.entry or any(site in around for site in cl.sites):
            return conds
        after = graphs.reachable(lambda n: step(n, ()), [made])
        return [v for v in conds if v in after]

    def pos(self, node: int) -> Pos:
        return positions.coord_pos(self.cfg.nodes[node].coord)

    def where(self, node: int) -> str:
        """Short location for a counter-example: ``file.c:LINE``."""
        loc = self.loc(node)
        return f"{os.path.basename(loc.file)}:{loc.line}"

    def loc(self, node: int) -> Loc:
        if node == self.cfg.end:
            return self.end_loc
        return self.state.tu.loc(self.pos(node))

    @functools.cached_property
    def end_loc(self) -> Loc:
        """Where the body's closing brace is (found by scanning the body's text: once)."""
        return self.state.tu.loc(positions.body_end(self.text, self.defn))

    def shown(self, node: int) -> str:
        """Display name of the call at ``node``: MPI_Barrier, helper(), (*fp)()."""
        c = self.callee[node]
        if c.kind == "mpi":
            info = catalogue.lookup(c.name)
            return info.name if info else c.name
        call = self.cfg.nodes[node].call
        return f"{c.name or positions.c_text(call.name if call else None)}()"

    def comm(self, node: int, events: Events) -> str:
        """C text of the communicator of the event at ``node`` ("" when several)."""
        comms = {self.unparam(t.partition("@")[2]) for t in events.get(node, [])}
        return comms.pop() if len(comms) == 1 else ""

    def checked_comm(self, node: int, events: Events) -> str:
        """C expression of the communicator handle a check of the event at ``node``
        reads ("" when there are several, or when the event's handle is a window or
        a file, which a communicator check must never be given).  A handle passed by
        pointer (``MPI_Comm_free(&c)``, ``MPI_Comm_free(pc)``) is dereferenced as the
        catalogue says (``MPIFunc.handle_arg``): ``c``, ``(*(pc))``."""
        comms = set()
        for token in events.get(node, []):
            name, _, where = token.partition("@")
            info = catalogue.lookup(name)
            if info is None or info.handle != "comm" or not where:
                return ""
            text = self.unparam(where)
            if self.callee[node].kind != "mpi" and not self.in_scope(node, text):
                return ""
            comms.add(info.handle_arg(info.comm, text) if info.comm is not None and text
                      else text)
        return comms.pop() if len(comms) == 1 else ""

    def in_scope(self, node: int, text: str) -> bool:
        """Whether a communicator from a callee's summary means the same thing at the
        call: one of the call's own arguments (substituted for a parameter), or an
        expression of file-scope names only (``ctx->comm`` of the callee's parameter
        ``ctx`` would name an unrelated object, or nothing, in the caller)."""
        call = self.cfg.nodes[node].call
        args = call.args.exprs if call is not None and call.args is not None else []
        written = {positions.c_text(a) for a in args}
        if text in written or display(self.state, text) in _COMM_HANDLES:
            return True
        return set(_IDENT.findall(text)) <= self.state.file_names

    def unparam(self, comm: str) -> str:
        """A normalised parameter reference ``#i`` back to the parameter's name."""
        if comm.startswith("#") and comm[1:].isdigit():
            args = self.defn.decl.type.args
            params = args.params if args is not None else []
            i = int(comm[1:])
            return getattr(params[i], "name", "") or "" if i < len(params) else ""
        return comm

    def finding(self, site: int, conds: dict[int, Cluster], events: Events) -> Finding:
        conditions, notes, reorder = [], [], False
        for v, cl in sorted(conds.items()):
            pred = self.cfg.nodes[v].pred
            conditions.append(Condition(self.pos(v), self.loc(v), positions.c_text(pred),
                                        self.reason(v) or ""))
            note, other_calls = self.counter_example(v, cl, events)
            reorder = reorder or other_calls
            notes.append(Note(self.loc(v), note))
        shown, comm = self.shown(site), display(self.state, self.comm(site, events))
        what = f"{shown} on {comm}" if comm and self.callee[site].kind == "mpi" else (
            shown if self.callee[site].kind == "mpi" else f"call to {shown}")
        message = rules.COLLECTIVE_ORDER.text("reorder" if reorder else "unreached", what=what)
        return Finding(self.name, shown, comm, self.pos(site), self.loc(site), conditions,
                       notes, message=message,
                       callee=self.callee[site].name
                       if self.callee[site].kind in ("local", "external", "unknown") else "")

    def counter_example(self, v: int, cl: Cluster, events: Events) -> tuple[str, bool]:
        """barrier matching §5.2: what the two sides of a diverging branch do next
        (memoised per cluster and condition; the cluster is kept so its id stays its)."""
        key = (v, id(cl))
        if key not in self.examples or self.examples[key][0] is not cl:
            self.examples[key] = (cl, self._counter_example(v, cl, events))
        return self.examples[key][1]

    def _counter_example(self, v: int, cl: Cluster, events: Events) -> tuple[str, bool]:
        if v in cl.region.exits:
            return self.loop_example(v, cl, events), False
        if (v, id(cl)) in self.arm_exprs:
            return self.arms_example(v, self.arm_exprs[v, id(cl)]), False
        sides = diverging_successors(cl, v)
        if sides is None:
            return "the collective sequence depends on this condition", False
        inside, outside = sides
        stops = [first_stop(cl.region, inside, lambda n: n in events),
                 first_stop(cl.region, outside, lambda n: self.stops(n, events))]
        one, other = (self.describe(n, cl, events) for n in stops)
        succs = cl.region.succs[v]
        pred = display(self.state, positions.c_text(self.cfg.nodes[v].pred))
        who = (f"ranks where '{pred}' is {'true' if succs.index(sides[0]) == 0 else 'false'}"
               if self.cfg.nodes[v].label != "switch" else "ranks taking one case")
        names = {t.partition("@")[0] for t in events.get(stops[1], [])}
        mine = {t.partition("@")[0] for t in events.get(cl.sites[0], [])}
        return f"counter-example: {who} {one}, the others {other}", bool(names - mine)

    def arms_example(self, v: int, exprs: tuple[Expr, ...]) -> str:
        """Both arms' sequences side by side (barrier matching §5.2)."""
        pred = display(self.state, positions.c_text(self.cfg.nodes[v].pred))
        if self.cfg.nodes[v].label == "switch" or len(exprs) != 2:
            sides = "; ".join(f"case {i + 1}: {self.expr_text(e)}" for i, e in enumerate(exprs))
            return f"counter-example: the cases of '{pred}' make {sides}"
        return (f"counter-example: ranks where '{pred}' is true make "
                f"{self.expr_text(exprs[0])}, the others {self.expr_text(exprs[1])}")

    def expr_text(self, e: Expr) -> str:
        """An arm's expression as C-like text: the calls, and the tests they are under."""
        parts = []
        for item in e:
            if item[0] == "S":
                site = cast(int, item[1])
                parts.append(f"{self.shown(site)} at {self.where(site)}")
                continue
            key, arms = cast(tuple[str, object], item[0]), cast(tuple[Expr, ...], item[1])
            inner = [self.expr_text(a) for a in arms]
            other = "; ".join(inner[1:])
            if key[0] == "loop":  # ("loop", init, test, step, held)
                head = "; ".join(str(k) for k in cast(tuple[object, ...], key)[1:4])
                parts.append(f"for ({display(self.state, head)}) {{{inner[0]}}}")
                continue
            node = cast(int, key[1]) if key[0] == "node" else -1
            text = (str(key[1]) if node < 0 else "the loop" if node >= len(self.cfg.nodes)
                    else positions.c_text(self.cfg.nodes[node].pred))
            if 0 <= node < len(self.cfg.nodes) and self.cfg.nodes[node].label == "loop":
                parts.append(f"while ({display(self.state, text)}) {{{inner[0]}}}")
                continue
            parts.append(f"if ({display(self.state, text)}) {{{inner[0]}}}"
                         + (f" else {{{other}}}" if other != "nothing" else ""))
        return "; ".join(parts) if parts else "nothing"

    def loop_example(self, v: int, cl: Cluster, events: Events) -> str:
        """Counter-example for a branch that may end a loop holding collectives."""
        succs = self.cfg.nodes[v].succs
        leave = next(i for i, s in enumerate(succs) if s not in cl.region.body)
        site = cl.sites[0]
        pred = display(self.state, positions.c_text(self.cfg.nodes[v].pred))
        who = (f"ranks where '{pred}' is {'true' if leave == 0 else 'false'}"
               if self.cfg.nodes[v].label != "switch" else "ranks taking one case")
        return (f"counter-example: {who} leave the loop, the others run it again and "
                f"{self.describe(site, cl, events)}")

    def stops(self, node: int, events: Events) -> bool:
        n = self.cfg.nodes[node] if node < len(self.cfg.nodes) else None
        return n is not None and (node in events or n.kind in ("return", "end", "noreturn")
                                  or (n.kind == "call" and self.is_noreturn(node)))

    def is_noreturn(self, node: int) -> bool:
        c = self.callee.get(node)
        return c is not None and c.name in self.state.noreturn

    def describe(self, node: int, cl: Cluster, events: Events) -> str:
        if node in events:
            comm = display(self.state, self.comm(node, events))
            on = f" on {comm}" if comm and self.callee[node].kind == "mpi" else ""
            return f"call {self.shown(node)}{on} at {self.where(node)}"
        if node < len(self.cfg.nodes) and self.cfg.nodes[node].kind in ("return", "end"):
            return f"leave {self.name}() at {self.where(node)}"
        if node < len(self.cfg.nodes) and self.is_noreturn(node):
            return f"call {self.shown(node)} at {self.where(node)} and never return"
        if cl.region.header is not None:
            return f"go back to the loop at {self.where(cl.region.header)}"
        return f"leave {self.name}()"

    def argument_findings(self, events: Events) -> dict[int, Finding | None]:
        """Collectives whose root or reduction operator depends on the rank (None:
        checked at run time, not warned: an intercommunicator root, ``intercomm.py``).

        Beyond PARCOACH (which compares collective names only): such calls match in
        order, yet MPI requires every process to pass the same root and operator, so
        they hang or corrupt data at run time."""
        found: dict[int, Finding | None] = {}
        for node in sorted(events):
            info = catalogue.lookup(self.callee[node].name)
            call = self.cfg.nodes[node].call
            if info is None or call is None or call.args is None:
                continue
            args = call.args.exprs
            handle = (info.handle_arg(info.comm, positions.c_text(args[info.comm]))
                      if info.handle == "comm" and info.comm is not None
                      and info.comm < len(args) else "")
            for what, index in (("root", info.root), ("operator", info.op)):
                reason = (self.state.oracle.reason(self.name, args[index])
                          if index is not None and index < len(args) else None)
                if reason and handle:
                    reason = self.state.oracle.reason(self.name, args[index], handle)
                if reason and what == "root" and may_be_intercomm_root(
                        args[index], self.defn, self.state.cfgs):
                    found.setdefault(node, None)
                    continue
                if reason and found.get(node) is None:
                    comm = display(self.state, self.comm(node, events))
                    text = positions.c_text(args[index])
                    cond = Condition(self.pos(node), self.loc(node), text,
                                     f"the {what} '{text}' {reason}")
                    rule = rules.COLLECTIVE_ROOT if what == "root" else rules.COLLECTIVE_OP
                    found[node] = Finding(
                        self.name, info.name, comm, self.pos(node), self.loc(node), [cond],
                        tag=rule.tag, message=rule.text("differs", name=info.name, comm=comm))
        return found

    def plan(self, events: Events, flags: Flags) -> FunctionPlan:
        """Every collective, collective-calling and noreturn site, every exit, and the
        communicators checked at exits (PARCOACH Alg. 2 line 7; Lemma 2 needs all of
        them).

        An exit check must only see a valid handle (or MPI_COMM_NULL, which the
        checker skips), so a communicator expression is checked at exits only when:
        it names no local (parameters, globals, predefined handles); or it is a plain
        scalar local declared at the top level of the body before every exit and
        every noreturn call, with no ``goto`` able to jump over its declaration, and
        either a handle initialiser (a predefined communicator, a parameter or
        global, a function's result) or no initialiser: then the rewriting sets it
        to MPI_COMM_NULL at the declaration (``FunctionPlan.inits``).  Left out:
        arrays and struct fields of locals, any ``*pc`` (its target may be unset),
        copies of other locals, other initialisers, uninitialised ``static`` locals,
        locals of inner blocks.  Fields and elements of parameters
        and globals (``ctx->comm``) are trusted like the parameters themselves.
        MPI_Comm_free sets the handle to MPI_COMM_NULL, so exits after it are fine."""
        sites = [s for n, c in sorted(self.callee.items())
                 if (s := self.site(n, c, events, flags)) is not None]
        event_calls = {id(self.cfg.nodes[n].call) for n in events}
        with_calls = {id(r) for r in positions.returns(self.defn.body)
                      if any(id(x) in event_calls for x in _walk(r))}
        exits = positions.exits(self.state.tu, self.text, self.defn, with_calls)
        leaves = [p.start for p in exits] + [s.start for s in sites if s.kind == "noreturn"]
        inner, decls = positions.inner_names(self.defn), positions.body_decls(self.defn)
        comms: list[str] = []
        inits: list[Pos] = []
        for n in sorted(events):
            text = self.checked_comm(n, events)
            safe, init = self.exit_comm(text, inner, decls, leaves) if text else (False, None)
            if safe and text not in comms:
                comms.append(text)
            if init is not None and init not in inits:
                inits.append(init)
        body = positions.coord_pos(self.defn.body.coord)
        return FunctionPlan(
            self.name, positions.return_type(self.defn), body,
            positions.body_end(self.text, self.defn),
            self.text.definition_start(positions.coord_pos(self.defn.decl.coord)),
            sites, exits, comms, inits)

    def exit_comm(self, text: str, inner: set[str], decls: dict[str, c_ast.Decl],
                  leaves: list[Pos]) -> tuple[bool, Pos | None]:
        """Whether the communicator ``text`` is valid at every exit (rule in ``plan``),
        and where its declaration needs ``= MPI_COMM_NULL`` (None: nowhere)."""
        names = set(_IDENT.findall(text))
        if names & inner or text.startswith(("*", "(*")):  # through a pointer
            return False, None
        if not names & decls.keys():
            return True, None
        name = text.strip()
        decl = decls.get(name)
        if decl is None or not isinstance(decl.type, c_ast.TypeDecl):
            return False, None
        if "extern" in decl.storage:
            return True, None
        at = positions.coord_pos(decl.coord)
        if any(p < at for p in leaves) or positions.jumps_over(self.defn, at):
            return False, None
        if decl.init is not None:
            return self.handle_init(decl.init, decls), None
        end = self.text.offset(at) + len(name)
        after = self.text.text[end:end + 200].lstrip()[:1]  # no attribute, no array
        if ("static" in decl.storage or self.text.text[end - len(name):end] != name
                or after not in (",", ";")):
            return False, None
        return True, self.text.pos(end)

    def handle_init(self, init: c_ast.Node, decls: dict[str, c_ast.Decl]) -> bool:
        """A communicator initialiser known to be a handle: a function's result, a
        parameter or global, or a predefined communicator."""
        if isinstance(init, c_ast.FuncCall):
            return True
        if isinstance(init, c_ast.ID):
            return init.name not in decls
        return display(self.state, positions.c_text(init)) in _COMM_HANDLES

    def site(self, node: int, c: Callee, events: Events, flags: Flags) -> Site | None:
        call = self.cfg.nodes[node].call
        if call is None or (node not in events and c.name not in self.state.noreturn):
            return None
        start = self.pos(node)
        if not isinstance(call.name, c_ast.ID):
            start = self.text.callee_start(start)
        end = self.text.scan(start, ")")
        if self.text.text[self.text.offset(start)] == "(":
            end = self.text.scan(end, ")")
        kind = "noreturn" if node not in events else ("collective" if c.kind == "mpi" else "call")
        info = catalogue.lookup(c.name) if c.kind == "mpi" else None
        if kind == "collective" and (info is None or info.handle != "comm"):
            return None  # a window or file collective: no communicator check can read it
        conds = [Condition(self.pos(v), self.loc(v), positions.c_text(self.cfg.nodes[v].pred),
                           self.reason(v) or "") for v in sorted(flags.get(node, {}))]
        comm = self.checked_comm(node, events) if kind != "noreturn" else ""
        site = Site(kind, self.shown(node).removesuffix("()") if kind != "collective" else
                    self.shown(node), self.name, comm, start, end, self.loc(node),
                    flagged=node in flags, conditions=conds)
        tokens = [t.partition("@")[0] for t in events.get(node, [])]
        if kind == "call" and tokens and all(catalogue.lookup(t) for t in tokens):
            site.first = tokens[0]
        if info is not None:
            args = call.args.exprs if call.args is not None else []
            arg = {f: positions.c_text(args[i]) if i is not None and i < len(args) else None
                   for f, i in (("root", info.root), ("op", info.op), ("size", info.count),
                                ("datatype", info.datatype))}
            site.root, site.op, site.size = arg["root"], arg["op"], arg["size"]
            site.datatype = arg["datatype"]
        return site


def _walk(node: c_ast.Node) -> list[c_ast.Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack += [c for _, c in n.children()]
    return out


def collect(state: Context, everything: bool = False) -> TUAnalysis:
    """Findings, deferred findings, plans and statistics of the whole TU.

    Plans go to the functions with flagged sites only (PARCOACH Alg. 2), or with
    ``everything`` to every function with a collective event: then a check runs
    before every collective and at every exit, so that every correct program tests
    the rewriting and the checker (MPICC_WRAP_INSTRUMENT=all)."""
    text = positions.Text(state.tu.text)
    result = TUAnalysis([], [], dict(state.summaries), Stats(functions=len(state.cfgs)))
    for name in sorted(state.cfgs, key=lambda f: state.graph.defs[f].decl.coord.line):
        fn = _Function(state, name, text)
        events = state.events(name)
        flags = fn.flags(events)
        result.findings += one_per_cause([fn.finding(s, flags[s], events) for s in sorted(flags)])
        arguments = fn.argument_findings(events)
        result.findings += [f for n, f in sorted(arguments.items()) if f is not None]
        for n in arguments:
            flags.setdefault(n, {})
        result.deferred += _deferred(fn, state, events)
        result.stats.collective_sites += sum(1 for n in events if fn.callee[n].kind == "mpi")
        result.stats.flagged_sites += len(flags)
        if flags or (everything and events):
            plan = fn.plan(events, flags)
            result.plans.append(plan)
            result.stats.functions_instrumented += 1
            result.stats.instrumented_sites += sum(s.kind != "noreturn" for s in plan.sites)
    return result


def one_per_cause(found: list[Finding]) -> list[Finding]:
    """One warning per cause (issue 9): ordering findings of one function made
    conditional by the same rank-dependent conditions become one warning, at the first
    of them in the source, with a ``note:`` naming each of the others.  The plan still
    checks every one of them at run time."""
    heads: dict[tuple[tuple[int, int], ...], Finding] = {}
    kept: list[Finding] = []
    for f in sorted(found, key=lambda f: (f.pos.line, f.pos.column)):
        cause = tuple(sorted((c.pos.line, c.pos.column) for c in f.conditions))
        head = heads.get(cause) if f.tag == rules.COLLECTIVE_ORDER.tag and cause else None
        if head is None:
            heads.setdefault(cause, f)
            kept.append(f)
            continue
        head.notes.append(Note(f.loc, rules.COLLECTIVE_ORDER.text(
            "same_cause", message=f.message, line=head.loc.line)))
    return kept


def _deferred(fn: _Function, state: Context, events: Events) -> list[Finding]:
    """Findings that hold if an unseen external callee executes collectives."""
    wider = state.events(fn.name, unknown=True)
    if wider.keys() == events.keys():
        return []
    wanted = {s for s in wider if s not in events and fn.callee[s].kind == "unknown"}
    flags = fn.flags(wider, wanted)
    return [fn.finding(s, flags[s], wider) for s in sorted(flags) if s in wanted]
