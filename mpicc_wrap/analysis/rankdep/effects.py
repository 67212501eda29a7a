"""What a function may write in memory its callers see, and what of it it may leave
per-process: the ``writes`` and ``rank_writes`` of its cross-TU summary, as tokens a
caller in another TU applies (``expressions.Expressions._summary_targets``).

PARCOACH (paper 004 §3.1) summarises a function by its collectives; Zhang &
Duesterwald's multi-valued analysis (paper 003 §3) is intraprocedural over one TU.
Across TUs a caller needs more than "the result depends on the rank": which of the
memory it can reach the callee may leave different on different processes.  Before
this, a callee whose result depended on the rank was assumed to write a per-process
value through every pointer argument (Scotch's ``dorderDispose(cblkptr)``, a void
function that unlinks a list node on the ranks that do not own it, made everything
``cblkptr`` may reach per-process in the caller, 15 warnings), and a callee whose
result did not was assumed to write nothing per-process (``get_rank(&r)`` with
``MPI_Comm_rank`` inside: ``if (r == 0) MPI_Barrier`` in another TU was silent).

A summary lists the abstract locations the function, or a function of its TU it
calls (transitively), writes (``writes``), and those it writes with a multi-valued
value or under a multi-valued condition of its own body (``rank_writes``), as tokens a
caller's TU can name:

* ``p{i}:{k}``: what parameter ``i`` points to, ``k`` dereferences deep (``*p``: 1);
* ``f:{T}.{name}:{k}``: the field ``name`` of the struct type whose key is ``T``
  (``layouts.py``: the tag, or an untagged struct's typedef name, the same in every
  TU of a project), or what it points to (``k`` > 0); ``f:{name}:{k}`` when the type
  is not known, which a caller applies to that field of every type;
* ``g:{name}:{k}``: the global ``name``, or what it points to;
* ``r``: memory the function returns a pointer to (a static buffer or an allocation
  it filled; not the elements of an automatic local array, which die with the call:
  hypre's ``hypre_ParVectorCreate`` fills ``HYPRE_BigInt partitioning[2]`` with its
  rank's rows, and as ``r`` every caller took the vector it returns, and every
  field written through it, as per-process).  Not what a local pointer to another
  struct type points to, when the result's struct neither is nor holds that type by
  value: under the aliasing rule (``layouts.py``) such a store cannot change the
  returned object, and it is the fields of its own type (``Layouts.fields_apart``:
  p4est's ``p4est_new_ext`` fills its quadrants through a ``p4est_quadrant_t *``; as
  ``r``, its callers took the forest it returns as per-process);
* ``*``: anything (a write through an unknown pointer, or a solve that gave up).

Writes made per-process only because an in-TU caller calls the function under a
rank-dependent condition (the function's entry gate) are left out: they belong to
that caller's context, not to a caller in another TU.  Values derived from a
parameter that some in-TU call site passes per-process are kept (conservative).
Locals of automatic storage die with the call and are left out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Iterable, Mapping

from mpicc_wrap.analysis.rankdep.layouts import Layouts
from mpicc_wrap.analysis.rankdep.locations import (
    ANY,
    MAX_DEREF,
    MEMO_LOCATIONS,
    Deref,
    Field,
    FunctionFacts,
    Global,
    Loc,
    Local,
    deref,
)

__all__ = ["EVERYTHING_TOKEN", "RETURNED_TOKEN", "closure", "field", "located", "parse",
           "portable", "split"]

EVERYTHING_TOKEN = "*"
RETURNED_TOKEN = "r"


def closure(name: str, funcs: Mapping[str, FunctionFacts],
            skip: Callable[[str], Container[str]] = lambda _: ()) -> set[str]:
    """``name`` and every function of the TU it may call, directly or not, but through
    the calls of a function ``g`` to the functions ``skip(g)`` names."""
    seen = {name}
    todo = [name]
    while todo:
        f = todo.pop()
        skipped = skip(f)
        for g in funcs[f].calls:
            if g in funcs and g not in seen and g not in skipped:
                seen.add(g)
                todo.append(g)
    return seen


def portable(f: FunctionFacts, written: Iterable[Loc], returns_pointer: bool,
             layouts: Layouts) -> list[str]:
    """The tokens (module docstring) for locations ``written`` per-process by ``f`` or
    its callees, relative to ``f``'s parameters; sorted, without duplicates.  Memory
    a local points to that cannot be the returned object (another struct type:
    ``layouts.fields_apart``) is its fields, not ``r``."""
    out: set[str] = set()
    for loc in written:
        tokens = _tokens(f, loc, returns_pointer, layouts)
        if EVERYTHING_TOKEN in tokens:
            return [EVERYTHING_TOKEN]
        out.update(tokens)
    return sorted(out)


def _field_token(owner: str, name: str, depth: int) -> str:
    """``f:T.name:k``, or ``f:name:k`` for a field of an unknown owner."""
    return f"f:{owner}.{name}:{depth}" if owner else f"f:{name}:{depth}"


def _tokens(f: FunctionFacts, loc: Loc, returns_pointer: bool, layouts: Layouts
            ) -> list[str]:
    if loc is ANY:
        return [EVERYTHING_TOKEN]
    depth = loc.depth if isinstance(loc, Deref) else 0
    root = loc.base if isinstance(loc, Deref) else loc
    if isinstance(root, (Field, Global)):
        return [_memory_token(loc)]
    if isinstance(root, Local) and root.fn == f.name:
        if depth and root.name in f.params:
            return [f"p{f.params.index(root.name)}:{depth}"]
        # a buffer the function filled (a static, or memory a local points to) that
        # the caller can reach only through the returned pointer
        if not returns_pointer or not (depth > 0 or root.name in f.statics):
            return []
        if root.name not in f.statics and depth <= layouts.array_depth(
                f.types.get(root.name)):
            return []  # the elements of an automatic array die with the call
        apart = layouts.fields_apart(f.types.get(root.name), depth, f.result)
        return [RETURNED_TOKEN] if apart is None else [
            _field_token(owner, name, 0) for owner, name in apart]
    return []  # parameters as passed, results, call gates: no memory


@functools.lru_cache(maxsize=MEMO_LOCATIONS)
def _memory_token(loc: Loc) -> str:
    """The token of a field's or a global's memory, whatever function wrote it: a
    TU's summaries ask for it once per function and callee (H5T.c: 1.9 million
    locations for 72 summaries)."""
    depth = loc.depth if isinstance(loc, Deref) else 0
    root = loc.base if isinstance(loc, Deref) else loc
    if isinstance(root, Field):
        return _field_token(root.owner, root.name, depth)
    assert isinstance(root, Global)
    return f"g:{root.name}:{depth}"


@functools.cache
def parse(token: str) -> tuple[str, str, int] | None:
    """``(kind, name, depth)`` of a ``p``/``f``/``g`` token (``p``: name is the
    parameter index); None for ``*``, ``r`` and anything unreadable."""
    kind, _, rest = token.partition(":")
    name, _, k = rest.rpartition(":")
    if not k.isdigit():
        return None
    depth = min(int(k), MAX_DEREF)
    if kind.startswith("p") and kind[1:].isdigit() and not name:
        return "p", kind[1:], max(depth, 1)
    if kind in ("f", "g") and name:
        return kind, name, depth
    return None


def field(what: str) -> Field:
    """The location of the name of an ``f`` token (``T.name``, or ``name``)."""
    owner, _, name = what.rpartition(".")
    return Field(name, owner)


@functools.cache
def located(token: str) -> Loc | None:
    """The memory an ``f`` or ``g`` token names, its dereferences applied; None for
    any other token.  Asked at every walk of every call of another file's function,
    for each token of its summary (t_dset.c: 800,000 times), so kept."""
    parsed = parse(token)
    if parsed is None or parsed[0] == "p":
        return None
    kind, what, depth = parsed
    root: Loc = field(what) if kind == "f" else Global(what)
    for _ in range(depth):
        root = deref(root)
    return root


@functools.lru_cache(maxsize=1 << 12)
def split(tokens: tuple[str, ...]) -> tuple[tuple[Loc, ...], tuple[tuple[int, int], ...]]:
    """The memory the ``f`` and ``g`` tokens of ``tokens`` name (``located``), and the
    ``(parameter, depth)`` of its ``p`` tokens, in order; other tokens dropped.  A
    call of another file's function applies the same token lists of its summary at
    every walk: split once per list."""
    memory: list[Loc] = []
    params: list[tuple[int, int]] = []
    for token in tokens:
        if (loc := located(token)) is not None:
            memory.append(loc)
        elif (parsed := parse(token)) is not None and parsed[0] == "p":
            params.append((int(parsed[1]), parsed[2]))
    return tuple(memory), tuple(params)
