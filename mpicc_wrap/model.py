"""The data types passed between the pipeline stages (and nothing else).

The pipeline flows one way:
argv -> Invocation (driver/cmdline.py) -> one pipeline.Unit per C source (driver)
-> preprocessed text (driver/commands.py) -> ParsedTU (frontend/parser.py)
-> TUAnalysis with findings and plans (analysis/unit.py) -> a Verdict per finding and
the gcc-format lines and reports (report/emit.py) -> rewritten text (instrument)
-> object with its summaries (driver, runtime/objects.py) -> executable + checker
runtime (link: analysis/summaries.py's link check, runtime/library.py).

Positions: the frontend parses the *preprocessed* text with its line markers blanked
out, so every pycparser ``Coord.line`` is a 1-based line index into the preprocessed
text (``Pos``).  ``ParsedTU.loc`` maps such a position back to the user's file and
line (``Loc``) for diagnostics; the rewriter works on ``Pos`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mpicc_wrap import rules

__all__ = [
    "Condition", "ExitPoint", "Finding", "FunctionPlan", "FunctionSummary", "Loc", "Note",
    "ParsedTU", "Pos", "Site", "Stats", "TUAnalysis", "Verdict",
]


@dataclass(frozen=True, order=True)
class Pos:
    """1-based line and column in the preprocessed text."""

    line: int
    column: int


@dataclass(frozen=True, order=True)
class Loc:
    """1-based file, line and column in the user's source, for diagnostics."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class ParsedTU:
    """One translation unit after the frontend.

    ``ast`` is a pycparser ``c_ast.FileAST`` holding the user's part of the TU (system
    header declarations are not re-parsed; their typedef names are seeded).  ``text``
    is the full preprocessed text the positions refer to.  ``linemap[i]`` is the
    (file, line) of preprocessed line ``i + 1``.
    """

    ast: Any
    text: str
    main_file: str
    linemap: list[tuple[str, int]]
    user_lines: int
    noreturn: frozenset[str] = frozenset()
    handle_names: dict[str, str] = field(default_factory=dict)
    # Names called (followed by "(") on system-header lines: libc and friends, never
    # user code with collectives (the frontend's one notion of a system header).
    system_calls: frozenset[str] = frozenset()
    # Function -> parameters declared pointer-to-const (frontend/prototypes.py)
    const_params: dict[str, frozenset[int]] = field(default_factory=dict)
    # Typedef names of arithmetic types, header and user code (frontend/scalars.py)
    scalar_typedefs: frozenset[str] = frozenset()
    # Functions whose unreferenced prototypes the parser never saw (frontend/prune.py)
    pruned: frozenset[str] = frozenset()

    def loc(self, pos: Pos) -> Loc:
        """Map a preprocessed-text position to the user's file, line and column."""
        if 1 <= pos.line <= len(self.linemap):
            file, line = self.linemap[pos.line - 1]
            return Loc(file, line, pos.column)
        return Loc(self.main_file, pos.line, pos.column)


@dataclass(frozen=True)
class Condition:
    """A conditional responsible for a finding (an element of PDF+ with a
    rank-dependent predicate, PARCOACH Alg. 1)."""

    pos: Pos
    loc: Loc
    text: str  # C text of the predicate, e.g. "rank == 0"
    reason: str  # e.g. "this condition depends on the process rank"


@dataclass(frozen=True)
class Note:
    """A `note:` line attached to a finding (counter-example, barrier-matching §5.2)."""

    loc: Loc
    message: str


@dataclass
class Finding:
    """One compile-time warning: a collective some ranks may skip or reorder.

    ``message`` is the warning's text; left empty, it is the default one built from
    the collective and communicator ("MPI_Barrier on MPI_COMM_WORLD may not be reached
    by all processes").  Every output (gcc-format lines, JSON, SARIF) prints it as is.
    """

    function: str
    collective: str  # "MPI_Barrier", or "call to helper()" for a summarised callee
    comm: str  # communicator for display, e.g. "MPI_COMM_WORLD"
    pos: Pos
    loc: Loc
    conditions: list[Condition]
    notes: list[Note] = field(default_factory=list)
    tag: str = rules.COLLECTIVE_ORDER.tag  # printed as [-Wmpi-collective-order]
    message: str = ""  # full message text (see the class docstring)
    callee: str = ""  # for a call to a function that executes collectives: its name

    def __post_init__(self) -> None:
        if not self.message:
            on = f" on {self.comm}" if self.comm else ""
            self.message = rules.COLLECTIVE_ORDER.text("unreached", what=self.collective + on)


