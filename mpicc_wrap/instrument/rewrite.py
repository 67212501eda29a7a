"""Insert run-time collective checks into the preprocessed text (PARCOACH §3.2, Alg. 2).

For each function the analysis planned, every checked site becomes the comma
expression ``(mpiccwrap_cc(COMM, &site, ROOT, OP, COUNT, TYPE), ORIGINAL_CALL)``,
every way out of the function first runs ``mpiccwrap_cc_exit`` on each of the
plan's communicators (uninitialised local ones are first set to MPI_COMM_NULL at
their declaration), and the site identities become ``static const`` data placed
before the definition.  Every insertion stays on the line where it is made, so line
numbers (compiler messages, -g) still point at the user's lines; functions without a
plan stay byte-for-byte untouched.

The inserted C comes from the Jinja2 templates in ``templates/``: each template
renders the text around one ``{{ original }}`` span; what kind of site uses which
template is the ``SITE_KINDS`` table, so a new kind is a template plus a row.  The
numbers the inserted code passes to the checker (exit colour, check bits, "no root"
and "no count") are read from the protocol header, ``cclib/mpiccwrap_protocol.h``
(:mod:`mpicc_wrap.protocol`), never written here.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from mpicc_wrap import protocol
from mpicc_wrap.analysis import catalogue
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.frontend import handles
from mpicc_wrap.model import Condition, ExitPoint, FunctionPlan, ParsedTU, Pos, Site
from mpicc_wrap.packagedata import data_dir

if TYPE_CHECKING:
    import jinja2

_MARK = "\x00"  # stands for the original text while a template renders

# Communicators the analysis names by their handle (no C expression in the source,
# e.g. MPI_Finalize acts on MPI_COMM_WORLD): the runtime hands them out.
PREDEFINED_COMMS = {
    "MPI_COMM_WORLD": "mpiccwrap_comm_world()",
    "MPI_COMM_SELF": "mpiccwrap_comm_self()",
    "MPI_COMM_NULL": "mpiccwrap_comm_null()",
}
# Initialiser given to an uninitialised local communicator the exits check
# (FunctionPlan.inits): its template and the null handle it renders.
INIT = ("cc_init.c.j2", PREDEFINED_COMMS["MPI_COMM_NULL"])

_STORAGE_WORDS = frozenset({"static", "extern", "inline", "__inline", "__inline__",
                            "_Noreturn", "register", "auto"})


@dataclass(frozen=True, order=True)
class Edit:
    """Replace text[start:end] by ``text`` (start == end: insert)."""

    start: int
    end: int
    seq: int
    text: str


@dataclass(frozen=True)
class SiteKind:
    """How one kind of site is handled: its template, the FunctionRewriter method
    that fills the template ("check": a CC before the call; "leave": the exit CCs
    before a call that does not return) and how the report names the site."""

    template: str
    action: str
    display: Callable[[Site], str]


def _call_display(site: Site) -> str:
    return site.name if site.name.endswith(")") else site.name + "()"


SITE_KINDS: dict[str, SiteKind] = {
    "collective": SiteKind("cc_site.c.j2", "check", lambda s: s.name),
    "call": SiteKind("cc_site.c.j2", "check", _call_display),
    "noreturn": SiteKind("cc_noreturn.c.j2", "leave", lambda s: "exit"),
}


def c_string(value: str) -> str:
    """A C string literal for ``value`` (escapes quotes, backslashes, controls)."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch < "\x7f":
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode())
    return '"' + "".join(out) + '"'


@cache
def _env() -> jinja2.Environment:
    import jinja2  # lazily: ~0.1-0.25 s of start-up, needed only when a TU is rewritten

    root = data_dir("templates")
    loader = jinja2.FunctionLoader(lambda name: root.joinpath(name).read_text())
    env = jinja2.Environment(loader=loader, autoescape=False, undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=False)
    env.filters["cstr"] = c_string
    return env


def render(template: str, **context: object) -> str:
    """Render one template; inserted code must never add a line."""
    text = _env().get_template(template).render(**context)
    if "\n" in text:
        raise AnalysisSkipped(f"instrumentation template {template} produced a newline")
    return text


def wrap(template: str, **context: object) -> tuple[str, str]:
    """The (before, after) texts a template puts around ``{{ original }}``."""
    parts = render(template, original=_MARK, **context).split(_MARK)
    if len(parts) != 2:
        raise AnalysisSkipped(f"instrumentation template {template} must use original once")
    return parts[0], parts[1]


def declarations() -> str:
    """The checker's C declarations, taken from the header (one line)."""
    return protocol.checker_declarations()


def exit_color() -> int:
    """Colour of the "leave the function" check (MPICCWRAP_COLOR_EXIT)."""
    return protocol.constant("MPICCWRAP_COLOR_EXIT")


def color(name: str) -> int:
    """Stable colour of a collective kind, equal on every rank and in every TU."""
    return 2 + zlib.crc32(name.encode()) % 1_000_000_000


