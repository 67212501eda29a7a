"""The direct cache (mpicc_wrap.driver.direct): a rebuild of an unchanged ``-c`` compile
is served without the preprocessor, the analysis or the compiler, with the same
object, depfile, messages and published summaries; anything it read that changed
makes it a miss.

The real ``mpicc-wrap`` command runs with a real MPI compiler behind a logging shim
(``MPICC_WRAP_CC``), so each test sees whether a compiler ran."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import mpirun
import pytest
from paths import CORPUS

BUGGY = CORPUS / "buggy_xtu_helper_after"
SHIM = """#!/bin/sh
echo "$*" >> "{log}"
exec {real} "$@"
"""


class Wrap:
    """``mpicc-wrap`` in ``folder`` with a private cache and a compiler-run log."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.log = folder / "compiler.log"
        self.shim = folder / "mpicc-shim"
        real = " ".join(mpirun.mpicc())
        self.shim.write_text(SHIM.format(log=self.log, real=real))
        self.shim.chmod(self.shim.stat().st_mode | stat.S_IXUSR)
        drop = ("MPICC_WRAP_", "MPICC")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
        self.env.update(MPICC_WRAP_CC=str(self.shim), MPICC_WRAP_CACHE=str(folder / "cache"),
                        PATH=mpirun.search_path())

    def __call__(self, *args: str, **env: str) -> tuple[int, str, int]:
        """(exit status, stderr, compiler runs)."""
        self.log.unlink(missing_ok=True)
        done = subprocess.run([mpirun.tool("mpicc-wrap"), *args], cwd=self.folder,
                              env={**self.env, **env}, capture_output=True, text=True,
                              timeout=120)
        runs = len(self.log.read_text().splitlines()) if self.log.exists() else 0
        return done.returncode, done.stderr, runs

    def entries(self) -> list[Path]:
        return sorted((self.folder / "cache" / "direct").glob("*.entry"))


@pytest.fixture
def wrap(tmp_path: Path) -> Wrap:
    for source in BUGGY.glob("*.c"):
        (tmp_path / source.name).write_text(source.read_text())
    (tmp_path / "config.h").write_text("#define GREETING 1\n")
    return Wrap(tmp_path)


def test_unchanged_rebuild_runs_no_compiler_and_gives_the_same_object(wrap: Wrap) -> None:
    code, first, runs = wrap("-Wall", "-c", "b_helper.c", "-o", "b.o")
    assert code == 0 and runs >= 2  # -show, preprocess, compile
    built = (wrap.folder / "b.o").read_bytes()
    (wrap.folder / "b.o").unlink()
    code, again, runs = wrap("-Wall", "-c", "b_helper.c", "-o", "b.o")
    assert (code, again, runs) == (0, first, 0)
    assert (wrap.folder / "b.o").read_bytes() == built


def test_messages_are_replayed(wrap: Wrap) -> None:
    src = wrap.folder / "noisy.c"
    src.write_text('#include <mpi.h>\nint f(void) { int unused; return 0; }\n')
    _, first, _ = wrap("-Wall", "-c", "noisy.c")
    assert "unused" in first
    _, again, runs = wrap("-Wall", "-c", "noisy.c")
    assert (again, runs) == (first, 0)


def test_a_changed_header_is_a_miss(wrap: Wrap) -> None:
    src = wrap.folder / "uses_header.c"
    src.write_text('#include "config.h"\n#include <mpi.h>\nint g(void) { return GREETING; }\n')
    wrap("-c", "uses_header.c")
    (wrap.folder / "config.h").write_text("#define GREETING 2\n")
    code, _, runs = wrap("-c", "uses_header.c")
    assert code == 0 and runs >= 2
    _, _, runs = wrap("-c", "uses_header.c")
    assert runs == 0


def test_other_flags_or_environment_are_other_entries(wrap: Wrap) -> None:
    wrap("-c", "b_helper.c")
    assert wrap("-O2", "-c", "b_helper.c")[2] >= 2
    assert wrap("-c", "b_helper.c", MPICH_CC="gcc")[2] >= 2
    assert wrap("-c", "b_helper.c")[2] == 0


