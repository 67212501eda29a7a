"""The success assumption (rankdep/failures.py): tests true only after a failed MPI call
or allocation are single-valued, and the arms they guard are not walked, unless
-Wmpi-error-divergence asks for those paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import parse_source, wrapped_stderr
from paths import CORPUS
from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser

from mpicc_wrap.analysis import failures, unit
from mpicc_wrap.analysis.failures import failure_tests
from mpicc_wrap.analysis.rankdep import RankDependence
from mpicc_wrap.model import FunctionSummary

PRELUDE = """\
typedef int MPI_Comm; typedef unsigned long size_t;
int MPI_Barrier(MPI_Comm); int PMPI_Barrier(MPI_Comm); double MPI_Wtime(void);
int MPI_Comm_c2f(MPI_Comm); int MPI_T_pvar_get_num(int *);
int MPI_Mine(MPI_Comm c) { return c; }
void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t);
void fill(int *); long __builtin_expect(long, long);
void SCOTCH_errorPrint(const char *, ...); int printf(const char *, ...);
void SCOTCH_errorPrintW(const char *, ...);
int shared_rc; const char *failure_mssg, *note;
"""


def _arms(body: str) -> list[tuple[bool, bool] | None]:
    """The arms of every ``if`` and ``?:`` test of ``f``, in source order (None: not a
    failure test)."""
    body = body.replace("NULL", "((void *) 0)")  # as glibc's headers spell it
    ast = GnuCParser().parse(PRELUDE + "int f(int rank, int *data, MPI_Comm comm) {"
                             + body + "}")
    found = failure_tests(ast)
    tests: list[c_ast.Node] = []

    class Ifs(c_ast.NodeVisitor):
        def visit_If(self, node: c_ast.If) -> None:
            tests.append(node.cond)
            self.generic_visit(node)

        visit_TernaryOp = visit_If

    Ifs().visit(ast.ext[-1])
    return [found.get(id(t)) for t in tests]


THEN, ELSE = (True, False), (False, True)


@pytest.mark.parametrize("body,arms", [
    # an MPI call's result, and spellings of "it failed"
    ("if (MPI_Barrier(comm) != 0) return 1;", THEN),
    # 0 wherever nothing failed: 1 only in the failure arm of an allocation test
    ("int bad = 0; if (malloc(4) == NULL) bad = 1; if (bad != 0) return 1;", THEN),
    # 0 everywhere: the arm never runs at all
    ("int rc; rc = 0; if (rc != 0) return rc;", THEN),
    ("if (0 != MPI_Barrier(comm)) return 1;", THEN),
    ("if (MPI_Barrier(comm)) return 1;", THEN),
    ("if (!MPI_Barrier(comm)) rank++; else return 1;", ELSE),
    ("if (MPI_Barrier(comm) == 0) rank++; else return 1;", ELSE),
    ("if (PMPI_Barrier(comm) != 0) return 1;", THEN),
    ("if (__builtin_expect(MPI_Barrier(comm) != 0, 0)) return 1;", THEN),
    ("int rc; if ((rc = MPI_Barrier(comm)) != 0) return rc;", THEN),
    ("int rc = MPI_Barrier(comm); rc == 0 ? (void) 0 : fill(data);", ELSE),
    # a local written only with MPI results or 0 (MPI_SUCCESS)
    ("int rc = 0; rc = MPI_Barrier(comm); if (rc != 0) return rc;", THEN),
    ("int rc; if (rank) rc = MPI_Barrier(comm); else rc = 0; if (rc) return rc;", THEN),
    ("int rc = MPI_Barrier(comm); if (rc != 0 || rank) return rc;", None),
    ("int rc = MPI_Barrier(comm); if (rc != 0 && rank) return rc;", THEN),
    ("int rc = MPI_Barrier(comm); if (rc == 0 && rank) rank++; else return 1;", None),
    ("int rc = MPI_Barrier(comm); int q = MPI_Barrier(comm);"
     " if (rc != 0 || q != 0) return 1;", THEN),
    # allocations: NULL only on failure
    ("int *p = malloc(8); if (p == NULL) return 1;", THEN),
    ("int *p; if ((p = calloc(2, 4)) == NULL) return 1;", THEN),
    ("int *p = malloc(8); if (!p) return 1;", THEN),
    ("int *p = malloc(8); if (p) rank++; else return 1;", ELSE),
    ("int *p = (int *) malloc(8); if (NULL == p) return 1;", THEN),
    ("int *p = malloc(8); if (p != NULL) rank++; else return 1;", ELSE),
    # an arm that reports an error and leaves with a failure (an error arm)
    ("if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return 1; }", THEN),
    ("if (data[0] >= 0) rank++; else { SCOTCH_errorPrint(\"bad\"); return (-1); }", ELSE),
    ("if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); goto out; } out: return 0;", THEN),
    # or returns from a function that returns nothing (hypre's Euclid: the reporter
    # sets the flag its callers test), also as a block of its own followed by ';'
    ("if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return; }", THEN),
    ("if (data[0] < 0) { printf(\"at 3\"); { SCOTCH_errorPrint(\"bad\"); return; }; }",
     THEN),
    ("if (shared_rc) { SCOTCH_errorPrint(\"\"); return; } ;", THEN),
    # or returns a global, the error state its reporter keeps (hypre's
    # `hypre_error_w_msg(...); return hypre_error_flag;`)
    ("if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return shared_rc; }", THEN),
    # or that sets flags a later test or reduction acts on (Scotch's cheklocval = 1)
    ("int flag = 0; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); flag = 1; }"
     " if (flag) return 1;", THEN),
    ("int flags[2]; if (!data) { SCOTCH_errorPrint(\"no memory\"); flags[0] = 1; }",
     THEN),
    # hdf5's HDONE_ERROR: `err_occurred = err_occurred;` quiets a compiler warning
    ("int e = 0, r = 0; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); e = 1; e = e;"
     " r = -1; }", THEN),
    # or stores a message that says something failed, or any in a variable so named,
    # and sets flags to constants, zero too (hdf5's tests: `pass = FALSE;`)
    ("int pass = 1; if (data[0] < 0) { pass = 0; note = \"read failed\"; }", THEN),
    ("int pass = 1; if (data[0] < 0) { pass = 0; failure_mssg = \"too large\"; }", THEN),
    ("if (data[0] < 0) { note = \"error in the header\"; return -1; }", THEN),
    # a switch inside the failure arm has its own cases
    ("int rc = MPI_Barrier(comm); if (rc != 0) { switch (rc) { case 1: return 1; } }",
     THEN),
])
def test_failure_tests_are_recognised(body: str, arms: tuple[bool, bool] | None) -> None:
    assert _arms(body)[-1] == arms


@pytest.mark.parametrize("body", [
    # written with something else too, or through its address, or incremented
    "int rc = MPI_Barrier(comm); rc = rank; if (rc != 0) return rc;",
    "int rc = MPI_Barrier(comm); fill(&rc); if (rc != 0) return rc;",
    "int rc = MPI_Barrier(comm); rc += 1; if (rc != 0) return rc;",
    # not error codes: times, handle conversions, the tool interface, the TU's own MPI_
    "if (MPI_Wtime() != 0) return 1;",
    "if (MPI_Comm_c2f(comm) != 0) return 1;",
    "if (MPI_T_pvar_get_num(data) != 0) return 1;",
    "if (MPI_Mine(comm) != 0) return 1;",
    # a status or a count is not a failure
    "int rc = MPI_Barrier(comm); if (rc == 3) return rc;",
    "if (rank != 0) return 1;",
    # allocations that may be NULL without a failure, or a NULL written elsewhere
    "int *p = realloc(data, rank); if (p == NULL) return 1;",
    "int *p = NULL; if (rank) p = malloc(8); if (p == NULL) return 1;",
    "int *p = malloc(8); p = data; if (p == NULL) return 1;",
    # a global written elsewhere
    "if (shared_rc != 0) return 1;",
    # no error reported, or no failure returned, or the arm goes on
    "if (data[0] < 0) { printf(\"bad\"); return 1; }",
    "if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return 0; }",
    "if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); rank++; }",
    "if (data[0] < 0) { printf(\"bad\"); { return; }; }",
    "if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); { rank++; }; }",
    "if (data[0] < 0) { SCOTCH_errorPrintW(\"odd\"); return; }",
    # a parameter or a local is no error state
    "if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return rank; }",
    "int n = rank; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); return n; }",
    "int flag = 1; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); flag = 0; }",
    "int flag = 0; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); flag = rank; }",
    "int e = 0; if (data[0] < 0) { SCOTCH_errorPrint(\"bad\"); e = rank; e = e; }",
    # a warning is no error: the run goes on
    "int flag = 0; if (data[0] < 0) { SCOTCH_errorPrintW(\"odd\"); flag = 1; }",
    "if (data[0] < 0) return 1;",
    # a message that says nothing failed, or an arm that goes on after one
    "int pass = 1; if (data[0] < 0) { pass = 0; note = \"too large\"; }",
    "if (data[0] < 0) { note = \"read failed\"; rank++; }",
    "int pass = 1; if (data[0] < 0) { pass = rank; failure_mssg = \"bad\"; }",
    # an arm a goto or a case of an outer switch enters without the test
    "int rc = MPI_Barrier(comm); if (rank) goto fail; if (rc != 0) { fail: return 1; }",
    "int rc = MPI_Barrier(comm); switch (rank) { case 0: if (rc != 0) { case 1: rank++; } }",
])
def test_other_tests_are_not_failure_tests(body: str) -> None:
    assert _arms(body)[-1] is None


def _located(arm: str, file: str = "t.c", shift: int = 0) -> tuple[bool, bool] | None:
    """The arms of ``if (data[0] < 0) ARM`` where ``@LINE`` in ``arm`` is the line it is
    written on (plus ``shift``), in a TU whose preprocessed lines all map to ``t.c``."""
    source = PRELUDE + "int push(void *, const char *, const char *, int, ...);\n"
    line = source.count("\n") + 2
    source += ("int f(int rank, int *data, MPI_Comm comm) { int ret;\n"
               + "if (data[0] < 0) " + arm.replace("@LINE", str(line + shift))
               + "\n return 0; }")
    ast = GnuCParser().parse(source)
    linemap = [("t.c", n) for n in range(1, source.count("\n") + 2)]
    tests = failures.analyse(ast, None, linemap).tests
    cond = next(s for s in ast.ext[-1].body.block_items if isinstance(s, c_ast.If)).cond
    return tests.get(id(cond))


HGOTO_ERROR = '{ push(0, "{file}", __func__, @LINE, "bad"); ret = -1; goto done; } done:'


@pytest.mark.parametrize("arm,file,shift,arms", [
    # hdf5's HGOTO_ERROR: a call passed its own __FILE__ and __LINE__, then a jump
    (HGOTO_ERROR, "t.c", 0, THEN),
    ('{ push(0, "t.c", "f", @LINE); return 1; }', "t.c", 0, THEN),
    # another file's name, or another line: not its own location
    (HGOTO_ERROR, "u.c", 0, None),
    (HGOTO_ERROR, "t.c", 1, None),
    # a located call that goes on is no error arm
    ('{ push(0, "t.c", "f", @LINE); rank++; }', "t.c", 0, None),
])
def test_a_call_passed_its_own_location_reports(arm: str, file: str, shift: int,
                                                 arms: tuple[bool, bool] | None) -> None:
    assert _located(arm.replace("{file}", file), shift=shift) == arms


def _reasons(success: bool) -> dict[str, str | None]:
    """pnetcdf's header reader, reduced: the reasons of the tests of ``get``."""
    ast = GnuCParser().parse(PRELUDE + """
    int MPI_Comm_rank(MPI_Comm, int *); int MPI_File_read_at(int, char *);
    static int fetch(int fh, char *buf) {
        int rank, err = 0, mpireturn;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) {
            mpireturn = MPI_File_read_at(fh, buf);
            if (mpireturn != 0) err = -1;
        }
        return err;
    }
    int get(int fh, char *buf) {
        int err = fetch(fh, buf);
        if (err != 0) return err;
        return 0;
    }
    int count(int fh, char *buf) {
        int rank, got = 0, mpireturn;
        MPI_Comm_rank(0, &rank);
        mpireturn = MPI_File_read_at(fh, buf);
        if (mpireturn != 0) got = 1; else got = rank;
        if (got) return 1;
        return 0;
    }""")
    rd = RankDependence(ast, {}, success=success)
    out: dict[str, str | None] = {}
    for fn in ("get", "count"):
        d = next(n for n in ast.ext if isinstance(n, c_ast.FuncDef) and n.decl.name == fn)
        for item in d.body.block_items:
            if isinstance(item, c_ast.If):
                tested = item.cond.left if isinstance(item.cond, c_ast.BinaryOp) else item.cond
                out[f"{fn}: {tested.name}"] = rd.reason(fn, item.cond)
    return out


