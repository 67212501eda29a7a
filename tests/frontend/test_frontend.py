"""The frontend on small TUs preprocessed by the real mpicc."""

from __future__ import annotations

from pathlib import Path

import pytest
from mpirun import mpicc, run
from pycparser import c_ast, c_generator

from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.frontend import handles, headercache, parser
from mpicc_wrap.model import Loc, ParsedTU, Pos
from mpicc_wrap.switches import Options

HEADERS = ("mpi.h", "stdio.h", "stdlib.h", "string.h", "math.h", "unistd.h", "pthread.h",
           "time.h", "complex.h", "stddef.h", "stdarg.h", "assert.h", "stdbool.h", "stdint.h",
           "setjmp.h")


@pytest.fixture(scope="module")
def options(tmp_path_factory: pytest.TempPathFactory) -> Options:
    """One cache for the module: headers are parsed once, like in a real build."""
    return Options(cache=str(tmp_path_factory.mktemp("cache")))


def preprocess(tmp: Path, src: str, name: str = "src.c", flags: tuple[str, ...] = ()) -> str:
    (tmp / name).write_text(src)
    res = run([*mpicc(), *flags, "-E", name], cwd=tmp, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def parse(tmp: Path, src: str, options: Options, flags: tuple[str, ...] = ()) -> ParsedTU:
    return parser.parse(preprocess(tmp, src, flags=flags), "src.c", mpicc(), options)


def includes(*names: str) -> str:
    return "".join(f"#include <{n}>\n" for n in names)


PRELUDE = includes(*HEADERS)  # one header text for most tests: parsed once per module


def functions(tu: ParsedTU) -> dict[str, c_ast.FuncDef]:
    return {n.decl.name: n for n in tu.ast.ext if isinstance(n, c_ast.FuncDef)}


def calls(node: c_ast.Node, name: str) -> list[c_ast.FuncCall]:
    """Every call of ``name`` below ``node``."""
    found = []

    class V(c_ast.NodeVisitor):
        def visit_FuncCall(self, call: c_ast.FuncCall) -> None:
            if isinstance(call.name, c_ast.ID) and call.name.name == name:
                found.append(call)
            self.generic_visit(call)

    V().visit(node)
    return found


def test_position_maps_to_source_line_and_column(tmp_path: Path, options: Options) -> None:
    lines = [*PRELUDE.splitlines(), "void f(int rank) {"]
    lines += ["    (void)rank;"] * (46 - len(lines))
    lines += ["    MPI_Barrier(MPI_COMM_WORLD);", "}"]
    tu = parse(tmp_path, "\n".join(lines) + "\n", options)
    (call,) = calls(tu.ast, "MPI_Barrier")
    assert call.coord.line > 1000  # a line of the preprocessed text...
    assert tu.text.split("\n")[call.coord.line - 1].lstrip().startswith("MPI_Barrier")
    loc = tu.loc(Pos(call.coord.line, call.coord.column))
    assert (loc.file, loc.line, loc.column) == ("src.c", 47, 5)  # ...mapped to the source


FEATURES = {
    "designated-compound-vla": "void f(int n){int a[n]; struct {int a;} s = {.a=1};"
                               " int *p = (int[]){1,2}; (void)a; (void)s; (void)p;}",
    "static-assert-alignas": "_Static_assert(1, \"x\"); _Alignas(16) int al;"
                             " int f(void){ return _Alignof(int); }",
    "bool-inline-restrict": "static inline _Bool f(int *restrict p){ return *p; }"
                            " int g(int *q){ return f(q); }",
    "knr": "int f(a, b) int a; char *b; { return a + (b != 0); }",
    "variadic-va-arg": "int f(int n, ...){ va_list ap; va_start(ap, n);"
                       " int x = va_arg(ap, int); va_end(ap); return x; }",
    "function-pointers": "int (*fp)(int); int f(int (*g)(int), int x){ return g(x); }",
    "statement-expression": "int f(void){ return ({ int z = 1; z; }); }",
    "int128-typeof-extension": "__int128 w; int f(void){ __typeof__(w) q = 1;"
                               " __extension__ long long r = 2; return (int)(q + r); }",
    "float128-auto-type": "_Float128 g; void f(void){ __auto_type q = 1; q++; }",
    "complex-atomic-threadlocal": "double _Complex dc; _Atomic int at; _Thread_local int tl;"
                                  " int f(void){ return at + tl + (int)creal(dc); }",
    "asm-attributes": "int dl(void) __asm__(\"other\"); struct __attribute__((packed)) P"
                      " { int a; }; int f(void){ __asm__ volatile(\"nop\" ::: \"memory\");"
                      " return (int)offsetof(struct P, a); }",
    "case-ranges-designated-ranges": "int arr[] = { [0 ... 3] = 1 }; int f(int x){"
                                     " switch(x){ case 1 ... 3: return 1;} return 0;}",
    "pragmas": "void f(int n){\n#pragma omp parallel for\nfor(int i=0;i<n;i++);\n"
               "_Pragma(\"omp barrier\")\nif (n)\n#pragma omp single\n;}\n"
               "#pragma weak g\nvoid g(void){}",
    "gnu-masked": "int f(int x){ double _Complex z = 0; __label__ out; __int128_t w = 0;"
                  " __signed__ char c = 0; switch (x) { case 1: x++; __attribute__((fallthrough));"
                  " case 2: x += (int)(__real__ z + __imag__ z) + (int)w + c; [[fallthrough]];"
                  " default: goto out; } out: return x ?: 1; }",
    "comments-kept-by-dash-C": "int f(void){ /* a\n comment */ return 1; // \"x\n }\n",
    "pragma-in-initializer": "int a[] = {\n#pragma omp whatever\n1}; int f(void){ return a[0]; }",
    "generic-masked": "int f(int x){ return _Generic(x, int: 1, default: 0); }",
    "threads-and-time": "void *w(void *a){ return a; } int f(void){ pthread_t t;"
                        " pthread_create(&t, NULL, w, NULL); struct timespec ts;"
                        " clock_gettime(CLOCK_MONOTONIC, &ts); return (int)sqrt(4.0)"
                        " + (int)strlen(\"x\") + getpid(); }",
}


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_real_world_c_parses(tmp_path: Path, options: Options, feature: str) -> None:
    flags = ("-C",) if "comments" in feature else ()
    tu = parse(tmp_path, PRELUDE + FEATURES[feature] + "\n", options, flags)
    assert "f" in functions(tu)
    assert not any(isinstance(n, c_ast.Decl) and n.name == "printf" for n in tu.ast.ext)


def test_system_macro_tokens_in_user_lines_are_kept(tmp_path: Path, options: Options) -> None:
    # GCC flags tokens expanded from system-header macros with `3 4` inside src.c.
    src = PRELUDE + "void f(int x) {\n  assert(x);\n  exit(EXIT_FAILURE);\n}\n"
    tu = parse(tmp_path, src, options)
    (call,) = calls(tu.ast, "exit")
    assert isinstance(call.args.exprs[0], c_ast.Constant)
    assert tu.user_lines >= 3


def test_mpi_h_is_a_system_header_and_user_headers_are_user_code(
        tmp_path: Path, options: Options) -> None:
    (tmp_path / "helper.h").write_text(
        "static inline void sync_all(void) {\n    MPI_Barrier(MPI_COMM_WORLD);\n}\n")
    tu = parse(tmp_path, PRELUDE + '#include "helper.h"\nvoid g(void) { sync_all(); }\n', options)
    assert set(functions(tu)) == {"sync_all", "g"}
    assert not any(getattr(n, "name", None) == "MPI_Barrier" for n in tu.ast.ext)
    (call,) = calls(tu.ast, "MPI_Barrier")
    assert tu.loc(Pos(call.coord.line, call.coord.column)).file == "helper.h"
    assert tu.user_lines == 4


def test_noreturn_from_headers_and_user_code(tmp_path: Path, options: Options) -> None:
    src = PRELUDE + (
        "_Noreturn void die1(void);\nvoid die2(int) __attribute__((noreturn));\n"
        "__attribute__((__noreturn__)) static void die3(void) { exit(1); }\nvoid live(void);\n"
        "void use(int c) { if (c) die1(); if (c > 1) die2(c); if (c > 2) die3(); live(); }\n")
    tu = parse(tmp_path, src, options)
    assert {"exit", "abort", "longjmp", "die1", "die2", "die3"} <= tu.noreturn
    assert "live" not in tu.noreturn and "malloc" not in tu.noreturn


def test_const_pointer_parameters_from_headers_and_user_code(tmp_path: Path,
                                                             options: Options) -> None:
    """Parameters declared ``const T *`` (frontend/prototypes.py), from the system
    headers (through the header cache, in a new process too) and the user's code;
    in the user's code also those of an arithmetic type (a typedef name too), which
    no callee can write through."""
    src = PRELUDE + ("typedef int nc_type; typedef struct { int a; } Pair;\n"
                     "int mine(const double *in, double *out, char **end, "
                     "const char *const *names, int n, nc_type t, Pair p, ...);\n"
                     "void use(double *x, Pair p) { mine(x, x, 0, 0, 1, 2, p); }\n")
    tu = parse(tmp_path, src, options)
    assert tu.const_params["mine"] == {0, 3, 4, 5}
    assert tu.const_params["strlen"] == {0} and tu.const_params["strchr"] == {0}
    assert tu.const_params["memcpy"] == {1} and "memset" not in tu.const_params
    headercache.forget()  # a new process: the facts come from the disk cache
    assert parse(tmp_path, src, options).const_params == tu.const_params


def test_scalar_typedefs_from_headers_and_user_code(tmp_path: Path, options: Options) -> None:
    """Typedef names of arithmetic types (frontend/scalars.py), through chains across
    system headers (``int64_t`` is glibc's ``__int64_t``) and into the user's code;
    pointers, structs and MPI's handle types are not scalars."""
    src = PRELUDE + ("#include <stdint.h>\ntypedef int64_t Gnum; typedef Gnum Flag;\n"
                     "typedef Gnum *GnumPtr; typedef struct { int a; } Pair;\n"
                     "typedef enum { RED, BLUE } Colour;\n"
                     "void use(Flag f, GnumPtr p, Pair q, Colour c);\n"
                     "void call(void) { use(0, 0, (Pair) {0}, RED); }\n")
    tu = parse(tmp_path, src, options)
    assert {"int64_t", "size_t", "Gnum", "Flag", "Colour", "MPI_Aint"} <= tu.scalar_typedefs
    assert not {"GnumPtr", "Pair", "MPI_Comm", "MPI_Datatype", "intptr_t",
                "uintptr_t"} & tu.scalar_typedefs
    headercache.forget()  # a new process: the facts come from the disk cache
    assert parse(tmp_path, src, options).scalar_typedefs == tu.scalar_typedefs


def system_header(tmp: Path, text: str, name: str = "lib.h") -> tuple[str, ...]:
    """Write sys/NAME (a system header via -isystem); the flags to find it."""
    (tmp / "sys").mkdir(exist_ok=True)
    (tmp / "sys" / name).write_text(text)
    return ("-isystem", str(tmp / "sys"))


def test_header_cache_avoids_reparsing(tmp_path: Path) -> None:
    opts = Options(cache=str(tmp_path / "cache"))
    flags = system_header(tmp_path, "typedef int lib_t_4f1;\nvoid lib_die(void) "
                                    "__attribute__((noreturn));\n")
    headercache.forget()
    before = headercache.COUNTERS["header_parse"]
    head = "#include <lib.h>\n"
    parse(tmp_path, head + "int f(lib_t_4f1 v){ return v; }\n", opts, flags)
    tu = parse(tmp_path, head + "lib_t_4f1 g(int x){ return x; }\nint h(void){ return 2; }\n",
               opts, flags)
    assert headercache.COUNTERS["header_parse"] == before + 1
    assert set(functions(tu)) == {"g", "h"} and "lib_die" in tu.noreturn
    headercache.forget()  # a new process: the disk cache serves
    tu = parse(tmp_path, head + "int k(void){ lib_t_4f1 q = 3; return q; }\n", opts, flags)
    assert headercache.COUNTERS["header_parse"] == before + 1 and "k" in functions(tu)
    assert "lib_die" in tu.noreturn
    for entry in (tmp_path / "cache" / "headers").iterdir():
        entry.write_text("{corrupt")
    headercache.forget()
    parse(tmp_path, head + "int m(void){ return 4; }\n", opts, flags)
    assert headercache.COUNTERS["header_parse"] == before + 2


def test_header_cache_shares_common_first_includes(tmp_path: Path) -> None:
    opts = Options(cache=str(tmp_path / "cache"))
    flags = system_header(tmp_path, "typedef int base_t;\n", "base.h")
    # Both later headers use base_t: they parse only seeded with base.h's typedefs.
    system_header(tmp_path, "typedef base_t two_t;\n", "two.h")
    system_header(tmp_path, "typedef base_t three_t;\n", "three.h")
    headercache.forget()
    before = headercache.COUNTERS["header_parse"]
    tu2 = parse(tmp_path, "#include <base.h>\n#include <two.h>\n"
                "two_t f(void) { return 0; }\n", opts, flags)
    tu3 = parse(tmp_path, "#include <base.h>\n#include <three.h>\n"
                "three_t g(base_t x) { return x; }\n", opts, flags)
    assert headercache.COUNTERS["header_parse"] == before + 3  # base.h parsed once
    assert set(functions(tu2)) == {"f"} and set(functions(tu3)) == {"g"}


def test_fast_path_failure_falls_back_to_full_parse(
        tmp_path: Path, options: Options, monkeypatch: pytest.MonkeyPatch) -> None:
    # Header facts without typedefs: `lib_comm c;` cannot parse on the fast path.
    flags = system_header(tmp_path, "typedef int lib_comm;\nint lib_barrier(lib_comm c);\n")
    monkeypatch.setattr(headercache, "header_info_chain",
                        lambda chunks, opts: headercache.HeaderInfo(frozenset(), frozenset()))
    before = dict(parser.COUNTERS)
    tu = parse(tmp_path, "#include <lib.h>\nint f(lib_comm c){ return lib_barrier(c); }\n",
               options, flags)
    assert parser.COUNTERS["fast"] == before.get("fast", 0) + 1
    assert parser.COUNTERS["full"] == before.get("full", 0) + 1
    assert list(functions(tu)) == ["f"]  # system declarations are filtered out
    (call,) = calls(tu.ast, "lib_barrier")
    assert tu.loc(Pos(call.coord.line, call.coord.column)) == Loc("src.c", 2, 27)


def test_headers_that_do_not_parse_alone_use_the_full_parse(
        tmp_path: Path, options: Options) -> None:
    sysdir = tmp_path / "sys"
    sysdir.mkdir()
    (sysdir / "frag.h").write_text("x = x + 1;\n")
    src = "int f(int x) {\n#include <frag.h>\n    return x;\n}\n"
    tu = parse(tmp_path, src, options, flags=("-isystem", str(sysdir)))
    ret = functions(tu)["f"].body.block_items[-1]
    assert isinstance(ret, c_ast.Return)
    loc = tu.loc(Pos(ret.coord.line, ret.coord.column))
    assert (loc.file, loc.line) == ("src.c", 3)


def test_unparseable_code_is_skipped_with_its_location(tmp_path: Path, options: Options) -> None:
    src = "int f(void) {\n  void *p = &&L;\n  goto *p;\nL: return 0;\n}\n"
    with pytest.raises(AnalysisSkipped, match=r"cannot parse: src\.c:2:"):
        parse(tmp_path, src, options)


def test_text_without_line_markers(options: Options) -> None:
    tu = parser.parse("int f(void)\n{\n  return 0;\n}\n", "plain.c", [], options)
    ret = functions(tu)["f"].body.block_items[0]
    assert tu.loc(Pos(ret.coord.line, ret.coord.column)) == Loc("plain.c", 3, 3)
    assert tu.user_lines == 4


def test_handle_names_display_mpi_constants(tmp_path: Path, options: Options) -> None:
    src = PRELUDE + ("void f(int *x){ MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT,"
                               " MPI_SUM, MPI_COMM_WORLD); }\n")
    tu = parse(tmp_path, src, options)
    (call,) = calls(tu.ast, "MPI_Allreduce")
    gen = c_generator.CGenerator()
    shown = [handles.display(gen.visit(a), tu.handle_names) for a in call.args.exprs]
    assert shown == ["MPI_IN_PLACE", "x", "1", "MPI_INT", "MPI_SUM", "MPI_COMM_WORLD"]
    text = f"rank ? {gen.visit(call.args.exprs[5])} : c"
    assert handles.display(text, tu.handle_names) == "rank ? MPI_COMM_WORLD : c"
    assert handles.display("  foo(  1 )", tu.handle_names) == "foo( 1 )"


def test_handle_probe_skips_numbers_and_null(options: Options) -> None:
    names = handles.handle_names(mpicc(), options)
    assert "MPI_ANY_SOURCE" not in names.values() and "MPI_BOTTOM" not in names.values()
    assert "MPI_COMM_SELF" in names.values()
    assert handles.handle_names(["/nonexistent/mpicc"], options) == {}


def test_deep_nesting_parses(options: Options) -> None:
    # ~10 parser frames per level: beyond Python's default recursion limit.
    parens = "(" * 1000 + "x" + ")" * 1000
    chain = " else ".join(f"if (x == {i}) return {i};" for i in range(600))
    text = f"int f(int x){{ return {parens}; }}\nint g(int x){{ {chain} return -1; }}\n"
    tu = parser.parse(text, "deep.c", [], options)
    assert set(functions(tu)) == {"f", "g"}


def test_deep_stack_reraises_in_caller() -> None:
    def boom() -> int:
        raise ValueError("inner")
    with pytest.raises(ValueError, match="inner"):
        parser.deep_stack(boom)
    assert parser.deep_stack(lambda: 7) == 7


def test_system_calls_use_the_frontends_one_notion_of_a_system_header() -> None:
    """Flag 3, or a header in an include directory of the MPI wrapper (mpi.h found
    with -I has no flag 3): both are system headers, for parsing and for the call
    graph alike (the call graph used to read flag 3 only)."""
    text = ('# 1 "src.c"\n'
            '# 1 "/opt/mpi/include/mpi.h" 1\n'
            'int MPIX_Query_thing(int);\n'
            '# 1 "/usr/include/stdio.h" 1 3 4\n'
            'int printf(const char *, ...);\n'
            '# 3 "src.c" 2\n'
            'int mine(void);\n'
            'int main(void) { return mine(); }\n')
    st = parser.split(text, "src.c", system_dirs=("/opt/mpi/include",))
    assert st.system_calls() == {"MPIX_Query_thing", "printf"}
    assert parser.split(text, "src.c").system_calls() == {"printf"}


def test_system_calls_come_from_the_header_cache_without_pragmas(tmp_path: Path) -> None:
    """The names a system header calls are cached with its other facts (a search per
    TU cost p4est's 11 % of the frontend), from memory, from disk and computed alike;
    a pragma's ``push(default)`` calls nothing, so a project function ``push`` stays
    unknown (it may run collectives) instead of being taken for libc."""
    opts = Options(cache=str(tmp_path / "cache"))
    flags = system_header(tmp_path, "#pragma GCC visibility push(default)\n"
                                    "int lib_call_9a(int);\n#define LIB_X 1\n")
    src = "#include <lib.h>\nint push(int);\nint f(void) { return lib_call_9a(push(1)); }\n"
    headercache.forget()
    before = headercache.COUNTERS["header_parse"]
    first = parse(tmp_path, src, opts, flags)
    headercache.forget()
    again = parse(tmp_path, src, opts, flags)
    assert headercache.COUNTERS["header_parse"] == before + 1
    assert "lib_call_9a" in first.system_calls and "push" not in first.system_calls
    assert again.system_calls == first.system_calls
    text = '# 1 "src.c"\n# 1 "/usr/include/x.h" 1 3 4\n#pragma pack(push, 1)\nint g(void);\n'
    assert parser.split(text, "src.c").system_calls() == {"g"}


def test_marker_file_names_are_unescaped() -> None:
    """cpp escapes '"' and '\\' in a marker's file name; the line map names the file
    as the file system does (and a name without escapes as it is)."""
    text = ('# 1 "src.c"\n'
            'int a;\n'
            '# 1 "odd\\\\dir/q\\"uote.h" 1\n'
            'int b;\n'
            '# 3 "src.c" 2\n'
            'int c;\n')
    st = parser.split(text, "src.c")
    assert st.linemap[1] == ("src.c", 1)
    assert st.linemap[3] == ('odd\\dir/q"uote.h', 1)
    assert st.linemap[5] == ("src.c", 3)
