"""Rank dependence: which C expressions may evaluate differently on different processes.

Implements the multi-valued expression analysis of Zhang & Duesterwald (paper 003 §3,
Definition 3.1) on the pycparser AST of one translation unit.  An expression is
multi-valued if (i) it is a seed, (ii) it is data-dependent on a multi-valued expression,
or (iii) it is a φ-node whose φ-gate (controlling predicate) is multi-valued.

Seeds: rank outputs of MPI calls (``catalogue.lookup(name).rank_outputs``: the rank of
MPI_Comm_rank, received data, per-rank reduction results, ...), results and pointer
outputs of per-process library functions (getpid, rand, time, gethostname, MPI_Wtime...),
and calls of other TUs' functions whose summary says ``returns_rank``.  Outputs all ranks
share (``shared_outputs``: the MPI_Bcast buffer, the MPI_Allreduce result) are
single-valued again after the call.  Assumption: argc/argv are single-valued, since
mpiexec gives every process the same command line.

Termination (bounds that depend only on the size of the TU):

* Locations are finite: the TU's names (locals ``l:f:x``, globals ``g:x``, fields by name
  ``field:f``, return slots ``r:f``, parameter slots ``in:f:i``, call gates ``ctl:f``),
  each with at most ``MAX_DEREF`` (2) dereferences (``deref``: ``**k`` summarises every
  location reached from k through two or more pointers), plus ``ANY``.  So there are
  L <= 3 * (names of the TU) + 1 locations.
* Facts only grow: a location's reason, once set, stays; a points-to set only gains
  locations and is widened to ``{ANY}`` past ``MAX_POINTEES`` (96).  The lattice height
  is therefore at most L + 97 * L.
* The solver re-walks a unit only when a location it read grew, and at most
  ``WALKS_PER_UNIT`` * units + ``WALKS_SLACK`` walks in all; past that cap every memory
  location is multi-valued (``GAVE_UP``) and each unit is walked once more: the answer
  is conservative, never silent.
* Inside a walk, a loop iterates until its tracked locals stop growing (at most
  locals + 2 rounds); a loop re-entered in the same walk starts from its previous facts
  (widening), so a nest of depth d costs O(d * locals) rounds, not O(locals ** d).
  A function with ``goto`` is re-walked until its locals stop growing (weak updates).
* ``tests/test_analysis_termination.py`` prints the measured growth per program family.

Precision choices (each is conservative in the direction that does not hide a bug):

* Tracked locals (non-array, non-static locals and parameters whose address is taken
  only as a direct argument of a named call; assumption: callees do not keep such a
  pointer after returning) are flow-sensitive with strong updates, so
  ``if (rank == 0) n = read(); MPI_Bcast(&n, ...); if (n)`` is single-valued.  ``&x``
  passed to a function of this TU exchanges values with the callee's ``*param``.
  Everything else is flow-insensitive: globals, escaped locals, whole arrays (one
  object each, §3.2), struct fields by field name (``H->mype`` and ``s.mype`` are one
  location in every function), pointer targets (an Andersen-style
  points-to set instead of §3.2's "every dereference is a seed"), parameters at entry
  (multi-valued when some in-TU call site passes a multi-valued argument) and return
  values.  Calls are context-insensitive.  Variables of built-in arithmetic types hold
  no pointers, which keeps points-to sets small.  The TU is solved to a fixed point with
  a worklist: callers first, and a function is walked again only when a location it
  read has grown.
* φ-gating (§3, Fig. 2(d)): a write lexically inside an if/loop/switch/?:/&&/|| whose
  predicate is multi-valued is multi-valued.  After a return/goto (break/continue) gated
  by a multi-valued predicate, the rest of the function (loop) is gated too, since the
  ranks that stay see different values than those that left.  Loops whose exit depends on
  multi-valued values gate their whole body.  Functions with ``goto`` use weak updates.
  A function called under a multi-valued predicate makes its writes to non-local memory
  (globals, fields not reached through a parameter) multi-valued: ``if (rank == 0)
  init();`` leaves the globals init() sets different on different ranks.
* Calls of unknown external functions: the result is multi-valued iff an argument (or
  data it points to) is; a pointer argument is possibly written with a value derived from
  the other arguments (so ``sscanf(s, "%d", &x)`` leaves x single-valued, ``sprintf(buf,
  "%d", rank)`` makes buf multi-valued); functions of ``_READ_ONLY`` never write.
  Known MPI functions write only their catalogue outputs; per-process library functions
  are ``catalogue.rank_source`` entries (scanf is one: only rank 0 gets stdin).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.model import FunctionSummary

# External functions that only read through their pointer arguments.
_READ_ONLY = frozenset({
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "perror", "fflush", "free",
    "strlen", "strcmp", "strncmp", "memcmp", "fwrite", "write", "assert", "__assert_fail",
    "exit", "abort", "atoi", "atol", "atof", "strtol", "strtod", "strtoul", "fclose",
})

_BUILTIN_TYPES = frozenset({"void", "char", "short", "int", "long", "float", "double",
                            "signed", "unsigned", "_Bool", "__int128", "_Complex"})

# How a seed of each catalogue kind is described in a reason.
_KIND_REASON = {
    "rank": "depends on the process rank ({name} at {loc})",
    "p2p-recv": "depends on data received by {name} at {loc}",
}
_DEFAULT_KIND_REASON = "depends on a per-process result of {name} at {loc}"

# ("env", tracked local name) or ("loc", abstract location key); "ploc": a location
# reached through a parameter (a field of ``param->``).
Target = tuple[str, str]

# k-limiting of access paths: ``*k`` is what k points to, ``**k`` everything reached
# from k by two or more dereferences (a summary location: dereferencing it gives itself).
MAX_DEREF = 2
# The solver walks every unit once, then again only when something it read grew.  Past
# ``WALKS_PER_UNIT`` walks per unit on average (+ ``WALKS_SLACK``), every memory location
# is treated as multi-valued and each unit is walked one last time (sound, imprecise).
WALKS_PER_UNIT = 12
WALKS_SLACK = 64
# Widening of points-to sets: a set of more than MAX_POINTEES locations becomes {ANY},
# the location that stands for all memory (reading it is multi-valued as soon as any
# location is; writing a per-process value into it makes all memory per-process).
MAX_POINTEES = 96
ANY = "<any>"
EVERYTHING = "<everything>"  # in a walk's changes: every unit must be walked again
GAVE_UP = ("may differ between processes (the rank-dependence analysis reached its "
           "iteration limit in this file and treats memory conservatively)")


def _local_key(func: str, name: str) -> str:
    """Key of a local of ``func``: the ``l:`` prefix keeps it apart from globals
    (``g:x``), return slots (``r:f``) and the rest, whatever the function is named."""
    return f"l:{func}:{name}"


def deref(key: str) -> str:
    """The abstract location that the pointer stored at ``key`` points to, k-limited
    to ``MAX_DEREF`` dereferences so that the set of locations is finite."""
    if key == ANY:
        return ANY
    stars = len(key) - len(key.lstrip("*"))
    return key if stars >= MAX_DEREF else "*" + key


@dataclass
class _Func:
    """Facts about one function definition gathered before the fixed point."""

    name: str
    params: list[str]
    body: c_ast.Node
    locals: set[str] = field(default_factory=set)
    tracked: set[str] = field(default_factory=set)
    scalars: set[str] = field(default_factory=set)  # locals that cannot hold a pointer
    returns_scalar: bool = False
    has_goto: bool = False


def _source(name: str, nargs: int) -> tuple[bool, set[int]] | None:
    """For a per-process library function: (result is per-process, output arg indexes)."""
    entry = catalogue.rank_source(name)
    if entry is None:
        return None
    outs = set(entry.args)
    if entry.args_from is not None:
        outs |= set(range(entry.args_from, nargs))
    return entry.returns, outs


def _rank_env(e: c_ast.FuncCall, args: list[c_ast.Node]) -> bool:
    """True for getenv("PMI_RANK") and other launcher rank variables."""
    if _callee(e) != "getenv" or len(args) != 1:
        return False
    arg = args[0]
    return (isinstance(arg, c_ast.Constant) and arg.type == "string"
            and catalogue.is_rank_env(arg.value.strip('"')))


def _walk(node: c_ast.Node) -> Iterator[c_ast.Node]:
    """All nodes below ``node`` (pre-order), not entering struct/union definitions.
    Iterative: nested generators would cost O(depth) per node on deep expressions."""
    stack = [iter(node)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif not isinstance(child, (c_ast.Struct, c_ast.Union)):
            yield child
            stack.append(iter(child))


def _param_names(decl: c_ast.Decl) -> list[str]:
    args = getattr(decl.type, "args", None)
    names: list[str] = []
    for p in getattr(args, "params", None) or []:
        name = getattr(p, "name", None)
        names.append(name if isinstance(name, str) else "")
    return names


def _callee(call: c_ast.FuncCall) -> str | None:
    return call.name.name if isinstance(call.name, c_ast.ID) else None


def _escaping(body: c_ast.Node) -> set[str]:
    """Names whose address is taken other than as a direct argument of a named call
    (assumption: callees do not keep such pointers beyond the call)."""
    safe: set[int] = set()
    for node in _walk(body):
        if isinstance(node, c_ast.FuncCall) and node.args is not None and _callee(node):
            safe.update(id(a) for a in node.args.exprs)
    return {n.expr.name for n in _walk(body)
            if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)
            and id(n) not in safe}


def _is_scalar(t: c_ast.Node | None) -> bool:
    """True for a built-in arithmetic type (``int``, ``unsigned long``...): a variable of
    it holds no pointer.  Typedef names may hide pointers, so they are not scalars."""
    names: list[str] = getattr(getattr(t, "type", None), "names", None) or []
    return type(t).__name__ in ("TypeDecl", "TypeDeclExt") and bool(names) and set(
        names) <= _BUILTIN_TYPES


def _collect(defn: c_ast.FuncDef) -> _Func:
    f = _Func(defn.decl.name, _param_names(defn.decl), defn.body)
    f.locals = {p for p in f.params if p}
    f.returns_scalar = _is_scalar(getattr(defn.decl.type, "type", None))
    params = getattr(getattr(defn.decl.type, "args", None), "params", None) or []
    f.scalars = {p.name for p in params if isinstance(p, c_ast.Decl) and _is_scalar(p.type)}
    arrays_or_static: set[str] = set()
    for node in _walk(defn.body):
        if isinstance(node, c_ast.Goto):
            f.has_goto = True
        if isinstance(node, c_ast.Decl) and node.name and not _is_function_type(node.type):
            f.locals.add(node.name)
            if _is_scalar(node.type):
                f.scalars.add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl) or "static" in (node.storage or []):
                arrays_or_static.add(node.name)
    f.tracked = f.locals - arrays_or_static - _escaping(defn.body)
    return f


def _callers_first(funcs: dict[str, _Func]) -> list[str]:
    """Function names with callers before their callees (reverse DFS postorder), so
    that arguments and pointees flow down the call graph in one pass."""
    calls = {name: [c for n in _walk(f.body) if isinstance(n, c_ast.FuncCall)
                    and (c := _callee(n)) in funcs and c != name]
             for name, f in funcs.items()}
    order: list[str] = []
    done: set[str] = set()
    for root in funcs:
        stack = [(root, iter(calls[root]))]
        done.add(root)
        while stack:
            name, rest = stack[-1]
            nxt = next((c for c in rest if c not in done), None)
            if nxt is None:
                order.append(name)
                stack.pop()
            else:
                done.add(nxt)
                stack.append((nxt, iter(calls[nxt])))
    return order[::-1]


def _is_function_type(t: c_ast.Node) -> bool:
    return type(t).__name__ in ("FuncDecl", "FuncDeclExt")


class RankDependence:
    """Multi-valued expression analysis of one TU (see module docstring)."""

    def __init__(self, ast: c_ast.FileAST, external: dict[str, FunctionSummary],
                 loc: Callable[[int], str] | None = None) -> None:
        self._external = external
        self._loc = loc or (lambda line: f"line {line}")
        defs = [n for n in ast.ext if isinstance(n, c_ast.FuncDef)]
        self._funcs = {d.decl.name: _collect(d) for d in defs}
        self._global_decls = [n for n in ast.ext if isinstance(n, c_ast.Decl)]
        self._global_scalars = {d.name for d in self._global_decls if _is_scalar(d.type)}
        self._multi: dict[str, str] = {}  # abstract location -> reason
        self._pts: dict[str, set[str]] = {}  # abstract location -> pointees
        self._seen: dict[int, str | None] = {}  # id(expression) -> reason
        self._ever: dict[str, dict[str, str]] = {n: {} for n in self._funcs}
        self._func: _Func | None = None
        self._env: dict[str, str] = {}
        self._entry: dict[str, str] = {}  # env at the innermost switch's entry
        self._ctrl: str | None = None
        self._entry_ctrl: str | None = None  # the function is called under this gate
        self._weak = 0
        self._readonly = False
        self._reads: set[str] = set()  # locations read by the unit being walked
        self._changed: set[str] = set()  # locations that grew during that walk
        self._loops: dict[int, tuple[dict[str, str], str | None]] = {}  # widening memo
        self._fallback: str | None = None  # set when the solver hit its walk cap
        self.walks = 0  # unit walks the solver made (for the stress tests)
        self.steps = 0  # statements walked: a deterministic measure of the work done
        self._solve()

    # -- public API ---------------------------------------------------------------------

    def reason(self, func_name: str, expr: c_ast.Node) -> str | None:
        """None if ``expr`` has one value on all ranks, else a short human reason."""
        if id(expr) in self._seen:
            return self._seen[id(expr)]
        self._enter(func_name, self._ever.get(func_name, {}))
        self._readonly = True
        try:
            return self._value(expr)
        finally:
            self._readonly = False

    def returns_rank(self, func_name: str) -> bool:
        """True if the function's return value may differ between ranks."""
        return f"r:{func_name}" in self._multi or self._fallback is not None

    @property
    def gave_up(self) -> bool:
        """True if the solver hit its walk cap and answered conservatively."""
        return self._fallback is not None

    def rank_params(self, func_name: str) -> list[int]:
        """Parameters multi-valued because an in-TU call site passes a multi-valued
        argument (by index)."""
        f = self._funcs.get(func_name)
        if f is None:
            return []
        return [i for i in range(len(f.params))
                if f"in:{func_name}:{i}" in self._multi or self._fallback]

    def multi_valued_vars(self, func_name: str) -> set[str]:
        """Variable names that may be multi-valued somewhere in the function."""
        f = self._funcs.get(func_name)
        local = f.locals if f else set()
        names = set(self._ever.get(func_name, {}))
        names |= {n for n in local if _local_key(func_name, n) in self._multi}
        names |= {k[2:] for k in self._multi if k.startswith("g:") and k[2:] not in local}
        return names

    # -- fixed point ----------------------------------------------------------------------

    def _solve(self) -> None:
        """Walk units (file-scope declarations "", then each function) until no
        location grows; a unit is walked again only when a location it read grew.

        Termination: locations are finite (names of the TU, k-limited by ``deref``), the
        facts about them only grow (a reason once set stays; points-to sets only gain
        locations), so the fixed point exists; the walk cap bounds the time to reach it.
        """
        readers: dict[str, set[str]] = {}
        units = ["", *_callers_first(self._funcs)]
        work = collections.deque(units)
        pending = set(work)
        cap = WALKS_PER_UNIT * len(units) + WALKS_SLACK
        while work:
            if self.walks >= cap:
                self._give_up(units)
                return
            unit = work.popleft()
            pending.discard(unit)
            self._reads, self._changed = set(), set()
            self._walk_unit(unit)
            self.walks += 1
            for key in self._reads:
                readers.setdefault(key, set()).add(unit)
            woken = set(units) if EVERYTHING in self._changed else set().union(
                *(readers.get(k, set()) for k in self._changed))
            for again in sorted(woken - pending):
                work.append(again)
                pending.add(again)

    def _give_up(self, units: list[str]) -> None:
        """The walk cap was hit: every memory location is multi-valued from now on
        (``_get``), and one more walk of each unit recomputes its locals from that."""
        self._fallback = GAVE_UP
        for unit in units:
            self._walk_unit(unit)
            self.walks += 1

    def _walk_unit(self, unit: str) -> None:
        if not unit:
            self._enter(None, {})
            for decl in self._global_decls:
                self._decl(decl)
            return
        f = self._funcs[unit]
        self._loops = {}
        self._enter(f.name, {p: r for p in f.params
                             if p in f.tracked and (r := self._get(_local_key(f.name, p)))})
        self._entry_ctrl = self._get(f"ctl:{f.name}")
        self._weak = 1 if f.has_goto else 0
        snapshot: dict[str, str] | None = None
        while snapshot != self._env:  # goto may jump back: repeat until stable
            snapshot = dict(self._env)
            self._stmt(f.body)
            if not f.has_goto:
                break
        self._weak = 0

    def _enter(self, func: str | None, env: dict[str, str]) -> None:
        self._func = self._funcs.get(func) if func else None
        self._env = dict(env)
        self._ctrl = None
        self._entry_ctrl = None

    @contextmanager
    def _gated(self, reason: str | None, weak: bool = False) -> Iterator[None]:
        saved = self._ctrl
        self._ctrl = saved or reason
        self._weak += int(weak)
        try:
            yield
        finally:
            self._ctrl = saved
            self._weak -= int(weak)

    # -- locations ------------------------------------------------------------------------

    def _key(self, name: str) -> str:
        f = self._func
        return _local_key(f.name, name) if f and name in f.locals else f"g:{name}"

    def _scalar(self, name: str) -> bool:
        f = self._func
        if f and name in f.locals:
            return name in f.scalars
        return name in self._global_scalars

    def _target(self, name: str) -> Target:
        f = self._func
        return ("env", name) if f and name in f.tracked else ("loc", self._key(name))

    def _get(self, key: str) -> str | None:
        """Reason ``key`` is multi-valued (recorded as read by the current unit);
        ``ANY`` is multi-valued as soon as some location is."""
        self._reads.add(key)
        if key == ANY:
            return self._fallback or next(iter(self._multi.values()), None)
        return self._multi.get(key) or self._fallback

    def _pts_of(self, key: str) -> set[str]:
        """Pointees stored at ``key`` (recorded as read by the current unit)."""
        self._reads.add("&" + key)
        return self._pts.get(key, set())

    def _mark(self, key: str, reason: str) -> None:
        if self._readonly:
            return
        if key == ANY:  # a per-process value written anywhere: all memory differs
            if self._fallback is None:
                self._fallback = reason
                self._changed.add(EVERYTHING)
        elif key not in self._multi:
            self._multi[key] = reason
            self._changed.update((key, ANY))

    def _add_pts(self, key: str, pointees: set[str]) -> None:
        known = self._pts.setdefault(key, set())
        if ANY in known or pointees <= known or self._readonly:
            return
        known |= pointees
        if len(known) > MAX_POINTEES or ANY in known:
            self._pts[key] = {ANY}
        self._changed.add("&" + key)

    def _write(self, targets: list[Target], reason: str | None, strong: bool) -> None:
        reason = reason or self._ctrl
        for kind, name in targets:
            if kind != "env":
                outside = self._entry_ctrl if not self._is_local_key(kind, name) else None
                if reason or outside:
                    self._mark(name, reason or outside or "")
            elif reason:
                self._env.setdefault(name, reason)
                if self._func and not self._readonly:
                    self._ever[self._func.name].setdefault(name, reason)
            elif strong and not self._weak:
                self._env.pop(name, None)

    def _is_local_key(self, kind: str, key: str) -> bool:
        """Memory of the current call (locals, what parameters point to): writes to it
        are not gated by the gate the function is called under; the caller gates the
        objects it passes by address itself (``_pass_pointer``)."""
        f = self._func
        return kind == "ploc" or (f is not None
                                  and key.lstrip("*").startswith(_local_key(f.name, "")))

    def _multi_of(self, keys: set[str]) -> str | None:
        return next((r for k in sorted(keys) if (r := self._get(k))), None)

    # -- points-to (no side effects) ------------------------------------------------------

    def _pointees(self, e: c_ast.Node | None) -> set[str]:
        """Abstract locations the pointer value of ``e`` may point to."""
        if isinstance(e, c_ast.ID):
            if self._scalar(e.name):
                return set()
            return self._load({self._key(e.name)})
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            return self._addr_of(e.expr)
        if isinstance(e, (c_ast.ArrayRef, c_ast.UnaryOp)) and getattr(e, "op", "*") == "*":
            base = e.name if isinstance(e, c_ast.ArrayRef) else e.expr
            return self._load(self._pointees(base))
        if isinstance(e, c_ast.StructRef):
            return self._load({"field:" + e.field.name})
        if isinstance(e, c_ast.Cast):
            return self._pointees(e.expr)
        if isinstance(e, c_ast.BinaryOp):
            return self._pointees(e.left) | self._pointees(e.right)
        if isinstance(e, c_ast.TernaryOp):
            return self._pointees(e.iftrue) | self._pointees(e.iffalse)
        if isinstance(e, c_ast.Assignment):
            return self._pointees(e.rvalue)
        callee = self._funcs.get(_callee(e) or "") if isinstance(e, c_ast.FuncCall) else None
        if callee is not None and not callee.returns_scalar:
            return self._load({f"r:{callee.name}"})
        return set()

    def _load(self, keys: set[str]) -> set[str]:
        """Pointees of a pointer value stored at any of ``keys`` (widened to ``{ANY}``
        past ``MAX_POINTEES``)."""
        if ANY in keys:
            return {ANY}
        out: set[str] = set()
        for k in keys:
            out.add(deref(k))
            out.update(self._pts_of(k))
            if len(out) > MAX_POINTEES or ANY in out:
                return {ANY}
        return out

    def _addr_of(self, e: c_ast.Node) -> set[str]:
        if isinstance(e, c_ast.ID):
            return {self._key(e.name)}
        if isinstance(e, c_ast.ArrayRef):
            return self._pointees(e.name)
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return self._pointees(e.expr)
        if isinstance(e, c_ast.StructRef):
            return {"field:" + e.field.name}
        if isinstance(e, c_ast.Cast):
            return self._addr_of(e.expr)
        return set()

    # -- expressions ----------------------------------------------------------------------

    def _value(self, e: c_ast.Node | None) -> str | None:
        """Reason why ``e`` is multi-valued (None: single-valued); applies side effects."""
        if e is None:
            return None
        handler = _EXPR.get(type(e).__name__)
        r = handler(self, e) if handler else self._children(e)
        if not self._readonly:
            if r:
                self._seen[id(e)] = r
            else:
                self._seen.setdefault(id(e), None)
        return r

    def _children(self, e: c_ast.Node) -> str | None:
        reason = None
        for child in e:
            if _is_stmt(child):
                self._stmt(child)
            else:
                reason = self._value(child) or reason
        return reason

    def _id(self, e: c_ast.ID) -> str | None:
        kind, name = self._target(e.name)
        return self._env.get(name) if kind == "env" else self._get(name)

    def _binary(self, e: c_ast.BinaryOp) -> str | None:
        left = self._value(e.left)
        if e.op in ("&&", "||"):
            with self._gated(left, weak=True):
                right = self._value(e.right)
            return left or right
        return self._value(e.right) or left

    def _unary(self, e: c_ast.UnaryOp) -> str | None:
        if e.op in ("sizeof", "_Alignof", "__alignof__"):
            return None
        if e.op == "&":
            return self._lvalue(e.expr)[1]
        if e.op in ("++", "--", "p++", "p--"):
            targets, where = self._lvalue(e.expr)
            r = self._value_of_targets(targets) or where
            self._write(targets, r, strong=False)
            return r or self._ctrl
        inner = self._value(e.expr)
        if e.op == "*":
            return inner or self._multi_of(self._pointees(e.expr))
        return inner

    def _ternary(self, e: c_ast.TernaryOp) -> str | None:
        cond = self._value(e.cond)
        with self._gated(cond, weak=True):
            t = self._value(e.iftrue)
            f = self._value(e.iffalse)
        return cond or t or f

    def _assignment(self, e: c_ast.Assignment) -> str | None:
        r = self._value(e.rvalue)
        targets, where = self._lvalue(e.lvalue)
        if e.op != "=":
            r = r or self._value_of_targets(targets)
        r = r or where
        self._write(targets, r, strong=e.op == "=")
        self._point(targets, self._pointees(e.rvalue))
        return r or self._ctrl

    def _point(self, targets: list[Target], pointees: set[str]) -> None:
        if pointees:
            for kind, name in targets:
                self._add_pts(self._key(name) if kind == "env" else name, pointees)

    def _value_of_targets(self, targets: list[Target]) -> str | None:
        for kind, name in targets:
            r = self._env.get(name) if kind == "env" else self._get(name)
            if r:
                return r
        return None

    def _array_ref(self, e: c_ast.ArrayRef) -> str | None:
        sub = self._value(e.subscript)
        base = self._value(e.name)
        return sub or base or self._multi_of(self._pointees(e.name))

    def _struct_ref(self, e: c_ast.StructRef) -> str | None:
        if e.type == "->":
            base = self._value(e.name) or self._multi_of(self._pointees(e.name))
        else:
            base = self._value(e.name)
        return self._get("field:" + e.field.name) or base

    def _expr_list(self, e: c_ast.ExprList) -> str | None:
        reasons = [self._value(x) for x in e.exprs]
        return reasons[-1] if reasons else None

    def _lvalue(self, e: c_ast.Node) -> tuple[list[Target], str | None]:
        """Locations written by an assignment to ``e``, and the reason the written place
        itself differs between ranks (e.g. ``a[rank] = 0``)."""
        if isinstance(e, c_ast.ID):
            return [self._target(e.name)], None
        if isinstance(e, c_ast.ArrayRef):
            where = self._value(e.subscript) or self._value(e.name)
            return [("loc", k) for k in sorted(self._pointees(e.name))], where
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return [("loc", k) for k in sorted(self._pointees(e.expr))], self._value(e.expr)
        if isinstance(e, c_ast.StructRef):
            where = self._value(e.name) if e.type == "->" else self._lvalue(e.name)[1]
            via_param = (e.type == "->" and isinstance(e.name, c_ast.ID) and self._func
                         is not None and e.name.name in self._func.params)
            return [("ploc" if via_param else "loc", "field:" + e.field.name)], where
        if isinstance(e, c_ast.Cast):
            return self._lvalue(e.expr)
        return [], self._value(e)

    # -- calls ----------------------------------------------------------------------------

    def _call(self, e: c_ast.FuncCall) -> str | None:
        name = _callee(e)
        args = list(e.args.exprs) if e.args is not None else []
        values = [self._value(a) for a in args]
        if name is not None and name in self._funcs:
            return self._call_defined(name, args, values)
        source = _source(name, len(args)) if name else None
        if source is not None or _rank_env(e, args):
            return self._call_source(e, args, source or (True, set()))
        entry = catalogue.lookup(name) if name else None
        if entry is not None:
            return self._call_mpi(e, entry, args)
        callee = None if name else self._value(e.name)
        derived = next((r for r in values if r), None) or callee or next(
            (r for a in args if (r := self._multi_of(self._pointees(a)))), None)
        summary = self._external.get(name or "")
        if summary is not None and summary.returns_rank:
            derived = derived or self._seed(e, f"depends on the process rank (returned by "
                                               f"{name}() at {{loc}})")
        if name not in _READ_ONLY:
            for a in args:
                self._write(self._out(a), derived, strong=False)
        return derived

    def _call_defined(self, name: str, args: list[c_ast.Node], values: list[str | None]
                      ) -> str | None:
        f = self._funcs[name]
        gate = self._ctrl or self._entry_ctrl
        if gate:  # its writes to non-local memory happen on some ranks only
            self._mark(f"ctl:{name}", gate)
        for i, (arg, r) in enumerate(zip(args, values, strict=True)):
            if i < len(f.params) and f.params[i]:
                key = _local_key(name, f.params[i])
                if r:
                    self._mark(key, r)
                    self._mark(f"in:{name}:{i}", r)
                self._pass_pointer(key, arg)
        return self._get(f"r:{name}")

    def _pass_pointer(self, param: str, arg: c_ast.Node) -> None:
        """``&x`` of a tracked local: x and the callee's ``*param`` exchange values
        (x may be written by the call); any other pointer: the param points to it."""
        while isinstance(arg, c_ast.Cast):
            arg = arg.expr
        f = self._func
        if (f and isinstance(arg, c_ast.UnaryOp) and arg.op == "&"
                and isinstance(arg.expr, c_ast.ID) and arg.expr.name in f.tracked):
            name = arg.expr.name
            if self._env.get(name):
                self._mark(deref(param), self._env[name])
            self._write([("env", name)], self._get(deref(param)), strong=False)
        else:
            self._add_pts(param, self._pointees(arg))
            if self._ctrl:
                self._write(self._out(arg), None, strong=False)

    def _call_source(self, e: c_ast.FuncCall, args: list[c_ast.Node],
                     source: tuple[bool, set[int]]) -> str | None:
        reason = self._seed(e, "depends on {name}(), which differs between processes "
                               "(at {loc})")
        returns, outs = source
        for i in sorted(outs):
            if i < len(args):
                self._write(self._out(args[i]), reason, strong=False)
        return reason if returns else None

    def _call_mpi(self, e: c_ast.FuncCall, entry: catalogue.MPIFunc,
                  args: list[c_ast.Node]) -> str | None:
        template = _KIND_REASON.get(entry.kind, _DEFAULT_KIND_REASON)
        for i in entry.rank_outputs:
            if i < len(args):
                self._write(self._out(args[i]), self._seed(e, template), strong=False)
        for i in entry.shared_outputs:
            if i < len(args):
                self._write(self._out(args[i]), None, strong=True)
        return None

    def _seed(self, e: c_ast.Node, template: str) -> str:
        line = getattr(getattr(e, "coord", None), "line", 0) or 0
        return template.format(name=_callee(e) if isinstance(e, c_ast.FuncCall) else "",
                               loc=self._loc(line))

    def _out(self, arg: c_ast.Node) -> list[Target]:
        """Locations a callee may write through argument ``arg``."""
        if isinstance(arg, c_ast.Cast):
            return self._out(arg.expr)
        if isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
            return self._lvalue(arg.expr)[0]
        return [("loc", k) for k in sorted(self._pointees(arg))]

    # -- statements -----------------------------------------------------------------------

    def _stmt(self, s: c_ast.Node | None) -> dict[str, str]:
        """Walk a statement; return gates of early exits taken under a multi-valued
        predicate: {"func": reason} for return/goto, {"brk"/"cont": reason} for loops."""
        if s is None:
            return {}
        self.steps += 1
        handler = _STMT.get(type(s).__name__)
        if handler is not None:
            return handler(self, s)
        self._value(s)
        return {}

    def _compound(self, s: c_ast.Compound) -> dict[str, str]:
        gates: dict[str, str] = {}
        for item in s.block_items or []:
            with self._gated(next(iter(gates.values()), None)):
                for k, v in self._stmt(item).items():
                    gates.setdefault(k, v)
        return gates

    def _exit(self, kind: str) -> dict[str, str]:
        return {kind: self._ctrl} if self._ctrl else {}

    def _return(self, s: c_ast.Return) -> dict[str, str]:
        r = self._value(s.expr) or self._ctrl
        if self._func is not None:
            if r:
                self._mark(f"r:{self._func.name}", r)
            self._add_pts(f"r:{self._func.name}", self._pointees(s.expr))
        return self._exit("func")

    def _if(self, s: c_ast.If) -> dict[str, str]:
        cond = self._value(s.cond)
        before = dict(self._env)
        with self._gated(cond):
            gates = self._stmt(s.iftrue)
            after_true, self._env = self._env, before
            gates = {**self._stmt(s.iffalse), **gates}
        self._env = _join(after_true, self._env)
        return gates

    def _loop(self, s: c_ast.Node) -> dict[str, str]:
        """Iterate the body until the locals' facts stop growing (at most one round per
        tracked local, plus one).  Widening: a loop entered again in the same walk (it is
        nested in another loop) starts from the facts it ended with last time, so a nest
        of depth d costs O(d * locals) rounds instead of O(locals ** d)."""
        if isinstance(s, c_ast.For):
            self._stmt(s.init)
        gate: str | None = None
        out: dict[str, str] = {}
        if id(s) in self._loops:
            last_env, gate = self._loops[id(s)]
            self._env = _join(self._env, last_env)
        while True:
            before = dict(self._env)
            old_gate = gate
            cond = self._value(s.cond) if s.cond is not None else None
            with self._gated(cond or gate):
                gates = self._stmt(s.stmt)
                self._value(getattr(s, "next", None))
            gate = gate or cond or gates.get("brk") or gates.get("cont")
            out.update({k: v for k, v in gates.items() if k == "func"})
            self._env = _join(before, self._env)
            if self._env == before and gate == old_gate:
                self._loops[id(s)] = (dict(self._env), gate)
                return out

    def _switch(self, s: c_ast.Switch) -> dict[str, str]:
        cond = self._value(s.cond)
        saved, self._entry = self._entry, dict(self._env)
        with self._gated(cond):
            gates = self._stmt(s.stmt)
        self._env = _join(self._entry, self._env)
        self._entry = saved
        return {k: v for k, v in gates.items() if k != "brk"}

    def _case(self, s: c_ast.Node) -> dict[str, str]:
        self._env = _join(self._env, self._entry)
        gates: dict[str, str] = {}
        for item in s.stmts or []:
            with self._gated(next(iter(gates.values()), None)):
                gates = {**self._stmt(item), **gates}
        return gates

    def _decl(self, s: c_ast.Decl) -> dict[str, str]:
        if not s.name or _is_function_type(s.type):
            return {}
        target = [self._target(s.name)]
        if s.init is not None:
            r = self._value(s.init)
            if isinstance(s.type, c_ast.ArrayDecl):
                target = [("loc", deref(self._key(s.name)))]
            static = "static" in (s.storage or []) or self._func is None
            self._write(target, r, strong=not static)
            self._point(target, self._pointees(s.init))
        elif target[0][0] == "env":
            self._write(target, None, strong=True)
        return {}

    def _each(self, s: c_ast.Node) -> dict[str, str]:
        gates: dict[str, str] = {}
        for child in s:
            gates = {**self._stmt(child), **gates}
        return gates


