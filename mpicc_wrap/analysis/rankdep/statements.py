"""Statements: φ-gating of writes under multi-valued predicates, early exits, loops
(iterated to a fixed point with widening), switch fall-through, declarations.

Alone arms (beyond both papers; pnetcdf's ``ncmpi_open``, benchmarks/realcode-fp/03)::

    MPI_Comm_rank(comm, &rank); MPI_Comm_size(comm, &nprocs);
    if (rank == 0) { format = read_header(); if (nprocs == 1 && format < 0) return format; }
    ... files[n++] = f;   /* a global table every later collective's guard reads */

The arm of a test ``s == 1`` (``analysis/alone.py``) on the size ``s`` of ``c`` runs only
when ``c`` has one member.  The solve takes ``MPI_Comm_size(c)`` as equal on every
process (package docstring), so in a run either every process that reaches the test
is alone in its ``c`` -- then every ``MPI_Comm_rank(c)`` is 0 and whatever derives from
it only is single-valued -- or none is, and nobody takes the arm.  So when everything
multi-valued the function has met so far derives from ``MPI_Comm_rank(c)`` alone (its
reasons are that seed's, nothing reached it from its callers), the alone arm is walked
ungated with every local single-valued, its exits gate nothing, and the test gates
neither arm.  (``if (nprocs > 1) { Bcast(&format); ... }`` then leaves ``format``
single-valued after the join: the root's copy survives only where it is alone.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.alone import alone_test, size_vars
from mpicc_wrap.analysis.rankdep.callbacks import Written
from mpicc_wrap.analysis.rankdep.consensus import arm_facts, decided, truth_key
from mpicc_wrap.analysis.rankdep.envbits import bits_key, merge_bits
from mpicc_wrap.analysis.rankdep.exchanges import Arm, exchanged, fold
from mpicc_wrap.analysis.rankdep.expressions import (
    Expressions,
    changed_locals,
    join,
    join_exits,
)
from mpicc_wrap.analysis.rankdep.lazyinit import init_test
from mpicc_wrap.analysis.rankdep.locations import (
    Ctl,
    FunctionFacts,
    Param,
    Ret,
    callee,
    deref,
    is_function_type,
    jumps_back,
)
from mpicc_wrap.analysis.rankdep.rootarm import RankLocals, calls_rank, root_arm
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend import positions

__all__ = ["Statements"]


class Statements(Expressions):
    """``_stmt(s)`` walks a statement and returns the gates of early exits taken under
    a multi-valued predicate: {"func": reason} for return and a backward goto,
    {"goto:L": reason} for a forward goto to label L (the gate ends at L: every rank
    that jumped and every rank that did not reaches it), {"brk"/"cont": reason} for
    loops.  Dispatch: ``visit_<Node>`` of the statement types (``STATEMENTS``)."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._loops: dict[int, tuple[dict[str, str], str | None]] = {}  # widening memo
        self._exposed: dict[int, frozenset[str]] = {}  # per loop: ``exposed_reads``
        self._labels: dict[str, dict[str, str]] = {}  # label -> facts of the gotos to it
        # id(if) -> its lazy initialisation's flag and other conjuncts (lazyinit.py)
        self._init_tests: dict[int, tuple[str, list[c_ast.Node]] | None] = {}
        # per loop being walked: the tracked locals written after a multi-valued
        # continue, with its test (``_skipping``)
        self._skipped: list[dict[str, str]] = []
        self.steps = 0  # statements walked: a deterministic measure of the work done
        # per function: its size variables (alone.py) and the reasons of its
        # MPI_Comm_rank seeds per communicator text; the reasons met in it so far
        self._alone: dict[str, tuple[dict[str, str], dict[str, set[str]]]] = {}
        self._met: dict[str, set[str]] = {}
        self._rank_locals: dict[str, RankLocals] = {}  # per function (rootarm.py)

    def _alone_facts(self, f: FunctionFacts) -> tuple[dict[str, str], dict[str, set[str]]]:
        if f.name not in self._alone:
            sizes = size_vars(f.body)
            seeds: dict[str, set[str]] = {}
            if sizes:
                for call in _Calls.of(f.body, ("MPI_Comm_rank", "PMPI_Comm_rank")):
                    if call.args is not None and call.args.exprs:
                        text = positions.c_text(call.args.exprs[0])
                        seeds.setdefault(text, set()).add(self._rank_seed(call))
            self._alone[f.name] = (sizes, seeds)
        return self._alone[f.name]

    def _track_reasons(self, f: FunctionFacts | None) -> None:
        """Collect the reasons met in ``f`` when it has size variables (union over the
        solver's walks, so the decisions below only go from ungated to gated)."""
        self._reasons_in = (self._met.setdefault(f.name, set())
                            if f is not None and self._alone_facts(f)[0] else None)

    def _alone_arm(self, s: c_ast.If, cond: str | None) -> int | None:
        """The arm (0: then, 1: else) of ``s`` walked ungated by the rule above."""
        f = self._func
        if f is None:
            return None
        sizes, seeds = self._alone_facts(f)
        found = alone_test(s.cond, sizes) if sizes else None
        if found is None:
            return None
        allowed = seeds.get(found[0], set())
        if (not allowed or self._entry_ctrl or self.store.fallback
                or (cond and cond not in allowed)
                or (self._ctrl and self._ctrl not in allowed)
                or self.store.get(Ctl(f.name))
                or any(self.store.get(Param(f.name, i)) for i in range(len(f.params)))
                or not self._met.get(f.name, set()) <= allowed):
            return None
        return found[1]

    def _stmt(self, s: c_ast.Node | None) -> dict[str, str]:
        if s is None:
            return {}
        self.steps += 1
        kind = type(s).__name__
        if kind in _CONTROL:  # what it holds is not the function's straight line
            if kind in _LOOPS and self._assigned:  # its test runs again after its body
                self._forget_written(s)
            self._nested += 1
            try:
                gates: dict[str, str] = self.visit(s)
            finally:
                self._nested -= 1
            return gates
        if kind in self.STATEMENTS:
            gates = self.visit(s)
            return gates
        self._value(s)
        return {}

    def _forget_written(self, s: c_ast.Node) -> None:
        """Forget the globals ``_assigned`` holds that ``s`` may write: those it
        assigns, or all when it calls a function that may write memory."""
        scan = _Writes()
        scan.visit(s)
        if scan.calls:
            self._assigned.clear()
        for name in scan.names:
            self._assigned.pop(name, None)

    def visit_Compound(self, s: c_ast.Compound) -> dict[str, str]:
        gates: dict[str, str] = {}
        frame = 0  # one gate frame for all the items after an exit (owned.py)
        for item in s.block_items or []:
            _end_at_labels(gates, item)
            if not gates:  # nothing left under a gate: both contexts below are no-ops
                gates.update(self._stmt(item))
                frame = 0
                continue
            survivors = self._survivors(gates)
            frame = frame or self._new_frame()
            with self._gated(next(iter(gates.values()), None), phi=survivors,
                             frame=frame), \
                    self._skipping(gates.get("cont") if survivors else None):
                for k, v in self._stmt(item).items():
                    gates.setdefault(k, v)
        return gates

    def _survivors(self, gates: dict[str, str]) -> bool:
        """After returns taken under a multi-valued predicate (and no other exit), the
        rest of the function runs on the processes that stayed, and they agree on what
        it computes from single-valued data; the others never read its locals again.
        So the exits gate what outlives the call -- memory, the result, the callees'
        writes (``_ctrl``) -- but not the tracked locals (``phi``), as at the join of a
        multi-valued ``if``.  A multi-valued break likewise: the loop or switch it
        leaves gates those locals at its end, where the leavers join (``visit_While``,
        ``visit_Switch``); and a multi-valued continue: the ranks that skipped the rest
        of the round come back at the loop's head, where the locals written after it
        carry its test (``_skipping``).  Not in a function with ``goto``, whose jumps
        may reach code before the exit."""
        return (bool(gates) and set(gates) <= {"func", "brk", "cont"}
                and ("cont" not in gates or bool(self._skipped))
                and self._func is not None and not self._func.has_goto)

    @contextmanager
    def _skipping(self, reason: str | None) -> Iterator[None]:
        """Walk the rest of a round after a continue taken under the multi-valued
        ``reason``: the tracked locals written here differ, at the loop's head, between
        the ranks that ran this part and those that skipped it (``visit_While`` gates
        them there); inside it the ranks that run it agree on what it computes from
        single-valued data, as after a return (pnetcdf's ``err = fill_var_buf(varp,
        ...)`` after ``if (noFill[i]) continue;``)."""
        if reason is None:
            yield
            return
        with self._join_frame() as written:
            yield
        for name in written:
            self._skipped[-1].setdefault(name, reason)

    @contextmanager
    def _loop_skips(self) -> Iterator[dict[str, str]]:
        """The tracked locals written after a multi-valued continue of the loop being
        walked, with its test (``_skipping`` fills it); the enclosing loop's again on
        leaving."""
        self._skipped.append({})
        try:
            yield self._skipped[-1]
        finally:
            self._skipped.pop()

    def _exit(self, kind: str) -> dict[str, str]:
        return {kind: self._ctrl} if self._ctrl else {}

    @contextmanager
    def _join_frame(self) -> Iterator[dict[str, int | None]]:
        """The tracked locals written inside, with the bits the writes may change
        (``_write`` adds them to the innermost frame; None: any), for the caller to
        gate at its join; on leaving, they are the enclosing frame's too."""
        self._phi.append({})
        try:
            yield self._phi[-1]
        finally:
            written = self._phi.pop()
            if self._phi:
                outer = self._phi[-1]
                for name, bits in written.items():
                    outer[name] = merge_bits(outer.get(name, 0), bits)

    def _gate_at_join(self, written: dict[str, int | None], reason: str | None) -> None:
        """Every local of ``written`` carries ``reason`` from here on (if any), in the
        bits its writes may have changed (``envbits.py``)."""
        if reason:
            for name in sorted(written):
                self._taint(name, reason, written[name])

    def visit_Break(self, s: c_ast.Node) -> dict[str, str]:
        if self._breaks and (left := self._breaks[-1]) is not None:
            self._breaks[-1] = join(left, self._env)  # reaches the switch's end
        return self._exit("brk")

    def visit_Continue(self, s: c_ast.Node) -> dict[str, str]:
        return self._exit("cont")

    def visit_Goto(self, s: c_ast.Goto) -> dict[str, str]:
        """The facts here reach the label (joined there, ``visit_Label``)."""
        self._labels[s.name] = join(self._labels.get(s.name, {}), self._env)
        return self._exit("func" if self._backward(s) else f"goto:{s.name}")

    def _backward(self, s: c_ast.Goto) -> bool:
        """The label of ``s`` is at or before it in the source (or not found): the jump
        may run code again, like a loop.  By position, not by what the walk has
        passed: in a loop's second round the walk has passed the label of a forward
        jump in the first (Scotch's ``goto abort;`` out of a pass's inner loop, to the
        pass counter's ``abort: if (++ passnum >= passnbr) break;``), and as a
        backward jump it gated the rest of the function."""
        return jumps_back(s, self._func.labels if self._func is not None else {})

    def visit_Return(self, s: c_ast.Return) -> dict[str, str]:
        """The result slot takes the value's facts, and its truth's (``consensus.py``):
        a value whose truth is uniform, returned under no per-process gate, leaves
        the truth of the result uniform (``p = vote(...) ? NULL : obj``-like
        functions: NULL on every process or on none)."""
        value = self._value(s.expr)
        r = value or self._ctrl
        if self._func is not None:
            if r:
                truthy = s.expr is not None and value is not None and not self._ctrl \
                    and self._truth_of(s.expr, value) is None
                self.store.mark(Ret(self._func.name), r, truthy=truthy)
            self.store.add_pts(Ret(self._func.name), self._pointees(s.expr))
        return self._exit("func")

    def visit_If(self, s: c_ast.If) -> dict[str, str]:
        cond = self._test(s.cond)
        arms = self._failures.get(id(s.cond))
        if arms is not None:  # only the arm a run without failures takes
            return self._stmt(s.iffalse if arms[0] else s.iftrue)
        before = dict(self._env)
        arm = self._alone_arm(s, cond)
        if arm is not None:
            return self._if_alone(s, arm, before)
        if (flag := self._init_flag(s)) is not None:
            return self._if_init(s, flag, cond, before)
        # φ-placement (003 §3, Fig. 2(d)): the processes that run an arm agree on what
        # it computes from single-valued data, so a multi-valued test gates the locals
        # the arms write at the join, not inside the arms (``for (i = 0; i < n; i++)
        # MPI_Gather(..., i, comm)`` under ``if (rank < n)`` has one root).  Not in a
        # function with ``goto``: a jump out of an arm would skip the join.
        phi = bool(cond) and self._func is not None and not self._func.has_goto
        outer = self._ctrl
        pair = (Arm(self._nested, owner=id(s.cond)), Arm(self._nested, owner=id(s.cond))) \
            if phi or self._exchange_arms else None
        if pair is not None and (found := self._root_arm(s.cond)) is not None:
            pair[0 if found[0] else 1].root = found[1]
        when_true, when_false = arm_facts(s.cond, self._agreement)
        with self._join_frame() as written, self._gated(cond, phi=phi):
            with self._resetting(s.iftrue, s.cond, outer) if cond else nullcontext():
                self._learn(when_true)
                gates = self._walk_arm(s.iftrue, pair[0] if pair else None)
            after_true, self._env = self._env, before
            self._learn(when_false)
            gates = {**self._walk_arm(s.iffalse, pair[1] if pair else None), **gates}
        self._env = join_exits(after_true, self._env, _leaves(s.iftrue), _leaves(s.iffalse))
        if phi:  # but the locals the two arms exchange (exchanges.py)
            swapped = exchanged(*pair) if pair else set()
            self._gate_at_join({k: v for k, v in written.items() if k not in swapped}, cond)
        if pair and self._exchange_arms:
            fold(self._exchange_arms[-1], *pair)
        return gates

    def _root_arm(self, test: c_ast.Node) -> tuple[bool, tuple[str, str]] | None:
        """The arm of ``test`` only a broadcast's root runs (rootarm.py)."""
        f = self._func
        if f is None or not calls_rank(f.calls):
            return None
        if f.name not in self._rank_locals:
            self._rank_locals[f.name] = RankLocals.of(f.body, f.locals, f.params)
        return root_arm(test, self._rank_locals[f.name])

    def _learn(self, facts: list[tuple[c_ast.Node, bool]]) -> None:
        """Take in the truths an arm of a vote knows on every process (consensus.py):
        a multi-valued local that is true everywhere keeps its value facts and gains
        a uniform truth; one that is false everywhere is 0 everywhere."""
        for pred, truth in facts:
            for name, value in decided(pred, truth):
                kind, local = self._target(name)
                if kind != "env" or not isinstance(local, str) or local not in self._env:
                    continue
                if value:
                    self._env[truth_key(local)] = self._env[local]
                else:
                    self._env.pop(local)
                    self._env.pop(truth_key(local), None)
                    self._env.pop(bits_key(local), None)

    def _walk_arm(self, s: c_ast.Node | None, arm: Arm | None) -> dict[str, str]:
        """Walk one arm of an ``if``, counting its collectives in ``arm``."""
        if arm is None:
            return self._stmt(s)
        self._exchange_arms.append(arm)
        try:
            return self._stmt(s)
        finally:
            self._exchange_arms.pop()

    def _if_alone(self, s: c_ast.If, arm: int, before: dict[str, str]) -> dict[str, str]:
        """An alone arm (module docstring): walked ungated, its exits dropped; the other
        arm is walked under the enclosing gate only."""
        alone, other = (s.iftrue, s.iffalse) if arm == 0 else (s.iffalse, s.iftrue)
        saved, self._ctrl = (self._ctrl, self._env_ctrl), None
        self._env_ctrl = None
        self._env = {}  # every multi-valued local derives from the rank, 0 here
        try:
            self._stmt(alone)
        finally:
            self._ctrl, self._env_ctrl = saved
        after_alone, self._env = self._env, before
        gates = self._stmt(other)
        self._env = join(after_alone, self._env)
        return gates

    def _init_flag(self, s: c_ast.If) -> str | None:
        """The flag of ``s`` when it is a lazy initialisation (lazyinit.py) under no
        per-process test of this function, the other conjuncts of its test
        single-valued."""
        f = self._func
        if f is None or self._ctrl:
            return None
        key = id(s)
        if key not in self._init_tests:
            self._init_tests[key] = init_test(s, _Memory(f))
        found = self._init_tests[key]
        if found is None or any(self._value(c) for c in found[1]):
            return None
        return found[0]

    def _if_init(self, s: c_ast.If, flag: str, cond: str | None,
                 before: dict[str, str]) -> dict[str, str]:
        """A lazy initialisation (lazyinit.py): the arm walked under no gate, not even
        the function's entry gate, its writes to ``flag`` under none inside it either;
        the tracked locals it writes gated at the join by the test (``cond``: per-process
        only where a write outside the idiom made the flag so)."""
        saved, self._entry_ctrl = self._entry_ctrl, None
        self._inits.append(flag)
        try:
            with self._join_frame() as written:
                gates = self._stmt(s.iftrue)
        finally:
            self._entry_ctrl = saved
            self._inits.pop()
        self._env = join(self._env, before)
        self._gate_at_join(written, cond)
        return gates

    def visit_While(self, s: c_ast.Node) -> dict[str, str]:
        """Iterate the body until the locals' facts stop growing (at most one round per
        tracked local, plus one).  Widening: a loop entered again in the same walk (it is
        nested in another loop) starts from the facts it ended with last time, so a nest
        of depth d costs O(d * locals) rounds instead of O(locals ** d).  A round is the
        last when the next would repeat it: it would run under the same gate (a test
        that became the loop's gate in this round already gated it) and read the same
        facts (``_unread``)."""
        if isinstance(s, c_ast.For):
            self._stmt(s.init)
        gate: str | None = None
        out: dict[str, str] = {}
        if id(s) in self._loops:
            last_env, gate = self._loops[id(s)]
            self._env = join(self._env, last_env)
        # Survivors (as after a return, ``_survivors``): the processes still in the loop
        # ran the same rounds, so they agree on the locals it computes from
        # single-valued data; a multi-valued test or break gates those locals at the
        # exit, where the processes that left earlier join.  Not with a multi-valued
        # continue (who skipped the rest of a round comes back) nor with goto.
        phi = self._func is not None and not self._func.has_goto
        self._breaks.append(None)
        with self._join_frame() as written, self._loop_skips() as skipped:
            while True:
                before = dict(self._env)
                old_gate, old_phi = gate, phi
                cond = self._test(s.cond)
                with self._gated(cond or gate, phi=phi):
                    gates = self._stmt(s.stmt)
                    for name, why in skipped.items():  # back from a continue
                        self._taint(name, why)
                    self._value(getattr(s, "next", None))
                # any exit under a multi-valued predicate gates the later rounds: a
                # break, and also a return or a goto out of the loop, before which
                # the ranks that stay go round again and store what the leavers do
                # not.  Not a continue (``_leaving``): every rank runs the next round.
                gate = gate or cond or _leaving(gates)
                phi = phi and "cont" not in gates
                out.update({k: v for k, v in gates.items() if k not in ("brk", "cont")})
                self._env = join(before, self._env)
                if (cond or gate) == (cond or old_gate) and phi == old_phi and (
                        self._env == before or self._unread(s, changed_locals(before, self._env))):
                    self._loops[id(s)] = (dict(self._env), gate)
                    break
        self._breaks.pop()
        self._gate_at_join(written, gate)
        return out

    visit_DoWhile = visit_For = visit_While

    def _unread(self, s: c_ast.Node, grown: set[str]) -> bool:
        """No local that became multi-valued in this round is read in loop ``s``, so
        another round would read what this one read and write what it wrote: the
        loop is at its fixed point (memory it wrote, the solver re-walks the function
        for).  Read means read before written in a round (``exposed_reads``): a box
        loop's counters, set at its head, are not.  hypre's
        ``hypre_Maxwell_PTopology`` nests its box loops nine deep, and a round that
        tainted only such counters and the loop's outputs was walked again at every
        level.  Not with ``goto``, whose jumps carry every fact, nor under a weak
        gate, where a write does not replace a local's fact."""
        if self._func is None or self._func.has_goto or self._weak:
            return False
        if id(s) not in self._exposed:
            self._exposed[id(s)] = exposed_reads(s)
        return not grown & self._exposed[id(s)]

    def visit_Switch(self, s: c_ast.Switch) -> dict[str, str]:
        cond = self._value(s.cond)
        saved = self._entry, self._case_jumped
        self._entry, self._case_jumped = dict(self._env), False
        self._breaks.append({})
        with self._join_frame() as written, self._gated(cond):
            gates = self._stmt(s.stmt)
        left = self._breaks.pop() or {}
        # who broke out early skipped the writes after the break
        self._gate_at_join(written, gates.get("brk"))
        self._env = join(join(self._entry, self._env), left)
        self._entry, self._case_jumped = saved
        return {k: v for k, v in gates.items() if k != "brk"}

    def visit_Case(self, s: c_ast.Node) -> dict[str, str]:
        """A case label is reached from the switch's test, with the facts of its entry,
        and by falling through from the case before, unless that one ended in a jump:
        its facts leave with its ``break`` (``visit_Break``, joined at the switch's end)
        or its ``return`` or ``goto``.  Before, every case began with what all the
        cases before it wrote: hypre's ``hypre_ILUSetup`` picks a permutation by
        ``switch (ilu_type)``; the per-process ``perm`` one case computes, passed as
        ``&perm`` to the next case's call, made that call's writes to the matrix
        per-process."""
        self._env = dict(self._entry) if self._case_jumped else join(self._env, self._entry)
        gates: dict[str, str] = {}
        for item in s.stmts or []:
            _end_at_labels(gates, item)
            with self._gated(next(iter(gates.values()), None)):
                gates = {**self._stmt(item), **gates}
        self._case_jumped = _ends_in_jump(s.stmts or [])
        return gates

    visit_Default = visit_Case

    def visit_Label(self, s: c_ast.Label) -> dict[str, str]:
        self._env = join(self._env, self._labels.get(s.name, {}))
        return self._stmt(s.stmt)

    def visit_Decl(self, s: c_ast.Decl) -> dict[str, str]:
        if not s.name or is_function_type(s.type):
            return {}
        target = [self._target(s.name)]
        if s.init is not None:
            r = self._value(s.init)
            self._allocation(s.name, s.init)
            if isinstance(s.type, c_ast.ArrayDecl) and target[0][0] != "env":
                target = [("loc", deref(self._key(s.name)))]
            static = "static" in (s.storage or []) or self._func is None
            self._write(target, r, strong=not static,
                        truthy=r is not None and self._truth_of(s.init, r) is None)
            self._point(target, self._pointees(s.init))
        elif target[0][0] == "env":
            self._write(target, None, strong=True)
        return {}

    def visit_DeclList(self, s: c_ast.Node) -> dict[str, str]:
        gates: dict[str, str] = {}
        for child in s:
            gates = {**self._stmt(child), **gates}
        return gates

    def _nothing(self, s: c_ast.Node) -> dict[str, str]:
        return {}

    visit_EmptyStatement = visit_Pragma = visit_Asm = _nothing
    visit_PreprocessorLine = visit_Typedef = _nothing


