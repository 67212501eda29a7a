"""The command-line model: modes, inputs and languages, flag arities, response files,
our own -W*mpi-* flags, and the derived commands (preprocess, compile, depfiles)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpicc_wrap.driver import commands as pp
from mpicc_wrap.driver.cmdline import parse, split_response
from mpicc_wrap.switches import Options


@pytest.mark.parametrize("argv,mode", [
    (["a.c"], "link"),
    (["-c", "a.c"], "compile"),
    (["-S", "a.c"], "assemble"),
    (["-E", "a.c"], "preprocess"),
    (["-c", "-E", "a.c"], "preprocess"),
    (["-S", "-c", "a.c"], "assemble"),
    (["-M", "a.c"], "deps"),
    (["-MM", "a.c"], "deps"),
    (["-MD", "-c", "a.c"], "compile"),
    (["-fsyntax-only", "a.c"], "syntax"),
    (["-show", "a.c"], "introspect"),
    (["-showme:compile"], "introspect"),
    (["--showme:link"], "introspect"),
    (["-print-search-dirs"], "introspect"),
    (["-print-prog-name=ld"], "introspect"),
    (["-dumpversion"], "introspect"),
    (["--version"], "introspect"),
    (["-v"], "introspect"),
    (["-O2", "-Wall"], "introspect"),
    (["-###", "a.c"], "introspect"),
    # a flag missing the word it takes: the compiler refuses the command, in its words
    (["-c", "a.c", "-MF"], "malformed"),
    (["-c", "a.c", "-o"], "malformed"),
    (["a.c", "-I"], "malformed"),
    (["-c", "a.c", "-o", "-MF"], "compile"),  # "-MF" is the output's name here
    (["-compile_info"], "introspect"),
])
def test_mode(argv: list[str], mode: str) -> None:
    assert parse(argv).mode == mode


@pytest.mark.parametrize("argv,sources", [
    (["a.c", "b.cpp", "c.o", "d.s", "e.i", "libx.a"], ["a.c"]),
    (["-x", "c", "code.txt", "-x", "none", "other.txt", "b.c"], ["code.txt", "b.c"]),
    (["-xc", "code.txt"], ["code.txt"]),
    (["-x", "c++", "a.c"], []),
    (["-x", "c", "-"], ["-"]),
    (["-"], []),
    (["-o", "a.c", "b.c"], ["b.c"]),
    (["-MF", "x.c", "-MT", "y.c", "-MQ", "z.c", "-c", "b.c"], ["b.c"]),
    (["-include", "h.c", "-imacros", "m.c", "-I", "d.c", "b.c"], ["b.c"]),
    (["-Xlinker", "x.c", "-Xpreprocessor", "y.c", "-L", "l.c", "b.c"], ["b.c"]),
    (["--param", "max-inline-insns-single=5", "-aux-info", "p.c", "b.c"], ["b.c"]),
])
def test_sources_and_arities(argv: list[str], sources: list[str]) -> None:
    assert [a.value for a in parse(argv).sources] == sources


def test_joined_and_separate_values() -> None:
    inv = parse(["-oout", "-DA=1", "-D", "B=2", "-lm", "-l", "util", "-Iinc",
                 "-MFx.d", "-Wl,-rpath,/x", "-Wp,-DX", "-include", "f.h", "a.c"])
    assert inv.output == "out"
    assert inv.flag_values("-D") == ["A=1", "B=2"]
    assert inv.flag_values("-l") == ["m", "util"]
    kinds = {a.words: a.kind for a in inv.args}
    assert kinds[("-Wl,-rpath,/x",)] == "link"
    assert kinds[("-Wp,-DX",)] == "pp"
    assert kinds[("-include", "f.h")] == "pp"
    assert kinds[("-MFx.d",)] == "dep"


def test_undef_is_not_u() -> None:
    inv = parse(["-undef", "-u", "sym", "a.c"])
    assert [(a.name, a.kind) for a in inv.args[:2]] == [("-undef", "pp"), ("-u", "link")]


def test_our_warning_flags_consumed() -> None:
    inv = parse(["-Wno-mpi-collective-order", "-Werror=mpi-x", "-Wmpi-y",
                 "-Werror=mpi-y", "-Wno-error=mpi-y", "-Wall", "-c", "a.c"])
    assert inv.warning_flags == {"mpi-collective-order": "off", "mpi-x": "error",
                                 "mpi-y": "warning"}
    assert parse(["-Wmpi-z", "-c", "a.c"]).warning_flags == {"mpi-z": "on"}
    assert inv.command == ("-Wall", "-c", "a.c")
    assert not inv.werror


def test_w_silences_our_warnings_and_is_kept() -> None:
    inv = parse(["-w", "-c", "a.c"])
    assert inv.warning_flags == {"*": "off"} and inv.command == ("-w", "-c", "a.c")


@pytest.mark.parametrize(("argv", "strict"), [
    (["-O2", "-c", "a.c"], True),
    (["-fno-strict-aliasing", "-c", "a.c"], False),
    (["-fno-strict-aliasing", "-O3", "-fstrict-aliasing", "-c", "a.c"], True),  # last wins
    (["-fstrict-aliasing", "-fno-strict-aliasing", "-c", "a.c"], False),
])
def test_strict_aliasing_follows_the_last_flag(argv: list[str], strict: bool) -> None:
    """-fno-strict-aliasing: the analysis keeps fields by name alone (rankdep/layouts.py)."""
    inv = parse(argv)
    assert inv.strict_aliasing is strict
    assert inv.command == tuple(argv)  # passed on to the compiler


def test_plain_werror_escalates_and_is_kept() -> None:
    inv = parse(["-Werror", "-c", "a.c"])
    assert inv.werror and inv.command == ("-Werror", "-c", "a.c")
    assert not parse(["-Werror=unused", "-c", "a.c"]).werror


def test_response_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("inner.rsp").write_text("-DX=1 'sp ace.c'\n")
    Path("outer.rsp").write_text('-c "-DMSG=\\"a b\\"" @inner.rsp\n')
    inv = parse(["@outer.rsp", "@missing.rsp"])
    assert [w for a in inv.args for w in a.words] == [
        "-c", '-DMSG="a b"', "-DX=1", "sp ace.c", "@missing.rsp"]
    assert inv.command == ("@outer.rsp", "@missing.rsp")  # unchanged: keep the @file


def test_our_flag_inside_response_file_is_removed(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("r.rsp").write_text("-Wno-mpi-collective-order -c a.c")
    inv = parse(["@r.rsp"])
    assert inv.command == ("-c", "a.c")
    assert inv.warning_flags == {"mpi-collective-order": "off"}


@pytest.mark.parametrize("text,words", [
    ("a  b\n\tc", ["a", "b", "c"]),
    ("'a b' \"c d\"", ["a b", "c d"]),
    ("a\\ b x\\\\y", ["a b", "x\\y"]),
    ("''", [""]),
    ("pre'mid dle'post", ["premid dlepost"]),
])
def test_split_response(text: str, words: list[str]) -> None:
    assert split_response(text) == words


@pytest.mark.parametrize("argv,output", [
    (["-c", "dir/a.c"], "a.o"),
    (["-S", "dir/a.c"], "a.s"),
    (["-c", "a.c", "-o", "x/y.o"], "x/y.o"),
    (["-x", "c", "-c", "-"], "-.o"),
])
def test_default_output(argv: list[str], output: str) -> None:
    inv = parse(argv)
    assert pp.default_output(inv, inv.sources[0]) == output


@pytest.mark.parametrize("argv,deps", [
    (["-c", "a.c"], []),
    (["-MD", "-c", "d/a.c"], ["-MD", "-MF", "a.d", "-MQ", "a.o"]),
    (["-MMD", "-c", "a.c", "-o", "o/x.obj"], ["-MMD", "-MF", "o/x.d", "-MQ", "o/x.obj"]),
    (["-MD", "-MF", "q.d", "-MT", "t", "-MP", "-c", "a.c"],
     ["-MD", "-MF", "q.d", "-MT", "t", "-MP"]),
    (["-MD", "a.c", "b.c"], ["-MD", "-MF", "a-a.d", "-MQ", "a.o"]),
    (["-MD", "a.c", "-o", "bin/prog"], ["-MD", "-MF", "bin/prog.d", "-MQ", "bin/prog"]),
])
def test_dep_args_match_gcc_defaults(argv: list[str], deps: list[str]) -> None:
    inv = parse(argv)
    assert pp.dep_args(inv, inv.sources[0]) == deps


def test_derived_commands_drop_the_right_flags() -> None:
    inv = parse(["-O2", "-DX", "-Iinc", "-include", "f.h", "-MD", "-c", "-x", "c", "a.txt",
                 "-o", "a.o", "-lm", "-Wl,-z,now"])
    src = inv.sources[0]
    assert pp.preprocess_command(["cc"], inv, src, "t.i", "t.d") == [
        "cc", "-O2", "-DX", "-Iinc", "-include", "f.h", "-E", "-MD", "-MF", "t.d",
        "-MQ", "a.o", "-x", "c", "a.txt", "-o", "t.i"]
    assert pp.compile_rewritten_command(["cc"], inv, "t.i", "a.o") == [
        "cc", "-O2", "-c", "-x", "cpp-output", "t.i", "-o", "a.o"]


def test_general_warning_flags_reach_the_diagnostics() -> None:
    """-Werror, -Wno-error (last wins), -w and -fdiagnostics-color are what the
    diagnostics read from ``warning_flags`` (they were documented but never set)."""
    from mpicc_wrap.report import diagnostics
    from mpicc_wrap.switches import Options

    tag = "mpi-collective-order"
    assert parse(["-Werror", "-c", "a.c"]).warning_flags == {"*": "error"}
    inv = parse(["-Werror", "-Wno-error", "-c", "a.c"])
    assert inv.warning_flags == {"*": "warning"} and not inv.werror
    assert inv.command == ("-Werror", "-Wno-error", "-c", "a.c")
    assert diagnostics.severity(tag, Options(werror=True), inv.warning_flags) == "warning"
    assert parse(["-Wno-error", "-Werror", "-c", "a.c"]).werror
    assert parse(["-Werror", "-w", "-c", "a.c"]).warning_flags == {"*": "off"}
    for word, mode in (("-fdiagnostics-color=always", "always"),
                       ("-fdiagnostics-color", "always"), ("-fno-diagnostics-color", "never"),
                       ("-fdiagnostics-color=auto", "auto")):
        inv = parse([word, "-c", "a.c"])
        assert inv.warning_flags == {"color": mode} and word in inv.command
        assert not inv.unknown_flags


@pytest.mark.parametrize("argv,added", [
    (["-c", "a.c"], True),
    (["-O2", "a.c", "-o", "a"], True),  # link mode compiles a.c too
    (["-c", "a.c", "-s"], True),  # -s strips at the link, after us
    (["-c", "-g", "a.c"], False),
    (["-c", "-g0", "a.c"], False),  # the user's "no debug information" wins
    (["-c", "-g3", "a.c"], False),
    (["-c", "-ggdb", "a.c"], False),
    (["-c", "-gdwarf-4", "a.c"], False),
    (["-c", "-gsplit-dwarf", "a.c"], False),  # would write .dwo files
    (["-S", "a.c"], False),  # assembly text the user reads
    (["-fsyntax-only", "a.c"], False),
    (["a.o", "-o", "a"], False),  # a link of objects compiles nothing
    (["-c", "a.cpp"], False),  # not a C source mpicc-wrap compiles
])
def test_line_tables_only_when_no_debug_option(argv: list[str], added: bool) -> None:
    inv = pp.line_tables(parse(argv), ["mpicc"], Options())
    assert (inv.args[0].words == ("-g1",) and inv.command[0] == "-g1") is added
    if added:  # in every derived compile, before the user's words (the user's come last)
        assert pp.compile_original_command(["mpicc"], inv, inv.sources[0], "x.o")[1] == "-g1"
        assert pp.compile_rewritten_command(["mpicc"], inv, "t.i", "x.o")[1] == "-g1"
    else:
        assert inv == parse(argv)


@pytest.mark.parametrize("compiler,wrapper,added", [
    (["mpicc"], "gcc -I/inc -L/lib -lmpi", True),
    (["mpicc", "-g"], "gcc -lmpi", False),  # MPICC_WRAP_CC="mpicc -g"
    (["mpicc"], "gcc -g -O2 -I/inc -lmpi", False),  # a wrapper built with -g cflags
    (["mpicc"], "", True),  # no -show: nothing to lower
])
def test_line_tables_never_lower_the_compilers_own_debug_option(
        compiler: list[str], wrapper: str, added: bool) -> None:
    inv = pp.line_tables(parse(["-c", "a.c"]), compiler, Options(), lambda: wrapper)
    assert ("-g1" in inv.command) is added


def test_line_tables_switch_off() -> None:
    inv = parse(["-c", "a.c"])
    assert pp.line_tables(inv, ["mpicc"], Options(line_tables=False)) == inv
    assert Options.from_env({"MPICC_WRAP_LINE_TABLES": "0"}).line_tables is False
    assert Options.from_env({}).line_tables is True


@pytest.mark.parametrize(("word", "fmt"), [
    ("-fdiagnostics-format=json", "json"), ("-fdiagnostics-format=json-stderr", "json"),
    ("-fdiagnostics-format=json-file", "text"), ("-fdiagnostics-format=text", "text"),
])
def test_diagnostics_format_reaches_our_warnings_and_is_kept(word: str, fmt: str) -> None:
    inv = parse(["-c", "a.c", word])
    assert inv.warning_flags["format"] == fmt and word in inv.command
    assert inv.unknown_flags == []
