"""The value of an integer literal in the AST, for the facts that need a number
(the signs of ``signs.py``, the element counts of ``datatypes.py``)."""

from __future__ import annotations

from pycparser import c_ast

__all__ = ["int_constant"]


def int_constant(e: c_ast.Node | None) -> int | None:
    """The value of an integer constant (``-1`` included, under casts), else None.
    Python's base-0 rules read decimal and hexadecimal; a C octal literal such as
    ``010`` is not read (None), never mistaken for ten."""
    negative = isinstance(e, c_ast.UnaryOp) and e.op == "-"
    if negative:
        e = e.expr  # type: ignore[union-attr]
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.Constant) and e.type == "int":
        try:
            value = int(e.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
        return -value if negative else value
    return None
