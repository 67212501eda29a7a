"""The struct type an access ``e.f`` / ``e->f`` goes through, so that a field is one
location per (struct type, field name) instead of one per field name.

Fields used to be one location per name in the whole TU: fftw3's
``sz->dims[i].n = ...`` (a kernel ``iodim``, at an address that differs between
processes) made every field called ``n`` per-process, the distributed ``ddim`` sizes
of ``p->sz->dims[0].n`` among them, and with them fftw's ``applicable()`` tests.

Assumption (C11 6.5p7, the effective-type rule; what gcc's ``-fstrict-aliasing``, on
from ``-O2``, relies on): an object is accessed only through lvalues of its own type,
so ``a->n`` with ``a`` a ``struct A *`` and ``b->n`` with ``b`` a ``struct B *`` are
different memory.  Where it does not hold, the owner is unknown (``""``):

* the base's type cannot be found (an untyped macro result, a system header's struct,
  whose definition the frontend blanks, a name declared with two types, a struct
  defined without a tag inside a function: only file-scope definitions are read);
* the struct is a member of a union (C allows reading the common initial sequence of
  union members through either type);
* the TU is compiled with ``-fno-strict-aliasing`` (``Layouts(..., strict=False)``),
  whose users may pun one struct through another.

The members of a union are one location (``member``), and so are those of an
anonymous union member of a struct (``struct s { union { int i; float f; }; }``): they
overlap, and C allows reading the bytes a member stored through another member (C11
6.5.2.3p3, footnote 95: type punning), so ``u.i = rank; if (u.f > 0)`` reads what
differs between processes.  The name of that location lists the members (``|f|i``),
so that it is still read with, and marks, the unknown-owner locations of each
member's name.

An unknown owner is always sound: ``Store`` reads a typed field together with the
unknown-owner writes of that name, and an unknown-owner read sees every write of the
name (``locations.field_views``).  Struct keys are the tag, or for an untagged struct
the typedef name that declares it, so they agree between the TUs of one project (the
summaries' ``f:T.n`` tokens, ``effects.py``).
"""

from __future__ import annotations

from pycparser import c_ast

from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend.prototypes import is_function_type

__all__ = ["Layouts", "local_types", "union_members"]

_AGGREGATES = (c_ast.Struct, c_ast.Union)
UNION_MARK = "|"  # starts, and separates the members in, the location name of a union
_DEPTH = 32  # typedef chains and nested accesses longer than this are "unknown"


class _Collect(Visitor):
    """Every struct/union definition, typedef and file-scope declaration of a TU."""

    def __init__(self) -> None:
        self.fields: dict[str, dict[str, c_ast.Node | None]] = {}
        self.typedefs: dict[str, c_ast.Node | None] = {}
        self.anonymous: dict[int, str] = {}  # id(untagged struct) -> its typedef name
        self.unions: list[c_ast.Union] = []
        # struct/union key -> sets of its member names that overlap (a union's members,
        # or those of an anonymous union member of a struct)
        self.overlaps: dict[str, list[set[str]]] = {}

    def visit_Typedef(self, node: c_ast.Typedef) -> None:
        _declare(self.typedefs, node.name, node.type)
        inner = getattr(node.type, "type", None)
        if isinstance(node.type, c_ast.TypeDecl) and isinstance(inner, _AGGREGATES) \
                and inner.name is None:
            self.anonymous.setdefault(id(inner), node.name)
        self.generic_visit(node)

    def visit_Struct(self, node: c_ast.Struct) -> None:
        if node.decls is not None:
            key = node.name or self.anonymous.get(id(node))
            if key is not None:
                self._name_untagged_members(node, key)
                found = self.fields.setdefault(key, {})
                members = _members(node)
                for name, t in members:
                    _declare(found, name, t)
                groups = self.overlaps.setdefault(key, [])
                if isinstance(node, c_ast.Union):
                    groups.append({name for name, _ in members})
                groups.extend(_anonymous_unions(node))
        self.generic_visit(node)

    def _name_untagged_members(self, node: c_ast.Struct | c_ast.Union, key: str) -> None:
        """An untagged struct or union declared as a named member (``union { int i;
        float f; } u;``) has no tag or typedef name: it is keyed ``key.u``, the same
        in every TU, so that its members are fields of a known owner and, for a
        union, one location (before, an unknown owner kept ``m.u.i`` and ``m.u.f``
        apart: ``buggy_union_untagged_member_read_as_another.c``)."""
        for d in node.decls or []:
            t = d.type if isinstance(d, c_ast.Decl) and d.name else None
            for _ in range(_DEPTH):
                if not isinstance(t, (c_ast.TypeDecl, c_ast.ArrayDecl, c_ast.PtrDecl)):
                    break
                t = t.type
            if isinstance(t, _AGGREGATES) and t.name is None and t.decls is not None:
                self.anonymous.setdefault(id(t), f"{key}.{d.name}")  # type: ignore[union-attr]

    def visit_Union(self, node: c_ast.Union) -> None:
        self.unions.append(node)
        self.visit_Struct(node)  # type: ignore[arg-type]


