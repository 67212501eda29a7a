"""Large numeric tables shrunk before parsing (frontend/tables.py)."""

from __future__ import annotations

from pathlib import Path

from analysis_helpers import parse_source
from pycparser import c_ast

from mpicc_wrap.frontend.tables import MIN_TABLE, shrink


def _table(prefix: str, rows: int, row: str = "{ 72, 2, { 9, 8 } },\n") -> str:
    return prefix + "{\n" + row * rows + "};\nint after = 1;\n"


def _same_shape(a: str, b: str) -> bool:
    """The same lines, and what follows the table at the same line and column."""
    after = a.rindex("};")
    line = a.count("\n", 0, after)
    column = after - a.rfind("\n", 0, after)
    at = b.rindex("};")
    return (a.count("\n") == b.count("\n") and b.count("\n", 0, at) == line
            and at - b.rfind("\n", 0, at) == column and a[after:] == b[at:])


def test_a_large_number_table_becomes_one_zero_with_lines_kept() -> None:
    text = _table("T tests[] = ", MIN_TABLE // 10)
    got = shrink(text)
    assert got.startswith("T tests[] = {0\n") and got.endswith("};\nint after = 1;\n")
    assert set(got[got.index("{") + 1:got.index("}")]) == {"\n", "0"}
    assert _same_shape(text, got) and len(got) < len(text) // 10


def test_hex_float_suffix_and_signed_literals_are_numbers() -> None:
    text = _table("double t[] = ", MIN_TABLE // 20, "0x1Fu, -1.5e-3f, .25, +7UL, 3-1,\n")
    assert shrink(text) != text


def test_small_tables_and_tables_with_names_are_parsed_as_written() -> None:
    small = "int t[] = { 1, 2, 3 };\n"
    assert shrink(small) == small
    named = _table("int t[] = ", MIN_TABLE // 10, "{ 72, rank, { 9, 8 } },\n")
    assert shrink(named) == named
    hexlike = _table("int t[] = ", MIN_TABLE // 10, "{ 72, face, { 9, 8 } },\n")
    assert shrink(hexlike) == hexlike
    strings = _table("const char *t[] = ", MIN_TABLE // 10, '"1", "2",\n')
    assert shrink(strings) == strings


def test_a_static_table_of_enumerators_is_shrunk_and_other_names_are_not() -> None:
    """``static``: a constant initialiser, where an enumerator is its constant."""
    enum = "enum cat { CAT_LU = 1, CAT_LL, CAT_X = (3) };\n"
    row = "{ CAT_LU, (65535), -1, { CAT_LL, 0 } },\n"
    table = _table(enum + "static const struct p props[] = ", MIN_TABLE // 10, row)
    got = shrink(table)
    assert got.startswith(enum + "static const struct p props[] = {0\n")
    assert _same_shape(table, got)
    for other in (_table(enum + "const struct p props[] = ", MIN_TABLE // 10, row),
                  _table(enum + "static int t[] = ", MIN_TABLE // 10, "{ CAT_LU, rank },\n"),
                  _table("static int t[] = ", MIN_TABLE // 10, row)):
        assert shrink(other) == other  # not static; a variable; no such enumerator


def test_a_table_on_one_line_keeps_its_length() -> None:
    text = "static int t[] = {" + "1, " * MIN_TABLE + "}; int x;"
    got = shrink(text)
    assert got.startswith("static int t[] = {0 ") and len(got) == len(text)
    assert got.endswith("}; int x;")


def test_an_unclosed_or_statement_brace_is_left_alone() -> None:
    text = "x = {" + "1, " * MIN_TABLE + "; y = 2;"
    assert shrink(text) == text


def test_the_parser_sees_the_corpus_table_as_one_element() -> None:
    corpus = Path(__file__).parent.parent / "corpus" / "buggy_after_a_large_constant_table.c"
    tu = parse_source(corpus.read_text())
    table = next(n for n in tu.ast.ext if isinstance(n, c_ast.Decl) and n.name == "table")
    assert isinstance(table.init, c_ast.InitList) and len(table.init.exprs) == 1
