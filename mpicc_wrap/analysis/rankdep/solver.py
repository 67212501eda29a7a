"""The fixed point over a TU's units (file-scope declarations, then each function),
and the public questions asked of it."""

from __future__ import annotations

import collections
import copy
import functools
from collections.abc import Callable, Mapping

from pycparser import c_ast

from mpicc_wrap.analysis.failures import Arms, failure_tests
from mpicc_wrap.analysis.rankdep import effects, owned
from mpicc_wrap.analysis.rankdep.callbacks import bound_callbacks
from mpicc_wrap.analysis.rankdep.communicators import (
    comm_location,
    enum_values,
    may_run,
    member_facts,
    null_tested,
)
from mpicc_wrap.analysis.rankdep.exchanges import Seen
from mpicc_wrap.analysis.rankdep.layouts import Layouts
from mpicc_wrap.analysis.rankdep.locations import (
    EVERYTHING,
    GAVE_UP,
    Ctl,
    Fact,
    FunctionFacts,
    Global,
    Loc,
    Local,
    Param,
    Ret,
    Store,
    addressed_names,
    callers_first,
    deref,
    enumerators,
    function_facts,
    is_scalar,
)
from mpicc_wrap.analysis.rankdep.signs import Signs
from mpicc_wrap.analysis.rankdep.statements import Statements
from mpicc_wrap.frontend.scalars import scalar_typedefs
from mpicc_wrap.model import FunctionSummary

__all__ = ["WALKS_PER_UNIT", "WALKS_SLACK", "RankDependence"]

# The solver walks every unit once, then again only when something it read grew.  Past
# ``WALKS_PER_UNIT`` walks per unit on average (+ ``WALKS_SLACK``), every memory location
# is treated as multi-valued and each unit is walked one last time (sound, imprecise).
WALKS_PER_UNIT = 12
WALKS_SLACK = 64
ARGUMENT = "depends on an argument"  # the seed of ``ignores_arguments``
# What the walks record per unit, each a dict of sets or of dicts (``Expressions``):
# a solve that starts from another's facts starts from these too (``_clone``)
_WALK_RECORDS = ("_writes", "_rank_writes", "_rank_bits", "_own_writes", "_gated_calls",
                 "_plain_writes", "_new_writes", "_old_writes", "_init_calls",
                 "_plain_calls", "_met")


