"""Sign tests every process answers alike (mpicc_wrap.analysis.rankdep.signs)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis import unit

PROGRAM = """#include <mpi.h>
static int sub_rank(MPI_Comm comm) {
    int rank;
    if (comm == MPI_COMM_NULL) return 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    return rank;
}
int f(MPI_Comm comm) {
    int rank = sub_rank(comm), x = 0;
    EXTRA
    if (TEST) return 1;
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, comm);
    return x;
}"""


def warned(test: str, extra: str = "", program: str = PROGRAM) -> bool:
    source = program.replace("TEST", test).replace("EXTRA", extra)
    return bool(unit.analyse(parse_source(source), {}).findings)


@pytest.mark.parametrize("test", ["rank < 0", "0 > rank", "!(rank >= 0)", "0 <= rank",
                                  "sub_rank(comm) < 0"])
def test_a_rank_is_never_negative(test: str) -> None:
    assert not warned(test)


@pytest.mark.parametrize("test", ["rank < 1", "rank - 1 < 0", "rank == 0", "rank > 0"])
def test_other_rank_tests_still_warn(test: str) -> None:
    assert warned(test)


@pytest.mark.parametrize("extra", [
    "if (x) rank = -1;",          # a negative value written
    "rank--;",                    # 0 - 1
    "int *p = &rank; *p = -5;",   # written through a pointer
    "rank = rank - 1;",           # arithmetic on the rank
])
def test_the_variable_must_hold_a_rank_or_a_constant(extra: str) -> None:
    assert warned("rank < 0", extra.replace("if (x)", "if (rank == 3)"))


def test_a_negative_return_must_be_decided_by_an_mpi_return_code() -> None:
    worse = PROGRAM.replace("if (comm == MPI_COMM_NULL) return 0;",
                            "if (rank == 2) return -2;")
    assert warned("rank < 0", program=worse)


def test_the_error_code_may_be_kept_in_a_variable() -> None:
    kept = PROGRAM.replace(
        "if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;",
        "int err = MPI_Comm_rank(comm, &rank);\n    if (err != MPI_SUCCESS) return -1;")
    assert not warned("rank < 0", program=kept)
    assert warned("rank < 0", program=kept.replace("int err = MPI_Comm_rank(comm, &rank);",
                                                   "int err = rank; MPI_Comm_rank(comm, &rank);"))


def test_a_code_compared_with_a_variable_is_no_code_test() -> None:
    mixed = PROGRAM.replace("!= MPI_SUCCESS) return -1;", "!= x) return -1;").replace(
        "static int sub_rank(MPI_Comm comm) {\n    int rank;",
        "static int sub_rank(MPI_Comm comm) {\n    int rank, x; MPI_Comm_rank(comm, &x);")
    assert warned("rank < 0", program=mixed)