class _Memory:
    """The names of ``f`` that are file-scope or static variables."""

    def __init__(self, f: FunctionFacts) -> None:
        self._f = f

    def __contains__(self, name: object) -> bool:
        f = self._f
        return name not in f.params and (name not in f.locals or name in f.statics)


def _leaving(gates: dict[str, str]) -> str | None:
    """The gate of the exits that leave a loop (break, return, goto), not of a
    ``continue``: a rank that skips the rest of a round under a multi-valued test
    comes back for the next round with the others, so that round runs on every rank
    alike, from values the walk already judges -- the tracked locals written after
    the continue carry its test from the loop's head on (``Statements._skipping``),
    and memory written there is gated where it is written.  As a gate of every later
    round it made values read fresh at the top of each round per-process (one
    warning of pnetcdf's ``ncmpio_wait.c``, whose request loops skip entries per
    process; corpus ``correct_continue_skips_the_rest_of_a_round``)."""
    return next((v for k, v in gates.items() if k != "cont"), None)


def _leaves(s: c_ast.Node | None) -> bool:
    """``s`` (an arm) ends in a ``return`` or ``goto``, or a block that does, and has
    no ``break`` or ``continue`` of an enclosing loop or switch: every path through
    it leaves with a jump that takes its facts (the label's, ``visit_Goto``), none
    reaches the end of the ``if``."""
    arm = s
    while isinstance(s, c_ast.Compound):
        s = s.block_items[-1] if s.block_items else None
    return isinstance(s, (c_ast.Return, c_ast.Goto)) and not _OuterJumps.find(arm)