@dataclass(frozen=True)
class Verdict:
    """What the diagnostics decided about one finding: its level ("off", "warning",
    "error") under the command's -W flags, and whether a ``mpicc-wrap: ignore`` marker
    in the user's source silences it.  Reports take it beside the (unchanged) finding."""

    level: str
    suppressed: bool = False

    @property
    def shown(self) -> bool:
        """Whether the finding is printed."""
        return self.level != "off" and not self.suppressed


@dataclass
class Site:
    """A call site the instrumentation checks before it runs (PARCOACH Alg. 2).

    ``kind`` is "collective" (an MPI collective), "call" (a call to a function whose
    summary executes collectives) or "noreturn" (exit/abort/MPI_Abort... : the exit CC
    runs before it).  ``start``/``end`` delimit the whole call expression in the
    preprocessed text (end is exclusive, i.e. one past the closing parenthesis).
    """

    kind: str
    name: str
    function: str
    comm: str  # C expression text of the communicator argument ("" for noreturn)
    start: Pos
    end: Pos
    loc: Loc
    root: str | None = None  # C expression of the root argument, if any
    op: str | None = None  # C expression of the reduction operator, if any
    size: str | None = None  # C expression giving a per-rank data-size signature
    datatype: str | None = None  # C expression of the datatype argument (size = count)
    flagged: bool = False  # True when the static analysis warned about this site
    # For a call whose callee runs a fixed collective sequence: its first collective.
    # The check compares that, not the callee's name, so two helpers that both run
    # MPI_Barrier first agree (the analysis already treats them as equal).
    first: str = ""
    conditions: list[Condition] = field(default_factory=list)


@dataclass
class ExitPoint:
    """Where a function may leave: a `return` statement or the closing brace."""

    kind: str  # "return" or "end"
    start: Pos  # for "return": the `r` of `return`; for "end": the closing `}`
    end: Pos  # for "return": one past the `;`; for "end": same as start
    loc: Loc
    has_value: bool = False
    value_has_collective: bool = False


@dataclass
class FunctionPlan:
    """What the instrumentation must insert in one function with findings."""

    name: str
    return_type: str  # C text, e.g. "int" or "void"
    body_start: Pos  # the `{` opening the function body
    body_end: Pos  # the `}` closing it
    def_start: Pos  # start of the whole definition (where file-scope text may go)
    sites: list[Site]
    exits: list[ExitPoint]
    comms: list[str]  # communicator expressions checked at every exit, in a fixed order
    # One past the name of each uninitialised local communicator in ``comms``: the
    # rewriting initialises it to MPI_COMM_NULL there, so exits before its first
    # assignment pass a valid handle (the checker skips MPI_COMM_NULL).
    inits: list[Pos] = field(default_factory=list)


