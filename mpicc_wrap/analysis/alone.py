"""Branches no member of a communicator takes when a collective on it can diverge.

pnetcdf's ``ncmpi_open`` (benchmarks/realcode-fp/01)::

    MPI_Comm_size(comm, &nprocs);
    if (rank == 0) { ...; if (nprocs == 1) return format; }
    MPI_Bcast(&format, 1, MPI_INT, 0, comm);

Rank 0 skips the broadcast only when it is alone in ``comm``.  Beyond PARCOACH and the
barrier-matching paper (both judge ``if (rank == 0)`` alone): a collective on ``c``
can diverge only in a run where ``c`` has at least two members, and in such a run
every member sees ``size(c) >= 2``, so no member takes the "alone" edge of a test
``s == 1`` (``s < 2``, ``s <= 1``; the false edge of ``s != 1``, ``s > 1``,
``s >= 2``) of a variable ``s`` that holds ``MPI_Comm_size(c)``.  Removing edges
that no member takes in any run that could diverge cannot hide a divergence; in a
run where ``c`` has one member nothing on ``c`` can diverge.  ``findings`` recomputes
the PDF+ of a cluster on ``c`` without these edges.

``s`` must be a non-static local written only by that ``MPI_Comm_size`` (its address
taken nowhere else), and the communicator a name the function never writes, so the
size still describes the collective's communicator when the test runs.

Single-member communicators (``one_member``): ``MPI_COMM_SELF``, and a non-static
local handle every write of which is ``MPI_Comm_dup(MPI_COMM_SELF, &h)`` (or
``MPI_Comm_free(&h)``), its address taken nowhere else.  A collective on such a handle
involves the calling process only, so no condition can make it diverge: on a valid
handle it has one member, and any other handle makes the call erroneous anyway.
(mpich's test helper: ``for (i = 0; i < rand() % 4; i++) MPI_Comm_dup(MPI_COMM_SELF,
&dups[i])``.)  The same holds for the elements of a file-scope ``static`` array
(``self_dup_arrays``) when every use of the array in the TU is ``&a[i]`` as the output
of such a dup or the argument of ``MPI_Comm_free``, or a read ``a[i]``: no other file
can name it, and its elements start as zero, which is no valid communicator.
"""

from __future__ import annotations

import functools

from pycparser import c_ast

from mpicc_wrap.analysis.cfg import CFG
from mpicc_wrap.analysis.visitor import WRITES_OPERAND, Visitor
from mpicc_wrap.frontend import handles, positions

__all__ = ["alone_edges", "alone_test", "one_member", "self_dup_arrays", "size_vars"]

SELF = "MPI_COMM_SELF"
_DUPS = frozenset({"MPI_Comm_dup", "PMPI_Comm_dup"})
_FREES = frozenset({"MPI_Comm_free", "PMPI_Comm_free"})

# comparison -> (the constant, index of the successor taken when s == 1 is the answer)
# A test "s OP k" whose true/false edge is taken exactly when the communicator has one
# member: the edge index (0: true arm, 1: false arm).
_ALONE = {("==", "1"): 0, ("<", "2"): 0, ("<=", "1"): 0,
          ("!=", "1"): 1, (">", "1"): 1, (">=", "2"): 1}
_MIRROR = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