def _ends_in_jump(items: list[c_ast.Node]) -> bool:
    """The last of ``items`` (a case's statements) is a ``break``, ``return`` or
    ``goto``, or a block that ends in one: no fall-through to the next case."""
    last = items[-1] if items else None
    while isinstance(last, c_ast.Compound):
        last = last.block_items[-1] if last.block_items else None
    return isinstance(last, (c_ast.Break, c_ast.Return, c_ast.Goto))


class _OuterJumps(Visitor):
    """Whether a statement holds a ``break`` or ``continue`` that leaves it (one not
    inside a loop or switch of its own)."""

    def __init__(self) -> None:
        self.found = False

    @classmethod
    def find(cls, s: c_ast.Node | None) -> bool:
        scan = cls()
        if s is not None:
            scan.visit(s)
        return scan.found

    def visit_Break(self, node: c_ast.Node) -> None:
        self.found = True

    visit_Continue = visit_Break

    def _own(self, node: c_ast.Node) -> None:
        """A loop or switch: its breaks are its own (its continues too, but a switch's
        continue is the enclosing loop's)."""
        if isinstance(node, c_ast.Switch):
            _ContinueOnly.scan(node, self)

    visit_While = visit_DoWhile = visit_For = visit_Switch = _own


class _ContinueOnly(Visitor):
    """A ``continue`` in a switch (not in a loop inside it) leaves the switch."""

    def __init__(self, outer: _OuterJumps) -> None:
        self.outer = outer

    @classmethod
    def scan(cls, node: c_ast.Switch, outer: _OuterJumps) -> None:
        cls(outer).visit(node.stmt)

    def visit_Continue(self, node: c_ast.Node) -> None:
        self.outer.found = True

    def _loop(self, node: c_ast.Node) -> None:
        return

    visit_While = visit_DoWhile = visit_For = _loop


