"""Link-time re-instrumentation (mpicc_wrap.driver.relink): a caller compiled before the TU
defining its collective callee is recompiled at the link with every summary visible,
so the executable checks the call at run time instead of hanging."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import corpus_lib as corpus
import mpirun
import pytest
from paths import CORPUS

from mpicc_wrap.analysis import summaries as S
from mpicc_wrap.driver import cmdline, relink
from mpicc_wrap.runtime import objects as O
from mpicc_wrap.switches import Options

CASE = CORPUS / "buggy_xtu_helper_after"
RELINKED = "mpicc-wrap: debug: re-instrumented"
ABORT_TIMEOUT = 12.0

CORRECT_MAIN = """\
#include <mpi.h>
void log_value(int value);
void sync_all(void);
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        log_value(rank);
    sync_all();
    MPI_Finalize();
    return 0;
}
"""
CORRECT_HELPER = """\
#include <mpi.h>
#include <stdio.h>
void log_value(int value) { printf("value %d\\n", value); }
void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }
"""


def wrap(args: list[str], cwd: Path, tmp: Path, **env: str) -> mpirun.Run:
    """Run mpicc-wrap with debug output (its kept temporary files go under ``tmp``)."""
    full = {"MPICC_WRAP_DEBUG": "1", "TMPDIR": str(tmp), **env}
    result = mpirun.run([mpirun.tool("mpicc-wrap"), *args], timeout=corpus.COMPILE_TIMEOUT,
                        cwd=cwd, env=full)
    assert not result.timed_out
    return result


def digests(paths: list[Path]) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def compile_each(src: Path, tmp: Path, names: list[str]) -> list[Path]:
    """Compile the sources one by one in the given order, from ``src``, relative paths."""
    for name in names:
        result = wrap(["-O0", "-c", name, "-o", Path(name).stem + ".o"], src, tmp)
        assert result.returncode == 0, result.output
    return [src / (Path(name).stem + ".o") for name in names]


@pytest.fixture(scope="module")
def buggy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, mpirun.Run, dict, dict]:
    """buggy_xtu_helper_after compiled caller first (make's order) in ``src/``, then
    linked from the parent directory; user files hashed before and after the link."""
    root = tmp_path_factory.mktemp("buggy")
    src = root / "src"
    shutil.copytree(CASE, src)
    objs = compile_each(src, root, sorted(p.name for p in src.glob("*.c")))
    files = [*objs, *(Path(str(o) + S.SIDE_SUFFIX) for o in objs)]
    before = digests(files)
    link = wrap(["-O0", "src/a_main.o", "src/b_helper.o", "-o", "exe"], root, root)
    return root, link, before, digests(files)


def test_link_recompiles_caller_only(buggy: tuple[Path, mpirun.Run, dict, dict]) -> None:
    _, link, before, after = buggy
    assert link.returncode == 0, link.output
    assert "warning: call to reduce_all() executes collectives" in link.stderr
    assert link.stderr.count(RELINKED) == 1 and f"{RELINKED} a_main.c" in link.stderr
    assert "cannot re-instrument" not in link.stderr
    assert before == after  # the user's objects and side files are untouched


@pytest.mark.mpi
@pytest.mark.parametrize("nprocs", [2, 3, 4])
def test_buggy_after_ends_with_report(buggy: tuple[Path, mpirun.Run, dict, dict],
                                      nprocs: int) -> None:
    root, link, _, _ = buggy
    assert link.returncode == 0, link.output
    run = mpirun.mpiexec(root / "exe", nprocs, timeout=ABORT_TIMEOUT, cwd=root)
    assert not run.timed_out, f"hung at -n {nprocs}:\n{run.output}"
    assert run.returncode != 0
    report = corpus.dynamic_lines(run.output)
    site = corpus.Mark("expect-dynamic", "reduce_all()", "a_main.c", 16)
    assert corpus.names_site(report, site), "\n".join(report) or run.output


@pytest.mark.mpi
def test_correct_cross_tu_not_recompiled(tmp_path: Path) -> None:
    """A deferred call whose callee turns out to run no collective: no recompile, no
    warning, and the run matches the plain mpicc build."""
    (tmp_path / "a_main.c").write_text(CORRECT_MAIN)
    (tmp_path / "b_helper.c").write_text(CORRECT_HELPER)
    objs = compile_each(tmp_path, tmp_path, ["a_main.c", "b_helper.c"])
    assert O.read_inputs([str(objs[0])])[0].deferred  # the case under test: a deferral
    link = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe"], tmp_path, tmp_path)
    assert link.returncode == 0, link.output
    assert RELINKED not in link.stderr and "warning" not in link.stderr
    plain = mpirun.run([*mpirun.mpicc(), "-O0", "a_main.c", "b_helper.c", "-o", "ref"],
                       timeout=corpus.COMPILE_TIMEOUT, cwd=tmp_path)
    assert plain.returncode == 0, plain.output
    ran = mpirun.mpiexec(tmp_path / "exe", 2, timeout=60, cwd=tmp_path)
    ref = mpirun.mpiexec(tmp_path / "ref", 2, timeout=60, cwd=tmp_path)
    assert ran.returncode == 0 and "DYNAMIC-CHECK" not in ran.output, ran.output
    assert ran.stdout == ref.stdout == "value 0\n"  # only rank 0 prints


def changed_case(tmp_path: Path) -> None:
    """The buggy case compiled, then its caller's source edited."""
    shutil.copytree(CASE, tmp_path, dirs_exist_ok=True)
    compile_each(tmp_path, tmp_path, ["a_main.c", "b_helper.c"])
    with (tmp_path / "a_main.c").open("a") as f:
        f.write("// edited after compiling\n")


def test_changed_source_links_original(tmp_path: Path) -> None:
    changed_case(tmp_path)
    before = (tmp_path / "a_main.o").read_bytes()
    link = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe"], tmp_path, tmp_path)
    assert link.returncode == 0, link.output
    assert ("mpicc-wrap: note: cannot re-instrument a_main.o: source changed since it was "
            "compiled; rebuild it") in link.stderr
    assert RELINKED not in link.stderr and (tmp_path / "exe").is_file()
    assert (tmp_path / "a_main.o").read_bytes() == before


def test_changed_source_fails_under_strict(tmp_path: Path) -> None:
    changed_case(tmp_path)
    link = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe"], tmp_path, tmp_path,
                MPICC_WRAP_STRICT="1")
    assert link.returncode != 0
    assert "mpicc-wrap: error: cannot re-instrument a_main.o: source changed" in link.stderr


