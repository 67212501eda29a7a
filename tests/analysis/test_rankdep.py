"""Tests of the multi-valued (rank-dependent) expression analysis (paper 003 §3)."""

from __future__ import annotations

import pytest
from analysis_helpers import parse_source
from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser

from mpicc_wrap.analysis import unit
from mpicc_wrap.analysis.rankdep import RankDependence
from mpicc_wrap.analysis.rankdep.locations import ANY, Global, Store, function_facts
from mpicc_wrap.model import FunctionSummary

PRELUDE = """\
typedef int MPI_Comm; typedef int MPI_Datatype; typedef int MPI_Op;
typedef struct { int src; } MPI_Status;
int MPI_Comm_rank(MPI_Comm, int *); int MPI_Comm_size(MPI_Comm, int *);
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Reduce(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
int MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
int MPI_Barrier(MPI_Comm);
int printf(const char *, ...); int sscanf(const char *, const char *, ...);
char *getenv(const char *);
int sprintf(char *, const char *, ...); int snprintf(char *, unsigned long, const char *, ...);
int getpid(void); int gethostname(char *, int);
int foo(int); void fill(int *, int); int helper(void);
"""
PRELUDE_LINES = PRELUDE.count("\n")


def analyse(body: str, external: dict[str, FunctionSummary] | None = None,
            **kw: object) -> tuple[RankDependence, c_ast.FileAST]:
    ast = GnuCParser().parse(PRELUDE + body)
    return RankDependence(ast, external or {}, **kw), ast  # type: ignore[arg-type]


def conds(ast: c_ast.FileAST, func: str) -> list[c_ast.Node]:
    """Controlling expressions of if/while/for/switch/?: in ``func``, in source order."""
    found: list[c_ast.Node] = []

    class Visitor(c_ast.NodeVisitor):
        def generic_visit(self, node: c_ast.Node) -> None:
            if isinstance(node, (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.For,
                                 c_ast.Switch, c_ast.TernaryOp)) and node.cond is not None:
                found.append(node.cond)
            super().generic_visit(node)

    fn = next(n for n in ast.ext if isinstance(n, c_ast.FuncDef) and n.decl.name == func)
    Visitor().visit(fn.body)
    return found


def verdicts(body: str, func: str = "main", **kw: object) -> list[bool]:
    rd, ast = analyse(body, **kw)  # type: ignore[arg-type]
    return [rd.reason(func, c) is not None for c in conds(ast, func)]


def test_comm_rank_is_a_seed_and_comm_size_is_not() -> None:
    rd, ast = analyse("""int main(int argc, char **argv) {
        int rank, size;
        MPI_Comm_rank(0, &rank);
        MPI_Comm_size(0, &size);
        if (rank == 0) MPI_Barrier(0);
        if (size > 2) MPI_Barrier(0);
        if (argc > 1 && argv[1][0] == 'x') MPI_Barrier(0);
        if (sizeof(int) == 4) MPI_Barrier(0);
        return 0; }""")
    c = conds(ast, "main")
    assert rd.reason("main", c[0]) == (
        f"depends on the process rank (MPI_Comm_rank at line {PRELUDE_LINES + 3})")
    assert [rd.reason("main", x) for x in c[1:]] == [None, None, None]


def test_seed_location_uses_the_loc_callable() -> None:
    rd, ast = analyse("int main(void) { int r; MPI_Comm_rank(0, &r); if (r) return 1;"
                      " return 0; }", loc=lambda line: f"src.c:{line - PRELUDE_LINES}")
    assert "MPI_Comm_rank at src.c:1" in (rd.reason("main", conds(ast, "main")[0]) or "")


def test_data_dependences_propagate() -> None:
    assert verdicts("""int main(void) {
        int rank, z = 0, k = 3; MPI_Comm_rank(0, &rank);
        int x = rank * 2; double y = (double)x; z += rank; k++;
        int t = rank ? 1 : 2;
        if (y > 1) ; if (z) ; if (k) ; if (t == 1) ; if (k + 1) ;
        return 0; }""") == [True, True, True, False, True, False]


def test_strong_update_makes_a_local_single_valued_again() -> None:
    assert verdicts("""int main(void) { int x; MPI_Comm_rank(0, &x);
        if (x) ; x = 0; if (x) ; return 0; }""") == [True, False]


def test_goto_facts_are_joined_at_the_label() -> None:
    """With goto the walk stays flow-sensitive: a strong update forgets the rank, but
    a goto that jumps over it (forward) or back to a label before a read (backward)
    brings the per-process value to the label."""
    assert verdicts("""int main(int n) { int x; MPI_Comm_rank(0, &x);
        if (n > 3) goto skip; x = 0; skip: if (x) ; return 0; }""") == [False, True]
    assert verdicts("""int main(int n) { int x = 0, t = 0, r; MPI_Comm_rank(0, &r);
        again: if (x) ; x = r; if (t++ < n) goto again; return 0; }""") == [True, False]
    assert verdicts("""int main(int n) { int x; MPI_Comm_rank(0, &x);
        x = 0; if (n) goto out; if (x) ; out: return x; }""") == [False, False]


