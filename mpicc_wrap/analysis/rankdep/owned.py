"""New memory: pointers to what the current call allocated, and the writes made there.

Fields are kept by struct type (``locations.Field``): one location stands for that
field of every object of the type.  A write ``p->f = v`` makes it per-process when
``v`` differs between processes, when the place ``p`` does (the processes write
different objects) or under a per-process gate (some processes write, the others not).
For an object the current call allocated, the last two are not so (beyond both
papers; PARCOACH and the pCFG paper track no heap objects):

* **Which object.**  A pointer an allocation returns names a new object on every
  process; its address differs, as every address does, but it is the same object of
  the program, whatever size each process asked for.  Under the success assumption
  (``analysis/failures.py``) it is not NULL.  So the value of an allocating call is
  the same on every process whatever its arguments (``Expressions``), and a write
  through an *owned local* (below) is made at one place.
* **Which processes.**  A new object exists only on the processes that ran the
  allocation.  A write into it under the same gates as the allocation reaches it on
  every process that has it, so it is not gated: another process cannot read the
  object but through a pointer stored after the allocation, under those gates, and
  that pointer carries them (a tracked local tainted at the join, a field written
  under the gate, a gated call's result).  A write under a further per-process test
  (``p = malloc(...); if (rank == 0) p->n = 1;``) stays gated: then the object
  differs between the processes that have it.

hypre shows both: ``hypre_ParVectorCreate(comm, n, starts)`` allocates the vector it
returns and stores a constant ``num_vectors`` in it; called with each process's row
starts, or under a test of the rank (``hypre_ParVectorReadIJ``), it made every
vector's ``num_vectors`` per-process, and ``if (f->local_vector->num_vectors !=
u->local_vector->num_vectors) return ...;`` in ``hypre_BoomerAMGSetup`` gated its 28
warned collectives.

* An **allocating call** calls ``malloc`` and its kin (``failures.ALLOCATORS``), a
  function of the TU that allocates (below), another file's whose summary says so
  (``allocates``), or a function the TU only declares, with no summary, whose
  prototype returns a pointer and whose name says it allocates (the assumption
  ``failures.py`` states).
* An **owned local** of a function is a non-static local, declared once in its body
  and with a name no parameter or file-scope declaration has (so that the name means
  it wherever the body uses it, not something an inner declaration shadows), that is
  only ever assigned an allocating call or a null constant, moved (``p++``,
  ``p += k``: the same object; the one time C lets a pointer leave its object is to
  point one past it), or given by address to a call whose name says it
  allocates (``posix_memalign(&p, ...)``, hypre's ``user_device_malloc(&p, size)``
  hook); its address is taken nowhere else.
* A function **allocates** when it returns a pointer, and every ``return`` gives an
  allocating call, an owned local or a null constant (hypre's ``hypre_MAlloc_core``
  returns NULL for a size of 0).

Assumptions, stated because nothing checks them: a NULL such a function returns on
some processes only (a size of 0 on some, or a test of the rank inside) is not told
apart from the object it returns on the others, as an allocation failure is not; and
a call whose name says it allocates hands back new memory.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from typing import NamedTuple

from pycparser import c_ast

from mpicc_wrap.analysis.failures import ALLOCATORS, declared_allocators, says_it_allocates
from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.rankdep.locations import callee, uncast
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.model import FunctionSummary

__all__ = ["Scan", "allocates_in", "allocating", "file_names", "is_allocation",
           "owned_locals", "owner", "scan"]

# a name that says it allocates (failures.py) but frees too is no out-parameter allocator
_FREE_NAME = re.compile(r"free", re.IGNORECASE)
# allocators that hand their block back through an argument, by name
_OUT_ALLOCATORS = frozenset({"posix_memalign", "MPI_Alloc_mem", "PMPI_Alloc_mem"})


def file_names(ast: c_ast.FileAST) -> frozenset[str]:
    """The names declared at file scope."""
    return frozenset(d.name for d in ast.ext if isinstance(d, c_ast.Decl) and d.name)


def allocating(ast: c_ast.FileAST, external: Mapping[str, FunctionSummary]
               ) -> frozenset[str]:
    """Every function whose calls allocate (module docstring): the C allocators, the
    TU's allocating functions (to a fixed point: each round adds one or stops), other
    files' by their summaries, and declared ones by name.  Each body is scanned once."""
    names = file_names(ast)
    scans = {d.decl.name: (scan(d), d) for d in ast.ext if isinstance(d, c_ast.FuncDef)
             and isinstance(getattr(d.decl.type, "type", None), c_ast.PtrDecl)}
    defined = {d.decl.name for d in ast.ext if isinstance(d, c_ast.FuncDef)}
    found = set(ALLOCATORS) | {n for n, s in external.items() if s.allocates
                               and n not in defined} | {
        n for n in declared_allocators(ast) if n not in defined and n not in external}
    grew = True
    while grew:
        grew = False
        for name, (body, d) in scans.items():
            if name not in found and _allocates(body, owned_locals(
                    d, frozenset(found), names, body), frozenset(found)):
                found.add(name)
                grew = True
    return frozenset(found)


