"""PARCOACH Algorithm 1 on small programs: which collectives warn and which do not.

One TU holds every scenario as its own function (parsing mpi.h once): functions named
``warn_*`` must get exactly the findings listed in EXPECTED, ``ok_*`` none.
"""

from __future__ import annotations

import re

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis.rankdep import seeds
from mpicc_wrap.analysis.unit import analyse
from mpicc_wrap.model import TUAnalysis

SOURCE = r"""
#include <mpi.h>
#include <stdlib.h>
static int rank_of(MPI_Comm c) { int r; MPI_Comm_rank(c, &r); return r; }
static void sync(MPI_Comm c) { MPI_Barrier(c); }
static void sync2(MPI_Comm d) { MPI_Barrier(d); }
static void reduce_then_sync(MPI_Comm c, int *x)
{ MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, c); MPI_Barrier(c); }
static void maybe_sync(MPI_Comm c, int k) { if (k > 0) MPI_Barrier(c); }
static void recurse(MPI_Comm c, int depth)
{ if (depth > 0) { MPI_Barrier(c); recurse(c, depth - 1); } }
static void cb_a(MPI_Comm c) { MPI_Barrier(c); }
static void cb_b(MPI_Comm c) { (void)c; }

__attribute__((noreturn)) void die(int code);
static void fatal(void) { MPI_Abort(MPI_COMM_WORLD, 1); }

void warn_user_noreturn(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) die(3);
  if (rank == 2) fatal();
  MPI_Barrier(MPI_COMM_WORLD);
}
void ok_rank_error_check_aborts(int bad) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1 && bad) MPI_Abort(MPI_COMM_WORLD, 2);
  if (rank == 0) fatal();
  MPI_Barrier(MPI_COMM_WORLD);
}
void warn_if_rank0(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Barrier(MPI_COMM_WORLD);
}
void warn_else_different(void) {
  int rank = rank_of(MPI_COMM_WORLD), x = 1;
  if (rank % 2) MPI_Barrier(MPI_COMM_WORLD);
  else MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
void warn_loop_trip(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < rank; i++) MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
}
void warn_break_in_loop(int n) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; i++) { if (rank == 1) break; MPI_Barrier(MPI_COMM_WORLD); }
}
void warn_do_while(void) {
  int rank, step = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  do { MPI_Barrier(MPI_COMM_WORLD); step++; } while (step < rank);
}
void warn_infinite_loop_break(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (;;) { MPI_Barrier(MPI_COMM_WORLD); if (rank < 2) break; }
}
void warn_goto_retry(void) {
  int rank, tries = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
again:
  MPI_Barrier(MPI_COMM_WORLD);
  tries++;
  if (rank == 0 && tries < 2) goto again;
  MPI_Allreduce(MPI_IN_PLACE, &tries, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
void warn_switch(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) { case 0: MPI_Barrier(MPI_COMM_WORLD); break; default: break; }
}
void warn_goto(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank > 2) goto out;
  MPI_Barrier(MPI_COMM_WORLD);
out:
  return;
}
int warn_early_return(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 3) return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}
void warn_exit(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) exit(0);
  MPI_Barrier(MPI_COMM_WORLD);
}
void warn_short_circuit(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) abort();
}
void warn_helper(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank) sync(MPI_COMM_WORLD);
}
void warn_nonblocking(void) {
  MPI_Request req; int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Ibarrier(MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}
void warn_subcomms(MPI_Comm a, MPI_Comm b) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Barrier(a); else MPI_Barrier(b);
}
void warn_reorder(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) { MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD); }
  else { MPI_Barrier(MPI_COMM_WORLD); MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); }
}
void warn_recursion(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank) recurse(MPI_COMM_WORLD, 2);
}
void warn_pointer(void (*fp)(MPI_Comm)) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) fp(MPI_COMM_WORLD);
}
void warn_rank_param_helper(void) {
  maybe_sync(MPI_COMM_WORLD, rank_of(MPI_COMM_WORLD));
}
void warn_comm_split(void) {
  MPI_Comm sub; int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank) MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &sub);
}

void ok_straight(void) {
  int x = 0; MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
void ok_identical_arms(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) { x = 1; MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); }
  else { MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); }
}
void ok_identical_helpers(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) sync(MPI_COMM_WORLD); else sync2(MPI_COMM_WORLD);
}
void ok_helper_vs_inline(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) reduce_then_sync(MPI_COMM_WORLD, &x);
  else reduce_then_sync(MPI_COMM_WORLD, &x);
}
void ok_helper_vs_same_sequence_inline(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) reduce_then_sync(MPI_COMM_WORLD, &x);
  else {
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
void ok_size_dependent(void) {
  int size; MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 2) MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < size; i++) MPI_Barrier(MPI_COMM_WORLD);
}
void ok_argc_dependent(int argc) {
  if (argc > 1) MPI_Barrier(MPI_COMM_WORLD);
}
void ok_bcast_value(void) {
  int rank, n = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) n = 5;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) MPI_Barrier(MPI_COMM_WORLD);
}
void ok_rank_branch_without_collectives(void) {
  int rank, x = 0; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) x = 3;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
void ok_wait_is_not_collective(void) {
  MPI_Request req; int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  if (rank == 0) MPI_Wait(&req, MPI_STATUS_IGNORE); else MPI_Wait(&req, MPI_STATUS_IGNORE);
}
void ok_uses_pointer_to_silent(void (*fp)(MPI_Comm)) {
  (void)cb_b; (void)cb_a;
  fp(MPI_COMM_WORLD);
}
void ok_abort_on_error(void) {
  if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 1);
}
"""

