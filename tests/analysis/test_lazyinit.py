"""Lazy initialisation (``analysis/rankdep/lazyinit.py``): ``if (!v) v = create();``
sets ``v`` on every process that runs it, so its arm is gated by nothing outside it
and its writes to ``v`` by nothing at all; what it computes from per-process data is
still per-process, and a test that is not the idiom's gates as before."""

from __future__ import annotations

import pytest
from test_rankdep import analyse, verdicts

from mpicc_wrap.model import FunctionSummary

TYPES = """
typedef struct { int flags; int n; } H;
H *the_h; static int inited; int used_n; int terminating;
void *malloc(unsigned long);
H *create(void) { H *h = malloc(sizeof *h); h->flags = 1; h->n = 4; return h; }
int init_package(void) { used_n = 3; return 0; }
"""

RANKED = "int me; MPI_Comm_rank(MPI_COMM_WORLD, &me); if (me == 0) {g} "


@pytest.mark.parametrize(("getter", "test", "multi"), [
    # hypre's hypre_handle(), called on rank 0 first
    ("H *get(void) { if (!the_h) the_h = create(); return the_h; }",
     "get()->flags", False),
    ("H *get(void) { if (the_h == 0) { the_h = create(); } return the_h; }",
     "get()->n", False),
    # HDF5's FUNC_ENTER: the flag, its other conjunct, a failure path resetting it
    ("int get(void) { int ret = 0; if (!inited && !terminating) { inited = 1; "
     "if (init_package() < 0) { inited = 0; ret = -1; goto done; } } "
     "if (inited || !terminating) ret = used_n; done: return ret; }",
     "get() == 3", False),
    # not the idiom: the arm stores a per-process value
    ("int get(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); "
     "if (!inited) inited = r + 1; return inited; }", "get() == 1", True),
    # not the idiom: the arm does not set the flag it tests
    ("int get(void) { if (!inited) used_n = 3; return used_n; }", "get() == 3", True),
    # not the idiom: a jump may leave before the flag is set
    ("int get(void) { if (!inited) { if (terminating) return 0; inited = 1; "
     "used_n = 3; } return used_n; }", "get() == 3", True),
    # not the idiom: an else arm
    ("int get(void) { if (!inited) { inited = 1; used_n = 3; } else used_n = 2; "
     "return used_n; }", "get() == 3", True),
    # not the idiom: another conjunct of the test has a side effect
    ("int get(void) { if (!inited && init_package() == 0) { inited = 1; used_n = 5; }"
     " return used_n; }", "get() == 5", True),
])
def test_a_lazy_initialisation_reached_on_some_ranks_first(
        getter: str, test: str, multi: bool) -> None:
    code = TYPES + getter + (
        " int main(void) { " + RANKED.format(g="get();") +
        f" if ({test}) MPI_Barrier(MPI_COMM_WORLD); return 0; }}")
    assert verdicts(code)[-1] is multi


def test_a_per_process_test_of_the_flag_elsewhere_still_gates() -> None:
    """The flag stays per-process where a write outside the idiom made it so."""
    code = TYPES + """
    H *get(void) { if (!the_h) the_h = create(); return the_h; }
    int main(void) { int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) the_h = 0;
      if (get()->flags) MPI_Barrier(MPI_COMM_WORLD); return 0; }"""
    assert verdicts(code)[-1] is True


def test_under_a_per_process_test_of_its_own_function_it_is_not_the_idiom() -> None:
    """Inside ``if (me == 0)`` the arm runs under that test, as before."""
    code = TYPES + """
    int main(void) { int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) { if (!inited) { inited = 1; used_n = me + 3; } }
      if (used_n == 3) MPI_Barrier(MPI_COMM_WORLD); return 0; }"""
    assert verdicts(code)[-1] is True


HANDLE = """
typedef struct { int flags; int n; } H;
H *the_h; int counter;
void *malloc(unsigned long);
static H *create(void) { H *h = malloc(sizeof *h); h->flags = 1; h->n = 4; return h; }
H *get(void) { if (!the_h) the_h = create(); return the_h; }
H *get_counted(void) { counter++; if (!the_h) the_h = create(); return the_h; }
H *get_or_make(int fresh) { if (fresh) return create(); if (!the_h) the_h = create();
                            return the_h; }
"""


@pytest.mark.parametrize(("func", "inits"), [
    # the flag and all the function called only in the arm writes
    ("get", ["f:H.flags:0", "f:H.n:0", "g:the_h:0"]),
    # a write outside the arm is not one of them
    ("get_counted", ["f:H.flags:0", "f:H.n:0", "g:the_h:0"]),
    # create() is called outside the arm too: what it writes is not only initialisation
    ("get_or_make", ["g:the_h:0"]),
])
def test_the_summary_lists_what_only_lazy_initialisations_write(
        func: str, inits: list[str]) -> None:
    rd, _ = analyse(HANDLE)
    assert rd.init_writes(func) == inits
    assert set(inits) <= set(rd.effects(func)[2] or [])


CALLER = """
typedef struct { int flags; int n; } H;
H *get(void); int counter;
int main(void) { int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) get();
  if (get()->flags) ; if (counter) ; return 0; }
"""


@pytest.mark.parametrize(("inits", "expected"), [
    ([], [True, True, True]),  # before: everything get() writes, gated by me == 0
    (["f:H.flags:0", "g:the_h:0"], [True, False, True]),
])
def test_a_caller_does_not_gate_what_only_lazy_initialisations_write(
        inits: list[str], expected: list[bool]) -> None:
    ext = {"get": FunctionSummary("get", "get.c", 1, False, [], True, rank_writes=[],
                                  writes=["f:H.flags:0", "g:the_h:0", "g:counter:0"],
                                  init_writes=inits)}
    assert verdicts(CALLER, external=ext) == expected


def test_a_local_written_in_the_arm_differs_where_the_flag_does() -> None:
    """Where a write outside the idiom made the flag per-process, a tracked local the
    arm writes differs at the join between the processes that ran it and the others."""
    code = TYPES + """
    int main(void) { int me, n = 0; MPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) inited = 1;
      if (!inited) { inited = 1; n = 3; }
      if (n == 3) MPI_Barrier(MPI_COMM_WORLD); return 0; }"""
    assert verdicts(code)[-1] is True


RELAY = """
typedef struct { int flags; int n; } H;
H *get(void);
void *alloc(int count) { if (count == 0) return 0; return get(); }
"""


def test_a_caller_lists_what_another_files_lazy_initialisation_writes() -> None:
    """hypre's ``hypre_CAlloc(count, ...)`` reaches ``hypre_handle()`` under a test of
    its argument: the handle is still only lazily initialised there, so its own
    summary lists it in ``init_writes``, not among the writes its arguments reach."""
    ext = {"get": FunctionSummary("get", "get.c", 1, False, [], True, rank_writes=[],
                                  writes=["f:H.flags:0", "g:the_h:0"],
                                  init_writes=["f:H.flags:0", "g:the_h:0"])}
    rd, _ = analyse(RELAY, external=ext)
    assert rd.init_writes("alloc") == ["f:H.flags:0", "g:the_h:0"]
    assert not set(rd.arg_writes("alloc") or []) & {"f:H.flags:0", "g:the_h:0"}
