"""Flag words (analysis/rankdep/expressions.py ``_write_bits``): ``x |= C``,
``x &= ~C``, ``x ^= C`` under a per-process test make only the bits of ``C`` differ
between processes, so a test of other bits (``x & MASK``) stays single-valued, while a
test that reads those bits, or the whole word, does not.  pnetcdf's
``ncp->flags |= NC_NDIRTY`` (set when a process's own record count grew) made every
``NC_indep(ncp)`` per-process before."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source
from pycparser import c_ast
from test_rankdep import PRELUDE, analyse, verdicts

from mpicc_wrap.analysis import unit
from mpicc_wrap.analysis.literals import int_expression
from mpicc_wrap.model import FunctionSummary

STATE = """
typedef struct { unsigned flags; int count; } state;
unsigned g_word;
void step(state *st, int grew) {
    int me;
    MPI_Comm_rank(0, &me);
    WRITE;
    if (READ) MPI_Barrier(0);
}
"""


@pytest.mark.parametrize(("write", "read", "multi"), [
    ("if (me > grew) st->flags |= 0x4", "st->flags & 0x1", False),
    ("if (me > grew) st->flags |= 0x4", "st->flags & 0x4", True),
    ("if (me > grew) st->flags |= 0x4", "st->flags & (0x1 | 0x4)", True),
    ("if (me > grew) st->flags |= 0x4", "(st->flags & 0x3) == 0x1", False),
    ("if (me > grew) st->flags |= 0x4", "st->flags == 0x1", True),  # the whole word
    ("if (me > grew) st->flags |= 0x4", "st->flags", True),
    ("if (me) st->flags &= ~0x4", "st->flags & 0x2", False),  # clears bit 2 only
    ("if (me) st->flags &= ~0x4", "st->flags & 0x4", True),
    ("if (me) st->flags &= 0x4", "st->flags & 0x4", False),  # clears all but bit 2
    ("if (me) st->flags &= 0x4", "st->flags & 0x8", True),
    ("if (me) st->flags ^= 0x10", "0x10 & st->flags", True),
    ("if (me) st->flags ^= 0x10", "0x8 & st->flags", False),
    ("if (me) g_word |= 1 << 3", "g_word & (1 << 2)", False),  # a global
    ("if (me) g_word |= 1 << 3", "g_word & (1 << 3)", True),
    ("st->flags |= me", "st->flags & 0x1", True),  # not a constant: the whole word
    ("st->flags |= 0x4", "st->flags & 0x4", False),  # every process sets it
    ("if (me) st->flags = 0x4", "st->flags & 0x1", True),  # a plain store: all bits
    ("if (me) st->count |= 0x4", "st->flags & 0x4", False),  # another field
])
def test_flag_bits(write: str, read: str, multi: bool) -> None:
    body = STATE.replace("WRITE", write).replace("READ", read)
    assert verdicts(body, "step")[-1] is multi


@pytest.mark.parametrize(("write", "read"), [
    # through a pointer the same bit has another position: the whole word
    ("words[me] |= 0x2", "words[0] & 0x1"),
    ("if (me) ((unsigned char *) &st->flags)[1] |= 0x1", "st->flags & 0x1"),
    ("if (me) st->flags |= 0x100", "((unsigned char *) &st->flags)[1] & 0x2"),
    ("if (me) st->flags |= 0x100", "*(unsigned char *) &st->flags & 0x2"),
    # a union's members share storage: the whole word
    ("if (me) st->u.w |= 0x100", "st->u.b[1] & 0x2"),
    ("if (me) st->u.w |= 0x100", "st->u.w & 0x2"),
    # a sign bit copied upwards by a conversion: bit 40 of (long) of an int is bit 31
    ("if (me) st->flags |= 0x80000000", "(long) st->flags & (1L << 40)"),
    ("if (me) st->small |= 0x80", "st->small & 0x100"),
])
def test_bits_at_another_position_are_the_whole_word(write: str, read: str) -> None:
    body = """
    typedef struct { unsigned flags; signed char small;
                     union word { unsigned w; unsigned char b[4]; } u; } state;
    void step(state *st, unsigned *words) {
        int me;
        MPI_Comm_rank(0, &me);
        WRITE;
        if (READ) MPI_Barrier(0);
    }
    """.replace("WRITE", write).replace("READ", read)
    assert verdicts(body, "step")[-1] is True


def test_a_bit_set_in_a_function_called_under_a_per_process_test() -> None:
    body = """
    unsigned g_state;
    static void dirty(void) { g_state |= 0x4; }
    void step(void) {
        int me;
        MPI_Comm_rank(0, &me);
        if (me == 0) dirty();
        if (g_state & 0x1) MPI_Barrier(0);
        if (g_state & 0x4) MPI_Barrier(0);
    }
    """
    assert verdicts(body, "step") == [True, False, True]


@pytest.mark.parametrize(("text", "value"), [
    ("0x4", 4), ("~0x4", ~4), ("(0x1 | 0x4) ^ 0x1", 4), ("1 << 3", 8), ("(unsigned) 7 & 3", 3),
    ("-1", -1), ("1L << 40", 1 << 40), ("0x10u | 1UL", 17), ("x | 1", None),
    ("1 << 200", None), ("sizeof(int)", None),
])
def test_int_expression(text: str, value: int | None) -> None:
    from pycparserext.ext_c_parser import GnuCParser
    decl = GnuCParser().parse(f"int x; int y = {text};").ext[1]
    assert isinstance(decl, c_ast.Decl)
    assert int_expression(decl.init) == value


# -- across files: the summary's rank_bits -------------------------------------------

CALLEE = """
typedef struct nc { unsigned flags; long numrecs; } NC;
unsigned g_mode;
void grow(NC *ncp, long mine) {
    if (mine > ncp->numrecs) { ncp->numrecs = mine; ncp->flags |= 0x400000; }
}
void go_indep(void) { int me; MPI_Comm_rank(0, &me); if (me) g_mode &= ~0x2; }
void both(NC *ncp) { int me; MPI_Comm_rank(0, &me); if (me) ncp->flags |= 0x1;
                     ncp->flags = me; }