# function -> the collectives (display names) it must warn about, in source order
EXPECTED = {
    "warn_if_rank0": ["MPI_Barrier"],
    "warn_user_noreturn": ["MPI_Barrier"],
    "warn_else_different": ["MPI_Barrier", "MPI_Allreduce"],
    "warn_loop_trip": ["MPI_Bcast"],
    "warn_break_in_loop": ["MPI_Barrier"],
    "warn_switch": ["MPI_Barrier"],
    "warn_goto_retry": ["MPI_Barrier"],
    "warn_do_while": ["MPI_Barrier"],
    "warn_infinite_loop_break": ["MPI_Barrier"],
    "warn_goto": ["MPI_Barrier"],
    "warn_early_return": ["MPI_Barrier"],
    "warn_exit": ["MPI_Barrier"],
    "warn_short_circuit": ["MPI_Barrier"],
    "warn_helper": ["sync()"],
    "warn_nonblocking": ["MPI_Ibarrier"],
    "warn_subcomms": ["MPI_Barrier", "MPI_Barrier"],
    "warn_reorder": ["MPI_Bcast", "MPI_Barrier", "MPI_Barrier", "MPI_Bcast"],
    "warn_recursion": ["recurse()"],
    "warn_pointer": ["fp()"],
    "warn_rank_param_helper": [],  # the finding is inside maybe_sync
    "maybe_sync": ["MPI_Barrier"],
    "warn_comm_split": ["MPI_Comm_split"],
}


@pytest.fixture(scope="module")
def result() -> TUAnalysis:
    return analyse(parse_source(SOURCE), {})


SAME_CAUSE = re.compile(r"^(\S+) .*: the same cause as the warning at line \d+$")


def by_function(result: TUAnalysis) -> dict[str, list[str]]:
    """Collectives warned per function, in source order: each warning's own and those
    grouped under it as notes (one warning per cause)."""
    found: dict[str, list[tuple[int, int, str]]] = {}
    for f in result.findings:
        sites = found.setdefault(f.function, [])
        sites.append((f.loc.line, f.loc.column, f.collective))
        for note in f.notes:
            m = SAME_CAUSE.match(note.message)
            if m:
                sites.append((note.loc.line, note.loc.column, m.group(1)))
    return {fn: [name for *_, name in sorted(sites)] for fn, sites in found.items()}


@pytest.mark.parametrize("func", sorted(EXPECTED))
def test_expected_warnings(result: TUAnalysis, func: str) -> None:
    assert by_function(result).get(func, []) == EXPECTED[func]


def test_no_other_function_warns(result: TUAnalysis) -> None:
    extra = {f: v for f, v in by_function(result).items() if f not in EXPECTED}
    assert extra == {}


