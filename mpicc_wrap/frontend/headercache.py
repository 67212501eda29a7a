"""What the frontend needs from system headers, parsed once and cached on disk.

A TU including mpi.h and stdio.h is ~9,000 preprocessed lines, nearly all system
headers.  Re-parsing them for every TU costs far more than compiling it, so the
frontend blanks them out and seeds the parser with the header facts gathered here:
the typedef names (so user declarations parse), the functions declared
``_Noreturn`` / ``__attribute__((noreturn))`` (so the analysis knows exits) and the
names the headers call (``CALLED``: the call graph's libc and friends).
The cache is keyed by a hash of the header text, so it is valid across projects
and compilers that produce the same headers, and safe under ``make -j`` (atomic
``os.replace``; a corrupt or unreadable entry is simply re-parsed).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser

from mpicc_wrap import fileutil
from mpicc_wrap.frontend import gnumask
from mpicc_wrap.frontend.prototypes import const_pointer_params
from mpicc_wrap.frontend.scalars import scalar_typedefs
from mpicc_wrap.switches import Options, cache_dir

FORMAT = "mpicc-wrap-headers-5"  # bump when the cached content changes meaning
# A name followed by ``(``: what a header calls or declares (``HeaderInfo.calls``).
CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")

# Types GCC knows without a declaration that pycparserext does not.
BUILTIN_TYPES = frozenset(
    {"_Float16", "_Float32", "_Float64", "_Float128", "_Float32x", "_Float64x", "_Float128x",
     "__float128", "__float80", "__ibm128", "__fp16", "__bf16", "__auto_type",
     "__int128_t", "__uint128_t",
     "__builtin_va_list"}
)

NORETURN_ATTRS = frozenset({"noreturn", "__noreturn__"})

# How many header texts were really parsed (tests assert on it, not on wall time).
COUNTERS: Counter[str] = Counter()
_MEMO: dict[str, HeaderInfo | None] = {}


@dataclass(frozen=True)
class HeaderInfo:
    """Facts about a block of system-header text."""

    typedefs: frozenset[str]
    noreturn: frozenset[str]
    const_params: dict[str, frozenset[int]] = field(default_factory=dict)  # prototypes.py
    scalars: frozenset[str] = frozenset()  # typedef names of arithmetic types (scalars.py)
    calls: frozenset[str] = frozenset()  # names followed by "(" (CALLED)


def forget() -> None:
    """Drop the in-process memo (as a new process would start), keeping the disk cache."""
    _MEMO.clear()


def make_parser() -> GnuCParser:
    """A fresh GNU C parser (parsers keep scope state between calls)."""
    return GnuCParser()


def header_info_chain(chunks: list[str], options: Options) -> HeaderInfo | None:
    """Header facts of consecutive system-header chunks (one per top-level #include).

    Each chunk is parsed once, seeded with the typedef names of the chunks before it,
    and cached under a key chaining every preceding chunk's text: TUs that share their
    first includes (mpi.h, typically) share that work.  If a chunk does not parse
    alone (a header opened inside a declaration), all chunks are parsed as one text.
    """
    key, typedefs, noreturn, calls = FORMAT, frozenset[str](), frozenset[str](), frozenset[str]()
    const: dict[str, frozenset[int]] = {}
    arithmetic = frozenset[str]()
    for chunk in chunks:
        if not chunk.strip():
            continue
        key = hashlib.sha256((key + "\0" + chunk).encode()).hexdigest()
        info = _cached(key, options,
                       functools.partial(_parse_headers, chunk, typedefs, arithmetic))
        if info is None:
            return header_info("\n".join(chunks), options)
        typedefs, noreturn = typedefs | info.typedefs, noreturn | info.noreturn
        const.update(info.const_params)
        arithmetic |= info.scalars
        calls |= info.calls
    return HeaderInfo(typedefs, noreturn, const, arithmetic, calls)


def header_info(text: str, options: Options) -> HeaderInfo | None:
    """Header facts of ``text`` (markers already removed); None if it does not parse."""
    key = hashlib.sha256((FORMAT + "\0" + text).encode()).hexdigest()
    return _cached(key, options, lambda: _parse_headers(text, frozenset()))


def _cached(key: str, options: Options,
            compute: Callable[[], HeaderInfo | None]) -> HeaderInfo | None:
    """The memoised, then disk-cached, then computed header facts under ``key``."""
    if key in _MEMO:
        return _MEMO[key]
    path = os.path.join(cache_dir(options), "headers", key + ".json")
    found, info = _load(path)
    if not found:
        info = compute()
        _store(path, info)
    _MEMO[key] = info
    return info


def _parse_headers(text: str, seeds: frozenset[str],
                   arithmetic: frozenset[str] = frozenset()) -> HeaderInfo | None:
    """Facts of one block of header text; ``seeds``: the typedef names declared before
    it, ``arithmetic``: those of them that are scalars."""
    COUNTERS["header_parse"] += 1
    try:
        ast = make_parser().parse(gnumask.mask(text), "<headers>",
                                  initial_type_symbols=BUILTIN_TYPES | seeds)
    except Exception:  # pycparser raises ParseError and, on odd input, others
        return None
    typedefs = {n.name for n in ast.ext if isinstance(n, c_ast.Typedef) and n.name}
    return HeaderInfo(frozenset(typedefs), frozenset(noreturn_names(ast.ext)),
                      const_pointer_params(ast.ext),
                      scalar_typedefs(ast.ext, arithmetic) - arithmetic,
                      frozenset(CALLED.findall(text)))


def noreturn_names(nodes: list[c_ast.Node]) -> set[str]:
    """Names of the functions declared or defined noreturn among file-scope ``nodes``."""
    names = set()
    for node in nodes:
        decl = node.decl if isinstance(node, c_ast.FuncDef) else node
        if isinstance(decl, c_ast.Decl) and decl.name and is_noreturn(decl):
            names.add(decl.name)
    return names


def is_noreturn(decl: c_ast.Decl) -> bool:
    """Whether a declaration carries ``_Noreturn`` or a GNU ``noreturn`` attribute
    (pycparserext keeps attributes in ``funcspec`` and in ``FuncDeclExt.attributes``).
    The one test for both the header facts and the call graph."""
    if "_Noreturn" in [s for s in decl.funcspec or [] if isinstance(s, str)]:
        return True
    attrs: list[c_ast.Node] = [s for s in decl.funcspec or [] if not isinstance(s, str)]
    attrs.append(getattr(decl.type, "attributes", None))
    return any(_names_in(a) & NORETURN_ATTRS for a in attrs if a is not None)


def _names_in(node: c_ast.Node) -> set[str]:
    """Identifiers appearing in an attribute list (``noreturn``, ``format(...)``...)."""
    found = {node.name} if isinstance(node, c_ast.ID) else set()
    for _, child in node.children():
        found |= _names_in(child)
    exprlist = getattr(node, "exprlist", None)  # pycparserext AttributeSpecifier
    if isinstance(exprlist, c_ast.Node):
        found |= _names_in(exprlist)
    return found


def _load(path: str) -> tuple[bool, HeaderInfo | None]:
    """(found, info) from the disk cache; a missing or corrupt entry is not found."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") != FORMAT:
            return False, None
        if not data["ok"]:
            return True, None
        const = {name: frozenset(ix) for name, ix in data["const_params"].items()}
        return True, HeaderInfo(frozenset(data["typedefs"]), frozenset(data["noreturn"]),
                                const, frozenset(data["scalars"]), frozenset(data["calls"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False, None


def _store(path: str, info: HeaderInfo | None) -> None:
    data = {"format": FORMAT, "ok": info is not None,
            "typedefs": sorted(info.typedefs) if info else [],
            "noreturn": sorted(info.noreturn) if info else [],
            "const_params": {n: sorted(ix) for n, ix in sorted(info.const_params.items())}
            if info else {},
            "scalars": sorted(info.scalars) if info else [],
            "calls": sorted(info.calls) if info else []}
    write_atomic(path, json.dumps(data))


def write_atomic(path: str, content: str) -> None:
    """Write ``content`` to ``path`` via a temporary file and ``os.replace``; a cache
    that cannot be written is silently skipped (it is only a cache)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fileutil.write_atomically(path, content.encode(), 0o600)
    except OSError:
        pass
