"""Statements: φ-gating of writes under multi-valued predicates, early exits, loops
(iterated to a fixed point with widening), switch fall-through, declarations."""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.expressions import Expressions, join
from mpicc_wrap.analysis.rankdep.locations import Ret, deref, is_function_type

__all__ = ["Statements"]


class Statements(Expressions):
    """``_stmt(s)`` walks a statement and returns the gates of early exits taken under
    a multi-valued predicate: {"func": reason} for return/goto, {"brk"/"cont": reason}
    for loops.  Dispatch: ``visit_<Node>`` of the statement types (``STATEMENTS``)."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._loops: dict[int, tuple[dict[str, str], str | None]] = {}  # widening memo
        self.steps = 0  # statements walked: a deterministic measure of the work done

    def _stmt(self, s: c_ast.Node | None) -> dict[str, str]:
        if s is None:
            return {}
        self.steps += 1
        if type(s).__name__ in self.STATEMENTS:
            gates: dict[str, str] = self.visit(s)
            return gates
        self._value(s)
        return {}

    def visit_Compound(self, s: c_ast.Compound) -> dict[str, str]:
        gates: dict[str, str] = {}
        for item in s.block_items or []:
            with self._gated(next(iter(gates.values()), None)):
                for k, v in self._stmt(item).items():
                    gates.setdefault(k, v)
        return gates

    def _exit(self, kind: str) -> dict[str, str]:
        return {kind: self._ctrl} if self._ctrl else {}

    def visit_Break(self, s: c_ast.Node) -> dict[str, str]:
        return self._exit("brk")

    def visit_Continue(self, s: c_ast.Node) -> dict[str, str]:
        return self._exit("cont")

    def visit_Goto(self, s: c_ast.Node) -> dict[str, str]:
        return self._exit("func")

    def visit_Return(self, s: c_ast.Return) -> dict[str, str]:
        r = self._value(s.expr) or self._ctrl
        if self._func is not None:
            if r:
                self.store.mark(Ret(self._func.name), r)
            self.store.add_pts(Ret(self._func.name), self._pointees(s.expr))
        return self._exit("func")

    def visit_If(self, s: c_ast.If) -> dict[str, str]:
        cond = self._value(s.cond)
        before = dict(self._env)
        with self._gated(cond):
            gates = self._stmt(s.iftrue)
            after_true, self._env = self._env, before
            gates = {**self._stmt(s.iffalse), **gates}
        self._env = join(after_true, self._env)
        return gates

    def visit_While(self, s: c_ast.Node) -> dict[str, str]:
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
            self._env = join(self._env, last_env)
        while True:
            before = dict(self._env)
            old_gate = gate
            cond = self._value(s.cond) if s.cond is not None else None
            with self._gated(cond or gate):
                gates = self._stmt(s.stmt)
                self._value(getattr(s, "next", None))
            gate = gate or cond or gates.get("brk") or gates.get("cont")
            out.update({k: v for k, v in gates.items() if k == "func"})
            self._env = join(before, self._env)
            if self._env == before and gate == old_gate:
                self._loops[id(s)] = (dict(self._env), gate)
                return out

    visit_DoWhile = visit_For = visit_While

    def visit_Switch(self, s: c_ast.Switch) -> dict[str, str]:
        cond = self._value(s.cond)
        saved, self._entry = self._entry, dict(self._env)
        with self._gated(cond):
            gates = self._stmt(s.stmt)
        self._env = join(self._entry, self._env)
        self._entry = saved
        return {k: v for k, v in gates.items() if k != "brk"}

    def visit_Case(self, s: c_ast.Node) -> dict[str, str]:
        self._env = join(self._env, self._entry)
        gates: dict[str, str] = {}
        for item in s.stmts or []:
            with self._gated(next(iter(gates.values()), None)):
                gates = {**self._stmt(item), **gates}
        return gates

    visit_Default = visit_Case

    def visit_Label(self, s: c_ast.Label) -> dict[str, str]:
        return self._stmt(s.stmt)

    def visit_Decl(self, s: c_ast.Decl) -> dict[str, str]:
        if not s.name or is_function_type(s.type):
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

    def visit_DeclList(self, s: c_ast.Node) -> dict[str, str]:
        gates: dict[str, str] = {}
        for child in s:
            gates = {**self._stmt(child), **gates}
        return gates

    def _nothing(self, s: c_ast.Node) -> dict[str, str]:
        return {}

    visit_EmptyStatement = visit_Pragma = visit_Asm = _nothing
    visit_PreprocessorLine = visit_Typedef = _nothing


Statements.STATEMENTS = frozenset(
    n.removeprefix("visit_") for n in vars(Statements) if n.startswith("visit_"))
