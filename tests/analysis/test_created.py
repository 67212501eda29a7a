"""The handles a function creates (``findings._Function.created``): its body is scanned
for them only when one of its call nodes calls a constructor."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source
from paths import CORPUS

from mpicc_wrap.analysis import findings, unit

# The corpus program whose split arm is silent (its barriers match), and a function
# without a constructor whose barrier is warned
SPLIT = (CORPUS / "correct_split_arm_then_world_collective.c").read_text() + """
void helper(int *sum)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&rank, sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
"""


def test_only_a_function_that_calls_a_constructor_is_scanned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[str] = []
    scan = findings.sole_constructors

    def counted(defn):  # type: ignore[no-untyped-def]
        scanned.append(defn.decl.name)
        return scan(defn)

    monkeypatch.setattr(findings, "sole_constructors", counted)
    result = unit.analyse(parse_source(SPLIT), {})
    assert scanned == ["main"]
    assert [(f.function, f.collective) for f in result.findings] == [
        ("helper", "MPI_Barrier")]
