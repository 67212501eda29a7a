"""Abstract locations of the rank-dependence analysis, and the facts kept about them.

A location is a typed, hashable value (``Local(fn, name)``, ``Global(name)``,
``Field(name)``, ``Ret(fn)``, ``Param(fn, index)``, ``Ctl(fn)``, ``Deref(base, depth)``,
``ANY``); two locations are equal only if they are the same kind of thing, so a local
of a function named ``g`` never meets a global.  ``str(loc)`` spells the location as
the analysis once keyed it (``l:f:x``, ``g:x``, ...): it fixes a deterministic order
(the first reason found in that order is the one reported) and reads well in a debugger.

``Store`` holds what the solver knows: the reason each location may differ between
processes, the points-to sets, and which locations the unit being walked read and grew.
"""

from __future__ import annotations

import functools
from collections.abc import Container
from dataclasses import dataclass, field

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue, graphs
from mpicc_wrap.analysis.rankdep import datatypes, layouts
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend.positions import coord_pos
from mpicc_wrap.frontend.prototypes import is_function_type, param_names
from mpicc_wrap.frontend.scalars import is_arithmetic
from mpicc_wrap.model import Pos

__all__ = [
    "ANY", "ANY_OWNER", "EVERYTHING", "GAVE_UP", "MAX_DEREF", "MAX_POINTEES", "MEMO_LOCATIONS",
    "NEW", "Ctl",
    "Deref",
    "Field", "FunctionFacts", "Global", "Loc", "Local", "Param", "PtsOf", "Ret", "Store", "deref",
    "depth", "field_marks", "field_views", "function_facts", "jumps_back",
]

# k-limiting of access paths: ``*k`` is what k points to, ``**k`` everything reached
# from k by two or more dereferences (a summary location: dereferencing it gives itself).
MAX_DEREF = 2
# Widening of points-to sets: a set of more than MAX_POINTEES locations becomes {ANY},
# the location that stands for all memory (reading it is multi-valued as soon as any
# location is; writing a per-process value into it makes all memory per-process).
MAX_POINTEES = 96
GAVE_UP = ("may differ between processes (the rank-dependence analysis reached its "
           "iteration limit in this file and treats memory conservatively)")


class _Key:
    """A location is a dict and set key hundreds of thousands of times per walk (each
    read is recorded): it keeps the hash of its fields, computed once, at creation,
    the value a dataclass's own ``__hash__`` gives."""

    __slots__ = ()
    __match_args__: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(tuple(map(self.__getattribute__,
                                                         self.__match_args__))))

    def _cached(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]


@dataclass(frozen=True, slots=True)
class Local(_Key):
    """A local variable or parameter ``name`` of function ``fn``."""

    fn: str
    name: str

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"l:{self.fn}:{self.name}"


@dataclass(frozen=True, slots=True)
class Global(_Key):
    """A file-scope variable."""

    name: str

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"g:{self.name}"


@dataclass(frozen=True, slots=True)
class Field(_Key):
    """The struct/union fields called ``name`` of every object of the struct type
    ``owner`` (``layouts.py``), in every function; ``owner == ""``: of a type not
    known, ``ANY_OWNER``: of any type (what a read of an unknown owner consults:
    ``field_views``; only ``Store`` makes these)."""

    name: str
    owner: str = ""

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"field:{self.owner}.{self.name}" if self.owner else f"field:{self.name}"


@dataclass(frozen=True, slots=True)
class Ret(_Key):
    """The return value of function ``fn``."""

    fn: str

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"r:{self.fn}"


@dataclass(frozen=True, slots=True)
class Param(_Key):
    """Parameter ``index`` of ``fn`` at entry, as some in-TU call site passes it."""

    fn: str
    index: int

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"in:{self.fn}:{self.index}"


@dataclass(frozen=True, slots=True)
class Ctl(_Key):
    """The gate ``fn`` is called under (multi-valued: some ranks call it)."""

    fn: str

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"ctl:{self.fn}"


@dataclass(frozen=True, slots=True)
class Deref(_Key):
    """What ``base`` points to through ``depth`` dereferences (``depth == MAX_DEREF``:
    everything reached through that many or more)."""

    base: Local | Global | Field | Ret | Param | Ctl
    depth: int

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return "*" * self.depth + str(self.base)