class RankDependence(Statements):
    """Multi-valued expression analysis of one TU (see the package docstring)."""

    def __init__(self, ast: c_ast.FileAST, external: dict[str, FunctionSummary],
                 loc: Callable[[int], str] | None = None,
                 handle_names: dict[str, str] | None = None,
                 within: Loc | None = None, signs: Signs | None = None,
                 const_params: dict[str, frozenset[int]] | None = None,
                 scalar_types: frozenset[str] | None = None, success: bool = True,
                 failures: Mapping[int, Arms] | None = None,
                 fields: Layouts | None = None) -> None:
        """``handle_names``: the MPI library's handle expansions (``MPI_COMM_NULL``...);
        ``within``: solve relative to the communicator whose handle is stored there
        (``communicators.py``; None: relative to MPI_COMM_WORLD); ``signs``: the TU's
        sign facts when already computed (they do not depend on ``within``);
        ``const_params``: parameters prototypes declare pointer-to-const, which calls
        of external functions do not write (``frontend/prototypes.py``);
        ``scalar_types``: the typedef names of arithmetic types (``frontend/scalars.py``;
        None: those the TU's own typedefs declare); ``success``: assume that no MPI
        call and no allocation fails (``analysis/failures.py``; -Wmpi-error-divergence:
        False); ``failures``: the TU's failure tests when already computed (the CFGs
        use them too); ``fields``: the struct types of field accesses (``layouts.py``;
        None: computed from the TU, with the effective-type rule)."""
        defs = [n for n in ast.ext if isinstance(n, c_ast.FuncDef)]
        defined = frozenset(d.decl.name for d in defs)
        typedefs = scalar_types if scalar_types is not None else scalar_typedefs(ast.ext)
        funcs = {d.decl.name: function_facts(d, defined, typedefs) for d in defs}
        allocators, names = owned.allocating(ast, external), owned.file_names(ast)
        for d in defs:  # a body without an allocating call owns nothing: not scanned
            if owned.allocates_in(funcs[d.decl.name].calls, allocators):
                funcs[d.decl.name].owned = owned.owned_locals(d, allocators, names)
        self._global_decls = [n for n in ast.ext if isinstance(n, c_ast.Decl)]
        # enumerators are constants: they hold no pointer and nothing writes them
        super().__init__(funcs, {d.name for d in self._global_decls
                                 if is_scalar(d.type, typedefs)} | enumerators(ast.ext),
                         external, loc or (lambda line: f"line {line}"))
        self._ast = ast
        self._plain_globals = frozenset(
            d.name for d in self._global_decls
            if d.name in self._global_scalars and "volatile" not in d.quals
        ) - addressed_names(ast)
        self._handle_names = handle_names or {}
        self._within = within
        self._relative: dict[Loc, RankDependence] = {}
        self._null_tested: set[Loc] | None = None
        if within is not None:
            variables = {d.name for d in self._global_decls if d.name}
            self._colours = {n: c for n, f in funcs.items()
                             if (c := member_facts(f, within, variables, self._enums,
                                                   self._runs))}
        self._signs = signs or Signs(funcs)  # a relative solve shares the world's
        self._const_params = const_params or {}
        self._scalar_types = typedefs
        self._layouts = fields if fields is not None else Layouts(ast.ext)
        self._allocators = allocators
        self._callbacks = bound_callbacks(
            ast.ext, lambda n: n in funcs or self._layouts.is_function(n))
        for (g, _), targets in self._callbacks.items():
            funcs[g].calls.extend(t for t in targets if t in funcs)
        self._failures = dict(failures if failures is not None
                              else failure_tests(ast) if success else {})
        self.walks = 0  # unit walks the solver made (for the stress tests)
        self._readers: dict[Fact, set[str]] = {}  # fact -> the units that read it
        self._solve()

    # -- public API ---------------------------------------------------------------------

    def reason(self, func_name: str, expr: c_ast.Node, comm: str = "") -> str | None:
        """None if ``expr`` has one value on all ranks, else a short human reason.
        With ``comm`` (the C text of a communicator handle in ``func_name``): None if
        ``expr`` has one value on all members of that communicator."""
        world = self._reason(func_name, expr)
        if world is None or not comm or self._within is not None:
            return world
        within = comm_location(self._funcs.get(func_name), comm, self._handle_names)
        if within is None:
            return world
        if within not in self._relative:
            self._relative[within] = RankDependence(
                self._ast, self._external, self._loc, self._handle_names, within,
                self._signs, self._const_params, self._scalar_types,
                failures=self._failures, fields=self._layouts
            ) if self._relative_differs(within) else self
        return self._relative[within]._reason(func_name, expr)

    def _relative_differs(self, within: Loc) -> bool:
        """False when the solve relative to ``within`` would repeat the world solve: the
        TU neither tests that handle against MPI_COMM_NULL nor creates it where a
        creation fact applies (the only two differences, ``communicators.py``)."""
        if self._null_tested is None:
            self._null_tested = null_tested(self._funcs.values(), self._handle_names)
        if within in self._null_tested:
            return True
        variables = {d.name for d in self._global_decls if d.name}
        return any(member_facts(f, within, variables, self._enums, self._runs)
                   for f in self._funcs.values())

    @functools.cached_property
    def _runs(self) -> dict[str, frozenset[str]]:
        """The MPI functions each callee may execute (``communicators.rematched``)."""
        return may_run(self._funcs, self._external)

    @functools.cached_property
    def _enums(self) -> dict[str, int]:
        """The TU's enumerator values (split colours may be enumerators)."""
        return enum_values(self._ast)

    def _enumerator(self, name: str) -> int | None:
        f = self._func
        if f is not None and (name in f.locals or name in f.params):
            return None
        return self._enums.get(name)

    def _reason(self, func_name: str, expr: c_ast.Node) -> str | None:
        if id(expr) in self._seen:
            return self._seen[id(expr)]
        self._enter(func_name, self._ever.get(func_name, {}))
        self.store.readonly = True
        try:
            return self._value(expr)
        finally:
            self.store.readonly = False

    def arm_writes_at(self, test: c_ast.Node) -> Seen:
        """What the arms around ``test`` last wrote into its locals (``exchanges.record``;
        empty for a test walked outside the arms of a per-process ``if``)."""
        return self.arm_writes.get(id(test), [])

    def returns_rank(self, func_name: str) -> bool:
        """True if the function's return value may differ between ranks (never for a
        ``void`` function: a return under a rank-dependent test marks its result
        slot, which a caller in another TU must not read as a per-process value)."""
        f = self._funcs.get(func_name)
        if f is not None and f.returns_void:
            return False
        solved = self._context_free(func_name)
        return Ret(func_name) in solved.store.multi or solved.store.gave_up

    def effects(self, func_name: str) -> tuple[bool, list[str], list[str] | None]:
        """For the function's summary: (``returns_rank``, ``rank_writes``, ``writes``)
        (``effects.py`` tokens), as a caller in another file sees them
        (``_context_free``: there the calls through parameters it leaves to its
        callers wrote nothing)."""
        f = self._funcs.get(func_name)
        if f is None:
            return False, [], None
        units = sorted(effects.closure(func_name, self._funcs))
        solved = self._context_free(func_name)
        ranked, _ = solved._rank_tokens(f, units)
        return (self.returns_rank(func_name), ranked, self._effects(f, units, solved._writes))

    def init_writes(self, func_name: str) -> list[str]:
        """For the function's summary: the tokens of its ``writes`` that its call
        closure makes only in lazy initialisations (lazyinit.py) -- in their arms, or
        in functions called only there -- which a caller writes under no gate, as the
        arm itself is walked: hypre's ``hypre_handle()``, called in another file under
        a per-process test, left ``_hypre_handle`` and the handle's fields
        per-process there."""
        f = self._funcs.get(func_name)
        if f is None or self.store.gave_up or not self._wrote_inits:
            return []
        every = self._effects(f, sorted(effects.closure(func_name, self._funcs)),
                              self._writes)
        plain = set(self._effects(f, self._plain_units(func_name), self._plain_writes))
        return [t for t in every if t not in plain]

    def _plain_units(self, name: str) -> list[str]:
        """``name`` and the functions of the TU it may call, directly or not, but
        through calls its walks made only inside lazy initialisations."""
        return sorted(effects.closure(name, self._funcs, lambda g: self._init_calls.get(
            g, set()) - self._plain_calls.get(g, set())))

    def rank_bits(self, func_name: str) -> dict[str, int]:
        """For the function's summary: the tokens of its ``rank_writes`` that its call
        closure leaves per-process only in some bits (``Expressions._write_bits``),
        each with those bits; a token also written per-process whole is not here."""
        f = self._funcs.get(func_name)
        if f is None:
            return {}
        units = sorted(effects.closure(func_name, self._funcs))
        return self._context_free(func_name)._rank_tokens(f, units)[1]

    def callbacks(self, func_name: str) -> dict[str, list[str]]:
        """For the function's summary: the parameters its walks call as the functions
        every call in the TU binds them to (``callbacks.py``), by index."""
        f = self._funcs.get(func_name)
        if f is None:
            return {}
        return {str(i): list(self._callbacks[(func_name, p)]) for i, p in enumerate(f.params)
                if (func_name, p) in self._callbacks}

    def called_params(self, func_name: str
                      ) -> tuple[list[int], dict[str, list[str]], list[int]]:
        """For the function's summary: the parameters it calls (or hands to a function
        that calls them), whose effects its summary leaves to its callers, which
        know the function they pass (``callbacks.py``), and what its call closure
        hands those functions, by their argument position (``callback_writes``), and
        which of them it calls on some processes only or with arguments that differ
        (``callback_rank``)."""
        f = self._funcs.get(func_name)
        solved = self._context_free(func_name)
        if f is None or solved is self:
            return [], {}, []
        flags = solved.store.flags
        called = [k for k in range(len(f.params)) if Ctl(f"{func_name}()#{k}") in flags]
        if not called:
            return [], {}, []
        returns_pointer = not f.returns_scalar and not f.returns_void
        tokens = {str(i): effects.portable(f, locs, returns_pointer, self._layouts)
                  for i, locs in sorted(solved._handed.get(func_name, {}).items())}
        return called, {i: t for i, t in tokens.items() if t}, [
            k for k in called if Ctl(f"{func_name}()#{k}!") in flags]

    def _context_free(self, func_name: str) -> RankDependence:
        """The solve whose facts about ``func_name`` hold for a caller in another file:
        ``_detached`` for a function other files can call, this solve otherwise."""
        return self._detached if func_name in self._exported else self

    @functools.cached_property
    def _exported(self) -> frozenset[str]:
        """The functions the TU defines that other files can call (not ``static``, not
        main)."""
        return frozenset({d.decl.name for d in self._ast.ext if isinstance(d, c_ast.FuncDef)
                          and "static" not in (d.decl.storage or [])} - {"main"})

    @functools.cached_property
    def _detached(self) -> RankDependence:
        """The TU solved again with every exported function detached from its callers
        in the TU (``Expressions._pinned``): its parameters and entry gate single-valued,
        and a call of it in the TU applied as a call in another file applies its
        summary (its writes per-process when an argument or the call's gate is).

        A summary describes the function called with single-valued arguments
        (``returns_rank``, ``rank_writes``); a caller's per-process arguments make
        the result and the writes per-process on the caller's side.  Read from the
        TU's own solve, an exported function inherited the per-process arguments of
        its callers in the TU: pnetcdf's ``ncmpio_NC_check_vlen(varp, max)``, a pure
        function of ``*varp``, is called in its file with a per-process ``varp``, so
        its summary said ``returns_rank``, and every file that checks a variable's
        size with it took the result as per-process.  Points-to facts are the first
        solve's (the same program), but a read through a parameter sees the
        argument's memory only (``PointsTo``); only the per-process facts are solved
        again, and only when some exported function has a per-process parameter or
        gate there, or a parameter that points to per-process memory."""
        store = self.store
        if store.gave_up or not self.defers and not any(map(self._attached, self._exported)):
            return self
        fresh = store.copy()
        fresh.multi, fresh.bits, fresh.truthy, fresh.fallback = {}, {}, {}, None
        clone = self._clone(fresh)
        clone._bare = self._exported  # reads through parameters: the argument's memory
        clone._ever = {n: {} for n in self._funcs}
        clone._pinned = self._exported
        clone._defer = True
        clone._pinned_writes = {n: self._effects(self._funcs[n], sorted(
            effects.closure(n, self._funcs)), self._own_writes) for n in clone._pinned}
        clone._pinned_inits = {n: frozenset(self.init_writes(n)) for n in clone._pinned}
        clone._tied_of, clone._tied_memo = self.arg_writes, {}
        clone._pinned_new = {n: frozenset(self.new_writes(n)) for n in clone._pinned}
        clone._solve()
        return clone

    def _rank_tokens(self, f: FunctionFacts, units: list[str]
                     ) -> tuple[list[str], dict[str, int]]:
        """What ``units`` (``f``'s call closure) wrote per-process, as ``rank_writes``
        tokens, and those of them written so in some bits only, with the union of
        those bits (``rank_bits``).  Per-process too: everything the functions a unit
        calls under a per-process test of its own write (their walks see that test
        only as their entry gate, which no summary lists: ``static void load(void)
        { G = 1; }`` called as ``if (rank == 0) load();`` in ``setup()`` left ``G``
        out of ``setup``'s summary, and a caller in another file saw it uniform)."""
        gated = {c for g in units for c in self._gated_calls.get(g, ())}
        called = sorted({g for c in gated for g in self._plain_units(c)})
        whole = sorted({*self._effects(f, units, self._rank_writes),
                        *self._effects(f, called, self._plain_writes)})
        if self.store.gave_up or effects.EVERYTHING_TOKEN in whole:
            return whole, {}
        bits: dict[str, int] = {}
        returns_pointer = not f.returns_scalar and not f.returns_void
        for g in units:
            for loc, mask in self._rank_bits.get(g, {}).items():
                for t in effects.portable(f, [loc], returns_pointer, self._layouts):
                    if t not in whole:
                        bits[t] = bits.get(t, 0) | mask
        return sorted({*whole, *bits}), bits

    def ignores_arguments(self, func_name: str) -> bool:
        """The function returns a value that is the same on every rank whatever its
        arguments: with every parameter of every function other TUs can call, and all
        they point to, per-process (``_arguments``, one solve for the TU), its result
        stays single-valued.  Scotch's ``dgraphHaloSync(g, data, type)`` returns 0
        or, after a failed MPI call, 1; a caller in another TU passes it halo data that
        differs between processes, and without this fact took its result, and every
        ``if (dgraphHaloSync(...) != 0) return 1;``, as per-process (the rule for
        unknown functions).  One solve answers for all: it holds more per-process facts
        than one per function would (other functions' parameters too), so a result it
        finds single-valued is single-valued for each function by itself.  A pointer
        too: hypre's ``hypre_SeqVectorCreate(size)`` returns the vector it allocates,
        whatever the size; what the vector holds is its writes' business
        (``arg_writes``), and a caller reading ``v->num_vectors`` through a pointer
        taken as per-process read it as per-process."""
        f = self._funcs.get(func_name)
        if f is None or f.returns_void or self.store.gave_up \
                or self._within is not None:
            return False
        solved = self._arguments
        return not solved.store.gave_up and Ret(func_name) not in solved.store.multi

    def arg_writes(self, func_name: str) -> list[str] | None:
        """For the summary of an exported function: the tokens of its writes whose value
        or place may depend on its arguments, those its call closure wrote per-process
        in the ``_arguments`` solve (every parameter, and all it points to,
        per-process); None when unknown.  A caller in another file makes only these
        per-process when it passes per-process arguments: hypre's
        ``hypre_SeqVectorCreate(size)`` stores ``size`` and a constant ``num_vectors``
        in the vector it allocates, and every vector's ``num_vectors`` was per-process
        after a call with a local size.  A write through a parameter is among them
        (the place it writes is the argument), so is one under a test of an argument."""
        f = self._funcs.get(func_name)
        if f is None or func_name not in self._exported or self._within is not None:
            return None
        solved = self._arguments
        if solved.store.gave_up:
            return None
        return solved._rank_tokens(f, sorted(effects.closure(func_name, self._funcs)))[0]

    def new_writes(self, func_name: str) -> list[str]:
        """For the summary: the tokens of the writes ``func_name``'s call closure makes
        only into memory the call allocated, under the gates of the allocation
        (``owned.py``); a caller in another file makes them under none of its own."""
        f = self._funcs.get(func_name)
        if f is None or self.store.gave_up:
            return []
        units = sorted(effects.closure(func_name, self._funcs))
        if not any(self._new_writes.get(g) for g in units):
            return []
        old = set(self._effects(f, units, self._old_writes))
        return [t for t in self._effects(f, units, self._new_writes)
                if t not in old and t != effects.EVERYTHING_TOKEN]

    @functools.cached_property
    def _arguments(self) -> RankDependence:
        """The TU solved again with every parameter of its exported functions, and
        all it points to, per-process (``ignores_arguments``).

        Warm-started from this solve's fixed point: the clone begins with its facts and
        its walks' records, and walks first only the units that read a fact the marks
        made grow (``_readers``).  A unit that read none of them would walk exactly
        as its last walk here did, so what it records is already there; the others
        run to the fixed point as before.  Facts only grow, so the records of this
        solve's earlier walks are ones the clone's own walks would make too (every
        record is made under more per-process facts in the clone, never fewer).  On
        hdf5's ``H5SL.c`` the clone walked every unit again, 63 walks, for marks
        that a few units read."""
        warm = not self.store.gave_up
        clone = self._clone(self.store.copy(), warm)
        clone.store.changed = set()
        for name in sorted(self._exported):
            for i, p in enumerate(self._funcs[name].params):
                if p:  # the parameter as passed, and what it points to
                    for loc in (Param(name, i), Local(name, p), deref(Local(name, p)),
                                deref(deref(Local(name, p)))):
                        clone.store.mark(loc, ARGUMENT)
        grown, clone.store.changed = clone.store.changed, set()
        if not warm or EVERYTHING in grown:
            clone._solve()
        else:
            clone._solve(set().union(*(self._readers.get(k, ()) for k in grown)))
        return clone

    def _attached(self, name: str) -> bool:
        """Some call in the TU passes ``name`` a per-process argument, or calls it, or
        passes it a pointer, under a per-process gate, or a pointer to memory that
        differs between processes."""
        multi = self.store.multi
        return Ctl(name) in multi or any(
            Param(name, i) in multi or Ctl(f"{name}.{p}") in multi
            or deref(Local(name, p)) in multi  # &x of a per-process x (or its own write)
            or self.store.first(self.store.pts.get(Local(name, p), set()))
            for i, p in enumerate(self._funcs[name].params) if p)

    def _clone(self, store: Store, warm: bool = False) -> RankDependence:
        """This solver with ``store`` and no answers yet (``_arguments``); ``warm``:
        with the records of this solve's walks and who read what (``_readers``), for
        a solve that starts from this one's facts."""
        clone = copy.copy(self)
        clone.store = store
        clone._seen, clone._relative = {}, {}
        clone._ever = {n: dict(v) for n, v in self._ever.items()}
        for name in _WALK_RECORDS:
            kept = getattr(self, name) if warm else {}
            setattr(clone, name, {k: copy.copy(v) for k, v in kept.items()})
        clone._handed = {k: {i: set(s) for i, s in v.items()}
                         for k, v in (self._handed if warm else {}).items()}
        clone._readers = {k: set(v) for k, v in self._readers.items()} if warm else {}
        clone._wrote_inits = self._wrote_inits and warm
        clone.walks = 0
        return clone

    def _effects(self, f: FunctionFacts, units: list[str],
                 recorded: Mapping[str, set[Loc]]) -> list[str]:
        """The tokens of what ``units`` (``f``'s call closure) wrote, per ``recorded``."""
        if self.store.gave_up:
            return [effects.EVERYTHING_TOKEN]
        written: set[Loc] = set().union(*(recorded.get(g, ()) for g in units))
        return effects.portable(f, written, not f.returns_scalar and not f.returns_void,
                                self._layouts)

    @property
    def gave_up(self) -> bool:
        """True if the solver hit its walk cap and answered conservatively."""
        return self.store.fallback is not None

    def rank_params(self, func_name: str) -> list[int]:
        """Parameters multi-valued because an in-TU call site passes a multi-valued
        argument (by index)."""
        f = self._funcs.get(func_name)
        if f is None:
            return []
        return [i for i in range(len(f.params))
                if Param(func_name, i) in self.store.multi or self.store.gave_up]

    def multi_valued_vars(self, func_name: str) -> set[str]:
        """Variable names that may be multi-valued somewhere in the function."""
        f = self._funcs.get(func_name)
        local = f.locals if f else set()
        names = set(self._ever.get(func_name, {}))
        marked = self.store.multi.keys() | self.store.bits.keys()
        names |= {n for n in local if Local(func_name, n) in marked}
        names |= {k.name for k in marked if isinstance(k, Global) and k.name not in local}
        return names

    # -- fixed point ----------------------------------------------------------------------

    def _solve(self, first: set[str] | None = None) -> None:
        """Walk units (file-scope declarations "", then each function) until no
        location grows; a unit is walked again only when a location it read grew.
        ``first``: the units to walk first (None: all), when the others' last walks
        are already recorded (``_arguments``).

        Termination: locations are finite (names of the TU, k-limited by ``deref``), the
        facts about them only grow (a reason once set stays; points-to sets only gain
        locations), so the fixed point exists; the walk cap bounds the time to reach it.
        """
        readers = self._readers
        units = ["", *callers_first(self._funcs)]
        work = collections.deque(units if first is None else
                                 [u for u in units if u in first])
        pending = set(work)
        cap = WALKS_PER_UNIT * len(units) + WALKS_SLACK
        while work:
            if self.walks >= cap:
                self._give_up(units)
                return
            unit = work.popleft()
            pending.discard(unit)
            self.store.reads, self.store.changed = set(), set()
            self.store.stale = False
            self._walk_unit(unit)
            self.walks += 1
            for key in self.store.reads:
                readers.setdefault(key, set()).add(unit)
            changed = self.store.changed
            woken = set(units) if EVERYTHING in changed else set().union(
                *(readers.get(k, set()) for k in changed))
            if not self.store.stale and EVERYTHING not in changed:
                woken.discard(unit)  # it read only what it ended with
            for again in sorted(woken - pending):
                work.append(again)
                pending.add(again)

    def _give_up(self, units: list[str]) -> None:
        """The walk cap was hit: every memory location is multi-valued from now on
        (``Store.get``), and one more walk of each unit recomputes its locals from that."""
        self.store.fallback = GAVE_UP
        self.store.gave_up = True
        for unit in units:
            self._walk_unit(unit)
            self.walks += 1

    def _walk_unit(self, unit: str) -> None:
        if not unit:
            self._enter(None, {})
            for decl in self._global_decls:
                self.visit_Decl(decl)
            return
        f = self._funcs[unit]
        self._loops = {}
        register = self.store.get_register
        self._enter(f.name, {p: r for p in f.params
                             if p in f.tracked and (r := register(Local(f.name, p)))})
        self._entry_ctrl = self.store.get(Ctl(f.name))
        entry = dict(self._env)
        self._labels = {}
        while True:  # a goto may jump back: walk again until the labels' facts settle
            before = {k: dict(v) for k, v in self._labels.items()}
            self._env = dict(entry)
            self._assigned = {}
            self._stmt(f.body)
            if not f.goes_back or self._labels == before:
                break

    def _enter(self, func: str | None, env: dict[str, str]) -> None:
        self._func = self._funcs.get(func) if func else None
        self._track_reasons(self._func)
        self._env = dict(env)
        self._assigned = {}
        self._ctrl = self._env_ctrl = None
        self._phi = []
        self._entry_ctrl = None
        self._allocated = {}
