"""Set postdominance, PDF and the set-valued PDF+ on PARCOACH Figure 1 (§3.1)."""

from __future__ import annotations

from mpicc_wrap.analysis.dominance import pdf_plus, pdf_set, postdominated

ENTRY, EXIT = 0, 99
# Figure 1(a): 1 branches to 2 or straight to the barrier in 5; 2 branches to the
# barriers in 3 and 4, which join at 5.
FIG_A = {ENTRY: [1], 1: [2, 5], 2: [3, 4], 3: [5], 4: [5], 5: [EXIT], EXIT: []}
# Figure 1(b): `if (cond) MPI_Barrier(); return;`
FIG_B = {ENTRY: [1], 1: [2, 3], 2: [3], 3: [EXIT], EXIT: []}


def test_set_postdominance_of_figure_1a() -> None:
    assert 2 in postdominated(FIG_A, EXIT, {3, 4})
    assert 1 not in postdominated(FIG_A, EXIT, {3, 4})


def test_pdf_plus_of_figure_1a_is_node_1() -> None:
    assert pdf_set(FIG_A, EXIT, {3, 4}) == {1}
    assert pdf_plus(FIG_A, EXIT, {3, 4}) == {1}


def test_pdf_plus_of_figure_1b_is_the_if() -> None:
    assert pdf_plus(FIG_B, EXIT, {2}) == {1}


def test_pdf_plus_iterates_through_nested_conditions() -> None:
    nested = {ENTRY: [1], 1: [2, 5], 2: [3, 5], 3: [5], 5: [EXIT], EXIT: []}
    assert pdf_set(nested, EXIT, {3}) == {2}
    assert pdf_plus(nested, EXIT, {3}) == {1, 2}


def test_identical_arms_have_an_empty_frontier() -> None:
    assert pdf_plus(FIG_B | {1: [2, 4], 4: [3]}, EXIT, {2, 4}) == set()
