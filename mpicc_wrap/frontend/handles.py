"""Facts about the MPI installation behind the underlying compiler: the include
directories of its wrapper (their headers count as system headers), and the
preprocessed spelling of predefined handles, to print ``MPI_COMM_WORLD`` where the
preprocessed text says ``((MPI_Comm)0x44000000)`` (MPICH) or
``((MPI_Comm)((void *) &(ompi_mpi_comm_world)))`` (Open MPI).

The handle map is built once per installation by preprocessing a probe with the
underlying compiler, and cached in ``cache_dir/handles/`` keyed by the compiler
command and its ``-show`` output.  Keys are the expansion as pycparser's
``CGenerator`` prints it, with all whitespace removed: the analysis and the
instrumentation produce their C text the same way, so ``display`` matches them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import tempfile
from functools import lru_cache

from pycparser import c_ast, c_generator

from mpicc_wrap.frontend import headercache
from mpicc_wrap.switches import Options, cache_dir

FORMAT = "mpicc-wrap-handles-2"  # 1 cached empty maps of failed Open MPI probes
_PREFIX = "MPIW_PROBE_"

# Probed names, most common spelling first: when two names expand identically (e.g.
# MPI_LONG_LONG and MPI_LONG_LONG_INT) the first one is displayed.
PROBE_NAMES: tuple[str, ...] = (
    "MPI_COMM_WORLD", "MPI_COMM_SELF", "MPI_COMM_NULL",
    "MPI_SUM", "MPI_PROD", "MPI_MAX", "MPI_MIN", "MPI_LAND", "MPI_LOR", "MPI_LXOR",
    "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE",
    "MPI_NO_OP", "MPI_OP_NULL",
    "MPI_INT", "MPI_DOUBLE", "MPI_FLOAT", "MPI_CHAR", "MPI_BYTE", "MPI_LONG",
    "MPI_UNSIGNED", "MPI_LONG_LONG", "MPI_LONG_LONG_INT", "MPI_UNSIGNED_LONG",
    "MPI_UNSIGNED_LONG_LONG", "MPI_SHORT", "MPI_UNSIGNED_SHORT", "MPI_SIGNED_CHAR",
    "MPI_UNSIGNED_CHAR", "MPI_LONG_DOUBLE", "MPI_WCHAR", "MPI_PACKED", "MPI_C_BOOL",
    "MPI_INT8_T", "MPI_INT16_T", "MPI_INT32_T", "MPI_INT64_T", "MPI_UINT8_T",
    "MPI_UINT16_T", "MPI_UINT32_T", "MPI_UINT64_T", "MPI_AINT", "MPI_OFFSET", "MPI_COUNT",
    "MPI_C_COMPLEX", "MPI_C_FLOAT_COMPLEX", "MPI_C_DOUBLE_COMPLEX",
    "MPI_C_LONG_DOUBLE_COMPLEX", "MPI_FLOAT_INT", "MPI_DOUBLE_INT", "MPI_LONG_INT",
    "MPI_2INT", "MPI_SHORT_INT", "MPI_LONG_DOUBLE_INT", "MPI_DATATYPE_NULL",
    "MPI_IN_PLACE", "MPI_BOTTOM", "MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE",
    "MPI_ERRCODES_IGNORE", "MPI_INFO_NULL", "MPI_REQUEST_NULL", "MPI_GROUP_NULL",
    "MPI_GROUP_EMPTY", "MPI_WIN_NULL", "MPI_FILE_NULL", "MPI_ERRHANDLER_NULL",
    "MPI_ERRORS_ARE_FATAL", "MPI_ERRORS_RETURN", "MPI_ERRORS_ABORT", "MPI_MESSAGE_NULL",
    "MPI_MESSAGE_NO_PROC", "MPI_ARGV_NULL", "MPI_ARGVS_NULL",
)

_INTEGER = re.compile(r"^[()\s]*[-+]?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*[()\s]*$")
_WS = re.compile(r"\s+")
_NULL_CAST = re.compile(r"^\(*\((?:void|int|char)\*+\)\(*0[lLuU]*\)*$")
_CAST = re.compile(r"\(\s*(?:const\s+|struct\s+)?(\w+)\s*[*\s]*\)\s*(?=[\w(&+\-!~*])")
_C_TYPE_WORDS = frozenset({"void", "int", "char", "long", "short", "unsigned", "signed",
                           "float", "double", "const", "struct"})


def _run(cmd: list[str]) -> str:
    """stdout of ``cmd`` or "" when it cannot run or fails (never raises)."""
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, ValueError):
        return ""
    return res.stdout if res.returncode == 0 else ""


@lru_cache(maxsize=8)
def show(compiler: tuple[str, ...]) -> str:
    """The MPI wrapper's own command line (MPICH ``-show``, Open MPI ``--showme``)."""
    for flag in ("-show", "--showme"):
        out = _run([*compiler, flag]).strip()
        if out:
            return out
    return ""