def test_an_error_code_set_only_on_failure_is_single_valued() -> None:
    assumed, dropped = _reasons(True), _reasons(False)
    assert assumed["get: err"] is None  # the failure arm on rank 0 is not walked
    assert dropped["get: err"] is not None  # -Wmpi-error-divergence: it is
    # the arm a run without failures takes still counts
    assert assumed["count: got"] is not None and dropped["count: got"] is not None


def _compile(tmp_path: Path, *flags: str) -> str:
    name = "correct_error_code_on_root_only.c"
    return wrapped_stderr(tmp_path, name, (CORPUS / name).read_text(), *flags)


def test_error_divergence_is_silent_by_default_and_reported_on_request(
        tmp_path: Path) -> None:
    assert "warning" not in _compile(tmp_path)
    asked = _compile(tmp_path, "-Wmpi-error-divergence")
    assert "MPI_Finalize on MPI_COMM_WORLD" in asked
    assert "[-Wmpi-error-divergence]" in asked
    assert "[-Wmpi-collective-order]" not in asked


LIBSC = """\
#include <mpi.h>
void die(const char *file, int line) __attribute__((noreturn));
#define CHECK_MPI(r) CHECK
void write_end(MPI_Win win, MPI_Comm intranode)
{
    int mpiret, intrarank;
    mpiret = MPI_Comm_rank(intranode, &intrarank);
    CHECK_MPI(mpiret);
    if (!intrarank) {
        mpiret = MPI_Win_unlock(0, win);
        CHECK_MPI(mpiret);
    }
    mpiret = MPI_Barrier(intranode);
    CHECK_MPI(mpiret);
}
"""