class _Writes(Visitor):
    """Sizes set by MPI_Comm_size, and every other write or address-of per name."""

    def __init__(self) -> None:
        self.sizes: dict[str, list[str]] = {}  # s -> communicator texts
        self.other: dict[str, int] = {}  # name -> writes / &name besides the sizes
        self.locals: set[str] = set()
        self.self_dups: set[str] = set()  # h of MPI_Comm_dup(MPI_COMM_SELF, &h)
        self.names: dict[str, str] = {}  # the TU's handle names (handles.display)

    def _touch(self, e: c_ast.Node | None) -> None:
        while isinstance(e, c_ast.Cast):
            e = e.expr
        if isinstance(e, c_ast.ID):
            self.other[e.name] = self.other.get(e.name, 0) + 1

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name and "static" not in (node.storage or []) \
                and isinstance(node.type, c_ast.TypeDecl):
            self.locals.add(node.name)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self._touch(node.lvalue)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in WRITES_OPERAND:
            self._touch(node.expr)
        self.generic_visit(node)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        args = node.args.exprs if node.args is not None else []
        name = node.name.name if isinstance(node.name, c_ast.ID) else ""
        out = args[1] if len(args) == 2 else None
        if (name in ("MPI_Comm_size", "PMPI_Comm_size") and isinstance(out, c_ast.UnaryOp)
                and out.op == "&" and isinstance(out.expr, c_ast.ID)):
            self.sizes.setdefault(out.expr.name, []).append(positions.c_text(args[0]))
            self.generic_visit(args[0])  # its address-of is the size's own write
            return
        if name in _DUPS and isinstance(out, c_ast.UnaryOp) and out.op == "&" \
                and isinstance(out.expr, c_ast.ID) \
                and handles.display(positions.c_text(args[0]), self.names) == SELF:
            self.self_dups.add(out.expr.name)
            return
        if name in _FREES and len(args) == 1 and isinstance(args[0], c_ast.UnaryOp) \
                and args[0].op == "&" and isinstance(args[0].expr, c_ast.ID):
            return  # sets the handle to MPI_COMM_NULL
        self.generic_visit(node)


def _test(pred: c_ast.Node) -> tuple[str, int] | None:
    """(size variable, index of the alone successor) for ``s OP k`` / ``k OP s``; for a
    conjunction ``A && B``, the true edge when one conjunct's true edge is alone."""
    if not isinstance(pred, c_ast.BinaryOp):
        return None
    if pred.op == "&&":
        for part in (pred.left, pred.right):
            if (found := _test(part)) and found[1] == 0:
                return found
        return None
    for var, const, op in ((pred.left, pred.right, pred.op),
                           (pred.right, pred.left, _MIRROR.get(pred.op, ""))):
        if isinstance(var, c_ast.ID) and isinstance(const, c_ast.Constant) \
                and (op, const.value) in _ALONE:
            return var.name, _ALONE[op, const.value]
    return None


@functools.lru_cache(maxsize=128)
def _scan(body: c_ast.Node, names: tuple[tuple[str, str], ...] = ()) -> _Writes:
    """The writes of a function body (memoised: the rank-dependence walk, Algorithm 1
    and the findings all ask; AST nodes hash by identity)."""
    scan = _Writes()
    scan.names = dict(names)
    scan.visit(body)
    return scan


def one_member(body: c_ast.Node, names: dict[str, str]) -> set[str]:
    """C texts of the communicator handles that have one member wherever a collective
    on them is valid (module docstring): ``MPI_COMM_SELF``'s spellings and its local
    duplicates.  ``names``: the TU's handle names (Open MPI's expansions)."""
    scan = _scan(body, tuple(sorted(names.items())))
    return {SELF} | {h for h in scan.self_dups if h in scan.locals and not scan.other.get(h)}


def size_vars(body: c_ast.Node) -> dict[str, str]:
    """Size variable -> the C text of its communicator, for the locals that hold
    ``MPI_Comm_size`` of a communicator the function never writes (rule above)."""
    scan = _scan(body)
    return {s: comms[0] for s, comms in scan.sizes.items()
            if s in scan.locals and len(set(comms)) == 1 and not scan.other.get(s)
            and not scan.other.get(comms[0])}


def alone_test(pred: c_ast.Node, sizes: dict[str, str]) -> tuple[str, int] | None:
    """(communicator text, 0 for the true arm / 1 for the false arm) when one arm of a
    test of ``pred`` is taken only when that communicator has a single member."""
    found = _test(pred)
    return (sizes[found[0]], found[1]) if found and found[0] in sizes else None


