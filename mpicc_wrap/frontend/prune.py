"""Prototypes that nothing in the TU names, blanked before parsing, keeping positions.

pycparser is the largest cost of a wrapped compile, and a project's own headers reach
it as user code (they may define static inline functions with collectives): p4est's
and libsc's headers, or hdf5's, declare hundreds of functions of which a TU calls a
handful.  A top-level declaration of exactly one function, with no body, no
initialiser and no ``typedef``, whose name occurs nowhere else in the text, cannot
change what the analysis finds: a call, a definition, an address taken or a second
declaration would each be another occurrence of the name.  Such a declaration is
replaced by blanks (newlines kept, so every coordinate still indexes the text the
rewriter patches); the compiler sees the source as written.  The names are returned:
a callee's summary may name a communicator through a file-scope function
(``get_comm()``), and ``Context.file_names`` must still list it.

Anything this scanner does not recognise (a pragma, a declarator list, a function
pointer, an attribute it does not know, unbalanced text) is kept as written.
"""

from __future__ import annotations

import re
from collections import Counter

from mpicc_wrap.frontend.gnumask import blank

__all__ = ["prune"]

# Strings and character constants whole, numbers (so no identifier is cut out of
# 1e5 or 0x1fUL), identifiers, and the punctuation that delimits declarations.
_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\.?\d[\w.]*|[A-Za-z_]\w*'
                    r"|[{}()\[\];=,#]")
# Words before a parenthesis that does not hold a function's parameters.
_DECORATIONS = frozenset({"__attribute__", "__attribute", "__asm__", "__asm", "asm",
                          "__declspec", "_Alignas", "alignas"})
_KEYWORDS = frozenset({
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
    "_Complex", "_Noreturn", "_Static_assert", "_Thread_local", "_Atomic", "__inline",
    "__inline__", "__restrict", "__restrict__", "__const", "__volatile__", "__typeof__",
    "__typeof", "typeof", "__thread", "__signed", "__int128", "static_assert",
})
_BAD_AT_TOP = frozenset({"=", ",", "#", "["})  # an object, a declarator list, a pragma


def prune(text: str) -> tuple[str, frozenset[str]]:
    """``text`` with every unreferenced function prototype blanked, and their names."""
    tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    counts = Counter(t for t, _, _ in tokens if _is_word(t))
    spans: list[tuple[int, int]] = []
    names: set[str] = set()
    i, n = 0, len(tokens)
    while i < n:
        end, name = _declaration(tokens, i)
        if end < 0:  # a body or an unbalanced brace: skip past it, keep it
            i = -end
            continue
        if name and counts[name] == 1:
            spans.append((tokens[i][1], tokens[end][2]))
            names.add(name)
        i = end + 1
    if not spans:
        return text, frozenset()
    out, done = [], 0
    for a, b in spans:
        out += [text[done:a], blank(text[a:b])]
        done = b
    return "".join(out) + text[done:], frozenset(names)


def _declaration(tokens: list[tuple[str, int, int]], i: int) -> tuple[int, str]:
    """From token ``i``, at file scope: (index of the ``;`` ending this declaration,
    the one function it declares if it qualifies, else ""), or (-next, "") when a brace
    comes first (a definition, a struct, an initialiser), ``next`` being the token
    after the declaration or definition (the whole of it is kept)."""
    paren, name, ok, prev = 0, "", True, ""
    for j in range(i, len(tokens)):
        tok = tokens[j][0]
        if tok == "{":
            return -_past_braces(tokens, j, prev == ")"), ""
        if tok == "}":  # unbalanced: keep the rest as it is
            return -len(tokens), ""
        if tok == ";":
            return j, name if ok and paren == 0 else ""
        if tok == "(":
            if paren == 0 and prev not in _DECORATIONS and not name:
                ok = ok and _is_name(prev)
                name = prev if ok else name
            paren += 1
        elif tok == ")":
            paren -= 1
        elif paren == 0 and (tok in _BAD_AT_TOP or tok == "typedef"
                             or (name and _is_word(tok) and tok not in _DECORATIONS)):
            ok = False  # (a word after the parameters: a K&R definition's)
        prev = tok
    return -len(tokens), ""


def _past_braces(tokens: list[tuple[str, int, int]], j: int, body: bool) -> int:
    """Index of the token after the braces opened at ``j``: right after the ``}`` for a
    function body, after the next file-scope ``;`` otherwise (``struct s {...} x;``)."""
    depth = 0
    for k in range(j, len(tokens)):
        tok = tokens[k][0]
        depth += (tok == "{") - (tok == "}")
        if depth == 0 and tok == "}" and body:
            return k + 1
        if depth == 0 and tok == ";":
            return k + 1
    return len(tokens)


def _is_word(tok: str) -> bool:
    return bool(tok) and (tok[0].isalpha() or tok[0] == "_")


def _is_name(tok: str) -> bool:
    return _is_word(tok) and tok not in _KEYWORDS