@pytest.mark.parametrize("check", [
    "((r) == MPI_SUCCESS ? (void) 0 : die(__FILE__, __LINE__))",  # libsc's SC_CHECK_MPI
    "do { if ((r) != MPI_SUCCESS) die(__FILE__, __LINE__); } while (0)",
])
def test_the_failure_arm_of_a_check_is_no_path_of_the_cfg(check: str) -> None:
    """libsc's sc_shmem.c: the rank that unlocks could leave through ``die`` (another
    file's noreturn function) only if the unlock failed, so every rank reaches the
    barrier; without the assumption the analysis blames ``!intrarank``."""
    tu = parse_source(LIBSC.replace("CHECK\n", check + "\n"))
    assert unit.analyse(tu, {}).findings == []
    asked = unit.analyse(tu, {}, error_divergence=True).findings
    assert [(f.collective, f.tag) for f in asked] == [("MPI_Barrier",
                                                       "mpi-error-divergence")]
    assert "!intrarank" in [c.text for c in asked[0].conditions]


ROOT_ONLY = """\
#include <mpi.h>
#include <stdlib.h>
int foo(int);
int uniform_inner(int n) {
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) { if (n > 5) return 1; }
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
int allocation(int n) {
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) { if (calloc(n, 4) == NULL) return 1; }
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
int unknown_result(int n) {
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) { if (foo(n) == 0) return 1; }
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
"""


