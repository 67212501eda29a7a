"""Large tables of numbers shrunk to one element before parsing, keeping positions.

pycparser parses about 5,000 lines a second, so a generated table (MPICH's
``baddims.h``: 75,000 lines of ``{ 72, 2, { 9, 8 } },``; pnetcdf's ``utf8proc.c``) costs
more than the rest of the TU and can exhaust the analysis budget.  Such an
initialiser holds numeric literals only, so every element is the same on every
process, and the collective analysis learns nothing from the values that ``{0}`` would
not tell it: both are single-valued constants.  Only the text given to the parser
changes (its newlines are kept, and the columns of what follows it, so coordinates
still index the text the rewriter patches); the compiler sees the table as written.

A table of a ``static`` object may also name enumeration constants (pnetcdf's
``utf8proc.c``: 240,000 lines of ``{UTF8PROC_CATEGORY_LU, 0, UTF8PROC_BIDI_CLASS_L,
...}``, 11 s of parsing for a file that compiles in 0.5 s).  An object of static
storage duration has a constant initialiser, so a name there that the TU declares as
an enumerator is that constant, the same on every process, like a number.
"""

from __future__ import annotations

import re

__all__ = ["MIN_TABLE", "shrink"]

MIN_TABLE = 4096  # shorter initialisers are parsed as written

_START = re.compile(r"=\s*\{")
_BRACES = re.compile(r"[{};]")
_OTHER = re.compile(r"[^\s{},().+\-0-9a-fA-FxXuUlL]")  # a character no number list holds
_WORD = re.compile(r"[0-9a-zA-Z.]+")  # a literal (starts with a digit or '.') or a name
_NON_TABLE = re.compile(r"[^\s{},().+\-\w]")  # a character no table of constants holds
_TOKEN = re.compile(r"[A-Za-z_]\w*|[0-9.][\w.]*")  # a name, or a literal
_ENUM = re.compile(r"\benum\b\s*(?:[A-Za-z_]\w*\s*)?\{([^{}]*)\}")
_ENUMERATOR = re.compile(r"\s*([A-Za-z_]\w*)")
_DECL_START = re.compile(r"[;{}]")


def shrink(text: str) -> str:
    """``text`` with every brace initialiser of at least ``MIN_TABLE`` characters that
    holds only numeric literals replaced by ``{0`` and blanks."""
    out: list[str] = []
    done = 0
    names: set[str] = set()  # the enumerators declared before ``seen`` (before use)
    seen = 0
    for start in _START.finditer(text):
        brace = start.end() - 1
        if brace < done:
            continue
        end = _closing(text, brace)
        if end is None or end - brace < MIN_TABLE:
            continue
        if not _numbers_only(text, brace + 1, end):
            if not _static(text, start.start()):
                continue
            names |= enumerators(text, seen, start.start())
            seen = max(seen, start.start())
            if not _constants_only(text, brace + 1, end, names):
                continue
        out += [text[done:brace + 1], _emptied(text[brace + 1:end])]
        done = end
    return "".join(out) + text[done:] if out else text


def _numbers_only(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds numeric literals, signs, commas and braces only
    (a word starting with a letter is a name: an enumerator or a variable)."""
    return _OTHER.search(text, start, end) is None and all(
        m.group()[0].isdigit() or m.group()[0] == "." for m in _WORD.finditer(text, start, end))


def _emptied(body: str) -> str:
    """``0``, the body's newlines, and blanks for the columns of its last line: no other
    token sits on the lines inside the table, and the ``}`` and what follows it keep
    their line and column.  Blanking the table in place kept its characters: the
    lexer steps over blanks one at a time in Python (``utf8proc.c``'s 18 MB took 7 s)."""
    last = body.rfind("\n")
    if last < 0:
        return "0" + " " * (len(body) - 1)
    return "0" + "\n" * body.count("\n") + " " * (len(body) - last - 1)


def enumerators(text: str, start: int = 0, end: int | None = None) -> set[str]:
    """The names every ``enum { ... }`` body of ``text[start:end]`` declares."""
    found: set[str] = set()
    for body in _ENUM.finditer(text, start, len(text) if end is None else end):
        for item in body.group(1).split(","):
            if m := _ENUMERATOR.match(item):
                found.add(m.group(1))
    return found


def _static(text: str, at: int) -> bool:
    """Whether the declaration whose ``=`` is at ``at`` declares a ``static`` object."""
    begin = max((m.end() for m in _DECL_START.finditer(text, max(at - 4096, 0), at)),
                default=max(at - 4096, 0))
    return re.search(r"\bstatic\b", text[begin:at]) is not None


def _constants_only(text: str, start: int, end: int, names: set[str]) -> bool:
    """Whether ``text[start:end]`` holds numeric literals and enumerators only (with
    signs, commas, parentheses and braces)."""
    if _NON_TABLE.search(text, start, end) is not None:
        return False
    words = set(_TOKEN.findall(text, start, end))
    return all(w[0].isdigit() or w[0] == "." or w in names for w in words)


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