@dataclass(frozen=True, slots=True)
class _Anywhere:
    def __str__(self) -> str:
        return "<any>"


ANY = _Anywhere()  # all memory
Loc = Local | Global | Field | Ret | Param | Ctl | Deref | _Anywhere


@dataclass(frozen=True, slots=True)
class PtsOf(_Key):
    """The points-to set stored at ``loc`` (as a fact read or grown by a walk)."""

    loc: Loc

    _hash: int = field(init=False, repr=False, compare=False)
    __hash__ = _Key._cached

    def __str__(self) -> str:
        return f"&{self.loc}"


EVERYTHING = "<everything>"  # in a walk's changes: every unit must be walked again
Fact = Loc | PtsOf | str


def deref(loc: Loc) -> Loc:
    """The abstract location that the pointer stored at ``loc`` points to, k-limited
    to ``MAX_DEREF`` dereferences so that the set of locations is finite."""
    if isinstance(loc, Deref):
        return loc if loc.depth >= MAX_DEREF else Deref(loc.base, loc.depth + 1)
    if isinstance(loc, _Anywhere):
        return ANY
    return Deref(loc, 1)


ANY_OWNER = "*"


def _fielded(loc: Loc) -> Field | None:
    b = loc.base if isinstance(loc, Deref) else loc
    return b if isinstance(b, Field) and b.owner != ANY_OWNER else None


def _rebase(loc: Loc, field: Field) -> Loc:
    return Deref(field, loc.depth) if isinstance(loc, Deref) else field


# Memos of pure functions of a location, asked for at every read and write of a walk
# (H5SL.c: 640,000 reads), bounded for a process that analyses many TUs (the tests).
MEMO_LOCATIONS = 1 << 17


@functools.lru_cache(maxsize=MEMO_LOCATIONS)
def field_views(loc: Loc) -> tuple[Loc, ...]:
    """The locations a read of ``loc`` consults: a field of a known struct type is
    also written by writes whose owner was not known; a field of an unknown owner
    may be any type's (``layouts.py``: an unknown owner is never less sound than
    fields by name); a union's members are also written by unknown-owner writes of
    each member's name."""
    f = _fielded(loc)
    if f is None:
        return (loc,)
    if not f.owner:
        return (_rebase(loc, Field(f.name, ANY_OWNER)),)
    members = layouts.union_members(f.name)
    views = (loc, *(_rebase(loc, Field(n)) for n in members or [f.name]))
    if members and (loc == f or isinstance(loc, Deref) and loc.depth == 1):
        # the elements of an array member (one dereference: ``u.b[1]``) are the
        # union's bytes too: ``u.b[0] = rank; if (u.w)``
        return (*views, Deref(f, 1) if loc == f else f)
    return views


@functools.lru_cache(maxsize=MEMO_LOCATIONS)
def field_marks(loc: Loc) -> tuple[Loc, ...]:
    """The locations a write to ``loc`` marks: itself, and the any-owner location of
    its name (of each member's name, for a union) that reads of an unknown owner
    consult."""
    f = _fielded(loc)
    if f is None:
        return (loc,)
    names = [f.name, *layouts.union_members(f.name)]
    return (loc, *(_rebase(loc, Field(n, ANY_OWNER)) for n in names))


def depth(loc: Loc) -> int:
    """Number of dereferences in ``loc``."""
    return loc.depth if isinstance(loc, Deref) else 0


def base(loc: Loc) -> Loc:
    return loc.base if isinstance(loc, Deref) else loc


_NOT_MEMORY = (Param, Ret, Ctl)


def _overlap(bits: dict[int, str] | None, mask: int | None) -> str | None:
    """The reason of a per-process bit mask of ``bits`` that ``mask`` reads (None:
    every bit)."""
    if not bits:
        return None
    return next((r for m, r in bits.items() if mask is None or m & mask), None)


_ANY: dict[bool, tuple[Fact, ...]] = {True: (ANY,), False: ()}  # ``Store._any_unset``


