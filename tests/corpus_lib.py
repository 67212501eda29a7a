"""The corpus of MPI programs under tests/corpus/: discovery, inline annotations,
building with a given compiler and reading GCC-format diagnostics.

The annotation format is documented in tests/corpus/README.md.  Every process is run
through tests/mpirun.py, so nothing here can hang.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import mpirun  # tests/ is on sys.path under pytest (no tests/__init__.py)

from mpicc_wrap import rules

T = TypeVar("T")
CORPUS = Path(__file__).parent / "corpus"
DEFAULT_NPROCS = (2, 3, 4)
COMPILE_TIMEOUT = 120.0

KEYS = ("corpus", "nprocs", "expect-warning", "expect-root-warning", "expect-note",
        "expect-link-warning",
        "expect-dynamic", "expect-exit-site", "output-deterministic", "may-warn",
        "never-printed")
_KEY_RE = "|".join(re.escape(k) for k in KEYS)
# One annotation: a key, an optional ':' and a value running to the next key or the end.
ANNOTATION = re.compile(rf"\b({_KEY_RE})\b:?\s*(.*?)\s*(?=;?\s*\b(?:{_KEY_RE})\b|\*/|$)")
COMMENT = re.compile(r"//(.*)$|/\*(.*?)(?:\*/|$)")
DIAGNOSTIC = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|note|error): (?P<msg>.*)$",
    re.MULTILINE,
)
TAG = re.compile(r"\[-W(?:error=)?(mpi-[a-z-]+)\]\s*$")


def rule_tag(tag: str) -> str:
    """``tag`` itself, after checking that the rules registry defines it: an expected
    tag the tool cannot emit would make a test vacuous."""
    if tag not in rules.RULES:
        raise ValueError(f"tag {tag!r} is not in mpicc_wrap.rules.RULES")
    return tag


# A note that stands for a warning: a collective grouped under the warning of its cause.
SAME_CAUSE = re.compile(r": the same cause as the warning at line \d+$")

# Annotation key -> the tag of the warning it expects.
EXPECTED_TAGS = {"expect-warning": rule_tag(rules.COLLECTIVE_ORDER.tag),
                 "expect-link-warning": rule_tag(rules.COLLECTIVE_ORDER.tag),
                 "expect-root-warning": rule_tag(rules.COLLECTIVE_ROOT.tag)}


@dataclass(frozen=True)
class Mark:
    """One annotation: its kind, value, and the file and line it sits on."""

    key: str
    value: str
    file: str  # basename of the source file
    line: int

    def names(self) -> list[str]:
        """Alternative names in the value (``a()|b()``), without parentheses."""
        return [n.strip().rstrip("()").strip() for n in self.value.split("|") if n.strip()]


@dataclass
class Program:
    """A corpus program: one .c file or a directory of .c files built together."""

    path: Path
    sources: list[Path]
    verdict: str
    nprocs: tuple[int, ...]
    marks: list[Mark] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem if self.path.is_file() else self.path.name

    @property
    def buggy(self) -> bool:
        return self.verdict == "buggy"

    def marked(self, key: str) -> list[Mark]:
        return [m for m in self.marks if m.key == key]

    def never_printed(self) -> str | None:
        """Text a buggy program never prints when plain MPI tears the job down."""
        marks = self.marked("never-printed")
        return marks[0].value.split()[0] if marks and marks[0].value else None

    def dynamic_sites(self) -> list[Mark]:
        """Sites a DYNAMIC-CHECK report may name: expect-dynamic, else the warned ones."""
        sites = self.marked("expect-dynamic")
        if not sites:
            sites = self.marked("expect-warning") + self.marked("expect-link-warning")
        return sites


@dataclass(frozen=True)
class Diagnostic:
    """One GCC-format diagnostic line."""

    file: str
    line: int
    column: int
    kind: str  # warning, note or error
    message: str

    @property
    def tag(self) -> str | None:
        """The ``mpi-...`` tag of a ``[-Wmpi-...]`` warning, else None."""
        m = TAG.search(self.message)
        return m.group(1) if m else None

    def at(self, mark: Mark) -> bool:
        return Path(self.file).name == mark.file and self.line == mark.line


@dataclass
class Build:
    """Result of building a program: the executable and every step's stderr."""

    exe: Path
    ok: bool
    compile_stderr: str  # all compile steps (one-step builds: everything)
    link_stderr: str  # link step of a multi-file build ("" for one-step builds)
    log: str  # commands and outputs, for failure messages


def parse_annotations(text: str, file: str) -> list[Mark]:
    """All annotations found in the comments of ``text``."""
    marks = []
    for number, line in enumerate(text.splitlines(), start=1):
        for comment in COMMENT.finditer(line):
            body = comment.group(1) if comment.group(1) is not None else comment.group(2)
            for key, value in ANNOTATION.findall(body or ""):
                marks.append(Mark(key, value.strip(), file, number))
    return marks


def load(path: Path) -> Program:
    """Read one program (file or directory) and its annotations."""
    sources = sorted(path.glob("*.c")) if path.is_dir() else [path]
    marks = [m for src in sources for m in parse_annotations(src.read_text(), src.name)]
    verdicts = {m.value for m in marks if m.key == "corpus"}
    if len(verdicts) != 1 or not verdicts <= {"buggy", "correct"}:
        raise ValueError(f"{path}: needs exactly one '// corpus: buggy|correct', got {verdicts}")
    counts = [m.value for m in marks if m.key == "nprocs"]
    nprocs = tuple(int(n) for n in counts[0].split()) if counts else DEFAULT_NPROCS
    return Program(path, sources, verdicts.pop(), nprocs, marks)


