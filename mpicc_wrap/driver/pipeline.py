"""The per-invocation pipeline: preprocess each C source, run the analysis stage,
compile (the original source when unchanged, else the rewritten text), link with the
checker runtime.  Failure policy: the user's errors come from the real compiler,
unchanged; our own failures on valid code never fail the build."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mpicc_wrap import sideindex
from mpicc_wrap.analysis import summaries
from mpicc_wrap.driver import commands as pp
from mpicc_wrap.driver import compiler as cc
from mpicc_wrap.driver import direct, netcompile, relink, speculate, stage
from mpicc_wrap.driver.cmdline import COMPILED, Arg, Invocation
from mpicc_wrap.driver.stage import StageResult
from mpicc_wrap.driver.tempfiles import captured_stderr, private_dir
from mpicc_wrap.errors import AnalysisSkipped, WrapError
from mpicc_wrap.report import diagnostics, emit, jsonl
from mpicc_wrap.runtime import objects
from mpicc_wrap.switches import Options, cache_dir

__all__ = ["BROKEN_REWRITE", "Build", "run"]

BROKEN_REWRITE = "instrumented code did not compile"


@dataclass
class Unit:
    """One C source of the invocation on its way through the pipeline."""

    source: Arg
    obj: str  # the object (or .s) this source becomes
    text_path: str  # temporary preprocessed file
    dep_path: str  # temporary depfile written by the preprocessing run
    pp_stderr: bytes = b""
    result: StageResult | None = None
    names: list[str] = field(default_factory=list)  # the TU's identifiers
    seen: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # index entries

    @property
    def name(self) -> str:
        return "<stdin>" if self.source.value == "-" else self.source.value

    @property
    def rewritten(self) -> bool:
        return self.result is not None and self.result.text is not None


def run(inv: Invocation, compiler: list[str], options: Options,
        argv: list[str] | None = None) -> int:
    """Build what the user asked for; return the exit status.  ``argv``: the raw
    arguments of the ``mpicc-wrap`` process, under which a compile the direct cache
    may hold is stored (None: never stored)."""
    if pp.passthrough(inv, options):
        return cc.run([*compiler, *inv.command])[0]
    if inv.werror:
        options = options._replace(werror=True)
    stdin = sys.stdin.buffer.read() if any(a.value == "-" for a in inv.inputs) else None
    with private_dir(keep=options.debug) as tmp:
        inv = pp.line_tables(inv, compiler, options, lambda: _wrapper_line(compiler))
        build = Build(inv, compiler, options, stdin, tmp)
        if argv is None or not build.direct_candidate(argv):
            return build.run()
        with captured_stderr(tmp) as log:
            code = build.run()
        if code == 0:
            build.store_direct(argv, log.read_bytes())
        return code


class Build:
    """One invocation with C sources to analyse (compile, assemble, link, syntax)."""

    def __init__(self, inv: Invocation, compiler: list[str], options: Options,
                 stdin: bytes | None, tmp: str) -> None:
        self.inv, self.compiler, self.options = inv, compiler, options
        self.stdin, self.tmp = stdin, tmp
        self.units = [self._unit(k, src) for k, src in enumerate(inv.sources)]
        self.skips: list[str] = []  # "FILE: REASON" of our own failures
        self.spec: speculate.Speculation | None = None  # the user's compile, running
        self.spec_done = False  # the analyses are over: too late to start it
        self.may_speculate = self._may_speculate()
        self.terminal = sys.stderr.isatty()  # before a capture for the direct cache

    def _unit(self, k: int, source: Arg) -> Unit:
        base = os.path.join(self.tmp, f"{k}-{pp.stem(source.value) or 'stdin'}")
        obj = base + ".o" if self.inv.mode == "link" else pp.default_output(self.inv, source)
        return Unit(source, obj, base + ".i", base + ".d")

    def original(self) -> int:
        """Run the user's command as given (minus our own flags), or finish the run
        of it that started with the analysis."""
        if self.spec is not None:  # an interrupt while it finishes still stops it
            code = self.spec.finish()
            self.spec = None
            return code
        return cc.run([*self.compiler, *self.inv.command], self.stdin)[0]

    def _may_speculate(self) -> bool:
        """Whether the user's command may run beside the analysis (``speculate``):
        only where its result is the build's whenever the analysis rewrites nothing."""
        o, inv = self.options, self.inv
        return (o.speculate != "off" and inv.mode in ("compile", "assemble")
                and self.stdin is None and inv.output != "-" and not o.strict
                and not o.werror and "error" not in inv.warning_flags.values())

    def _speculate(self, unit: Unit | None = None) -> None:
        """Start the user's command if it may run and a CPU is idle, or the TU just
        preprocessed (``unit``) is large (``speculate.large``), or no TU is ever
        rewritten (``MPICC_WRAP_INSTRUMENT=0``: its work is never thrown away).  Called
        before the preprocessing, after it, and about every 0.1 s while an analysis runs
        (the other jobs of a ``make -j`` end; a long analysis need not wait for them)."""
        if self.spec is not None or self.spec_done or not self.may_speculate:
            return
        o = self.options
        if (o.speculate == "always" or not o.instrument  # nothing is rewritten: no waste
                or speculate.idle_cpu()
                or (unit is not None and speculate.large(unit.text_path))):
            self.spec = speculate.Speculation([*self.compiler, *self.inv.command], self.tmp,
                                              terminal=self.terminal)

    def _cancel(self) -> None:
        spec, self.spec = self.spec, None
        if spec is not None:
            spec.cancel()

    def _discard(self) -> None:
        """A failed build leaves no object, as gcc's own failures do (``_may_speculate``
        keeps a running compile out of builds that can fail here; this is the
        backstop)."""
        if self.spec is None:
            return
        self._cancel()
        for unit in self.units:
            with contextlib.suppress(OSError):
                os.unlink(unit.obj)

    def run(self) -> int:
        """Build; our notes are printed only when the build succeeds (on a user error
        the compiler's own messages are all the user needs)."""
        code = self._build()
        if code == 0 and self.skips:
            if self.options.strict:
                raise WrapError(f"analysis skipped for {self.skips[0]}")
            for line in self.skips:
                print(f"mpicc-wrap: note: analysis skipped for {line}", file=sys.stderr)
        return code

    def _build(self) -> int:
        self._speculate()
        try:
            return self._steps()
        finally:
            self._cancel()  # an exception, or a result it did not give

    def _steps(self) -> int:
        for unit in self.units:
            if not self._preprocess(unit):
                return self.original()  # the user's error, in the compiler's words
            self._speculate(unit)
            unit.result = self._analyse(unit)
        self.spec_done = True
        if self.skips and self.options.strict:
            code = self._syntax_check()
            if code != 0:
                return code  # invalid C: the compiler says why
            raise WrapError(f"analysis skipped for {self.skips[0]}")
        if sum(u.result.errors for u in self.units if u.result):
            self._discard()
            return 1
        if self.inv.mode == "link":
            return self._link()
        if self.inv.mode == "syntax":
            return self.original()
        return self._compile()

    def direct_candidate(self, argv: list[str]) -> bool:
        """Whether this command may be stored in the direct cache (``direct``): one C
        source compiled with -c, stderr not a terminal."""
        o = self.options
        return (self.inv.mode == "compile" and len(self.inv.inputs) == 1
                and len(self.units) == 1 and self.units[0].source.value != "-"
                and self.inv.output != "-" and o.result_cache and not o.debug
                and direct.cacheable_args(argv) and direct.usable(os.environ))

    def store_direct(self, argv: list[str], stderr: bytes) -> None:
        """Record this successful compile in the direct cache (our failures: none)."""
        unit = self.units[0]
        result = unit.result
        if (self.skips or result is None or result.analysis is None
                or not os.path.exists(unit.obj)):
            return  # an analysis skipped (under load, say) is not an answer to keep
        with open(unit.text_path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        dep = pp.depfile(self.inv, unit.source) if pp.wants_depfile(self.inv) else None
        side = summaries.side_file(unit.obj)
        names = set(result.analysis.consulted)
        seen = [(p, s) for p, s in unit.seen if os.path.basename(os.path.dirname(p)) in names]
        record = {
            "text": text, "tool_paths": cc.identity(self.compiler),
            "object": (unit.obj, _read(unit.obj)),
            "depfile": (dep, _read(dep)) if dep and os.path.exists(dep) else None,
            "side": ((_read(side), {n: dataclasses.asdict(s)
                                    for n, s in result.summaries.items()})
                     if os.path.exists(side) else None),
            "stderr": stderr, "external": direct.digest(seen), "names": sorted(names),
            "dirs": [os.path.abspath(d) for d in self.inv.include_dirs],
        }
        self._guarded(unit.name, False, direct.store, argv, cache_dir(self.options), record)

    def _syntax_check(self) -> int:
        cmd = [*self.compiler, *pp.words(self.inv, pp.PREPROCESS_KINDS), "-fsyntax-only",
               "-x", "c", *(u.source.value for u in self.units)]
        return cc.run(cmd, self.stdin)[0]

    def _preprocess(self, unit: Unit) -> bool:
        cmd = pp.preprocess_command(self.compiler, self.inv, unit.source, unit.text_path,
                                    unit.dep_path)
        code, unit.pp_stderr = cc.run(cmd, self.stdin, capture=True)
        return code == 0

    def _analyse(self, unit: Unit) -> StageResult | None:
        with open(unit.text_path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        try:
            unit.names = sorted(summaries.identifiers(text))
            unit.seen = sideindex.visible(unit.obj, unit.names, self.inv.include_dirs)
            external = summaries.from_raw(unit.seen)
            options = self.options._replace(strict_aliasing=self.inv.strict_aliasing)
            return stage.run_budgeted(text, unit.name, self.compiler, options,
                                      external=external, warning_flags=self.inv.warning_flags,
                                      tick=self._speculate)
        except Exception as exc:  # our failure on valid code never fails the build
            reason = str(exc) if isinstance(exc, AnalysisSkipped) else (
                f"internal error: {type(exc).__name__}: {exc}")
            if self.options.debug:
                traceback.print_exc()
            self.skips.append(f"{unit.name}: {reason}")
            jsonl.record_skip(self.options, unit.name, reason)
            return None

    def _compile_rewritten(self, unit: Unit, out: str) -> bool:
        """Compile the rewritten text of ``unit`` to ``out``; False if that failed."""
        assert unit.result is not None and unit.result.text is not None
        path = unit.text_path[:-2] + "-rewritten.i"
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(unit.result.text)
        code, err = netcompile.compile_rewritten(self.compiler, self.inv, path,
                                                 unit.text_path, out)
        if code != 0:
            if self.options.debug:
                sys.stderr.buffer.write(err)
            return False
        err = unit.pp_stderr + err
        if self.inv.warning_flags.get("format") == "json":
            err = diagnostics.joined_json(err)
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
        return True

    def _compile(self) -> int:
        """-c / -S: compile rewritten units ourselves, the rest with the user's command
        restricted to them."""
        if any(u.rewritten for u in self.units):
            self._cancel()  # its output is not the build's
        if not self._install_depfiles():
            return self.original()  # the compiler says why, before writing an object
        done = [u for u in self.units if u.rewritten and self._compile_rewritten(u, u.obj)]
        failed = [u for u in self.units if u.rewritten and u not in done]
        code = self._residual(done)
        self.skips += [f"{u.name}: {BROKEN_REWRITE}" for u in failed]
        if code == 0 and self.inv.mode == "compile":
            for unit in self.units:
                self._store(unit)
        return code

    def _install_depfiles(self) -> bool:
        """Put the depfiles of the units we compile where the user asked for them, as
        the compiler would before it writes the object; False when one cannot be
        written there (``-MF nodir/x.d``)."""
        if not pp.wants_depfile(self.inv):
            return True
        try:
            for unit in self.units:
                if unit.rewritten:
                    _copy(unit.dep_path, pp.depfile(self.inv, unit.source))
        except OSError:
            return False
        return True

    def _residual(self, done: list[Unit]) -> int:
        if not done:
            return self.original()
        removed = {id(u.source) for u in done}
        args = [a for a in self.inv.args if id(a) not in removed]
        if not any(a.kind == "input" for a in args):
            return 0
        words = [w for a in args for w in a.words]
        return cc.run([*self.compiler, *words], self.stdin)[0]

    def _store(self, unit: Unit) -> None:
        result = unit.result
        if result is None:
            return
        deferred = result.analysis.deferred if result.analysis else []
        rebuild = relink.describe(self.inv, unit.source) if deferred else None
        self._guarded(unit.name, None, objects.store, unit.obj, result.summaries, deferred,
                      self.options, rebuild)

    def _guarded(self, what: str, default: Any, func: Callable[..., Any], *args: Any) -> Any:
        """Call one of our own hooks; its failure (other than a deliberate WrapError)
        becomes a note, never a failed build."""
        try:
            return func(*args)
        except WrapError:
            raise
        except Exception as exc:
            if self.options.debug:
                traceback.print_exc()
            self.skips.append(f"{what}: internal error: {type(exc).__name__}: {exc}")
            return default

    def _link(self) -> int:
        """Compile every C source to a temporary object, then link in the user's order."""
        checked = False  # an object of this command calls the checker
        for unit in self.units:
            if unit.rewritten and self._compile_rewritten(unit, unit.obj):
                checked = True
                if pp.wants_depfile(self.inv):
                    _copy(unit.dep_path, pp.depfile(self.inv, unit.source))
            else:
                if unit.rewritten:
                    self.skips.append(f"{unit.name}: {BROKEN_REWRITE}")
                cmd = pp.compile_original_command(self.compiler, self.inv, unit.source,
                                                  unit.obj)
                code = cc.run(cmd, self.stdin)[0]
                if code != 0:
                    return code
            self._store(unit)
        words, inputs = self._link_words()
        what = self.inv.output or "a.out"
        # Every linked object's summary record, read once for the link check and the
        # re-instrumentation; the check's findings take the compile-time path.
        records = self._guarded(what, [], objects.read_inputs, inputs)
        found = self._guarded(what, [], summaries.link_findings, records)
        if emit.emit_link(what, found, self.options, self.inv.warning_flags, sys.stderr):
            return 1
        subst = self._guarded(what, {}, relink.substitutes, records, self.compiler,
                              self.options, self.tmp)
        if subst:  # objects re-instrumented now that their callees are known
            words = self._link_words(subst)[0]
        extra = self._runtime(checked or bool(subst))
        if extra and any(a.kind == "lang" for a in self.inv.args):
            extra = ["-x", "none", *extra]  # a user's -x must not apply to our library
        return cc.run([*self.compiler, *words, *extra], self.stdin)[0]

    def _runtime(self, needed: bool) -> list[str]:
        """The link arguments of the checker runtime.  When it cannot be built and no
        object this command compiled calls the checker, the link goes on without it
        (a note says so): our failure must not fail a build that does not need it.
        Objects instrumented by earlier compiles still need it; without it the linker
        names the missing checker symbols."""
        from mpicc_wrap.runtime import library  # only a link needs the checker runtime

        try:
            return library.link_args(self.compiler, self.options, self.tmp)
        except WrapError as exc:
            if needed or self.options.strict:
                raise
            print(f"mpicc-wrap: note: {exc}; linking without it (nothing here is "
                  "instrumented)", file=sys.stderr)
            return []

    def _link_words(self, subst: dict[str, str] | None = None
                    ) -> tuple[list[str], list[str]]:
        """The user's link command with each C source replaced by its object (and each
        input in ``subst`` by its replacement), and the file inputs the linker sees."""
        subst = subst or {}
        objs = {id(u.source): u.obj for u in self.units}
        compiled = any(a.kind == "input" and id(a) not in objs and a.lang in COMPILED
                       for a in self.inv.args)
        words: list[str] = []
        inputs: list[str] = []
        for a in self.inv.args:
            if id(a) in objs:
                obj = subst.get(objs[id(a)], objs[id(a)])
                words += ["-x", "none", obj, *(["-x", a.lang] if a.explicit else [])]
                inputs.append(objs[id(a)])
                continue
            if a.kind == "dep" and not compiled:
                continue
            if a.kind == "input":
                inputs.append(a.value)
                if a.value in subst:
                    words += [subst[a.value] if w == a.value else w for w in a.words]
                    continue
            words += a.words
        return words, inputs


def _wrapper_line(compiler: list[str]) -> str:
    """The MPI wrapper's own command line (its -show), read only when it matters.  The
    analysis child, forked later, reads it too (parser: include directories) and finds
    it in the lru_cache: the extra process runs only when the result cache answers."""
    from mpicc_wrap.frontend import handles

    return handles.show(tuple(compiler))


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _copy(src: str, dst: str) -> None:
    """Install a depfile produced in the private dir (if the run produced one)."""
    if os.path.exists(src):
        shutil.copyfile(src, dst)