def _members(node: c_ast.Struct | c_ast.Union) -> list[tuple[str, c_ast.Node]]:
    """The members an access ``x.name`` can name: the named ones, and those of anonymous
    struct/union members (C11 6.7.2.1p13), at any depth."""
    out: list[tuple[str, c_ast.Node]] = []
    for d in node.decls or []:
        if isinstance(d, c_ast.Decl) and d.name:
            out.append((d.name, d.type))
        elif isinstance(d, c_ast.Decl) and isinstance(d.type, _AGGREGATES):
            out += _members(d.type)
    return out


def _anonymous_unions(node: c_ast.Struct | c_ast.Union) -> list[set[str]]:
    """The member names of each anonymous union member of ``node``, at any depth."""
    out: list[set[str]] = []
    for d in node.decls or []:
        if isinstance(d, c_ast.Decl) and not d.name and isinstance(d.type, _AGGREGATES):
            if isinstance(d.type, c_ast.Union):
                out.append({name for name, _ in _members(d.type)})
            out += _anonymous_unions(d.type)
    return out


def _merged(groups: list[set[str]]) -> dict[str, str]:
    """Member name -> the location name of its group (``|a|b``), groups that share a
    member merged (two definitions of one tag in different scopes)."""
    merged: list[set[str]] = []
    for g in groups:
        for other in [m for m in merged if m & g]:
            merged.remove(other)
            g = g | other
        merged.append(g)
    return {n: UNION_MARK + UNION_MARK.join(sorted(g)) for g in merged for n in g}


def union_members(name: str) -> list[str]:
    """The member names a union's location name lists (``[]``: not a union's)."""
    return name.split(UNION_MARK)[1:] if name.startswith(UNION_MARK) else []


def local_types(params: list[c_ast.Node], decls: list[c_ast.Decl]) -> dict[str, c_ast.Node
                                                                          | None]:
    """The declared type of each parameter and local of a function; None for a name
    declared twice (block scopes) with different types, or a K&R parameter (an
    ``ID``: its type is declared apart, and it hides any global of its name)."""
    out: dict[str, c_ast.Node | None] = {}
    for d in [*params, *decls]:
        name = getattr(d, "name", None)
        if isinstance(name, str) and name:
            _declare(out, name, d.type if isinstance(d, c_ast.Decl) else None)
    return out


def _declare(table: dict[str, c_ast.Node | None], name: str, t: c_ast.Node | None) -> None:
    """Record that ``name`` has type ``t``; a second, different type makes it None."""
    if name in table and not _same(table[name], t):
        table[name] = None
    else:
        table.setdefault(name, t)


def _same(a: c_ast.Node | None, b: c_ast.Node | None) -> bool:
    return a is not None and b is not None and _spelling(a) == _spelling(b)


def _spelling(t: c_ast.Node | None) -> str:
    """A type's shape, enough to tell two declarations apart."""
    parts: list[str] = []
    for _ in range(_DEPTH):
        if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            parts.append("*")
        elif isinstance(t, _AGGREGATES):
            anonymous = id(t) if t.name is None else ""
            return "".join(parts) + f"{type(t).__name__}:{t.name}:{anonymous}"
        elif isinstance(t, c_ast.IdentifierType):
            return "".join(parts) + " ".join(t.names)
        elif not isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
            return "".join(parts) + type(t).__name__
        t = getattr(t, "type", None)
    return "?"


