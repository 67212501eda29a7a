"""Parse one preprocessed TU into a ``ParsedTU`` quickly and with exact positions.

The preprocessed text is split by its line markers (``# 47 "src.c" 2``) into system
header lines and user lines.  Line markers and other directives are blanked (not
removed), so pycparser's ``Coord.line`` is the line index into the preprocessed text.
Fast path: system header lines are blanked too and the parser is seeded with their
typedef names, gathered once per distinct header text (``headercache``).  If that
fails, the whole text is parsed; if that fails as well, ``AnalysisSkipped``.

A header file is a system header when the marker entering it carries flag 3, or when
it lives in an include directory of the MPI wrapper (mpi.h is usually found with -I).
Headers of the user's project are parsed as user code: they may hold static inline
functions calling collectives.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pycparser import c_ast

from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.frontend import gnumask, handles, headercache, prune, tables
from mpicc_wrap.frontend.prototypes import const_pointer_params, field_pointer_params
from mpicc_wrap.frontend.scalars import scalar_typedefs
from mpicc_wrap.model import ParsedTU
from mpicc_wrap.switches import Options

MARKER, SYSTEM, USER = "marker", "system", "user"
T = TypeVar("T")

_LINEMARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)(?:\s+"((?:[^"\\]|\\.)*)")?([\s\d]*)$')
_PRAGMA = re.compile(r"^\s*#\s*pragma\b")
_ESCAPE = re.compile(r"\\(.)")
_ERROR_POS = re.compile(r":(\d+)(?::(\d+))?:\s*(.*)$", re.S)
_DEEP_THREAD = "mpicc-wrap-deep-stack"
STACK_BYTES = 512 << 20  # virtual; only the pages a deep parse touches are used
_RECURSION_LIMIT = 200_000

# Which parses ran (tests assert on these counts, not on wall time).
COUNTERS: Counter[str] = Counter()


@dataclass
class SplitText:
    """The preprocessed lines classified by origin."""

    lines: list[str]
    kinds: list[str]  # MARKER, SYSTEM or USER per line
    linemap: list[tuple[str, int]]
    has_markers: bool
    main_file: str
    user_markers: frozenset[int] = frozenset()  # marker lines returning to a user file

    def text(self, keep: frozenset[str], pragmas: bool = True) -> str:
        """The text with every line whose kind is not in ``keep`` blanked."""
        return "\n".join(
            line if kind in keep and (pragmas or not _PRAGMA.match(line)) else ""
            for line, kind in zip(self.lines, self.kinds, strict=True)
        )

    def system_chunks(self) -> list[str]:
        """The system header lines, one text per run between user lines (a top-level
        #include): the header cache's input and keys."""
        chunks: list[list[str]] = [[]]
        for i, (line, kind) in enumerate(zip(self.lines, self.kinds, strict=True)):
            if (kind == USER or i in self.user_markers) and chunks[-1]:
                chunks.append([])
            elif kind == SYSTEM and not line.lstrip().startswith("#"):
                chunks[-1].append(line)
        return ["\n".join(c) for c in chunks if c]

    def system_calls(self) -> frozenset[str]:
        """Names followed by ``(`` in the system-header chunks, which hold no pragma
        (``#pragma GCC visibility push(default)`` calls nothing): what the header
        cache lists (``HeaderInfo.calls``), for when it cannot."""
        return frozenset(name for chunk in self.system_chunks()
                         for name in headercache.CALLED.findall(chunk))

    def user_lines(self) -> int:
        pairs = zip(self.lines, self.kinds, strict=True)
        return sum(1 for line, kind in pairs if kind == USER and line.strip())


def split(text: str, main_file: str, system_dirs: tuple[str, ...] = ()) -> SplitText:
    """Classify each line of ``text`` and map it to its (file, line) of origin."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    kinds: list[str] = []
    linemap: list[tuple[str, int]] = []
    system: dict[str, bool] = {}
    user_markers: set[int] = set()
    file, line_no, kind, first = main_file, 1, USER, None
    for index, line in enumerate(lines):
        m = _LINEMARKER.match(line) if line.startswith("#") else None
        if m:
            number, name, flags = m.groups()
            file = _unescape(name) if name is not None else file
            first = first or file
            if file not in system:
                system[file] = file != first and _is_system(file, flags.split(), system_dirs)
            kind = SYSTEM if system[file] else USER
            if kind == USER:
                user_markers.add(index)
            kinds.append(MARKER)
            line_no = int(number)
            linemap.append((file, max(line_no - 1, 0)))
            continue
        directive = line.startswith("#") and not _PRAGMA.match(line)
        kinds.append(MARKER if directive else kind)  # a pragma line keeps its file's kind
        linemap.append((file, line_no))
        line_no += 1
    return SplitText(lines, kinds, linemap, first is not None, first or main_file,
                     frozenset(user_markers))


def _unescape(name: str) -> str:
    """A marker's file name as the file system spells it (most have no escape: a
    generated table may bring 100,000 markers, pnetcdf's utf8proc.c 116,000)."""
    return _ESCAPE.sub(r"\1", name) if "\\" in name else name


def _is_system(file: str, flags: list[str], system_dirs: tuple[str, ...]) -> bool:
    if "3" in flags or file.startswith("<"):
        return True
    real = os.path.realpath(file)
    return any(real.startswith(d.rstrip(os.sep) + os.sep) for d in system_dirs)


@dataclass
class _Attempt:
    mode: str  # "fast" or "full"
    keep: frozenset[str]
    typedefs: frozenset[str]


def parse(text: str, main_file: str, compiler: list[str], options: Options) -> ParsedTU:
    """Parse a preprocessed TU; raise ``AnalysisSkipped`` when it cannot be parsed."""
    system_dirs = handles.include_dirs(tuple(compiler)) if compiler else ()
    st = split(text, main_file, system_dirs)
    chunks = st.system_chunks()
    info = headercache.header_info_chain(chunks, options) if st.has_markers else None
    attempts = [_Attempt("full", frozenset({SYSTEM, USER}), frozenset())]
    if info is not None:  # the full parse is the fallback, unless it is the same parse
        fast = _Attempt("fast", frozenset({USER}), info.typedefs)
        attempts = [fast, *attempts] if any(c.strip() for c in chunks) else [fast]
    ast, error, pruned = None, "", frozenset[str]()
    for attempt in attempts:
        ast, error, pruned = _parse_attempt(st, attempt)
        if ast is not None:
            break
    if ast is None:
        raise AnalysisSkipped(f"cannot parse: {error}")
    noreturn = headercache.noreturn_names(ast.ext) | (info.noreturn if info else set())
    arithmetic = scalar_typedefs(ast.ext, info.scalars if info else frozenset())
    const = {**(info.const_params if info else {}), **const_pointer_params(ast.ext, arithmetic),
             **field_pointer_params(ast.ext, arithmetic)}
    if attempt.mode == "full":
        ast.ext = [n for n in ast.ext if _is_user_node(n, st)]
    names = handles.handle_names(compiler, options) if compiler else {}
    calls = info.calls if info is not None else st.system_calls()
    return ParsedTU(ast, text, main_file, st.linemap, st.user_lines(), frozenset(noreturn),
                    names, calls, const, arithmetic, pruned)


def _parse_attempt(st: SplitText, attempt: _Attempt
                   ) -> tuple[c_ast.FileAST | None, str, frozenset[str]]:
    """Parse with pragmas, then without them (a pragma in a position pycparser does
    not accept, e.g. between a declarator and its initialiser); also the names of the
    declarations ``prune`` blanked.  Each text is parsed pruned, then whole if that
    fails: the prune only saves time, and a declaration it misjudged must not cost
    the analysis of the TU."""
    error = ""
    has_pragmas = any(_PRAGMA.match(line) for line, kind in zip(st.lines, st.kinds, strict=True)
                      if kind == USER)
    for pragmas in (True, False) if has_pragmas else (True,):
        # Tables first: the masks then scan the text without them (utf8proc.c: 18 MB).
        whole = gnumask.mask(tables.shrink(st.text(attempt.keep, pragmas)))
        pruned_text, pruned = prune.prune(whole)
        texts = [(pruned_text, pruned)]
        if pruned_text is not whole:
            texts.append((whole, frozenset()))
        for source, names in texts:
            COUNTERS[attempt.mode] += 1
            parser = headercache.make_parser()
            try:
                ast = deep_stack(functools.partial(
                    parser.parse, source, st.main_file,
                    initial_type_symbols=attempt.typedefs | headercache.BUILTIN_TYPES))
                return ast, "", names
            except MemoryError:
                raise  # the budget's memory cap, not a parse failure
            except Exception as exc:  # ParseError and the odd AssertionError/RecursionError
                error = error or _describe(exc, parser, st)
    return None, error, frozenset()


def deep_stack(fn: Callable[[], T]) -> T:
    """``fn()`` run in a thread with a large stack and recursion limit: the recursive
    descent parser needs ~10 frames per nesting level (macros nest parentheses deeply,
    long else-if chains nest statements)."""
    if threading.current_thread().name == _DEEP_THREAD:
        return fn()  # already on a deep stack (the budgeted stage runs on one)
    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(fn())
        except BaseException as exc:  # re-raised in the calling thread
            failure.append(exc)

    old_size, old_limit = threading.stack_size(STACK_BYTES), sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, _RECURSION_LIMIT))
    try:
        worker = threading.Thread(target=run, name=_DEEP_THREAD)
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    if not result:  # the thread died before recording either: it could not allocate
        raise MemoryError("the deep-stack thread ended without a result")
    return result[0]