class Store:
    """Facts about locations.  They only grow: a reason once set stays; a points-to
    set only gains locations and is widened to ``{ANY}`` past ``MAX_POINTEES``."""

    def __init__(self) -> None:
        self.multi: dict[Loc, str] = {}  # location -> reason it may differ
        # integer location -> {mask: reason}: only the bits of those masks may differ
        # (``mark_bits``); a location in ``multi`` needs none
        self.bits: dict[Loc, dict[int, str]] = {}
        self.pts: dict[Loc, set[Loc]] = {}  # location -> pointees
        # facts about functions that are no values (``Ctl`` keys: a function calls or
        # writes through a parameter, ``callbacks.py``), apart so that ``ANY`` does
        # not read them
        self.flags: dict[Loc, str] = {}
        # locations of ``multi`` only ever written with values whose truth is the
        # same on every process (``consensus.py``): a test of one is single-valued
        self.truthy: dict[Loc, str] = {}
        self.fallback: str | None = None  # set when ANY got a per-process value
        self.gave_up = False  # the solver hit its walk cap
        self.reads: set[Fact] = set()  # facts read by the unit being walked
        self.changed: set[Fact] = set()  # facts that grew during that walk
        # some fact grew after that walk had read it: the walk saw an older value
        # and must run again (otherwise its own growth wakes it for nothing: every
        # read after the growth saw the new value)
        self.stale = False
        self.readonly = False  # answering a query: record nothing

    def copy(self) -> Store:
        """Its facts, in a store of their own (a solve grows points-to sets in
        place)."""
        out = Store()
        out.multi = dict(self.multi)
        out.bits = {k: dict(v) for k, v in self.bits.items()}
        out.pts = {k: set(v) for k, v in self.pts.items()}
        out.flags = dict(self.flags)
        out.truthy = dict(self.truthy)
        out.fallback, out.gave_up = self.fallback, self.gave_up
        return out

    def get(self, loc: Loc, mask: int | None = None) -> str | None:
        """Reason ``loc`` is multi-valued (recorded as read by the current unit);
        ``ANY`` is multi-valued as soon as some location is.  A per-process value
        written through an unknown pointer (``fallback``) reaches all memory, but not
        the locations that are no memory: a function's parameters as passed
        (``Param``), its result (``Ret``), its call gate (``Ctl``); those follow the
        fallback only once the solver gave up.  ``mask``: only those bits of the
        integer at ``loc`` are read (``x & MASK``), so per-process bits elsewhere
        (``bits``) do not count."""
        if loc is ANY:
            self.reads.add(loc)
            return self.fallback or next(iter(self.multi.values()), None) or next(
                (r for b in self.bits.values() for r in b.values()), None)
        if isinstance(loc, _NOT_MEMORY) and not self.gave_up:
            self.reads.add(loc)
            return self.multi.get(loc)
        for view in field_views(loc):
            self.reads.add(view)
            if found := self.multi.get(view):
                return found
            if self.bits and (found := _overlap(self.bits.get(view), mask)):
                return found
        return self.fallback

    def get_truth(self, loc: Loc) -> str | None:
        """``get`` for a test of the value at ``loc``: None also when every value
        written there has the same truth on every process (``truthy``)."""
        if loc is ANY or not self.truthy:
            return self.get(loc)
        if isinstance(loc, _NOT_MEMORY) and not self.gave_up:
            self.reads.add(loc)
            return None if loc in self.truthy else self.multi.get(loc)
        for view in field_views(loc):
            self.reads.add(view)
            if (found := self.multi.get(view)) and view not in self.truthy:
                return found
            if self.bits and (found := _overlap(self.bits.get(view), None)):
                return found
        return self.fallback

    def get_register(self, loc: Loc) -> str | None:
        """``get`` for a tracked local (``FunctionFacts.tracked``: its address is never
        kept, so no pointer reaches it and the fallback does not apply)."""
        self.reads.add(loc)
        return self.multi.get(loc) or (self.fallback if self.gave_up else None)

    def pts_of(self, loc: Loc) -> set[Loc]:
        """Pointees stored at ``loc`` (recorded as read by the current unit)."""
        views = field_views(loc)
        if len(views) == 1 and views[0] is loc:
            self.reads.add(PtsOf(loc))
            return self.pts.get(loc, set())
        out: set[Loc] = set()
        for view in views:
            self.reads.add(PtsOf(view))
            out |= self.pts.get(view, set())
        return out

    def mark(self, loc: Loc, reason: str, mask: int | None = None,
             truthy: bool = False) -> None:
        """``loc`` may differ between processes for ``reason``; with ``mask``, only
        those bits of the integer there (``mark_bits``); ``truthy``: though the value
        written has the same truth on every process (``consensus.py``)."""
        if mask is not None:
            self.mark_bits(loc, mask, reason)
            return
        if self.readonly:
            return
        if loc is ANY:  # a per-process value written anywhere: all memory differs
            if self.fallback is None:
                self.fallback = reason
                self.grew(EVERYTHING)
        else:
            for each in field_marks(loc):
                if each not in self.multi:
                    first = self._any_unset()
                    self.multi[each] = reason
                    if truthy:
                        self.truthy[each] = reason
                    self.grew(each, *_ANY[first])
                elif not truthy and each in self.truthy:
                    self._untruthy(each)

    def _any_unset(self, bits: bool = False) -> bool:
        """A new per-process location (``bits``: new per-process bits) changes what a
        read of ``ANY`` gives: the first reason of ``multi``, else of ``bits``, which
        stays the first once there.  Only then does ``ANY`` grow: before, every new
        location woke every unit that had read through an unknown pointer, to walk
        it again unchanged."""
        return self.fallback is None and not self.multi and not (
            bits and any(self.bits.values()))

    def _untruthy(self, loc: Loc) -> None:
        """A value whose truth may differ was written at ``loc``: tests of it too (a
        read of ``ANY`` is not a test of a truth: ``get_truth``)."""
        del self.truthy[loc]
        self.grew(loc)

    def flag(self, key: Loc, why: str) -> None:
        """Record the fact ``key`` about a function (``flags``)."""
        if not self.readonly and key not in self.flags:
            self.flags[key] = why
            self.grew(key)

    def flagged(self, key: Loc) -> bool:
        """Whether the fact ``key`` holds (recorded as read by the current unit)."""
        self.reads.add(key)
        return key in self.flags

    def mark_bits(self, loc: Loc, mask: int, reason: str) -> None:
        """Only the bits of ``mask`` of the integer at ``loc`` may differ because of
        this write (``flags |= C`` under a per-process test: ``expressions.py``)."""
        if loc is ANY or self.readonly:
            self.mark(loc, reason)
            return
        for each in field_marks(loc):
            if each in self.truthy:
                self._untruthy(each)
            if each not in self.multi and mask not in self.bits.get(each, {}):
                first = self._any_unset(bits=True)
                self.bits.setdefault(each, {})[mask] = reason
                self.grew(each, *_ANY[first])

    def add_pts(self, loc: Loc, pointees: set[Loc]) -> None:
        for each in field_marks(loc):
            self._add_pts(each, pointees)

    def _add_pts(self, loc: Loc, pointees: set[Loc]) -> None:
        known = self.pts.setdefault(loc, set())
        if ANY in known or pointees <= known or self.readonly:
            return
        known |= pointees
        if len(known) > MAX_POINTEES or ANY in known:
            self.pts[loc] = {ANY}
        self.grew(PtsOf(loc))

    def grew(self, *facts: Fact) -> None:
        """Record that ``facts`` grew in the walk (``changed``), and whether the walk
        had read one of them before (``stale``)."""
        self.changed.update(facts)
        if not self.stale and not self.reads.isdisjoint(facts):
            self.stale = True

    def first(self, locs: set[Loc]) -> str | None:
        """The reason of the first multi-valued location of ``locs`` (in key order).
        Sorted only when one is: most sets have none, and then every location is
        read whatever the order (the reads recorded are the same)."""
        if len(locs) > 1:
            reads, self.reads = self.reads, set()
            try:
                some = any(self.get(k) for k in locs)
            finally:
                seen, self.reads = self.reads, reads
            if not some:
                reads |= seen
                return None
        return next((r for k in sorted(locs, key=str) if (r := self.get(k))), None)


