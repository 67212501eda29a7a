"""Nonblocking collectives on provably different communicators may be started in
either order (``orders.token_classes``, ``findings._Function.independent``): which
swaps stay findings.  Unit level, because a swapped pair on one communicator under
two names does not always hang under MPICH (the corpus' buggy programs must)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis.unit import analyse
from mpicc_wrap.model import TUAnalysis

SOURCE = r"""
#include <mpi.h>
static int in = 1, out;

void warn_alias_of_world(void) {
  int rank; MPI_Comm alias = MPI_COMM_WORLD; MPI_Request r;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) { MPI_Ibarrier(alias, &r);
                   MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }
  else { MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
         MPI_Ibarrier(alias, &r); }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}
void warn_parameter_may_be_world(MPI_Comm c) {
  int rank; MPI_Request r;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) { MPI_Ibarrier(c, &r); MPI_Barrier(MPI_COMM_WORLD); }
  else { MPI_Barrier(MPI_COMM_WORLD); MPI_Ibarrier(c, &r); }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}
void warn_copy_of_a_new_handle(void) {
  int rank; MPI_Comm d, e; MPI_Request r[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  e = d;
  if (rank == 0) { MPI_Ibarrier(d, &r[0]); MPI_Ibarrier(e, &r[1]); }
  else { MPI_Ibarrier(e, &r[1]); MPI_Ibarrier(d, &r[0]); }
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}
void warn_two_blocking(void) {
  int rank; MPI_Comm d;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  if (rank == 0) { MPI_Barrier(d); MPI_Barrier(MPI_COMM_WORLD); }
  else { MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(d); }
}
void ok_new_handle_and_world(void) {
  int rank; MPI_Comm d; MPI_Request r;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  if (rank == 0) { MPI_Ibarrier(d, &r);
                   MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); }
  else { MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
         MPI_Ibarrier(d, &r); }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_free(&d);
}
void ok_two_new_handles(void) {
  int rank; MPI_Comm a, b, x, y; MPI_Request r[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  if (rank % 2 == 0) { MPI_Comm_idup(a, &x, &r[0]); MPI_Comm_idup(b, &y, &r[1]); }
  else { MPI_Comm_idup(b, &y, &r[1]); MPI_Comm_idup(a, &x, &r[0]); }
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}
"""


@pytest.fixture(scope="module")
def result() -> TUAnalysis:
    return analyse(parse_source(SOURCE), {})


FUNCTIONS = [line.split("(")[0].split()[-1] for line in SOURCE.splitlines()
             if line.startswith("void ")]


@pytest.mark.parametrize("func", FUNCTIONS)
def test_swaps(result: TUAnalysis, func: str) -> None:
    found = [f for f in result.findings if f.function == func]
    assert bool(found) == func.startswith("warn_"), [f.message for f in found]