@lru_cache(maxsize=8)
def include_dirs(compiler: tuple[str, ...]) -> tuple[str, ...]:
    """Real paths of the include directories the MPI wrapper adds (mpi.h lives there)."""
    try:
        words = shlex.split(show(compiler))
    except ValueError:
        return ()
    dirs = []
    for i, w in enumerate(words):
        for flag in ("-I", "-isystem"):
            if w == flag and i + 1 < len(words):
                dirs.append(words[i + 1])
            elif w.startswith(flag) and len(w) > len(flag):
                dirs.append(w[len(flag):])
    return tuple(os.path.realpath(d) for d in dirs)


def strip_ws(text: str) -> str:
    """The lookup key of a C expression text: all whitespace removed."""
    return _WS.sub("", text)


def _strip_parens(key: str) -> str:
    """Remove redundant parentheses wrapping the whole key: '((x))' -> 'x'."""
    while key.startswith("(") and key.endswith(")") and balanced(key[1:-1]):
        key = key[1:-1]
    return key


def balanced(text: str) -> bool:
    """True when the parentheses of ``text`` nest and close."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def handle_names(compiler: list[str], options: Options) -> dict[str, str]:
    """{key of an expansion: handle name} for this MPI installation (cached)."""
    return dict(_handle_names(tuple(compiler), options.cache))


@lru_cache(maxsize=8)
def _handle_names(compiler: tuple[str, ...], cache: str) -> tuple[tuple[str, str], ...]:
    key = hashlib.sha256(json.dumps([FORMAT, compiler, show(compiler)]).encode()).hexdigest()
    path = os.path.join(cache_dir(Options(cache=cache)), "handles", key + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") == FORMAT:
            return tuple((str(k), str(v)) for k, v in data["names"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    names = probe(list(compiler), Options(cache=cache))
    if names:  # a failed probe is tried again next time, not cached
        headercache.write_atomic(path, json.dumps({"format": FORMAT, "names": names}))
    return tuple((k, v) for k, v in names)


def probe(compiler: list[str], options: Options) -> list[list[str]]:
    """Preprocess a probe naming every handle; [[key, name], ...] (empty on failure)."""
    lines = [f"{_PREFIX}{n} {n}" for n in PROBE_NAMES]
    # A file, not stdin: Open MPI's wrapper adds its -I flags only for named sources.
    with tempfile.TemporaryDirectory(prefix="mpicc-wrap-probe-") as tmp:
        path = os.path.join(tmp, "probe.c")
        with open(path, "w", encoding="utf-8") as f:
            f.write("#include <mpi.h>\n" + "\n".join(lines) + "\n")
        out = _run([*compiler, "-E", path])
    if not out:
        return []
    names: dict[str, str] = {}
    for name, text in _expansions(out):
        if text == name or _INTEGER.match(text) or _NULL_CAST.match(strip_ws(text)):
            continue  # undefined here, or a bare number or NULL pointer: not a handle
        for k in {_strip_parens(strip_ws(text)), _generated_key(text, _cast_types(text))}:
            if k:
                names.setdefault(k, name)
    return [[k, v] for k, v in names.items()]


def _expansions(out: str) -> list[tuple[str, str]]:
    """[(name, expansion)] from the probe's preprocessed output."""
    expansions = []
    for line in out.splitlines():
        if line.startswith(_PREFIX):
            name, _, text = line[len(_PREFIX):].partition(" ")
            expansions.append((name, text.strip()))
    return expansions