# -- facts about each function, gathered before the fixed point ---------------------------


@dataclass
class FunctionFacts:
    """Scopes of one function definition: which names are locals, which are tracked
    flow-sensitively, which cannot hold a pointer."""

    name: str
    params: list[str]
    body: c_ast.Node
    locals: set[str]
    tracked: set[str]
    scalars: set[str]  # locals that cannot hold a pointer
    returns_scalar: bool
    has_goto: bool
    calls: list[str]  # names of the functions it calls, in order
    # Tracked local arrays (``env_arrays``) -> their constant length (None: unknown)
    arrays: dict[str, int | None] = field(default_factory=dict)
    # Local datatypes built by MPI_Type_contiguous -> elements per item (datatypes.py)
    contiguous: dict[str, int] = field(default_factory=dict)
    statics: set[str] = field(default_factory=set)  # locals of static storage duration
    returns_void: bool = False  # its result is no value (a summary's returns_rank)
    # Declared types of its parameters and locals (``layouts.local_types``)
    types: dict[str, c_ast.Node | None] = field(default_factory=dict)
    result: c_ast.Node | None = None  # its declared result type
    # Where each label is (``position``; None: two of one name), for ``goto``
    labels: dict[str, Position | None] = field(default_factory=dict)
    # Locals that only ever point to memory the call allocated (``owned.py``)
    owned: frozenset[str] = frozenset()
    # Some ``goto`` may jump back (``jumps_back``): the solver walks the body again
    # until the labels' facts settle; with forward jumps only, the walk reaches each
    # label after every jump to it, and a second pass would repeat the first
    goes_back: bool = True


