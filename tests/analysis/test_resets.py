"""Resets (``analysis/rankdep/resets.py``): ``if (p->buf != NULL) { ...; p->buf =
NULL; }`` leaves the constant in the place on every process, so the store is not
gated by the test; a summary does not list it as written per-process."""

from __future__ import annotations

import pytest
from test_rankdep import analyse

TYPES = """
typedef int MPI_Info;
int MPI_Info_free(MPI_Info *);
typedef struct s { char *buf; int n; MPI_Info info; } S;
char *make(int); void release(char *);
S *table[4];
void per(S *p) { int me; MPI_Comm_rank(0, &me); p->buf = make(me); p->n = me;
                 p->info = (MPI_Info) me; table[me] = p; }
"""


@pytest.mark.parametrize(("body", "listed"), [
    ("if (p->buf != 0) { release(p->buf); p->buf = 0; }", False),
    ("if (p->buf) { release(p->buf); p->buf = (char *) 0; }", False),
    ("if (0 != p->n) p->n = 0;", False),
    ("if (p->info != MPI_INFO_NULL) MPI_Info_free(&p->info);", False),
    # not a reset
    ("if (p->n != 0) p->n = 1;", True),  # another constant
    ("if (p->buf) { if (me) p->buf = 0; }", True),  # a deeper per-process test
    ("if (me) { if (p->buf) p->buf = 0; }", True),  # under another per-process test
    ("if (p->buf) { p = table[me]; p->buf = 0; }", True),  # another object
    ("if (p->buf) { S **q = &p; (*q)->buf = 0; p->buf = 0; }", True),  # &p taken
    ("if (p->n > 0) p->n = 0;", True),  # not a test against the constant
])
def test_a_reset_is_not_a_per_process_write(body: str, listed: bool) -> None:
    code = TYPES + ("void reset(S *p) { int me; MPI_Comm_rank(0, &me); "
                    f"{body} }}")
    rd, _ = analyse(code)
    ranked = rd.effects("reset")[1]
    fields = {"f:s.buf:0", "f:s.n:0", "f:s.info:0"}
    assert bool(fields & set(ranked)) is listed, ranked


def test_the_place_stays_per_process_in_its_file() -> None:
    """Memory is flow-insensitive: the reset drops only the gate of its own store, the
    place keeps what other writes made it."""
    rd, ast = analyse(TYPES + """
    void reset(S *p) { if (p->n != 0) p->n = 0; }
    int main(void) { S s; per(&s); reset(&s); if (s.n) MPI_Barrier(0); return 0; }""")
    from test_rankdep import conds
    assert rd.reason("main", conds(ast, "main")[0]) is not None


def test_a_null_handle_as_the_library_spells_it() -> None:
    """MPICH's ``MPI_INFO_NULL`` is ``((MPI_Info)0x1c000000)``: the test names the same
    constant ``MPI_Info_free`` stores, not the integer."""
    names = {"((MPI_Info)0x1c000000)": "MPI_INFO_NULL", "(MPI_Info)0x1c000000": "MPI_INFO_NULL"}
    code = TYPES + """void reset(S *p) {
        if (p->info != ((MPI_Info)0x1c000000)) MPI_Info_free(&p->info); }"""
    rd, _ = analyse(code, handle_names=names)
    assert "f:s.info:0" not in rd.effects("reset")[1]
