"""Flag words in tracked locals (analysis/rankdep/envbits.py): a local or a small
local array whose bits are set by ``|=``/``&=``/``^=`` of constants under per-process
tests differs only in those bits, element by element for an array; hdf5's
``H5D__mpio_opt_possible`` tests one bit of ``local_cause[0]`` that only the shared
transfer mode sets.  Also: a loop whose body drops a fact the loop's test relied on is
walked again (``expressions.changed_locals``)."""

from __future__ import annotations

import pytest
from test_consensus import VOTE
from test_rankdep import verdicts

from mpicc_wrap.analysis.rankdep.envbits import WIDTH, element_mask, env_bits, join_bits
from mpicc_wrap.analysis.rankdep.expressions import changed_locals, join

STEP = """
enum cause { SET_IND = 0x01, NOT_SIMPLE = 0x04, ERR = 0x80 };
int probe(int);
void step(int mode, int k) {
    int me, i;
    unsigned c = 0, a[2] = {0, 0};
    MPI_Comm_rank(0, &me);
    WRITE;
    if (READ) MPI_Barrier(0);
}
"""


@pytest.mark.parametrize(("write", "read", "multi"), [
    ("if (me) c |= 0x4", "c & 0x1", False),
    ("if (me) c |= 0x4", "c & 0x4", True),
    ("if (me) c |= 0x4", "c", True),  # the whole word
    ("if (me) c |= 0x4", "c == 0", True),
    ("if (me) c |= NOT_SIMPLE", "c & SET_IND", False),  # enumerators are constants
    ("if (me) c |= NOT_SIMPLE", "c & NOT_SIMPLE", True),
    ("if (me) c &= ~0x4", "c & 0x2", False),
    ("if (me) c ^= 0x4", "c & 0x4", True),
    ("if (me) c |= me", "c & 0x1", True),  # not a constant
    ("if (me) c = 0x4", "c & 0x1", True),  # a plain store
    ("if (me) c |= 0x4; c += 1", "c & 0x1", True),  # arithmetic on a word that differs
    ("if (me) c |= 0x4; c = 0", "c & 0x4", False),  # replaced everywhere
    ("c = me; if (mode) c |= 0x4", "c & 0x8", True),  # differed whole before
    ("if (me) c |= 0x4; else c = me", "c & 0x1", True),  # one arm writes it whole
    ("if (me) c |= 0x4; else c |= 0x2", "c & 0x1", False),
    ("if (me) c |= 0x4; else c |= 0x2", "c & 0x2", True),
    ("for (i = 0; i < me; i++) c |= 0x4", "c & 0x1", False),
    ("for (i = 0; i < me; i++) c |= 0x4", "c & 0x4", True),
    ("for (i = 0; i < me; i++) { if (c & 0x1) break; c |= 0x4; }", "c & 0x1", False),
    ("for (i = 0; i < me; i++) { if (c & 0x4) c = me; c |= 0x4; }", "c & 0x1", True),
    ("if (me) { c |= 0x4; if (mode) c |= 0x2; }", "c & 0x1", False),
    ("if (me) { c |= 0x4; if (mode) c |= 0x2; }", "c & 0x2", True),
    ("mode ? (c |= 0x4) : 0; if (me) c |= 0x2", "c & 0x4", False),
    ("me && (c |= 0x4)", "c & 0x1", False),
    ("me && (c |= 0x4)", "c & 0x4", True),
    # a widening may copy the sign bit up: bit 31 is read too (also when unsigned)
    ("if (me) c |= 0x80000000", "(long) c & (1L << 40)", True),
    # arrays: one mask, element by element
    ("if (me) a[1] |= 0x1", "a[0] & 0x1", False),
    ("if (me) a[1] |= 0x1", "a[1] & 0x1", True),
    ("if (me) a[0] |= NOT_SIMPLE; if (mode) a[0] |= SET_IND", "a[0] & SET_IND", False),
    ("if (me) a[k] |= 0x1", "a[0] & 0x1", True),  # an index not known: every element
    ("if (me) a[k] |= 0x1", "a[1] & 0x2", False),
    ("a[me] |= 0x1", "a[0] & 0x1", True),  # an element chosen per process
    ("a[me] |= 0x1", "a[1] & 0x2", False),
    ("if (me) a[1] |= 0x1", "a[k] & 0x1", True),  # a read at any element
    ("if (me) a[1] |= 0x1", "a[k] & 0x2", False),
    ("if (me) a[0] = 5", "a[0] & 0x1", True),
    ("if (me) a[0] |= 0x4; a[0] += 1", "a[0] & 0x1", True),
    ("if (me) a[0] |= 0x4; a[1] = 7", "a[0] & 0x1", False),
])
def test_bits_of_a_tracked_local(write: str, read: str, multi: bool) -> None:
    body = STEP.replace("WRITE", write).replace("READ", read)
    assert verdicts(body, "step")[-1] is multi


def test_bits_in_a_function_with_goto() -> None:
    body = """
    int probe(int);
    int step(void) {
        int me, ret = 0;
        unsigned c[2] = {0, 0};
        MPI_Comm_rank(0, &me);
        if (probe(me) < 0) { ret = -1; goto done; }
        if (probe(me)) c[1] |= 0x1;
        if (c[0] & 0x1) ret = 1; else MPI_Barrier(0);
        if (c[1] & 0x1) MPI_Barrier(0);
    done:
        return ret;
    }
    """
    assert verdicts(body, "step")[-2:] == [False, True]


def test_a_loop_that_drops_a_truth_its_test_read_is_walked_again() -> None:
    # past the vote every process has p non-NULL; the body makes rank 0's NULL, so the
    # loop's test differs from the second round on (before: one round, then silent)
    body = VOTE + """
    int main(void) {
        int me, *p;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        p = me ? malloc(4) : 0;
        if (any_true(!p, MPI_COMM_WORLD)) return 1;
        while (p) { MPI_Barrier(MPI_COMM_WORLD); p = me ? 0 : p; }
        return 0;
    }
    """
    assert verdicts(body)[2] is True


def test_element_mask() -> None:
    assert element_mask(0x1, 0, 2) == 0x1
    assert element_mask(0x1, 1, 2) == 1 << WIDTH
    assert element_mask(0x1, None, 2) == 1 | 1 << WIDTH
    assert element_mask(0x1, 5, 2) == 1 | 1 << WIDTH  # out of range: every element
    assert element_mask(-1, None, 2) == (1 << 2 * WIDTH) - 1
    assert element_mask(0x1, 0, None) is None


def test_join_of_bits() -> None:
    out = join({"x": "r", "~x": "4"}, {"x": "s", "~x": "2"})
    assert out["~x"] == "6"
    assert "~x" not in join({"x": "r", "~x": "4"}, {"x": "s"})  # whole on one path
    assert join({"x": "r", "~x": "4"}, {})["~x"] == "4"  # single-valued on the other
    assert env_bits({}, "x") == 0 and env_bits({"x": "r"}, "x") is None
    kept = {"x": "r", "~x": "1"}
    join_bits(kept, kept, kept)
    assert kept["~x"] == "1"


def test_changed_locals() -> None:
    assert changed_locals({"x": "r", "!x": "r"}, {"x": "r"}) == {"x"}
    assert changed_locals({"x": "r", "~x": "1"}, {"x": "r", "~x": "3"}) == {"x"}
    assert changed_locals({"x": "r"}, {"x": "other reason"}) == set()
    assert changed_locals({}, {"y": "r"}) == {"y"}
