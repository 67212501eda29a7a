"""What prototypes say an external function cannot write: the parameters declared
pointer-to-const (``int open(const char *file, int flags, ...)``), read from the
system headers (``headercache``: cached with their other facts) and the user's code.

A call of an unknown function is assumed to write, through each pointer argument,
a value derived from its other arguments (package docstring).  Writing through a
``const T *`` parameter would mean casting the qualifier away, which well-behaved
library code does not do (and which is undefined for objects defined const), so
those arguments are left alone by the rank-dependence analysis: pnetcdf's
``open(path, ...)`` under ``if (rank == 0)`` no longer makes the caller's file name
per-process.  Arguments past the
prototype's parameters (variadic ones: ``sscanf``'s outputs) are still written.

Nor does a callee write through a parameter of arithmetic type: the argument is
converted to a number (C11 6.5.2.2), whatever expression the caller wrote.  Without
the prototype pnetcdf's ``ncmpii_xlen_nc_type(attrp->xtype, &xsz)`` (``nc_type
xtype``), in a function rank 0 alone calls, wrote through ``attrp->xtype`` and made
every ``xtype`` field, and ``xsz`` with it, per-process.  The analysis now reads a
user struct's field types too (``analysis/rankdep/layouts.py``), but not those of
structs from system headers, whose definitions the frontend blanks.  The user's
prototypes give these (``arithmetic``: the TU's arithmetic typedef names); the header
cache keeps the pointer-to-const ones.
"""

from __future__ import annotations

from collections.abc import Container

from pycparser import c_ast

from mpicc_wrap.frontend.scalars import is_arithmetic

__all__ = ["const_pointer_params", "is_function_type", "param_names"]


def is_function_type(t: c_ast.Node | None) -> bool:
    """``t`` declares a function (pycparserext's GNU C parser makes ``FuncDeclExt``,
    which is no ``FuncDecl``)."""
    return type(t).__name__ in ("FuncDecl", "FuncDeclExt")


def param_names(decl: c_ast.Decl) -> list[str]:
    """The names of a function declaration's parameters, in order ("" for an unnamed
    one)."""
    args = getattr(decl.type, "args", None)
    names: list[str] = []
    for p in getattr(args, "params", None) or []:
        name = getattr(p, "name", None)
        names.append(name if isinstance(name, str) else "")
    return names


def _const_pointee(t: c_ast.Node) -> bool:
    """True for ``const T *`` (and ``T *const *``...): the pointed-to object is const."""
    if type(t).__name__ != "PtrDecl":
        return False
    target = t.type
    return "const" in (getattr(target, "quals", None) or [])


def const_pointer_params(nodes: list[c_ast.Node], arithmetic: Container[str] | None = None
                         ) -> dict[str, frozenset[int]]:
    """Function name -> indexes of its parameters declared pointer-to-const (with
    ``arithmetic``, the typedef names of arithmetic types: also those of an arithmetic
    type), from the file-scope prototypes and definitions among ``nodes``."""
    out: dict[str, frozenset[int]] = {}
    for node in nodes:
        decl = node.decl if isinstance(node, c_ast.FuncDef) else node
        if not isinstance(decl, c_ast.Decl) or not decl.name:
            continue
        ftype = decl.type
        if not is_function_type(ftype) or ftype.args is None:
            continue
        params = ftype.args.params or []
        found = frozenset(i for i, p in enumerate(params)
                          if isinstance(p, c_ast.Decl) and (_const_pointee(p.type) or (
                              arithmetic is not None and is_arithmetic(p.type, arithmetic))))
        if found:
            out[decl.name] = found
    return out
