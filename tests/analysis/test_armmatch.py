"""The arms of a per-process test must make a cluster's collective alike (armmatch.py,
barrier matching §4-5): what Algorithm 1 alone misses when both arms decide."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import wrapped_stderr

from mpicc_wrap.analysis.armmatch import immediate_postdominators, unmatched

EXIT = 99
# 1 is the per-process test; 2 and 3 are uniform tests in its arms, each guarding a
# site (4, 5); everything joins at 6.
ARMS = {0: [1], 1: [2, 3], 2: [4, 6], 3: [5, 6], 4: [6], 5: [6], 6: [EXIT], EXIT: []}


def test_immediate_postdominators_of_a_diamond_of_diamonds() -> None:
    ipdom = immediate_postdominators(ARMS, EXIT)
    assert (ipdom[1], ipdom[2], ipdom[3], ipdom[4], ipdom[6]) == (6, 6, 6, 6, EXIT)


@pytest.mark.parametrize("keys,flagged", [
    ({2: "argc > 1", 3: "argc > 1"}, set()),  # the same value in both arms: they match
    ({2: "argc > 1", 3: "argc <= 1"}, {1}),  # different tests
])
def test_per_process_test_decides_when_its_arms_differ(keys: dict[int, str],
                                                       flagged: set[int]) -> None:
    found = unmatched(ARMS, EXIT, [4, 5], {2, 3}, lambda n: n == 1,
                      lambda r, n: keys.get(n, ("node", n)))
    assert set(found) == flagged


def test_a_site_on_one_side_and_the_same_test_around_it_on_the_other() -> None:
    # 1 -> 2 (test) -> 4 (site) / 6; 1 -> 5 (site, unconditional) -> 6
    succs = {0: [1], 1: [2, 5], 2: [4, 6], 4: [6], 5: [6], 6: [EXIT], EXIT: []}
    found = unmatched(succs, EXIT, [4, 5], {2}, lambda n: n == 1, lambda r, n: "t")
    assert set(found) == {1}


def _warnings(tmp_path: Path, body: str) -> str:
    source = ("#include <mpi.h>\nint main(int argc, char **argv)\n{\n"
              "    int rank, n = 0, i, v = 0, u = argc > 1;\n"
              "    MPI_Init(&argc, &argv);\n    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
              f"{body}\n    MPI_Finalize();\n    return 0;\n}}\n")
    return wrapped_stderr(tmp_path, "a.c", source)


B = "MPI_Barrier(MPI_COMM_WORLD);"
BN = "MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);"


@pytest.mark.parametrize("body,warned", [
    # one arm writes the local its test reads: the tests are not the same value
    (f"if (rank == 0) {{ u = 1; if (u) {B} }} else {{ if (u) {B} }}", True),
    # the arms test the per-process value itself: each arm knows its truth
    (f"if (rank & 1) {{ if (rank & 1) {B} }} else {{ if (rank & 1) {B} }}", True),
    (f"if (rank == 0) {{ if (u) {B} }} else {{ if (u) {B} }}", False),
    # a count exchanged at the same position in both arms bounds both loops
    (f"if (rank == 0) {{ n = 3; {BN} for (i = 0; i < n; i++) {B} }}"
     f" else {{ {BN} for (i = 0; i < n; i++) {B} }}", False),
    # ... but not once the root changes it after the exchange
    (f"if (rank == 0) {{ n = 3; {BN} n++; for (i = 0; i < n; i++) {B} }}"
     f" else {{ {BN} for (i = 0; i < n; i++) {B} }}", True),
    # ... nor when the loops count differently
    (f"if (rank == 0) {{ {BN} for (i = 0; i < n; i++) {B} }}"
     f" else {{ {BN} for (i = 1; i < n; i++) {B} }}", True),
    # a loop whose body writes its bound
    (f"if (rank == 0) {{ for (i = 0; i < u; i++) {{ u = 0; {B} }} }}"
     f" else {{ for (i = 0; i < u; i++) {{ u = 0; {B} }} }}", True),
])
def test_arms_are_matched_only_on_tests_every_process_shares(tmp_path: Path, body: str,
                                                             warned: bool) -> None:
    assert ("warning: MPI_Barrier" in _warnings(tmp_path, body)) is warned


def test_the_counter_example_shows_both_arms(tmp_path: Path) -> None:
    err = _warnings(tmp_path, f"if (rank == 0) {{ if (u) {B} }} else {{ if (!u) {B} }}")
    assert "counter-example: ranks where 'rank == 0' is true make if (u) {MPI_Barrier at" \
        in err and "the others if (!u) {MPI_Barrier at" in err
