"""The analysis' AST visitor base: same walk as pycparser's NodeVisitor, cheaper."""

from __future__ import annotations

from pathlib import Path

from analysis_helpers import parse_source
from pycparser import c_ast

from mpicc_wrap.analysis.visitor import Visitor

CORPUS = Path(__file__).parent.parent / "corpus"


class _Order(c_ast.NodeVisitor):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def generic_visit(self, node: c_ast.Node) -> None:
        self.seen.append(type(node).__name__)
        super().generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:  # not descended, like ours
        self.seen.append("call")


class _FastOrder(Visitor):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def generic_visit(self, node: c_ast.Node) -> None:
        self.seen.append(type(node).__name__)
        super().generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.seen.append("call")


class _Ids(Visitor):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.append(node.name)


class _Constants(Visitor):
    def __init__(self) -> None:
        self.values: list[str] = []

    def visit_Constant(self, node: c_ast.Constant) -> None:
        self.values.append(node.value)


def test_the_walk_visits_what_pycparser_visits_in_the_same_order() -> None:
    for name in ("buggy_comm_dup_rank0.c", "correct_split_other_colours_in_other_arms.c"):
        ast = parse_source((CORPUS / name).read_text()).ast
        theirs, ours = _Order(), _FastOrder()
        theirs.visit(ast)
        ours.visit(ast)
        assert ours.seen == theirs.seen and "call" in ours.seen


def test_each_visitor_class_dispatches_to_its_own_methods() -> None:
    ast = parse_source("int f(int x) { return x + 1; }").ast
    ids, constants = _Ids(), _Constants()
    ids.visit(ast)
    constants.visit(ast)
    ids.visit(ast)
    assert ids.names == ["x", "x"] and constants.values == ["1"]


class _Counted(Visitor):
    """A visitor that overrides ``visit`` (communicators' ``_Writes`` does, to accept
    None): every node must still pass through it, children included."""

    def __init__(self) -> None:
        self.count = 0

    def visit(self, node: c_ast.Node | None) -> None:
        if node is not None:
            self.count += 1
            super().visit(node)


def test_an_overridden_visit_still_sees_every_child() -> None:
    ast = parse_source((CORPUS / "buggy_comm_dup_rank0.c").read_text()).ast
    nodes, stack = 0, [ast]
    while stack:
        nodes += 1
        stack += [child for _, child in stack.pop().children()]
    counted = _Counted()
    counted.visit(ast)
    assert counted.count == nodes > 50
