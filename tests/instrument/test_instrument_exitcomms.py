"""Exit checks never read an invalid communicator handle (PARCOACH Alg. 2 line 7).

An uninitialised function-scope ``MPI_Comm`` local checked at an early return would
hand garbage to ``mpiccwrap_cc_exit``: the plan initialises it to MPI_COMM_NULL at
its declaration (``FunctionPlan.inits``), and communicators whose validity at every
exit cannot be guaranteed are left out of the exit checks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from analysis_helpers import parse_source
from mpirun import Run, mpicc, mpiexec, rank_lines, run, tool
from mpirun import compiler as mpirun_compiler

from mpicc_wrap.analysis.unit import analyse
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.frontend import handles
from mpicc_wrap.instrument import rewrite
from mpicc_wrap.model import FunctionPlan, ParsedTU, Pos, TUAnalysis

NULL = rewrite.PREDEFINED_COMMS["MPI_COMM_NULL"]

SOURCE = r"""
#include <mpi.h>
#include <stdio.h>
MPI_Comm global_comm;
struct holder { MPI_Comm comm; };
void split_sub(int color) {
  int rank;
  MPI_Comm sub, spare;   /* uninitialised */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) return;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &sub);
  if (rank % 2) MPI_Barrier(sub);
  MPI_Comm_free(&sub);
  (void)spare;
}
void kept(MPI_Comm param) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm world = MPI_COMM_WORLD, dup = param;
  if (rank) MPI_Barrier(world);
  if (rank) MPI_Barrier(dup);
  if (rank) MPI_Barrier(param);
  if (rank) MPI_Barrier(global_comm);
}
void left_out(MPI_Comm *pc) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm arr[2], zero = 0, copy = arr[0];
  static MPI_Comm persistent;
  struct holder h;
  MPI_Comm_dup(MPI_COMM_WORLD, &arr[0]);
  MPI_Comm_dup(MPI_COMM_WORLD, &h.comm);
  if (rank) MPI_Barrier(arr[0]);
  if (rank) MPI_Barrier(h.comm);
  if (rank) MPI_Barrier(*pc);
  if (rank) MPI_Barrier(zero);
  if (rank) MPI_Barrier(copy);
  if (rank) MPI_Barrier(persistent);
  if (rank) { MPI_Comm inner = *pc; MPI_Barrier(inner); }
}
void declared_late(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 3) return;
  MPI_Comm late;
  MPI_Comm_dup(MPI_COMM_WORLD, &late);
  if (rank) MPI_Barrier(late);
}
void jumped_over(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 5) goto out;
  MPI_Comm skipped;
  MPI_Comm_dup(MPI_COMM_WORLD, &skipped);
  if (rank) MPI_Barrier(skipped);