def test_a_changed_compiler_is_a_miss(wrap: Wrap) -> None:
    wrap("-c", "b_helper.c")
    st = wrap.shim.stat()
    os.utime(wrap.shim, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert wrap("-c", "b_helper.c")[2] >= 2


def test_the_depfile_is_written_again(wrap: Wrap) -> None:
    wrap("-MD", "-c", "b_helper.c", "-o", "b.o")
    dep = wrap.folder / "b.d"
    text = dep.read_text()
    assert "b_helper.c" in text
    dep.unlink()
    assert wrap("-MD", "-c", "b_helper.c", "-o", "b.o")[2] == 0
    assert dep.read_text() == text


def test_published_summaries_come_back(wrap: Wrap) -> None:
    """A hit republishes the object's summaries, so that its callers compiled later
    see them (here: the caller is warned at compile time, not only at the link)."""
    wrap("-c", "b_helper.c")
    side = wrap.folder / "b_helper.o.mpicc-wrap.json"
    assert side.exists()
    side.unlink()
    assert wrap("-c", "b_helper.c")[2] == 0
    assert side.exists()
    code, err, _ = wrap("-c", "a_main.c")
    assert code == 0 and "warning:" in err and "reduce_all" in err


def test_a_new_callee_summary_is_a_miss(wrap: Wrap) -> None:
    """The analysis of a caller depends on the summaries visible when it compiles: the
    caller compiled before its callee is not served once the callee is known."""
    code, err, _ = wrap("-c", "a_main.c")
    assert code == 0 and "warning:" not in err  # reduce_all unknown: deferred to the link
    wrap("-c", "b_helper.c")
    code, err, runs = wrap("-c", "a_main.c")
    assert runs >= 2 and "warning:" in err
    assert wrap("-c", "a_main.c")[1:] == (err, 0)


def test_a_new_callee_summary_in_an_include_directory_is_a_miss(wrap: Wrap) -> None:
    """Summaries are also looked up in the ``-I`` directories (``sideindex.visible``):
    a hit checks them there too."""
    lib = wrap.folder / "lib"
    lib.mkdir()
    (wrap.folder / "b_helper.c").rename(lib / "b_helper.c")
    code, err, _ = wrap("-Ilib", "-c", "a_main.c")
    assert code == 0 and "warning:" not in err
    wrap("-c", "lib/b_helper.c", "-o", "lib/b_helper.o")
    code, err, runs = wrap("-Ilib", "-c", "a_main.c")
    assert runs >= 2 and "warning:" in err
    assert wrap("-Ilib", "-c", "a_main.c")[1:] == (err, 0)


def test_a_used_time_macro_is_never_stored(wrap: Wrap) -> None:
    (wrap.folder / "when.c").write_text('const char *when = __DATE__ " " __TIME__;\n')
    (wrap.folder / "unused.h").write_text('#define STAMP __DATE__ " " __TIME__\n')
    (wrap.folder / "ok.c").write_text('#include "unused.h"\nint ok(void) { return 1; }\n')
    wrap("-c", "when.c")
    assert wrap("-c", "when.c")[2] >= 2
    wrap("-c", "ok.c")  # defined in a header, never expanded: the object is stable
    assert wrap("-c", "ok.c")[2] == 0


@pytest.mark.parametrize("extra", [["-save-temps"], ["-fstack-usage"]])
def test_flags_with_untracked_outputs_are_not_stored(wrap: Wrap, extra: list[str]) -> None:
    wrap(*extra, "-c", "b_helper.c")
    assert wrap.entries() == []


def test_a_report_is_never_served_but_its_compile_is_stored(wrap: Wrap) -> None:
    """The report's records come from the analysis: a compile that asks for one runs;
    its entry serves the rebuilds that do not (the same key: a report changes no
    output)."""
    report = wrap.folder / "r.jsonl"
    for _ in range(2):
        assert wrap("-c", "b_helper.c", MPICC_WRAP_REPORT=str(report))[2] >= 2
    assert report.read_text().count("\n") == 2 and len(wrap.entries()) == 1
    assert wrap("-c", "b_helper.c")[2] == 0


def test_switched_off_with_the_result_cache(wrap: Wrap) -> None:
    wrap("-c", "b_helper.c")
    assert len(wrap.entries()) == 1
    assert wrap("-c", "b_helper.c", MPICC_WRAP_RESULT_CACHE="0")[2] >= 2


def test_a_failed_compile_is_not_stored(wrap: Wrap) -> None:
    (wrap.folder / "bad.c").write_text("int broken(void) { return }\n")
    code, err, _ = wrap("-c", "bad.c")
    assert code != 0 and "error" in err
    assert wrap.entries() == []


def test_the_summary_digest_is_the_analysis_view() -> None:
    """Under make -j the number of objects that published a header's inline function
    varies from build to build; the analysis sees one summary per name, and so does
    the digest that keys a hit on them."""
    from mpicc_wrap.driver import direct

    def entry(name: str, obj: str, collectives: bool = False) -> tuple[str, dict]:
        return (f"{name}/{obj}.json", {"name": name, "has_collectives": collectives})

    one = [entry("inline_hash", "a"), entry("used", "b")]
    three = [entry("inline_hash", "a"), entry("inline_hash", "c"), entry("inline_hash", "d"),
             entry("used", "b")]
    assert direct.digest(one) == direct.digest(three)
    assert direct.digest(one) != direct.digest([*one, entry("used", "e", True)])


def test_only_consulted_names_key_a_hit(wrap: Wrap) -> None:
    """A function another TU defines that this TU declares (a header declares them
    all) but never calls does not change its analysis: its summary appearing later
    is no reason to compile again (each hypre TU declares every hypre function)."""
    (wrap.folder / "decl.h").write_text("void unused_elsewhere(void);\n")
    (wrap.folder / "user.c").write_text('#include "decl.h"\nint user(void) { return 1; }\n')
    (wrap.folder / "other.c").write_text("#include <mpi.h>\nvoid unused_elsewhere(void) "
                                         "{ MPI_Barrier(MPI_COMM_WORLD); }\n")
    wrap("-c", "user.c")
    wrap("-c", "other.c")
    assert wrap("-c", "user.c")[2] == 0


def test_both_states_of_a_parallel_build_are_kept(wrap: Wrap) -> None:
    """Under make -j a callee's object is sometimes done before its caller compiles,
    sometimes not: each rebuild may see the other state, and both are served."""
    _, alone, _ = wrap("-c", "a_main.c")  # reduce_all not known yet
    wrap("-c", "b_helper.c")
    _, known, _ = wrap("-c", "a_main.c")
    assert "warning:" in known and "warning:" not in alone
    (wrap.folder / "b_helper.o").unlink()  # make clean: its summary is dead
    assert wrap("-c", "a_main.c")[1:] == (alone, 0)
    assert wrap("-c", "b_helper.c")[2] == 0
    assert wrap("-c", "a_main.c")[1:] == (known, 0)
