"""Fields by struct type and name (analysis/rankdep/layouts.py): a per-process write
to the field ``n`` of one struct type leaves the ``n`` of another type alone, and
every way of reaching the same type, or a type not known, still sees it."""

from __future__ import annotations

import pytest
from pycparser import c_ast
from pycparserext.ext_c_parser import GnuCParser
from test_rankdep import PRELUDE, verdicts

from mpicc_wrap.analysis.rankdep.layouts import Layouts, local_types

# fftw3's mpi/dft-rank-geq2.c, reduced: a kernel tensor (iodim.n) written at an
# address that differs between processes; the distributed sizes (ddim.n) are not.
TYPES = """
typedef struct { int n; int is; } iodim;
typedef struct { int rnk; iodim dims[1]; } tensor;
typedef struct { int n; int b[2]; } ddim;
typedef struct dtensor_s { int rnk; ddim dims[1]; } dtensor;
typedef struct { dtensor *sz; int comm; } problem;
typedef dtensor *dtensor_p;
tensor *mktensor(int);
dtensor *the_dtensor(void);
"""
PUN = "union pun { iodim as_io; ddim as_d; };\n"

WRITE = """
void plan(problem *p) {
    int me; tensor *sz = mktensor(2);
    MPI_Comm_rank(0, &me);
    sz->dims[me].n = p->sz->dims[0].n;
    if (READ) MPI_Barrier(0);
}
"""


@pytest.mark.parametrize(("read", "multi"), [
    ("p->sz->dims[0].n", False),  # ddim.n: another type
    ("p->sz->rnk", False),
    ("sz->dims[0].n", True),  # iodim.n, through the same variable
    ("mktensor(1)->dims[0].n", True),  # through a function's result
    ("((tensor *) p)->dims[0].n", True),  # through a cast
    ("(*sz).dims[0].n", True),
    ("undeclared()->n", True),  # a type not known: any type's n
])
def test_a_field_is_one_location_per_struct_type(read: str, multi: bool) -> None:
    assert verdicts(TYPES + WRITE.replace("READ", read), func="plan") == [multi]


@pytest.mark.parametrize("write", [
    "undeclared()->n = me;",  # the owner is not known: every type's n
    "pun_of(me)->as_d.n = me;",  # ddim is a union member: read through either type
])
def test_a_write_of_an_unknown_or_punned_type_reaches_every_type(write: str) -> None:
    src = TYPES + PUN + """
    union pun *pun_of(int);
    void plan(problem *p) {
        int me;
        MPI_Comm_rank(0, &me);
        WRITE
        if (p->sz->dims[0].n) MPI_Barrier(0);
    }""".replace("WRITE", write)
    assert verdicts(src, func="plan") == [True]


def _owners(src: str, strict: bool = True) -> dict[str, str]:
    """The owner of each field access of function ``f``, by its C text."""
    from mpicc_wrap.frontend.positions import c_text

    ast = GnuCParser().parse(PRELUDE + TYPES + src)
    layouts = Layouts(ast.ext, strict)
    defn = next(n for n in ast.ext if isinstance(n, c_ast.FuncDef) and n.decl.name == "f")
    params = getattr(defn.decl.type.args, "params", None) or []
    decls: list[c_ast.Decl] = []

    class Decls(c_ast.NodeVisitor):
        def visit_Decl(self, node: c_ast.Decl) -> None:
            decls.append(node)

    Decls().visit(defn.body)
    scope = local_types(params, decls)
    found: dict[str, str] = {}

    class Refs(c_ast.NodeVisitor):
        def visit_StructRef(self, node: c_ast.StructRef) -> None:
            found[c_text(node)] = layouts.owner(node, scope)
            self.generic_visit(node)

    Refs().visit(defn.body)
    return found


def test_owners_follow_typedefs_tags_pointers_and_results() -> None:
    owners = _owners("""
    void f(dtensor_p d, struct dtensor_s *t, problem p) {
        tensor local[2];
        d->rnk; t->rnk; p.sz->dims[0].n; local[1].rnk; the_dtensor()->rnk;
        p.comm;
    }""")
    assert owners["d->rnk"] == "dtensor_s"  # typedef of a pointer to a tagged struct
    assert owners["t->rnk"] == "dtensor_s"  # the tag itself
    assert owners["p.sz->dims[0].n"] == "ddim"  # untagged: its typedef name
    assert owners["p.sz"] == "problem"
    assert owners["local[1].rnk"] == "tensor"
    assert owners["the_dtensor()->rnk"] == "dtensor_s"