def _describe(exc: Exception, parser: object, st: SplitText) -> str:
    """'src.c:12:5: before: x' for a parser error at preprocessed line 12."""
    msg = str(exc) or type(exc).__name__
    m = _ERROR_POS.search(msg)
    line, col = (int(m.group(1)), int(m.group(2) or 0)) if m else _current_token(parser)
    reason = m.group(3) if m else msg.split(": ", 1)[-1]
    if 1 <= line <= len(st.linemap):
        file, src_line = st.linemap[line - 1]
        return f"{file}:{src_line}:{col}: {reason}"
    return reason


def _current_token(parser: object) -> tuple[int, int]:
    """(line, column) of the token the parser stopped at (pycparser internals)."""
    tokens = getattr(parser, "_tokens", None)
    buffer = getattr(tokens, "_buffer", None)
    if not buffer:
        return 0, 0
    index = min(getattr(tokens, "_index", 0), len(buffer) - 1)
    tok = next((t for t in reversed(buffer[: index + 1]) if t is not None), None)
    return getattr(tok, "lineno", 0), getattr(tok, "column", 0)


def _is_user_node(node: c_ast.Node, st: SplitText) -> bool:
    coord = getattr(node, "coord", None)
    line = getattr(coord, "line", 0) or 0
    return 1 <= line <= len(st.kinds) and st.kinds[line - 1] == USER