def test_only_a_failure_arm_leaves_the_collective_unwarned() -> None:
    """Rank 0 alone returns early: on a test the same everywhere (``n > 5``) or on an
    unknown call's result that is still a divergence; only the allocation failure
    is assumed away, and reported on request."""
    tu = parse_source(ROOT_ONLY)
    found = {f.function: f.tag for f in unit.analyse(tu, {}).findings}
    assert found == {"uniform_inner": "mpi-collective-order",
                     "unknown_result": "mpi-collective-order"}
    asked = {f.function: f.tag for f in unit.analyse(tu, {}, error_divergence=True).findings}
    assert asked == {**found, "allocation": "mpi-error-divergence"}


STATUS = PRELUDE + """
int sync(MPI_Comm c) { int o = 0; if (MPI_Barrier(c) != 0) { o = 1; } return o; }
int sync2(MPI_Comm c) { if (sync(c) != 0) return 1; return MPI_Barrier(c); }
int choose(int x) { if (x) return 1; return 0; }
int *group(size_t n) { int *b; if ((b = malloc(n)) == ((void *) 0)) return ((void *) 0);
    return b; }
int *maybe(int x) { if (x) return ((void *) 0); return malloc(4); }
int other(MPI_Comm c);
int *other_group(size_t n);
void *memAllocGroup(void **, ...); void *lookup(int); void *xrealloc(void *, size_t);
int f(int x, MPI_Comm c) { int *p;
    if (sync(c) != 0) return 1;
    if (sync2(c)) return 1;
    if (choose(x) != 0) return 1;
    if ((p = group(4)) == ((void *) 0)) return 1;
    if (maybe(x) == ((void *) 0)) return 1;
    if (other(c) != 0) return 1;
    if (other_group(4) == ((void *) 0)) return 1;
    if (memAllocGroup((void **) &p, 4, (void *) 0) == ((void *) 0)) return 1;
    if (lookup(x) == ((void *) 0)) return 1;
    if (xrealloc(p, 8) == ((void *) 0)) return 1;
    return 0; }
"""


