"""Derived compiler commands: preprocess one source (writing the user's depfile as gcc
would have named it), compile rewritten text, and gcc's default output names; and
whether a command is passed through unchanged."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable

from mpicc_wrap.driver.cmdline import DEBUG_PREFIX, LINE_TABLES, Arg, Invocation
from mpicc_wrap.switches import Options

__all__ = [
    "COMPILE_KINDS", "PASSTHROUGH_MODES", "PREPROCESS_KINDS", "compile_original_command",
    "compile_rewritten_command", "default_output", "dep_args", "depfile", "line_tables",
    "passthrough",
    "preprocess_command", "stem", "wants_depfile", "words",
]

PASSTHROUGH_MODES = frozenset({"introspect", "preprocess", "deps", "malformed"})

# Kinds of argument kept in each derived command (see cmdline.ARITY kinds).
PREPROCESS_KINDS = frozenset({"flag", "pp"})
COMPILE_KINDS = frozenset({"flag"})
MODE_FLAG = {"compile": "-c", "assemble": "-S", "link": "-c", "syntax": "-fsyntax-only"}


def passthrough(inv: Invocation, options: Options) -> bool:
    """True when the user's command runs unchanged: nothing to analyse (a link of
    objects alone still needs the link check and the checker runtime).  Lives here, in
    a light module, so that pass-through runs skip loading the pipeline."""
    multi_output = inv.output is not None and len(inv.inputs) > 1
    return (options.disable or inv.mode in PASSTHROUGH_MODES or not inv.inputs
            or (not inv.sources and inv.mode != "link")
            or (inv.mode in ("compile", "assemble") and multi_output)
            or output_is_an_input(inv))


def output_is_an_input(inv: Invocation) -> bool:
    """``-c b.c -o b.c``: gcc refuses to write over an input; we compile a private
    copy of the source and would overwrite the user's file with the object."""
    out = inv.output
    target = _inode(out) if out is not None and out != "-" else None
    return target is not None and any(
        arg.value != "-" and _inode(arg.value) == target for arg in inv.inputs)


def _inode(path: str) -> tuple[int, int] | None:
    """The file ``path`` names, whatever the name (``./b.c``, a link); None if none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


# Modes whose output is an object the deadlock diagnosis may have to name lines in
# (-S is left alone: its output is assembly text the user reads).
LINE_TABLE_MODES = frozenset({"compile", "link"})


def line_tables(inv: Invocation, compiler: list[str], options: Options,
                wrapper_line: Callable[[], str] = str) -> Invocation:
    """``inv`` with ``LINE_TABLES`` (-g1) in front of the user's words when it compiles
    C sources to objects and neither the user, nor the compiler command, nor the MPI
    wrapper's own flags (``wrapper_line()``: its -show line,
    asked only when the rest chose none) choose debug options.  -g1
    adds .debug_line and .debug_info sections only (the code is byte-identical, see
    the README); a -g0 of the user, or -s at the link, still wins."""
    if (not options.line_tables or inv.mode not in LINE_TABLE_MODES or not inv.sources
            or inv.debug_chosen):
        return inv
    if any(w.startswith(DEBUG_PREFIX) for w in compiler[1:]):
        return inv
    try:
        wrapper = shlex.split(wrapper_line())
    except ValueError:
        wrapper = []
    if any(w.startswith(DEBUG_PREFIX) for w in wrapper[1:]):
        return inv  # -g1 after the wrapper's -g would lower it
    added = tuple(Arg((w,), "flag", w) for w in LINE_TABLES)
    return inv._replace(args=added + inv.args, command=LINE_TABLES + inv.command)


def words(inv: Invocation, kinds: frozenset[str]) -> list[str]:
    """The user's words of the arguments whose kind is in ``kinds``, in order."""
    return [w for a in inv.args if a.kind in kinds for w in a.words]


def stem(path: str) -> str:
    """Basename without its last suffix (gcc's "dumpbase"): ``dir/a.c`` -> ``a``."""
    return os.path.splitext(os.path.basename(path))[0]


def default_output(inv: Invocation, source: Arg) -> str:
    """Where gcc writes the compile/assemble output of ``source``."""
    if inv.output is not None:
        return inv.output
    return stem(source.value) + (".s" if inv.mode == "assemble" else ".o")


def wants_depfile(inv: Invocation) -> bool:
    return inv.has("-MD") or inv.has("-MMD")


def depfile(inv: Invocation, source: Arg) -> str:
    """The depfile gcc 12 writes for ``source`` under -MD/-MMD."""
    return inv.flag_values("-MF")[-1] if inv.has("-MF") else _depfile(inv, source)


def dep_args(inv: Invocation, source: Arg, path: str | None = None) -> list[str]:
    """Explicit -MD/-MF/-MQ... flags reproducing gcc 12's default depfile target for
    ``source``, written to ``path`` (default: where gcc would write it), so the depfile
    names the user's files, never ours."""
    kind = [a.name for a in inv.args if a.name in ("-MD", "-MMD")]
    if not kind:
        return []
    out = [kind[-1], "-MF", path or depfile(inv, source)]
    targets = [w for a in inv.args if a.name in ("-MT", "-MQ") for w in (a.name, a.value)]
    out += targets or ["-MQ", _target(inv, source)]
    out += [a.name for a in inv.args if a.name in ("-MP", "-MG")]
    return out


def _depfile(inv: Invocation, source: Arg) -> str:
    if inv.output is not None:
        return os.path.splitext(inv.output)[0] + ".d"
    compiled = [a for a in inv.inputs if a.lang != "object"]
    if inv.mode == "link" and len(compiled) > 1:
        return f"a-{stem(source.value)}.d"
    return stem(source.value) + ".d"


def _target(inv: Invocation, source: Arg) -> str:
    if inv.output is not None:
        return inv.output
    return stem(source.value) + ".o"


def preprocess_command(compiler: list[str], inv: Invocation, source: Arg, out: str,
                       dep_path: str) -> list[str]:
    """``CC -E`` of ``source`` with the user's flags into ``out`` (depfile: ``dep_path``)."""
    return [*compiler, *words(inv, PREPROCESS_KINDS), "-E", *dep_args(inv, source, dep_path),
            "-x", "c", source.value, "-o", out]


def compile_rewritten_command(compiler: list[str], inv: Invocation, text_path: str,
                              out: str | None, extra: tuple[str, ...] = (),
                              drop: frozenset[str] = frozenset()) -> list[str]:
    """Compile rewritten preprocessed text: preprocessor and dependency flags dropped,
    line markers in the text keep messages and debug info on the user's file.
    ``out`` None: only check it (-fsyntax-only); ``extra`` flags go last (the type
    net of ``netcompile``), the user's words in ``drop`` are left out."""
    user = [w for w in words(inv, COMPILE_KINDS) if w not in drop]
    mode = [MODE_FLAG[inv.mode]] if out is not None else ["-fsyntax-only"]
    output = ["-o", out] if out is not None else []
    return [*compiler, *user, *mode, "-x", "cpp-output", text_path, *output, *extra]


def compile_original_command(compiler: list[str], inv: Invocation, source: Arg, out: str,
                             ) -> list[str]:
    """Compile the user's own source to ``out`` with the user's flags (link mode, where
    mpicc-wrap makes the object itself), with the depfile gcc would have written."""
    lang = ["-x", "c"] if source.explicit else []
    return [*compiler, *words(inv, PREPROCESS_KINDS), "-c", *dep_args(inv, source),
            *lang, source.value, "-o", out]
