"""Mask GNU C and C23 syntax that pycparser(ext) rejects, keeping positions.

Every rewrite replaces a span by text of the same length and keeps its newlines, so
every other token keeps its line and column: the AST's coordinates still index the
preprocessed text that the rewriter patches.  The rewrites only lose information the
collective analysis does not need (attributes, type arguments, ``__real__``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LINE = re.compile(r"[^\n]+")


def blank(span: str) -> str:
    """Spaces in place of every character except newlines (one substitution per line:
    a 75,000-line table is blanked whole, ``tables.py``)."""
    return _LINE.sub(lambda m: " " * (m.end() - m.start()), span)


def _spelled(word: str) -> Callable[[str], str]:
    return lambda span: word + blank(span[len(word):])


# (pattern, rewrite of the matched span); applied in order.
_REWRITES: tuple[tuple[re.Pattern[str], Callable[[str], str]], ...] = (
    # Comments survive `-C`/`-CC` preprocessing; string literals are matched first so
    # that "//" inside them is kept.
    (re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S),
     lambda s: s if s[0] in "\"'" else blank(s)),
    (re.compile(r"\b(?:__extension__|__real__|__imag__)\b"), blank),  # no-ops for us
    (re.compile(r"\b__signed__\b"), _spelled("signed")),
    (re.compile(r"\?\s*:"), _spelled("||")),  # GNU `a ?: b`: same operands, same flow
    (re.compile(r"\b__attribute__\s*\(\(\s*_*fallthrough_*\s*\)\)"), blank),
    (re.compile(r"\b__label__\b[^;]*;"), blank),  # local label declarations
)

# Constructs with a balanced parenthesised (or bracketed) tail: (opener, replacement).
# Builtins taking a type argument become `0`; C23 `[[attributes]]` disappear.
_BALANCED = re.compile(
    r"\b(?:__builtin_offsetof|__builtin_va_arg|__builtin_types_compatible_p|"
    r"__builtin_convertvector|__builtin_bit_cast|_Generic)\s*\(|\[\["
)


def mask(text: str) -> str:
    """``text`` with the unsupported syntax masked (see the module docstring)."""
    for pattern, rewrite in _REWRITES:
        text = _apply(pattern, rewrite, text)
    return _mask_balanced(text)


def _apply(pattern: re.Pattern[str], rewrite: Callable[[str], str], text: str) -> str:
    return pattern.sub(lambda m: rewrite(m.group(0)), text)


def _mask_balanced(text: str) -> str:
    chars: list[str] | None = None
    for m in _BALANCED.finditer(text):
        opener = m.group(0)
        end = _closing(text, m.end() - 1, "[]" if opener == "[[" else "()")
        if end < 0 or (chars is not None and chars[m.start()] == " "):
            continue  # unbalanced, or inside a span already masked
        chars = chars if chars is not None else list(text)
        for i in range(m.start(), end + 1 + (opener == "[[")):
            if chars[i] != "\n":
                chars[i] = " "
        if opener != "[[":
            chars[m.start()] = "0"
    return text if chars is None else "".join(chars)


def _closing(text: str, open_at: int, pair: str) -> int:
    """Index of the bracket closing the one at ``open_at`` (-1 if none)."""
    depth = 0
    for i in range(open_at, len(text)):
        ch = text[i]
        depth += (ch == pair[0]) - (ch == pair[1])
        if depth == 0:
            return i
    return -1
