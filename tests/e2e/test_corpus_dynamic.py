"""Run-time checks of mpicc-wrap on the corpus.

Each buggy program, built with mpicc-wrap (instrumentation on), must end quickly
under mpiexec at each of its process counts with a non-zero exit and a
``DYNAMIC-CHECK:`` report naming an expected site (collective and ``file:line``) —
instead of hanging as the plain build does.  Each correct program must exit 0 with
no report and print the same (sorted) stdout as its plain mpicc build.

All selected cases run once, through a small thread pool (``runs``); each
parametrised case asserts on its own result.
"""

from __future__ import annotations

from dataclasses import dataclass

import corpus_lib as corpus
import mpirun
import pytest

PROGRAMS = corpus.discover()
CASES = corpus.params(PROGRAMS)
ABORT_TIMEOUT = 12.0  # an instrumented abort takes about 2 s; a hang costs this much
CLEAN_TIMEOUT = 60.0
WORKERS = 2


@dataclass
class Outcome:
    """The wrapped run of a case, and for correct programs the plain run too."""

    wrapped: mpirun.Run | None
    plain: mpirun.Run | None
    failure: str = ""  # build failure log


def run_case(wrap: corpus.BuildCache, plain: corpus.BuildCache,
             program: corpus.Program, nprocs: int) -> Outcome:
    build = wrap.get(program)
    if not build.ok:
        return Outcome(None, None, f"mpicc-wrap build failed:\n{build.log}")
    timeout = ABORT_TIMEOUT if program.buggy else CLEAN_TIMEOUT
    wrapped = mpirun.mpiexec(build.exe, nprocs, timeout=timeout, cwd=build.exe.parent)
    if program.buggy:
        return Outcome(wrapped, None)
    reference = plain.get(program)
    if not reference.ok:
        return Outcome(wrapped, None, f"plain mpicc build failed:\n{reference.log}")
    ran = mpirun.mpiexec(reference.exe, nprocs, timeout=CLEAN_TIMEOUT,
                         cwd=reference.exe.parent)
    return Outcome(wrapped, ran)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> dict[str, Outcome]:
    """Outcomes of every selected case of this module."""
    wrap = corpus.BuildCache("mpicc-wrap", tmp_path_factory.mktemp("wrapped"))
    plain = corpus.BuildCache("mpicc", tmp_path_factory.mktemp("plain"))
    return corpus.pool_map(lambda p, n: run_case(wrap, plain, p, n),
                           corpus.selected(request, "case"),
                           key=lambda p, n: corpus.case_id((p, n)), workers=WORKERS)


def check_buggy(program: corpus.Program, nprocs: int, run: mpirun.Run) -> None:
    where = f"{program.name} at -n {nprocs}"
    assert not run.timed_out, f"{where} still hung after {ABORT_TIMEOUT} s:\n{run.output}"
    assert run.returncode != 0, f"{where} exited 0:\n{run.output}"
    report = corpus.dynamic_lines(run.output)
    assert report, f"{where}: no DYNAMIC-CHECK report:\n{run.output}"
    sites = program.dynamic_sites()
    assert any(corpus.names_site(report, site) for site in sites), (
        f"{where}: report names none of {[(s.value, s.file, s.line) for s in sites]}:\n"
        + "\n".join(report))


def check_correct(program: corpus.Program, nprocs: int, outcome: Outcome) -> None:
    where = f"{program.name} at -n {nprocs}"
    run, plain = outcome.wrapped, outcome.plain
    assert run is not None and plain is not None
    assert not run.timed_out, f"{where} hung when built with mpicc-wrap"
    assert "DYNAMIC-CHECK" not in run.output, f"{where}: false report:\n{run.output}"
    assert run.returncode == 0, f"{where} failed when built with mpicc-wrap:\n{run.output}"
    assert plain.returncode == 0 and not plain.timed_out, f"{where}: plain build failed"
    if program.marked("output-deterministic"):
        assert corpus.sorted_stdout(run.stdout) == corpus.sorted_stdout(plain.stdout), (
            f"{where}: output differs from the plain build")


@pytest.mark.mpi
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=corpus.case_id)
def test_wrapped_run(case: tuple[corpus.Program, int], runs: dict[str, Outcome]) -> None:
    check_case(case, runs)


def check_case(case: tuple[corpus.Program, int], runs: dict[str, Outcome]) -> None:
    """The verdict on one (program, nprocs) run: a buggy program stops with the right
    report, a correct one runs as it does built by plain mpicc."""
    program, nprocs = case
    outcome = runs[corpus.case_id(case)]
    assert not outcome.failure, outcome.failure
    assert outcome.wrapped is not None
    if program.buggy:
        check_buggy(program, nprocs, outcome.wrapped)
    else:
        check_correct(program, nprocs, outcome)


def test_report_matching() -> None:
    mark = corpus.Mark("expect-warning", "MPI_Barrier", "f.c", 47)
    good = ["DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: ranks 0,2 are about to "
            "call MPI_Barrier at f.c:47 in f(); ranks 1,3 are about to leave f() at f.c:52"]
    assert corpus.names_site(good, mark)
    assert not corpus.names_site([good[0].replace("f.c:47", "f.c:470")], mark)
    assert not corpus.names_site([good[0].replace("MPI_Barrier", "MPI_Bcast")], mark)
    assert not corpus.names_site([good[0].replace("f.c:47", "xf.c:47")], mark)
    assert corpus.dynamic_lines("x\n" + good[0] + "\ny") == good


def test_sorted_stdout_ignores_interleaving() -> None:
    assert corpus.sorted_stdout("b\na\n\n") == corpus.sorted_stdout("a\nb\n")