def is_scalar(t: c_ast.Node | None, typedefs: Container[str] = frozenset()) -> bool:
    """True for an arithmetic type (``int``, ``unsigned long``, or a typedef name in
    ``typedefs``: ``frontend/scalars.py``): a variable of it holds no pointer.  Other
    typedef names may hide pointers, so they are not scalars."""
    return is_arithmetic(t, typedefs)


def addressed_names(ast: c_ast.Node) -> set[str]:
    """The names whose address the TU takes anywhere (``&x``, casts aside)."""
    found: set[str] = set()

    class Scan(Visitor):
        def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
            if node.op == "&" and isinstance(place := uncast(node.expr), c_ast.ID):
                found.add(place.name)
            self.generic_visit(node)

    Scan().visit(ast)
    return found


def enumerators(ext: list[c_ast.Node]) -> set[str]:
    """The enumerators declared at file scope: constants, not variables.  Without
    this an enumerator passed to an unknown function was a global that the call
    could write through (pnetcdf's ``ncmpix_put_uint32(&pos, NC_UNSPECIFIED)`` in a
    function rank 0 alone calls made ``NC_UNSPECIFIED`` per-process, and every later
    call given it returned a per-process value)."""
    found: set[str] = set()

    class Enums(Visitor):
        def visit_Enumerator(self, node: c_ast.Enumerator) -> None:
            found.add(node.name)

    scan = Enums()
    for node in ext:
        if not isinstance(node, c_ast.FuncDef):
            scan.visit(node)
    return found


def callee(call: c_ast.FuncCall) -> str | None:
    return call.name.name if isinstance(call.name, c_ast.ID) else None


Position = tuple[str, Pos]  # file, line and column


def position(node: c_ast.Node) -> Position | None:
    """Where ``node`` is in the source (None: not known)."""
    c = node.coord
    return (str(c.file), coord_pos(c)) if c is not None else None


def jumps_back(s: c_ast.Goto, labels: dict[str, Position | None]) -> bool:
    """The label of ``s`` is at or before it in the source, or not found (``labels``:
    ``FunctionFacts.labels``): the jump may run code again, like a loop."""
    at = labels.get(s.name)
    here = position(s)
    return at is None or here is None or at[0] != here[0] or at[1] <= here[1]


class _Scan(Visitor):
    """One pre-order pass over a body (not entering struct/union definitions)."""

    def __init__(self) -> None:
        self.gotos: list[c_ast.Goto] = []
        self.decls: list[c_ast.Decl] = []
        self.calls: list[str] = []
        self.call_args: set[int] = set()  # ids of direct arguments of named calls
        self.address_of: list[c_ast.UnaryOp] = []
        self.labels: dict[str, Position | None] = {}

    def visit_Struct(self, node: c_ast.Node) -> None:
        pass

    visit_Union = visit_Struct

    def visit_Goto(self, node: c_ast.Goto) -> None:
        self.gotos.append(node)

    def visit_Label(self, node: c_ast.Label) -> None:
        self.labels[node.name] = None if node.name in self.labels else position(node)
        self.generic_visit(node)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        self.decls.append(node)
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = callee(node)
        if name is not None:
            self.calls.append(name)
            if node.args is not None:
                self.call_args.update(id(a) for a in node.args.exprs)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op == "&" and isinstance(node.expr, c_ast.ID):
            self.address_of.append(node)
        self.generic_visit(node)