def split_args(call: str) -> list[str]:
    """Top-level arguments of the call expression text ``f(a, g(b, c))``."""
    open_at = call.find("(")
    if open_at < 0 or not call.rstrip().endswith(")"):
        return []
    inner = call[open_at + 1: call.rstrip().rfind(")")]
    args: list[str] = []
    current: list[str] = []
    depth, quote, escaped = 0, "", False
    for ch in inner:
        if quote:
            escaped = ch == "\\" and not escaped
            quote = "" if ch == quote and not escaped else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    tail = "".join(current).strip()
    return [*args, tail] if tail or args else []


def _cond_text(conditions: list[Condition]) -> str:
    seen = dict.fromkeys(f"{c.loc.file}:{c.loc.line}" for c in conditions)
    return ", ".join(seen)


class Rewriter:
    """Collects the edits for one TU, then applies them in one pass."""

    def __init__(self, tu: ParsedTU) -> None:
        self.tu = tu
        self.starts = [0]
        for i, ch in enumerate(tu.text):
            if ch == "\n":
                self.starts.append(i + 1)
        self.edits: list[Edit] = []
        self.counter = 0

    def offset(self, pos: Pos) -> int:
        if not 1 <= pos.line <= len(self.starts):
            raise AnalysisSkipped(f"instrumentation: position {pos} outside the text")
        return self.starts[pos.line - 1] + pos.column - 1

    def add(self, start: int, end: int, text: str, closing: bool = False) -> None:
        """Record an edit; at one offset, closing texts come first, innermost first."""
        seq = len(self.edits) + 1
        self.edits.append(Edit(start, end, -seq if closing else seq, text))

    def new_var(self) -> str:
        self.counter += 1
        return f"mpiccwrap__s{self.counter}"

    def apply(self) -> str:
        text, out, at = self.tu.text, [], 0
        for edit in sorted(self.edits):
            if edit.start < at:
                raise AnalysisSkipped("instrumentation: overlapping edits")
            out.append(text[at:edit.start])
            out.append(edit.text)
            at = edit.end
        out.append(text[at:])
        return "".join(out)


