"""Cross-TU checking: deferred findings become warnings once the callee is known."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from mpirun import mpicc, run, tool
from paths import CORPUS

from mpicc_wrap.analysis import summaries as S
from mpicc_wrap.model import Condition, Finding, FunctionSummary, Loc, Pos
from mpicc_wrap.report import emit
from mpicc_wrap.runtime import objects as O
from mpicc_wrap.switches import Options

MAIN = """\
#include <mpi.h>
void helper(void);
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        helper();
    MPI_Finalize();
    return 0;
}
"""
HELPER = """\
#include <mpi.h>
void helper(void) {
    MPI_Barrier(MPI_COMM_WORLD);
}
"""
QUIET_HELPER = "void helper(void) { }\n"

WARNING = ("main.c:8:9: warning: call to helper() executes collectives (MPI_Barrier in "
           "helper() at helper.c:2) and may not be reached by all processes "
           "[-Wmpi-collective-order]")


def deferred_call() -> Finding:
    cond = Condition(Pos(7, 9), Loc("main.c", 7, 9), "rank == 0",
                     "this condition depends on the process rank (MPI_Comm_rank at main.c:6)")
    return Finding("main", "helper()", "", Pos(8, 9), Loc("main.c", 8, 9), [cond],
                   callee="helper")


def helper_summary(collectives: bool = True) -> dict[str, FunctionSummary]:
    seq = ["MPI_Barrier@MPI_COMM_WORLD"] if collectives else []
    return {"helper": FunctionSummary("helper", "helper.c", 2, collectives, seq, True)}


def objects(tmp: Path, helper_code: str = HELPER, collectives: bool = True
            ) -> tuple[str, str]:
    """main.o (with a deferred call to helper) and helper.o, compiled by plain mpicc and
    stored the way the wrapper's driver stores them."""
    paths = []
    for name, code in (("main", MAIN), ("helper", helper_code)):
        (tmp / f"{name}.c").write_text(code)
        result = run([*mpicc(), "-c", f"{name}.c", "-o", f"{name}.o"], cwd=tmp)
        assert result.returncode == 0, result.output
        paths.append(str(tmp / f"{name}.o"))
    O.store(paths[0], {}, [deferred_call()], Options())
    O.store(paths[1], helper_summary(collectives), [], Options())
    return paths[0], paths[1]


def check(inputs: list[str], werror: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    found = S.link_findings(O.read_inputs(inputs))
    errors = emit.emit_link("prog", found, Options(werror=werror), {}, out)
    return errors, out.getvalue()


def test_link_step_warns_about_a_deferred_call_in_gcc_format(tmp_path: Path) -> None:
    main, helper = objects(tmp_path)
    errors, text = check([main, helper])
    assert errors == 0
    assert text.splitlines() == [
        "main.c: In function 'main':",
        WARNING,
        "main.c:7:9: note: this condition depends on the process rank "
        "(MPI_Comm_rank at main.c:6)",
    ]


def test_werror_escalates_link_warnings(tmp_path: Path) -> None:
    main, helper = objects(tmp_path)
    errors, text = check([main, helper, main], werror=True)  # duplicates: one report
    assert errors == 1
    assert text.count("error: call to helper()") == 1 and "[-Werror=mpi-collective-order]" in text


def test_no_warning_when_the_callee_has_no_collectives(tmp_path: Path) -> None:
    main, helper = objects(tmp_path, QUIET_HELPER, collectives=False)
    assert check([main, helper]) == (0, "")


def test_no_warning_when_the_callee_is_not_linked(tmp_path: Path) -> None:
    main, _ = objects(tmp_path)
    assert check([main]) == (0, "")


def test_callee_found_in_a_static_archive_member_with_a_long_name(tmp_path: Path) -> None:
    main, helper = objects(tmp_path)
    member = tmp_path / "helper_functions_with_a_long_member_name.o"
    Path(helper).rename(member)
    Path(helper + S.SIDE_SUFFIX).unlink()  # only the ELF section travels into the archive
    assert run(["ar", "rcs", "libhelp.a", member.name], cwd=tmp_path).returncode == 0
    errors, text = check([main, str(tmp_path / "libhelp.a")])
    assert WARNING in text


def test_side_file_is_the_fallback_when_the_section_is_gone(tmp_path: Path) -> None:
    main, helper = objects(tmp_path)
    for obj in (main, helper):
        assert run(["objcopy", f"--remove-section={S.SECTION}", obj]).returncode == 0
    assert WARNING in check([main, helper])[1]


def test_corrupt_records_never_raise(tmp_path: Path) -> None:
    main, helper = objects(tmp_path)
    assert run(["objcopy", f"--remove-section={S.SECTION}", helper]).returncode == 0
    Path(helper + S.SIDE_SUFFIX).write_text('{"schema": 1, "summaries": [{"name": 3}]}')
    assert check([main, helper, str(tmp_path / "nope.o")]) == (0, "")


@pytest.mark.mpi
def test_wrapper_one_step_build_warns_at_link_time(tmp_path: Path) -> None:
    """Sources in one command: main.c is analysed before helper.c exists as a summary,
    so only the link step can tell."""
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "helper.c").write_text(HELPER)
    result = run([tool("mpicc-wrap"), "main.c", "helper.c", "-o", "prog"], cwd=tmp_path,
                 timeout=300)
    assert result.returncode == 0, result.output
    assert WARNING in result.stderr