def function_facts(defn: c_ast.FuncDef, defined: frozenset[str] = frozenset(),
                   typedefs: frozenset[str] = frozenset()) -> FunctionFacts:
    """The facts of ``defn``; ``typedefs``: the TU's ``scalar_typedefs``."""
    params = param_names(defn.decl)
    scan = _Scan()
    scan.visit(defn.body)
    local = {p for p in params if p}
    decl_params = getattr(getattr(defn.decl.type, "args", None), "params", None) or []
    scalars = {p.name for p in decl_params
               if isinstance(p, c_ast.Decl) and is_scalar(p.type, typedefs)}
    arrays_or_static: set[str] = set()
    statics: set[str] = set()
    for node in scan.decls:
        if node.name and not is_function_type(node.type):
            local.add(node.name)
            if is_scalar(node.type, typedefs):
                scalars.add(node.name)
            if {"static", "extern"} & set(node.storage or []):
                statics.add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl) or node.name in statics:
                arrays_or_static.add(node.name)
    # Names whose address is taken other than as a direct argument of a named call
    # (assumption: callees do not keep such pointers beyond the call).
    escaping = {n.expr.name for n in scan.address_of if id(n) not in scan.call_args}
    arrays = env_arrays(defn, scan.decls, defined, typedefs)
    return FunctionFacts(
        defn.decl.name, params, defn.body, local,
        (local - arrays_or_static - escaping) | set(arrays), scalars,
        is_scalar(getattr(defn.decl.type, "type", None), typedefs), bool(scan.gotos),
        scan.calls, arrays,
        {t: k for t, k in datatypes.contiguous(defn.body).items() if t in local}
        if datatypes.BUILDERS.intersection(scan.calls) else {}, statics,
        _is_void(getattr(defn.decl.type, "type", None)),
        layouts.local_types(decl_params, scan.decls), getattr(defn.decl.type, "type", None),
        scan.labels, goes_back=any(jumps_back(g, scan.labels) for g in scan.gotos))


def _is_void(t: c_ast.Node | None) -> bool:
    """``void`` itself (not ``void *``)."""
    names = getattr(getattr(t, "type", None), "names", None) if isinstance(
        t, c_ast.TypeDecl) else None
    return names == ["void"]


def env_arrays(defn: c_ast.FuncDef, decls: list[c_ast.Decl], defined: frozenset[str],
               typedefs: frozenset[str] = frozenset()) -> dict[str, int | None]:
    """Local one-dimensional arrays of scalars tracked flow-sensitively as one value
    (the pack-broadcast-unpack pattern: ``msg[0] = format; MPI_Bcast(msg, 2, ...);
    format = msg[0];`` leaves ``format`` single-valued).  Every use of the name must be
    an element access, ``sizeof``, or a direct argument (``msg``, ``&msg``,
    ``&msg[k]``, under casts) of a blocking call of a function the TU does not define
    (its writes are the call's outputs; it keeps no pointer: nonblocking MPI calls
    and the TU's own functions disqualify the array)."""
    out: dict[str, int | None] = {}
    for node in decls:
        t = node.type
        if (node.name and isinstance(t, c_ast.ArrayDecl) and is_scalar(t.type, typedefs)
                and "static" not in (node.storage or [])):
            dim = t.dim.value if isinstance(t.dim, c_ast.Constant) else None
            out[node.name] = int(dim, 0) if dim and dim.isdigit() else None
    if out:
        uses = _ArrayUses(set(out), defined)
        uses.visit(defn.body)
        for name in uses.escaping:
            out.pop(name, None)
    return out


class _ArrayUses(Visitor):
    """Which candidate array names are used other than as ``env_arrays`` allows."""

    def __init__(self, names: set[str], defined: frozenset[str]) -> None:
        self.names = names
        self.defined = defined
        self.escaping: set[str] = set()

    def visit_ID(self, node: c_ast.ID) -> None:
        if node.name in self.names:
            self.escaping.add(node.name)  # a use not allowed below

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        if not (isinstance(node.name, c_ast.ID) and node.name.name in self.names):
            self.visit(node.name)
        self.visit(node.subscript)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op == "sizeof" and isinstance(node.expr, c_ast.ID):
            return
        found = array_arg(node, self.names) if node.op == "&" else None
        if found is not None:
            self.escaping.add(found)  # its address, other than as a call's argument
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = callee(node)
        entry = catalogue.lookup(name) if name else None
        allowed = (name is not None and name not in self.defined
                   and (entry is None or entry.kind not in ("nonblocking", "persistent")))
        for arg in node.args.exprs if node.args is not None else []:
            found = array_arg(arg, self.names)
            if found is None:
                self.visit(arg)
            elif not allowed:
                self.escaping.add(found)
            elif isinstance(uncast(arg), c_ast.UnaryOp):
                inner = uncast(arg).expr
                if isinstance(inner, c_ast.ArrayRef):
                    self.visit(inner.subscript)
        if not isinstance(node.name, c_ast.ID):
            self.visit(node.name)


