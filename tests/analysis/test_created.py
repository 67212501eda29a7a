"""The handles a function creates (``findings._Function.created``): its body is scanned
for them only when one of its call nodes calls a constructor."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis import findings, unit

SPLIT = """#include <mpi.h>
void helper(int *sum, int rank)
{
    if (rank == 0) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&rank, sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
int main(int argc, char **argv)
{
    int rank, size, colour, sum = 0;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    colour = rank < size - 1 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &comm);
    if (colour == 0) {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&comm);
    helper(&sum, rank);
    MPI_Finalize();
    return 0;
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
    # main's split arm stays silent (its barriers match), helper's barrier is warned
    assert [(f.function, f.collective) for f in result.findings] == [
        ("helper", "MPI_Barrier")]