def test_finding_names_condition_reason_and_counter_example(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_early_return")
    assert f.comm == "MPI_COMM_WORLD"
    assert f.message == "MPI_Barrier on MPI_COMM_WORLD may not be reached by all processes"
    assert [c.text for c in f.conditions] == ["rank == 3"] and f.conditions[0].reason
    assert f.loc.file == "src.c" and f.conditions[0].loc.line == f.loc.line - 1
    assert "'rank == 3' is false call MPI_Barrier on MPI_COMM_WORLD at src.c:" in f.notes[0].message
    assert f"leave warn_early_return() at src.c:{f.loc.line - 1}" in f.notes[0].message


def test_reordering_message(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_reorder")
    assert "may be called in a different order" in f.message
    assert "the others call MPI_Barrier" in f.notes[0].message


def test_different_communicators_in_the_two_arms(result: TUAnalysis) -> None:
    (a,) = (f for f in result.findings if f.function == "warn_subcomms")
    assert a.comm == "a"
    assert a.message == "MPI_Barrier on a may not be reached by all processes"
    assert "the others call MPI_Barrier on b at" in a.notes[0].message
    assert a.notes[-1].message == ("MPI_Barrier on b may not be reached by all processes: "
                                   f"the same cause as the warning at line {a.loc.line}")


def test_one_warning_per_cause(result: TUAnalysis) -> None:
    """Collectives made conditional by the same condition: one warning, at the first,
    with a note for each of the others (they are all still checked at run time)."""
    (head,) = (f for f in result.findings if f.function == "warn_reorder")
    grouped = [n for n in head.notes if SAME_CAUSE.match(n.message)]
    assert [n.message.split()[0] for n in grouped] == ["MPI_Barrier", "MPI_Barrier",
                                                       "MPI_Bcast"]
    assert all(n.loc > head.loc for n in grouped)
    plan = next(p for p in result.plans if p.name == "warn_reorder")
    assert sum(s.flagged for s in plan.sites) == 4


def test_switch_counter_example_names_a_case(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_switch")
    assert f.notes[0].message.startswith("counter-example: ranks taking one case call")


def test_loop_finding_is_blamed_on_the_loop_condition(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_loop_trip")
    assert [c.text for c in f.conditions] == ["i < rank"]


def test_do_while_counter_example_names_the_loop_exit(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_do_while")
    assert [c.text for c in f.conditions] == ["step < rank"]
    assert f.notes[0].message.startswith(
        "counter-example: ranks where 'step < rank' is false leave the loop, the others "
        "run it again and call MPI_Barrier")


def test_noreturn_functions_are_exits_not_deferred_calls(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_user_noreturn")
    # die() leaves one process: blamed.  fatal() wraps MPI_Abort, which ends every
    # process of the job, so `rank == 2` is an error check, not a divergence.
    assert [c.text for c in f.conditions] == ["rank == 1"]
    assert "call die() at src.c:" in f.notes[0].message
    assert result.deferred == [] and result.summaries["fatal"].noreturn


def test_exit_counter_example(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "warn_exit")
    assert "call exit() at src.c:" in f.notes[0].message


def test_summaries(result: TUAnalysis) -> None:
    s = result.summaries
    assert s["sync"].fixed and s["sync"].sequence == ["MPI_Barrier@#0"]
    assert s["reduce_then_sync"].sequence == ["MPI_Allreduce@#0", "MPI_Barrier@#0"]
    assert not s["maybe_sync"].fixed and s["maybe_sync"].has_collectives
    assert not s["recurse"].fixed and s["recurse"].has_collectives
    assert not s["cb_b"].has_collectives and s["rank_of"].returns_rank
    assert s["ok_straight"].fixed and set(s) >= set(EXPECTED) - {"maybe_sync"}


def test_stats(result: TUAnalysis) -> None:
    st = result.stats
    assert st.flagged_sites == sum(len(v) for v in EXPECTED.values())
    assert st.functions == len(result.summaries)
    assert st.functions_instrumented == len([v for v in EXPECTED.values() if v])
    assert st.collective_sites > st.flagged_sites and st.user_lines > 100


def test_findings_need_a_rank_dependent_condition() -> None:
    tu = parse_source(SOURCE)
    assert analyse(tu, {}, seeds.Uniform()).findings == []


def test_analysis_context_is_public_and_frozen() -> None:
    """findings.py reads a frozen ``context.Context``, not the run's private state."""
    import dataclasses

    import pytest
    from analysis_helpers import parse_source

    from mpicc_wrap.analysis import context, rankdep

    tu = parse_source(SOURCE)
    ctx = context.build(tu, {}, rankdep.RankDependence(tu.ast, {}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.summaries = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        ctx.summaries["x"] = ctx.summaries[next(iter(ctx.summaries))]  # type: ignore[index]
    assert set(ctx.summaries) == set(ctx.cfgs)


def test_function_without_collective_builds_no_regions() -> None:
    """The whole TU analysed: a function without a collective event gets its summary
    and its (empty) findings without the regions of Algorithm 1; one with an event
    gets both."""
    from analysis_helpers import parse_source

    from mpicc_wrap.analysis import context, findings, rankdep

    tu = parse_source("""
#include <mpi.h>
int count(int n) { int s = 0; while (n > 0) { s += n; n--; } if (s > 9) return 1; return s; }
void sync(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r) MPI_Barrier(MPI_COMM_WORLD); }
""")
    ctx = context.build(tu, {}, rankdep.RankDependence(tu.ast, {}))
    result = findings.collect(ctx)
    assert "regions" not in ctx.cfgs["count"].memo
    assert "regions" in ctx.cfgs["sync"].memo
    assert ctx.summaries["count"].sequence == [] and ctx.summaries["count"].fixed
    assert [f.function for f in result.findings] == ["sync"]