class FunctionRewriter:
    """The edits for one planned function."""

    def __init__(self, rw: Rewriter, plan: FunctionPlan) -> None:
        self.rw = rw
        self.plan = plan
        self.defs: list[str] = []
        by_name: dict[str, str] = {}  # one check per communicator, however spelt
        for comm in plan.comms:  # only those valid at every exit (findings.plan)
            by_name.setdefault(self.comm_name(comm), self.comm_expr(comm))
        self.comms = list(by_name.values())
        self.first_comm = next(iter(by_name), "")
        self.cond = _cond_text([c for s in plan.sites for c in s.conditions])

    def comm_name(self, comm: str) -> str:
        """How the user wrote the communicator (MPI_COMM_WORLD, not its expansion)."""
        return handles.display(comm, self.rw.tu.handle_names)

    @staticmethod
    def comm_expr(comm: str) -> str:
        """A C expression valid in the preprocessed text for the communicator handle
        ``comm`` (already the handle itself: a handle passed by pointer was
        dereferenced by the analysis, ``Site.comm``)."""
        comm = comm.strip()
        return PREDEFINED_COMMS.get(comm, comm)

    def define(self, name: str, comm_name: str, loc_file: str, line: int, cond: str,
               flagged: bool, site_color: int, checks: int = 0) -> str:
        var = self.rw.new_var()
        self.defs.append(render(
            "cc_site_def.c.j2", var=var, color=site_color, name=name,
            comm_name=comm_name, file=loc_file, line=line,
            function=self.plan.name, cond=cond, flagged=int(flagged), checks=checks))
        return var

    def site(self, site: Site) -> None:
        kind = SITE_KINDS.get(site.kind)
        if kind is None:
            raise AnalysisSkipped(f"instrumentation: unknown site kind {site.kind!r}")
        start, end = self.rw.offset(site.start), self.rw.offset(site.end)
        action: Callable[[Site, SiteKind, str], tuple[str, str]] = getattr(self, kind.action)
        before, after = action(site, kind, self.rw.tu.text[start:end])
        self.rw.add(start, start, before)
        self.rw.add(end, end, after, closing=True)

    def leave(self, site: Site, kind: SiteKind, call: str) -> tuple[str, str]:
        """Exit CCs on every communicator of the plan before a call that never returns."""
        var = self.exit_var(site.loc.file, site.loc.line)
        return wrap(kind.template, comms=self.comms, var=var)

    def check(self, site: Site, kind: SiteKind, call: str) -> tuple[str, str]:
        """A CC before the call: colour of its collective, and root/op/size where MPI
        requires every rank to agree."""
        args = split_args(call)
        entry = catalogue.lookup(site.name) if site.kind == "collective" else None

        def arg(index: int | None, given: str | None = None) -> str | None:
            if given:
                return given
            return args[index] if index is not None and index < len(args) else None

        if entry is not None and entry.handle != "comm":
            return "", ""  # a window or file handle is no communicator: not checked
        if entry is not None and entry.starts_only and not site.flagged:
            # The check waits for the other members; the nonblocking start it precedes
            # does not.  Unflagged (MPICC_WRAP_INSTRUMENT=all), such a wait can deadlock
            # a correct program that starts nonblocking collectives on two communicators
            # in different orders (correct_nonblocking_on_two_comms_in_either_order.c).
            return "", ""
        given = arg(entry.comm if entry else None)
        if entry is not None and entry.comm is not None and given:
            given = entry.handle_arg(entry.comm, given)
        # A call whose communicator is unknown here (through a pointer, a callee's own
        # ctx->comm) is checked on the function's first exit communicator only when
        # the analysis flagged it: unflagged (MPICC_WRAP_INSTRUMENT=all), a check on
        # another communicator could pair with nothing on ranks that do not call it.
        comm = site.comm or given or ((self.comms or [""])[0] if site.flagged else "")
        if not comm:
            return "", ""
        name, comm = self.comm_name(comm), self.comm_expr(comm)
        root = arg(entry.root, site.root) if entry else None
        op = arg(entry.op, site.op) if entry else None
        count = arg(entry.count) if entry and entry.size_equal else None
        dtype = arg(entry.datatype) if entry and count else None
        c = protocol.constant
        size = c("MPICCWRAP_CHECK_SIZE") if count and dtype else 0
        checks = (c("MPICCWRAP_CHECK_ROOT") if root else 0) | size
        checks |= c("MPICCWRAP_CHECK_OP") if op else 0
        display = kind.display(site)
        var = self.define(display, name, site.loc.file, site.loc.line,
                          _cond_text(site.conditions), site.flagged,
                          color(site.first or display), checks)
        return wrap(kind.template, comm=comm, var=var,
                    root=root or str(c("MPICCWRAP_NO_ROOT")), op=op or "(MPI_Op)0",
                    count=count if size else f"{c('MPICCWRAP_NO_COUNT')}L",
                    type=dtype if size else "(MPI_Datatype)0")

    def exit_var(self, file: str, line: int) -> str:
        return self.define("exit", self.first_comm, file, line, self.cond, True,
                           exit_color())

    def exit(self, point: ExitPoint) -> None:
        if not self.comms:
            return
        start, end = self.rw.offset(point.start), self.rw.offset(point.end)
        var = self.exit_var(point.loc.file, point.loc.line)
        if point.kind == "end":
            before, _ = wrap("cc_end.c.j2", comms=self.comms, var=var)
            self.rw.add(start, start, before)
        elif point.has_value and point.value_has_collective:
            self.return_value(start, end, var)
        else:
            before, after = wrap("cc_return.c.j2", comms=self.comms, var=var)
            self.rw.add(start, start, before)
            self.rw.add(end, end, after, closing=True)

    def return_value(self, start: int, end: int, var: str) -> None:
        """``return x;`` -> ``{ T ret = ( x); exit CCs; return ret; }``: the value's
        collectives run before the exit checks."""
        text = self.rw.tu.text
        if not text.startswith("return", start) or text[end - 1] != ";":
            raise AnalysisSkipped("instrumentation: return statement not where planned")
        words = [w for w in self.plan.return_type.split() if w not in _STORAGE_WORDS]
        ret = " ".join(words)
        before, after = wrap("cc_return_value.c.j2", comms=self.comms, var=var,
                             return_type=ret, void=ret == "void")
        self.rw.add(start, start + len("return"), before)
        self.rw.add(end - 1, end, after, closing=True)

    def init(self, pos: Pos) -> None:
        """`` = MPI_COMM_NULL`` right after the name of an uninitialised local
        communicator, so exits before its first assignment pass a valid handle."""
        at, text = self.rw.offset(pos), self.rw.tu.text
        if not (at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")
                and text[at:].lstrip(" \t")[:1] in (",", ";")):
            raise AnalysisSkipped(f"instrumentation: no declarator name before {pos}")
        template, null = INIT
        self.rw.add(at, at, render(template, null=null))

    def run(self) -> None:
        for pos in self.plan.inits:
            self.init(pos)
        for site in self.plan.sites:
            self.site(site)
        for point in self.plan.exits:
            self.exit(point)
        at = self.rw.offset(self.plan.def_start)
        self.rw.add(at, at, "".join(self.defs))


def rewrite(tu: ParsedTU, plans: list[FunctionPlan]) -> str:
    """Return the preprocessed text with CC calls inserted for the planned functions."""
    if not plans:
        return tu.text
    rw = Rewriter(tu)
    first = min(plans, key=lambda p: p.def_start)
    at = rw.offset(first.def_start)
    rw.add(at, at, render("cc_decls.c.j2", declarations=declarations()))
    for plan in plans:
        FunctionRewriter(rw, plan).run()
    return rw.apply()