def _cast_types(text: str) -> frozenset[str]:
    """Type names used in casts in an expansion, e.g. MPI_Comm in '((MPI_Comm)0x44)'.

    Cheaper than parsing mpi.h for its typedefs: handles only ever cast to a type."""
    return frozenset(m for m in _CAST.findall(text) if m not in _C_TYPE_WORDS)


def _generated_key(text: str, typedefs: frozenset[str]) -> str:
    """The key of ``text`` as CGenerator prints its AST ("" if it does not parse)."""
    try:
        ast = headercache.make_parser().parse(
            f"void mpiw_probe(void) {{ ({text}); }}", "<probe>",
            initial_type_symbols=typedefs | headercache.BUILTIN_TYPES)
        stmt = ast.ext[0].body.block_items[0]
    except Exception:  # any parser failure: only this key is lost
        return ""
    return strip_ws(c_generator.CGenerator().visit(stmt)) if isinstance(stmt, c_ast.Node) else ""


def display(expr_text: str, names: dict[str, str]) -> str:
    """``expr_text`` with whitespace normalised and known handle expansions named
    (memoised per map: a TU's counter-examples show the same conditions many times)."""
    memo = _memo(names)
    shown = memo.get(expr_text)
    if shown is None:
        shown = memo[expr_text] = _display(expr_text, names)
    return shown


def _display(expr_text: str, names: dict[str, str]) -> str:
    text = " ".join(expr_text.split())
    key = strip_ws(text)
    for k in (key, _strip_parens(key)):
        if k in names:
            return names[k]
    for k in _longest_first(names):
        # ``k in key`` is necessary for a match: whitespace between the tokens of the
        # matched span is all the pattern allows, and ``key`` has none.  It spares the
        # regex (and its compilation) for the ~80 expansions a text does not contain.
        if len(k) < len(key) and k in key:
            text = _expansion(k).sub(names[k], text)
    return text


# Per handle map (by identity, the map kept alive beside): its keys longest first and
# the texts displayed so far.  A map is built once per TU and not changed afterwards;
# one of another size is a new map.
_PER_MAP: dict[int, tuple[dict[str, str], list[str], dict[str, str]]] = {}


def _entry(names: dict[str, str]) -> tuple[dict[str, str], list[str], dict[str, str]]:
    hit = _PER_MAP.get(id(names))
    if hit is None or hit[0] is not names or len(hit[1]) != len(names):
        if len(_PER_MAP) > 64:  # one map per TU: a long-lived process sees many
            _PER_MAP.clear()
        hit = _PER_MAP[id(names)] = (names, sorted(names, key=len, reverse=True), {})
    return hit


def _longest_first(names: dict[str, str]) -> list[str]:
    """The keys of ``names``, longest first (sorted once per map)."""
    return _entry(names)[1]


def _memo(names: dict[str, str]) -> dict[str, str]:
    return _entry(names)[2]


@lru_cache(maxsize=256)
def _expansion(k: str) -> re.Pattern[str]:
    """A handle's expansion ``k`` as a pattern (any spacing between its tokens)."""
    return re.compile(r"(?<!\w)" + r"\s*".join(map(re.escape, k)) + r"(?!\w)")


# ``&`` applied to a whole postfix lvalue (``c``, ``s->c``, ``comms[i]``, ``a.b[j].c``):
# dropping the ``&`` gives exactly the object it points to.
_ADDRESS_OF_LVALUE = re.compile(
    r"&\s*([A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*|\s*\[[^\[\]]*\])*)")


def pointee(pointer_text: str) -> str:
    """C expression of the object ``pointer_text`` (a pointer expression) points to.

    Used for a handle passed by pointer (``MPI_Comm_free(comm)``): ``&c`` gives ``c``
    and ``&comms[i]`` gives ``comms[i]`` (the address-of of a plain lvalue, so the
    result names the object the program itself passes); any other expression gives
    ``(*(EXPR))``, correct whatever it is (``comm``, ``p->pcomm``, ``&a[0] + i``,
    a cast, a call).  Never a guess from the text: when unsure, dereference."""
    text = " ".join(pointer_text.split())
    m = _ADDRESS_OF_LVALUE.fullmatch(text)
    return m.group(1) if m else f"(*({text}))"
