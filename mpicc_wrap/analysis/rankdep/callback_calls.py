"""How a walk treats the calls that reach callbacks (``callbacks.py``): a call through
a parameter every call of the file binds (``_bound``), one left to the callers in the
solve for summaries (``_deferred``), a caller running the function it passes as the
callee calls it back (``_call_backs``), and a caller in another file passing a
function the callee's file did not bind (``_unbound``).  A mixin of
``expressions.Expressions``, which provides the walk itself."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycparser import c_ast

from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.rankdep import callbacks, effects
from mpicc_wrap.analysis.rankdep.locations import (
    Ctl,
    Global,
    Loc,
    Local,
    Param,
    Target,
    deref,
    uncast,
)
from mpicc_wrap.analysis.rankdep.pointsto import PointsTo
from mpicc_wrap.model import FunctionSummary

__all__ = ["CallbackCalls"]


def _is_null(arg: c_ast.Node) -> bool:
    """A null pointer constant, an integer constant expression of value 0 under casts
    (``0``, ``NULL``, ``(void *) 0``): no function."""
    return int_expression(arg) == 0


def _locs(targets: Iterable[Target]) -> set[Loc]:
    """The memory locations among ``targets`` (not the tracked locals)."""
    return {t for _, t in targets if not isinstance(t, str)}


class CallbackCalls(PointsTo):
    """The callback rules of the walk (module docstring)."""

    # Set by ``Expressions.__init__`` (see there)
    _external: dict[str, FunctionSummary]
    _ctrl: str | None
    _arms: dict[int, tuple[c_ast.Node, list[c_ast.FuncCall]] | None]
    _callbacks: dict[tuple[str, str], tuple[str, ...]]
    _pinned: frozenset[str]
    _pinned_writes: dict[str, list[str]]
    _defer: bool
    defers: bool
    _handed: dict[str, dict[int, set[Loc]]]

    # The walk's own methods (``Expressions``), which these rules call
    def _seed(self, e: c_ast.Node, template: str) -> str:
        raise NotImplementedError

    def _write(self, targets: list[Target], reason: str | None, strong: bool,
               mask: int | None = None) -> None:
        raise NotImplementedError

    def _out(self, arg: c_ast.Node) -> list[Target]:
        raise NotImplementedError

    def _pointed(self, args: list[c_ast.Node], memory: bool, locals_too: bool
                 ) -> str | None:
        raise NotImplementedError

    def _summary_targets(self, tokens: list[str], args: list[c_ast.Node],
                         skip: set[int] | frozenset[int]) -> list[Target]:
        raise NotImplementedError

    def _own_param(self, name: str) -> int | None:
        """The index of ``name`` among the parameters of the function walked, when a
        call through it is a callback (no function of that name, no bound one)."""
        f = self._func
        if f is None or name not in f.params or (f.name, name) in self._callbacks:
            return None
        return f.params.index(name)

    def _deferred(self, k: int, handed: Mapping[int, list[Target]], rank: bool) -> bool:
        """A call through parameter ``k`` of the function walked (direct, or handed to
        a callee that calls it), which hands the callback ``handed`` (by its
        argument position) and, with ``rank``, is made on some processes only or
        with arguments that differ: in the solve for summaries its effects are left
        to the callers, which know the function (``called_params``; what it hands,
        ``_handed``, wakes the callers in the TU when it grows); elsewhere an
        unknown call (and the solve for summaries must run: ``defers``)."""
        if not self._defer:
            self.defers = self.defers or not self.store.readonly
            return False
        f = self._func
        assert f is not None
        self.store.flag(Ctl(f"{f.name}()#{k}"), "calls its parameter")
        if rank:
            self.store.flag(Ctl(f"{f.name}()#{k}!"), "calls it per-process")
        if not self.store.readonly:
            mine = self._handed.setdefault(f.name, {})
            for i, targets in handed.items():
                new = _locs(targets)
                if not new <= mine.setdefault(i, set()):
                    mine[i] |= new
                    self.store.grew(Ctl(f"{f.name}()@"))  # its callers' reads
        return True

    def _call_backs(self, e: c_ast.Node, name: str, positions: Iterable[int],
                    args: list[c_ast.Node], values: list[str | None],
                    handed: Mapping[int, list[Target]], returned: set[int],
                    ranked: set[int]) -> str | None:
        """``name`` calls the functions it is given at ``positions`` (its summary's
        ``calls_params``, or the flags of a function of the TU), handing them
        ``handed`` (here, by the callback's argument position; ``returned``: the
        positions where that is the memory ``name`` returns), per-process at
        ``ranked`` (on some processes, or with arguments that differ).  Runs each
        function given as ``name`` calls it back (callbacks.py); why the result
        may differ, if it does."""
        result = None
        for k in positions:
            arg = args[k] if k < len(args) else None
            if arg is None or _is_null(arg):
                continue
            # ``c ? f : NULL`` passes f, chosen by c: the argument's value is c's
            chosen = values[k] if isinstance(uncast(arg), c_ast.TernaryOp) else None
            some = self._seed(e, f"depends on the process rank ({name}() calls it back "
                                 f"on some processes, at {{loc}})") if k in ranked else None
            for fn in callbacks.candidates(arg):
                own = self._own_param(fn) if fn is not None else None
                if own is not None and self._deferred(
                        own, handed, k in ranked or bool(self._ctrl or chosen)):
                    continue
                why = some or chosen  # a choice that differs: each runs on some processes
                through = self._run_back(fn, handed, why)
                if through is None:  # unknown: it may write all it is handed, from all of it
                    why = why or self.store.first(
                        _locs(t for ts in handed.values() for t in ts))
                    through = set(handed) | returned
                    for i in sorted(through):
                        self._write(handed.get(i, []), why, strong=False)
                if through & returned:
                    result = result or why or self._seed(
                        e, f"depends on the process rank (written back by {name}() at "
                           f"{{loc}})")
        return result

    def _run_back(self, fn: str | None, handed: Mapping[int, list[Target]],
                  why: str | None) -> set[int] | None:
        """The function ``fn`` called back with ``handed``, per-process when ``why``:
        the positions it writes through (None: unknown).  A function of the TU runs
        (``_called_back``); another file's is applied from its summary."""
        if fn is None:
            return None
        if fn in self._funcs and fn not in self._pinned:
            self._called_back(fn, handed, why)
            return {i for i in range(len(self._funcs[fn].params))
                    if self.store.flagged(Ctl(f"{fn}()*{i}"))}
        summary = self._external.get(fn)
        if fn in self._pinned:
            writes, ranked = self._pinned_writes.get(fn), []
        elif summary is not None and not summary.calls_params:
            writes, ranked = summary.writes, summary.rank_writes or []
        else:
            return None
        if writes is None or effects.EVERYTHING_TOKEN in writes + ranked:
            return None
        seed = f"depends on the process rank (written by {fn}(), called back)"
        through: set[int] = set()
        for token in writes:
            parsed = effects.parse(token)
            reason = seed if token in ranked else why
            if parsed is not None and parsed[0] == "p":
                through.add(int(parsed[1]))
                self._write(handed.get(int(parsed[1]), []), reason, strong=False)
            else:
                self._write(self._summary_targets([token], [], set()), reason, strong=False)
        return through

    def _called_back(self, fn: str, handed: Mapping[int, list[Target]],
                     why: str | None) -> None:
        """The TU's ``fn``, called back with ``handed``: its parameter ``i`` points to
        what is handed at ``i``; with ``why`` (called on some processes, with
        arguments that differ) its parameters and what they point to are
        per-process and it runs on some processes only; else it runs under this
        call's gate."""
        f = self._funcs[fn]
        gate = why or self._ctrl
        if gate:
            self.store.mark(Ctl(fn), gate)
        for i, p in enumerate(f.params):
            if not p:
                continue
            param = Local(fn, p)
            self.store.add_pts(param, _locs(handed.get(i, [])))
            if why:
                for loc in (Param(fn, i), param, deref(param)):
                    self.store.mark(loc, why)

    def _unbound(self, summary: FunctionSummary, args: list[c_ast.Node]) -> str | None:
        """A call of a function whose summary assumes the functions its file passes
        for a parameter it calls (``callbacks.py``), passing something else: that call
        is unknown, so what the arguments point to is written with a value derived
        from all of it (the rule for unknown functions); why the result may differ."""
        passed = {str(i): callbacks.candidates(a) for i, a in enumerate(args)}
        if all(passed.get(i) and all(n in bound for n in passed[i])
               for i, bound in summary.callbacks.items()):
            return None
        derived = self._pointed(args, True, True)
        for a in args:
            self._write(self._out(a), derived, strong=False)
        return derived

    def _bound(self, e: c_ast.FuncCall, name: str) -> list[c_ast.FuncCall] | None:
        """``p(args)`` with ``p`` a parameter every call binds to known functions
        (``callbacks.py``): a call of each, made once (as ``_either``'s)."""
        f = self._func
        if f is None or (targets := self._callbacks.get((f.name, name))) is None:
            return None
        if id(e) not in self._arms:
            self._arms[id(e)] = (e.name, [c_ast.FuncCall(c_ast.ID(t, e.name.coord), e.args,
                                                         e.coord) for t in targets])
        found = self._arms[id(e)]
        return found[1] if found is not None else None

    def _handed_targets(self, tokens: list[str], args: list[c_ast.Node]) -> list[Target]:
        """The memory a summary's ``callback_writes`` tokens name here: a parameter's
        as ``_summary_targets``; a field's or a global's ``k`` dereferences deep, all
        its pointer may point to here (the callback reads and writes through it)."""
        out = self._summary_targets([t for t in tokens if t.startswith("p")], args, set())
        for token in tokens:
            parsed = effects.parse(token)
            if parsed is None or parsed[0] == "p":
                continue
            kind, what, depth = parsed
            locs: set[Loc] = {effects.field(what) if kind == "f" else Global(what)}
            for _ in range(depth):
                locs = self._load(locs)
            out += [("loc", loc) for loc in sorted(locs, key=str)]
        return out
