"""When two tests in the two arms of a per-process test are the same value everywhere
(the ``key`` of ``armmatch``; barrier matching §5's "same single-valued expression").

A test ``t`` inside the arms of the per-process statement ``R`` is keyed by its C text
when each process computes it from what it held at ``R``:

- it reads only constants, enumerators and locals or parameters of the function whose
  address is never taken (no array, no ``&x``: nothing but a direct write changes them),
  through operators that read no memory and call nothing;
- none of those locals is written anywhere in ``R`` (its arms, its test);
- none is read by ``R``'s own test (inside the arms a process knows the outcome of
  ``R``, so a fact the walk derived from it is not one the other arm shares);
- the walk found ``t`` uniform where it stands.

Then the value of ``t`` on any process is a function of the locals at ``R``, and the
walk found it uniform at ``t`` from what flows into ``R`` and the tests on the way
(each of those tests is itself a branch of the expression, keyed the same way, so a
fact one arm learnt from a test the other does not make shows up as a difference in
shape).  Two such tests with the same text are the same value on every process.  Any
other test is keyed by its node: it matches nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.exchanges import Seen, mentioned
from mpicc_wrap.frontend import positions

__all__ = ["ArmKeys"]

_PURE_UNARY = frozenset({"!", "-", "+", "~", "sizeof"})
_STATEMENTS = (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.For, c_ast.Switch)


class ArmKeys:
    """Keys of the tests of one function (``key``), built from its AST once."""

    def __init__(self, defn: c_ast.FuncDef, file_names: frozenset[str],
                 seen: Callable[[c_ast.Node], Seen]) -> None:
        self.file_names, self.seen = file_names, seen
        self.locals: set[str] = set()
        self.addressed: set[str] = set()
        self.owner: dict[int, c_ast.Node] = {}  # id(test) -> statement it controls
        # id(statement) -> (locals it writes, locals whose address it takes)
        self._effect: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self._scan(defn)
        self.addressed |= self.taken(defn)

    def _scan(self, defn: c_ast.FuncDef) -> None:
        stack: list[c_ast.Node] = [defn]
        while stack:
            node = stack.pop()
            if isinstance(node, c_ast.Decl) and node.name:
                self.locals.add(node.name)
                if isinstance(node.type, c_ast.ArrayDecl) or "static" in (node.storage or []):
                    self.addressed.add(node.name)
            elif isinstance(node, _STATEMENTS) and getattr(node, "cond", None) is not None:
                self.owner[id(node.cond)] = node
            stack.extend(child for _, child in node.children())

    def writes(self, stmt: c_ast.Node) -> frozenset[str]:
        """Names of the locals a statement (and everything in it) assigns or steps."""
        return self._effects(stmt)[0]

    def taken(self, stmt: c_ast.Node) -> frozenset[str]:
        """Names whose address a statement (and everything in it) takes."""
        return self._effects(stmt)[1]

    def _effects(self, stmt: c_ast.Node) -> tuple[frozenset[str], frozenset[str]]:
        """``writes`` and ``taken`` of a statement, from one walk, kept."""
        if id(stmt) not in self._effect:
            written: set[str] = set()
            taken: set[str] = set()
            stack = [stmt]
            while stack:
                node = stack.pop()
                written |= _direct_write(node)
                if isinstance(node, c_ast.UnaryOp) and node.op == "&" \
                        and (base := _base(node.expr)) is not None:
                    taken.add(base)
                stack.extend(child for _, child in node.children())
            self._effect[id(stmt)] = (frozenset(written), frozenset(taken))
        return self._effect[id(stmt)]

    def key(self, outer: c_ast.Node | None, test: c_ast.Node | None, node: int,
            uniform: bool) -> Hashable:
        """The key of ``test`` (CFG node ``node``) inside the arms of the per-process
        test ``outer``: its C text when it is the same value on every process (with
        the exchanges its locals hold), else the node."""
        stmt = self.owner.get(id(outer)) if outer is not None else None
        names = _names(test) if uniform and test is not None else None
        if stmt is None or test is None or names is None \
                or names & mentioned(outer):
            return ("node", node)
        loop = self.owner.get(id(test))
        if isinstance(loop, c_ast.For):
            return self._loop_key(stmt, outer, test, loop, names, node)
        held = self._stable(names, self.writes(stmt), outer, test)
        if held is None:
            return ("node", node)
        return ("test", positions.c_text(test), held)

    def _stable(self, names: set[str], written: frozenset[str], outer: c_ast.Node,
                test: c_ast.Node) -> tuple[tuple[str, object], ...] | None:
        """Every name is an enumerator, a local that nothing but ``written`` (the writes
        of the per-process statement) could change and that it does not change, or a
        local whose last write in the arm of ``outer`` before ``test`` is the shared
        output of a collective (``exchanges.record``): the exchanges held, or None."""
        held: list[tuple[str, object]] = []
        for name in sorted(names):
            if name in self.locals:
                if name in self.addressed or name in written:
                    e = self._exchanged(name, outer, test)
                    if e is None:
                        return None
                    held.append((name, e))
            elif name in self.file_names:  # a global: any call may write it
                return None
        return tuple(held)

    def _exchanged(self, name: str, outer: c_ast.Node, test: c_ast.Node) -> object:
        """The exchange ``name`` holds at ``test`` in its arm of ``outer`` (no write in
        an arm nested between them), or None."""
        arms = self.seen(test)
        mine = [i for i, (o, _) in enumerate(arms) if o == id(outer)]
        if len(mine) != 1:
            return None
        i = mine[0]
        if any(name in last for _, last in arms[i + 1:]):
            return None
        return arms[i][1].get(name)

    def _loop_key(self, stmt: c_ast.Node, outer: c_ast.Node, test: c_ast.Node,
                  loop: c_ast.For, names: set[str], node: int) -> Hashable:
        """A counted ``for`` keyed by its header: its counters are set by its
        initialisation and changed by its step alone (not in its body, and never
        addressed), and everything else the header reads is stable and not written in
        the loop's body, so every process runs the same rounds."""
        steps = [e for e in (loop.init, loop.next) if e is not None]
        counters: set[str] = set()
        read: set[str] = set(names)
        for e in steps:
            parts = _step_parts(e)
            if parts is None:
                return ("node", node)
            counters |= parts[0]
            read |= parts[1]
        body = (self.writes(loop.stmt) | self.taken(loop.stmt)) if loop.stmt is not None \
            else frozenset()
        held = self._stable(read - counters, self.writes(stmt), outer, test)
        if counters & (body | self.addressed) or held is None or body & read:
            return ("node", node)
        return ("loop",) + tuple(positions.c_text(e) for e in (loop.init, loop.cond,
                                                                loop.next)) + (held,)