class Layouts:
    """``owner(e, scope)``: the key of the struct type a field access goes through."""

    def __init__(self, ext: list[c_ast.Node], strict: bool = True) -> None:
        scan = _Collect()
        globals_: dict[str, c_ast.Node | None] = {}
        for node in ext:  # not into function bodies: a whole-AST walk costs 5-10 %
            decl = node.decl if isinstance(node, c_ast.FuncDef) else node
            scan.visit(decl)
            if isinstance(decl, c_ast.Decl) and decl.name:
                _declare(globals_, decl.name, decl.type)
        self._fields, self._typedefs = scan.fields, scan.typedefs
        self._anonymous, self._globals = scan.anonymous, globals_
        self._strict = strict
        self._punned = {k for u in scan.unions for d in u.decls or []
                        if isinstance(d, c_ast.Decl)
                        and (k := self._key(d.type)) is not None}
        self._overlaps = {k: _merged(g) for k, g in scan.overlaps.items() if g}
        self._memo: dict[int, str] = {}
        self._types: dict[int, c_ast.Node | None] = {}

    def owner(self, e: c_ast.StructRef, scope: dict[str, c_ast.Node | None]) -> str:
        """The struct key of ``e``'s base (``""``: unknown, see the module docstring).
        Memoised per node: an expression belongs to one function."""
        if not self._strict:
            return ""
        found = self._memo.get(id(e))
        if found is None:
            base = self._type(e.name, scope, 0)
            if e.type == "->":
                base = self._pointee(base)
            key = self._key(base)
            found = self._memo[id(e)] = key if key and key not in self._punned else ""
        return found

    def member(self, name: str, owner: str) -> str:
        """The location name of the field ``name`` of an ``owner`` object: the name
        itself, or for a member of a union (or of an anonymous union inside a struct)
        the names of all the members it overlaps (``|f|i``, module docstring)."""
        return self._overlaps.get(owner, {}).get(name, name) if owner else name

    def is_function(self, name: str) -> bool:
        """``name`` is declared a function at file scope."""
        return is_function_type(self._globals.get(name))

    def field_type(self, e: c_ast.StructRef, scope: dict[str, c_ast.Node | None]
                   ) -> c_ast.Node | None:
        """The declared type of the field ``e`` accesses (None: not known).  Whatever
        the aliasing rule, the member's declaration says what it can hold: an
        arithmetic one holds no pointer (``PointsTo._pointees``)."""
        if id(e) not in self._types:
            self._types[id(e)] = self._type(e, scope, 0)
        return self._types[id(e)]

    def fields_apart(self, t: c_ast.Node | None, depth: int, result: c_ast.Node | None
                     ) -> list[tuple[str, str]] | None:
        """The field locations ``(owner, member)`` of the object ``depth`` dereferences
        from a local of type ``t``, when that object is a struct or union that cannot
        be, nor lie inside, the object a function of result type ``result`` returns a
        pointer to (C11 6.5p7: a ``struct q`` lvalue accesses a ``struct q`` or an
        aggregate with one as a member, never a ``struct p`` without one); None when
        that is not known (``effects.py``: then the write is to "the returned
        memory")."""
        for _ in range(depth):
            t = self._pointee(t)
        inner, outer = self._key(t), self._key(self._pointee(result))
        if not self._strict or inner is None or outer is None \
                or self._inside(inner, outer, set()):
            return None
        return self._all_fields(inner, set())

    def _by_value(self, key: str) -> list[tuple[str, c_ast.Node | None]]:
        """The members of ``key``, each with the aggregate type it holds by value (an
        array of one too), None for the others."""
        out: list[tuple[str, c_ast.Node | None]] = []
        for name, t in self._fields.get(key, {}).items():
            t = self._resolve(t)
            for _ in range(_DEPTH):
                if not isinstance(t, c_ast.ArrayDecl):
                    break
                t = self._resolve(t.type)
            out.append((name, t if isinstance(t, _AGGREGATES) else None))
        return out

    def _inside(self, inner: str, outer: str, seen: set[str]) -> bool:
        """An ``inner`` object may be, or lie inside, an ``outer`` one (whose members
        this TU may not know)."""
        if inner == outer or outer not in self._fields:
            return True
        seen.add(outer)
        for _, t in self._by_value(outer):
            k = self._key(t) if t is not None else None
            if t is not None and (k is None or k not in seen and self._inside(inner, k, seen)):
                return True
        return False

    def _all_fields(self, key: str, seen: set[str]) -> list[tuple[str, str]] | None:
        """The field locations a write of a whole ``key`` object writes: its members',
        and those of the aggregates it holds by value (None: one of them unknown);
        the members of a struct that is a union's are of an unknown owner
        (``owner``)."""
        if key not in self._fields:  # declared, not defined here: its members unknown
            return None
        seen.add(key)
        owner = "" if key in self._punned else key
        out: list[tuple[str, str]] = []
        for name, t in self._by_value(key):
            out.append((owner, self.member(name, owner)))
            if t is None:
                continue
            k = self._key(t)
            if k is None:
                return None
            if k not in seen:
                nested = self._all_fields(k, seen)
                if nested is None:
                    return None
                out += nested
        return out

    def _key(self, t: c_ast.Node | None) -> str | None:
        """The key of the struct or union type ``t`` names (through typedefs)."""
        t = self._resolve(t)
        if isinstance(t, _AGGREGATES):
            return t.name or self._anonymous.get(id(t))
        return None

    def _resolve(self, t: c_ast.Node | None) -> c_ast.Node | None:
        """``t`` without declarator wrappers and typedef names (one level of type)."""
        for _ in range(_DEPTH):
            if isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
                t = t.type
            elif isinstance(t, c_ast.IdentifierType) and len(t.names) == 1 \
                    and t.names[0] in self._typedefs:
                t = self._typedefs[t.names[0]]  # None: two different typedefs
            else:
                return t
        return None

    def _type(self, e: c_ast.Node, scope: dict[str, c_ast.Node | None], depth: int
              ) -> c_ast.Node | None:
        """The declared type of expression ``e`` (None: not known)."""
        if depth > _DEPTH:
            return None
        if isinstance(e, c_ast.ID):
            return scope[e.name] if e.name in scope else self._globals.get(e.name)
        if isinstance(e, c_ast.StructRef):
            base = self._type(e.name, scope, depth + 1)
            key = self._key(self._pointee(base) if e.type == "->" else base)
            return self._fields.get(key or "", {}).get(e.field.name)
        if isinstance(e, c_ast.ArrayRef):
            return self._pointee(self._type(e.name, scope, depth + 1))
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return self._pointee(self._type(e.expr, scope, depth + 1))
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            inner = self._type(e.expr, scope, depth + 1)
            return c_ast.PtrDecl([], inner) if inner is not None else None
        if isinstance(e, c_ast.Cast):
            return e.to_type.type
        if isinstance(e, c_ast.FuncCall) and isinstance(e.name, c_ast.ID):
            if e.name.name in scope:  # a local pointer to a function
                return None
            fn = self._globals.get(e.name.name)
            return getattr(fn, "type", None) if is_function_type(fn) else None
        if isinstance(e, c_ast.TernaryOp):
            return self._type(e.iftrue, scope, depth + 1)
        if isinstance(e, c_ast.Assignment):
            return self._type(e.lvalue, scope, depth + 1)
        if isinstance(e, c_ast.ExprList) and e.exprs:
            return self._type(e.exprs[-1], scope, depth + 1)
        if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
            left = self._type(e.left, scope, depth + 1)
            return left if self._pointee(left) is not None else None
        return None

    def array_depth(self, t: c_ast.Node | None) -> int:
        """How many dereferences of a variable of type ``t`` stay inside its own
        storage: the dimensions of an array type (``int a[2][3]``: 2), 0 otherwise."""
        depth = 0
        for _ in range(_DEPTH):
            t = self._resolve(t)
            if not isinstance(t, c_ast.ArrayDecl):
                break
            depth, t = depth + 1, t.type
        return depth

    def _pointee(self, t: c_ast.Node | None) -> c_ast.Node | None:
        """What a pointer or array type (or a typedef name of one) points to; None
        for anything else."""
        t = self._resolve(t)
        return t.type if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)) else None
