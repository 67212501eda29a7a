"""Rank dependence relative to a communicator: which facts make a value the same on
every member of a communicator ``c`` although it differs across MPI_COMM_WORLD.

A relative solve (``RankDependence(..., within=loc)``) answers "may this expression
differ between two members of the communicator whose handle is stored at ``loc``?".
It is the world solve minus two kinds of seeds (see the package docstring for the
soundness argument):

* ``h == MPI_COMM_NULL`` / ``h != MPI_COMM_NULL`` where ``h`` is the handle itself:
  on every member of ``c`` the handle is a valid communicator, so the comparison is
  constant there.
* the colour of the ``MPI_Comm_split`` that created ``c`` in the same function, and the
  predicate a colour ``P ? a : b`` is built from (distinct constant arms): all members
  of ``c`` passed the same colour.  Only when every variable of the expression is a
  tracked local written at most once in the function, outside loops, in a function
  without ``goto``, and the split is outside loops too: then every read of the
  expression after the split sees the values the split saw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.locations import (
    Field,
    FunctionFacts,
    Global,
    Loc,
    Local,
    callee,
    deref,
)
from mpicc_wrap.frontend import handles, positions

__all__ = ["colour_facts", "comm_location", "handle_location", "is_comm_null",
           "null_tested"]

_WORLD = frozenset({"MPI_COMM_WORLD", ""})
_NAME = re.compile(r"[A-Za-z_]\w*")
_DEREF = re.compile(r"\(?\s*\*\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*\)?")
_FIELD = re.compile(r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*\s*(?:\.|->)\s*([A-Za-z_]\w*)")
_ELEMENT = re.compile(r"([A-Za-z_]\w*)\s*\[[^\[\]]*\]")
# ``((T) p->content)->comm``: a field of a cast object (SUNDIALS reaches its content
# structs through ``void *``); fields are located by name, so the cast is irrelevant.
_CAST_FIELD = re.compile(
    r"\(\s*\(\s*[A-Za-z_][\w\s*]*\)\s*([A-Za-z_(][\w\s.>()-]*)\)\s*(?:\.|->)\s*([A-Za-z_]\w*)")


def _name_loc(f: FunctionFacts | None, name: str) -> Local | Global:
    return Local(f.name, name) if f and name in f.locals else Global(name)


def comm_location(f: FunctionFacts | None, handle_text: str,
                  names: dict[str, str]) -> Loc | None:
    """The location holding the communicator handle written ``handle_text`` in ``f``
    (None: MPI_COMM_WORLD, or an expression this analysis does not resolve; a
    condition is then judged against the world, which is always sound)."""
    text = " ".join(handle_text.split())
    if handles.display(text, names) in _WORLD:
        return None
    while text.startswith("(") and text.endswith(")") and handles.balanced(text[1:-1]):
        text = text[1:-1].strip()
    if _NAME.fullmatch(text):
        return _name_loc(f, text)
    if m := _DEREF.fullmatch(text):
        return deref(_name_loc(f, m.group(1)))
    if m := _FIELD.fullmatch(text):
        return Field(m.group(1))
    if m := _ELEMENT.fullmatch(text):
        return deref(_name_loc(f, m.group(1)))
    if m := _CAST_FIELD.fullmatch(text):
        inner = m.group(1).strip()
        while inner.startswith("(") and inner.endswith(")") and handles.balanced(inner[1:-1]):
            inner = inner[1:-1].strip()
        if _NAME.fullmatch(inner) or _FIELD.fullmatch(inner):
            return Field(m.group(2))
    return None


def handle_location(f: FunctionFacts | None, e: c_ast.Node) -> Loc | None:
    """The location of the handle the expression ``e`` reads (same shapes as
    ``comm_location``)."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.ID):
        return _name_loc(f, e.name)
    if isinstance(e, c_ast.UnaryOp) and e.op == "*" and isinstance(e.expr, c_ast.ID):
        return deref(_name_loc(f, e.expr.name))
    if isinstance(e, c_ast.StructRef):
        return Field(e.field.name)
    if isinstance(e, c_ast.ArrayRef) and isinstance(e.name, c_ast.ID):
        return deref(_name_loc(f, e.name.name))
    return None


def is_comm_null(e: c_ast.Node, names: dict[str, str]) -> bool:
    if isinstance(e, c_ast.ID) and e.name == "MPI_COMM_NULL":
        return True
    return handles.display(positions.c_text(e), names) == "MPI_COMM_NULL"


