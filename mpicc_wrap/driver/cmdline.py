"""The gcc/mpicc command-line model: classify argv into an ``Invocation``.

Table-driven, in the spirit of LLVM scan-build-py's libscanbuild/compilation.py: one
table says which flags take an argument (separate and/or joined) and what they are
for, so the driver can rebuild the commands it needs (preprocess only, compile the
rewritten text, link) from the user's own words without re-interpreting them.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from mpicc_wrap import rules

__all__ = ["ARITY", "COMPILED", "DEBUG_PREFIX", "LINE_TABLES", "Arg", "Invocation",
           "input_language", "parse", "split_response"]

# Kinds of argument.  "pp": preprocessor-only (dropped when compiling a .i file);
# "dep": dependency-file flags; "link": link-only; "lang": -x; "output": -o;
# "mode": -c/-S/-E/-M/-MM/-fsyntax-only; "flag": everything else (kept everywhere).
SEPARATE, JOINED, BOTH = "separate", "joined", "both"

# flag -> (how its argument is given, kind)
ARITY: dict[str, tuple[str, str]] = {
    "-o": (BOTH, "output"),
    "-x": (BOTH, "lang"),
    "-I": (BOTH, "pp"),
    "-D": (BOTH, "pp"),
    "-U": (BOTH, "pp"),
    "-A": (BOTH, "pp"),
    "-include": (BOTH, "pp"),
    "-imacros": (BOTH, "pp"),
    "-isystem": (BOTH, "pp"),
    "-iquote": (BOTH, "pp"),
    "-idirafter": (BOTH, "pp"),
    "-iprefix": (BOTH, "pp"),
    "-iwithprefix": (BOTH, "pp"),
    "-iwithprefixbefore": (BOTH, "pp"),
    "-isysroot": (BOTH, "pp"),
    "-imultilib": (BOTH, "pp"),
    "-Xpreprocessor": (SEPARATE, "pp"),
    "-MF": (BOTH, "dep"),
    "-MT": (BOTH, "dep"),
    "-MQ": (BOTH, "dep"),
    "-L": (BOTH, "link"),
    "-l": (BOTH, "link"),
    "-Xlinker": (SEPARATE, "link"),
    "-T": (BOTH, "link"),
    "-u": (BOTH, "link"),
    "-z": (SEPARATE, "link"),
    "-e": (SEPARATE, "link"),
    "-Xassembler": (SEPARATE, "flag"),
    "-aux-info": (SEPARATE, "flag"),
    "--param": (BOTH, "flag"),
    "-specs": (BOTH, "flag"),
    "-B": (BOTH, "flag"),
    "-wrapper": (SEPARATE, "flag"),
    "-dumpbase": (SEPARATE, "flag"),
    "-dumpbase-ext": (SEPARATE, "flag"),
    "-dumpdir": (SEPARATE, "flag"),
    "-G": (SEPARATE, "flag"),
}

# Argument-less flags whose kind is not "flag".
SIMPLE: dict[str, str] = {
    "-c": "mode", "-S": "mode", "-E": "mode", "-M": "mode", "-MM": "mode",
    "-fsyntax-only": "mode",
    "-MD": "dep", "-MMD": "dep", "-MP": "dep", "-MG": "dep",
    "-nostdinc": "pp", "-undef": "pp", "-C": "pp", "-CC": "pp", "-P": "pp", "-H": "pp",
    "-dD": "pp", "-dM": "pp", "-dN": "pp", "-dI": "pp", "-dU": "pp",
}

# Prefixes (joined forms) for kinds other than "flag".
PREFIX_KINDS: tuple[tuple[str, str], ...] = (("-Wp,", "pp"), ("-Wl,", "link"))

INTROSPECT_EXACT = frozenset({
    "-show", "-showme", "-compile_info", "-link_info", "-compile-info", "-link-info",
    "--version", "-###", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs",
    "--help", "-help", "--target-help",
})
INTROSPECT_PREFIX = ("-print-", "--print-", "-showme:", "--showme", "--help=")

# Input language by file extension (gcc's table, reduced to what the driver needs).
EXT_LANG: dict[str, str] = {
    ".c": "c", ".i": "cpp-output", ".h": "c-header",
    ".cc": "c++", ".cp": "c++", ".cxx": "c++", ".cpp": "c++", ".c++": "c++", ".C": "c++",
    ".CPP": "c++", ".ii": "c++-cpp-output", ".hh": "c++-header", ".hpp": "c++-header",
    ".s": "assembler", ".S": "assembler-with-cpp", ".sx": "assembler-with-cpp",
    ".f": "f77", ".for": "f77", ".F": "f77-cpp-input", ".f90": "f95", ".F90": "f95-cpp-input",
    ".f95": "f95", ".f03": "f95", ".f08": "f95", ".m": "objective-c",
}
# Languages gcc compiles (everything else is a linker input).
COMPILED = frozenset(EXT_LANG.values())

# Debug options.  A word with this prefix is the user's choice of debug information
# (-g, -g0, -ggdb, -gdwarf-4, -gsplit-dwarf, ...), which mpicc-wrap leaves alone;
# without one it adds LINE_TABLES (commands.line_tables) so that the deadlock
# diagnosis can name file:line.  gcc and clang both read -g1 as line tables only.
DEBUG_PREFIX = "-g"
LINE_TABLES = ("-g1",)

MODE_PRIORITY = (("-E", "preprocess"), ("-M", "deps"), ("-MM", "deps"), ("-S", "assemble"),
                 ("-c", "compile"), ("-fsyntax-only", "syntax"))

_OURS = re.compile(r"^-W(?:(no-)|(error=)|(no-error=))?mpi-([A-Za-z0-9_-]+)$")
# -Wmpi-TAG only enables (escalation stays with -Werror), as in gcc.
_OURS_STATE = {(False, False, False): "on", (True, False, False): "off",
               (False, True, False): "error", (False, False, True): "warning"}


class Arg(NamedTuple):
    """One argument as the user wrote it (one word, or a flag and its value)."""

    words: tuple[str, ...]
    kind: str  # input, output, mode, lang, dep, pp, link, flag, introspect, malformed
    name: str = ""  # the flag ("-MF"), or "" for inputs
    value: str = ""  # the flag's argument, or the input path
    lang: str = ""  # inputs: effective language ("c", "object", "c++", ...)
    explicit: bool = False  # inputs: language came from -x


class Invocation(NamedTuple):
    """A classified compiler invocation."""

    mode: str  # link, compile, assemble, preprocess, deps, syntax, introspect, malformed
    args: tuple[Arg, ...]  # expanded argv, our -W*mpi-* flags removed
    command: tuple[str, ...]  # what to run for "the user's original command"
    # "mpi-TAG" -> on | off | error | warning; "*" -> off (-w), error (-Werror) or
    # warning (-Wno-error); "color" -> always | never | auto (-fdiagnostics-color);
    # "format" -> json (-fdiagnostics-format=json or json-stderr: gcc's JSON on stderr)
    warning_flags: dict[str, str]
    werror: bool  # plain -Werror is in force (escalates our warnings too)

    @property
    def inputs(self) -> list[Arg]:
        return [a for a in self.args if a.kind == "input"]

    @property
    def sources(self) -> list[Arg]:
        """The C translation units mpicc-wrap analyses."""
        return [a for a in self.inputs if a.lang == "c"]

    @property
    def include_dirs(self) -> list[str]:
        """The user's ``-I`` and ``-iquote`` directories, in order."""
        return [a.value for a in self.args if a.name in ("-I", "-iquote") and a.value]

    @property
    def output(self) -> str | None:
        outs = [a.value for a in self.args if a.kind == "output"]
        return outs[-1] if outs else None

    @property
    def unknown_flags(self) -> list[str]:
        """Our ``-W*mpi-TAG`` flags whose tag no rule defines (``rules.RULES``)."""
        return sorted(f"-Wmpi-{t.removeprefix('mpi-')}" for t in self.warning_flags
                      if t not in ("*", "color", "format") and rules.lookup(t) is None)

    def flag_values(self, name: str) -> list[str]:
        return [a.value for a in self.args if a.name == name]

    def has(self, name: str) -> bool:
        return any(a.name == name for a in self.args)

    @property
    def strict_aliasing(self) -> bool:
        """False under ``-fno-strict-aliasing`` (the last of it and ``-fstrict-aliasing``
        wins, as in gcc): the user may access one object through two struct types, so
        the analysis keeps fields by name alone (``analysis/rankdep/layouts.py``)."""
        last = [a.name for a in self.args
                if a.name in ("-fstrict-aliasing", "-fno-strict-aliasing")]
        return not last or last[-1] == "-fstrict-aliasing"

    @property
    def debug_chosen(self) -> bool:
        """The user gave a debug option (``DEBUG_PREFIX``), ``-g0`` included."""
        return any(a.kind == "flag" and a.name.startswith(DEBUG_PREFIX) for a in self.args)