@dataclass
class FunctionSummary:
    """Interprocedural summary of one function (PARCOACH §3.1 extended).

    ``sequence`` is the collective sequence every call executes when it is fixed
    (e.g. ["MPI_Barrier@MPI_COMM_WORLD"]); ``fixed`` is False when the sequence may
    vary between ranks or calls (then callers compare by function name).
    """

    name: str
    file: str
    line: int
    has_collectives: bool
    sequence: list[str]
    fixed: bool
    returns_rank: bool = False  # its return value depends on the process rank
    # parameters whose value reaches a rank-dependent branch
    rank_params: list[int] = field(default_factory=list)
    noreturn: bool = False
    # pointer parameters holding a collective's shared output on return (outputs.py)
    shared_outputs: list[int] = field(default_factory=list)
    # returns the same value on every rank whatever its arguments (outputs.py)
    uniform_return: bool = False
    # every path ends the job: MPI_Abort or an error exit (exit(1), abort(), a failed
    # assert), so a caller in another file prunes the paths into it (issue 9 item 3)
    ends_job: bool = False
    # memory it may leave different on different processes, as tokens a caller's TU
    # can name (analysis/rankdep/effects.py); None: unknown (a summary of a version
    # before them: the caller assumes every pointer argument when returns_rank)
    rank_writes: list[str] | None = None
    # memory it may write at all, same tokens; None: unknown (every pointer argument)
    writes: list[str] | None = None
    # returns 0 in a run where no MPI call or allocation fails (analysis/failures.py)
    status_code: bool = False
    # returns NULL only when an allocation failed (analysis/failures.py)
    fresh_result: bool = False
    # tokens of ``rank_writes`` it leaves per-process in these bits only (flag words,
    # analysis/rankdep/expressions.py ``_write_bits``; JSON integers of any width,
    # negative for ``x &= C``); a token not here: the whole location
    rank_bits: dict[str, int] = field(default_factory=dict)
    # parameter index (a string, for JSON) -> the functions every call in its file
    # passes there, which the summary assumes it calls through that parameter
    # (rankdep/callbacks.py); a caller passing another makes that call unknown
    callbacks: dict[str, list[str]] = field(default_factory=dict)
    # parameters it calls, directly or through a callee, whose effects it leaves to
    # its callers: a caller applies those of the function it passes there
    # (rankdep/callbacks.py)
    calls_params: list[int] = field(default_factory=list)
    # ... and what those calls hand the callback, by its argument position (a string,
    # for JSON): tokens a caller writes per-process when the function it passes
    # writes through that parameter ("r": memory it returns)
    callback_writes: dict[str, list[str]] = field(default_factory=dict)
    # ... and those of ``calls_params`` it calls on some processes only, or with
    # arguments that differ between processes (its callers run those per-process)
    callback_rank: list[int] = field(default_factory=list)
    # tokens of ``writes`` whose value or place may depend on its arguments (what they
    # are or point to): a caller's per-process arguments make those per-process, not
    # the others (rankdep/solver.py ``arg_writes``); None: unknown (all of them)
    arg_writes: list[str] | None = None
    # tokens of ``writes`` it makes only in lazy initialisations (``if (!h) h =
    # create();``, analysis/rankdep/lazyinit.py): a caller writes them under no gate
    init_writes: list[str] = field(default_factory=list)
    # returns memory the call allocated, or NULL (analysis/rankdep/owned.py): its
    # result is the same on every process whatever the arguments
    allocates: bool = False
    # tokens of ``writes`` it makes only into memory the call allocated, under the
    # gates of the allocation (owned.py): a caller writes them under none of its own
    new_writes: list[str] = field(default_factory=list)
    # returns one parameter reduced over a communicator by a logical operation
    # (analysis/rankdep/consensus.py ``Agreement``): [parameter index, "any" or
    # "all", whether for any integer operand or only 0/1]; empty: not such a function
    agreement: list[int | str | bool] = field(default_factory=list)


@dataclass
class Stats:
    """Per-TU numbers in the spirit of PARCOACH Table 1."""

    collective_sites: int = 0
    flagged_sites: int = 0
    instrumented_sites: int = 0
    functions: int = 0
    functions_instrumented: int = 0
    user_lines: int = 0
    analysis_seconds: float = 0.0
    skipped: int = 0

    def add(self, other: Stats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class TUAnalysis:
    """Everything the static analysis says about one TU."""

    findings: list[Finding]
    plans: list[FunctionPlan]
    summaries: dict[str, FunctionSummary]
    stats: Stats
    # Findings that hold only if an external callee (``Finding.callee``, not seen in
    # this TU nor in any visible summary) executes collectives: the link step, which
    # sees every object's summaries, turns them into warnings.
    deferred: list[Finding] = field(default_factory=list)
    # The only names whose cross-TU summaries the analysis read: functions the TU
    # calls and does not define.  The direct cache keys a replay on those alone.
    consulted: list[str] = field(default_factory=list)
    # Functions of internal linkage (``static``): no other TU can call them by name.
    internal: list[str] = field(default_factory=list)

    def exported(self) -> dict[str, FunctionSummary]:
        """The summaries other TUs may need: those of functions with external linkage.
        A static function's summary published under its name would stand in for a
        same-named external function of a third TU (``sideindex.merged`` prefers the one
        that executes collectives), and costs an index entry per compile."""
        hidden = set(self.internal)
        return {n: s for n, s in self.summaries.items() if n not in hidden}