class _NullTests(c_ast.NodeVisitor):
    """The handle locations a function compares with MPI_COMM_NULL."""

    def __init__(self, f: FunctionFacts, names: dict[str, str]) -> None:
        self.f, self.names, self.found = f, names, set[Loc]()

    def visit_BinaryOp(self, e: c_ast.BinaryOp) -> None:
        if e.op in ("==", "!="):
            for h, other in ((e.left, e.right), (e.right, e.left)):
                if (isinstance(other, (c_ast.ID, c_ast.Cast))  # what MPI_COMM_NULL expands to
                        and is_comm_null(other, self.names)
                        and (loc := handle_location(self.f, h))):
                    self.found.add(loc)
        self.generic_visit(e)


def null_tested(funcs: Iterable[FunctionFacts], names: dict[str, str]) -> set[Loc]:
    """Every handle location some function of the TU compares with MPI_COMM_NULL: a
    solve relative to any other handle differs from the world solve only by split
    colours (``colour_facts``)."""
    found: set[Loc] = set()
    for f in funcs:
        scan = _NullTests(f, names)
        scan.visit(f.body)
        found |= scan.found
    return found


class _Writes(c_ast.NodeVisitor):
    """Write sites per local name, whether any is inside a loop, and the splits."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.in_loop: set[str] = set()
        self.splits: list[tuple[c_ast.FuncCall, bool]] = []  # (call, inside a loop)
        self.defs: dict[str, c_ast.Node] = {}  # name -> its one assigned expression
        self.loops = 0

    def _wrote(self, name: str, value: c_ast.Node | None) -> None:
        self.count[name] = self.count.get(name, 0) + 1
        if self.loops:
            self.in_loop.add(name)
        if value is not None:
            self.defs[name] = value

    def visit_Struct(self, node: c_ast.Node) -> None:
        pass

    visit_Union = visit_Struct

    def _loop(self, node: c_ast.Node) -> None:
        self.loops += 1
        self.generic_visit(node)
        self.loops -= 1

    visit_While = visit_DoWhile = visit_For = _loop

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and node.init is not None:
            self._wrote(node.name, node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(node.lvalue, c_ast.ID):
            self._wrote(node.lvalue.name, node.rvalue if node.op == "=" else None)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--", "&") and isinstance(node.expr, c_ast.ID):
            self._wrote(node.expr.name, None)
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if callee(node) in ("MPI_Comm_split", "PMPI_Comm_split"):
            self.splits.append((node, bool(self.loops)))
        self.generic_visit(node)


def _constant(e: c_ast.Node) -> bool:
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
        return _constant(e.expr)
    return isinstance(e, c_ast.Constant)


def colour_facts(f: FunctionFacts, within: Loc, variables: set[str]) -> set[str]:
    """C texts of the expressions that every member of the communicator at ``within``
    evaluated alike when ``f`` created it with MPI_Comm_split (rule in the module
    docstring); empty when ``f`` made no such split or the rule does not apply."""
    if f.has_goto:
        return set()
    scan = _Writes()
    scan.visit(f.body)
    out: set[str] = set()
    for call, looped in scan.splits:
        args = call.args.exprs if call.args is not None else []
        if looped or len(args) < 4:
            continue
        target = args[3]
        while isinstance(target, c_ast.Cast):
            target = target.expr
        if not (isinstance(target, c_ast.UnaryOp) and target.op == "&"
                and handle_location(f, target.expr) == within):
            continue
        exprs = [args[1]]
        colour = args[1]
        if isinstance(colour, c_ast.ID) and scan.count.get(colour.name) == 1 \
                and colour.name in scan.defs:
            exprs.append(scan.defs[colour.name])
        for e in list(exprs):
            if (isinstance(e, c_ast.TernaryOp) and _constant(e.iftrue)
                    and _constant(e.iffalse)
                    and positions.c_text(e.iftrue) != positions.c_text(e.iffalse)):
                exprs.append(e.cond)
        for e in exprs:
            # Names that are neither locals nor file-scope variables are enumerators.
            names = {n.name for n in _ids(e)} - {
                n for n in {i.name for i in _ids(e)} if n not in f.locals
                and n not in variables and n != "<call>"}
            if all(n in f.tracked and scan.count.get(n, 0) <= 1 and n not in scan.in_loop
                   for n in names):
                out.add(positions.c_text(e))
    return out


def _ids(e: c_ast.Node) -> list[c_ast.ID]:
    found: list[c_ast.ID] = []

    class Ids(c_ast.NodeVisitor):
        def visit_ID(self, node: c_ast.ID) -> None:
            found.append(node)

        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            found.append(c_ast.ID("<call>"))  # a call: never the same value twice

    Ids().visit(e)
    return found


