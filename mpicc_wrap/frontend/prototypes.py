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

A call through a struct field (``io_info->io_ops.single_write(io_info, ...)``,
``(*space->select.type->iter_init)(space, iter)``) has the prototype of the field's
function-pointer type, directly or through a typedef; ``field_pointer_params`` keys
those by the field's name (``.single_write``), keeping for a name several structs
share only what every one of them declares.  Without it hdf5's selection iterators
wrote the ``const H5S_t *`` dataspace they were given.  The structs of system headers
are blanked, so a field of one that shares a name with a user struct's takes the user
struct's prototype (an assumption: a system struct's callback of the same name that
writes through an argument the user's declares const).
"""

from __future__ import annotations

from collections.abc import Container, Iterator

from pycparser import c_ast

from mpicc_wrap.frontend.scalars import is_arithmetic

__all__ = ["const_pointer_params", "field_pointer_params", "is_function_type", "param_names"]


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


def _unwritten(ftype: c_ast.Node, arithmetic: Container[str] | None) -> frozenset[int]:
    """The parameters of the function type ``ftype`` a callee cannot write through."""
    params = ftype.args.params if ftype.args is not None else None
    return frozenset(i for i, p in enumerate(params or [])
                     if isinstance(p, (c_ast.Decl, c_ast.Typename)) and (
                         _const_pointee(p.type) or (
                         arithmetic is not None and is_arithmetic(p.type, arithmetic))))


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
        if found := _unwritten(ftype, arithmetic):
            out[decl.name] = found
    return out


def _pointed_function(t: c_ast.Node, typedefs: dict[str, c_ast.Node]) -> c_ast.Node | None:
    """The function type a declarator of a function pointer points to (``int
    (*f)(...)``, ``fn_t f`` with ``typedef int (*fn_t)(...)``, ``fn_t *f`` with
    ``typedef int fn_t(...)``); None for any other declarator."""
    if type(t).__name__ == "PtrDecl":
        target = t.type
        if is_function_type(target):
            return target
        return _typedef_function(target, typedefs, pointer=False)
    return _typedef_function(t, typedefs, pointer=True)


def _typedef_function(t: c_ast.Node, typedefs: dict[str, c_ast.Node], pointer: bool
                      ) -> c_ast.Node | None:
    """The function type behind a typedef name: a function pointer type when
    ``pointer``, else a function type."""
    names = getattr(getattr(t, "type", None), "names", None) or []
    if type(t).__name__ not in ("TypeDecl", "TypeDeclExt") or len(names) != 1:
        return None
    target = typedefs.get(names[0])
    if target is None:
        return None
    if not pointer:
        return target if is_function_type(target) else None
    return target.type if type(target).__name__ == "PtrDecl" and is_function_type(
        target.type) else None


def _structs(node: c_ast.Node) -> Iterator[c_ast.Node]:
    """The struct and union definitions in a file-scope declaration, nested ones too."""
    if isinstance(node, (c_ast.Struct, c_ast.Union)) and node.decls:
        yield node
    for _, child in node.children():
        yield from _structs(child)


def field_pointer_params(nodes: list[c_ast.Node], arithmetic: Container[str] | None = None
                         ) -> dict[str, frozenset[int]]:
    """``.field`` -> the parameters a call through that function-pointer field of a
    struct or union among ``nodes`` cannot write (``const_pointer_params``); for a
    field name several structs declare, those every declaration agrees on."""
    typedefs: dict[str, c_ast.Node] = {}
    found: dict[str, frozenset[int]] = {}
    for node in nodes:
        if isinstance(node, c_ast.FuncDef):
            continue
        if isinstance(node, c_ast.Typedef) and node.name:
            typedefs[node.name] = node.type
        for struct in _structs(node):
            for field in struct.decls:
                if not isinstance(field, c_ast.Decl) or not field.name:
                    continue
                ftype = _pointed_function(field.type, typedefs)
                key = "." + field.name
                params = _unwritten(ftype, arithmetic) if ftype is not None else frozenset()
                found[key] = found[key] & params if key in found else params
    return {k: v for k, v in found.items() if v}
