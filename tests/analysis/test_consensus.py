"""A vote makes a predicate's truth uniform (mpicc_wrap.analysis.rankdep.consensus):
past ``if (any_true(!p, comm)) return;`` every process that goes on has ``p`` true,
though ``p`` itself differs (FFTW's planners, benchmarks/realcode-fp/04)."""

from __future__ import annotations

import pytest
from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser
from test_rankdep import PRELUDE, verdicts

from mpicc_wrap.analysis.rankdep.consensus import Agreement, arm_facts, consensus_of, decided
from mpicc_wrap.analysis.rankdep.expressions import join, join_exits
from mpicc_wrap.analysis.rankdep.locations import Field, Store
from mpicc_wrap.frontend import handles, positions
from mpicc_wrap.model import FunctionSummary

VOTE = """
void *malloc(unsigned long); void free(void *);
int any_true(int condition, MPI_Comm comm) {
    int result;
    MPI_Allreduce(&condition, &result, 1, MPI_INT, MPI_LOR, comm);
    return result;
}
"""

# ``p`` differs between processes (NULL on rank 0 only); the last test is the one judged
USE = VOTE + """
int main(void) {
    int me, *p, s = 0, t;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    p = me ? malloc(4) : 0;
    if (VOTE_TEST) { free(p); return 1; }
    if (p) MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return 0;
}
"""


def last_test(vote: str, source: str = USE, **kw: object) -> bool:
    """Whether the last test of main is multi-valued after the vote ``vote``."""
    return verdicts(source.replace("VOTE_TEST", vote), **kw)[-1]  # type: ignore[arg-type]


@pytest.mark.parametrize("vote", [
    "any_true(p == 0, MPI_COMM_WORLD)", "any_true(!p, MPI_COMM_WORLD)",
    "any_true(0 == p, MPI_COMM_WORLD)", "!!any_true(!p, MPI_COMM_WORLD)",
    "any_true(!p, MPI_COMM_WORLD) != 0", "any_true(!p || me < 0, MPI_COMM_WORLD)",
    # false everywhere: p is 0 on every process, so ``if (p)`` is the same too
    "any_true(p != 0, MPI_COMM_WORLD)",
])
def test_past_a_vote_the_truth_is_uniform(vote: str) -> None:
    assert last_test(vote) is False


@pytest.mark.parametrize("vote", [
    "any_true(me == 0, MPI_COMM_WORLD)",   # a vote on another predicate
    "any_true(!p && me, MPI_COMM_WORLD)",  # false: either side may be
    "!any_true(!p, MPI_COMM_WORLD)",       # leaves where nobody had a NULL p
    "me && any_true(!p, MPI_COMM_WORLD)",  # the vote does not run everywhere
])
def test_a_vote_that_decides_nothing_about_p(vote: str) -> None:
    assert last_test(vote) is True


def test_without_the_vote_the_test_is_multi_valued() -> None:
    assert last_test("0") is True


@pytest.mark.parametrize("change", [
    ("MPI_LOR", "MPI_PROD"),                         # not a logical reduction
    ("int result;", "int result; condition++;"),     # the operand is changed first
    ("return result;", "return result + 1;"),        # another result
    ("MPI_Allreduce(&condition, &result, 1,", "MPI_Allreduce(&condition, &result, 2,"),
])
def test_a_function_of_another_shape_is_no_vote(change: tuple[str, str]) -> None:
    assert last_test("any_true(!p, MPI_COMM_WORLD)", USE.replace(*change)) is True


def test_max_votes_only_on_zero_one_operands() -> None:
    """max(-1, 0) is 0 though -1 is true: MAX decides a boolean argument only."""
    source = USE.replace("MPI_LOR", "MPI_MAX")
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source) is False
    flag = source.replace("p = me ? malloc(4) : 0;", "p = me ? malloc(4) : 0; int f = -me;")
    assert last_test("any_true(f, MPI_COMM_WORLD)", flag.replace("if (p)", "if (f)")) is True


def test_a_write_after_the_vote_undoes_it() -> None:
    source = USE.replace("    if (p) MPI", "    p = me > 1 ? p : 0;\n    if (p) MPI")
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source) is True


def test_a_copy_keeps_the_uniform_truth() -> None:
    source = USE.replace("int me, *p,", "int me, *q, *p,").replace(
        "    if (p) MPI", "    q = p;\n    if (q) MPI")
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source) is False


