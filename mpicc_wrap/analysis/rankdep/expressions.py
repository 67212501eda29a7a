"""Expressions: why an expression may evaluate differently on different processes,
with the side effects of evaluating it (writes, points-to, calls)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.analysis.rankdep import effects
from mpicc_wrap.analysis.rankdep.callback_calls import CallbackCalls
from mpicc_wrap.analysis.rankdep.communicators import handle_location, is_comm_null
from mpicc_wrap.analysis.rankdep.consensus import (
    TRUTH,
    Agreement,
    consensus_of,
    from_summary,
    truth_key,
    zero_compared,
)
from mpicc_wrap.analysis.rankdep.envbits import (
    BITS,
    bits_key,
    element_mask,
    env_bits,
    join_bits,
    merge_bits,
)
from mpicc_wrap.analysis.rankdep.exchanges import Arm, Exchange, Seen, record
from mpicc_wrap.analysis.rankdep.layouts import union_members
from mpicc_wrap.analysis.rankdep.lazyinit import flag_name
from mpicc_wrap.analysis.rankdep.locations import (
    NEW,
    Ctl,
    Deref,
    FunctionFacts,
    Global,
    Loc,
    Local,
    Param,
    Ret,
    Target,
    array_arg,
    callee,
    deref,
    uncast,
)
from mpicc_wrap.analysis.rankdep.owned import is_allocation, owner
from mpicc_wrap.analysis.rankdep.resets import Reset, assigns_any, constant, reset_test
from mpicc_wrap.analysis.rankdep.rootarm import copied, element, forget, pack, sent
from mpicc_wrap.analysis.rankdep.signs import Signs
from mpicc_wrap.analysis.visitor import INCREMENTS, Visitor
from mpicc_wrap.frontend import positions
from mpicc_wrap.model import FunctionSummary

__all__ = ["Expressions", "changed_locals", "join", "join_exits"]

# How a seed of each catalogue kind is described in a reason.
_KIND_REASON = {
    "rank": "depends on the process rank ({name} at {loc})",
    "p2p-recv": "depends on data received by {name} at {loc}",
}
_DEFAULT_KIND_REASON = "depends on a per-process result of {name} at {loc}"


def _source(name: str, nargs: int) -> tuple[bool, set[int]] | None:
    """For a per-process library function: (result is per-process, output arg indexes)."""
    entry = catalogue.rank_source(name)
    if entry is None:
        return None
    outs = set(entry.args)
    if entry.args_from is not None:
        outs |= set(range(entry.args_from, nargs))
    return entry.returns, outs


def _rank_env(e: c_ast.FuncCall, args: list[c_ast.Node]) -> bool:
    """True for getenv("PMI_RANK") and other launcher rank variables."""
    if callee(e) != "getenv" or len(args) != 1:
        return False
    arg = args[0]
    return (isinstance(arg, c_ast.Constant) and arg.type == "string"
            and catalogue.is_rank_env(arg.value.strip('"')))


def _sign_bits(mask: int) -> int:
    """A read of the bits ``mask`` of a value that integer promotion or a conversion
    may have sign-extended: a bit above position 7, 15 or 31 may be a copy of the
    sign bit of a ``char``, ``short`` or ``int`` (``(long) w & (1L << 40)``), so that
    sign bit is read too."""
    for bit in (7, 15, 31):
        if mask >> (bit + 1):
            mask |= 1 << bit
    return mask


def _address_of(arg: c_ast.Node) -> str | None:
    """``x`` for an argument ``&x`` (casts aside), else None."""
    arg = uncast(arg)
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ID):
        return arg.expr.name
    return None


def _flag_mask(e: c_ast.Assignment,
               named: Callable[[str], int | None] | None = None) -> int | None:
    """The bits ``x |= C``, ``x ^= C`` (``C``) or ``x &= C`` (``~C``) may change,
    ``C`` a constant expression (``named``: of enumerators too); None for any other
    assignment."""
    if e.op not in ("|=", "&=", "^="):
        return None
    c = int_expression(e.rvalue, named)
    return None if c is None else ~c if e.op == "&=" else c


def _arg_text(args: list[c_ast.Node], i: int | None) -> str:
    """C text of argument ``i`` ("" when there is none)."""
    return positions.c_text(args[i]) if i is not None and i < len(args) else ""


def _field_called(fn: c_ast.Node) -> str:
    """``.field`` for a call through a struct field (``p->ops.write(...)``,
    ``(*p->f)(...)``: prototypes.field_pointer_params), else ""."""
    while isinstance(fn, c_ast.UnaryOp) and fn.op == "*":
        fn = fn.expr
    return "." + fn.field.name if isinstance(fn, c_ast.StructRef) else ""


def join(a: dict[str, str], b: dict[str, str]) -> dict[str, str]:
    """The facts where two paths meet: a local is multi-valued if it is on either
    path; its truth is uniform (``consensus.TRUTH`` keys) only if it is on each path
    where the local is multi-valued; the bits it may differ in (``envbits.BITS``
    keys) are those of either path."""
    out = {**b, **a}
    for key in [k for k in out if k[0] == TRUTH]:
        name = key[1:]
        if name in a and key not in a or name in b and key not in b:
            del out[key]
    join_bits(out, a, b)
    return out


def changed_locals(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The locals whose facts differ between two environments: multi-valued in one
    only, or with a truth or bits fact gained, lost or changed."""
    keys = before.keys() ^ after.keys()
    keys |= {k for k in before.keys() & after.keys()
             if k[0] in (TRUTH, BITS) and before[k] != after[k]}
    return {k[1:] if k[0] in (TRUTH, BITS) else k for k in keys}


def join_exits(a: dict[str, str], b: dict[str, str], a_left: bool,
               b_left: bool) -> dict[str, str]:
    """``join`` at the end of an ``if`` whose arm ``a`` or ``b`` left the function or
    jumped to a label (``a_left``, ``b_left``: its facts went with the jump): only
    the other arm's facts reach the statements after it."""
    if a_left != b_left:
        return dict(b if a_left else a)
    return join(a, b)