@pytest.mark.parametrize(("body", "back"), [
    ("if (n) goto out; n = 1; out: return n;", False),
    ("if (n) goto a; n = 1; a: if (n > 2) goto b; n = 2; b: return n;", False),
    ("while (n) { if (n > 3) goto next; n--; next: n -= 2; } return n;", False),
    ("again: n--; if (n) goto again; return n;", True),
    ("while (n) { top: n--; if (n > 3) goto top; } return n;", True),
    ("if (n) goto nowhere; return n;", True),  # no such label: taken as backward
])
def test_only_a_backward_jump_walks_the_body_again(
        body: str, back: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver walks a body with gotos again until the labels' facts settle; with
    forward jumps only, one pass reaches every label after every jump to it (hdf5,
    whose every function ends at ``done:``, was walked twice throughout)."""
    ast = GnuCParser().parse("int f(int n) { " + body + " }")
    defn = ast.ext[0]
    assert function_facts(defn).goes_back is back
    passes: list[int] = []
    walk = RankDependence._stmt

    def counting(self: RankDependence, s: c_ast.Node) -> dict[str, str]:
        passes.extend([1] if s is defn.body else [])
        return walk(self, s)

    monkeypatch.setattr(RankDependence, "_stmt", counting)
    RankDependence(ast, {})
    assert len(passes) == (2 if back else 1)


@pytest.mark.parametrize(("body", "walks"), [
    ("g = r; if (g) ;", 1),  # read after it grew: the walk saw the final value
    ("if (g) ; g = r;", 2),  # read before it grew: the walk saw an older one
])
def test_a_walk_wakes_itself_only_for_what_it_read_before_it_grew(
        body: str, walks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Store.stale``: the solver walks a unit again for a fact that grew only when
    the walk had read the fact before it grew."""
    seen: list[str] = []
    walk = RankDependence._walk_unit

    def counting(self: RankDependence, unit: str) -> None:
        seen.append(unit)
        walk(self, unit)

    monkeypatch.setattr(RankDependence, "_walk_unit", counting)
    analyse("int g; int main(void) { int r; MPI_Comm_rank(0, &r); " + body
            + " return 0; }")
    assert seen.count("main") == walks


def test_the_first_reason_reads_every_location_only_when_none_differs() -> None:
    """``Store.first`` sorts only when some location differs; the reads it records
    (what wakes the unit again) are those of the walk in key order."""
    store, a, b = Store(), Global("a"), Global("b")
    assert store.first({b, a}) is None and store.reads == {a, b}
    store.mark(b, "b differs")
    store.mark(a, "a differs")
    store.reads = set()
    assert store.first({b, a}) == "a differs" and store.reads == {a}


def test_any_grows_only_when_a_read_of_it_would_give_another_value() -> None:
    """A read through an unknown pointer (``ANY``) gives the first per-process reason;
    only the first location (or first bits, while no location differs) changes it,
    so only that wakes the units that read ``ANY``: before, every new location did."""
    store, a, b, c = Store(), Global("a"), Global("b"), Global("c")
    store.mark_bits(a, 1, "a's bit")
    assert ANY in store.changed and store.get(ANY) == "a's bit"
    store.changed = set()
    store.mark_bits(c, 2, "c's bit")
    assert ANY not in store.changed and store.changed == {c}
    store.mark(b, "b differs")  # the first whole location: ANY now gives its reason
    assert ANY in store.changed and store.get(ANY) == "b differs"
    store.changed = set()
    store.mark(c, "c differs")
    assert store.changed == {c} and store.get(ANY) == "b differs"
    store.mark(a, "a differs", truthy=True)
    store.changed = set()
    store.mark(a, "a differs, truth too")  # untruthy: tests of a change, ANY does not
    assert store.changed == {a}


def test_a_callee_under_a_gate_taints_only_what_it_writes() -> None:
    """An in-TU function called under a rank test: what it writes through a pointer
    argument is per-process (its walk is gated), what it only reads is not."""
    show = "void show(const char *p) { printf(\"%s\", p); }\n"
    set_ = "void set(char *p, int v) { p[0] = v; }\n"
    assert verdicts(show + """int main(void) { char name[8] = "x"; int r;
        MPI_Comm_rank(0, &r); if (r == 0) show(name); if (name[0]) ; return 0; }""") == [
        True, False]
    assert verdicts(set_ + """int main(void) { char name[8] = "x"; int r;
        MPI_Comm_rank(0, &r); if (r == 0) set(name, 1); if (name[0]) ; return 0; }""") == [
        True, True]


def test_a_small_array_is_one_flow_sensitive_value() -> None:
    """Pack, broadcast the whole array, unpack: single-valued; a broadcast of part of
    it, or an address that escapes, keeps the rank."""
    assert verdicts("""int main(void) { int r, f, m[2]; MPI_Comm_rank(0, &r);
        m[0] = r; m[1] = 1; if (m[0]) ; MPI_Bcast(m, 2, 0, 0, 0); f = m[0];
        if (f) ; return 0; }""") == [True, False]
    assert verdicts("""int main(void) { int r, m[2]; MPI_Comm_rank(0, &r);
        m[0] = r; m[1] = r; MPI_Bcast(m, 1, 0, 0, 0); if (m[1]) ; return 0; }""") == [True]
    assert verdicts("""int main(void) { int r, m[2], *p = m; MPI_Comm_rank(0, &r);
        m[0] = r; MPI_Bcast(m, 2, 0, 0, 0); if (p[0]) ; return 0; }""") == [True]


def test_an_array_of_a_typedef_of_an_arithmetic_type_is_one_flow_sensitive_value() -> None:
    """Scotch's ``Gnum reduglbtab[6]``: a typedef name that stands for an integer holds
    no pointer, so its arrays are tracked like ``long m[2]`` (frontend/scalars.py).
    The local copy on the returning path does not reach the reduced flags; with a
    typedef of a pointer type the array stays one memory location, and does."""
    code = """typedef long G; typedef G F; typedef int *P;
        int main(void) { int r, s; T loc[2], glb[2];
        MPI_Comm_rank(0, &r); MPI_Comm_size(0, &s); loc[0] = r; loc[1] = 0;
        if (s == 1) { glb[1] = loc[1]; return glb[1]; }
        MPI_Allreduce(loc, glb, 2, 0, 0, 0); if (glb[1]) ; return 0; }"""
    assert verdicts(code.replace("T loc", "F loc")) == [False, False]
    assert verdicts(code.replace("T loc", "P loc")) == [False, True]


@pytest.mark.parametrize("code", [
    "if (rank == 0) x = 1; else x = 2;",
    "x = 0; if (rank == 0) x = 5;",
    "switch (rank) { case 0: x = 1; break; default: x = 2; }",
    "rank == 0 && (x = 1);",
    "while (i < rank) { i++; x = 7; }",
    "for (i = 0; i < 10; i++) { if (i == rank) break; x = i; }",
])
def test_phi_gates_make_merged_values_multi_valued(code: str) -> None:
    rd, _ = analyse(f"""int main(void) {{ int rank, x = 0, i = 0;
        MPI_Comm_rank(0, &rank); {code} return x; }}""")
    assert "x" in rd.multi_valued_vars("main")
    assert rd.returns_rank("main")


def test_single_valued_branches_do_not_gate() -> None:
    rd, _ = analyse("""int main(int argc, char **argv) { int x = 0, i;
        if (argc > 2) x = 1; else x = 2;
        for (i = 0; i < argc; i++) x += i;
        return x; }""")
    assert rd.multi_valued_vars("main") == set()
    assert not rd.returns_rank("main")


def test_early_return_gates_the_rest_of_the_function() -> None:
    rd, ast = analyse("""int g; void f(void) { int rank; MPI_Comm_rank(0, &rank);
        if (rank == 0) return; g = 5; }
        int main(void) { f(); if (g) MPI_Barrier(0); return 0; }""")
    assert rd.reason("main", conds(ast, "main")[0]) is not None


def test_bcast_and_allreduce_outputs_are_single_valued_after_the_call() -> None:
    assert verdicts("""int main(void) { int rank, n = 0, s;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) n = 5;
        if (n) ;
        MPI_Bcast(&n, 1, 0, 0, 0);
        if (n) ;
        MPI_Allreduce(&rank, &s, 1, 0, 0, 0);
        if (s) ;
        return 0; }""") == [True, True, False, False]


def test_per_rank_mpi_outputs_are_seeds_with_reasons() -> None:
    rd, ast = analyse("""int main(void) { int buf[4], sum; MPI_Status st;
        MPI_Recv(buf, 4, 0, 0, 0, 0, &st);
        MPI_Reduce(buf, &sum, 1, 0, 0, 0, 0);
        if (buf[2]) ; if (sum) ; if (st.src) ; return 0; }""")
    reasons = [rd.reason("main", c) for c in conds(ast, "main")]
    assert reasons[0] is not None and "received by MPI_Recv" in reasons[0]
    assert reasons[1] is not None and "MPI_Reduce" in reasons[1]
    assert reasons[2] is not None


def test_interprocedural_returns_and_parameters() -> None:
    rd, ast = analyse("""
        int get_rank(void) { int r; MPI_Comm_rank(0, &r); return r; }
        int one(void) { return 1; }
        void use(int v, int w) { if (v) MPI_Barrier(0); if (w) MPI_Barrier(0); }
        int main(void) { use(get_rank(), one()); use(3, 4);
            if (get_rank() == 0) ; if (one()) ; return 0; }""")
    assert rd.returns_rank("get_rank") and not rd.returns_rank("one")
    assert rd.rank_params("use") == [0]
    assert [rd.reason("use", c) is not None for c in conds(ast, "use")] == [True, False]
    assert [rd.reason("main", c) is not None for c in conds(ast, "main")] == [True, False]


def test_rank_written_through_pointer_parameter_by_callee() -> None:
    assert verdicts("""
        void get(int *p) { MPI_Comm_rank(0, p); }
        void set(int *p, int v) { *p = v; }
        void copy(int *p, int v) { *p = v; }
        int main(void) { int me, other, third;
            get(&me); set(&other, 4); copy(&third, me);
            if (me == 0) ; if (other) ; if (third) ; return 0; }""") == [True, False, True]


def test_pointers_alias_their_targets() -> None:
    assert verdicts("""int main(void) { int r, x = 0, y = 0; int *p = &r; int *q = &x;
        MPI_Comm_rank(0, &r);
        *q = r;
        if (*p == 0) ; if (p[0]) ; if (x) ; if (y) ; return 0; }""") == [
        True, True, True, False]


def test_arrays_are_one_object() -> None:
    assert verdicts("""int main(void) { int rank, a[4], b[4], c[4], i = 1;
        MPI_Comm_rank(0, &rank);
        a[3] = rank; b[i] = 2; c[rank] = 1;
        if (a[0]) ; if (b[0]) ; if (c[0]) ; if (b[rank]) ; return 0; }""") == [
        True, False, True, True]


def test_struct_fields_are_multi_valued_by_name_across_functions() -> None:
    rd, ast = analyse("""struct H { int mype; int npes; };
        void init(struct H *H) { MPI_Comm_rank(0, &H->mype); MPI_Comm_size(0, &H->npes); }
        void work(struct H *H) { if (H->mype == 0) ; if (H->npes > 1) ; }
        int main(void) { struct H h; struct H s; init(&h); s.mype = 0;
            if (s.mype) ; work(&h); return 0; }""")
    assert [rd.reason("work", c) is not None for c in conds(ast, "work")] == [True, False]
    assert rd.reason("main", conds(ast, "main")[0]) is not None


def test_globals_are_multi_valued_in_every_function() -> None:
    rd, ast = analyse("""int g_rank; int g_n = 4;
        void setup(void) { MPI_Comm_rank(0, &g_rank); }
        void work(void) { if (g_rank == 0) ; if (g_n) ; }
        int main(void) { setup(); work(); return 0; }""")
    assert [rd.reason("work", c) is not None for c in conds(ast, "work")] == [True, False]
    assert "g_rank" in rd.multi_valued_vars("work")


def test_external_summaries_and_unknown_calls() -> None:
    ext = {"helper": FunctionSummary("helper", "h.c", 3, False, [], True, returns_rank=True)}
    assert verdicts("""int main(void) { int rank, x, y; char buf[8], name[8], line[8] = "1";
        MPI_Comm_rank(0, &rank);
        sscanf(line, "%d", &x); fill(&y, rank); sprintf(buf, "%d", rank);
        printf("%d %s", rank, name);
        if (helper()) ; if (foo(rank)) ; if (foo(3)) ; if (x) ; if (y) ; if (buf[0]) ;
        if (name[0]) ; return 0; }""", external=ext) == [
        True, True, False, False, True, True, False]


def test_a_global_read_after_its_own_assignment_is_that_value() -> None:
    """hdf5's tests: ``pass = TRUE; if (pass) ...`` in each test, while another test
    sets ``pass = FALSE`` on rank 0 alone.  Memory is flow-insensitive; a scalar global
    the function itself just assigned, on its straight line, holds what it stored."""
    prelude = """int pass = 1, other, zero; int *alias = &other;
        void fail_on_root(void) { int rank; MPI_Comm_rank(0, &rank); if (rank == 0) pass = 0;
                                  other = rank; }
        """
    cases = {
        "pass = 1; printf(\"x\"); if (pass) ;": [False],
        "pass = 1; MPI_Barrier(0); if (pass) ;": [False],
        # the value stored, when it differs
        "pass = rank; if (pass) ;": [True],
        # a call that may write it, a write under a test, a loop that writes it, a
        # global whose address is taken
        "pass = 1; fail_on_root(); if (pass) ;": [True],
        "pass = 1; if (rank) pass = 0; if (pass) ;": [True, True],
        "pass = 1; while (pass) { pass = rank; }": [True],
        "other = 1; *alias = rank; if (other) ;": [True],
        # assigned inside a test, or where it may not run: not the straight line
        "if (1) pass = 1; if (pass) ;": [False, True],
        "zero ? (pass = 1) : 0; if (pass) ;": [False, True],
        "zero && (pass = 1); if (pass) ;": [True],
    }
    for body, expected in cases.items():
        got = verdicts(prelude + " int main(void) { int rank; MPI_Comm_rank(0, &rank);"
                       " fail_on_root(); " + body + " return 0; }")
        assert got == expected, body


def test_formatted_output_writes_only_its_destination() -> None:
    """hdf5's h5_fixname: ``snprintf(fullname, size, "%s/%s", prefix, base_name)``
    with a per-process prefix writes fullname, not the strings it formats (their
    parameters are the variadic ``...``, which no prototype declares const)."""
    assert verdicts("""int main(void) { int rank; char out[16], name[8] = "a", *p = name;
        MPI_Comm_rank(0, &rank);
        snprintf(out, 16, "%d/%s", rank, p); sprintf(out, "%d%s", rank, name);
        if (out[0]) ; if (name[0]) ; if (p[0]) ; return 0; }""") == [True, False, False]


def test_library_rank_sources() -> None:
    assert verdicts("""int main(void) { int pid = getpid(); char host[64];
        gethostname(host, 64);
        char *r = getenv("PMI_RANK"); char *h = getenv("HOME");
        if (pid % 2) ; if (host[0] == 'a') ; if (r[0]) ; if (h[0]) ; return 0; }""") == [
        True, True, True, False]


def test_loop_exit_on_a_multi_valued_break_makes_the_counter_multi_valued() -> None:
    """After the loop ``i`` differs (the ranks broke out in different rounds); inside
    it, the ranks still in the loop ran the same rounds and agree on ``i < 10``: the
    break's own test is what differs (statements.visit_While, survivors)."""
    assert verdicts("""int main(void) { int rank, i, n = 0;
        MPI_Comm_rank(0, &rank);
        for (i = 0; i < 10; i++) { if (i == rank) break; }
        for (n = 0; n < 10; n++) ;
        if (i) ; if (n) ; return 0; }""") == [False, True, False, True, False]


def test_goto_uses_weak_updates() -> None:
    assert verdicts("""int main(void) { int x = 0, rank; int y;
        MPI_Comm_rank(0, &rank);
        again: if (y) ; y = rank; x = x + 1;
        if (x < 3) goto again;
        return 0; }""") == [True, False]


def test_gnu_extensions_are_handled_conservatively() -> None:
    assert verdicts("""int main(void) { int rank; MPI_Comm_rank(0, &rank);
        __typeof__(rank) v = __builtin_expect(rank, 0);
        int w __attribute__((unused)) = 3;
        if (v) ; if (w) ; return 0; }""") == [True, False]


def test_reason_on_a_node_not_in_the_walk_uses_the_function_state() -> None:
    rd, _ = analyse("int main(void) { int rank; MPI_Comm_rank(0, &rank); return 0; }")
    probe = c_ast.BinaryOp("==", c_ast.ID("rank"), c_ast.Constant("int", "0"))
    assert rd.reason("main", probe) is not None
    assert rd.reason("main", c_ast.ID("nothing")) is None
    assert rd.multi_valued_vars("main") == {"rank"}


def test_fixed_point_walks_each_function_a_bounded_number_of_times() -> None:
    """A 60-deep call chain passing a pointer and an int down and results back up
    converges in a linear number of function walks (callers first, re-walks only of
    functions that read a location that grew)."""
    chain = "\n".join(
        f"int f{k}(int n, int *a) {{ int x = f{k - 1}(n + 1, a); a[0] = x; return x + n; }}"
        for k in range(1, 60))
    code = ("int f0(int n, int *a) { int r; MPI_Comm_rank(0, &r); a[1] = n; return r; }\n"
            + chain + "\nint main(void) { int v[2]; return f59(1, v); }")
    walks: list[str] = []

    class Counting(RankDependence):
        def _walk_unit(self, unit: str) -> None:
            walks.append(unit)
            super()._walk_unit(unit)

    rd = Counting(GnuCParser().parse(PRELUDE + code), {})
    assert len(walks) <= 3 * 61, len(walks)
    # a summary's facts come from one more solve of the same kind (solver._detached)
    assert rd.returns_rank("main") and rd.returns_rank("f30")
    assert len(walks) <= 2 * 3 * 61, len(walks)


def test_callee_called_under_a_rank_gate_writes_multi_valued_memory() -> None:
    rd, ast = analyse("""int g_n; int g_other;
        void init(void) { int i; for (i = 0; i < 3; i++) g_n = 4; if (i) ; }
        void set_x(int *p) { *p = 1; }
        void later(void) { if (g_n) ; if (g_other) ; }
        int main(void) { int rank, x = 0, y = 0; MPI_Comm_rank(0, &rank);
            g_other = 2;
            if (rank == 0) { init(); set_x(&x); }
            set_x(&y);
            if (x) ; if (y) ; return 0; }""")
    assert [rd.reason("later", c) is not None for c in conds(ast, "later")] == [True, False]
    assert [rd.reason("init", c) is not None for c in conds(ast, "init")] == [False, False]
    assert [rd.reason("main", c) is not None for c in conds(ast, "main")] == [
        True, True, False]


def test_struct_read_by_root_then_broadcast_is_single_valued() -> None:
    assert verdicts("""struct cfg { int iters; double tol; };
        void read_cfg(struct cfg *c) { c->iters = 10; c->tol = 0.5; }
        int main(void) { int rank; struct cfg c;
            MPI_Comm_rank(0, &rank);
            if (rank == 0) read_cfg(&c);
            if (c.iters > 0) ;
            MPI_Bcast(&c, sizeof c, 0, 0, 0);
            if (c.iters > 0) ;
            return 0; }""") == [True, True, False]


def test_global_written_by_function_named_like_the_global_prefix() -> None:
    """A function named ``g``: its writes to the global ``x`` under a rank-dependent
    call are per-process (the global's key once collided with g's own locals)."""
    assert verdicts("""int x;
    void g(void) { x = 5; }
    int main(void) { int r; MPI_Comm_rank(0, &r);
        if (r == 0) g();
        if (x) MPI_Barrier(0);
        return 0; }""") == [True, True]


def test_static_local_of_g_is_not_the_global() -> None:
    """A ``static int x`` inside ``g`` is not the global ``x``."""
    assert verdicts("""int x;
    void g(void) { static int x; int r; MPI_Comm_rank(0, &r); x = r; }
    int main(void) { g(); if (x) MPI_Barrier(0); return 0; }""") == [False]


def test_local_of_function_r_is_not_a_return_slot() -> None:
    """Locals of a function named ``r`` (or ``in``, ``ctl``, ``field``) do not share
    keys with the return value of a function named like the local."""
    assert verdicts("""int y(void) { return 1; }
    void r(void) { int y; int *p = &y; MPI_Comm_rank(0, p); if (y) MPI_Barrier(0); }
    int main(void) { r(); if (y()) MPI_Barrier(0); return 0; }""") == [False]


# -- rank dependence relative to a communicator (package docstring) ---------------------

def test_null_test_of_the_handle_is_uniform_within_its_communicator() -> None:
    rd, ast = analyse("""int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);
    int main(void) { int rank; MPI_Comm c = 0, d = 0;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) c = 5;
        if (c == MPI_COMM_NULL) ;
        return 0; }""".replace("MPI_COMM_NULL", "0"))
    cond = conds(ast, "main")[1]
    assert rd.reason("main", cond) is not None
    # Constant 0 is not MPI_COMM_NULL to this analysis: judged as before.
    assert rd.reason("main", cond, "c") is not None
    rd, ast = analyse("""int MPI_COMM_NULL;
    int main(void) { int rank; MPI_Comm c = 0, d = 0;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) c = 5;
        if (c == MPI_COMM_NULL) ;
        if (d != MPI_COMM_NULL && rank) ;
        return 0; }""")
    null_c, d_and_rank = conds(ast, "main")[1:]
    assert rd.reason("main", null_c) is not None
    assert rd.reason("main", null_c, "c") is None
    assert rd.reason("main", null_c, "d") is not None  # another communicator
    assert rd.reason("main", null_c, "MPI_COMM_WORLD") is not None
    assert rd.reason("main", d_and_rank, "d") is not None  # rank still differs


def test_split_colour_is_uniform_within_the_new_communicator() -> None:
    """P5 (p4est sc_shmem.c): node leaders call a collective on the leaders' comm."""
    prelude = "int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);\n"
    rd, ast = analyse(prelude + """int main(void) { int rank, intra, n, color;
        MPI_Comm node, leaders, other, halves;
        MPI_Comm_rank(0, &rank);
        MPI_Comm_split(0, rank / 4, rank, &node);
        MPI_Comm_rank(node, &intra);
        MPI_Comm_split(0, intra == 0 ? 0 : -32766, rank, &leaders);
        n = 2;
        color = (rank < n);
        MPI_Comm_split(0, color, rank, &halves);
        if (intra == 0) ;
        if (rank < n) ;
        return 0; }""")
    leaders_cond, halves_cond = conds(ast, "main")[-2:]
    assert rd.reason("main", leaders_cond, "leaders") is None
    assert rd.reason("main", leaders_cond, "other") is not None
    assert rd.reason("main", leaders_cond, "halves") is not None
    assert rd.reason("main", halves_cond, "halves") is None
    assert rd.reason("main", halves_cond, "node") is not None


def test_split_colour_rule_needs_single_writes_outside_loops() -> None:
    prelude = "int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);\n"
    rd, ast = analyse(prelude + """int main(void) { int rank, n = 1, i;
        MPI_Comm sub;
        MPI_Comm_rank(0, &rank);
        MPI_Comm_split(0, rank < n, rank, &sub);
        n = 3;
        if (rank < n) ;
        return 0; }""")
    assert rd.reason("main", conds(ast, "main")[-1], "sub") is not None
    rd, ast = analyse(prelude + """int main(void) { int rank, i;
        MPI_Comm sub;
        MPI_Comm_rank(0, &rank);
        for (i = 0; i < 2; i++) MPI_Comm_split(0, rank < i, rank, &sub);
        if (rank < i) ;
        return 0; }""")
    assert rd.reason("main", conds(ast, "main")[-1], "sub") is not None


@pytest.mark.parametrize("arms, uniform", [
    ("1 : 0", True),
    ("1 : 0x1", False),  # one value, two spellings: the members may differ on P
    ("RED : BLUE", True),
    ("RED : ALSO_RED", False),  # enumerators of one value
    ("MPI_COMM_TYPE_SHARED : -32766", True),  # Open MPI: an enumerator, MPI_UNDEFINED
    ("MPI_COMM_TYPE_SHARED : 0", False),  # its value is not in the TU: may be 0
])
def test_split_colours_must_be_provably_different(arms: str, uniform: bool) -> None:
    """``P ? a : b`` as a colour (or a split type) makes P uniform within the new
    communicator only if a and b cannot be equal."""
    prelude = ("int MPI_Comm_split_type(MPI_Comm, int, int, int, MPI_Comm *);\n"
               "enum colour { RED = 2, BLUE, ALSO_RED = 2 };\n")
    rd, ast = analyse(prelude + """int main(void) { int rank;
        MPI_Comm sub;
        MPI_Comm_rank(0, &rank);
        MPI_Comm_split_type(0, rank % 2 == 0 ? ARMS, 0, 0, &sub);
        if (rank % 2 == 0) ;
        return 0; }""".replace("ARMS", arms))
    found = rd.reason("main", conds(ast, "main")[-1], "sub")
    assert (found is None) == uniform, found


def test_root_bounded_by_the_size_of_a_member_only_loop() -> None:
    """MTest: ranks outside the subcommunicator skip; the root loops to its size."""
    rd, ast = analyse("""int MPI_COMM_NULL;
    int next(MPI_Comm *c);
    int main(void) { int rank, size, root; MPI_Comm comm = 0;
        MPI_Comm_rank(0, &rank);
        while (next(&comm)) {
            if (rank == 0) comm = MPI_COMM_NULL;
            if (comm == MPI_COMM_NULL) continue;
            MPI_Comm_size(comm, &size);
            for (root = 0; root < size; root++) ;
        }
        return 0; }""")
    *_, null_test, root_loop = conds(ast, "main")
    # the ranks past the continue agree on the loop, in the world solve too (they
    # all hold a communicator, whose size the solve takes as one value); the null
    # test differs across the world but not within ``comm``
    assert rd.reason("main", root_loop) is None
    assert rd.reason("main", root_loop, "comm") is None
    assert rd.reason("main", null_test) is not None
    assert rd.reason("main", null_test, "comm") is None


@pytest.mark.parametrize(("text", "field"), [
    ("x->typed->comm", "comm"),
    ("((content *) x->content)->comm", "comm"),       # SUNDIALS: a void * field, cast
    ("((N_VectorContent_MPIManyVector)(x->content))->comm", "comm"),
    ("((T) a ? b : c)->comm", None),                   # not a plain object: the world
    ("(a + b)->comm", None),
])
def test_communicator_handle_locations(text: str, field: str | None) -> None:
    from mpicc_wrap.analysis.rankdep.communicators import comm_location
    from mpicc_wrap.analysis.rankdep.locations import Field

    assert comm_location(None, text, {}) == (Field(field) if field else None)



# Open MPI spells a predefined handle as a library global's address under a cast to the
# handle type (PRELUDE's MPI_Datatype stands in for Open MPI's pointer typedef).
OMPI_INT = "((MPI_Datatype) ((void *) &(ompi_mpi_int)))"
OMPI_GLOBALS = """\
struct ompi_predefined_t { int opaque[32]; };
extern struct ompi_predefined_t ompi_mpi_int;
void send_own(int *, int, MPI_Datatype); int count_of(int, MPI_Datatype);
void send_raw(int *, int, void *); int count_raw(int, void *);
"""


def test_an_open_mpi_handle_object_holds_no_data_of_the_program() -> None:
    """An unknown call given ``MPI_INT`` and the rank does not make the datatype object
    per-process, nor the result of every later unknown call given ``MPI_INT``
    (``pointsto.handle_cast``)."""
    assert verdicts(OMPI_GLOBALS + f"""
    int main(void) {{
        int rank, x;
        MPI_Comm_rank(0, &rank);
        send_own(&x, rank, {OMPI_INT});
        if (count_of(1, {OMPI_INT})) MPI_Barrier(0);
        if (x) MPI_Barrier(0);
        return 0;
    }}""") == [False, True]


def test_a_cast_to_another_pointer_type_still_carries_its_data() -> None:
    """Only MPI's handle types are opaque: the same calls with a plain pointer still
    pass the per-process data on."""
    assert verdicts(OMPI_GLOBALS + """
    int main(void) {
        int rank, x;
        MPI_Comm_rank(0, &rank);
        send_raw(&x, rank, (void *) &ompi_mpi_int);
        if (count_raw(1, (void *) &ompi_mpi_int)) MPI_Barrier(0);
        return 0;
    }""") == [True]


CONTIGUOUS = """
int MPI_Type_contiguous(int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_commit(MPI_Datatype *);
int main(void) {
    int rank; long loc[3], glb[3]; MPI_Datatype t;
    MPI_Comm_rank(0, &rank);
    glb[2] = rank;
    loc[0] = loc[1] = loc[2] = rank;
    MPI_Type_contiguous(K, 0, &t);
    MPI_Type_commit(&t);
    SPOIL;
    MPI_Allreduce(loc, glb, 1, t, 0, 0);
    if (glb[2]) MPI_Barrier(0);
    return 0;
}"""


@pytest.mark.parametrize("k, spoil, uniform", [
    ("3", "", True),  # one item of 3 elements covers glb[3]
    ("2", "", False),  # two elements: glb[2] keeps the rank
    ("3", "t = 0", False),  # t is not (only) the contiguous type
    ("3", "MPI_Type_contiguous(2, 0, &t)", False),  # the smaller of two builds
    ("0x3", "", True),  # a hexadecimal count
    ("010", "", False),  # octal eight, not read: one element, as for any unknown count
])
def test_an_item_of_a_contiguous_type_covers_its_elements(k: str, spoil: str,
                                                           uniform: bool) -> None:
    """Scotch's ``MPI_Allreduce(loc, glb, 1, t, op, comm)`` over a contiguous type of 6
    elements overwrites all of ``glb[6]`` (``rankdep/datatypes.py``)."""
    body = CONTIGUOUS.replace("K", k).replace("SPOIL", spoil or "(void) 0")
    assert verdicts(body) == [not uniform]


SURVIVORS = """
int g;
int after(void) { return g; }
int step(void) {
    int rank, n;
    MPI_Comm_rank(0, &rank);
    if (rank == 0) return 1;
    n = foo(1);
    g = n;
    if (n) MPI_Barrier(0);
    GOTO;
    return n;
}
int main(void) {
    if (step()) MPI_Barrier(0);
    if (after()) MPI_Barrier(0);
    return 0;
}"""


def test_the_processes_that_stay_after_a_return_agree_on_their_locals() -> None:
    """After ``if (rank == 0) return``, the ranks that stay compute ``n`` alike; what
    outlives the call (the global, the result) still differs from the ranks that left."""
    body = SURVIVORS.replace("GOTO;", "")
    assert verdicts(body, "step") == [True, False]
    assert verdicts(body, "main") == [True, True]


def test_a_function_with_goto_keeps_gating_its_locals_after_a_return() -> None:
    body = SURVIVORS.replace("GOTO;", "goto out; out:")
    assert verdicts(body, "step") == [True, True]


LEAVERS = """int main(void) { int rank, i, k = 0, buf[10];
    MPI_Comm_rank(0, &rank);
    MPI_Bcast(buf, 10, 0, 0, 0);
    for (i = 0; i < 10; i++) {
        if (buf[i] == rank) EXIT;
        k = i * 2;
        if (k > 4) MPI_Barrier(0);
    }
    if (k) ;
    return 0; }"""


@pytest.mark.parametrize("exit_", ["break", "continue"])
def test_the_processes_still_in_a_loop_agree_on_its_locals(exit_: str) -> None:
    """After a per-process break the ranks still in the loop ran the same rounds: ``k``
    is single-valued inside and per-process after the loop.  After a continue, the
    ranks that run the rest of the round agree on ``k`` there too, and those that
    skipped it come back at the loop's head with the old ``k``: per-process from the
    next round on, and after the loop (``statements._skipping``).  Either way the
    loop's counter ``i``, which every rank steps alike, is single-valued in its test
    (a continue gates no later round: ``statements._leaving``)."""
    assert verdicts(LEAVERS.replace("EXIT", exit_)) == [False, True, False, True]


CONTINUED = """int main(void) { int rank, i, k = 0, last = 0;
    MPI_Comm_rank(0, &rank);
    for (i = 0; i < 4; i++) {
        if (last > 2) MPI_Barrier(0);
        if (i == rank) continue;
        k = i * 2;
        if (k > 4) MPI_Barrier(0);
        last = k;
    }
    return 0; }"""


def test_what_the_rest_of_a_round_writes_differs_in_the_next() -> None:
    """``last`` is written after a per-process continue: the ranks that run that part
    agree on it, but at the next round's head the ranks that skipped it hold the old
    value, so ``last > 2`` (read before the continue) is per-process."""
    assert verdicts(CONTINUED) == [False, True, True, False]


def test_a_break_out_of_a_switch_gates_the_locals_written_after_it() -> None:
    """``break`` under a per-process test inside a case: the ranks that stay in the
    case agree on ``y`` there, but after the switch the others never wrote it."""
    assert verdicts("""int main(void) { int rank, y = 0, x = foo(1);
        MPI_Comm_rank(0, &rank);
        switch (x) { case 1: { if (rank) break; y = 2; if (y) ; } }
        if (y) ;
        return 0; }""") == [False, True, False, True]


CASES = """int main(void) { int rank, y = 0, x = 0, k = foo(1);
    MPI_Comm_rank(0, &rank);
    switch (k) {
    case 1: x = rank; END
    case 2: y = x; break;
    default: break;
    }
    if (y) ;
    if (x) ;
    return 0; }"""


@pytest.mark.parametrize(("end", "expected"), [
    ("break;", [False, False, True]),  # case 2 starts from the switch's entry
    ("return 0;", [False, False, False]),
    ("{ foo(2); break; }", [False, False, True]),
    ("goto out; out: ;", [False, True, True]),  # the label falls through to case 2
    ("", [False, True, True]),  # falls through: y = x reads the rank
    ("if (k) break;", [False, False, True, True]),  # may fall through
])
def test_a_case_after_a_jump_starts_from_the_switch_entry(end: str,
                                                          expected: list[bool]) -> None:
    """What a case writes before its ``break`` reaches the end of the switch, not the
    next case; a case it falls into does see it.  Verdicts: the switch's test,
    ``if (y)``, ``if (x)``."""
    assert verdicts(CASES.replace("END", end)) == expected


def test_a_break_inside_a_loop_in_a_case_stays_in_the_loop() -> None:
    """A loop's ``break`` leaves the loop, not the case: the case falls through."""
    assert verdicts("""int main(void) { int rank, y = 0, x = 0, k = foo(1), i;
        MPI_Comm_rank(0, &rank);
        switch (k) {
        case 1: x = rank; for (i = 0; i < 3; i++) break;
        case 2: y = x; break;
        }
        if (y) ;
        return 0; }""") == [False, False, True]


# -- memory that a function called by some ranks only may write --------------------------

CALLED_BY_ROOT = """
struct buf { int mode; int pos; };
STORAGE
static int pack(void) { STATIC_LOCAL b.mode = 3; b.pos = 0; return 0; }
int main(void) {
    int rank; struct buf f; f.mode = 1;
    MPI_Comm_rank(0, &rank);
    if (rank == 0) pack();
    if (f.mode) MPI_Barrier(0);
    return 0;
}"""


@pytest.mark.parametrize("storage,static_local,multi", [
    ("", "struct buf b;", False),  # pnetcdf's putbuf: memory of the call
    ("", "static struct buf b;", True),  # outlives the call: rank 0's values stay
    ("struct buf b;", "", True),  # a global b: the same
])
def test_fields_of_a_local_struct_are_memory_of_the_call(storage: str, static_local: str,
                                                         multi: bool) -> None:
    """A function rank 0 alone calls fills a local ``struct buf b``: fields are shared
    by struct type and name, so the gate it is called under made the ``mode`` field
    of every ``struct buf`` per-process (``Expressions._field_kind``); a static or
    global ``b`` keeps the gate."""
    src = CALLED_BY_ROOT.replace("STORAGE", storage).replace("STATIC_LOCAL", static_local)
    assert verdicts(src) == [True, multi]


def test_an_enumerator_is_a_constant_no_call_writes() -> None:
    """An unknown call given an enumerator, in a function rank 0 alone calls, does not
    make the enumerator per-process, nor every later call given it (pnetcdf's
    ``ncmpix_put_uint32(&pos, NC_UNSPECIFIED)``, ``locations.enumerators``)."""
    assert verdicts("""enum tag { UNSPECIFIED, VARIABLE = 11 };
    void put(int *, int); int size_of(int);
    static void emit(int *pos) { put(pos, VARIABLE); }
    int main(void) {
        int rank, pos = 0;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) emit(&pos);
        if (size_of(VARIABLE)) MPI_Barrier(0);
        return 0;
    }""") == [True, False]


# pnetcdf's ``ncmpii_xlen_nc_type(attrp->xtype, &xsz)`` in a function rank 0 alone
# calls, then a test of the same field: DECLS, the parameter type T, the object's
# struct type OBJ and its field F
XLEN_UNDER_ROOT = """#include <mpi.h>
    #include <time.h>
    DECLS
    int xlen(T t, int *size); int kind_of(T t, int *out);
    OBJ *objs;
    static int size_of(OBJ *o) { int xsz; xlen(o->F, &xsz); return xsz; }
    int main(int argc, char **argv) {
        int rank, k;
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) size_of(objs);
        if (kind_of(objs->F, &k)) MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }"""


@pytest.mark.parametrize(("decls", "param", "obj", "field", "unprototyped"), [
    # the field's own declaration says it is a number, too (layouts.field_type)
    ("typedef int nc_type; struct attr { nc_type xtype; };", "nc_type", "struct attr",
     "xtype", []),
    # the frontend blanks system headers, so the type of t->tm_year is not known:
    # without the prototype's word, the field is per-process
    ("", "int", "struct tm", "tm_year", ["MPI_Barrier"]),
])
def test_no_call_writes_through_an_argument_of_an_arithmetic_parameter(
        decls: str, param: str, obj: str, field: str, unprototyped: list[str]) -> None:
    """The prototype says the first argument is a number (``frontend/prototypes.py``),
    so the fields it is given stay single-valued."""
    tu = parse_source(XLEN_UNDER_ROOT.replace("DECLS", decls).replace("OBJ", obj)
                      .replace("T t", f"{param} t").replace("->F", f"->{field}"))
    assert tu.const_params["xlen"] == {0}
    assert [f.collective for f in unit.analyse(tu, {}).findings] == []
    tu.const_params.clear()
    assert [f.collective for f in unit.analyse(tu, {}).findings] == unprototyped


# hdf5's selection iterators (H5Sselect.c): a method called through a field with a
# per-process argument; KIND is the field's declarator
THROUGH_A_FIELD = """#include <mpi.h>
    struct space;
    typedef int (*count_fn)(const struct space *, int);
    typedef int count_type(const struct space *, int);
    struct klass { KIND; };
    struct other { int (*count)(const struct space *, int, int); };
    struct space { int mode; const struct klass *type; };
    struct space *sp;
    struct other *other;
    int main(int argc, char **argv) {
        int rank;
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        CALL;
        if (sp->mode) MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }"""


@pytest.mark.parametrize(("kind", "call"), [
    ("int (*count)(const struct space *, int)", "sp->type->count(sp, rank)"),
    ("count_fn count", "(*sp->type->count)(sp, rank)"),
    ("count_type *count", "(**sp->type->count)(sp, rank)"),
])
def test_a_call_through_a_field_spares_what_its_prototype_makes_const(
        kind: str, call: str) -> None:
    """The field's function-pointer type, directly or through either kind of typedef,
    says the method cannot write the object it is given (prototypes.py); without it
    the object's mode is per-process."""
    tu = parse_source(THROUGH_A_FIELD.replace("KIND", kind).replace("CALL", call))
    assert tu.const_params[".count"] == {0, 1}  # another struct's count agrees on these
    assert [f.collective for f in unit.analyse(tu, {}).findings] == []
    tu.const_params.pop(".count")
    assert [f.collective for f in unit.analyse(tu, {}).findings] == ["MPI_Barrier"]


def test_a_field_two_structs_declare_differently_keeps_what_both_make_const() -> None:
    tu = parse_source(THROUGH_A_FIELD.replace("KIND", "int (*count)(struct space *, int)")
                      .replace("CALL", "sp->type->count(sp, rank)"))
    assert tu.const_params[".count"] == {1}  # the object is written by one of them
    assert [f.collective for f in unit.analyse(tu, {}).findings] == ["MPI_Barrier"]


def test_a_callees_rank_writes_spare_its_const_parameters() -> None:
    """hdf5's ``H5S_mpio_space_type(const H5S_t *space, ...)``: its summary says it
    writes ``*space`` per-process (through a call it could not see); the prototype
    says it cannot, as for the writes derived from arguments."""
    src = """struct s { int mode; } obj;
    void take(const struct s *p, int *out);
    int main(void) { int n; take(&obj, &n); if (obj.mode) ; if (n) ; return 0; }"""
    ext = {"take": FunctionSummary("take", "t.c", 1, False, [], True, rank_writes=[
        "p0:1", "p1:1"], writes=["p0:1", "p1:1"])}
    assert verdicts(src, external=ext, const_params={"take": frozenset({0})}) == [
        False, True]
    assert verdicts(src, external=ext) == [True, True]


# A value the root sends and the others receive, in the two arms of a test of the
# rank (exchanges.py); ROOT and OTHERS are the arms, then ``if (len)``
EXCHANGE = """int main(void) { int rank, len = 0, other = 0, i, flag;
    MPI_Comm_rank(0, &rank);
    if (rank == 0) { ROOT } else { OTHERS }
    if (len) ; return 0; }"""


@pytest.mark.parametrize(("root", "others", "multi"), [
    ("len = 3; MPI_Bcast(&len, 1, 1, 0, 0);", "MPI_Bcast(&len, 1, 1, 0, 0);", False),
    # the root's broadcast under its own test of the value (hdf5's getenv_all)
    ("if (foo(1)) { len = 3; MPI_Bcast(&len, 1, 1, 0, 0); MPI_Bcast(&other, 1, 1, 0, 0); }"
     " else { len = -1; MPI_Bcast(&len, 1, 1, 0, 0); }",
     "MPI_Bcast(&len, 1, 1, 0, 0); if (len >= 0) MPI_Bcast(&other, 1, 1, 0, 0);", False),
    ("MPI_Allreduce(&rank, &len, 1, 1, 1, 0);", "MPI_Allreduce(&rank, &len, 1, 1, 1, 0);",
     False),
    # the two broadcasts swapped: the others' len is the root's other
    ("MPI_Bcast(&other, 1, 1, 0, 0); MPI_Bcast(&len, 1, 1, 0, 0);",
     "MPI_Bcast(&len, 1, 1, 0, 0); MPI_Bcast(&other, 1, 1, 0, 0);", True),
    ("MPI_Bcast(&len, 1, 1, 0, 0);", "MPI_Bcast(&len, 1, 1, 1, 0);", True),  # roots
    ("MPI_Bcast(&len, 1, 1, 0, 0);", "MPI_Bcast(&len, 1, 1, 0, 1);", True),  # comms
    ("MPI_Bcast(&len, 1, 1, 0, 0);", "MPI_Bcast(&len, 1, 1, 0, 0); len++;", True),
    ("MPI_Bcast(&len, 1, 1, 0, 0);", "len = 4;", True),
    # a collective in a loop first: the positions are not known
    ("for (i = 0; i < 2; i++) MPI_Barrier(0); MPI_Bcast(&len, 1, 1, 0, 0);",
     "MPI_Barrier(0); MPI_Barrier(0); MPI_Bcast(&len, 1, 1, 0, 0);", True),
    # the root's broadcast under a test whose arms make different counts before it
    ("if (foo(1)) MPI_Barrier(0); MPI_Bcast(&len, 1, 1, 0, 0);",
     "MPI_Bcast(&len, 1, 1, 0, 0);", True),
    ("flag = foo(2); MPI_Bcast(&len, 1, 1, 0, 0);", "MPI_Bcast(&len, 1, 1, 0, 0);", False),
])
def test_a_value_exchanged_in_both_arms_is_the_roots(root: str, others: str,
                                                      multi: bool) -> None:
    assert verdicts(EXCHANGE.replace("ROOT", root).replace("OTHERS", others))[-1] is multi


def test_a_value_cast_to_an_arithmetic_type_points_to_nothing() -> None:
    """Scotch's ``memAllocGroup(&p, (size_t) (g->n * sizeof (Gnum)), ..., NULL)``: the
    sizes are variadic, so no prototype covers them; what a per-process call stored
    through the field ``n`` as if it were a pointer no longer flows into the result
    through ``(unsigned long) g->n`` (``PointsTo._no_pointer``), nor, now that the
    field's declaration is read (``layouts.field_type``), through ``g->n`` itself."""
    assert verdicts("""struct graph { long n; } *g;
    int log_it(const char *, ...); void *group(void **, ...);
    int main(void) {
        int rank; void *a;
        MPI_Comm_rank(0, &rank);
        if (rank == 0) log_it("%ld", g->n);
        if (group(&a, (unsigned long) g->n, 0) == 0) MPI_Barrier(0);
        if (group(&a, g->n, 0) == 0) MPI_Barrier(0);
        return 0;
    }""") == [True, False, False]


@pytest.mark.parametrize(("calls", "multi"), [
    ("if (me == 0) mark(st);", True),  # a pointer the caller does not track
    ("mark(st);", False),  # every process makes the call
    ("if (me == 0) keep(st); mark(st);", False),  # the gated call writes nothing
    ("if (me == 0) { state *t = st; mark(t); }", True),
])
def test_fields_written_through_a_parameter_under_a_gated_call(calls: str,
                                                               multi: bool) -> None:
    """A callee's ``param->f = ...`` happens on the processes that call it: a caller
    gating the call with a pointer it does not track itself makes ``f`` per-process
    (``Expressions._outside``; silent before the fourteenth session)."""
    body = """typedef struct { int flags; } state;
    static void mark(state *s) { s->flags = 4; }
    static void keep(state *s) { (void) s; }
    void update(state *st) {
        int me;
        MPI_Comm_rank(0, &me);
        CALLS
        if (st->flags) MPI_Barrier(0);
    }
    """.replace("CALLS", calls)
    assert verdicts(body, "update")[-1] is multi


@pytest.mark.parametrize(("main", "expected"), [
    # main tracks c itself: the broadcast makes it single-valued again
    ("struct cfg c; if (rank == 0) load(&c); MPI_Bcast(&c, sizeof c, 0, 0, 0);"
     " if (c.iters > 0) MPI_Barrier(0);", [True, False]),
    # a pointer main does not track: the fields read_cfg writes two calls down differ
    ("struct cfg *p = make(); if (rank == 0) load(p); if (p->iters > 0) MPI_Barrier(0);",
     [True, True]),
])
def test_gated_fields_two_calls_down(main: str, expected: list[bool]) -> None:
    assert verdicts("""struct cfg { int iters; double tol; };
        struct cfg *make(void);
        void read_cfg(struct cfg *c) { c->iters = 10; c->tol = 0.5; }
        void load(struct cfg *c) { read_cfg(c); }
        int main(void) { int rank;
            MPI_Comm_rank(0, &rank);
            MAIN
            return 0; }""".replace("MAIN", main)) == expected


@pytest.mark.parametrize(("code", "test", "multi"), [
    # a local destructor sets the handle to the null handle: the same everywhere
    ("h = (MPI_Info) me; MPI_Info_free(&h);", "h == 0", False),
    ("t = (MPI_Datatype) me; MPI_Type_free(&t);", "t == 0", False),
    # ... but only on the processes that make the call
    ("h = 7; if (me == 0) MPI_Info_free(&h);", "h == 0", True),
])
def test_local_destructors_leave_the_null_handle(code: str, test: str, multi: bool) -> None:
    body = f"""typedef int MPI_Info;
    int MPI_Info_free(MPI_Info *); int MPI_Type_free(MPI_Datatype *);
    int main(void) {{ int me; MPI_Info h; MPI_Datatype t; MPI_Comm_rank(0, &me);
        {code}
        if ({test}) MPI_Barrier(0);
        return 0; }}"""
    assert verdicts(body)[-1] is multi