def input_language(path: str) -> str:
    """gcc's language for an input without -x: by extension, else a linker input."""
    if path == "-":
        return "none"
    return EXT_LANG.get(os.path.splitext(path)[1], "object")


def parse(argv: list[str]) -> Invocation:
    """Classify ``argv`` (without the program name)."""
    words, ours_in_file = expand_response_files(argv)
    args: list[Arg] = []
    flags: dict[str, str] = {}
    general = ""  # "error" after -Werror, "warning" after -Wno-error: the last one wins
    silent = False
    lang: str | None = None
    i = 0
    while i < len(words):
        word = words[i]
        m = _OURS.match(word)
        if m:
            state = _OURS_STATE[(bool(m.group(1)), bool(m.group(2)), bool(m.group(3)))]
            flags["mpi-" + m.group(4)] = state
            i += 1
            continue
        arg, i = _classify(words, i, lang)
        if arg.kind == "lang":
            lang = None if arg.value == "none" else arg.value
        general = _GENERAL.get(word, general)
        silent = silent or word == "-w"  # gcc: inhibit all warnings, ours too (passed on)
        colour = _colour(word)
        if colour:
            flags["color"] = colour
        if word.startswith(_FORMAT):
            flags["format"] = _FORMATS.get(word.removeprefix(_FORMAT), "text")
        args.append(arg)
    if silent or general:
        flags["*"] = "off" if silent else general
    command = tuple(w for a in args for w in a.words) if ours_in_file else tuple(
        w for w in argv if not _OURS.match(w))
    return Invocation(_mode(args), tuple(args), command, flags, general == "error")