def _join(a: dict[str, str], b: dict[str, str]) -> dict[str, str]:
    return {**b, **a}


def _is_stmt(node: c_ast.Node) -> bool:
    return type(node).__name__ in _STMT


_EXPR: dict[str, Callable[[RankDependence, c_ast.Node], str | None]] = {
    "Constant": lambda self, e: None,
    "ID": RankDependence._id,
    "BinaryOp": RankDependence._binary,
    "UnaryOp": RankDependence._unary,
    "TernaryOp": RankDependence._ternary,
    "Assignment": RankDependence._assignment,
    "FuncCall": RankDependence._call,
    "ArrayRef": RankDependence._array_ref,
    "StructRef": RankDependence._struct_ref,
    "ExprList": RankDependence._expr_list,
    "Cast": lambda self, e: self._value(e.expr),
    "Typename": lambda self, e: None,
    "TypeOfExpression": lambda self, e: None,
    "TypeOfDeclaration": lambda self, e: None,
}

_STMT: dict[str, Callable[[RankDependence, c_ast.Node], dict[str, str]]] = {
    "Compound": RankDependence._compound,
    "If": RankDependence._if,
    "While": RankDependence._loop,
    "DoWhile": RankDependence._loop,
    "For": RankDependence._loop,
    "Switch": RankDependence._switch,
    "Case": RankDependence._case,
    "Default": RankDependence._case,
    "Return": RankDependence._return,
    "Break": lambda self, s: self._exit("brk"),
    "Continue": lambda self, s: self._exit("cont"),
    "Goto": lambda self, s: self._exit("func"),
    "Label": lambda self, s: self._stmt(s.stmt),
    "Decl": RankDependence._decl,
    "DeclList": RankDependence._each,
    "EmptyStatement": lambda self, s: {},
    "Pragma": lambda self, s: {},
    "Asm": lambda self, s: {},
    "PreprocessorLine": lambda self, s: {},
    "Typedef": lambda self, s: {},
}