def discover(root: Path = CORPUS) -> list[Program]:
    """Every program of the corpus, sorted by name."""
    paths = [p for p in sorted(root.iterdir())
             if (p.suffix == ".c" and p.is_file()) or (p.is_dir() and any(p.glob("*.c")))]
    return [load(p) for p in paths]


def params(programs: list[Program]) -> list[tuple[Program, int]]:
    """(program, nprocs) pairs for pytest parametrisation."""
    return [(p, n) for p in programs for n in p.nprocs]


def build(program: Program, compiler: str, outdir: Path,
          env: dict[str, str] | None = None, extra: list[str] | None = None) -> Build:
    """Build ``program`` with ``compiler`` (a command name or path) into ``outdir``.

    A single file is compiled and linked in one step.  A directory's files are
    compiled with -c one by one in sorted order, then linked, so cross-TU summaries
    see exactly what that build order allows.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    exe = outdir / program.name
    cc = mpirun.compiler(compiler) if "/" not in compiler else [compiler]
    flags = ["-O0", *(extra or [])]
    steps: list[list[str]] = []
    if len(program.sources) == 1 and program.path.is_file():
        steps.append([*cc, *flags, str(program.sources[0]), "-o", str(exe)])
    else:
        objects = [outdir / (src.stem + ".o") for src in program.sources]
        steps += [[*cc, *flags, "-c", str(src), "-o", str(obj)]
                  for src, obj in zip(program.sources, objects, strict=True)]
        steps.append([*cc, *flags, *map(str, objects), "-o", str(exe)])
    outputs: list[str] = []
    log: list[str] = []
    for cmd in steps:
        result = mpirun.run(cmd, timeout=COMPILE_TIMEOUT, cwd=outdir, env=env)
        outputs.append(result.stderr)
        log.append(f"$ {' '.join(cmd)}\n{result.output}")
        if result.returncode != 0 or result.timed_out:
            return Build(exe, False, "".join(outputs), "", "\n".join(log))
    link = outputs[-1] if len(steps) > 1 else ""
    compile_err = "".join(outputs[:-1]) if len(steps) > 1 else outputs[0]
    return Build(exe, True, compile_err, link, "\n".join(log))


def diagnostics(stderr: str) -> list[Diagnostic]:
    """Every ``file:line:col: warning|note|error: msg`` line of ``stderr``."""
    return [Diagnostic(m["file"], int(m["line"]), int(m["col"]), m["kind"], m["msg"])
            for m in DIAGNOSTIC.finditer(stderr)]


def mpi_warnings(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Our warnings: those tagged ``[-Wmpi-...]``; every tag must be a registered rule."""
    ours = [d for d in diags if d.kind in ("warning", "error") and d.tag]
    ours += [Diagnostic(d.file, d.line, d.column, "warning",
                        f"{d.message} [-W{rules.COLLECTIVE_ORDER.tag}]")
             for d in diags if d.kind == "note" and SAME_CAUSE.search(d.message)]
    for d in ours:
        rule_tag(str(d.tag))
    return ours


def names_in(text: str, mark: Mark) -> bool:
    """True when ``text`` names one of the mark's alternatives as a whole word."""
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text) for n in mark.names())


def dynamic_lines(output: str) -> list[str]:
    """The lines of a run's output that belong to a ``DYNAMIC-CHECK:`` report."""
    return [line for line in output.splitlines() if "DYNAMIC-CHECK:" in line]


def names_site(report: list[str], mark: Mark, need_name: bool = True) -> bool:
    """True when some report line names ``file:line`` of the mark (and its collective)."""
    where = re.compile(rf"(?<![\w.-]){re.escape(mark.file)}:{mark.line}(?!\d)")
    return any(where.search(line) and (not need_name or names_in(line, mark))
               for line in report)


def sorted_stdout(text: str) -> list[str]:
    """Stdout lines sorted, so output interleaving between ranks does not matter."""
    return sorted(line for line in text.splitlines() if line.strip())


def case_id(case: tuple[Program, int]) -> str:
    """Readable pytest id of a (program, nprocs) case."""
    return f"{case[0].name}-n{case[1]}"


class BuildCache:
    """Builds of corpus programs with one compiler, each made once, thread-safe."""

    def __init__(self, compiler: str, root: Path, env: dict[str, str] | None = None) -> None:
        self.compiler = compiler
        self.root = root
        self.env = env
        self.builds: dict[str, Build] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()

    def get(self, program: Program) -> Build:
        with self.guard:
            lock = self.locks.setdefault(program.name, threading.Lock())
        with lock:
            if program.name not in self.builds:
                self.builds[program.name] = build(program, self.compiler,
                                                  self.root / program.name, self.env)
            return self.builds[program.name]


def selected(request: Any, param: str) -> list[Any]:
    """Values of ``param`` in the collected test items of the requesting module,
    so a module fixture does only the work of the tests actually selected."""
    return [item.callspec.params[param] for item in request.session.items
            if item.module is request.module and hasattr(item, "callspec")
            and param in item.callspec.params]


def pool_map(fn: Callable[..., T], args: Iterable[tuple[Any, ...]], key: Callable[..., str],
             workers: int = 2) -> dict[str, T]:
    """Run ``fn(*a)`` for every ``a`` in a small thread pool; results keyed by ``key(*a)``.

    Runs that hang cost wall time, not CPU of ours: overlapping a couple of them keeps
    the corpus tests within budget on a small machine.
    """
    with ThreadPoolExecutor(workers) as pool:
        futures = {key(*a): pool.submit(fn, *a) for a in args}
        return {k: f.result() for k, f in futures.items()}
