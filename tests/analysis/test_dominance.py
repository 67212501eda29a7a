"""Set postdominance, PDF and the set-valued PDF+ on PARCOACH Figure 1 (§3.1)."""

from __future__ import annotations

import random

from mpicc_wrap.analysis.dominance import condense, pdf_plus, pdf_set, postdominated

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


def _random_dag(rng: random.Random, size: int) -> dict[int, list[int]]:
    """An acyclic successor map on 0..size-1 plus EXIT, every node reaching EXIT."""
    succs: dict[int, list[int]] = {EXIT: []}
    for n in range(size):
        later = list(range(n + 1, size)) + [EXIT]
        succs[n] = [rng.choice(later) for _ in range(rng.choice((1, 1, 1, 2, 2, 3)))]
    return succs


def test_condensed_graph_gives_the_same_pdf_plus_and_postdominance() -> None:
    rng = random.Random(9)
    for _ in range(300):
        succs = _random_dag(rng, rng.randint(2, 40))
        nodes = [n for n in succs if n != EXIT]
        keep = set(rng.sample(nodes, rng.randint(1, min(6, len(nodes)))))
        graph = condense(succs, EXIT, keep)
        assert keep <= graph.succs.keys()
        group = set(rng.sample(sorted(keep), rng.randint(1, len(keep))))
        assert pdf_plus(graph.succs, EXIT, group, graph.preds) == pdf_plus(succs, EXIT, group)
        full = postdominated(succs, EXIT, group)
        assert postdominated(graph.succs, EXIT, group, graph.preds) == full & graph.succs.keys()
        assert all((graph.stand_in[n] in full) == (n in full) for n in succs)


def test_condensing_drops_straight_lines_and_empty_diamonds() -> None:
    # 1 branches to 2 and 3, which both go to 4 (no event in either arm); 4 is a call
    diamond = {ENTRY: [1], 1: [2, 3], 2: [4], 3: [4], 4: [5], 5: [EXIT], EXIT: []}
    graph = condense(diamond, EXIT, {4})
    assert set(graph.succs) == {4, EXIT}
    assert graph.stand_in[1] == 4 and graph.stand_in[5] == EXIT
