"""Bad and unusual inputs: mpicc-wrap must behave exactly like plain mpicc (exit code,
files left behind, the compiler's own messages), also when every TU goes through the
rewritten-text path."""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest
from mpirun import Run, mpicc, run
from test_wrapper_shapes import WRAPPERS, norm

from mpicc_wrap.analysis.summaries import INDEX, SIDE_SUFFIX

PROGRAM = "#include <stdio.h>\nint main(void)\n{\n    puts(\"hi\");\n    return 0;\n}\n"
# a collective on some ranks only: warned, and compiled from the rewritten text
BUGGY = ("#include <mpi.h>\nint main(int c, char **v)\n{\n    int r;\n    MPI_Init(&c, &v);\n"
         "    MPI_Comm_rank(MPI_COMM_WORLD, &r);\n    if (r == 0)\n"
         "        MPI_Barrier(MPI_COMM_WORLD);\n    return MPI_Finalize();\n}\n")
Files = dict[str, str]


def state(workdir: Path) -> dict[str, bytes]:
    """Every file in ``workdir`` (mpicc-wrap's summary side files aside) -> contents
    (empty for executables/objects, whose bytes embed paths)."""
    out = {}
    for path in sorted(workdir.rglob("*")):
        rel = str(path.relative_to(workdir))
        if path.is_file() and not rel.endswith(SIDE_SUFFIX) and INDEX not in path.parts:
            binary = path.suffix in (".o", "") and path.read_bytes()[:4] == b"\x7fELF"
            out[rel] = b"<elf>" if binary else path.read_bytes()
    return out


def build_both(tmp_path: Path, files: Files, argv: list[str], wrapper: str = "wrap",
               stdin: str | None = None, ref_flags: tuple[str, ...] = (),
               ) -> tuple[Run, Run, Path, Path]:
    results = []
    dirs = []
    for name, cc in (("ref", [*mpicc(), *ref_flags]), ("wrap", WRAPPERS[wrapper]())):
        workdir = tmp_path / name
        workdir.mkdir(parents=True)
        for rel, text in files.items():
            (workdir / rel).parent.mkdir(parents=True, exist_ok=True)
            (workdir / rel).write_text(text, encoding="utf-8")
        r = run(cc + argv, cwd=workdir, stdin=stdin, timeout=300)
        assert not r.timed_out
        results.append(Run(r.returncode, r.stdout, norm(r.stderr, workdir), False))
        dirs.append(workdir)
    return results[0], results[1], dirs[0], dirs[1]


def assert_same(tmp_path: Path, files: Files, argv: list[str], wrapper: str,
                stdin: str | None = None, stderr: bool = True,
                ref_flags: tuple[str, ...] = (), warned: bool = False) -> tuple[Path, Path]:
    """``warned``: our warnings come first, then the compiler's own words."""
    ref, wrap, ref_dir, wrap_dir = build_both(tmp_path, files, argv, wrapper, stdin,
                                              ref_flags)
    assert wrap.returncode == ref.returncode
    if warned:
        assert "warning: MPI_Barrier" in wrap.stderr and wrap.stderr.endswith(ref.stderr)
    elif stderr:
        assert wrap.stderr == ref.stderr
    assert state(wrap_dir) == state(ref_dir)
    return ref_dir, wrap_dir


CASES: dict[str, tuple[Files, list[str]]] = {
    "missing-source": ({}, ["-c", "nosuch.c"]),
    "missing-among-several": ({"hello.c": PROGRAM}, ["hello.c", "nosuch.c", "-o", "prog"]),
    "invalid-c": ({"bad.c": "int main(void) { return 0 }\n"}, ["-c", "bad.c"]),
    "type-error": ({"bad.c": "int f(void) { return undeclared; }\n"}, ["-c", "bad.c"]),
    "missing-header": ({"bad.c": "#include \"nosuch.h\"\n"}, ["-c", "bad.c"]),
    "link-error": ({"lib.c": "int f(void);\nint main(void) { return f(); }\n"},
                   ["lib.c", "-o", "prog"]),
    "unknown-flag": ({"hello.c": PROGRAM}, ["-c", "hello.c", "--no-such-flag-xyz"]),
    "missing-output-dir": ({"hello.c": PROGRAM}, ["-c", "hello.c", "-o", "nodir/x.o"]),
    "output-under-a-file": ({"hello.c": PROGRAM}, ["-c", "hello.c", "-o", "hello.c/x.o"]),
    "link-output-dir-missing": ({"hello.c": PROGRAM}, ["hello.c", "-o", "nodir/prog"]),
    "invalid-c-keeps-old-object": ({"bad.c": "int f(void) { return 0 }\n", "bad.o": "old"},
                                   ["-c", "bad.c"]),
    "spaces-and-non-ascii": ({"dir with space/héllo wörld.c": PROGRAM},
                             ["dir with space/héllo wörld.c", "-o", "out prog ü"]),
    "missing-response-file": ({"hello.c": PROGRAM}, ["@nosuch.rsp", "-c", "hello.c"]),
    # a flag that takes the next word, given none: gcc refuses the command
    # (a program with a finding: its compile takes the rewritten path)
    "flag-missing-its-argument": ({"b.c": BUGGY}, ["-c", "b.c", "-MF"]),
    "output-missing-its-argument": ({"b.c": BUGGY}, ["-c", "b.c", "-o"]),
    # gcc refuses to write the object over its source; the file stays as it was
    "output-is-the-source": ({"b.c": BUGGY}, ["-c", "b.c", "-o", "b.c"]),
    "output-is-the-source-by-another-name": ({"b.c": BUGGY}, ["-c", "b.c", "-o", "./b.c"]),
    "link-output-is-the-source": ({"b.c": BUGGY}, ["b.c", "-o", "b.c"]),
    "depfile-in-missing-dir": ({"b.c": BUGGY, "b.o": "old"},
                               ["-c", "b.c", "-MD", "-MF", "nodir/b.d"]),
}

