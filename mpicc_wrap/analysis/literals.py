"""The value of an integer literal in the AST, for the facts that need a number
(the signs of ``signs.py``, the element counts of ``datatypes.py``), and the
expressions a conditional may evaluate to."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pycparser import c_ast

__all__ = ["int_constant", "int_expression", "outcomes"]

# Integer operators folded by ``int_expression`` (those of flag words and their masks).
_FOLD: dict[str, Callable[[int, int], int | None]] = {
    "|": lambda a, b: a | b, "&": lambda a, b: a & b, "^": lambda a, b: a ^ b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "<<": lambda a, b: a << b if 0 <= b < 128 else None,
    ">>": lambda a, b: a >> b if 0 <= b < 128 else None,
}


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


def int_expression(e: c_ast.Node | None,
                   named: Callable[[str], int | None] | None = None) -> int | None:
    """The value of an integer constant expression of literals (``0x1 | 0x4``, ``~0x2``,
    ``(1 << 3)``, under casts), as a Python integer of unbounded width; None for
    anything else (names, ``sizeof``).  The masks of flag words (``flags |=
    NC_NDIRTY``, ``flagval &= ~DGRAPHFREECOMM``) are such expressions once
    preprocessed; ``named`` gives the value of a name that is a constant (the TU's
    enumerators: hdf5's ``local_cause[0] |= H5D_MPIO_SET_INDEPENDENT``), or None."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.UnaryOp) and e.op in ("~", "-", "+"):
        inner = int_expression(e.expr, named)
        if inner is None:
            return None
        return ~inner if e.op == "~" else -inner if e.op == "-" else inner
    if isinstance(e, c_ast.BinaryOp) and e.op in _FOLD:
        left, right = int_expression(e.left, named), int_expression(e.right, named)
        if left is None or right is None:
            return None
        return _FOLD[e.op](left, right)
    if named is not None and isinstance(e, c_ast.ID):
        return named(e.name)
    if isinstance(e, c_ast.Constant) and e.type.split()[-1:] == ["int"]:
        e = c_ast.Constant("int", e.value)  # 1L, 0x4u: pycparser types them "long int"
    return int_constant(e)


def outcomes(e: c_ast.Node | None) -> Iterator[c_ast.Node]:
    """The expressions ``e`` may evaluate to, casts aside: both arms of a conditional
    (nested ones too), else ``e``."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.TernaryOp):
        yield from outcomes(e.iftrue)
        yield from outcomes(e.iffalse)
    elif e is not None:
        yield e
