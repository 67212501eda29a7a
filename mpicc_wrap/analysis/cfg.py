"""Control-flow graph of one C function, built from the pycparser AST.

Only what the collective analysis needs becomes a node: every function call gets a
node of its own (so a collective is alone in its node, as PARCOACH §3.1 assumes),
every control decision gets a ``branch`` node carrying its predicate, and ``nop``
nodes mark joins, loop headers and labels.  Short-circuit ``&&``/``||`` and ``?:``
whose later operands call functions are split into branch nodes, so a call there is
conditional.  A call that never returns (exit, MPI_Abort, a noreturn function) flows
to the ``noreturn`` exit, which flows to the unique ``exit``: it is an exit for
postdominance but stays distinguishable for messages.

A call that aborts the whole job (MPI_Abort, or a function whose every path does)
is different: no process is left waiting in a collective, so the paths that can only
end in an abort are pruned before Algorithm 1 (``_prune_aborts``); an error check
``if (bad) MPI_Abort(...)`` on one rank is not a divergence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue, graphs
from mpicc_wrap.analysis.literals import int_constant


@dataclass
class Node:
    """One CFG node.  ``kind``: entry, exit, noreturn, call, branch, return, end, nop."""

    id: int
    kind: str
    coord: object = None  # pycparser Coord of the call/predicate/return, if any
    call: c_ast.FuncCall | None = None
    pred: c_ast.Node | None = None  # branch predicate (the switch value for a switch)
    succs: list[int] = field(default_factory=list)
    fake: set[int] = field(default_factory=set)  # successors added for infinite loops
    label: str = ""  # "loop" for loop headers, label name for labels


@dataclass
class CFG:
    """The graph of one function: ``nodes[i].id == i``."""

    name: str
    nodes: list[Node]
    entry: int
    exit: int
    noreturn_exit: int
    end: int  # the node for falling off the closing brace
    loop_after: dict[int, int] = field(default_factory=dict)  # loop header -> node after it
    aborts: bool = False  # every path from entry ends in a job abort
    # what later passes derive from the graph once it is built (``orders.regions``)
    memo: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def preds(self) -> dict[int, list[int]]:
        """Predecessor lists of every node."""
        return _predecessors(self.nodes)

    def calls(self) -> list[Node]:
        """The call nodes reachable from entry, in id order."""
        seen = self.reachable()
        return [n for n in self.nodes if n.kind == "call" and n.id in seen]

    def reachable(self) -> set[int]:
        """Ids of the nodes reachable from entry."""
        return graphs.reachable(lambda n: self.nodes[n].succs, [self.entry])


def callee_name(call: c_ast.FuncCall) -> str | None:
    """Name of a directly called function, None for a call through an expression."""
    return call.name.name if isinstance(call.name, c_ast.ID) else None


def _has_call(node: c_ast.Node | None, memo: dict[int, bool]) -> bool:
    """Whether ``node`` holds a call or a statement expression; ``memo`` (by node id,
    for one build: the nodes outlive it) keeps ``expr``'s descent linear, not
    quadratic in the depth of an expression."""
    if node is None:
        return False
    found = memo.get(id(node))
    if found is None:
        found = isinstance(node, (c_ast.FuncCall, c_ast.Compound))
        for child in () if found else node:  # a loop, not any(): this is hot
            if _has_call(child, memo):
                found = True
                break
        memo[id(node)] = found
    return found


Preds = list[int]


class _Builder:
    """Builds a CFG statement by statement; ``cur`` lists the nodes whose control
    falls through to whatever comes next (empty after return/break/goto)."""

    def __init__(self, name: str, noreturn: frozenset[str],
                 aborts: frozenset[str] = frozenset(), error_exits: bool = True,
                 failures: Mapping[int, tuple[bool, bool]] | None = None) -> None:
        self.noreturn = noreturn
        self.failures = failures or {}
        self.aborts = aborts
        self.error_exits = error_exits
        self.abort_sink = -1
        self.calls: dict[int, bool] = {}  # _has_call's memo
        self.nodes: list[Node] = []
        self.entry = self.new("entry")
        self.exit = self.new("exit")
        self.noreturn_exit = self.new("noreturn")
        self.link([self.noreturn_exit], self.exit)
        self.name = name
        self.labels: dict[str, int] = {}
        self.breaks: list[Preds] = []
        self.continues: list[int] = []
        self.switches: list[int] = []  # branch nodes of the enclosing switches
        self.has_default: list[bool] = []
        self.loop_after: dict[int, int] = {}

    def new(self, kind: str, coord: object = None, **kw: object) -> int:
        node = Node(len(self.nodes), kind, coord, **kw)  # type: ignore[arg-type]
        self.nodes.append(node)
        return node.id

    def link(self, preds: Iterable[int], target: int) -> None:
        for p in preds:
            self.nodes[p].succs.append(target)

    def join(self, preds: Preds, kind: str = "nop", coord: object = None, label: str = "") -> int:
        node = self.new(kind, coord, label=label)
        self.link(preds, node)
        return node

    def label_node(self, name: str) -> int:
        if name not in self.labels:
            self.labels[name] = self.new("nop", label=name)
        return self.labels[name]

    # -- expressions: calls in evaluation order ------------------------------------
    def expr(self, e: c_ast.Node | None, cur: Preds) -> Preds:
        if e is None or not _has_call(e, self.calls):
            return cur
        if isinstance(e, c_ast.FuncCall):
            cur = self.expr(e.name, cur)
            cur = self.expr(e.args, cur)
            node = self.join(cur, "call", e.coord)
            self.nodes[node].call = e
            if callee_name(e) in self.aborts or (self.error_exits and error_exit(e)):
                self.link([node], self.sink())
                return []
            if callee_name(e) in self.noreturn:
                self.link([node], self.noreturn_exit)
                return []
            return [node]
        if (isinstance(e, c_ast.BinaryOp) and e.op in ("&&", "||")
                and _has_call(e.right, self.calls)):
            cur = self.expr(e.left, cur)
            return self.branch(e.left, cur, [lambda c: self.expr(e.right, c),
                                             lambda c: c])
        if isinstance(e, c_ast.TernaryOp) and (_has_call(e.iftrue, self.calls)
                                                 or _has_call(e.iffalse, self.calls)):
            cur = self.expr(e.cond, cur)
            return self.branch(e.cond, cur, [lambda c: self.expr(e.iftrue, c),
                                             lambda c: self.expr(e.iffalse, c)])
        if isinstance(e, c_ast.Compound):  # GNU statement expression ({ ... })
            return self.stmt(e, cur)
        if isinstance(e, c_ast.Assignment):
            return self.expr(e.lvalue, self.expr(e.rvalue, cur))
        for _, child in e.children():
            cur = self.expr(child, cur)
        return cur

    def sink(self) -> int:
        """The node that paths ending the job flow to (pruned: ``_prune_aborts``)."""
        if self.abort_sink < 0:
            self.abort_sink = self.new("abort")
        return self.abort_sink

    def branch(self, pred: c_ast.Node, cur: Preds, arms: list) -> Preds:
        """A two-way decision: each arm starts at a fresh nop node (true first).  The
        arm of a failure test that only a failed MPI call or allocation takes
        (``failures.py``) is not built: it flows to the sink, like an abort."""
        node = self.join(cur, "branch", pred.coord)
        self.nodes[node].pred = pred
        fails = self.failures.get(id(pred), (False, False))
        out: Preds = []
        for arm, failure in zip(arms, fails, strict=False):
            start = self.join([node])
            if failure:
                self.link([start], self.sink())
            else:
                out += arm([start])
        return out

    # -- statements ----------------------------------------------------------------
    def stmts(self, items: Iterable[c_ast.Node] | None, cur: Preds) -> Preds:
        for item in items or ():
            cur = self.stmt(item, cur)
        return cur

    def stmt(self, s: c_ast.Node | None, cur: Preds) -> Preds:
        if s is None:
            return cur
        handler = getattr(self, "s_" + type(s).__name__, None)
        if handler is not None:
            return handler(s, cur)
        return self.expr(s, cur)

    def s_Compound(self, s: c_ast.Compound, cur: Preds) -> Preds:
        return self.stmts(s.block_items, cur)

    def s_Decl(self, s: c_ast.Decl, cur: Preds) -> Preds:
        return self.expr(s.init, cur)

    def s_DeclList(self, s: c_ast.DeclList, cur: Preds) -> Preds:
        return self.stmts(s.decls, cur)

    def s_If(self, s: c_ast.If, cur: Preds) -> Preds:
        cur = self.expr(s.cond, cur)
        return self.branch(s.cond, cur, [lambda c: self.stmt(s.iftrue, c),
                                         lambda c: self.stmt(s.iffalse, c)])

    def loop(self, cond: c_ast.Node | None, body: c_ast.Node, nxt: c_ast.Node | None,
             cur: Preds, test_first: bool) -> Preds:
        """while/for (test first) and do-while; header is a nop marked "loop"."""
        header = self.join(cur, label="loop", coord=getattr(cond, "coord", None))
        cont = self.new("nop")
        self.breaks.append([])
        self.continues.append(cont)
        exits: Preds = []
        if test_first:
            into = self.test(cond, [header], exits)
            self.link(self.stmt(body, into), cont)
            self.link(self.expr(nxt, [cont]), header)
        else:
            self.link(self.stmt(body, [header]), cont)
            self.link(self.test(cond, [cont], exits), header)
        self.continues.pop()
        after = self.join(exits + self.breaks.pop())
        self.loop_after[header] = after
        return [after]

    def test(self, cond: c_ast.Node | None, cur: Preds, exits: Preds) -> Preds:
        """Evaluate a loop condition; append the false edge to ``exits``."""
        if cond is None:  # for (;;): only break, return or goto leave it
            return cur
        cur = self.expr(cond, cur)
        node = self.join(cur, "branch", cond.coord)
        self.nodes[node].pred = cond
        true = self.join([node])
        exits.append(self.join([node]))
        return [true]

    def s_While(self, s: c_ast.While, cur: Preds) -> Preds:
        return self.loop(s.cond, s.stmt, None, cur, True)

    def s_DoWhile(self, s: c_ast.DoWhile, cur: Preds) -> Preds:
        if int_constant(s.cond) == 0:
            return self.once(s.stmt, cur)
        return self.loop(s.cond, s.stmt, None, cur, False)

    def once(self, body: c_ast.Node, cur: Preds) -> Preds:
        """``do { body } while (0)``, the statement macro's wrapper (hdf5's ``VRFY``,
        every ``HGOTO_ERROR``): the body runs once, and ``break`` and ``continue``
        (which tests the false condition) both leave it.  No loop: a loop's header,
        back edge and region would make Algorithm 1 analyse every macro use as a loop
        of its own, and a collective in it as one in a loop (no fixed sequence)."""
        cont = self.new("nop")
        self.breaks.append([])
        self.continues.append(cont)
        self.link(self.stmt(body, cur), cont)
        self.continues.pop()
        return [self.join([cont, *self.breaks.pop()])]

    def s_For(self, s: c_ast.For, cur: Preds) -> Preds:
        cur = self.stmt(s.init, cur)
        return self.loop(s.cond, s.stmt, s.next, cur, True)

    def s_Switch(self, s: c_ast.Switch, cur: Preds) -> Preds:
        cur = self.expr(s.cond, cur)
        node = self.join(cur, "branch", s.cond.coord, label="switch")
        self.nodes[node].pred = s.cond
        self.breaks.append([])
        self.switches.append(node)
        self.has_default.append(False)
        end = self.stmt(s.stmt, [])
        self.switches.pop()
        if not self.has_default.pop():
            end = end + [self.join([node])]
        return end + self.breaks.pop()

    def case_label(self, stmts: list[c_ast.Node], cur: Preds) -> Preds:
        label = self.join(cur + self.switches[-1:])
        return self.stmts(stmts, [label])

    def s_Case(self, s: c_ast.Case, cur: Preds) -> Preds:
        return self.case_label(s.stmts, cur)

    def s_Default(self, s: c_ast.Default, cur: Preds) -> Preds:
        self.has_default[-1] = True
        return self.case_label(s.stmts, cur)

    def s_Break(self, s: c_ast.Break, cur: Preds) -> Preds:
        if self.breaks:
            self.breaks[-1].extend(cur)
        return []

    def s_Continue(self, s: c_ast.Continue, cur: Preds) -> Preds:
        if self.continues:
            self.link(cur, self.continues[-1])
        return []

    def s_Return(self, s: c_ast.Return, cur: Preds) -> Preds:
        cur = self.expr(s.expr, cur)
        self.link([self.join(cur, "return", s.coord)], self.exit)
        return []

    def s_Goto(self, s: c_ast.Goto, cur: Preds) -> Preds:
        self.link(cur, self.label_node(s.name))
        return []

    def s_Label(self, s: c_ast.Label, cur: Preds) -> Preds:
        node = self.label_node(s.name)
        self.link(cur, node)
        return self.stmt(s.stmt, [node])

    def s_FuncDef(self, s: c_ast.FuncDef, cur: Preds) -> Preds:  # GNU nested function
        return cur


def _add_fake_exits(nodes: list[Node], entry: int, exit_id: int) -> None:
    """Give every reachable region that cannot reach exit (infinite loops) a fake
    edge to exit, so postdominance is defined everywhere."""
    preds = _predecessors(nodes)
    reaches: set[int] = set()

    def mark(start: int) -> None:
        graphs.reachable(preds.__getitem__, [start], seen=reaches)

    mark(exit_id)
    order: list[int] = []
    seen, todo = {entry}, [entry]
    while todo:
        i = todo.pop()
        order.append(i)
        for s in nodes[i].succs:
            if s not in seen:
                seen.add(s)
                todo.append(s)
    for i in order:
        if i not in reaches:
            nodes[i].succs.append(exit_id)
            nodes[i].fake.add(exit_id)
            preds[exit_id].append(i)
            mark(i)


def error_exit(call: c_ast.FuncCall) -> bool:
    """True for a call that ends this process with a failure status (``abort()``, a
    failed ``assert``, ``exit(1)``, ``exit(code)``): the launcher then ends the job."""
    name = callee_name(call)
    if name in catalogue.ERROR_EXITS:
        return True
    index = catalogue.STATUS_EXITS.get(name or "")
    if index is None:
        return False
    args = call.args.exprs if call.args is not None else []
    if index >= len(args):
        return True
    status = args[index]
    while isinstance(status, c_ast.Cast):
        status = status.expr
    return not (isinstance(status, c_ast.Constant) and _is_zero(status.value))


def _is_zero(literal: str) -> bool:
    """True for an integer literal of value 0 (``0``, ``0L``, ``0x0u``)."""
    try:
        return int(literal.rstrip("uUlL"), 0) == 0
    except ValueError:
        return literal.rstrip("uUlL") in ("0", "00")


def build(func: c_ast.FuncDef, noreturn: frozenset[str],
          aborts: frozenset[str] = frozenset(), error_exits: bool = True,
          failures: Mapping[int, tuple[bool, bool]] | None = None) -> CFG:
    """The CFG of ``func``; calls to names in ``noreturn`` end at the noreturn exit,
    calls to names in ``aborts`` (and, with ``error_exits``, calls that exit with a
    failure status) end the job and their paths are pruned, and so are the failure
    arms of the tests in ``failures`` (``failures.failure_tests``)."""
    b = _Builder(func.decl.name, noreturn, aborts, error_exits, failures)
    cur = b.stmt(func.body, [b.entry])
    end = b.join(cur, "end", func.body.coord)
    b.link([end], b.exit)
    doomed = _prune_aborts(b.nodes, b.exit, b.abort_sink) if b.abort_sink >= 0 else set()
    _add_fake_exits(b.nodes, b.entry, b.exit)
    return CFG(func.decl.name, b.nodes, b.entry, b.exit, b.noreturn_exit, end, b.loop_after,
               aborts=b.entry in doomed)


def _predecessors(nodes: list[Node]) -> dict[int, list[int]]:
    """Predecessor lists of every node of ``nodes``."""
    return graphs.predecessors({n.id: n.succs for n in nodes})


def _reaching(nodes: list[Node], target: int) -> set[int]:
    """Nodes with a path to ``target``."""
    return graphs.reachable(_predecessors(nodes).__getitem__, [target])


def _prune_aborts(nodes: list[Node], exit_id: int, sink: int) -> set[int]:
    """Cut the nodes that can end only in a job abort; return them.

    Such paths leave no process blocked (MPI_Abort terminates every process of the
    job), so they are not alternatives to a collective; keeping them would blame the
    error check guarding the abort."""
    doomed = _reaching(nodes, sink) - _reaching(nodes, exit_id)
    for n in nodes:
        if n.id in doomed:
            n.kind, n.call, n.pred, n.succs = "nop", None, None, []
        else:
            n.succs = [s for s in n.succs if s not in doomed]
    return doomed
