"""Rank dependence relative to a communicator: which facts make a value the same on
every member of a communicator ``c`` although it differs across MPI_COMM_WORLD.

A relative solve (``RankDependence(..., within=loc)``) answers "may this expression
differ between two members of the communicator whose handle is stored at ``loc``?".
It is the world solve minus two kinds of seeds (see the package docstring for the
soundness argument):

* ``h == MPI_COMM_NULL`` / ``h != MPI_COMM_NULL`` where ``h`` is the handle itself:
  on every member of ``c`` the handle is a valid communicator, so the comparison is
  constant there.
* the colour of the ``MPI_Comm_split`` that created ``c`` in the same function (or the
  split type of an ``MPI_Comm_split_type``: MPI requires one value of all but the
  processes passing ``MPI_UNDEFINED``), and
  what decided it: the value a colour variable was given, the test ``P`` of
  ``x = K1; if (P) x = K2;`` or ``if (P) x = K1; else x = K2;`` (distinct constants,
  that ``if`` inside no other construct), and the predicate of a colour ``P ? a : b``
  (distinct constant arms): all members of ``c`` passed the same colour, and the colour
  tells the two values of ``P`` apart.  ``MPI_UNDEFINED`` is such a constant: the
  processes that pass it get ``MPI_COMM_NULL`` and are members of nothing.
* the conditions of the ``if`` statements around the call that created ``c`` (any
  handle constructor: split, dup, create, create_group, cart, graph, window and file
  constructors; the catalogue's ``creates`` argument): every member of ``c`` made that
  call, so each of those conditions had one value on all of them there.  Only when the
  handle is a tracked local that nothing else in the function writes (``MPI_Comm_free``
  aside), so every member's handle comes from that call; a handle written twice (a
  split in one arm and a dup in the other) may hold the communicator of either.

No rule applies when another call of the function may be the constructor call's match
(``rematched``): MPI matches collectives by order on the parent, not by call site, so
``if (P) split(c, 1, &a) else split(c, 1, &b)`` makes one communicator of the ranks of
both arms, and the members of ``a`` did not all make the call that wrote ``a``.

Both rules hold only when every variable of the expression is a tracked local written
at most once in the function (a parameter's value at entry counts as a write), outside
loops, in a function without ``goto``, and the constructor is outside loops too: then
every read of the expression after the constructor sees the values the constructor's
callers saw (a read before the single write of a local reads an indeterminate value).
Within one function invocation, every member of ``c`` executed the constructor exactly
once, so the argument applies to each member alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from pycparser import c_ast

from mpicc_wrap.analysis.catalogue import lookup
from mpicc_wrap.analysis.rankdep.locations import (
    Field,
    FunctionFacts,
    Global,
    Loc,
    Local,
    callee,
    deref,
)
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor
from mpicc_wrap.frontend import handles, positions
from mpicc_wrap.frontend.prototypes import param_names
from mpicc_wrap.model import FunctionSummary

__all__ = ["comm_location", "handle_location", "is_comm_null", "joins_another", "member_facts",
           "makes_no_communicator", "may_run", "null_tested", "rematched",
           "sole_constructors"]

_WORLD = frozenset({"MPI_COMM_WORLD", ""})
_SPLITS = frozenset({"MPI_Comm_split", "MPI_Comm_split_type"})
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


class _NullTests(Visitor):
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
    colours and creation sites (``member_facts``)."""
    found: set[Loc] = set()
    for f in funcs:
        scan = _NullTests(f, names)
        scan.visit(f.body)
        found |= scan.found
    return found


class _At(NamedTuple):
    """A write of a local, or a handle constructor call: the node (the assigned value,
    None when unknown; the call), the conditional constructs around it, innermost last,
    each with the arm it is in ("then", "else" or "" for the others), whether it is
    inside a loop, and its order in the function's text."""

    node: c_ast.Node | None
    inside: tuple[tuple[c_ast.Node, str], ...]
    looped: bool
    seq: int


