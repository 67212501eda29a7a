"""Which type names hold no pointer: C's arithmetic types, and typedef names that stand
for one (``typedef long Gnum;``, ``int64_t`` through glibc's ``__int64_t``,
enumerations), read from the system headers (``headercache``, cached with their other
facts) and the user's code.

The rank-dependence analysis tracks a local array flow-sensitively only when its
elements cannot hold a pointer (``analysis/rankdep/locations.env_arrays``): before
this, every typedef name counted as a possible pointer, so Scotch's ``Gnum
reduglbtab[6]`` fell back to one flow-insensitive memory location, and a copy of the
local flags into it on a path that returns made the reduced flags per-process
everywhere (``correct_typedef_array_reduced_after_local_copy.c``).
"""

from __future__ import annotations

from collections.abc import Container

from pycparser import c_ast

__all__ = ["ARITHMETIC", "is_arithmetic", "scalar_typedefs"]

ARITHMETIC = frozenset({"void", "char", "short", "int", "long", "float", "double",
                        "signed", "unsigned", "_Bool", "__int128", "_Complex"})

# MPI's handle types are integers in MPICH but pointers in Open MPI: a handle is never
# a scalar, so that both libraries give the same answers.  These are integers in both.
# ``intptr_t`` and ``uintptr_t`` (any name containing "intptr") exist to hold pointers,
# so they are not scalars either.
_MPI_INTEGERS = frozenset({"MPI_Aint", "MPI_Offset", "MPI_Count", "MPI_Fint"})


def is_arithmetic(t: c_ast.Node | None, typedefs: Container[str] = frozenset()) -> bool:
    """True for a declarator of an arithmetic type (``int``, ``unsigned long``), or of
    a typedef name in ``typedefs``."""
    names: list[str] = getattr(getattr(t, "type", None), "names", None) or []
    return type(t).__name__ in ("TypeDecl", "TypeDeclExt") and bool(names) and all(
        n in ARITHMETIC or n in typedefs for n in names)


def scalar_typedefs(nodes: list[c_ast.Node], seeds: frozenset[str] = frozenset()
                    ) -> frozenset[str]:
    """``seeds`` and the typedef names among file-scope ``nodes`` that stand for an
    arithmetic or enumeration type, through chains of typedefs (in order, as C
    requires a typedef to be declared before use)."""
    out = set(seeds)
    for node in nodes:
        if not isinstance(node, c_ast.Typedef) or not node.name:
            continue
        if (node.name.startswith("MPI_") and node.name not in _MPI_INTEGERS
                or "intptr" in node.name):
            continue
        t = node.type
        if is_arithmetic(t, out) or (type(t).__name__ in ("TypeDecl", "TypeDeclExt")
                                     and isinstance(t.type, c_ast.Enum)):
            out.add(node.name)
    return frozenset(out)