void via(NC *ncp, long mine) { grow(ncp, mine); go_indep(); }
"""


@pytest.mark.parametrize(("func", "ranked", "bits"), [
    ("grow", [], {}),  # per-process only if a caller passes a per-process count
    ("go_indep", ["g:g_mode:0"], {"g:g_mode:0": 0x2}),
    ("both", ["f:nc.flags:0"], {}),  # also written whole: the whole word
    ("via", ["g:g_mode:0"], {"g:g_mode:0": 0x2}),  # through a function of its file
])
def test_summary_lists_the_bits_a_function_leaves_per_process(
        func: str, ranked: list[str], bits: dict[str, int]) -> None:
    rd, _ = analyse(CALLEE)
    assert rd.effects(func)[1] == ranked
    assert rd.rank_bits(func) == bits


def test_summary_bits_through_the_whole_pipeline() -> None:
    result = unit.analyse(parse_source(PRELUDE + CALLEE), {})
    assert result.summaries["go_indep"].rank_bits == {"g:g_mode:0": 0x2}
    assert result.summaries["grow"].rank_bits == {}


CALLER = """
typedef struct nc { unsigned flags; long numrecs; } NC;
void ext(NC *ncp);
void step(NC *ncp) {
    ext(ncp);
    if (ncp->flags & 0x1) MPI_Barrier(0);
    if (ncp->flags & 0x400000) MPI_Barrier(0);
    if (ncp->numrecs) MPI_Barrier(0);
}
"""


@pytest.mark.parametrize(("bits", "expected"), [
    ({"f:nc.flags:0": 0x400000}, [False, True, False]),
    ({}, [True, True, False]),  # a summary without bits: the whole word
    ({"f:nc.other:0": 0x1}, [True, True, False]),  # bits of another token
])
def test_a_caller_applies_the_bits_of_a_summary(bits: dict[str, int],
                                                 expected: list[bool]) -> None:
    summary = FunctionSummary("ext", "x.c", 1, False, [], True, rank_writes=[
        "f:nc.flags:0"], writes=["f:nc.flags:0"], rank_bits=bits)
    assert verdicts(CALLER, "step", external={"ext": summary}) == expected