_GENERAL = {"-Werror": "error", "-Wno-error": "warning"}
# gcc's diagnostics formats that print JSON on stderr (json-file writes a file instead:
# ours stay text on stderr then)
_FORMAT = "-fdiagnostics-format="
_FORMATS = {"json": "json", "json-stderr": "json"}


def _colour(word: str) -> str:
    """gcc's colour mode for a -f[no-]diagnostics-color[=MODE] word, else ""."""
    if word in ("-fdiagnostics-color", "-fdiagnostics-color=always"):
        return "always"
    if word in ("-fno-diagnostics-color", "-fdiagnostics-color=never"):
        return "never"
    return "auto" if word == "-fdiagnostics-color=auto" else ""


def _classify(words: list[str], i: int, lang: str | None) -> tuple[Arg, int]:
    """The argument starting at ``words[i]`` and the index after it."""
    word = words[i]
    if word == "-" or not word.startswith("-"):
        effective = lang or input_language(word)
        return Arg((word,), "input", "", word, effective, lang is not None), i + 1
    if word in INTROSPECT_EXACT or word.startswith(INTROSPECT_PREFIX):
        return Arg((word,), "introspect", word), i + 1
    if word in ARITY:
        if i + 1 == len(words):  # "-o" or "-MF" last: gcc refuses the command
            return Arg((word,), "malformed", word), i + 1
        return Arg(tuple(words[i:i + 2]), ARITY[word][1], word, words[i + 1]), i + 2
    if word in SIMPLE:
        return Arg((word,), SIMPLE[word], word), i + 1
    for name in sorted(ARITY, key=len, reverse=True):
        how, kind = ARITY[name]
        if how != SEPARATE and word.startswith(name):
            value = word[len(name):]
            if name in ("-specs", "--param") and value.startswith("="):
                value = value[1:]
            return Arg((word,), kind, name, value), i + 1
    for prefix, kind in PREFIX_KINDS:
        if word.startswith(prefix):
            return Arg((word,), kind, prefix, word[len(prefix):]), i + 1
    return Arg((word,), "flag", word), i + 1


def _mode(args: list[Arg]) -> str:
    """What the command does; "malformed" when the compiler will refuse it (a flag
    missing its argument), so that it runs unchanged and says why in its own words."""
    if any(a.kind == "malformed" for a in args):
        return "malformed"
    if any(a.kind == "introspect" for a in args) or not any(a.kind == "input" for a in args):
        return "introspect"
    names = {a.name for a in args if a.kind == "mode"}
    for flag, mode in MODE_PRIORITY:
        if flag in names:
            return mode
    return "link"


def expand_response_files(argv: list[str], depth: int = 0) -> tuple[list[str], bool]:
    """Expand ``@file`` arguments like gcc (libiberty ``expandargv``); a missing file
    stays a literal argument.  Also says whether one of our own flags came from a file."""
    out: list[str] = []
    ours = False
    for word in argv:
        path = word[1:]
        if not word.startswith("@") or depth > 20 or not os.path.isfile(path):
            out.append(word)
            continue
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            inner, nested = expand_response_files(split_response(f.read()), depth + 1)
        ours = ours or nested or any(_OURS.match(w) for w in inner)
        out.extend(inner)
    return out, ours


def split_response(text: str) -> list[str]:
    """Split response-file text like libiberty ``buildargv``: whitespace separates,
    single and double quotes group, a backslash escapes the next character."""
    words: list[str] = []
    cur: list[str] = []
    in_word = False
    quote = ""
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            cur.append(next(chars, ""))
            in_word = True
        elif quote:
            if ch == quote:
                quote = ""
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote = ch
            in_word = True
        elif ch.isspace():
            if in_word:
                words.append("".join(cur))
            cur, in_word = [], False
        else:
            cur.append(ch)
            in_word = True
    if in_word:
        words.append("".join(cur))
    return words