def _direct_write(node: c_ast.Node) -> set[str]:
    """The variable ``node`` itself assigns, steps or declares (not its children's)."""
    base: str | None = None
    if isinstance(node, c_ast.Assignment):
        base = _base(node.lvalue)
    elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
        base = _base(node.expr)
    elif isinstance(node, c_ast.Decl) and node.name:
        base = node.name
    return {base} if base is not None else set()


def _step_parts(e: c_ast.Node) -> tuple[set[str], set[str]] | None:
    """What a ``for`` initialisation or step writes and reads (``i = 0``, ``int i =
    lo``, ``i++``, ``i += s``, comma lists of them), or None for anything else."""
    items = e.exprs if isinstance(e, c_ast.ExprList) else \
        e.decls if isinstance(e, c_ast.DeclList) else [e]
    written: set[str] = set()
    read: set[str] = set()
    for item in items:
        if isinstance(item, c_ast.Assignment) and isinstance(item.lvalue, c_ast.ID):
            value = _names(item.rvalue)
            target = item.lvalue.name
        elif isinstance(item, c_ast.UnaryOp) and item.op in ("++", "--", "p++", "p--") \
                and isinstance(item.expr, c_ast.ID):
            value, target = set(), item.expr.name
        elif isinstance(item, c_ast.Decl) and item.name and item.init is not None:
            value, target = _names(item.init), item.name
        else:
            return None
        if value is None:
            return None
        written.add(target)
        read |= value
    return written, read


def _base(e: c_ast.Node) -> str | None:
    """The variable an lvalue (or ``&`` operand) designates or is part of."""
    while isinstance(e, (c_ast.StructRef, c_ast.ArrayRef, c_ast.Cast)):
        e = e.name if isinstance(e, (c_ast.StructRef, c_ast.ArrayRef)) else e.expr
    return e.name if isinstance(e, c_ast.ID) else None


def _names(e: c_ast.Node) -> set[str] | None:
    """The identifiers ``e`` reads, or None when it reads memory or calls."""
    found: set[str] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.ID):
            found.add(node.name)
        elif isinstance(node, c_ast.UnaryOp):
            if node.op not in _PURE_UNARY:
                return None
            if node.op == "sizeof":
                continue
        elif isinstance(node, (c_ast.FuncCall, c_ast.StructRef, c_ast.ArrayRef,
                               c_ast.Assignment)):
            return None
        elif not isinstance(node, (c_ast.Constant, c_ast.BinaryOp, c_ast.TernaryOp,
                                   c_ast.Cast, c_ast.Typename, c_ast.TypeDecl,
                                   c_ast.IdentifierType, c_ast.PtrDecl)):
            return None
        if isinstance(node, c_ast.Cast):
            stack.append(node.expr)
            continue
        stack.extend(child for _, child in node.children())
    return found
