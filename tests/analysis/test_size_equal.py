"""Every form of a collective whose data size MPI requires to be equal (blocking, I-,
persistent _init, large-count _c) gets the data-size check: the catalogue says which
(``MPIFunc.size_equal``), not a hand-kept list that missed 24 of the 36 forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from mpirun import mpiexec, run, tool

from mpicc_wrap.analysis import catalogue


def test_every_form_of_a_size_equal_family_is_size_equal() -> None:
    forms = {n for n, f in catalogue.CATALOGUE.items() if f.size_equal}
    assert len(forms) == 36
    for family in catalogue.SIZE_EQUAL_FAMILIES:
        assert {family, family + "_c", family + "_init", family + "_init_c"} <= forms
    assert "MPI_Iallreduce_c" in forms and "MPI_Gather" not in forms
    assert not catalogue.lookup("MPI_Alltoallv").size_equal  # type: ignore[union-attr]


LARGE_COUNT = """#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank;
    double in[2] = {1, 2}, out[2];
    MPI_Count n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    n = rank == 0 ? 2 : 1;
    MPI_Allreduce_c(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    printf("%d done\\n", rank);
    MPI_Finalize();
    return 0;
}
"""


@pytest.mark.mpi
def test_large_count_allreduce_gets_the_size_check(tmp_path: Path) -> None:
    (tmp_path / "lc.c").write_text(LARGE_COUNT)
    built = run([tool("mpicc-wrap"), "lc.c", "-o", "lc"], cwd=tmp_path, timeout=300,
                env={"MPICC_WRAP_INSTRUMENT": "all", "MPICC_WRAP_RESULT_CACHE": "0"})
    assert built.returncode == 0, built.output
    res = mpiexec(tmp_path / "lc", 2, timeout=60)
    assert "DYNAMIC-CHECK" in res.stderr, res.output
    assert "ranks disagree on the data size: rank 0 uses 16 bytes, rank 1 uses 8 bytes" \
        in res.stderr