def uncast(e: c_ast.Node) -> c_ast.Node:
    """``e`` without the casts around it."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e


def array_arg(arg: c_ast.Node, names: Container[str]) -> str | None:
    """The array named by ``a``, ``&a`` or ``&a[k]`` (under casts), if a candidate."""
    e = uncast(arg)
    if isinstance(e, c_ast.UnaryOp) and e.op == "&":
        e = e.expr
        if isinstance(e, c_ast.ArrayRef):
            e = e.name
    return e.name if isinstance(e, c_ast.ID) and e.name in names else None


def callers_first(funcs: dict[str, FunctionFacts]) -> list[str]:
    """Function names with callers before their callees (reverse DFS postorder), so
    that arguments and pointees flow down the call graph in one pass."""
    calls = {name: [c for c in f.calls if c in funcs and c != name]
             for name, f in funcs.items()}
    return graphs.postorder(lambda name: calls[name], funcs)[::-1]


# ("env", tracked local name) or ("envel", an element of a tracked local array: a
# write never replaces the whole value) or ("loc", location) or ("ploc", a field of
# ``param->``: memory the caller passed) or ("sloc", a field of ``local.``, a struct of
# automatic storage: memory that dies with the call, so no caller sees the write) or
# ("new", memory the call allocated, written under the gates of the allocation:
# ``owned.py``).
Target = tuple[str, "str | Loc"]
NEW = "new"


class Scope:
    """Name resolution in the function being walked: a name is a tracked local (kept
    in the walk's environment), a local location, or a global."""

    def __init__(self, funcs: dict[str, FunctionFacts], global_scalars: set[str]) -> None:
        self._funcs = funcs
        self._global_scalars = global_scalars
        self._scalar_types: frozenset[str] = frozenset()  # set by the solver
        self._layouts = layouts.Layouts([])  # set by the solver
        self._func: FunctionFacts | None = None
        self.store = Store()

    def _key(self, name: str) -> Local | Global:
        f = self._func
        return Local(f.name, name) if f and name in f.locals else Global(name)

    def _scalar(self, name: str) -> bool:
        f = self._func
        if f and name in f.locals:
            return name in f.scalars
        return name in self._global_scalars

    def _field(self, e: c_ast.StructRef) -> Field:
        """The location of the field ``e`` accesses (``layouts.py``)."""
        f = self._func
        owner = self._layouts.owner(e, f.types if f else {})
        return Field(self._layouts.member(e.field.name, owner), owner)

    def _scalar_field(self, e: c_ast.StructRef) -> bool:
        """The field ``e`` accesses is declared of an arithmetic type: it holds no
        pointer.  Before this, Scotch's ``buf + grafptr->baseval`` (an integer
        offset) pointed to what ``baseval`` "points to", and a halo exchange writing
        received data through it made the fields of every graph per-process."""
        f = self._func
        return is_scalar(self._layouts.field_type(e, f.types if f else {}),
                         self._scalar_types)

    def _target(self, name: str) -> Target:
        f = self._func
        return ("env", name) if f and name in f.tracked else ("loc", self._key(name))

    def _is_local_key(self, kind: str, loc: str | Loc) -> bool:
        """Memory of the current call (locals, what parameters point to): writes to it
        are not gated by the gate the function is called under; the caller gates the
        objects it passes by address itself (``_pass_pointer``, and for the fields of
        ``param->``, "ploc:param", ``Expressions._outside``)."""
        f = self._func
        b = base(loc) if not isinstance(loc, str) else None
        return kind.startswith("ploc") or kind == "sloc" or (
            f is not None and isinstance(b, Local) and b.fn == f.name)
