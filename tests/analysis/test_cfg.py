"""CFG shapes of each C construct (mpicc_wrap.analysis.cfg)."""

from __future__ import annotations

from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser

from mpicc_wrap.analysis import catalogue, cfg, dominance, graphs
from mpicc_wrap.analysis.cfg import CFG

HEADER = "typedef int MPI_Comm; extern MPI_Comm W; void exit(int);\n"


def build(body: str, extra: str = "", error_exits: bool = True) -> CFG:
    ast = GnuCParser().parse(HEADER + extra + "int f(int r, int n) {\n" + body + "\n}\n")
    func = [e for e in ast.ext if isinstance(e, c_ast.FuncDef)][-1]
    return cfg.build(func, catalogue.NORETURN_FUNCTIONS | {"die"}, error_exits=error_exits)


def names(g: CFG) -> list[str]:
    """Called names in node order (reachable only)."""
    return [cfg.callee_name(n.call) or "?" for n in g.calls()]


def node(g: CFG, name: str) -> int:
    return next(n.id for n in g.calls() if cfg.callee_name(n.call) == name)


def unconditional(g: CFG, name: str) -> bool:
    """True when every path from entry to exit runs the call ``name``."""
    succs = {n.id: list(n.succs) for n in g.nodes}
    return node(g, name) in dominance.postdominated(succs, g.exit, {node(g, name)}) and \
        g.entry in dominance.postdominated(succs, g.exit, {node(g, name)})


def branches(g: CFG) -> list[str]:
    from mpicc_wrap.frontend.positions import c_text
    return [c_text(n.pred) for n in g.nodes if n.kind == "branch" and n.id in g.reachable()]


def test_each_call_has_its_own_node_in_evaluation_order() -> None:
    g = build("a(b(1), c(2)); d();")
    assert names(g) == ["b", "c", "a", "d"]
    assert all(unconditional(g, x) for x in "abcd")


def test_if_else_makes_a_branch_with_the_predicate() -> None:
    g = build("if (r == 0) a(); else b(); c();")
    assert branches(g) == ["r == 0"]
    assert not unconditional(g, "a") and not unconditional(g, "b") and unconditional(g, "c")


def test_call_in_condition_is_unconditional_and_before_the_branch() -> None:
    g = build("if (a(W) != 0) b(); rc = c(W);", "int rc;")
    assert names(g) == ["a", "b", "c"]
    assert unconditional(g, "a") and unconditional(g, "c") and not unconditional(g, "b")


def test_short_circuit_and_ternary_make_calls_conditional() -> None:
    g = build("int x = r == 0 && a(W); x = r ? b() : c(); n || d();")
    assert branches(g) == ["r == 0", "r", "n"]
    assert not any(unconditional(g, x) for x in "abcd")


def test_short_circuit_without_calls_adds_no_branch() -> None:
    assert branches(build("int x = r && n; a();")) == []


def test_while_loop_header_and_body() -> None:
    g = build("while (r < n) { a(); r++; } b();")
    assert branches(g) == ["r < n"]
    assert not unconditional(g, "a") and unconditional(g, "b")
    assert list(g.loop_after)


def test_do_while_body_runs_at_least_once() -> None:
    g = build("do { a(); } while (b() < n); c();")
    assert names(g) == ["a", "b", "c"] and all(unconditional(g, x) for x in "abc")


def test_do_while_zero_is_a_block_not_a_loop() -> None:
    """The statement-macro wrapper runs its body once: no loop header, no back edge,
    no branch on the constant; ``break`` and ``continue`` both leave it."""
    g = build("do { a(); if (r) break; b(); if (r > 1) continue; c(); } while (0); d();")
    assert names(g) == ["a", "b", "c", "d"]
    assert unconditional(g, "a") and unconditional(g, "d")
    assert not unconditional(g, "b") and not unconditional(g, "c")
    assert branches(g) == ["r", "r > 1"]
    assert not g.loop_after and not any(n.label == "loop" for n in g.nodes)
    loop = build("do { a(); } while (n); d();")  # any other condition: still a loop
    assert list(loop.loop_after) and branches(loop) == ["n"]


def test_for_header_parts_and_calls_in_them() -> None:
    g = build("for (int i = a(); i < b(); i = c()) d(); e();")
    assert unconditional(g, "a") and unconditional(g, "b") and unconditional(g, "e")
    assert not unconditional(g, "c") and not unconditional(g, "d")


def test_infinite_for_gets_a_fake_exit_edge() -> None:
    g = build("for (;;) { a(); }")
    assert any(n.fake for n in g.nodes)
    preds = graphs.predecessors({n.id: n.succs for n in g.nodes})
    assert g.reachable() <= graphs.reachable(preds.__getitem__, [g.exit])  # all reach exit


def test_break_and_continue() -> None:
    g = build("while (n) { if (r) break; if (r > 1) continue; a(); } b();")
    assert not unconditional(g, "a") and unconditional(g, "b")


def test_switch_fall_through_and_missing_default() -> None:
    g = build("switch (r) { case 0: a(); case 1: b(); break; case 2: c(); } d();")
    sw = next(n for n in g.nodes if n.kind == "branch")
    assert len(sw.succs) == 4  # three cases and the missing default
    a_node = g.nodes[node(g, "a")]
    assert node(g, "b") in [s for x in a_node.succs for s in [x] + g.nodes[x].succs]
    assert unconditional(g, "d") and not unconditional(g, "b")


def test_switch_with_default_has_no_extra_edge() -> None:
    g = build("switch (r) { case 0: a(); break; default: b(); }")
    sw = next(n for n in g.nodes if n.kind == "branch")
    assert len(sw.succs) == 2


def test_goto_forward_and_backward() -> None:
    g = build("again: a(); if (r) goto again; if (n) goto out; b(); out: c();")
    assert unconditional(g, "a") and unconditional(g, "c") and not unconditional(g, "b")
    a = node(g, "a")
    assert any(a in g.nodes[s].succs or s == a for s in range(len(g.nodes))
               if g.nodes[s].label == "again")


def test_return_goes_to_exit_and_noreturn_calls_to_noreturn_exit() -> None:
    g = build("if (r) return 1; if (n) exit(0); if (n > 2) die(); a(); return 0;")
    returns = [n for n in g.nodes if n.kind == "return"]
    assert len(returns) == 2 and all(g.exit in n.succs for n in returns)
    exits = [n for n in g.calls() if g.noreturn_exit in n.succs]
    assert [cfg.callee_name(n.call) for n in exits] == ["exit", "die"]
    assert g.exit in g.nodes[g.noreturn_exit].succs
    assert not unconditional(g, "a")


def test_error_exits_end_the_job_like_an_abort() -> None:
    """exit(1) and abort() are pruned like MPI_Abort; without error_exits they are
    noreturn exits (the -Wmpi-exit-divergence analysis)."""
    code = "if (n) exit(1); if (r) abort(); a(); return 0;"
    assert unconditional(build(code), "a")
    g = build(code, error_exits=False)
    exits = [n for n in g.calls() if g.noreturn_exit in n.succs]
    assert [cfg.callee_name(n.call) for n in exits] == ["exit", "abort"]


def test_statement_expression_and_comma() -> None:
    g = build("int x = ({ int y = a(); if (r) b(); y; }); x = (c(), d());")
    assert names(g) == ["a", "b", "c", "d"]
    assert not unconditional(g, "b") and unconditional(g, "d")


def test_dead_code_is_unreachable() -> None:
    g = build("return 0; a();")
    assert names(g) == []