@pytest.mark.mpi
def test_wrapper_callee_compiled_first_is_visible_at_compile_time(tmp_path: Path) -> None:
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "helper.c").write_text(HELPER)
    first = run([tool("mpicc-wrap"), "-c", "helper.c"], cwd=tmp_path, timeout=300)
    assert first.returncode == 0, first.output
    assert "helper" in S.visible(str(tmp_path / "main.o"), Options())
    second = run([tool("mpicc-wrap"), "-c", "main.c"], cwd=tmp_path, timeout=300)
    assert "main.c:8:9: warning: call to helper()" in second.stderr
    record = S.decode(Path(tmp_path / "main.o.mpicc-wrap.json").read_bytes())
    assert record is not None and record[1] == []  # nothing left for the link step


@pytest.mark.parametrize("flag", ["-w", "-Wno-mpi-collective-order"])
def test_link_command_flags_silence_link_warnings(tmp_path: Path, flag: str) -> None:
    """The link step once ignored the link command's -w and -Wno-mpi-* flags."""
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "helper.c").write_text(HELPER)
    result = run([tool("mpicc-wrap"), flag, "main.c", "helper.c", "-o", "prog"],
                 cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.output
    assert "warning" not in result.stderr


def test_link_command_werror_fails_the_link(tmp_path: Path) -> None:
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "helper.c").write_text(HELPER)
    result = run([tool("mpicc-wrap"), "-Werror=mpi-collective-order", "main.c", "helper.c",
                  "-o", "prog"], cwd=tmp_path, timeout=300)
    assert result.returncode == 1
    assert "main.c:8:9: error: call to helper() executes collectives" in result.stderr
    assert not (tmp_path / "prog").exists()


def test_link_warnings_reach_the_json_and_sarif_reports(tmp_path: Path) -> None:
    """Link-time findings were printed but never written to the reports."""
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "helper.c").write_text(HELPER)
    report, sarif = tmp_path / "r.jsonl", tmp_path / "r.sarif"
    result = run([tool("mpicc-wrap"), "main.c", "helper.c", "-o", "prog"], cwd=tmp_path,
                 timeout=300, env={"MPICC_WRAP_REPORT": str(report),
                                   "MPICC_WRAP_SARIF": str(sarif)})
    assert result.returncode == 0, result.output
    assert "call to helper() executes collectives" in report.read_text()
    assert "call to helper() executes collectives" in sarif.read_text()


