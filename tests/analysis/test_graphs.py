"""The shared graph walks (analysis/graphs.py)."""

from __future__ import annotations

from mpicc_wrap.analysis import graphs

SUCCS = {0: [1, 2], 1: [3], 2: [3], 3: [], 4: [0]}


def test_reachable_forward_and_backward() -> None:
    assert graphs.reachable(SUCCS.__getitem__, [1]) == {1, 3}
    preds = graphs.predecessors(SUCCS)
    assert preds == {0: [4], 1: [0], 2: [0], 3: [1, 2], 4: []}
    assert graphs.reachable(preds.__getitem__, [3]) == {0, 1, 2, 3, 4}


def test_reachable_allow_and_shared_seen() -> None:
    assert graphs.reachable(SUCCS.__getitem__, [0], lambda n: n != 1) == {0, 2, 3}
    seen = {3}
    assert graphs.reachable(SUCCS.__getitem__, [0], seen=seen) is seen
    assert seen == {0, 1, 2, 3}


def test_deep_chain_needs_no_recursion() -> None:
    chain = {i: [i + 1] for i in range(100_000)}
    assert len(graphs.reachable(lambda n: chain.get(n, ()), [0])) == 100_001
    assert graphs.postorder(lambda n: chain.get(n, ()), [0])[0] == 100_000


def test_postorder_of_a_forest() -> None:
    calls = {"main": ["a", "b"], "a": ["b"], "b": [], "lone": []}
    assert graphs.postorder(calls.__getitem__, calls) == ["b", "a", "main", "lone"]


def test_call_graph_and_header_facts_share_one_noreturn_test() -> None:
    from pycparserext.ext_c_parser import GnuCParser

    from mpicc_wrap.analysis import callgraph
    from mpicc_wrap.frontend import headercache

    ast = GnuCParser().parse(
        "void f(void) __attribute__((noreturn)); __attribute__((__noreturn__)) void g(void);"
        "_Noreturn void h(void); void k(int) __attribute__((format(printf, 1, 2), noreturn));"
        "void ok(void) __attribute__((cold));")
    graph = callgraph.CallGraph(ast, {})
    assert graph.declared_noreturn == headercache.noreturn_names(ast.ext) == {"f", "g", "h", "k"}