def allocates_in(calls: Iterable[str], allocators: Container[str]) -> bool:
    """Some call of ``calls`` (names) allocates, or hands a pointer back by name."""
    return any(c in allocators or c in _OUT_ALLOCATORS for c in calls)


def is_allocation(e: c_ast.Node | None, allocators: Container[str]) -> bool:
    """``e`` is a call of one of ``allocators`` (under casts)."""
    e = uncast(e) if e is not None else None
    return isinstance(e, c_ast.FuncCall) and (callee(e) or "") in allocators


def owned_locals(defn: c_ast.FuncDef, allocators: Container[str],
                 file_names: Container[str] = frozenset(), body: Scan | None = None
                 ) -> frozenset[str]:
    """The owned locals of ``defn`` (module docstring); ``file_names``: the names
    declared at file scope, which an inner declaration may shadow; ``body``: its
    ``scan``, when made already."""
    found = body or scan(defn)
    args = getattr(defn.decl.type, "args", None)
    params = {getattr(p, "name", None) for p in (args.params if args else [])}
    return frozenset(
        n for n, values in found.values.items()
        if n not in found.spoiled and n not in params and n not in file_names
        and all(is_allocation(v, allocators) or _null(v) for v in values))


def owner(e: c_ast.Node, owned: Container[str]) -> str | None:
    """The owned local whose memory the place ``e`` is in: ``p->f``, ``p[i]``, ``*p``,
    and members of those (``p->a.b``, ``p[i].f``)."""
    while isinstance(e, c_ast.StructRef) and e.type == ".":
        e = e.name
    if isinstance(e, c_ast.StructRef) or isinstance(e, c_ast.ArrayRef):
        base = uncast(e.name)
    elif isinstance(e, c_ast.UnaryOp) and e.op == "*":
        base = uncast(e.expr)
    else:
        return None
    return base.name if isinstance(base, c_ast.ID) and base.name in owned else None


def _allocates(body: Scan, owned: frozenset[str], allocators: frozenset[str]) -> bool:
    """Every ``return`` gives an allocation, an owned local or a null constant."""
    if not body.returns:
        return False
    for e in body.returns:
        bare = uncast(e) if e is not None else None
        if not (is_allocation(e, allocators) or _null(e) or (
                isinstance(bare, c_ast.ID) and bare.name in owned)):
            return False
    return True


def _null(e: c_ast.Node | None) -> bool:
    return e is not None and int_expression(uncast(e)) == 0


def _says_alloc(call: c_ast.FuncCall) -> bool:
    """The called name (a function's, or the member a call goes through) says it
    allocates."""
    name = callee(call)
    fn = uncast(call.name)
    if name is None and isinstance(fn, c_ast.StructRef):
        name = fn.field.name
    return name is not None and (name in _OUT_ALLOCATORS or (
        says_it_allocates(name) and not _FREE_NAME.search(name)))


def scan(defn: c_ast.FuncDef) -> Scan:
    """What ``owned_locals`` and ``allocating`` need of a body, in one walk."""
    found = Scan({}, set(), [])
    _Scanner(found).visit(defn.body)
    return found


class Scan(NamedTuple):
    """A body's candidate locals with the values assigned to each (``values``), those
    written otherwise than an owned local may be, whatever the allocators
    (``spoiled``), and the values its ``return`` statements give."""

    values: dict[str, list[c_ast.Node]]
    spoiled: set[str]
    returns: list[c_ast.Node | None]


class _Scanner(Visitor):
    def __init__(self, found: Scan) -> None:
        self.found = found
        self._handed: set[int] = set()  # ids of '&p' given to an allocating call

    def visit_Return(self, node: c_ast.Return) -> None:
        self.found.returns.append(node.expr)
        self.generic_visit(node)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and not {"static", "extern"} & set(node.storage or []) \
                and not isinstance(node.type, (c_ast.ArrayDecl, c_ast.FuncDecl)):
            if node.name in self.found.values:  # declared in two blocks
                self.found.spoiled.add(node.name)
            values = self.found.values.setdefault(node.name, [])
            if isinstance(node.init, c_ast.InitList):
                self.found.spoiled.add(node.name)
            elif node.init is not None:
                values.append(node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        target = uncast(node.lvalue)
        if isinstance(target, c_ast.ID) and node.op not in ("+=", "-="):
            if node.op == "=" and target.name in self.found.values:  # declared here
                self.found.values[target.name].append(node.rvalue)
            else:
                self.found.spoiled.add(target.name)
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if _says_alloc(node) and node.args is not None:
            self._handed.update(id(uncast(a)) for a in node.args.exprs)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        inner = uncast(node.expr)
        if node.op == "&" and isinstance(inner, c_ast.ID) and id(node) not in self._handed:
            self.found.spoiled.add(inner.name)
        self.generic_visit(node)
