"""The corpus is honest: under the plain MPI compiler every buggy program hangs or
fails at each of its process counts, and every correct program runs clean.

Also checks that every program is well-formed (annotations, naming, size), so the
static and dynamic corpus tests judge mpicc-wrap against sound expectations.

Hangs cost their whole timeout, so the runs of all selected cases go through a small
thread pool once (``plain_runs``); each parametrised case then asserts on its result.
"""

from __future__ import annotations

from pathlib import Path

import corpus_lib as corpus
import mpirun
import pytest

PROGRAMS = corpus.discover()
CASES = corpus.params(PROGRAMS)
HANG_TIMEOUT = 3.0  # a buggy run still going after this long is hung
CLEAN_TIMEOUT = 60.0  # correct runs finish in about a second; generous under load
WORKERS = 2
EXPECTATIONS = ("expect-warning", "expect-link-warning", "expect-dynamic")


def run_case(builds: corpus.BuildCache, program: corpus.Program, nprocs: int
             ) -> mpirun.Run | str:
    """Build (once) and run one case; a string is a build failure log."""
    build = builds.get(program)
    if not build.ok:
        return build.log
    timeout = HANG_TIMEOUT if program.buggy else CLEAN_TIMEOUT
    return mpirun.mpiexec(build.exe, nprocs, timeout=timeout, cwd=build.exe.parent)


@pytest.fixture(scope="module")
def plain_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
               ) -> dict[str, mpirun.Run | str]:
    """Results of every selected case of this module, run concurrently."""
    builds = corpus.BuildCache("mpicc", tmp_path_factory.mktemp("plain"))
    cases = corpus.selected(request, "case")
    return corpus.pool_map(lambda p, n: run_case(builds, p, n), cases,
                           key=lambda p, n: corpus.case_id((p, n)), workers=WORKERS)


def honest_failure(program: corpus.Program, run: mpirun.Run) -> bool:
    """A buggy run is honest when it hangs, fails, or (when the program says so)
    mpiexec tore it down before any rank printed its completion text."""
    if run.timed_out or run.returncode != 0:
        return True
    marker = program.never_printed()
    return marker is not None and marker not in run.stdout


@pytest.mark.mpi
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=corpus.case_id)
def test_plain_mpicc_behaviour(case: tuple[corpus.Program, int],
                               plain_runs: dict[str, mpirun.Run | str]) -> None:
    program, nprocs = case
    result = plain_runs[corpus.case_id(case)]
    assert not isinstance(result, str), f"plain mpicc build failed:\n{result}"
    if program.buggy:
        assert honest_failure(program, result), (
            f"buggy {program.name} completed cleanly at -n {nprocs}:\n{result.output}")
    else:
        assert not result.timed_out, f"correct {program.name} hung at -n {nprocs}"
        assert result.returncode == 0, f"correct {program.name} failed:\n{result.output}"
        assert "DYNAMIC-CHECK" not in result.output


def test_corpus_size_and_balance() -> None:
    buggy = [p for p in PROGRAMS if p.buggy]
    correct = [p for p in PROGRAMS if not p.buggy]
    assert len(PROGRAMS) >= 90
    assert len(buggy) >= 45 and len(correct) >= 35


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_program_well_formed(program: corpus.Program) -> None:
    prefix = program.name.split("_", 1)[0]
    assert prefix in ("buggy", "correct", "root"), "name must start buggy_/correct_/root_"
    assert (prefix == "correct") == (program.verdict == "correct")
    if program.path.is_dir():
        assert "_xtu_" in program.name and len(program.sources) >= 2
    assert all(2 <= n <= 4 for n in program.nprocs), "never run more than 4 ranks"
    expectations = [m for key in EXPECTATIONS for m in program.marked(key)]
    if program.buggy:
        assert expectations, "a buggy program needs an expect-* annotation"
        assert all(m.names() for m in expectations), "expectations must name a site"
    else:
        assert not expectations and not program.marked("expect-note")
        assert not program.marked("may-warn") and program.marked("output-deterministic")
    if prefix == "root":
        assert not program.marked("expect-warning"), "root mismatches are not ordering bugs"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_program_readable(program: corpus.Program) -> None:
    for source in program.sources:
        lines = source.read_text().splitlines()
        assert lines[0].startswith("//"), "start with a comment saying what it tests"
        assert len(lines) <= 60, f"{source.name}: keep programs small"
        if program.path.is_file():
            assert len(lines) >= 15, f"{source.name}: one whole idea per program"


def fake_run(returncode: int, stdout: str = "", timed_out: bool = False) -> mpirun.Run:
    return mpirun.Run(returncode, stdout, "", timed_out)


def test_honest_failure_rules(tmp_path: Path) -> None:
    src = tmp_path / "buggy_x.c"
    src.write_text("// corpus: buggy\n// never-printed: finished (torn down)\n")
    other = tmp_path / "buggy_y.c"
    other.write_text("// corpus: buggy\n")
    torn, plain = corpus.load(src), corpus.load(other)
    assert torn.never_printed() == "finished" and plain.never_printed() is None
    assert honest_failure(plain, fake_run(-9, timed_out=True))
    assert honest_failure(plain, fake_run(14))
    assert not honest_failure(plain, fake_run(0, "rank 0 finished\n"))
    assert honest_failure(torn, fake_run(0, "rank 1 leaving\n"))
    assert not honest_failure(torn, fake_run(0, "rank 0 finished\n"))


def test_load_reads_verdict_nprocs_and_directories(tmp_path: Path) -> None:
    single = tmp_path / "buggy_one.c"
    single.write_text("// corpus: buggy\n// nprocs: 3 4\n"
                      "MPI_Barrier(c); // expect-warning: MPI_Barrier\n")
    program = corpus.load(single)
    assert (program.name, program.buggy, program.nprocs) == ("buggy_one", True, (3, 4))
    assert [(m.value, m.line) for m in program.dynamic_sites()] == [("MPI_Barrier", 3)]
    multi = tmp_path / "correct_xtu_two"
    multi.mkdir()
    (multi / "b_main.c").write_text("// corpus: correct\n")
    (multi / "a_helper.c").write_text("// helper\n")
    program = corpus.load(multi)
    assert [s.name for s in program.sources] == ["a_helper.c", "b_main.c"]
    assert program.nprocs == corpus.DEFAULT_NPROCS and not program.buggy
    (tmp_path / "broken.c").write_text("int x;\n")
    with pytest.raises(ValueError, match="corpus: buggy"):
        corpus.load(tmp_path / "broken.c")


def test_build_compiles_directories_in_sorted_order_then_links(tmp_path: Path) -> None:
    program = corpus.load(corpus.CORPUS / "correct_xtu_helper_all_ranks")
    build = corpus.build(program, "mpicc", tmp_path)
    assert build.ok and build.exe.exists(), build.log
    commands = [line for line in build.log.splitlines() if line.startswith("$ ")]
    assert [c.split(" -c ")[1].split()[0].rsplit("/", 1)[1] for c in commands[:2]] == [
        "a_helper.c", "b_main.c"]
    assert " -c " not in commands[2] and commands[2].endswith(str(build.exe))
