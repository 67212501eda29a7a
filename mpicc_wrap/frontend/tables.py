"""Large tables of numbers shrunk to one element before parsing, keeping positions.

pycparser parses about 5,000 lines a second, so a generated table (MPICH's
``baddims.h``: 75,000 lines of ``{ 72, 2, { 9, 8 } },``; pnetcdf's ``utf8proc.c``) costs
more than the rest of the TU and can exhaust the analysis budget.  Such an
initialiser holds numeric literals only, so every element is the same on every
process, and the collective analysis learns nothing from the values that ``{0}`` would
not tell it: both are single-valued constants.  Only the text given to the parser
changes (its length and newlines are kept, so coordinates still index the text the
rewriter patches); the compiler sees the table as written.
"""

from __future__ import annotations

import re

from mpicc_wrap.frontend.gnumask import blank

__all__ = ["MIN_TABLE", "shrink"]

MIN_TABLE = 4096  # shorter initialisers are parsed as written

_START = re.compile(r"=\s*\{")
_BRACES = re.compile(r"[{};]")
_OTHER = re.compile(r"[^\s{},().+\-0-9a-fA-FxXuUlL]")  # a character no number list holds
_WORD = re.compile(r"[0-9a-zA-Z.]+")  # a literal (starts with a digit or '.') or a name


def shrink(text: str) -> str:
    """``text`` with every brace initialiser of at least ``MIN_TABLE`` characters that
    holds only numeric literals replaced by ``{0`` and blanks."""
    out: list[str] = []
    done = 0
    for start in _START.finditer(text):
        brace = start.end() - 1
        if brace < done:
            continue
        end = _closing(text, brace)
        if end is None or end - brace < MIN_TABLE or not _numbers_only(text, brace + 1, end):
            continue
        inner = blank(text[brace + 1:end])
        at = inner.find(" ")
        if at < 0:
            continue
        out += [text[done:brace + 1], inner[:at], "0", inner[at + 1:]]
        done = end
    return "".join(out) + text[done:] if out else text


def _numbers_only(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds numeric literals, signs, commas and braces only
    (a word starting with a letter is a name: an enumerator or a variable)."""
    return _OTHER.search(text, start, end) is None and all(
        m.group()[0].isdigit() or m.group()[0] == "." for m in _WORD.finditer(text, start, end))


def _closing(text: str, brace: int) -> int | None:
    """Index of the ``}`` that closes the ``{`` at ``brace`` (None when unbalanced or
    when a ``;`` comes first: no initialiser holds one outside a string)."""
    depth = 0
    for m in _BRACES.finditer(text, brace):
        if m.group() == ";":
            return None
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return m.start()
    return None
