"""File-scope declarations that nothing the TU keeps names, blanked before parsing.

pycparser is the largest cost of a wrapped compile, and a project's own headers reach
it as user code (they may define static inline functions with collectives): p4est's
and libsc's headers, fftw's ``ifftw.h`` or hdf5's declare hundreds of functions,
types and enumerations of which a TU uses a handful.

The rule is reachability over names.  The roots are kept whole: every function
definition with external linkage, every declaration with an initialiser (a table of
function pointers takes their addresses), every pragma, and anything this scanner
does not fully understand (a K&R definition, unbalanced text, a declaration that
declares no name it can see).  Every other file-scope declaration -- a prototype, a
typedef, a struct, union or enum definition, an ``extern`` or tentative object, a
``static`` function definition -- is kept when one of the names it declares
(declarator names, tags, enumerators) occurs as a word in something kept, and then its
own words count too; what is never reached is replaced by blanks (newlines kept, so
every coordinate still indexes the text the rewriter patches).  The compiler sees the
source as written.

Static functions are most of what a project's headers give a TU: p4est's TUs parse
3,362 function definitions from libsc's and p4est's headers (``sc_array_index`` and
its kin, in each of 99 TUs) against 1,248 of their own, and most are never called.
One no kept code names is never run from this TU (it has internal linkage, and
nothing takes its address) and no other file can see it; only one marked
``constructor``, ``destructor`` or ``used`` stays a root, and one an ``alias``,
``weakref`` or ``ifunc`` attribute names in a string is kept.

Why this cannot change what the analysis finds: a dropped declaration declares only
names that no kept code spells, so no statement the analysis walks refers to it, no
kept declaration needs its type, tag or enumerator to parse or to be typed
(``rankdep/layouts.py`` follows only spelled typedef names and tags), and no function
address is taken in it (initialisers are roots), and a dropped static function is
dead code in this TU: what it would do or warn about can happen only in a TU that
calls it, which keeps it.  Words are compared without regard to
C's name spaces (a field called ``plan`` keeps a typedef ``plan``), which only keeps
more.  The dropped names are returned: a callee's summary may name a communicator
through a file-scope function or object (``get_comm()``), and
``Context.file_names`` must still list it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import NamedTuple

from mpicc_wrap.frontend.gnumask import blank

__all__ = ["prune"]

# Strings and character constants whole, numbers (so no identifier is cut out of
# 1e5 or 0x1fUL), identifiers, and the punctuation that delimits declarations (``*``
# and ``^`` open a grouped declarator: ``T (*fp)(void)``).
_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\.?\d[\w.]*|[A-Za-z_]\w*'
                    r"|[{}()\[\];=,#*^]")
# Words before a parenthesis that does not hold a function's parameters.
_DECORATIONS = frozenset({"__attribute__", "__attribute", "__asm__", "__asm", "asm",
                          "__declspec", "_Alignas", "alignas"})
_TAGS = frozenset({"struct", "union", "enum"})
_KEYWORDS = frozenset({
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
    "_Complex", "_Noreturn", "_Static_assert", "_Thread_local", "_Atomic", "__inline",
    "__inline__", "__restrict", "__restrict__", "__const", "__volatile__", "__typeof__",
    "__typeof", "typeof", "__thread", "__signed", "__int128", "static_assert",
})
_CLOSE = {"(": ")", "[": "]", "{": "}"}
# Attributes that name a function in a string (``_aliased``).
_ALIASING = frozenset({"alias", "__alias__", "weakref", "__weakref__", "ifunc", "__ifunc__"})
# Attributes under which a static function runs, or must be emitted, unnamed.
_RUNS_UNNAMED = frozenset({"constructor", "__constructor__", "destructor", "__destructor__",
                           "used", "__used__"})


def prune(text: str) -> tuple[str, frozenset[str]]:
    """``text`` with every file-scope declaration nothing kept names blanked, and the
    names (not tags) those declarations declared."""
    found = list(_TOKEN.finditer(text))
    toks = [m.group() for m in found]
    used: set[str] = _aliased(toks)
    candidates: list[_Candidate] = []
    for first, last, root, body in _items(toks):
        if body >= 0 and not root:  # a definition: a root unless static and plain
            root = not _internal(toks, first, body)
        declared = None if root else _declared(toks, first, body if body >= 0 else last + 1)
        if declared is None:
            used.update(_words(toks, first, last))
        else:
            names, tags = declared
            candidates.append(_Candidate(first, last, names, names | tags))
    kept = _reach(toks, candidates, used)
    dropped = [c for i, c in enumerate(candidates) if i not in kept]
    if not dropped:
        return text, frozenset()
    out, done = [], 0
    for c in dropped:
        start, end = found[c.first].start(), found[c.last].end()
        out += [text[done:start], blank(text[start:end])]
        done = end
    return "".join(out) + text[done:], frozenset(n for c in dropped for n in c.names)


class _Candidate(NamedTuple):
    """A file-scope declaration the prune may blank: its first and last token, the
    names it declares (reported when dropped) and every word that keeps it (its names,
    tags and enumerators)."""

    first: int
    last: int
    names: set[str]
    keys: set[str]


def _reach(toks: list[str], candidates: list[_Candidate], used: set[str]) -> set[int]:
    """Indices of the candidates reached from the words ``used`` by the roots, each
    reached declaration's words counting in turn."""
    declaring: defaultdict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(candidates):
        for key in c.keys:
            declaring[key].append(i)
    kept: set[int] = set()
    work = [w for w in used if w in declaring]
    while work:
        for i in declaring.pop(work.pop(), ()):
            if i in kept:
                continue
            kept.add(i)
            for w in _words(toks, candidates[i].first, candidates[i].last):
                if w not in used:
                    used.add(w)
                    if w in declaring:
                        work.append(w)
    return kept