def _end_at_labels(gates: dict[str, str], item: c_ast.Node) -> None:
    """Drop the gates of forward gotos to the labels ``item`` carries: the statement a
    label names is reached by the ranks that jumped and by those that fell through."""
    while isinstance(item, c_ast.Label):
        gates.pop(f"goto:{item.name}", None)
        item = item.stmt


class _Reads(Visitor):
    """The identifiers an expression reads: every one but the target of a plain
    assignment ``x = e`` (``x += e``, ``x++`` and ``&x`` read ``x``)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    @classmethod
    def of(cls, node: c_ast.Node | None) -> set[str]:
        scan = cls()
        if node is not None:
            scan.visit(node)
        return scan.names

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.add(node.name)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if node.op != "=" or not isinstance(node.lvalue, c_ast.ID):
            self.visit(node.lvalue)
        self.visit(node.rvalue)


def exposed_reads(loop: c_ast.Node) -> frozenset[str]:
    """The names loop ``loop`` may read before writing them in a round (its test, body
    and step, in the walk's order): a read after a plain ``x = e`` or a declaration of
    ``x`` that every path of the round so far ran does not see the value ``x`` had at
    the loop's head.  The walk's own order: the arms of an ``if`` join (a name is
    written after it only if both arms wrote it); a nested loop or a switch may run
    no round or arm (what it writes is not written after it); its test and step are
    read again each round, so only what was written before it covers them (its body
    begins each round anew).  The caller keeps functions with ``goto`` out."""
    cover = _Covered()
    cover.stmt(loop.stmt, cover.stmt(loop.cond, set()))
    cover.stmt(getattr(loop, "next", None), set())
    return frozenset(cover.exposed)


class _Covered:
    """``stmt(s, written)``: the names written on every path through ``s``, added to
    ``written`` (a copy); reads of names not written so far go to ``exposed``."""

    def __init__(self) -> None:
        self.exposed: set[str] = set()

    def read(self, node: c_ast.Node | None, written: set[str]) -> None:
        self.exposed |= _Reads.of(node) - written

    def stmt(self, s: c_ast.Node | None, written: set[str]) -> set[str]:
        written = set(written)
        if s is None:
            return written
        if isinstance(s, c_ast.Compound | c_ast.DeclList):
            for item in (s.block_items if isinstance(s, c_ast.Compound) else s.decls) or []:
                written = self.stmt(item, written)
        elif isinstance(s, c_ast.If):
            self.read(s.cond, written)
            written = self.stmt(s.iftrue, written) & self.stmt(s.iffalse, written)
        elif isinstance(s, c_ast.For | c_ast.While | c_ast.DoWhile):
            if isinstance(s, c_ast.For) and s.init is not None:
                written = self.stmt(s.init, written)
            self.read(s.cond, written)
            self.read(getattr(s, "next", None), written)
            self.stmt(s.stmt, written)
        elif isinstance(s, c_ast.Decl):
            self.read(s.init, written)
            if s.name and "static" not in (s.storage or []):
                written.add(s.name)
        elif isinstance(s, c_ast.Assignment) and s.op == "=" and isinstance(
                s.lvalue, c_ast.ID):
            self.read(s.rvalue, written)
            written.add(s.lvalue.name)
        else:  # any other statement or expression: its reads, nothing surely written
            self.read(s, written)
        return written


class _Calls(Visitor):
    """The calls of some functions, by name, in a subtree."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.found: list[c_ast.FuncCall] = []

    @classmethod
    def of(cls, node: c_ast.Node, names: tuple[str, ...]) -> list[c_ast.FuncCall]:
        scan = cls(names)
        scan.visit(node)
        return scan.found

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if callee(node) in self.names:
            self.found.append(node)
        self.generic_visit(node)


_CONTROL = frozenset({"If", "Switch", "While", "DoWhile", "For"})
_LOOPS = frozenset({"While", "DoWhile", "For"})


class _Writes(Written):
    """The names a subtree assigns, increments or takes the address of
    (``callbacks.Written``), and whether it calls a function that may write memory
    (not read-only, not MPI)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = False

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.calls = self.calls or not catalogue.keeps_globals(callee(node))
        self.generic_visit(node)


Statements.STATEMENTS = frozenset(
    n.removeprefix("visit_") for n in vars(Statements) if n.startswith("visit_"))
