"""Who calls whom inside one TU: call classification, address-taken functions and
the strongly connected components the summaries are computed over (callees first)."""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.cfg import callee_name
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.frontend import headercache
from mpicc_wrap.frontend.prototypes import is_function_type
from mpicc_wrap.model import FunctionSummary

# Called names that never execute user collectives although the TU cannot see them.
_LIBC_PREFIXES = ("__builtin_", "__atomic_", "__sync_")


@dataclass(frozen=True)
class Callee:
    """What a call expression calls.  kind: mpi, local, external, pointer, unknown,
    other (libc, builtins, anything declared in a system header)."""

    kind: str
    name: str
    nargs: int


def functions(ast: c_ast.FileAST) -> dict[str, c_ast.FuncDef]:
    """Function definitions of the TU by name."""
    return {e.decl.name: e for e in ast.ext if isinstance(e, c_ast.FuncDef)}


def internal(ast: c_ast.FileAST) -> frozenset[str]:
    """Functions of internal linkage: declared ``static`` at file scope, in their
    definition or in any declaration (C11 6.2.2p3: a later ``extern`` or plain
    declaration keeps the linkage of the first).  No other TU can call them by name."""
    found = set()
    for e in ast.ext:
        decl = e.decl if isinstance(e, c_ast.FuncDef) else e
        if (isinstance(decl, c_ast.Decl) and "static" in (decl.storage or [])
                and is_function_type(decl.type) and decl.name):
            found.add(decl.name)
    return frozenset(found)


class _Scan(Visitor):
    """Collects names used as values (not called) and names declared as variables."""

    def __init__(self) -> None:
        self.values: set[str] = set()
        self.variables: set[str] = set()  # declared names that are not functions
        self.fundecls: set[str] = set()
        self.noreturn: set[str] = set()

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if not isinstance(node.name, c_ast.ID):
            self.visit(node.name)
        if node.args is not None:
            self.visit(node.args)

    def visit_ID(self, node: c_ast.ID) -> None:
        self.values.add(node.name)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if is_function_type(node.type):
            self.fundecls.add(node.name)
            if headercache.is_noreturn(node):
                self.noreturn.add(node.name)
        elif node.name:
            self.variables.add(node.name)
        self.generic_visit(node)


class CallGraph:
    """Calls between the functions of one TU, classified against ``external``."""

    def __init__(self, ast: c_ast.FileAST, external: dict[str, FunctionSummary],
                 system: frozenset[str] = frozenset()) -> None:
        self.defs = functions(ast)
        self.external = external
        self.system = system
        scan = _Scan()
        scan.visit(ast)
        self.globals = {e.name for e in ast.ext if isinstance(e, c_ast.Decl)
                        and not is_function_type(e.type)}
        self.locals = {f: _variables(d) for f, d in self.defs.items()}
        self.declared_noreturn = frozenset(scan.noreturn)
        self.address_taken = {n for n in scan.values if n in self.defs}

    def classify(self, call: c_ast.FuncCall, caller: str = "") -> Callee:
        """Classify a call expression made in function ``caller``."""
        nargs = len(call.args.exprs) if call.args is not None else 0
        name = callee_name(call)
        if name is None or name in self.locals.get(caller, ()) or (
                name in self.globals and name not in self.defs):
            return Callee("pointer", name or "", nargs)
        if catalogue.lookup(name) is not None or name.startswith(("MPI_", "PMPI_")):
            return Callee("mpi", name, nargs)
        if name in self.defs:
            return Callee("local", name, nargs)
        if name in self.external:
            return Callee("external", name, nargs)
        if (name in self.system or name.startswith(_LIBC_PREFIXES)
                or name in catalogue.NORETURN_FUNCTIONS):
            return Callee("other", name, nargs)
        return Callee("unknown", name, nargs)

    def pointer_targets(self, nargs: int) -> list[str]:
        """Address-taken functions a call through a pointer with ``nargs`` arguments
        may reach (compatible arity, or variadic)."""
        result = []
        for name in sorted(self.address_taken):
            params = self.defs[name].decl.type.args
            plist = params.params if params is not None else []
            variadic = any(isinstance(p, c_ast.EllipsisParam) for p in plist)
            count = len([p for p in plist if not _is_void(p)])
            if variadic or count == nargs:
                result.append(name)
        return result


def _variables(func: c_ast.FuncDef) -> set[str]:
    """Parameters and local variables of a function (function pointers included)."""
    scan = _Scan()
    scan.visit(func.decl.type)
    scan.visit(func.body)
    return scan.variables


def _is_void(param: c_ast.Node) -> bool:
    t = getattr(param, "type", None)
    return (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)
            and t.type.names == ["void"] and getattr(param, "name", None) is None)


def sccs(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, callees before callers."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    result: list[list[str]] = []

    def visit(v: str) -> None:
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                result.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result