out:
  return;
}
void second_in_list(void) {
  int rank;
  MPI_Comm first = MPI_COMM_WORLD, second;
  MPI_Comm attributed __attribute__((unused));
  MPI_Comm_rank(first, &rank);
  if (rank == 2) return;
  MPI_Comm_dup(first, &second);
  MPI_Comm_dup(first, &attributed);
  if (rank) MPI_Barrier(second);
  if (rank) MPI_Barrier(attributed);
}
void only_inner(MPI_Comm *pc) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank) { MPI_Comm c = *pc; MPI_Barrier(c); }
}
"""


@pytest.fixture(scope="module")
def parsed() -> ParsedTU:
    return parse_source(SOURCE)


@pytest.fixture(scope="module")
def result(parsed: ParsedTU) -> TUAnalysis:
    return analyse(parsed, {})


def plan_of(result: TUAnalysis, name: str) -> FunctionPlan:
    return next(p for p in result.plans if p.name == name)


def exit_names(tu: ParsedTU, plan: FunctionPlan) -> set[str]:
    """The exit-checked communicators as the user wrote them."""
    return {handles.display(c.removeprefix("&"), tu.handle_names) for c in plan.comms}


def line_of(tu: ParsedTU, pos: Pos) -> str:
    return tu.text.split("\n")[pos.line - 1]


def test_uninitialised_local_gets_a_null_init(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = plan_of(result, "split_sub")
    assert "sub" in exit_names(parsed, plan)
    assert len(plan.inits) == 1  # `spare` is not a checked communicator
    init = plan.inits[0]
    assert line_of(parsed, init)[:init.column - 1].endswith("MPI_Comm sub")
    text = rewrite.rewrite(parsed, result.plans)
    assert text.count("\n") == parsed.text.count("\n")
    new_line = text.split("\n")[init.line - 1]
    assert new_line.strip() == f"MPI_Comm sub = {NULL}, spare;"


def test_valid_handles_are_kept_without_init(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = plan_of(result, "kept")
    assert exit_names(parsed, plan) == {"world", "dup", "param", "global_comm"}
    assert plan.inits == []


def test_init_goes_after_the_right_declarator(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = plan_of(result, "second_in_list")
    assert exit_names(parsed, plan) == {"first", "second"}  # not `attributed`
    assert len(plan.inits) == 1
    text = rewrite.rewrite(parsed, [plan])
    line = text.split("\n")[plan.inits[0].line - 1]
    assert line.startswith("  MPI_Comm first = ") and line.endswith(f", second = {NULL};")
    assert "attributed = " not in text


def test_unguaranteed_communicators_are_left_out(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = plan_of(result, "left_out")
    assert exit_names(parsed, plan) == {"MPI_COMM_WORLD"}  # of the two MPI_Comm_dup
    assert plan.inits == []


@pytest.mark.parametrize("name", ["declared_late", "jumped_over"])
def test_locals_not_in_scope_at_every_exit_are_left_out(result: TUAnalysis, name: str) -> None:
    plan = plan_of(result, name)
    assert plan.inits == []
    assert all("late" not in c and "skipped" not in c for c in plan.comms)


def test_no_exit_check_when_no_communicator_is_valid(parsed: ParsedTU,
                                                     result: TUAnalysis) -> None:
    """An empty ``comms`` must not fall back to the sites' communicators."""
    plan = plan_of(result, "only_inner")
    assert not any("c" == c.removeprefix("&") for c in plan.comms)
    text = rewrite.rewrite(parsed, [plan])
    body = text[text.index("void only_inner"):]
    body = body[:body.index("\n}") + 2]
    assert "mpiccwrap_cc(" in body and "mpiccwrap_cc_exit(" not in body


