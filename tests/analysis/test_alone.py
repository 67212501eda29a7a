"""A rank-dependent exit taken only when the process is alone in the collective's
communicator is no divergence (mpicc_wrap.analysis.alone)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis import unit

PROGRAM = """#include <mpi.h>
int f(MPI_Comm comm) {
    int rank, n, x = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    EXTRA
    if (rank == 0) { x = 1; if (TEST) return x; }
    MPI_Bcast(&x, 1, MPI_INT, 0, comm);
    return x;
}"""


def warned(test: str, extra: str = "") -> bool:
    source = PROGRAM.replace("TEST", test).replace("EXTRA", extra)
    return bool(unit.analyse(parse_source(source), {}).findings)


@pytest.mark.parametrize("test", ["n == 1", "1 == n", "n < 2", "2 > n", "n <= 1",
                                  "n == 1 && x > 0", "x > 0 && n < 2"])
def test_an_exit_when_alone_is_silent(test: str) -> None:
    assert not warned(test)


@pytest.mark.parametrize("test", ["n != 1", "n > 1", "n >= 2"])
def test_the_false_edge_of_not_alone_is_the_alone_one(test: str) -> None:
    source = PROGRAM.replace("if (TEST) return x;", f"if ({test}) {{}} else return x;")
    assert not bool(unit.analyse(parse_source(source.replace("EXTRA", "")), {}).findings)


@pytest.mark.parametrize("test", ["n == 2", "n > 1", "n != 1", "n == 0 + 1", "n == 1 || x",
                                  "x && n != 1"])
def test_other_size_tests_still_warn(test: str) -> None:
    assert warned(test)


@pytest.mark.parametrize("extra", [
    "n = n - 1;",                        # n no longer holds the size
    "comm = MPI_COMM_SELF;",             # the communicator is another one afterwards
    "int *p = &n; *p = 1;",              # written through a pointer
])
def test_the_size_must_still_describe_the_communicator(extra: str) -> None:
    assert warned("n == 1", extra)
