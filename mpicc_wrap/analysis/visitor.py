"""pycparser's ``NodeVisitor`` with cheaper dispatch, the base of every AST pass.

Each pass walks whole function bodies (the call graph, the CFG builder, rankdep's
walks, the scans of ``outputs``, ``alone`` and ``communicators``), so the per-node cost
of the walk itself is a large share of the analysis.  pycparser's ``visit`` looks the
method up by class name in a per-instance cache and its ``generic_visit`` builds a
tuple of ``(name, child)`` pairs per node; here the method is found once per class of
visitor and node, and children come from the node's own ``__iter__``, which yields
them in ``children()``'s order (pycparser generates both from one description).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pycparser import c_ast

__all__ = ["INCREMENTS", "WRITES_OPERAND", "Visitor"]

# Unary operators that write their operand, and those that may: ``&`` hands it to code
# that may write it.  One table for every pass that asks what a body writes.
INCREMENTS = frozenset({"++", "--", "p++", "p--"})
WRITES_OPERAND = INCREMENTS | {"&"}


class Visitor(c_ast.NodeVisitor):
    """``visit_<Class>`` if the visitor has it, else ``generic_visit``: the children in
    order (the same contract as ``c_ast.NodeVisitor``).  ``generic_visit`` dispatches
    each child itself, one call per node instead of two, unless the class overrides
    ``visit`` (then every child goes through it)."""

    _methods: ClassVar[dict[type, Callable[[Any, Any], Any]]] = {}
    _own_visit: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}  # each visitor class its own table
        cls._own_visit = cls.visit is not Visitor.visit

    def _method(self, kind: type) -> Callable[[Any, Any], Any]:
        """The method for nodes of class ``kind``, found once per visitor class."""
        found: Callable[[Any, Any], Any] = getattr(
            type(self), "visit_" + kind.__name__, type(self).generic_visit)
        self._methods[kind] = found
        return found

    def visit(self, node: c_ast.Node) -> Any:
        method = self._methods.get(node.__class__) or self._method(node.__class__)
        return method(self, node)

    def generic_visit(self, node: c_ast.Node) -> Any:
        if self._own_visit:
            for child in node:
                self.visit(child)
            return
        methods = self._methods
        for child in node:
            (methods.get(child.__class__) or self._method(child.__class__))(self, child)
