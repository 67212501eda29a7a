"""Instrumentation plans, deferred findings, external summaries and MPI_Finalize."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis.rankdep import seeds
from mpicc_wrap.analysis.unit import analyse
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.model import FunctionSummary, ParsedTU, Pos, TUAnalysis

SOURCE = r"""
#include <mpi.h>
#include <stdlib.h>
void ext_helper(MPI_Comm c);
void other_tu(MPI_Comm c);
int work(MPI_Comm comm, int n)
{
  int rank, x = n;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    MPI_Comm inner = comm;
    MPI_Barrier(inner);
    return MPI_Allreduce(MPI_IN_PLACE, &x, n, MPI_INT, MPI_SUM, comm);
  }
  if (x < 0) exit(0);  /* a successful exit: a divergence (exit(1) ends the job) */
  MPI_Bcast(&x, 1, MPI_INT, 0, comm);
  return x;
}
void defer(void) {
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) ext_helper(MPI_COMM_WORLD);
  if (rank == 1) other_tu(MPI_COMM_WORLD);
}
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) return 0;
  MPI_Finalize();
  return 0;
}
"""

OTHER = {"other_tu": FunctionSummary("other_tu", "b.c", 3, True, ["MPI_Barrier@#0"], True)}


@pytest.fixture(scope="module")
def parsed() -> ParsedTU:
    return parse_source(SOURCE)


@pytest.fixture(scope="module")
def result(parsed: ParsedTU) -> TUAnalysis:
    return analyse(parsed, OTHER)


def text_at(tu: ParsedTU, start: Pos, end: Pos) -> str:
    lines = tu.text.split("\n")
    if start.line == end.line:
        return lines[start.line - 1][start.column - 1:end.column - 1]
    return "\n".join([lines[start.line - 1][start.column - 1:]]
                     + lines[start.line:end.line - 1]
                     + [lines[end.line - 1][:end.column - 1]])


def test_plan_lists_every_site_of_a_function_with_findings(parsed: ParsedTU,
                                                           result: TUAnalysis) -> None:
    plan = next(p for p in result.plans if p.name == "work")
    sites = [(s.kind, s.name, s.flagged) for s in plan.sites]
    assert sites == [("collective", "MPI_Barrier", True),
                     ("collective", "MPI_Allreduce", True),
                     ("noreturn", "exit", False),
                     ("collective", "MPI_Bcast", True)]
    texts = [text_at(parsed, s.start, s.end) for s in plan.sites]
    assert texts[0] == "MPI_Barrier(inner)" and texts[2] == "exit(0)"
    assert texts[1].startswith("MPI_Allreduce(") and texts[1].endswith("comm)")
    allreduce, bcast = plan.sites[1], plan.sites[3]
    assert allreduce.size == "n" and allreduce.op and allreduce.datatype and allreduce.root is None
    assert bcast.root == "0" and bcast.size == "1" and bcast.comm == "comm"
    assert bcast.conditions and bcast.conditions[0].text == "rank == 0"


def test_plan_exits_and_communicators(parsed: ParsedTU, result: TUAnalysis) -> None:
    plan = next(p for p in result.plans if p.name == "work")
    assert plan.return_type == "int"
    assert plan.comms == ["comm"]  # `inner` is declared in a nested block
    kinds = [(e.kind, e.has_value, e.value_has_collective) for e in plan.exits]
    assert kinds == [("return", True, True), ("return", True, False), ("end", False, False)]
    assert text_at(parsed, plan.exits[1].start, plan.exits[1].end) == "return x;"
    assert text_at(parsed, plan.exits[0].start, plan.exits[0].end).endswith("comm);")
    for pos, char in ((plan.body_start, "{"), (plan.body_end, "}")):
        assert text_at(parsed, pos, Pos(pos.line, pos.column + 1)) == char
    assert text_at(parsed, plan.def_start, Pos(plan.def_start.line, 99)).startswith("int work(")


def test_finalize_skipped_by_rank_dependent_return(result: TUAnalysis) -> None:
    f = next(f for f in result.findings if f.function == "main")
    assert f.collective == "MPI_Finalize" and f.comm == "MPI_COMM_WORLD"
    assert "leave main()" in f.notes[0].message


def test_external_summary_counts_as_collective_call(result: TUAnalysis) -> None:
    f = [f for f in result.findings if f.function == "defer"]
    assert [(x.collective, x.callee) for x in f] == [("other_tu()", "other_tu")]


def test_unknown_external_call_is_deferred(result: TUAnalysis) -> None:
    assert [(d.function, d.callee) for d in result.deferred] == [("defer", "ext_helper")]
    assert all(f.callee != "ext_helper" for f in result.findings)


def test_functions_without_findings_get_no_plan(result: TUAnalysis) -> None:
    assert sorted(p.name for p in result.plans) == ["defer", "main", "work"]
    assert result.summaries["defer"].has_collectives
    assert not result.summaries["defer"].fixed


def test_without_external_summary_the_call_is_deferred(parsed: ParsedTU) -> None:
    result = analyse(parsed, {})
    assert sorted(d.callee for d in result.deferred) == ["ext_helper", "other_tu"]
    assert all(f.function != "defer" for f in result.findings)


class BrokenOracle(seeds.Uniform):
    """A rank-dependence oracle that fails, as a bug in our own code would."""

    def reason(self, func_name: str, expr: object, comm: str = "") -> str | None:
        raise KeyError(func_name)


def test_internal_failure_becomes_analysis_skipped(parsed: ParsedTU) -> None:
    with pytest.raises(AnalysisSkipped, match="internal analysis error"):
        analyse(parsed, {}, BrokenOracle())


def test_call_through_pointer_site_covers_the_whole_call() -> None:
    from mpicc_wrap.frontend.positions import Text

    text = Text("x = g((*fp)(c), (s->fn)(d));\n")
    assert text.callee_start(Pos(1, 9)) == Pos(1, 7)
    assert text.scan(text.scan(Pos(1, 7), ")"), ")") == Pos(1, 15)
    assert text.callee_start(Pos(1, 18)) == Pos(1, 17)
    assert text.callee_start(Pos(1, 7)) == Pos(1, 7)
