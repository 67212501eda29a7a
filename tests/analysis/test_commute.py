"""Nonblocking collectives on provably different communicators may be started in
either order, and so may blocking ones on a communicator whose members run in
lockstep (``orders.token_classes``, ``findings._Function.independent``,
``_lockstep``): which swaps stay findings.  Unit level, because a swapped pair on one
communicator under two names does not always hang under MPICH (the corpus' buggy
programs must), and the run-time check of a pair on two communicators waits in the
check of each (``correct_split_arm_then_world_collective.c`` is the corpus' case).
A file's collectives are judged against the communicator it was opened on
(``_opened_on``)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source
from pycparser import c_ast

from mpicc_wrap.analysis.rankdep.communicators import opened_files
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
void ok_split_members_in_step(void) {
  int rank, size, colour; MPI_Comm c;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  colour = rank < size - 1;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &c);
  if (colour) { MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
                MPI_Barrier(MPI_COMM_WORLD); }
  else { MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(c); }
  MPI_Comm_free(&c);
}
void warn_split_members_out_of_step(void) {
  int rank, size, colour; MPI_Comm c;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  colour = rank < size - 1;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &c);
  if (colour) {
    if (rank == 0) { MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
                     MPI_Barrier(MPI_COMM_WORLD); }
    else { MPI_Barrier(MPI_COMM_WORLD);
           MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c); }
  } else MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&c);
}
void warn_file_of_the_world_synced_by_one(void) {
  int rank; MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File_open(MPI_COMM_WORLD, "f", MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (rank == 0) MPI_File_sync(fh);
  MPI_File_close(&fh);
}
void ok_file_of_a_colour_synced_by_its_members(void) {
  int rank, colour; MPI_Comm c; MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  colour = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &c);
  MPI_File_open(c, "f", MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (colour) MPI_File_sync(fh);
  MPI_File_close(&fh);
  MPI_Comm_free(&c);
}
void warn_file_of_a_colour_synced_by_one_member(void) {
  int rank, colour; MPI_Comm c; MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  colour = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &c);
  MPI_File_open(c, "f", MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (rank == 0) MPI_File_sync(fh);
  MPI_File_close(&fh);
  MPI_Comm_free(&c);
}
void ok_file_opened_by_each_colour(void) {
  int rank, colour, i; MPI_Comm c; MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  colour = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &c);
  if (colour) {
    MPI_File_open(c, "a", MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    for (i = 0; i < rank; i++) MPI_File_write_at(fh, i, &i, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_open(c, "b", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_File_close(&fh);
  }
  MPI_Comm_free(&c);
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


def test_a_split_out_of_step_counts_in_the_worlds_order(result: TUAnalysis) -> None:
    """The members of ``c`` disagree on where its reduction comes among the world's
    barriers (``rank == 0`` differs within ``c``), so the barriers' order counts it:
    they are findings too, not only the reduction."""
    found = {f.collective for f in result.findings
             if f.function == "warn_split_members_out_of_step"}
    assert found == {"MPI_Allreduce", "MPI_Barrier"}


@pytest.mark.parametrize(("body", "expected"), [
    ("MPI_File_open(c, \"a\", 0, i, &fh); MPI_File_open(c, \"b\", 0, i, &fh);",
     {"fh": "c"}),
    ("MPI_File_open(c, \"a\", 0, i, &fh); MPI_File_open(MPI_COMM_SELF, \"b\", 0, i, &fh);",
     {}),  # two communicators: no one group
    ("MPI_File_open(c, \"a\", 0, i, &fh); fh = other;", {}),  # written otherwise
    ("MPI_File_open(c, \"a\", 0, i, &fh); MPI_File_close(&fh);", {"fh": "c"}),
])
def test_opened_files_need_one_communicator_and_no_other_write(
        body: str, expected: dict[str, str]) -> None:
    tu = parse_source("#include <mpi.h>\nMPI_File other;\n"
                      f"void f(MPI_Comm c, MPI_Info i) {{ MPI_File fh; {body} }}\n")
    defn = next(n for n in tu.ast.ext if isinstance(n, c_ast.FuncDef))
    assert opened_files(defn) == expected