def test_side_file_of_a_deleted_object_is_not_visible(tmp_path: Path) -> None:
    """After ``make clean`` (objects gone, side files left) a stale summary must not
    make a later compile believe the function still executes collectives."""
    _, helper = objects(tmp_path)
    main_obj = str(tmp_path / "other.o")
    assert "helper" in S.visible(main_obj, Options())
    Path(helper).unlink()
    assert Path(S.side_file(helper)).exists()
    assert "helper" not in S.visible(main_obj, Options())


OWN_HELPER = """\
#include <mpi.h>
static void helper(void) { }
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        helper();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


def test_another_tus_summary_of_a_function_this_tu_defines_is_ignored() -> None:
    """A static function (or a header's inline one) shares its name with other TUs'
    functions; their summaries must not stand in for its own definition: here another
    TU's ``helper`` never returns, which would make the barrier conditional."""
    from analysis_helpers import parse_source

    from mpicc_wrap.analysis import unit

    tu = parse_source(OWN_HELPER, "own.c")
    other = FunctionSummary("helper", "other.c", 1, True, ["MPI_Barrier@MPI_COMM_WORLD"],
                            True, noreturn=True, ends_job=True)
    assert unit.analyse(tu, {"helper": other}).findings == []
    assert unit.analyse(tu, {}).findings == []


STATIC_HELPER = """\
#include <mpi.h>
static void helper(void) { MPI_Barrier(MPI_COMM_WORLD); }
void other_api(void) { helper(); }
"""


@pytest.mark.mpi
def test_a_static_function_of_another_tu_is_not_published(tmp_path: Path) -> None:
    """static.c's ``helper`` executes a barrier, the ``helper`` main.c calls (quiet.c's)
    does not.  Published under its name, the static one would win the clash
    (``sideindex.merged`` keeps the summary with collectives) and main.c would be warned
    of a call that executes no collective."""
    (tmp_path / "static.c").write_text(STATIC_HELPER)
    (tmp_path / "quiet.c").write_text(QUIET_HELPER)
    (tmp_path / "main.c").write_text(MAIN)
    for name in ("static", "quiet", "main"):
        done = run([tool("mpicc-wrap"), "-c", f"{name}.c"], cwd=tmp_path, timeout=300)
        assert done.returncode == 0, done.output
        assert "warning" not in done.stderr, done.stderr
    seen = S.visible(str(tmp_path / "main.o"), Options())
    assert "other_api" in seen and seen["helper"].file == "quiet.c"
    record = S.decode(Path(tmp_path / "static.o.mpicc-wrap.json").read_bytes())
    assert record is not None and set(record[0]) == {"other_api"}



def test_summaries_of_a_library_in_an_include_directory_are_visible(tmp_path: Path) -> None:
    """p4est's libsc: the library's objects sit in ``sc/src`` beside the headers the
    application includes with ``-Isc/src``.  Its ``die()`` ends in ``abort()``, an
    error exit (issue 9 item 3), which its summary says; seen through the ``-I``
    directory, the caller's path into it is pruned, unseen it is warned.  The sources
    are the corpus's ``correct_xtu_error_exit_helper``, split over two directories."""
    program = CORPUS / "correct_xtu_error_exit_helper"
    lib, app = tmp_path / "lib", tmp_path / "app"
    lib.mkdir()
    app.mkdir()
    (lib / "die.c").write_text((program / "a_die.c").read_text())
    (app / "main.c").write_text((program / "b_main.c").read_text())
    done = run([tool("mpicc-wrap"), "-c", "die.c"], cwd=lib, timeout=300)
    assert done.returncode == 0, done.output
    with_dir = run([tool("mpicc-wrap"), "-I../lib", "-c", "main.c"], cwd=app, timeout=300)
    assert with_dir.returncode == 0, with_dir.output
    assert "warning" not in with_dir.stderr, with_dir.stderr
    assert S.visible(str(app / "main.o"), Options(), dirs=[str(lib)]).keys() == {"die"}
    without = run([tool("mpicc-wrap"), "-I.", "-c", "main.c"], cwd=app, timeout=300)
    assert "main.c:20:5: warning: MPI_Barrier" in without.stderr, without.stderr