# The only flag mpicc-wrap adds (line tables when no -g is given, commands.line_tables)
# shows in the linker's messages: "lib.c:2: undefined reference", as with mpicc -g1,
# instead of "lib.c:(.text+0x5)".
REFERENCE_FLAGS: dict[str, tuple[str, ...]] = {"link-error": ("-g1",)}
# The analysis ran, and warned, before the compiler refused the command.
WARNED_FIRST = {"depfile-in-missing-dir"}


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_like_mpicc(case: str, wrapper: str, tmp_path: Path) -> None:
    files, argv = CASES[case]
    assert_same(tmp_path, files, argv, wrapper, ref_flags=REFERENCE_FLAGS.get(case, ()),
                warned=case in WARNED_FIRST)


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_source_from_stdin(wrapper: str, tmp_path: Path) -> None:
    assert_same(tmp_path, {}, ["-x", "c", "-c", "-"], wrapper, stdin=PROGRAM)
    ref_dir, wrap_dir = tmp_path / "ref", tmp_path / "wrap"
    assert (wrap_dir / "-.o").exists() and (ref_dir / "-.o").exists()


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_output_to_dev_null(wrapper: str, tmp_path: Path) -> None:
    assert_same(tmp_path, {"hello.c": PROGRAM}, ["-c", "hello.c", "-o", "/dev/null"], wrapper)
    assert_same(tmp_path / "link", {"hello.c": PROGRAM}, ["hello.c", "-o", "/dev/null"],
                wrapper)
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def generated_source(lines: int) -> str:
    """A valid C program of about ``lines`` lines."""
    funcs = lines // 5
    body = [f"static int f{k}(int x)\n{{\n    return x + {k % 7};\n}}\n\n" for k in range(funcs)]
    calls = " + ".join(f"f{k}(1)" for k in range(0, funcs, funcs // 10))
    return "#include <stdio.h>\n" + "".join(body) + (
        f"int main(void)\n{{\n    printf(\"%d\\n\", {calls});\n    return 0;\n}}\n")


@pytest.mark.slow
def test_fifty_thousand_lines(tmp_path: Path) -> None:
    source = generated_source(50_000)
    assert source.count("\n") >= 50_000
    started = time.monotonic()
    ref_dir, wrap_dir = assert_same(tmp_path, {"big.c": source}, ["big.c", "-o", "big"],
                                    "wrap", stderr=False)
    print(f"50k-line build, mpicc + mpicc-wrap: {time.monotonic() - started:.1f}s")
    ref, wrap = run([str(ref_dir / "big")]), run([str(wrap_dir / "big")])
    assert (wrap.returncode, wrap.stdout) == (ref.returncode, ref.stdout) != (0, "")


CSMITH_INCLUDE = Path("/usr/include/csmith")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_csmith_programs_behave_the_same(seed: int, tmp_path: Path) -> None:
    csmith = shutil.which("csmith")
    if csmith is None or not CSMITH_INCLUDE.is_dir():
        pytest.skip("csmith (Debian packages csmith, libcsmith-dev) is not installed")
    # csmith writes platform.info into its cwd: keep it out of the source tree.
    source = subprocess.run([csmith, "--seed", str(seed)], capture_output=True, text=True,
                            timeout=60, check=True, cwd=tmp_path).stdout
    argv = [f"-I{CSMITH_INCLUDE}", "-O1", "-w", "prog.c", "-o", "prog"]
    ref_dir, wrap_dir = assert_same(tmp_path, {"prog.c": source}, argv, "wrap",
                                    stderr=False)
    ref, wrap = run([str(ref_dir / "prog")], timeout=60), run([str(wrap_dir / "prog")],
                                                              timeout=60)
    assert not ref.timed_out and not wrap.timed_out
    assert (wrap.returncode, wrap.stdout) == (ref.returncode, ref.stdout)
    assert "checksum" in ref.stdout


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_json_diagnostics_stay_json(wrapper: str, tmp_path: Path) -> None:
    """Under -fdiagnostics-format=json every line of stderr is a JSON array, ours and
    gcc's, so that an IDE reading the compiler's JSON reads our warning too; gcc's
    two runs (the preprocess with its ``#warning``, the compile of the rewritten
    text) print one array, as a plain compile does."""
    (tmp_path / "b.c").write_text('#warning "from the preprocessor"\n' + BUGGY
                                  + "int f(int x) { int y; return x; }\n")
    r = run([*WRAPPERS[wrapper](), "-Wall", "-fdiagnostics-format=json", "-c", "b.c"],
            cwd=tmp_path, timeout=300)
    assert r.returncode == 0 and not r.timed_out
    arrays = [json.loads(line) for line in r.stderr.splitlines()]
    ours = [a for a in arrays if any(d.get("option") == "-Wmpi-collective-order" for d in a)]
    assert len(ours) == 1 and len(arrays) == 2, r.stderr
    gccs = {(d["kind"], d.get("option"), d["message"]) for a in arrays if a not in ours
            for d in a}
    assert any(k == "warning" and o == "-Wunused-variable" for k, o, _ in gccs)
    assert ("warning", "-Wcpp", "#warning \"from the preprocessor\"") in gccs