def test_a_field_stored_after_the_vote_is_tested_alike_elsewhere() -> None:
    """FFTW's ``pln->cld1 = cld1;`` in mkplan, ``if (ego->cld1)`` in apply."""
    source = VOTE + """
struct plan { int *child; };
struct plan *make(void);
int apply(const struct plan *ego) {
    int s = 0, t = 0, *c = ego->child;
    if (c) MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return t;
}
struct plan *plan_it(void) {
    int me, *p; struct plan *pln;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    p = me ? malloc(4) : 0;
    if (any_true(!p, MPI_COMM_WORLD)) goto nada;
    pln = make();
    pln->child = p;
    return pln;
 nada:
    free(p);
    return 0;
}
"""
    assert verdicts(source, "apply") == [False]
    other = source.replace("    return pln;", "    if (me == 1) pln->child = 0;\n    return pln;")
    assert verdicts(other, "apply") == [True]


def test_a_vote_in_another_file_comes_with_its_summary() -> None:
    source = USE.replace(VOTE, "void *malloc(unsigned long); void free(void *);\n"
                               "int any_true(int, MPI_Comm);\n")
    vote = FunctionSummary("any_true", "vote.c", 1, True, ["MPI_Allreduce@comm"], True,
                           agreement=[0, "any", True])
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source,
                     external={"any_true": vote}) is False
    plain = FunctionSummary("any_true", "vote.c", 1, True, ["MPI_Allreduce@comm"], True)
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source,
                     external={"any_true": plain}) is True


def _body(source: str) -> c_ast.FuncDef:
    ast = GnuCParser().parse(PRELUDE + source)
    return next(n for n in ast.ext if isinstance(n, c_ast.FuncDef))


def test_consensus_of_reads_the_operation_and_the_parameter() -> None:
    f = _body(VOTE)
    assert consensus_of(f.body, ["condition", "comm"], {}) == Agreement(0, "any", True)
    land = _body(VOTE.replace("MPI_LOR", "MPI_LAND"))
    assert consensus_of(land.body, ["condition", "comm"], {}) == Agreement(0, "all", True)
    expanded = _body(VOTE.replace("MPI_LOR", "((MPI_Op)0x58000007)"))  # MPICH's header
    call = expanded.body.block_items[1]
    spelled = {handles.strip_ws(positions.c_text(call.args.exprs[4])): "MPI_LOR"}
    assert consensus_of(expanded.body, ["condition", "comm"], spelled) == Agreement(
        0, "any", True)


def _expr(text: str) -> c_ast.Node:
    f = _body(f"int f(int a, int b, int x) {{ return {text}; }}")
    return f.body.block_items[0].expr


def test_arm_facts_and_decided() -> None:
    vote = Agreement(0, "any", True)
    facts = arm_facts(_expr("!any(a == 0 || !b)"), lambda call: vote)
    assert facts[1] == [] and len(facts[0]) == 1
    pred, truth = facts[0][0]
    assert sorted(decided(pred, truth)) == [("a", True), ("b", True)]
    assert list(decided(_expr("a && b"), False)) == []


def test_join_keeps_a_uniform_truth_only_where_every_path_has_it() -> None:
    both = {"x": "r", "!x": "r"}
    assert join(both, both) == both
    assert join(both, {}) == both           # x single-valued on the other path
    assert join(both, {"x": "r"}) == {"x": "r"}
    assert join({"x": "r"}, both) == {"x": "r"}
    assert join_exits({"x": "r"}, both, True, False) == both  # the first arm returned


def test_store_truthy_until_a_write_of_another_truth() -> None:
    store, loc = Store(), Field("child", "plan")
    store.mark(loc, "per-process", truthy=True)
    assert store.get(loc) == "per-process" and store.get_truth(loc) is None
    store.mark(loc, "per-process")
    assert store.get_truth(loc) == "per-process"
    store.mark(loc, "again", truthy=True)  # once not, never again
    assert store.get_truth(loc) == "per-process"


def test_an_unknown_call_given_the_local_undoes_the_vote() -> None:
    """``reopen(&p)`` may set ``p`` from what it points to, NULL on some processes."""
    source = USE.replace("void free(void *);", "void free(void *); void reopen(int **);") \
        .replace("    if (p) MPI", "    reopen(&p);\n    if (p) MPI")
    assert last_test("any_true(!p, MPI_COMM_WORLD)", source) is True


RETURNED = VOTE + """
int *plan(int me) {
    int *p = me ? malloc(4) : 0;
    if (any_true(!p, MPI_COMM_WORLD)) { free(p); return 0; }
    return p;
}
int main(void) {
    int me, s = 0, t, *q;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    q = plan(me);
    if (q) MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return 0;
}
"""


def test_a_result_that_is_null_everywhere_or_nowhere() -> None:
    """p4est's ``p4est_ghost_new_check``: NULL after a vote, else an object."""
    assert verdicts(RETURNED)[-1] is False
    gated = RETURNED.replace("    return p;\n}", "    if (me == 1) return 0;\n    return p;\n}")
    assert verdicts(gated)[-1] is True  # returned under a per-process test
    unvoted = RETURNED.replace("any_true(!p, MPI_COMM_WORLD)", "0")
    assert verdicts(unvoted)[-1] is True