class _Writes(Visitor):
    """Per local name its writes, the handle constructor calls, and the handles passed
    by address to MPI destructors (``MPI_Comm_free(&c)`` ends a handle, it does not give
    it another communicator)."""

    def __init__(self) -> None:
        self.writes: dict[str, list[_At]] = {}
        self.constructors: list[_At] = []
        self.freed: dict[str, int] = {}
        self.calls: list[tuple[str, _At]] = []  # calls of named functions
        self.early_return = False  # a return inside a conditional construct or loop
        self._inside: list[tuple[c_ast.Node, str]] = []
        self._loops = 0
        self._seq = 0

    def _at(self, node: c_ast.Node | None) -> _At:
        self._seq += 1
        return _At(node, tuple(self._inside), bool(self._loops), self._seq)

    def _wrote(self, name: str, value: c_ast.Node | None) -> None:
        self.writes.setdefault(name, []).append(self._at(value))

    def _arm(self, node: c_ast.Node, arm: str, child: c_ast.Node | None) -> None:
        self._inside.append((node, arm))
        self.visit(child)
        self._inside.pop()

    def visit(self, node: c_ast.Node | None) -> None:
        if node is not None:
            super().visit(node)

    def visit_Struct(self, node: c_ast.Node) -> None:
        pass

    visit_Union = visit_Struct

    def _loop(self, node: c_ast.Node) -> None:
        self._loops += 1
        self.generic_visit(node)
        self._loops -= 1

    visit_While = visit_DoWhile = visit_For = _loop

    def visit_If(self, node: c_ast.If) -> None:
        self.visit(node.cond)
        self._arm(node, "then", node.iftrue)
        self._arm(node, "else", node.iffalse)

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> None:
        self.visit(node.cond)
        self._arm(node, "", node.iftrue)
        self._arm(node, "", node.iffalse)

    def visit_Switch(self, node: c_ast.Switch) -> None:
        self.visit(node.cond)
        self._arm(node, "", node.stmt)

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> None:
        self.visit(node.left)
        if node.op in ("&&", "||"):  # the right operand is conditional
            self._arm(node, "", node.right)
        else:
            self.visit(node.right)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and node.init is not None:
            self._wrote(node.name, node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        if isinstance(node.lvalue, c_ast.ID):
            self._wrote(node.lvalue.name, node.rvalue if node.op == "=" else None)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in WRITES_OPERAND and isinstance(node.expr, c_ast.ID):
            self._wrote(node.expr.name, None)
        self.generic_visit(node)

    def visit_Return(self, node: c_ast.Return) -> None:
        self.early_return = self.early_return or bool(self._inside) or self._loops > 0
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        spec = lookup(callee(node) or "")
        if spec is not None and spec.creates is not None:
            self.constructors.append(self._at(node))
        elif spec is None and (name := callee(node)) is not None:
            self.calls.append((name, self._at(node)))
        args = node.args.exprs if spec is not None and node.args is not None else []
        for i in spec.handle_ptrs if spec is not None else ():
            if i < len(args) and (h := _address_of(args[i])) is not None \
                    and isinstance(h, c_ast.ID):
                self.freed[h.name] = self.freed.get(h.name, 0) + 1
        self.generic_visit(node)


def _address_of(e: c_ast.Node) -> c_ast.Node | None:
    """``x`` of the argument ``&x`` (casts aside), else None."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e.expr if isinstance(e, c_ast.UnaryOp) and e.op == "&" else None


# MPI_UNDEFINED in MPICH and in Open MPI; MPI requires it to differ from every split
# type, so a split type the TU cannot see the value of (Open MPI's enumerators, in a
# system header) still differs from it.
_UNDEFINED = -32766


def _constant_value(e: c_ast.Node | None, names: frozenset[str],
                    enums: dict[str, int]) -> int | str | None:
    """The value of a constant expression: an int for a literal or an enumerator the
    TU declares, the name for an MPI enumerator it cannot see (an identifier outside
    ``names``, the locals and variables, spelled ``MPI_``/``OMPI_``), else None."""
    sign = 1
    while isinstance(e, (c_ast.Cast, c_ast.UnaryOp)):
        if isinstance(e, c_ast.UnaryOp):
            if e.op not in ("-", "+"):
                return None
            sign = -sign if e.op == "-" else sign
        e = e.expr
    if isinstance(e, c_ast.Constant) and e.type in ("int", "long int", "unsigned int",
                                                     "long long int", "unsigned long int"):
        digits = e.value.rstrip("uUlL")
        try:
            base = 8 if len(digits) > 1 and digits[0] == "0" and digits[1] in "01234567" else 0
            return sign * int(digits, base)
        except ValueError:
            return None
    if isinstance(e, c_ast.ID) and e.name not in names:
        if e.name in enums:
            return sign * enums[e.name]
        if sign == 1 and e.name.startswith(("MPI_", "OMPI_")):
            return e.name
    return None


def _distinct_constants(values: list[c_ast.Node | None], names: frozenset[str],
                        enums: dict[str, int]) -> bool:
    """The values are constants, provably pairwise different.  Two MPI enumerators of
    unknown value differ (one enum of the MPI header names them); one differs from a
    literal only when that literal is MPI_UNDEFINED."""
    keys = [_constant_value(v, names, enums) for v in values]
    if any(k is None for k in keys) or len(set(keys)) != len(keys):
        return False
    literals = [k for k in keys if isinstance(k, int)]
    return len(literals) == len(keys) or all(k == _UNDEFINED for k in literals)


def enum_values(ast: c_ast.FileAST) -> dict[str, int]:
    """Values of the enumerators the TU declares (C11 6.7.2.2: an enumerator without
    ``= value`` is the previous one plus one); one whose value is not a literal or a
    known enumerator ends its enum's list."""
    out: dict[str, int] = {}

    class Enums(Visitor):
        def visit_Enum(self, node: c_ast.Enum) -> None:
            nxt: int | None = 0
            for item in node.values.enumerators if node.values is not None else []:
                if item.value is not None:
                    v = _constant_value(item.value, frozenset(), out)
                    nxt = v if isinstance(v, int) else None
                if nxt is None:
                    return
                out[item.name] = nxt
                nxt += 1

    Enums().visit(ast)
    return out


def member_facts(f: FunctionFacts, within: Loc, variables: set[str],
                 enums: dict[str, int] | None = None,
                 runs: Mapping[str, frozenset[str]] | None = None) -> set[str]:
    """C texts of the expressions that have one value on every member of the
    communicator at ``within`` because ``f`` created it (rules in the module
    docstring); empty when no rule applies.  ``runs``: per called function, the MPI
    functions it may execute (``may_run``), for ``rematched``."""
    if f.has_goto or not any((spec := lookup(c)) is not None and spec.creates is not None
                             for c in f.calls):
        return set()  # no constructor: no creation site to scan the body for
    scan = _Writes()
    scan.visit(f.body)
    out: set[str] = set()
    for site in scan.constructors:
        call = site.node
        assert isinstance(call, c_ast.FuncCall)
        spec = lookup(callee(call) or "")
        args = call.args.exprs if call.args is not None else []
        if (site.looped or spec is None or spec.creates is None
                or spec.creates >= len(args)):
            continue
        handle = _address_of(args[spec.creates])
        if handle is None or handle_location(f, handle) != within:
            continue
        if rematched(scan, site, runs or {}):
            continue
        only = _written_only_here(scan, f, handle)
        local = isinstance(handle, c_ast.ID) and handle.name in f.locals
        exprs: list[c_ast.Node] = []
        # MPI_Comm_split_type groups the processes that passed one split type (MPI
        # requires one value but MPI_UNDEFINED): its type is a colour too
        if spec.name in _SPLITS and (only or not local) and len(args) > 1:
            exprs += _colour_exprs(scan, args[1], site, frozenset(f.locals | variables),
                                   enums or {})
        if only:  # every member made this call: the conditions around it held
            exprs += [n.cond for n, _ in site.inside if isinstance(n, c_ast.If)]
        out |= {positions.c_text(e) for e in exprs if _stable(scan, f, e, variables)}
    return out


def rematched(scan: _Writes, site: _At, runs: Mapping[str, frozenset[str]]) -> bool:
    """The constructor call at ``site`` may be matched by another call of the function:
    every rule above assumes each member of the new communicator made that call itself.
    ``if (P) split(c, 1, &a) else split(c, 1, &b)`` makes one communicator of both
    arms (MPI matches collectives by order, not by call site), so neither ``P`` nor
    the colour expression of either call is uniform within ``a``.  Another call of the
    same MPI function (but a split whose callers join another communicator or none,
    ``joins_another``), or a call of a function that may execute it, may be that match, unless
    every process runs both in one order: neither inside a conditional construct or
    a loop, and no return before the end of the function
    (``findings.matched_elsewhere`` asks Algorithm 1's clusters instead)."""
    call = site.node
    assert isinstance(call, c_ast.FuncCall)
    name = callee(call)
    spec = lookup(name or "")
    others = [o for o in scan.constructors
              if o.node is not call and isinstance(o.node, c_ast.FuncCall)
              and callee(o.node) == name and not joins_another(call, o.node)]
    if spec is not None:
        others += [at for g, at in scan.calls if spec.name in runs.get(g, ())]
    fixed = not scan.early_return and all(not a.inside and not a.looped
                                          for a in [site, *others])
    return bool(others) and not fixed


def may_run(funcs: Mapping[str, FunctionFacts],
            external: Mapping[str, FunctionSummary]) -> dict[str, frozenset[str]]:
    """Per function of the TU or with a summary, the MPI functions a call of it may
    execute: its own calls and its callees', to a fixed point (an external summary
    gives its collective sequence; one that is not fixed names no constructor, and
    Algorithm 1 pairs none of its calls with a constructor, which stays flagged)."""
    out = {n: frozenset(t.partition("@")[0] for t in s.sequence)
           for n, s in external.items()}
    for n, f in funcs.items():
        out[n] = frozenset(spec.name for c in f.calls if (spec := lookup(c)) is not None)
    changed = True
    while changed:
        changed = False
        for n, f in funcs.items():
            more = out[n].union(*(out.get(c, frozenset()) for c in f.calls))
            if more != out[n]:
                out[n], changed = more, True
    return out


def _written_only_here(scan: _Writes, f: FunctionFacts, handle: c_ast.Node) -> bool:
    """True when ``handle`` is a tracked local that nothing in ``f`` writes but one
    constructor call (destructors aside)."""
    if not (isinstance(handle, c_ast.ID) and handle.name in f.tracked):
        return False
    name = handle.name
    return len(scan.writes.get(name, [])) - scan.freed.get(name, 0) == 1 \
        and name not in f.params


def _colour_exprs(scan: _Writes, colour: c_ast.Node, split: _At,
                  names: frozenset[str], enums: dict[str, int]) -> list[c_ast.Node]:
    """The colour, the value a colour variable was given before the split, the test
    that chose between constant colours, and the predicate of ``P ? a : b`` (``names``:
    the identifiers that are not enumerators, ``enums`` the TU's enumerator values:
    ``_constant_value``)."""
    exprs = [colour]
    writes = scan.writes.get(colour.name, []) if isinstance(colour, c_ast.ID) else []
    if any(w.seq > split.seq for w in writes):
        writes = []
    if len(writes) == 1 and writes[0].node is not None:
        exprs.append(writes[0].node)
    elif len(writes) == 2 and (test := _chosen_by(writes, names, enums)) is not None:
        exprs.append(test)
    for e in list(exprs):
        if (isinstance(e, c_ast.TernaryOp)
                and _distinct_constants([e.iftrue, e.iffalse], names, enums)):
            exprs.append(e.cond)
    return exprs


def _chosen_by(writes: list[_At], names: frozenset[str],
               enums: dict[str, int]) -> c_ast.Node | None:
    """``P`` when two writes of distinct constants are ``x = K1; if (P) x = K2;`` or
    ``if (P) x = K1; else x = K2;``, with that ``if`` inside no other construct: on
    every path past it, x is K2 exactly when P held."""
    first, second = writes
    if first.looped or second.looped \
            or not _distinct_constants([first.node, second.node], names, enums):
        return None
    if not first.inside and len(second.inside) == 1:
        node, arm = second.inside[0]
        return node.cond if isinstance(node, c_ast.If) and arm == "then" \
            and node.iffalse is None else None
    if len(first.inside) == len(second.inside) == 1:
        (node, arm1), (other, arm2) = first.inside[0], second.inside[0]
        if node is other and isinstance(node, c_ast.If) and {arm1, arm2} == {"then", "else"}:
            return node.cond
    return None


def _stable(scan: _Writes, f: FunctionFacts, e: c_ast.Node, variables: set[str]) -> bool:
    """Every variable ``e`` reads is a tracked local written at most once in ``f`` (a
    parameter's value at entry counts as one write), outside loops: each read after
    that write sees the value a read at the constructor saw."""
    for n in {i.name for i in _ids(e)}:
        if n not in f.locals and n not in variables and n != "<call>":
            continue  # an enumerator
        writes = scan.writes.get(n, [])
        if (n not in f.tracked or len(writes) + (n in f.params) > 1
                or any(w.looped for w in writes)):
            return False
    return True


def _ids(e: c_ast.Node) -> list[c_ast.ID]:
    found: list[c_ast.ID] = []

    class Ids(Visitor):
        def visit_ID(self, node: c_ast.ID) -> None:
            found.append(node)

        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            found.append(c_ast.ID("<call>"))  # a call: never the same value twice

    Ids().visit(e)
    return found




class _Decls(Visitor):
    """Per name, the declarations of non-static locals in a function body (and whether
    each has an initializer)."""

    def __init__(self) -> None:
        self.found: dict[str, list[bool]] = {}

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and not {"static", "extern"} & set(node.storage or []):
            self.found.setdefault(node.name, []).append(node.init is not None)
        self.generic_visit(node)

    def visit_Struct(self, node: c_ast.Node) -> None:
        pass

    visit_Union = visit_Struct


def makes_no_communicator(call: c_ast.FuncCall) -> bool:
    """A split whose colour (or split type) is the literal ``MPI_UNDEFINED``: it
    writes ``MPI_COMM_NULL``, and the ranks that make it join no communicator."""
    args = call.args.exprs if call.args is not None else []
    spec = lookup(callee(call) or "")
    return spec is not None and spec.name in _SPLITS and len(args) > 1 \
        and _constant_value(args[1], frozenset(), {}) == _UNDEFINED


def joins_another(call: c_ast.FuncCall, other: c_ast.FuncCall) -> bool:
    """The callers of ``other`` cannot be members of the communicator ``call`` makes:
    ``other`` is a split with colour ``MPI_UNDEFINED``, or both are splits of one kind
    whose colours are different literals (MPICH's ``comm_idup_overlap.c``: three arms
    split with colours 0, 0 and 1, and the third arm's handle holds its callers only)."""
    if makes_no_communicator(other):
        return True
    spec, spec2 = lookup(callee(call) or ""), lookup(callee(other) or "")
    args = call.args.exprs if call.args is not None else []
    args2 = other.args.exprs if other.args is not None else []
    return spec is not None and spec is spec2 and spec.name in _SPLITS \
        and len(args) > 1 and len(args2) > 1 \
        and _distinct_constants([args[1], args2[1]], frozenset(), {})


def _handle_writes(defn: c_ast.FuncDef) -> tuple[_Writes, _Decls, set[str]]:
    """The writes and declarations of a function body, and its parameter names: what
    tells a handle the function made (``sole_constructors``, ``opened_files``)."""
    scan = _Writes()
    scan.visit(defn.body)
    decls = _Decls()
    decls.visit(defn.body)
    return scan, decls, set(param_names(defn.decl))


def opened_files(defn: c_ast.FuncDef) -> dict[str, str]:
    """Local file handles that nothing in the function writes but ``MPI_File_open``
    calls (and a declaration without initializer; ``MPI_File_close`` aside), each
    with the C text of the communicator every one of those calls passes, when they
    all pass the same: whichever of them opened the file, its collectives are those
    of that communicator's group (MPI-4 §14.2.1).  hdf5's ``t_mpi.c`` opens ``fh`` in
    both arms of ``if (color == 0)``, on the communicator of each colour."""
    scan, decls, params = _handle_writes(defn)
    spec = lookup("MPI_File_open")
    assert spec is not None and spec.creates is not None and spec.comm is not None
    opened: dict[str, list[str]] = {}
    for site in scan.constructors:
        call = site.node
        assert isinstance(call, c_ast.FuncCall)
        args = call.args.exprs if call.args is not None else []
        if callee(call) != spec.name or len(args) <= spec.creates:
            continue
        handle = _address_of(args[spec.creates])
        if isinstance(handle, c_ast.ID) and handle.name not in params:
            opened.setdefault(handle.name, []).append(positions.c_text(args[spec.comm]))
    out: dict[str, str] = {}
    for name, comms in opened.items():
        inits = decls.found.get(name, [])
        writes = len(scan.writes.get(name, [])) - scan.freed.get(name, 0)
        if len(set(comms)) == 1 and inits == [False] and writes == len(comms):
            out[name] = comms[0]
    return out


def sole_constructors(defn: c_ast.FuncDef) -> dict[str, c_ast.FuncCall]:
    """Local handles that nothing in the function writes but one constructor call and
    their declaration's initializer (``MPI_Comm_free`` of the handle aside), each with
    that call: every member of such a communicator got it from one execution of the
    call (``findings.after_creation``).  A split whose colour (or split type) is
    ``MPI_UNDEFINED`` writes ``MPI_COMM_NULL``, no communicator, so it does not count
    (MPICH's ``ctxsplit.c``: ``if (P) split(c, 1, ..., &new) else split(c,
    MPI_UNDEFINED, ..., &new)``: the members of ``new`` all made the first call)."""
    scan, decls, params = _handle_writes(defn)
    made: dict[str, list[c_ast.FuncCall]] = {}
    nulls: dict[str, int] = {}
    for site in scan.constructors:
        call = site.node
        assert isinstance(call, c_ast.FuncCall)
        spec = lookup(callee(call) or "")
        args = call.args.exprs if call.args is not None else []
        if spec is None or spec.creates is None or spec.creates >= len(args):
            continue
        handle = _address_of(args[spec.creates])
        if not isinstance(handle, c_ast.ID) or handle.name in params:
            continue
        if makes_no_communicator(call):
            nulls[handle.name] = nulls.get(handle.name, 0) + 1
        else:
            made.setdefault(handle.name, []).append(call)
    out: dict[str, c_ast.FuncCall] = {}
    for name, calls in made.items():
        inits = decls.found.get(name, [])
        writes = len(scan.writes.get(name, [])) - scan.freed.get(name, 0) - nulls.get(name, 0)
        if len(calls) == 1 and len(inits) == 1 and writes == 1 + int(inits[0]):
            out[name] = calls[0]
    return out