def alone_edges(cfg: CFG, func: c_ast.FuncDef) -> dict[str, set[tuple[int, int]]]:
    """Communicator C text -> the CFG edges (branch, successor) taken only when that
    communicator has a single member (rule in the module docstring)."""
    sizes = size_vars(func.body)
    if not sizes:
        return {}
    edges: dict[str, set[tuple[int, int]]] = {}
    for node in cfg.nodes:
        test = _test(node.pred) if node.kind == "branch" and node.pred is not None else None
        if test and test[0] in sizes and len(set(node.succs)) == 2:
            edges.setdefault(sizes[test[0]], set()).add((node.id, node.succs[test[1]]))
    return edges


class _ArrayUses(Visitor):
    """Per file-scope name, whether some use of it is other than the ones
    ``self_dup_arrays`` allows."""

    def __init__(self, candidates: set[str], names: dict[str, str]) -> None:
        self.candidates = candidates
        self.names = names
        self.spoiled: set[str] = set()

    def _element(self, e: c_ast.Node | None) -> str | None:
        """``a`` of ``&a[i]``, for a candidate ``a``."""
        if isinstance(e, c_ast.UnaryOp) and e.op == "&" and isinstance(e.expr, c_ast.ArrayRef) \
                and isinstance(e.expr.name, c_ast.ID) and e.expr.name.name in self.candidates:
            return e.expr.name.name
        return None

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        args = node.args.exprs if node.args is not None else []
        name = node.name.name if isinstance(node.name, c_ast.ID) else ""
        kept = None
        if name in _DUPS and len(args) == 2 and self._element(args[1]) \
                and handles.display(positions.c_text(args[0]), self.names) == SELF:
            kept = args[1]
        elif name in _FREES and len(args) == 1 and self._element(args[0]):
            kept = args[0]
        if kept is not None:  # its index expression is an ordinary read
            assert isinstance(kept, c_ast.UnaryOp) and isinstance(kept.expr, c_ast.ArrayRef)
            self.visit(kept.expr.subscript)
            for a in args:
                if a is not kept:
                    self.visit(a)
            return
        self.generic_visit(node)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        self.visit(node.subscript)  # a read of an element: allowed
        if not (isinstance(node.name, c_ast.ID) and node.name.name in self.candidates):
            self.visit(node.name)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        target = node.lvalue
        while isinstance(target, c_ast.ArrayRef):
            target = target.name
        if isinstance(target, c_ast.ID) and target.name in self.candidates:
            self.spoiled.add(target.name)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        target = node.expr
        if node.op in WRITES_OPERAND:
            while isinstance(target, c_ast.ArrayRef):
                target = target.name
            if isinstance(target, c_ast.ID) and target.name in self.candidates:
                self.spoiled.add(target.name)
        self.generic_visit(node)

    def visit_ID(self, node: c_ast.ID) -> None:
        if node.name in self.candidates:  # the array itself: passed, copied, aliased
            self.spoiled.add(node.name)


@functools.lru_cache(maxsize=8)
def _self_dup_arrays(ast: c_ast.FileAST, names: tuple[tuple[str, str], ...]) -> frozenset[str]:
    candidates = {d.name for d in ast.ext if isinstance(d, c_ast.Decl) and d.name
                  and "static" in (d.storage or []) and isinstance(d.type, c_ast.ArrayDecl)
                  and d.init is None}
    if not candidates:
        return frozenset()
    uses = _ArrayUses(candidates, dict(names))
    for d in ast.ext:
        if isinstance(d, c_ast.FuncDef):
            uses.visit(d.body)
    return frozenset(candidates - uses.spoiled)


def self_dup_arrays(ast: c_ast.FileAST, names: dict[str, str]) -> frozenset[str]:
    """File-scope static arrays whose elements are duplicates of ``MPI_COMM_SELF`` or
    null (module docstring): a collective on ``a[i]`` has one member."""
    return _self_dup_arrays(ast, tuple(sorted(names.items())))
