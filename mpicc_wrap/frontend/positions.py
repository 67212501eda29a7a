"""Positions in the preprocessed text and the instrumentation plan of a function.

pycparser only gives start coordinates; the ends the rewriter needs (one past a call's
closing parenthesis, one past a return's ``;``, the body's closing brace) are found by
scanning the preprocessed text, skipping string and character literals.
"""

from __future__ import annotations

import functools
import itertools
import re

from pycparser import c_ast, c_generator

from mpicc_wrap.model import ExitPoint, ParsedTU, Pos

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = set(_OPEN.values())
_QUOTES = "\"'"


@functools.cache
def _stops(stop: str) -> re.Pattern[str]:
    """The characters ``scan`` must look at: quotes, brackets and ``stop``."""
    return re.compile("[" + re.escape(_QUOTES + "".join(_OPEN) + "".join(_CLOSE) + stop) + "]")


@functools.cache
def _literal_end(quote: str) -> re.Pattern[str]:
    """An escaped character or the closing ``quote`` inside a literal."""
    return re.compile(r"\\[\s\S]?|" + re.escape(quote))


class Text:
    """The preprocessed text with line/column <-> offset conversion."""

    def __init__(self, text: str) -> None:
        self.text = text

    @functools.cached_property
    def starts(self) -> list[int]:
        """Offset of each line's first character, computed on first use: most TUs
        have no finding and no plan, and never convert a position (4 ms a TU of
        9,000 lines, a quarter of a small TU's analysis)."""
        lines = self.text.split("\n")  # each start is the last one + a line + "\n"
        return list(itertools.accumulate(map((1).__add__, map(len, lines[:-1])),
                                         initial=0))

    def offset(self, pos: Pos) -> int:
        return self.starts[pos.line - 1] + pos.column - 1

    def pos(self, offset: int) -> Pos:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return Pos(lo + 1, offset - self.starts[lo] + 1)

    def _skip_literal(self, i: int) -> int:
        """Offset just past the string/char literal starting at ``i`` (past the end
        of the text when it is not closed)."""
        quote, find, at = self.text[i], _literal_end(self.text[i]).search, i + 1
        while (m := find(self.text, at)) is not None:
            if m.group() == quote:
                return m.end()
            at = m.end()  # past an escape
        return len(self.text) + 1

    def scan(self, start: Pos, stop: str) -> Pos:
        """One past the first ``stop`` character at nesting depth 0 after ``start``
        (``stop`` = ")" or "}" means: past the group opened by the first bracket).
        Jumps from one character that matters to the next (``_stops``): a function
        body is thousands of characters, scanned for each of its exits."""
        i, depth, text = self.offset(start), 0, self.text
        find = _stops(stop).search
        while (m := find(text, i)) is not None:
            ch, i = m.group(), m.start()
            if ch in _QUOTES:
                i = self._skip_literal(i)
                continue
            if ch in _OPEN:
                depth += 1
            elif ch in _CLOSE:
                depth -= 1
                if depth == 0 and ch == stop:
                    return self.pos(i + 1)
            elif ch == stop and depth == 0:
                return self.pos(i + 1)
            i += 1
        return self.pos(len(text))

    def callee_start(self, pos: Pos) -> Pos:
        """Start of a call through an expression: pycparser's coord of ``(*fp)(x)``
        points at ``fp``; widen to the outermost parenthesis that closes right
        before the argument list."""
        text, at = self.text, self.offset(pos)
        i, opens = at - 1, []
        while i >= 0 and text[i] in " \t\n*&(":
            if text[i] == "(":
                opens.append(i)
            i -= 1
        for p in reversed(opens):  # outermost first
            close = self.offset(self.scan(self.pos(p), ")"))
            if close > at and text[close:].lstrip().startswith("("):
                return self.pos(p)
        return pos

    def definition_start(self, name_pos: Pos) -> Pos:
        """Start of the declaration containing ``name_pos``: after the previous
        ``;``/``}`` or line marker at file scope."""
        i = self.offset(name_pos) - 1
        text = self.text
        while i >= 0 and text[i] not in ";}":
            if text[i] == "\n" and text.startswith("#", i + 1) and i + 1 < self.offset(name_pos):
                break
            i -= 1
        i += 1
        while i < len(text):
            if text[i].isspace():
                i += 1
            elif text[i] == "#" and (i == 0 or text[i - 1] == "\n"):
                i = text.find("\n", i) + 1 or len(text)
            else:
                break
        return self.pos(i)


def coord_pos(coord: object) -> Pos:
    return Pos(getattr(coord, "line", 1) or 1, getattr(coord, "column", 1) or 1)


def c_text(node: c_ast.Node | None) -> str:
    """C source text of an expression (pycparser's generator)."""
    return "" if node is None else c_generator.CGenerator().visit(node)


def return_type(func: c_ast.FuncDef) -> str:
    """C text of the function's return type."""
    gen = c_generator.CGenerator()
    return gen._generate_type(func.decl.type.type, emit_declname=False).strip()


def returns(body: c_ast.Node) -> list[c_ast.Return]:
    """Return statements of a body (not of GNU nested functions)."""
    found: list[c_ast.Return] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Return):
            found.append(n)
        stack += [c for c in n if not isinstance(c, c_ast.FuncDef)]
    return sorted(found, key=lambda r: (r.coord.line, r.coord.column))


def exits(tu: ParsedTU, text: Text, func: c_ast.FuncDef, with_calls: set[int]) -> list[ExitPoint]:
    """Every return statement and the closing brace of ``func``.  ``with_calls``
    holds ids of Return nodes whose value executes a collective."""
    result = []
    for r in returns(func.body):
        start = coord_pos(r.coord)
        result.append(ExitPoint("return", start, text.scan(start, ";"), tu.loc(start),
                                r.expr is not None, id(r) in with_calls))
    close = body_end(text, func)
    result.append(ExitPoint("end", close, close, tu.loc(close)))
    return result


def body_end(text: Text, func: c_ast.FuncDef) -> Pos:
    """Position of the ``}`` closing the function body."""
    past = text.scan(coord_pos(func.body.coord), "}")
    return Pos(past.line, past.column - 1)


def inner_names(func: c_ast.FuncDef) -> set[str]:
    """Names declared in blocks nested inside the body (not visible at exits)."""
    outer = {d.name for d in func.body.block_items or [] if isinstance(d, c_ast.Decl)}
    names: set[str] = set()
    stack = list(func.body)
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and n.name and n.name not in outer:
            names.add(n.name)
        stack += n
    return names


def body_decls(func: c_ast.FuncDef) -> dict[str, c_ast.Decl]:
    """Declarations at the top level of the body, by name (in scope at every later
    point of the function, unlike those of ``inner_names``)."""
    return {d.name: d for d in func.body.block_items or []
            if isinstance(d, c_ast.Decl) and d.name}


def jumps_over(func: c_ast.FuncDef, pos: Pos) -> bool:
    """Whether a ``goto`` before ``pos`` may land on a label after it, skipping the
    initialisation of what is declared at ``pos``."""
    gotos, labels = [], []
    stack: list[c_ast.Node] = [func.body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Goto):
            gotos.append(coord_pos(n.coord))
        elif isinstance(n, c_ast.Label):
            labels.append(coord_pos(n.coord))
        stack += [c for c in n if not isinstance(c, c_ast.FuncDef)]
    return any(g < pos for g in gotos) and any(lb > pos for lb in labels)