def test_owners_are_unknown_where_the_rule_does_not_hold() -> None:
    src = PUN + """
    void f(int which) {
        union pun u; dtensor d;
        u.as_io.n; mystery()->n;
        if (which) { tensor x; x.rnk; } else { dtensor x; x.rnk; }
        d.rnk;
    }"""
    owners = _owners(src)
    assert owners["u.as_io.n"] == ""  # iodim is a union member
    assert owners["u.as_io"] == "pun"
    assert owners["mystery()->n"] == ""  # an undeclared function
    assert owners["x.rnk"] == ""  # one name, two types in two blocks
    assert owners["d.rnk"] == "dtensor_s"
    # a K&R parameter hides the global of its name; its type is declared apart
    assert _owners("tensor *g; int f(g) dtensor *g; { return g->rnk; }")["g->rnk"] == ""
    # a local pointer to a function hides the function of its name
    local = "void f(void) { tensor *(*the_dtensor)(void) = 0; the_dtensor()->rnk; }"
    assert _owners(local)["the_dtensor()->rnk"] == ""
    # -fno-strict-aliasing: the user may pun one struct type through another
    assert set(_owners(src, strict=False).values()) == {""}


def test_a_field_declared_a_number_points_to_nothing() -> None:
    """Scotch's ``buf + grafptr->baseval``: the offset is an integer field, so a
    per-process write through the sum reaches ``out`` only, not what the field
    "points to", which every other ``tab + g->base`` would read."""
    assert verdicts("""
    typedef long Gnum;
    struct graph { Gnum base; int *tab; };
    void put(int *p, int v);
    int main(void) {
        struct graph g; int rank, out[8], in[8] = {0}; int *view;
        g.base = 1;
        MPI_Comm_rank(0, &rank);
        put(out + g.base, rank);
        view = in + g.base;
        if (*view) MPI_Barrier(0);
        if (out[1]) MPI_Barrier(0);
        return 0;
    }""") == [False, True]


@pytest.mark.parametrize(("pick", "multi"), [
    ("mode ? fill_one : fill_two", False),  # either function: neither writes the rank
    ("rank ? fill_one : fill_two", True),  # which one runs differs between processes
    ("mode ? chosen : fill_two", True),  # a pointer variable: any function
])
def test_a_call_through_a_choice_of_two_functions_is_a_call_of_each(pick: str,
                                                                   multi: bool) -> None:
    """Scotch's ``(ptop ? dgraphBand2Ptop : dgraphBand2Coll)(grafptr, ...)``: both
    callees are known, so the call does what either does (``Expressions._either``),
    not what a call through an unknown pointer given per-process data may do."""
    assert verdicts("""
    static void fill_one(int *out, const int *in) { *out = 1; }
    static void fill_two(int *out, const int *in) { *out = 2; }
    int mode; void (*chosen)(int *, const int *);
    int main(void) {
        int rank, x = 0, v;
        MPI_Comm_rank(0, &rank);
        v = rank;
        (PICK)(&x, &v);
        if (x) MPI_Barrier(0);
        return 0;
    }""".replace("PICK", pick))[-1] == multi  # the first: the choice itself


UNION = """
union word { int i; float f; char *p; };
struct holder { union word w; int n; };
struct tagged { int kind; union { int as_int; struct { float lo, hi; }; }; };
union word *word_of(int);
void f(struct holder *h, union word *u, struct tagged *t) {
    int me;
    MPI_Comm_rank(0, &me);
    WRITE
    if (READ) MPI_Barrier(0);
}
"""


@pytest.mark.parametrize(("write", "read", "multi"), [
    ("u->i = me;", "u->f > 0", True),  # type punning: the bytes of i, read as f
    ("h->w.i = me;", "h->w.f > 0", True),  # a union inside a struct
    ("word_of(me)->i = me;", "u->p != 0", True),  # another object of the same union
    ("undeclared()->i = me;", "u->f > 0", True),  # an unknown owner's i may be a word's
    ("u->i = me;", "undeclared()->f > 0", True),  # an unknown owner's f may be a word's
    ("u->i = me;", "h->n", False),  # a member of the struct, not of the union
    ("t->as_int = me;", "t->hi > 0", True),  # an anonymous union inside a struct
    ("t->as_int = me;", "t->kind", False),  # the struct's own member
    # lo and hi do not overlap each other, only as_int: one location for the whole
    # union is sound but merges them too
    ("t->lo = me;", "t->hi > 0", True),
])
def test_the_members_of_a_union_are_one_location(write: str, read: str, multi: bool) -> None:
    src = UNION.replace("WRITE", write).replace("READ", read)
    assert verdicts(src, func="f") == [multi]


def test_a_union_members_location_lists_its_members() -> None:
    ast = GnuCParser().parse("typedef union { int b; double a; } num;\n"
                             "union tagged { int x; };\nstruct plain { int b; };\n"
                             "struct mixed { int k; union { int u; struct { int v, w; }; }; };\n")
    layouts = Layouts(ast.ext)
    assert layouts.member("a", "num") == "|a|b" and layouts.member("x", "tagged") == "|x"
    assert layouts.member("b", "plain") == "b" and layouts.member("b", "") == "b"
    assert [layouts.member(m, "mixed") for m in "kuvw"] == ["k"] + ["|u|v|w"] * 3