def test_init_not_after_a_name_is_skipped(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = plan_of(result, "split_sub")
    bad = FunctionPlan(plan.name, plan.return_type, plan.body_start, plan.body_end,
                       plan.def_start, plan.sites, plan.exits, plan.comms,
                       [plan.body_start])
    with pytest.raises(AnalysisSkipped):
        rewrite.rewrite(parsed, [bad])


def test_rewritten_tu_compiles_with_warnings_as_errors(parsed: ParsedTU, result: TUAnalysis,
                                                       tmp_path: Path) -> None:
    src = tmp_path / "rewritten.i"
    src.write_text(rewrite.rewrite(parsed, result.plans))
    res = run([*mpicc(), "-Wall", "-Wextra", "-Werror", "-c", str(src),
               "-o", str(tmp_path / "rewritten.o")], timeout=120)
    assert res.returncode == 0, res.output


# --- end to end: mpicc-wrap builds, mpiexec runs -------------------------------------

PROGRAM = r"""#include <mpi.h>
#include <stdio.h>

static void work(int rank, int size) {
  MPI_Comm sub;            /* uninitialised */
  (void)size;
  EARLY
  MPI_Comm_split(MPI_COMM_WORLD, COLOR, rank, &sub);
  if (BRANCH) MPI_Barrier(sub);
  MPI_Comm_free(&sub);
  printf("rank %d split done\n", rank);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  work(rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d of %d finished\n", rank, size);
  MPI_Finalize();
  return 0;
}
"""

# name -> (early return, split colour, branch condition)
CLEAN = {
    # rank-dependent, false on every rank: nobody leaves early
    "never": ("if (rank >= size) return;", "rank % 2", "rank % 2"),
    # rank-dependent, true on every rank: every exit check reads `sub` before the split
    "always": ('if (rank < size) { printf("rank %d early\\n", rank); return; }',
               "rank % 2", "rank % 2"),
}
DIVERGENT = {
    # the motivating program: rank 0 leaves, the others split MPI_COMM_WORLD
    "rank0": ("if (rank == 0) return;", "rank % 2", "rank % 2"),
    # one communicator for all; only rank 1 enters the barrier on it
    "diverge": ("if (rank >= size) return;", "0", "rank == 1"),
}


def program(early: str, color: str, branch: str) -> str:
    return PROGRAM.replace("EARLY", early).replace("COLOR", color).replace("BRANCH", branch)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("exitcomms-cache")


def compile_with(compiler: str, name: str, source: str, tmp: Path, cache: Path) -> Path:
    src, exe = tmp / f"{name}.c", tmp / f"{name}-{Path(compiler).name}"
    src.write_text(source)
    res = run([*mpirun_compiler(compiler), "-Wall", "-Wextra", str(src), "-o", str(exe)],
              timeout=180, env={"MPICC_WRAP_CACHE": str(cache)})
    assert res.returncode == 0, res.output
    # the analysis warns; the rewritten code itself must draw no compiler warning
    compiler_warnings = [line for line in res.stderr.splitlines()
                         if "warning:" in line and "[-Wmpi-" not in line]
    assert compiler_warnings == [], res.stderr
    return exe


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("exitcomms")
    exes = {}
    for name, parts in {**CLEAN, **DIVERGENT}.items():
        exes[name] = compile_with("mpicc-wrap", name, program(*parts), tmp, cache)
        if name in CLEAN:
            exes[f"{name}-plain"] = compile_with("mpicc", name, program(*parts), tmp, cache)
    return exes


def test_wrapped_build_warns_and_initialises(tmp_path: Path, cache: Path) -> None:
    src = tmp_path / "warn.c"
    src.write_text(program(*DIVERGENT["rank0"]))
    res = run([tool("mpicc-wrap"), "-c", str(src), "-o", str(tmp_path / "warn.o")],
              timeout=180, env={"MPICC_WRAP_CACHE": str(cache)})
    assert res.returncode == 0 and "warning:" in res.stderr, res.output


@pytest.mark.mpi
@pytest.mark.parametrize("nprocs", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_program_runs_like_plain_mpicc(built: dict[str, Path], name: str,
                                             nprocs: int) -> None:
    plain = mpiexec(built[f"{name}-plain"], nprocs, timeout=60)
    wrapped = mpiexec(built[name], nprocs, timeout=60)
    assert not wrapped.timed_out and wrapped.returncode == 0, wrapped.output
    assert "DYNAMIC-CHECK" not in wrapped.output
    assert rank_lines(wrapped.stdout) == rank_lines(plain.stdout)
    assert {rank for rank, _ in rank_lines(wrapped.stdout)} == set(range(nprocs))
    assert len(rank_lines(wrapped.stdout)) == nprocs * 2


@pytest.mark.mpi
@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_program_with_checks_explicitly_on(built: dict[str, Path], name: str) -> None:
    wrapped = mpiexec(built[name], 4, timeout=60, env={"MPICC_WRAP_CHECK": "1"})
    assert not wrapped.timed_out and wrapped.returncode == 0, wrapped.output
    assert wrapped.stderr == ""


def stopped(res: Run) -> None:
    assert not res.timed_out, f"hung:\n{res.output}"
    assert "DYNAMIC-CHECK:" in res.stderr, res.output
    assert res.returncode != 0
    # A crash would show as a signal; SIGKILL (9) is how MPICH's launcher ends the
    # other ranks after MPI_Abort, and it sometimes reports them so.
    crash = re.search(r"signal:? (?!9\b)\d+|segmentation", res.output, re.IGNORECASE)
    assert crash is None, res.output


def test_stopped_tolerates_the_launchers_kill_but_not_a_crash() -> None:
    report = "DYNAMIC-CHECK: collective mismatch\n"
    stopped(Run(9, "=   KILLED BY SIGNAL: 9 (Killed)\n", report, False))
    with pytest.raises(AssertionError):
        stopped(Run(139, "=   KILLED BY SIGNAL: 11 (Segmentation fault)\n", report, False))


@pytest.mark.mpi
@pytest.mark.parametrize("nprocs", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(DIVERGENT))
def test_divergent_program_is_stopped_by_a_report(built: dict[str, Path], name: str,
                                                   nprocs: int) -> None:
    stopped(mpiexec(built[name], nprocs, timeout=60))
