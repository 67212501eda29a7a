"""Execution orders, regions and clusters of PARCOACH Algorithm 1 (orders.py)."""

from __future__ import annotations

import pytest
from test_cfg import build, node

from mpicc_wrap.analysis import orders
from mpicc_wrap.analysis.cfg import CFG
from mpicc_wrap.analysis.orders import (
    Region,
    back_edges,
    clusters,
    execution_orders,
    fixed_sequence,
    regions,
    static_pass,
)


def events_of(g: CFG, *names: str) -> dict[int, list[str]]:
    return {node(g, n): [n] for n in names}


def test_orders_of_figure_1a_take_the_maximum() -> None:
    # entry -> 1 -> 5 or 1 -> 2 -> {3, 4} -> 5 with barriers in 3, 4 and 5
    region = Region({0: [1], 1: [2, 5], 2: [3, 4], 3: [5], 4: [5], 5: [9], 9: []}, 0, 9)
    order = execution_orders(region, {3: ["B"], 4: ["B"], 5: ["B"]})
    assert (order[3], order[4], order[5], order[9]) == (0, 0, 1, 2)
    found = {(c.order, c.name): (c.sites, c.frontier) for c in clusters(region, {
        3: ["B"], 4: ["B"], 5: ["B"]})}
    assert found[(0, "B")] == ([3, 4], {1})  # PARCOACH: PDF+({3, 4}) = {1}
    assert found[(1, "B")] == ([5], set())


def test_loop_is_its_own_region_with_the_header_as_entry_and_exit() -> None:
    g = build("while (r < n) { a(); r++; } b();")
    assert len(back_edges(g)) == 1
    func, loop = regions(g)
    assert loop.header == loop.entry and node(g, "a") in loop.body
    assert node(g, "b") not in loop.succs and loop.exits
    (cl,) = [c for c in static_pass(g, events_of(g, "a", "b")) if c.region.header == loop.header]
    assert cl.sites == [node(g, "a")] and cl.frontier == loop.exits


def test_loop_back_edge_continues_after_the_loop_in_the_function_region() -> None:
    g = build("while (r < n) { a(); } b();")
    func = regions(g)[0]
    by_name = {c.name: c for c in clusters(func, events_of(g, "a", "b"))}
    assert by_name["b"].frontier == set() and by_name["a"].frontier


def test_fixed_sequence() -> None:
    g = build("a(); if (r) return 1; b(); return 0;")
    assert fixed_sequence(g, events_of(g, "a")) == ["a"]
    assert fixed_sequence(g, events_of(g, "a", "b")) is None
    g = build("for (;;) { a(); }")
    assert fixed_sequence(g, events_of(g, "a")) is None
    g = build("if (r) exit(1); a();")
    assert fixed_sequence(g, events_of(g, "a")) == ["a"]
    # a statement macro's do-while(0) is no loop: its collective has a fixed place
    g = build("do { a(); } while (0); do { b(); } while (0);")
    assert fixed_sequence(g, events_of(g, "a", "b")) == ["a", "b"]
    g = build("do { a(); } while (n);")
    assert fixed_sequence(g, events_of(g, "a")) is None


def test_a_region_without_events_has_no_clusters(monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop holding no collective gives no cluster, without computing its orders
    (hdf5's test files have hundreds of loops per function, few with a collective)."""
    g = build("while (n) { c(); n--; } a();")
    found = regions(g)
    computed: list[int | None] = []
    orders_of = orders.execution_orders

    def counted(region: Region, events: dict[int, list[str]]) -> dict[int, int]:
        computed.append(region.header)
        return orders_of(region, events)

    monkeypatch.setattr(orders, "execution_orders", counted)
    assert len(found) == 2
    assert clusters(found[1], events_of(g, "a")) == []
    assert computed == []
    assert [c.name for c in clusters(found[0], events_of(g, "a"))] == ["a"]
    assert computed == [None]


def test_clusters_no_deciding_branch_reaches_are_not_computed() -> None:
    """PDF+(U) holds only nodes that reach U: with ``decides`` naming the branches
    whose condition matters, clusters none of them reaches get an empty PDF+ (exact,
    and it spares the PDF+ of most clusters of a large function)."""
    region = Region({0: [1], 1: [2, 5], 2: [3, 4], 3: [5], 4: [5], 5: [6, 7], 6: [8],
                     7: [8], 8: [9], 9: []}, 0, 9)
    events = {3: ["B"], 6: ["C"]}
    full = {c.name: c.frontier for c in clusters(region, events)}
    assert full == {"B": {2, 1}, "C": {5}}
    # Only branch 5 decides: C's PDF+ is computed, B (which 5 cannot reach) is skipped.
    pruned = {c.name: c.frontier for c in clusters(region, events, lambda n: n == 5)}
    assert pruned == {"B": set(), "C": {5}}
    # Branch 1 decides and reaches everything: nothing is pruned.
    assert {c.name: c.frontier for c in clusters(region, events, lambda n: n == 1)} == full


def test_no_event_no_regions() -> None:
    """Without a collective event every path executes the empty sequence: the summary
    says so without building the function's regions (most functions of a large TU
    have no event; their regions were a tenth of pnetcdf's ``var_getput.c``)."""
    g = build("while (r < n) { a(); r++; } if (r) return 1; b(); return 0;")
    assert fixed_sequence(g, {}) == []
    assert "regions" not in g.memo
    assert fixed_sequence(g, events_of(g, "b")) is None  # b under the test of r
    assert "regions" in g.memo
