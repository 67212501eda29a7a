"""Summaries of collective wrappers (mpicc_wrap.analysis.outputs): the pointer
parameters that hold a collective's shared output, and returns equal on all ranks."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source

from mpicc_wrap.analysis import unit
from mpicc_wrap.model import FunctionSummary

HEAD = "#include <mpi.h>\n"
WRAPPER = HEAD + """
int wrap(long *loc, long *glb, int n, MPI_Comm comm) {
    if (MPI_Allreduce(loc, glb, n, MPI_LONG, MPI_MAX, comm) != MPI_SUCCESS) return 1;
    return 0;
}"""


def summary(source: str, name: str = "wrap") -> FunctionSummary:
    return unit.analyse(parse_source(source), {}).summaries[name]


def test_an_allreduce_wrapper_returns_its_output_alike() -> None:
    s = summary(WRAPPER)
    assert s.shared_outputs == [1] and s.uniform_return


@pytest.mark.parametrize("change", [
    ("return 0;", "glb[0] += 1; return 0;"),  # written again after the collective
    ("return 0;", "other(glb); return 0;"),   # escapes to an unknown function
    ("int n, MPI_Comm comm) {",              # the collective runs on some ranks only
     "int n, MPI_Comm comm) { int r; MPI_Comm_rank(comm, &r); if (r) return 2;"),
])
def test_no_shared_output_when_the_rule_fails(change: tuple[str, str]) -> None:
    source = WRAPPER.replace("int wrap", "void other(long *);\nint wrap").replace(*change)
    assert summary(source).shared_outputs == []


COPY = HEAD + """
int comm_size(MPI_Comm comm, long *size) {
    int mpi_size;
    int ierr;
    ierr = MPI_Comm_size(comm, &mpi_size);
    *size = (long) mpi_size;
    return ierr;
}"""


def test_a_copy_of_a_local_shared_output_is_a_shared_output() -> None:
    """hypre's hypre_MPI_Comm_size copies MPI_Comm_size's int into a HYPRE_Int."""
    assert summary(COPY, "comm_size").shared_outputs == [1]


@pytest.mark.parametrize("change", [
    ("*size = (long) mpi_size;", "*size = (long) mpi_size; mpi_size++;"),  # used again
    ("*size = (long) mpi_size;", "*size = (long) mpi_size + 1;"),  # not a plain copy
    ("*size = (long) mpi_size;", "*size = (long) mpi_size; size[1] = 0;"),  # p used again
    ("int mpi_size;", "int mpi_size = ierr_of(comm);"),  # a local set by something else
    ("ierr = MPI_Comm_size(comm, &mpi_size);",  # the rank, not a shared output
     "ierr = MPI_Comm_rank(comm, &mpi_size);"),
])
def test_no_shared_output_when_the_copy_rule_fails(change: tuple[str, str]) -> None:
    source = COPY.replace("int comm_size", "int ierr_of(MPI_Comm);\nint comm_size")
    assert summary(source.replace(*change), "comm_size").shared_outputs == []


def test_a_return_of_a_parameter_is_not_uniform() -> None:
    source = WRAPPER.replace("return 0;", "return n;")
    assert not summary(source).uniform_return


def test_the_caller_in_another_tu_sees_uniform_output_and_code() -> None:
    caller = HEAD + """
int wrap(long *loc, long *glb, int n, MPI_Comm comm);
int pick(MPI_Comm comm) {
    int rank; long loc[1], glb[1];
    MPI_Comm_rank(comm, &rank);
    loc[0] = rank;
    if (wrap(loc, glb, 1, comm) != 0) return 1;
    if (glb[0] > 2) MPI_Barrier(comm);
    return 0;
}"""
    known = {"wrap": summary(WRAPPER)}
    assert not unit.analyse(parse_source(caller), known).findings
    unknown = FunctionSummary("wrap", "w.c", 1, True, [], False)
    assert unit.analyse(parse_source(caller), {"wrap": unknown}).findings


def test_a_helper_that_always_ends_the_job_is_an_error_exit_across_files() -> None:
    helper = HEAD + "#include <stdlib.h>\nvoid die(void) { abort(); }\nvoid log_it(void) {}"
    sums = unit.analyse(parse_source(helper), {}).summaries
    assert sums["die"].ends_job and not sums["log_it"].ends_job
    caller = HEAD + """void die(void) __attribute__((noreturn));
int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && argc > 5) die();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}"""
    assert not unit.analyse(parse_source(caller), {"die": sums["die"]}).findings
    quiet = FunctionSummary("die", "d.c", 1, False, [], True, noreturn=True)
    assert unit.analyse(parse_source(caller), {"die": quiet}).findings


SYNC = HEAD + """
int sync_flag(int flag, MPI_Comm comm) {
    char lbyte, gbyte;
    int mpiret;
    lbyte = (char) (flag ? 1 : 0);
    mpiret = MPI_Allreduce(&lbyte, &gbyte, 1, MPI_CHAR, MPI_BOR, comm);
    if (mpiret != MPI_SUCCESS) return -1;
    return (int) gbyte;
}"""


def test_a_return_of_a_local_only_a_collective_writes_is_uniform() -> None:
    """p4est's p4est_comm_sync_flag: a consensus its callers in other files branch on."""
    assert summary(SYNC, "sync_flag").uniform_return


@pytest.mark.parametrize("change", [
    ("return (int) gbyte;", "gbyte += flag; return (int) gbyte;"),  # written again
    # escapes, to a function that may write it from the flag at any time (an alias
    # alone is not enough any more: the solve with per-process arguments finds the
    # result single-valued, ``ignores_arguments``)
    ("int mpiret;", "int mpiret; char *alias = &gbyte; keep(alias, flag);"),
    ("return (int) gbyte;", "return (int) lbyte;"),  # not the collective's output
    # kept across calls, and returned as it was on the processes given a flag
    ("char lbyte, gbyte;", "char lbyte; static char gbyte; if (flag) return gbyte;"),
    ("int mpiret;", "int mpiret, r; MPI_Comm_rank(comm, &r); if (r) return 0;"),
])
def test_a_returned_local_is_not_uniform_when_the_rule_fails(change: tuple[str, str]) -> None:
    assert not summary(SYNC.replace(*change), "sync_flag").uniform_return


def test_the_caller_in_another_tu_branches_on_a_consensus_alike() -> None:
    caller = HEAD + """
int sync_flag(int flag, MPI_Comm comm);
int check(MPI_Comm comm) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (sync_flag(rank == 3, comm)) return 1;
    MPI_Barrier(comm);
    return 0;
}"""
    known = {"sync_flag": summary(SYNC, "sync_flag")}
    assert not unit.analyse(parse_source(caller), known).findings
    opaque = FunctionSummary("sync_flag", "s.c", 1, True, ["MPI_Allreduce@#1"], True)
    assert unit.analyse(parse_source(caller), {"sync_flag": opaque}).findings