@pytest.mark.mpi
def test_archive_member_replaced_in_a_copy(tmp_path: Path) -> None:
    """The caller inside a static archive: a private copy of the archive gets the
    re-instrumented member; the user's archive is untouched."""
    shutil.copytree(CASE, tmp_path, dirs_exist_ok=True)
    compile_each(tmp_path, tmp_path, ["a_main.c", "b_helper.c"])
    ar = mpirun.run([shutil.which("ar") or "ar", "rcs", "libapp.a", "a_main.o"],
                    timeout=60, cwd=tmp_path)
    assert ar.returncode == 0, ar.output
    before = (tmp_path / "libapp.a").read_bytes()
    link = wrap(["-O0", "b_helper.o", "libapp.a", "-o", "exe"], tmp_path, tmp_path)
    assert link.returncode == 0, link.output
    assert f"{RELINKED} a_main.c" in link.stderr
    assert (tmp_path / "libapp.a").read_bytes() == before
    run = mpirun.mpiexec(tmp_path / "exe", 2, timeout=ABORT_TIMEOUT, cwd=tmp_path)
    assert not run.timed_out and run.returncode != 0
    assert any("a_main.c:16" in line for line in corpus.dynamic_lines(run.output))


def test_describe_records_compile_flags_only(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "a.c"
    source.write_text("int x;\n")
    monkeypatch.chdir(tmp_path)
    inv = cmdline.parse(["-O2", "-c", "-MMD", "-MF", "a.d", "-DFOO=1", "-I", "inc",
                         "a.c", "-o", "a.o", "-lm"])
    info = relink.describe(inv, inv.sources[0])
    assert info is not None
    assert info["args"] == ["-O2", "-DFOO=1", "-I", "inc"]
    assert info["source"] == str(source) and info["given"] == "a.c"
    assert info["cwd"] == str(tmp_path)
    assert info["sha256"] == hashlib.sha256(b"int x;\n").hexdigest()
    stdin = cmdline.parse(["-c", "-x", "c", "-"])
    assert relink.describe(stdin, stdin.sources[0]) is None


def test_rebuild_info_stored_only_with_deferrals(tmp_path: Path) -> None:
    obj = str(tmp_path / "x.o")
    info = {"version": relink.VERSION, "source": "/x.c"}
    O.store(obj, {}, [], Options(), info)  # nothing deferred: nothing to record
    assert not Path(obj + S.SIDE_SUFFIX).exists()
    doc = json.loads(S.encode({}, [], None))
    assert "rebuild" not in doc and doc["schema"] == S.SCHEMA
    assert S.decode_rebuild(S.encode({}, [], info)) == info
    assert S.decode_rebuild(b"not json") is None


@pytest.mark.mpi
def test_one_command_build_checks_the_call(tmp_path: Path) -> None:
    """``mpicc-wrap a_main.c b_helper.c``: the caller's temporary object is redone."""
    shutil.copytree(CASE, tmp_path, dirs_exist_ok=True)
    link = wrap(["-O0", "a_main.c", "b_helper.c", "-o", "exe"], tmp_path, tmp_path)
    assert link.returncode == 0, link.output
    assert f"{RELINKED} a_main.c" in link.stderr
    run = mpirun.mpiexec(tmp_path / "exe", 2, timeout=ABORT_TIMEOUT, cwd=tmp_path)
    assert not run.timed_out and run.returncode != 0
    assert any("a_main.c:16" in line for line in corpus.dynamic_lines(run.output))


def test_failed_recompile_is_a_note(tmp_path: Path) -> None:
    """The recompile cannot preprocess (a forced include is gone): one note, and the
    original objects are linked."""
    shutil.copytree(CASE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "extra.h").write_text("/* forced include */\n")
    for name in ("a_main.c", "b_helper.c"):
        built = wrap(["-O0", "-include", "extra.h", "-c", name], tmp_path, tmp_path)
        assert built.returncode == 0, built.output
    (tmp_path / "extra.h").unlink()
    link = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe"], tmp_path, tmp_path)
    assert link.returncode == 0, link.output
    notes = [line for line in link.stderr.splitlines() if "cannot re-instrument" in line]
    assert len(notes) == 1 and notes[0].startswith(
        "mpicc-wrap: note: cannot re-instrument a_main.o: preprocessing failed"), notes
    assert RELINKED not in link.stderr and (tmp_path / "exe").is_file()


def test_second_link_takes_the_re_instrumented_object_from_the_cache(tmp_path: Path) -> None:
    """Every executable linked against the same objects needs the same replacements:
    the second link copies them from the cache instead of recompiling (p4est's example
    links took 28 s each).  Proof: a doctored cache entry is what gets linked."""
    src = tmp_path / "src"
    shutil.copytree(CASE, src)
    cache = tmp_path / "cache"
    env = {"MPICC_WRAP_DEBUG": "0", "MPICC_WRAP_CACHE": str(cache)}
    for name in ("a_main.c", "b_helper.c"):
        built = wrap(["-O0", "-c", name, "-o", Path(name).stem + ".o"], src, tmp_path, **env)
        assert built.returncode == 0, built.output
    first = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe1"], src, tmp_path, **env)
    assert first.returncode == 0, first.output
    entries = list((cache / "relink").glob("*" + relink.RELINK_SUFFIX))
    assert len(entries) == 1 and entries[0].stat().st_size > 0
    (tmp_path / "stub.c").write_text(
        '#include <stdio.h>\nint main(void) { puts("from-cache"); return 0; }\n')
    stub = mpirun.run([*mpirun.mpicc(), "-c", "stub.c", "-o", "stub.o"], timeout=120, cwd=tmp_path)
    assert stub.returncode == 0, stub.output
    shutil.copyfile(tmp_path / "stub.o", entries[0])
    second = wrap(["-O0", "a_main.o", "b_helper.o", "-o", "exe2"], src, tmp_path, **env)
    assert second.returncode == 0, second.output
    ran = mpirun.run([str(src / "exe2")], timeout=60, cwd=tmp_path)
    assert ran.stdout.strip() == "from-cache"