def test_status_and_allocating_functions_make_failure_tests() -> None:
    """A function of the TU (or of another, by its summary) that returns 0, or a fresh
    pointer, unless an MPI call or an allocation failed: a test of its result is a
    failure test, like one of MPI_Barrier's (Scotch's dgraphHaloSync, memAllocGroup)."""
    ast = GnuCParser().parse(STATUS)
    ext = {"other": FunctionSummary("other", "o.c", 1, False, [], True, status_code=True),
           "other_group": FunctionSummary("other_group", "o.c", 2, False, [], True,
                                          fresh_result=True)}
    facts = failures.analyse(ast, ext)
    assert facts.status == {"sync", "sync2"} and facts.fresh == {"group"}
    f = ast.ext[-1]
    tests = [s.cond for s in f.body.block_items if isinstance(s, c_ast.If)]
    # ... and a declared function named as an allocator (not realloc) that returns a
    # pointer, without a summary (Scotch's memAllocGroup, of its sequential library)
    assert [facts.tests.get(id(t)) for t in tests] == [
        THEN, THEN, None, THEN, None, THEN, THEN, THEN, None, None]
    assert failures.analyse(ast).tests.get(id(tests[5])) is None  # no summary: unknown


def test_summaries_say_which_functions_are_status_and_allocating_functions() -> None:
    tu = parse_source(STATUS.replace("int f(int x", "int unused(int x"))
    s = unit.analyse(tu, {}).summaries
    assert [n for n in ("sync", "sync2", "choose", "group", "maybe") if s[n].status_code] \
        == ["sync", "sync2"]
    assert [n for n in ("sync", "group", "maybe") if s[n].fresh_result] == ["group"]


def test_each_body_is_walked_once_however_many_readings_it_takes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The second test is a failure test only once the first one's arm is known to be
    a failure arm (``bad = 1`` is written there alone), and ``sync`` a status function
    only once both are: several readings of ``f``, and a second round for the TU, from
    one walk of each body."""
    source = PRELUDE + (
        "int sync(MPI_Comm c) { return MPI_Barrier(c); }\n"
        "int f(MPI_Comm comm) { int bad = 0; if (sync(comm) != 0) bad = 1;"
        " if (bad != 0) return 1; return 0; }\n")
    ast = GnuCParser().parse(source)
    bodies = {id(d.body): d.decl.name for d in ast.ext if isinstance(d, c_ast.FuncDef)}
    walks: list[str] = []
    walk = failures._Writes.visit

    def counted(self: failures._Writes, node: c_ast.Node) -> object:
        if id(node) in bodies:
            walks.append(bodies[id(node)])
        return walk(self, node)

    monkeypatch.setattr(failures._Writes, "visit", counted)
    facts = failures.analyse(ast)
    f = ast.ext[-1]
    tests = [s.cond for s in f.body.block_items if isinstance(s, c_ast.If)]
    assert [facts.tests.get(id(t)) for t in tests] == [THEN, THEN]
    assert "sync" in facts.status
    assert sorted(walks) == sorted(bodies.values())