class Expressions(CallbackCalls, Visitor):
    """``_value(e)``: None if ``e`` has one value on all ranks, else a short reason.
    Dispatch is ``analysis.visitor.Visitor``: ``visit_<Node>`` returns the reason;
    nodes without a method are judged by their children (``generic_visit``)."""

    STATEMENTS: frozenset[str] = frozenset()  # node types walked as statements

    def __init__(self, funcs: dict[str, FunctionFacts], global_scalars: set[str],
                 external: dict[str, FunctionSummary], loc: Callable[[int], str]) -> None:
        super().__init__(funcs, global_scalars)
        self._external = external
        self._loc = loc
        self._seen: dict[int, str | None] = {}  # id(expression) -> reason
        self._ever: dict[str, dict[str, str]] = {n: {} for n in funcs}
        self._env: dict[str, str] = {}
        self._entry: dict[str, str] = {}  # env at the innermost switch's entry
        # per enclosing switch or loop, innermost last: the env its breaks leave with (a
        # switch's), None for a loop (statements.visit_Case)
        self._breaks: list[dict[str, str] | None] = []
        self._case_jumped = False  # the case before ended in break/return/goto
        self._ctrl: str | None = None
        # The gate of writes to tracked locals: ``_ctrl`` less the multi-valued ``if``
        # tests, which gate those writes at their join instead (statements.visit_If);
        # per such ``if`` being walked, the tracked locals its arms wrote.
        self._env_ctrl: str | None = None
        self._phi: list[dict[str, int | None]] = []  # local -> bits written (None: all)
        self._entry_ctrl: str | None = None  # the function is called under this gate
        self._weak = 0
        # Scalar globals whose address the TU never takes (set by the solver), and of
        # those, the ones the function being walked assigned in a statement of its body
        # with no control statement around it, since the last call that may write
        # memory: name -> the reason of the value stored (None: the same everywhere).
        # Memory is flow-insensitive (locations.py); a global read right after the
        # function stored it is not: ``pass = TRUE; if (pass) ...`` (hdf5's tests).
        self._plain_globals: frozenset[str] = frozenset()
        self._assigned: dict[str, str | None] = {}
        self._nested = 0  # control statements around the statement being walked
        # The arms of the ifs being walked inside a per-process one, the exchange whose
        # shared outputs are being written, and which functions of the TU may run
        # collectives (exchanges.py)
        self._exchange_arms: list[Arm] = []
        self.arm_writes: dict[int, Seen] = {}  # id(test) -> exchanges.record at it
        self._exchange: Exchange | None = None
        self._element: tuple[str, str] | None = None  # ``buf[K]`` being assigned
        self._collecting: dict[str, bool] = {}
        # Relative solve (communicators.py): the handle location of the communicator
        # within which values are judged, the handle names of the MPI library, and per
        # function the texts of expressions uniform within it (split colours).
        self._within: Loc | None = None
        self._handle_names: dict[str, str] = {}
        self._colours: dict[str, set[str]] = {}
        self._signs: Signs | None = None  # set by the solver (signs.py)
        self._const_params: dict[str, frozenset[int]] = {}  # set by the solver
        # Under the success assumption (analysis/failures.py): id(test) -> which of its
        # outcomes happen only after a failure; such a test is single-valued.
        self._failures: dict[int, tuple[bool, bool]] = {}
        self._agreements: dict[str, Agreement | None] = {}  # callee -> ``_agreement``
        # Every reason met in the current function, when it has "alone" tests
        # (statements.py: an exit taken only when alone in a communicator)
        self._reasons_in: set[str] | None = None
        # Per function, the memory its own body wrote, and wrote per-process (not only
        # through its entry gate): its summary's ``writes`` and ``rank_writes``
        # (effects.py)
        self._writes: dict[str, set[Loc]] = {}
        self._rank_writes: dict[str, set[Loc]] = {}
        # ... and memory it wrote per-process in some bits only, with those bits
        self._rank_bits: dict[str, dict[Loc, int]] = {}
        # ... and the functions of the TU it calls under a per-process test of its own,
        # whose writes are per-process for its callers too (``solver._rank_tokens``)
        self._gated_calls: dict[str, set[str]] = {}
        # id(call through ``c ? f : g``) -> the calls of f and of g (``_either``)
        self._arms: dict[int, tuple[c_ast.Node, list[c_ast.FuncCall]] | None] = {}
        # (function, parameter) -> the functions every call binds it to (callbacks.py)
        self._callbacks: dict[tuple[str, str], tuple[str, ...]] = {}
        # (id(e), mask) while the operand ``e`` of ``e & MASK`` is read (``_masked``)
        self._mask: tuple[int, int] | None = None
        # Functions called as if from another file (``solver._detached``), with the
        # ``writes`` tokens of their call closure
        self._pinned: frozenset[str] = frozenset()
        self._pinned_writes: dict[str, list[str]] = {}
        # Calls through a parameter left to the callers (``callbacks.py``, summaries
        # only: ``solver._detached``), and whether the first solve met one to defer
        self._defer = False
        self.defers = False
        # ... what those calls hand the callback, by its argument position
        self._handed: dict[str, dict[int, set[Loc]]] = {}
        # ... and what each function writes but through such calls (``_pinned_writes``)
        self._own_writes: dict[str, set[Loc]] = {}
        self._through_param = False
        # Per-process gates being walked under, and the arms that reset a place to the
        # constant they test it against (resets.py)
        self._gates = 0
        self._resets: list[Reset] = []
        # The flags of the lazy initialisations being walked (lazyinit.py); whether a
        # walk wrote memory inside one; per function, the memory it wrote outside
        # them, and the functions of the TU it called inside and outside them
        # (``solver.init_writes``)
        self._inits: list[str] = []
        self._wrote_inits = False
        self._plain_writes: dict[str, set[Loc]] = {}
        self._init_calls: dict[str, set[str]] = {}
        self._plain_calls: dict[str, set[str]] = {}
        # Functions called as if from another file: the tokens of their ``_pinned_writes``
        # made in lazy initialisations only (``init_writes``), which no gate gates
        self._pinned_inits: dict[str, frozenset[str]] = {}
        # New memory (owned.py): the functions whose calls allocate (set by the solver);
        # per owned local, the gates it was last allocated under (serials of the
        # ``_gated`` frames being walked, and the gate); per function, the memory it
        # wrote as new memory and otherwise; per detached function, the tokens of its
        # ``_pinned_writes`` made only in new memory
        self._allocators: frozenset[str] = frozenset()
        self._allocated: dict[str, tuple[tuple[int, ...], str | None]] = {}
        self._frames: list[int] = []
        self._serial = 0
        self._new_writes: dict[str, set[Loc]] = {}
        self._old_writes: dict[str, set[Loc]] = {}
        self._pinned_new: dict[str, frozenset[str]] = {}
        # ... and what a detached function's arguments reach (``solver.arg_writes`` of
        # the first solve), asked only for a call with an argument pointing to
        # per-process memory, or a per-process argument to one that writes new memory
        # or has lazy initialisations; once each
        self._tied_of: Callable[[str], list[str] | None] | None = None
        self._tied_memo: dict[str, frozenset[str] | None] = {}

    def _stmt(self, s: c_ast.Node | None) -> dict[str, str]:
        raise NotImplementedError  # statements.Statements

    @contextmanager
    def _gated(self, reason: str | None, weak: bool = False,
               phi: bool = False, frame: int = 0) -> Iterator[None]:
        """Walk under the gate ``reason``; ``phi``: not for writes to tracked locals,
        which the caller gates at the join; ``frame``: the gate frame it continues
        (``_new_frame``; 0: a new one)."""
        saved, saved_env = self._ctrl, self._env_ctrl
        self._ctrl = saved or reason
        if not phi:
            self._env_ctrl = saved_env or reason
        self._weak += int(weak)
        self._gates += int(bool(reason))
        if reason:
            self._frames.append(frame or self._new_frame())
        try:
            yield
        finally:
            self._ctrl, self._env_ctrl = saved, saved_env
            self._weak -= int(weak)
            self._gates -= int(bool(reason))
            if reason:
                self._frames.pop()

    def _new_frame(self) -> int:
        """A serial for a gate frame: a write into new memory is ungated only under the
        frames its allocation was made under (owned.py)."""
        self._serial += 1
        return self._serial

    @contextmanager
    def _resetting(self, arm: c_ast.Node | None, test: c_ast.Node,
                   outer: str | None) -> Iterator[None]:
        """Walk the true ``arm`` of ``if (test)`` (already under its gate), which resets
        a place when ``test`` is a reset test (resets.py), the ``if`` is under no other
        per-process test (``outer``) and the arm assigns no variable of the place."""
        found = None if outer else reset_test(test, self._handle_names)
        if found is not None and assigns_any(arm, {found.variable}):
            found = None
        if found is not None:
            self._resets.append(found._replace(depth=self._gates))
        try:
            yield
        finally:
            if found is not None:
                self._resets.pop()

    def _reset_write(self, place: c_ast.Node, value: int | str | None) -> bool:
        """Storing ``value`` into ``place`` here resets it (resets.py): the innermost
        reset arm tests this place against this value, under no deeper gate."""
        top = self._resets[-1] if self._resets else None
        return (top is not None and value is not None and top.value == value
                and top.depth == self._gates and positions.c_text(place) == top.place)

    @contextmanager
    def _no_gates(self) -> Iterator[None]:
        """Write what another file's lazy initialisation writes (lazyinit.py): under no
        gate at all, not even the function's entry gate, and recorded as this
        function's lazy-initialisation writes too (its own ``init_writes``; the empty
        flag names no variable)."""
        saved = self._ctrl, self._env_ctrl, self._entry_ctrl
        self._ctrl = self._env_ctrl = self._entry_ctrl = None
        self._inits.append("")
        try:
            yield
        finally:
            self._ctrl, self._env_ctrl, self._entry_ctrl = saved
            self._inits.pop()

    def _flag_write(self, place: c_ast.Node) -> bool:
        """``place`` is the flag of a lazy initialisation being walked: no gate
        (lazyinit.py)."""
        return bool(self._inits) and flag_name(place) in self._inits

    @contextmanager
    def _ungated(self, reset: bool) -> Iterator[None]:
        """For a reset write (``reset``): not gated by the reset test (resets.py)."""
        saved = self._ctrl
        if reset:
            self._ctrl = None
        try:
            yield
        finally:
            self._ctrl = saved

    # -- values -------------------------------------------------------------------------

    def _value(self, e: c_ast.Node | None) -> str | None:
        """Reason why ``e`` is multi-valued (None: single-valued); applies side effects."""
        if e is None:
            return None
        r = (self.generic_visit(e) if type(e).__name__ in self.STATEMENTS
             else self.visit(e))
        if r and self._colours and self._func is not None and isinstance(
                e, (c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.ID)) and (
                positions.c_text(e) in self._colours.get(self._func.name, ())):
            r = None  # the split colour of the communicator judged against
        if r and id(e) in self._failures:
            r = None  # false on every process where nothing failed (analysis/failures.py)
        if r and self._reasons_in is not None:
            self._reasons_in.add(r)
        if not self.store.readonly:
            if r:
                self._seen[id(e)] = r
            else:
                self._seen.setdefault(id(e), None)
        return r

    def _test(self, e: c_ast.Node | None) -> str | None:
        """``_value`` of the test of an ``if`` or loop, whose truth alone matters: a
        value that differs but has the same truth everywhere (``consensus.py``) makes
        the test single-valued, and the condition is recorded so."""
        if e is None:
            return None
        before = self._seen.get(id(e))  # an earlier walk's reason stays (``_value``)
        if self._exchange_arms and not self.store.readonly:
            self.arm_writes[id(e)] = record(self._exchange_arms, e,
                                            self.arm_writes.get(id(e)))
        r = self._value(e)
        if r is None or self._truth_of(e, r) is not None:
            return r
        if not self.store.readonly:
            self._seen[id(e)] = before
        return None

    def _truth_of(self, e: c_ast.Node, r: str | None) -> str | None:
        """Why the truth of ``e`` may differ, ``r`` being why its value may: None when
        ``e`` (casts aside) is a tracked local or a field whose truth is uniform."""
        if r is None:
            return None
        inner = uncast(e)
        if isinstance(inner, c_ast.ID):
            kind, name = self._target(inner.name)
            if kind == "env" and isinstance(name, str) and truth_key(name) in self._env:
                return None
        elif isinstance(inner, c_ast.StructRef) and isinstance(uncast(inner.name), c_ast.ID):
            if self.store.get_truth(self._field(inner)) is None \
                    and self._struct_base(inner) is None:
                return None
        elif isinstance(inner, c_ast.FuncCall) and (fn := callee(inner)) is not None \
                and fn in self._funcs and fn not in self._pinned \
                and fn not in self._allocators \
                and (self._func is None or fn not in self._func.params):
            if self.store.get_truth(Ret(fn)) is None:  # what _call_defined returns
                return None
        return r

    def generic_visit(self, node: c_ast.Node) -> str | None:
        reason = None
        for child in node:
            if type(child).__name__ in self.STATEMENTS:
                self._stmt(child)
            else:
                reason = self._value(child) or reason
        return reason

    def visit_Constant(self, e: c_ast.Constant) -> str | None:
        return None

    def visit_Typename(self, e: c_ast.Node) -> str | None:
        return None

    visit_TypeOfExpression = visit_TypeOfDeclaration = visit_Typename

    def visit_Cast(self, e: c_ast.Cast) -> str | None:
        return self._value(e.expr)

    def visit_ID(self, e: c_ast.ID) -> str | None:
        kind, name = self._target(e.name)
        if kind == "env":
            return self._env_read(name, self._mask_of(e))  # type: ignore[arg-type]
        if isinstance(name, Global) and e.name in self._assigned:
            return self._assigned[e.name]
        return self.store.get(name, self._mask_of(e))  # type: ignore[arg-type]

    def _assign_global(self, place: c_ast.Node, reason: str | None, plain: bool) -> None:
        """Keep (``plain``: an ``=`` of a statement with no control statement around
        it, under no gate, not in an arm of ``?:`` or the right of ``&&``/``||``,
        which may not run) or forget what the function stored in ``place`` when it is
        one of ``_plain_globals`` (``_assigned``)."""
        if not isinstance(place, c_ast.ID) or place.name not in self._plain_globals:
            return
        if not isinstance(self._target(place.name)[1], Global):
            return  # a local of that name
        f = self._func
        if (plain and not self._nested and not self._ctrl and not self._weak
                and f and not f.has_goto):
            self._assigned[place.name] = reason
        else:
            self._assigned.pop(place.name, None)

    def visit_BinaryOp(self, e: c_ast.BinaryOp) -> str | None:
        if e.op == "&" and (masked := self._masked(e)) is not None:
            return masked[0]
        left = self._value(e.left)
        if e.op in ("&&", "||"):  # 0 or 1, by the truth of each side
            left = self._truth_of(e.left, left)
            with self._gated(left, weak=True):
                right = self._truth_of(e.right, self._value(e.right))
            return left or right
        right = self._value(e.right)
        if (left or right) and (side := zero_compared(e)) is not None:
            return self._truth_of(side, left if side is e.left else right)
        if self._within is not None and e.op in ("==", "!=") and self._null_test(e):
            return None  # constant on every member of the communicator
        if (left or right) and self._signs is not None and self._signs.sign_test(
                self._func.name if self._func else None, e):
            return None  # a rank is never negative (signs.py)
        return right or left

    def _masked(self, e: c_ast.BinaryOp) -> tuple[str | None] | None:
        """``x & MASK`` with ``MASK`` a constant: ``(reason,)`` of ``x`` read in those
        bits only (``Store.get``'s mask: a flag word whose other bits differ between
        processes, ``expressions._write_bits``); None when neither side is constant."""
        operand, mask = e.left, int_expression(e.right, self._enumerator)
        if mask is None:
            operand, mask = e.right, int_expression(e.left, self._enumerator)
        if mask is None or not self._bit_place(uncast(operand)):
            return None
        saved, self._mask = self._mask, (id(uncast(operand)), _sign_bits(mask))
        try:
            return (self._value(operand),)
        finally:
            self._mask = saved

    def _bit_place(self, e: c_ast.Node) -> bool:
        """``e`` names an integer object by its declared type: a variable, a field
        that shares its storage with no union member, or an element of a tracked local
        array (one word, ``envbits.py``).  Bits are only tracked there: through a
        pointer (``((char *) &w)[1] |= 1``) or another union member the same bit has
        another position, so such writes and reads take the whole word."""
        if isinstance(e, c_ast.ID) or isinstance(e, c_ast.ArrayRef) and self._env_array(
                e.name):
            return True
        return isinstance(e, c_ast.StructRef) and not union_members(self._field(e).name)

    def _mask_of(self, e: c_ast.Node) -> int | None:
        """The mask ``e`` is read under (``_masked``), if ``e`` is that operand."""
        m = self._mask
        return m[1] if m is not None and m[0] == id(e) else None

    def _element_mask(self, e: c_ast.ArrayRef, mask: int) -> int | None:
        """``mask`` in element ``e`` of a tracked array, in the array's one mask
        (``envbits.element_mask``); ``mask`` itself for an array in memory."""
        if not self._env_array(e.name) or self._func is None:
            return mask
        index = int_expression(e.subscript, self._enumerator)
        return element_mask(mask, index, self._func.arrays[e.name.name])  # type: ignore[attr-defined]

    def _enumerator(self, name: str) -> int | None:
        """The value of ``name`` if it is an enumerator of the TU no local of the
        function walked shadows (the solver knows them; none here)."""
        return None

    def _env_read(self, name: str, mask: int | None) -> str | None:
        """Why the tracked local ``name`` may differ, read in the bits ``mask`` (None:
        the whole word): not when it differs only in other bits (``envbits.py``)."""
        r = self._env.get(name)
        bits = env_bits(self._env, name) if r and mask is not None else None
        return None if bits is not None and not bits & mask else r  # type: ignore[operator]

    def _null_test(self, e: c_ast.BinaryOp) -> bool:
        """``h == MPI_COMM_NULL`` (either order) for the handle ``h`` judged against."""
        for h, other in ((e.left, e.right), (e.right, e.left)):
            if (handle_location(self._func, h) == self._within
                    and is_comm_null(other, self._handle_names)):
                return True
        return False

    def visit_UnaryOp(self, e: c_ast.UnaryOp) -> str | None:
        if e.op in ("sizeof", "_Alignof", "__alignof__"):
            return None
        if e.op == "&":
            return self._lvalue(e.expr)[1]
        if e.op in INCREMENTS:
            self._assign_global(uncast(e.expr), None, False)
            targets, where = self._lvalue(e.expr)
            r = self._value_of_targets(targets) or where
            self._write(targets, r, strong=False)
            return r or self._ctrl
        inner = self._value(e.expr)
        if e.op == "*":
            return self._place(e.expr, inner) or self.store.first(self._pointees(e.expr))
        if e.op == "!":
            return self._truth_of(e.expr, inner)
        return inner

    def visit_TernaryOp(self, e: c_ast.TernaryOp) -> str | None:
        cond = self._test(e.cond)
        arms = self._failures.get(id(e.cond))
        if arms is not None:  # only the arm a run without failures takes (failures.py)
            return self._value(e.iffalse if arms[0] else e.iftrue)
        with self._gated(cond, weak=True):
            t = self._value(e.iftrue)
            f = self._value(e.iffalse)
        return cond or t or f

    def visit_Assignment(self, e: c_ast.Assignment) -> str | None:
        r = self._value(e.rvalue)
        truthy = e.op == "=" and r is not None and self._truth_of(e.rvalue, r) is None
        if e.op == "=" and isinstance(place := uncast(e.lvalue), c_ast.ID):
            self._allocation(place.name, e.rvalue)
        targets, where = self._lvalue(e.lvalue)
        mask = _flag_mask(e, self._enumerator)
        if mask is not None and isinstance(e.lvalue, c_ast.ArrayRef):
            mask = self._element_mask(e.lvalue, mask)
        if mask is not None and self._bit_place(e.lvalue) and targets:
            return self._write_bits(targets, mask, where)
        if e.op != "=":
            r = r or self._value_of_targets(targets)
        r = r or where
        reset = e.op == "=" and not r and self._reset_write(
            e.lvalue, constant(e.rvalue, self._handle_names))
        self._assign_global(uncast(e.lvalue), r, e.op == "=")
        with self._ungated(reset or self._flag_write(e.lvalue)), self._copying(e):
            self._write(targets, r, strong=e.op == "=",
                        truthy=truthy and where is None)
            self._point(targets, self._pointees(e.rvalue))
            return r or self._ctrl

    @contextmanager
    def _copying(self, e: c_ast.Assignment) -> Iterator[None]:
        """Inside the arms of a per-process test, ``x = buf[K]`` copies a part of the
        shared output ``buf`` holds into ``x``, and ``buf[K] = x`` packs ``x`` for a
        root's broadcast (rootarm.py)."""
        if not self._exchange_arms or e.op != "=":
            yield
            return
        arm = self._exchange_arms[-1]
        here = self._nested == arm.level and not self._weak
        self._exchange = copied(e.rvalue, arm) if here else None
        self._element = element(e.lvalue)
        try:
            yield
        finally:
            self._exchange, self._element = None, None
        if here and self._func is not None:
            pack(arm, e.lvalue, e.rvalue, self._func.tracked)

    def visit_ArrayRef(self, e: c_ast.ArrayRef) -> str | None:
        sub = self._value(e.subscript)
        if self._env_array(e.name) and (mask := self._mask_of(e)) is not None:
            return sub or self._env_read(e.name.name,  # type: ignore[attr-defined]
                                         self._element_mask(e, mask))
        base = self._place(e.name, self._value(e.name))
        return sub or base or self.store.first(self._pointees(e.name))

    def visit_StructRef(self, e: c_ast.StructRef) -> str | None:
        base = self._struct_base(e)
        return self.store.get(self._field(e), self._mask_of(e)) or base

    def _struct_base(self, e: c_ast.StructRef) -> str | None:
        """Why the object ``e`` reads a field of may differ between processes."""
        if e.type == "->":
            return self._place(e.name, self._value(e.name)) or self.store.first(
                self._pointees(e.name))
        return self._value(e.name)

    def visit_ExprList(self, e: c_ast.ExprList) -> str | None:
        reasons = [self._value(x) for x in e.exprs]
        return reasons[-1] if reasons else None

    # -- writes -------------------------------------------------------------------------

    def _point(self, targets: list[Target], pointees: set[Loc]) -> None:
        if pointees:
            for _, name in targets:
                loc = self._key(name) if isinstance(name, str) else name
                self.store.add_pts(loc, pointees)

    def _value_of_targets(self, targets: list[Target]) -> str | None:
        for _, name in targets:
            r = self._env.get(name) if isinstance(name, str) else self.store.get(name)
            if r:
                return r
        return None

    def _lvalue(self, e: c_ast.Node) -> tuple[list[Target], str | None]:
        """Locations written by an assignment to ``e``, and the reason the written place
        itself differs between ranks (e.g. ``a[rank] = 0``)."""
        if isinstance(e, c_ast.ID):
            return [self._target(e.name)], None
        if isinstance(e, c_ast.ArrayRef):
            if self._env_array(e.name):  # one element of a tracked array: never strong
                return [("envel", e.name.name)], self._value(e.subscript)
            sub = self._value(e.subscript)
            where = sub or self._place(e.name, self._value(e.name))
            kind = NEW if self._new_place(e) else "loc"
            return [(kind, k) for k in sorted(self._pointees(e.name, True), key=str)], where
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            kind = NEW if self._new_place(e) else "loc"
            return ([(kind, k) for k in sorted(self._pointees(e.expr, True), key=str)],
                    self._place(e.expr, self._value(e.expr)))
        if isinstance(e, c_ast.StructRef):
            where = self._place(e.name, self._value(e.name)) if e.type == "->" \
                else self._lvalue(e.name)[1]
            kind = NEW if self._new_place(e) else self._field_kind(e)
            return [(kind, self._field(e))], where
        if isinstance(e, c_ast.Cast):
            return self._lvalue(e.expr)
        return [], self._value(e)

    def _owned(self, pointer: c_ast.Node) -> bool:
        """``pointer`` names an owned local of the function (owned.py)."""
        bare = uncast(pointer)
        return self._func is not None and isinstance(bare, c_ast.ID) \
            and bare.name in self._func.owned

    def _place(self, pointer: c_ast.Node, reason: str | None) -> str | None:
        """Why the object ``pointer`` points to may differ between processes, given why
        its value may: never for an owned local, which points to memory the call
        allocated on every process that has one (owned.py)."""
        return None if reason is None or self._owned(pointer) else reason

    def _new_place(self, e: c_ast.Node) -> bool:
        """The place ``e`` is in memory the call allocated, and the walk is under the
        gates the allocation was made under (owned.py)."""
        f = self._func
        name = owner(e, f.owned) if f is not None and f.owned else None
        return name is not None and self._allocated.get(name) == (
            tuple(self._frames), self._ctrl)

    def _allocation(self, name: str, value: c_ast.Node | None) -> None:
        """``name = value``: when it allocates into an owned local, remember the gates
        (``_new_place``)."""
        f = self._func
        if f is not None and name in f.owned and is_allocation(value, self._allocators):
            self._allocated[name] = (tuple(self._frames), self._ctrl)

    def _field_kind(self, e: c_ast.StructRef) -> str:
        """The target kind of a write to the field ``e`` (``locations.Target``):
        ``param->f`` is memory the caller passed ("ploc:param", gated by the calls
        that pass it, ``_outside``), ``s.f`` of a local struct ``s`` of automatic
        storage memory of this call that dies with it ("sloc"); neither is gated by
        the gate the function is called under (``Scope._is_local_key``): pnetcdf's
        ``ncmpio_hdr_put_NC``, called by rank 0 only, fills a local
        ``putbuf.safe_mode``, which made every ``safe_mode`` field per-process.  No
        caller sees an "sloc" write, so the function's summary does not list it
        (``_write``): listed as ``f:comm:0``, a caller in another file that calls
        ``ncmpio_hdr_put_NC`` under ``rank == 0`` made every ``comm`` field
        per-process (pnetcdf's ``ncmpio_enddef.c``)."""
        f, base = self._func, e.name
        if f is None or not isinstance(base, c_ast.ID):
            return "loc"
        if e.type == "->":
            return f"ploc:{base.name}" if base.name in f.params else "loc"
        return "sloc" if base.name in f.locals and base.name not in f.statics else "loc"

    def _write(self, targets: list[Target], reason: str | None, strong: bool,
               mask: int | None = None, truthy: bool = False) -> None:
        """Write ``targets``, per-process when ``reason`` or the gate; ``mask``: only
        those bits (``_write_bits``; of a tracked local, ``envbits.py``); ``truthy``:
        the value, per-process for ``reason``, has the same truth everywhere
        (``consensus.py``), which a strong write under no gate keeps."""
        value, local = reason, reason or self._env_ctrl
        reason = reason or self._ctrl
        truthy = truthy and strong and not self._weak and not self._ctrl \
            and not self._entry_ctrl and mask is None
        record = self._func is not None and not self.store.readonly
        old: list[Loc] = []
        new: list[Loc] = []
        for kind, name in targets:
            if not isinstance(name, str):
                fresh = kind == NEW  # under the gates of its allocation: none (owned.py)
                why = value if fresh else reason or self._outside(kind, name)
                if why:
                    self.store.mark(name, why, mask, truthy)
                if isinstance(name, Deref) and isinstance(name.base, Local):
                    self._through(name.base)
                if record and kind != "sloc":
                    (new if fresh else old).append(name)
                continue
            if self._phi:
                self._phi[-1][name] = merge_bits(self._phi[-1].get(name, 0), mask)
            if self._exchange_arms:
                arm = self._exchange_arms[-1]
                arm.last[name] = self._exchange if strong and self._nested == arm.level \
                    else None
                forget(self._exchange_arms, name, self._element)
            if local:
                self._taint(name, local, mask)
                if truthy and not self._env_ctrl and kind != "envel":
                    self._env[truth_key(name)] = local
            elif strong and not self._weak and kind != "envel":
                self._env.pop(name, None)
                self._env.pop(truth_key(name), None)
                self._env.pop(bits_key(name), None)
            else:  # a write that may leave another value: its truth is not known
                self._env.pop(truth_key(name), None)
                if mask is None and not strong:  # x += 1 of a word that differs in bits
                    self._env.pop(bits_key(name), None)
        if old or new:
            self._record_writes(old, new, value, reason, mask)

    def _write_memory(self, locs: tuple[Loc, ...], value: str | None,
                      mask: int | None = None) -> None:
        """``_write`` of memory no local of the walk reaches (the fields and globals
        a summary names, ``effects.split``): the gate of each is the same, the
        function's own and then its entry gate (``_outside``), so the locations are
        marked and recorded in one pass.  A call of an HDF5 function writes hundreds
        of them at every walk (``t_filters_parallel.c``: 360,000 in one analysis)."""
        if not locs:
            return
        reason = value or self._ctrl
        if why := reason or self._entry_ctrl:
            for loc in locs:
                self.store.mark(loc, why, mask)
        if self._func is not None and not self.store.readonly:
            self._record_writes(locs, (), value, reason, mask)

    def _record_writes(self, old: Sequence[Loc], new: Sequence[Loc], value: str | None,
                       reason: str | None, mask: int | None) -> None:
        """Note, for the summary, the current function's writes to memory: ``old``,
        per-process with ``reason`` (``value`` or a gate), and ``new`` memory
        (``owned.py``), per-process with ``value`` only; what it writes, with or
        without its own callers' gates, and per-process as a whole or in the bits
        of ``mask``."""
        fn = self._func.name if self._func is not None else ""
        both = [*old, *new] if new else old
        self._writes.setdefault(fn, set()).update(both)
        if self._inits:
            self._wrote_inits = True
        else:
            self._plain_writes.setdefault(fn, set()).update(both)
        if not self._through_param:
            self._own_writes.setdefault(fn, set()).update(both)
        if new:
            self._new_writes.setdefault(fn, set()).update(new)
        if old:
            self._old_writes.setdefault(fn, set()).update(old)
        ranked = [*(old if reason else ()), *(new if value else ())]
        if ranked and mask is None:
            self._rank_writes.setdefault(fn, set()).update(ranked)
        elif ranked and mask is not None:
            bits = self._rank_bits.setdefault(fn, {})
            for name in ranked:
                bits[name] = bits.get(name, 0) | mask

    def _through(self, base: Local) -> None:
        """A write to memory ``base`` points to: when ``base`` is a parameter, its
        function writes through it (the flag ``Ctl(F()*i)``, which
        ``CallbackCalls._run_back`` reads; also from a function it hands the pointer
        to, whose pointees include ``*base``: ``PointsTo._load``)."""
        f = self._funcs.get(base.fn)
        if f is not None and base.name in f.params:
            self.store.flag(Ctl(f"{base.fn}()*{f.params.index(base.name)}"),
                            "writes through its parameter")

    def _write_bits(self, targets: list[Target], mask: int, where: str | None) -> str | None:
        """``x |= C``, ``x &= C``, ``x ^= C`` with ``C`` constant, ``x`` in memory: bit
        ``i`` of the result is a function of bit ``i`` of ``x`` and of ``C``, so
        processes that all make the write keep every bit they agreed on, and when
        only some make it (a per-process gate), or make it at different places
        (``a[rank] |= 1``), only the bits of ``mask`` (``_flag_mask``) may come to
        differ.  pnetcdf sets ``ncp->flags |= NC_NDIRTY`` when a process's own record
        count grew, in independent mode; as a whole-word write it made every later
        ``ncp->flags & NC_MODE_INDEP`` per-process.  Callers in other files learn the
        bits from the summary's ``rank_bits`` (``_write_ranked``)."""
        self._write(targets, where, strong=False, mask=mask)
        return self._value_of_targets(targets) or where or self._ctrl

    def _write_ranked(self, summary: FunctionSummary | None, ranked: list[str],
                      args: list[c_ast.Node], shared: set[int], seed: str) -> None:
        """A callee's ``rank_writes`` (effects.py tokens): whole locations, and those
        its ``rank_bits`` says it leaves per-process in some bits only, as those bits
        (pnetcdf's ``ncmpio_begin_indep_data`` sets a mode bit of ``ncp->flags``
        under a per-process test; as a whole word it made the other bits of every
        ``NC`` per-process in its callers' files)."""
        bits = summary.rank_bits if summary is not None else {}
        self._write_summary([t for t in ranked if t not in bits], args, shared, seed)
        for token in ranked:
            if token in bits:
                self._write_summary([token], args, shared, seed, mask=bits[token])

    def _outside(self, kind: str, loc: Loc) -> str | None:
        """The gate of a write to ``loc`` as the function's callers see it: its entry
        gate for memory of the callers'; for a field of ``param->`` ("ploc:param"),
        the gate of the calls that pass ``param`` a pointer they do not track
        themselves (``_call_defined``).  Before the fourteenth session such fields
        were never gated: ``if (rank == 0) mark_dirty(st); if (st->flags)
        MPI_Barrier(comm);`` was silent (``buggy_field_set_in_callee_under_rank_test.c``);
        a caller passing ``&x`` of a tracked local still gates ``x`` itself, flow by
        flow (``if (rank == 0) read_cfg(&c); MPI_Bcast(&c, ...); if (c.iters)``)."""
        if kind.startswith("ploc:") and self._func is not None:
            return self.store.get(Ctl(f"{self._func.name}.{kind[5:]}"))
        return None if self._is_local_key(kind, loc) else self._entry_ctrl

    def _taint(self, name: str, reason: str, bits: int | None = None) -> None:
        """The tracked local ``name`` is multi-valued from here on, and so may be its
        truth; ``bits``: only in those bits besides those it already differed in (None:
        in any, ``envbits.py``)."""
        mask = merge_bits(env_bits(self._env, name), bits)
        self._env.setdefault(name, reason)
        self._env.pop(truth_key(name), None)
        if mask is None:
            self._env.pop(bits_key(name), None)
        else:
            self._env[bits_key(name)] = str(mask)
        if self._func and not self.store.readonly:
            self._ever[self._func.name].setdefault(name, reason)

    # -- calls --------------------------------------------------------------------------

    def _agreement(self, call: c_ast.FuncCall) -> Agreement | None:
        """What a call of a function of this TU or of a summary votes
        (``consensus.consensus_of``), if it is such a function."""
        name = callee(call)
        if name is None:
            return None
        if name not in self._agreements:
            f = self._funcs.get(name)
            summary = self._external.get(name)
            found = consensus_of(f.body, f.params, self._handle_names) if f is not None \
                else from_summary(summary.agreement) if summary is not None else None
            self._agreements[name] = found
        return self._agreements[name]

    def visit_FuncCall(self, e: c_ast.FuncCall) -> str | None:
        result = self._call(e)
        if self._exchange_arms and catalogue.lookup(callee(e) or "") is None \
                and self._collects(callee(e)):
            self._arm_event()  # a call that may run collectives takes a position
        if self._assigned and not catalogue.keeps_globals(callee(e)):
            self._assigned.clear()  # it may write them
        return result

    def _call(self, e: c_ast.FuncCall) -> str | None:
        name = callee(e)
        if name is None and (either := self._either(e)) is not None:
            cond = self._value(either[0])
            with self._gated(cond, weak=True):
                results = [self._value(call) for call in either[1]]
            return cond or next((r for r in results if r), None)
        if name is not None and (bound := self._bound(e, name)):
            results = [self._value(call) for call in bound]
            return next((r for r in results if r), None)
        args = list(e.args.exprs) if e.args is not None else []
        values = [self._value(a) for a in args]
        if name is not None and (k := self._own_param(name)) is not None and self._deferred(
                k, {i: self._out(a) for i, a in enumerate(args)},
                any(values) or bool(self._ctrl or self._entry_ctrl)):  # callbacks.py
            return next((r for r in values if r), None) or self._pointed(args, True, False)
        if name is not None and name in self._funcs:
            result = self._call_defined(name, args, values)
            return None if name in self._allocators else result  # owned.py
        source = _source(name, len(args)) if name else None
        if source is not None or _rank_env(e, args):
            return self._call_source(e, args, source or (True, set()))
        entry = catalogue.lookup(name) if name else None
        if entry is not None:
            return self._call_mpi(e, entry, args)
        fn = None if name else self._value(e.name)
        summary = self._external.get(name or "")
        read = catalogue.read_args(name or "") if summary is None else None
        derived = next((r for r in values if r), None) or fn or self._pointed(
            args if read is None else [a for i, a in enumerate(args) if i in read], True,
            summary is not None)
        ranked = summary.rank_writes if summary is not None else None
        result = derived
        if summary is not None and (summary.returns_rank
                                    or effects.RETURNED_TOKEN in (ranked or ())):
            result = derived or self._seed(e, f"depends on the process rank (returned by "
                                              f"{name}() at {{loc}})")
            if ranked is None:  # a summary of a version without rank_writes
                derived = result
        shared = set(summary.shared_outputs) if summary is not None else set()
        consts = self._const_params.get(name or _field_called(e.name), frozenset())
        if not catalogue.reads_only(name or ""):
            if summary is None and (only := catalogue.written_args(name or "")) is not None:
                consts = consts | frozenset(range(len(args))) - only
            mod = summary.writes if summary is not None else None
            self._through_param = name is not None and self._own_param(name) is not None
            for i, a in enumerate(args):
                if i in consts:  # declared const T *: not written (prototypes.py)
                    continue
                if i in shared:  # a collective's result, equal on all ranks (outputs.py)
                    self._write(self._out(a), None, strong=True)
                elif mod is None or effects.EVERYTHING_TOKEN in mod:
                    self._write(self._out(a), derived, strong=False)
            self._through_param = False
            if mod and effects.EVERYTHING_TOKEN not in mod:  # what it may write, only
                tied = set(mod if summary is None or summary.arg_writes is None
                           else summary.arg_writes)
                own = self._own_memory(args) if derived and not (any(values) or fn) \
                    else None
                # made in lazy initialisations only, from what is the same everywhere
                inits = {t for t in summary.init_writes if not (derived and t in tied)} \
                    if summary is not None else set()
                new = set(summary.new_writes) if summary is not None else set()
                apart = inits | new  # once: not per token (O(tokens²) on HDF5's)
                if reached := [t for t in mod if t in tied and t not in apart]:
                    self._write_tied(reached, args, shared | consts, derived, own)
                if alike := [t for t in mod if t not in tied and t not in apart]:
                    self._write_summary(alike, args, shared | consts, None)  # any args
                if made := [t for t in mod if t in inits]:
                    with self._no_gates():  # lazy initialisations (lazyinit.py)
                        self._write_summary(made, args, shared | consts, None)
                self._write_new(mod, new, tied, inits, args, shared | consts, derived)
        if summary is not None and summary.calls_params:
            handed = {int(i): self._handed_targets(t, args)
                      for i, t in summary.callback_writes.items()}
            back = self._call_backs(e, name or "", summary.calls_params, args, values,
                                    handed, {
                int(i) for i, t in summary.callback_writes.items()
                if effects.RETURNED_TOKEN in t}, set(summary.callback_rank))
            result = result or back
        if summary is not None and summary.callbacks and (
                unknown := self._unbound(summary, args)):
            result = result or unknown
        if ranked:
            seed = self._seed(e, f"depends on the process rank (written by {name}() at "
                                 f"{{loc}})")
            if effects.EVERYTHING_TOKEN in ranked:
                for a in args:
                    self._write(self._out(a), seed, strong=False)
            else:
                self._write_ranked(summary, ranked, args, shared | consts, seed)
        if summary is not None and summary.uniform_return or (
                name in self._allocators and not (summary and summary.returns_rank)):
            return None  # the same whatever the arguments; new memory (owned.py)
        return result

    def _write_new(self, mod: list[str], new: set[str], tied: set[str], inits: set[str],
                   args: list[c_ast.Node], skip: set[int] | frozenset[int],
                   derived: str | None) -> None:
        """What another file's function writes only into memory the call allocates
        (``new``: its summary's ``new_writes``, owned.py): under none of this call's
        gates, per-process only where the value is (an argument it is tied to)."""
        made = [t for t in mod if t in new and t not in inits]
        self._write_new_tokens([t for t in made if t in tied], args, skip, derived)
        self._write_new_tokens([t for t in made if t not in tied], args, skip, None)

    def _write_new_tokens(self, tokens: list[str], args: list[c_ast.Node],
                          skip: set[int] | frozenset[int], why: str | None) -> None:
        """Write the locations of summary ``tokens`` as new memory (owned.py): no gate,
        per-process with ``why`` only."""
        if tokens:
            self._write([(NEW, loc) for _, loc in self._summary_targets(tokens, args, skip)],
                        why, strong=False)

    def _either(self, e: c_ast.FuncCall) -> tuple[c_ast.Node, list[c_ast.FuncCall]] | None:
        """``(c ? f : g)(args)`` with ``f`` and ``g`` functions (not variables): the test
        and a call of each, walked as the two calls under the test, each with what the
        TU knows of it (its definition or summary).  Scotch picks its point-to-point or
        collective variant so (``((flagval & DGRAPHCOMMPTOP) != 0 ? dgraphBand2Ptop :
        dgraphBand2Coll)(grafptr, ...)``); as a call through an unknown pointer it was
        assumed to write per-process data through every argument, the graph object
        among them.  The synthetic calls are made once, so that facts keyed by node
        stay put across walks."""
        if id(e) not in self._arms:
            fn = uncast(e.name)
            arms = [uncast(fn.iftrue), uncast(fn.iffalse)] if isinstance(
                fn, c_ast.TernaryOp) else []
            known = arms and all(isinstance(a, c_ast.ID) and self._is_function(a.name)
                                 for a in arms)
            self._arms[id(e)] = (fn.cond, [c_ast.FuncCall(c_ast.ID(a.name, a.coord), e.args,
                                                          e.coord) for a in arms]
                                 ) if known else None
        return self._arms[id(e)]

    def _is_function(self, name: str) -> bool:
        """``name`` is a function of the TU, or one it declares (not a variable)."""
        f = self._func
        return (name in self._funcs or self._layouts.is_function(name)) and not (
            f is not None and name in f.locals)

    def _summary_targets(self, tokens: list[str], args: list[c_ast.Node],
                         skip: set[int] | frozenset[int]) -> list[Target]:
        """The locations of this call that another TU's summary names
        (``writes``/``rank_writes`` tokens, effects.py), but parameters in ``skip``."""
        memory, params = effects.split(tuple(tokens))
        return [("loc", loc) for loc in memory] + self._param_targets(params, args, skip)

    def _param_targets(self, params: tuple[tuple[int, int], ...], args: list[c_ast.Node],
                       skip: set[int] | frozenset[int]) -> list[Target]:
        """What the arguments of this call point to, ``(parameter, depth)`` of
        ``effects.split``, but parameters in ``skip``."""
        out: list[Target] = []
        for i, depth in params:
            if i < len(args) and i not in skip:
                out += self._deeper(self._out(args[i]), depth - 1)
        return out

    def _write_summary(self, tokens: list[str], args: list[c_ast.Node],
                       skip: set[int] | frozenset[int], why: str | None,
                       mask: int | None = None) -> None:
        """``_write`` of ``_summary_targets``: the fields and globals in one pass
        (``_write_memory``), then what the arguments reach."""
        memory, params = effects.split(tuple(tokens))
        self._write_memory(memory, why, mask)
        if params:
            self._write(self._param_targets(params, args, skip), why, strong=False,
                        mask=mask)

    def _own_memory(self, args: list[c_ast.Node]) -> int | None:
        """The one argument whose memory makes a call per-process, when no other does:
        a pointer (not ``&x``, not a tracked local array) to memory that may differ
        between processes, the other arguments pointing to none (``_write_tied``)."""
        if any((x := _address_of(a)) is not None and self._env.get(x) for a in args):
            return None  # &x of a per-process tracked local (``_pointed``)
        found = [i for i, a in enumerate(args) if self.store.first(self._pointees(a))]
        if len(found) != 1 or _address_of(args[found[0]]) is not None \
                or self._env_array(args[found[0]]):
            return None
        return found[0]

    def _write_tied(self, tokens: list[str], args: list[c_ast.Node],
                    skip: set[int] | frozenset[int], why: str | None, own: int | None
                    ) -> None:
        """Write the locations of ``tokens`` (``_summary_targets``), those the
        arguments reach, per-process with ``why``; with ``own`` (``_own_memory``: the
        call is per-process only through the memory that argument points to), a write
        through that argument is per-process in the objects that differ only.  Every
        process passes the same object (the pointer is single-valued), and the callee
        computes from memory the arguments reach; so an object that is the same on
        every process is written alike.  hypre's ``hypre_Free(matrix, loc)`` writes
        through ``matrix`` (a callback may free it); ``matrix`` may point, in its
        file, to another function's per-process object, and the write made the matrix
        of every caller of ``hypre_ParCSRMatrixDestroy`` per-process as a whole, and
        every field read through it."""
        base = args[own] if own is not None and own not in skip else None
        mine = {t: p[2] for t in tokens if base is not None
                and (p := effects.parse(t)) is not None and p[0] == "p" and int(p[1]) == own}
        if base is None or not mine:
            self._write_summary(tokens, args, skip, why)
            return
        targets = self._summary_targets([t for t in tokens if t not in mine], args, skip)
        # all written (gates), the objects that differ
        self._write(targets + self._summary_targets(list(mine), args, skip), None,
                    strong=False)
        differ: list[Target] = [("loc", loc) for loc in sorted(
            self._pointees(base), key=str) if self.store.get(loc)]
        for depth in mine.values():
            targets += self._deeper(differ, depth - 1)
        self._write(targets, why, strong=False)

    def _deeper(self, targets: list[Target], extra: int) -> list[Target]:
        """``targets`` followed ``extra`` more dereferences (a tracked local stays
        itself: its value carries what it points to)."""
        out: list[Target] = []
        for kind, name in targets:
            loc = name
            if not isinstance(loc, str):
                for _ in range(extra):
                    loc = deref(loc)
            out.append((kind, loc))
        return out

    def _call_defined(self, name: str, args: list[c_ast.Node], values: list[str | None]
                      ) -> str | None:
        f = self._funcs[name]
        gate = self._ctrl or self._entry_ctrl
        called = [k for k in range(len(args)) if self.store.flagged(Ctl(f"{name}()#{k}"))]
        if called:
            self.store.reads.add(Ctl(f"{name}()@"))  # _handed: woken when it grows
            self._call_backs(args[called[0]], name, called, args, values, {
                i: [("loc", loc) for loc in sorted(locs, key=str)]
                for i, locs in self._handed.get(name, {}).items()}, set(),
                {k for k in called if self.store.flagged(Ctl(f"{name}()#{k}!"))})
        if self._func is not None and not self.store.readonly:
            split = self._init_calls if self._inits else self._plain_calls
            split.setdefault(self._func.name, set()).add(name)
        if name in self._pinned:
            return self._call_detached(name, args, values, gate)
        if gate:  # its writes to non-local memory happen on some ranks only
            self.store.mark(Ctl(name), gate)
        if self._ctrl and self._func is not None and not self.store.readonly:
            self._gated_calls.setdefault(self._func.name, set()).add(name)
        for i, (arg, r) in enumerate(zip(args, values, strict=True)):
            if i < len(f.params) and f.params[i]:
                param = Local(name, f.params[i])
                if r:
                    self.store.mark(param, r)
                    self.store.mark(Param(name, i), r)
                if not self._exchanged(arg) and (fields := self._arg_gate(arg)):
                    self.store.mark(Ctl(f"{name}.{f.params[i]}"), fields)  # _outside
                self._pass_pointer(param, arg)
        return self.store.get(Ret(name))

    def _pointed(self, args: list[c_ast.Node], memory: bool, locals_too: bool
                 ) -> str | None:
        """Why data an argument points to may differ between processes: with
        ``memory`` the memory it points to; with ``locals_too`` the tracked local
        ``x`` of an ``&x``.  The latter for a function with a summary (``ext(&x)``,
        a per-process ``x``, a summary saying it writes nothing: before, a
        single-valued result, though the callee may read ``*p``) and for a detached
        one, whose own walk reads memory from the store.  Not for an unknown
        function, where ``&x`` is the out-parameter of a getter (MPICH's tests:
        ``while (MTestGetIntracomm(&comm, ...))`` after ranks outside the last
        communicator got ``MPI_COMM_NULL``); that rule stays as it was, an
        assumption the README states."""
        for a in args:
            x = _address_of(a)
            if locals_too and x is not None and self._exchanged(a) and (
                    r := self._env.get(x)):
                return r
            if memory and (r := self.store.first(self._pointees(a))):
                return r
        return None

    def _call_detached(self, name: str, args: list[c_ast.Node], values: list[str | None],
                       gate: str | None) -> str | None:
        """A call of a function detached from its callers (``solver._detached``),
        applied as a caller in another file applies its summary: what its closure
        writes is per-process when an argument (or a tracked local passed as ``&x``)
        or the gate is; its result when an argument or its own result is.  So is, when
        an argument points to memory that differs between processes, the result and
        what the closure writes from its arguments (``arg_writes``): the callee's own
        walk reads only the argument's memory (``PointsTo``).  Before that rule its
        walk read the caller's memory, and the caller's closure took its per-process
        writes; only those from the arguments are, not all (fftw3's
        ``mkproblem_dft_d(sz, ...)`` calls ``mkproblem_dft`` on a tensor with
        per-process fields; all of what ``mkproblem_dft`` writes became per-process
        in ``mkproblem_dft_d``'s summary).  A tracked local passed as ``&x`` still
        takes what the callee writes through that parameter per-process by itself."""
        f = self._funcs[name]
        derived = next((r for r in values if r), None) or self._pointed(args, False, True)
        pointed = None if derived else self._pointed(args, True, False)
        if derived or pointed or gate:  # _write adds the gates, as for the caller's own
            self._detached_writes(name, args, derived, pointed, gate)
        for i, arg in enumerate(args):
            x = _address_of(arg)
            if i < len(f.params) and f.params[i] and x is not None and self._exchanged(arg):
                self._write([("env", x)], self.store.get(deref(Local(name, f.params[i]))),
                            strong=False)
        return derived or pointed or self.store.get(Ret(name))

    def _detached_writes(self, name: str, args: list[c_ast.Node], derived: str | None,
                         pointed: str | None, gate: str | None) -> None:
        """What ``_call_detached`` writes: everything the closure writes, per-process
        with ``derived``; the writes from the arguments with ``pointed``; the rest
        under the gates only, but what lazy initialisations make from something else
        (the package's init flag of hdf5's ``FUNC_ENTER``, set to TRUE), as ``_call``
        applies another file's summary; new memory under no gate (``_write_new``)."""
        tokens = self._pinned_writes.get(name, [])
        new = self._pinned_new.get(name, frozenset())
        inits = self._pinned_inits.get(name, frozenset())
        asked = pointed or derived and (inits or new)  # only then are they read below
        tied = self._reached_by_arguments(name) if asked else None
        from_args = [t for t in tokens if tied is None or t in tied]
        if derived:
            tokens = [t for t in tokens if t not in inits or tied is None or t in tied]
        else:
            tokens = [t for t in tokens if t not in inits]
            if pointed:
                self._write(self._summary_targets([t for t in from_args if t not in new],
                                                  args, frozenset()), pointed, strong=False)
        if derived or gate:
            self._write(self._summary_targets([t for t in tokens if t not in new], args,
                                              frozenset()), derived, strong=False)
        if new and (why := derived or pointed):
            self._write_new_tokens([t for t in from_args if t in new], args, frozenset(),
                                   why)

    def _reached_by_arguments(self, name: str) -> frozenset[str] | None:
        """The ``arg_writes`` tokens of the detached function ``name`` (None: unknown)."""
        if name not in self._tied_memo:
            tokens = self._tied_of(name) if self._tied_of is not None else None
            self._tied_memo[name] = None if tokens is None else frozenset(tokens)
        return self._tied_memo[name]

    def _arg_gate(self, arg: c_ast.Node) -> str | None:
        """The gate under which a callee's writes to the fields behind the pointer
        ``arg`` happen (``_outside``): this call's own gate; else, for the caller's
        parameter ``p``, the gate its own callers pass ``p`` under (``Ctl(f.p)``:
        ``if (rank == 0) load(&c)`` with ``load(c) { read_cfg(c); }`` gates nothing
        beyond ``c`` itself, which ``main`` tracks flow by flow, so a broadcast of
        ``c`` afterwards still makes ``c.iters`` single-valued); for the address of a
        local, nothing (memory of this call); else the function's entry gate.  Nothing
        either for memory the call allocated under the gates being walked (owned.py):
        ``v = malloc(...); init(v);`` on rank 0 alone fills an object only rank 0 has."""
        if self._new_place(c_ast.UnaryOp("*", arg)):
            return None
        if self._ctrl:
            return self._ctrl
        arg, f = uncast(arg), self._func
        if f is not None and isinstance(arg, c_ast.ID) and arg.name in f.params:
            return self.store.get(Ctl(f"{f.name}.{arg.name}"))
        if f is not None and _address_of(arg) in f.locals:
            return None  # memory of this call
        return self._entry_ctrl

    def _exchanged(self, arg: c_ast.Node) -> bool:
        """``&x`` of a tracked local (casts aside): ``_pass_pointer`` gates ``x``."""
        f = self._func
        return f is not None and _address_of(arg) in f.tracked

    def _pass_pointer(self, param: Local, arg: c_ast.Node) -> None:
        """``&x`` of a tracked local: x and the callee's ``*param`` exchange values
        (x may be written by the call); any other pointer: the param points to it (what
        the callee writes through it under a gate, its walk marks: ``Ctl``)."""
        name = _address_of(arg)
        if name is not None and self._exchanged(arg):
            if self._env.get(name):
                self.store.mark(deref(param), self._env[name])
            self._write([("env", name)], self.store.get(deref(param)), strong=False)
        else:  # the callee's own writes through it are gated by Ctl(callee)
            self.store.add_pts(param, self._pointees(arg))

    def _call_source(self, e: c_ast.FuncCall, args: list[c_ast.Node],
                     source: tuple[bool, set[int]]) -> str | None:
        reason = self._seed(e, "depends on {name}(), which differs between processes "
                               "(at {loc})")
        returns, outs = source
        for i in sorted(outs):
            if i < len(args):
                self._write(self._out(args[i]), reason, strong=False)
        return reason if returns else None

    def _arm_event(self) -> int | None:
        """A collective (or a call that may run one) of the innermost arm being walked:
        its position on the arm's straight line, None off it (exchanges.py)."""
        arm = self._exchange_arms[-1]
        if arm.made is not None and self._nested == arm.level and not self._weak:
            arm.made += 1
            return arm.made
        arm.made = None
        return None

    def _collects(self, name: str | None) -> bool:
        """A call of ``name`` may run collectives (a call through a pointer may): an
        MPI collective, a function of the TU that makes such a call, or another file's
        whose summary says so; an unknown one is taken as Algorithm 1 takes it, as
        making none."""
        if name is None:
            return True
        entry = catalogue.lookup(name)
        if entry is not None:
            return entry.is_collective
        if name in self._funcs:
            if name not in self._collecting:
                self._collecting[name] = False  # a recursive call adds nothing
                self._collecting[name] = any(map(self._collects, self._funcs[name].calls))
            return self._collecting[name]
        summary = self._external.get(name)
        return summary is not None and summary.has_collectives

    def _call_mpi(self, e: c_ast.FuncCall, entry: catalogue.MPIFunc,
                  args: list[c_ast.Node]) -> str | None:
        template = _KIND_REASON.get(entry.kind, _DEFAULT_KIND_REASON)
        if self._exchange_arms and entry.is_collective \
                and (at := self._arm_event()) is not None:
            self._exchange = (at, entry.name, _arg_text(args, entry.comm),
                              _arg_text(args, entry.root), "")
        for i in entry.rank_outputs:
            if i < len(args):
                self._write(self._out(args[i]), self._seed(e, template), strong=False)
        packed = self._packed(entry, args)
        for i in entry.shared_outputs:
            if i < len(args):
                target = uncast(args[i])
                reset = bool(entry.resets_to) and isinstance(target, c_ast.UnaryOp) and (
                    target.op == "&") and self._reset_write(target.expr, entry.resets_to)
                with self._ungated(reset):
                    self._write(self._out(args[i]), None,
                                strong=reset or self._covers(entry, args, i))
        if packed is not None and self._exchange is not None:
            sent(self._exchange_arms[-1], *packed, self._exchange)
        self._exchange = None
        return None

    def _packed(self, entry: catalogue.MPIFunc, args: list[c_ast.Node]
                ) -> tuple[str, dict[str, str]] | None:
        """Before ``MPI_Bcast(buf, ...)`` writes ``buf``: the locals packed into it
        (rootarm.py), which that write forgets."""
        if self._exchange is None or entry.name != "MPI_Bcast" or not args \
                or self._func is None:
            return None
        buffer = array_arg(args[0], self._func.arrays)
        if buffer is None:
            return None
        return buffer, dict(self._exchange_arms[-1].packed.get(buffer, {}))

    def _covers(self, entry: catalogue.MPIFunc, args: list[c_ast.Node], i: int) -> bool:
        """A shared output overwrites what it names: true unless it is a tracked array
        (``a``, ``&a``) the call's constant count (of items of its datatype) does not
        fill from its start."""
        f = self._func
        name = array_arg(args[i], f.arrays) if f is not None else None
        if f is None or name is None:
            return True
        e = uncast(args[i])
        if isinstance(e, c_ast.UnaryOp) and isinstance(e.expr, c_ast.ArrayRef):
            return False  # &a[k]: some elements only
        length = f.arrays[name]
        count = args[entry.count] if entry.count is not None and entry.count < len(args) \
            else None
        return (length is not None and isinstance(count, c_ast.Constant)
                and count.value.isdigit()
                and int(count.value) * self._per_item(entry, args) >= length)

    def _per_item(self, entry: catalogue.MPIFunc, args: list[c_ast.Node]) -> int:
        """Elements one item of the call's datatype holds: ``k`` for a local built by
        ``MPI_Type_contiguous(k, ...)`` (``datatypes.py``), else 1."""
        f = self._func
        if f is None or entry.datatype is None or entry.datatype >= len(args):
            return 1
        t = uncast(args[entry.datatype])
        return f.contiguous.get(t.name, 1) if isinstance(t, c_ast.ID) else 1

    def _rank_seed(self, call: c_ast.FuncCall) -> str:
        """The reason an ``MPI_Comm_rank`` call's output carries."""
        return self._seed(call, _KIND_REASON["rank"])

    def _seed(self, e: c_ast.Node, template: str) -> str:
        line = getattr(getattr(e, "coord", None), "line", 0) or 0
        return template.format(name=callee(e) if isinstance(e, c_ast.FuncCall) else "",
                               loc=self._loc(line))

    def _env_array(self, e: c_ast.Node) -> bool:
        """``e`` names a local array tracked as one value (``locations.env_arrays``)."""
        return (isinstance(e, c_ast.ID) and self._func is not None
                and e.name in self._func.arrays)

    def _out(self, arg: c_ast.Node) -> list[Target]:
        """Locations a callee may write through argument ``arg``."""
        if isinstance(arg, c_ast.Cast):
            return [] if self._no_pointer(arg) else self._out(arg.expr)
        if self._env_array(arg):
            return [("env", arg.name)]  # type: ignore[attr-defined]
        if isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
            return self._lvalue(arg.expr)[0]
        return [("loc", k) for k in sorted(self._pointees(arg, True), key=str)]