def _items(toks: list[str]) -> list[tuple[int, int, bool, int]]:
    """File-scope items as (first, last token, root, body): a declaration up to its
    ``;`` or a function definition up to its closing ``}`` (body: the index of its
    opening ``{``, else -1).  A root here when it starts with a pragma (a pragma has
    no ``;``: the next declaration or definition is in its item); whether another
    definition is one is the caller's rule (``_internal``).  Unbalanced or
    unterminated text ends the list with one root holding the rest."""
    items: list[tuple[int, int, bool, int]] = []
    i, n = 0, len(toks)
    while i < n:
        depth, paren, prev, body, j = 0, 0, "", -1, i
        while j < n:
            tok = toks[j]
            if tok == "{":
                if body < 0 and depth == 0 and paren == 0 and prev == ")":
                    body = j
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth < 0 or (depth == 0 and body >= 0):
                    break
            elif tok == "(":
                paren += 1
            elif tok == ")":
                paren -= 1
            elif tok == ";" and depth == 0 and paren == 0:
                break
            prev = tok
            j += 1
        if j >= n or depth < 0:
            items.append((i, n - 1, True, -1))
            break
        items.append((i, j, toks[i] == "#", body))
        i = j + 1
    return items


def _aliased(toks: list[str]) -> set[str]:
    """The functions ``alias("f")``, ``weakref("f")`` or ``ifunc("f")`` attributes name
    in a string: another name for ``f`` (or its resolver) runs it, so it is kept."""
    return {toks[k + 2][1:-1] for k in range(len(toks) - 2)
            if toks[k] in _ALIASING and toks[k + 1] == "(" and toks[k + 2][:1] == '"'}


def _internal(toks: list[str], first: int, body: int) -> bool:
    """Whether the function definition whose head is ``toks[first:body]`` is
    ``static`` (outside parentheses: ``int f(int a[static 4])`` has external linkage)
    and marked by no attribute that makes it run or stay without being named (a
    constructor, ``used``)."""
    head = toks[first:body]
    if not _RUNS_UNNAMED.isdisjoint(head):
        return False
    depth = 0
    for tok in head:
        depth += (tok in ("(", "[")) - (tok in (")", "]"))
        if depth == 0 and tok == "static":
            return True
    return False


def _declared(toks: list[str], i: int, end: int) -> tuple[set[str], set[str]] | None:
    """(names, tags) the body-less declaration ``toks[i:end]`` (or the head of a
    function definition, up to its body) declares; None when it must be kept: an
    initialiser, a K&R parameter list, a brace not opening a struct/union/enum body,
    or no name found."""
    names: set[str] = set()
    tags: set[str] = set()
    last, named = "", False  # the current declarator's last word; its name is known
    k = i
    while k < end:
        tok = toks[k]
        if tok in _TAGS and k + 1 < end and _is_word(toks[k + 1]):
            tags.add(toks[k + 1])
            k += 2
            continue
        if tok == "{":
            opener = toks[k - 1] if k > i else ""
            keyword = toks[k - 2] if k - 1 > i else ""
            if opener not in _TAGS and keyword not in _TAGS:
                return None
            close = _matching(toks, k, end)
            if "enum" in (opener, keyword):
                names.update(_enumerators(toks, k + 1, close))
            k = close + 1
            continue
        if tok in _DECORATIONS and k + 1 < end and toks[k + 1] == "(":
            k = _matching(toks, k + 1, end) + 1
            continue
        if tok in ("(", "["):
            after = toks[k + 1] if k + 1 < end else ""
            grouped = tok == "(" and (not _is_name(last) or after in ("*", "^", "("))
            if not named and not grouped and _is_name(last):
                names.add(last)
                named = True
            elif not named and grouped:  # a grouped declarator: (*fp), T (*f(int))
                names.update(w for w in _words(toks, k + 1, _matching(toks, k, end)))
                named = True
            k = _matching(toks, k, end) + 1
            continue
        if tok == "=":
            return None
        if tok in (",", ";"):
            if not named and _is_name(last):
                names.add(last)
            last, named = "", False
        elif _is_word(tok):
            if named and tok not in _DECORATIONS:
                return None  # a word after the declarator: K&R, or not understood
            last = tok
        k += 1
    return (names, tags) if names or tags else None


def _enumerators(toks: list[str], i: int, close: int) -> set[str]:
    """The constants an enum body ``toks[i:close]`` declares: each item's first word."""
    names: set[str] = set()
    expect, depth = True, 0
    for tok in toks[i:close]:
        if expect and depth == 0 and _is_word(tok):
            names.add(tok)
        depth += (tok in _CLOSE) - (tok in (")", "]", "}"))
        expect = depth == 0 and tok == ","
    return names


def _matching(toks: list[str], k: int, end: int) -> int:
    """Index of the bracket closing ``toks[k]`` (``end - 1`` when unbalanced)."""
    opener, closer, depth = toks[k], _CLOSE[toks[k]], 0
    for j in range(k, end):
        depth += (toks[j] == opener) - (toks[j] == closer)
        if depth == 0:
            return j
    return end - 1


def _words(toks: list[str], first: int, last: int) -> set[str]:
    """The identifiers (not keywords) among ``toks[first:last + 1]``."""
    return {t for t in toks[first:last + 1] if _is_name(t)}


def _is_word(tok: str) -> bool:
    return bool(tok) and (tok[0].isalpha() or tok[0] == "_")


def _is_name(tok: str) -> bool:
    return _is_word(tok) and tok not in _KEYWORDS
