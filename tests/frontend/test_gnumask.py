"""Position-preserving masking of syntax pycparser rejects."""

from __future__ import annotations

import pytest

from mpicc_wrap.frontend.gnumask import mask

CASES = [
    ("a = __builtin_offsetof(struct P,\n b) + c;", "a = 0" + " " * 27 + "\n    + c;"),
    ("x = __extension__ y;", "x =               y;"),
    ("r = x ?: 1;", "r = x || 1;"),
    ("r = x ? : 1;", "r = x ||  1;"),
    ("__signed__ char c;", "signed     char c;"),
    ("case 1: __attribute__((fallthrough)); case 2:", "case 1: " + " " * 28 + "; case 2:"),
    ("[[nodiscard]] int f(int a[2]);", "              int f(int a[2]);"),
    ("int y = _Generic(x, int: 1, default: 2);", "int y = 0                              ;"),
    ("f(/* c */ 1); // d\n", "f(        1);     \n"),
    ('s = "// not a comment ?: x";', 's = "// not a comment || x";'),
    ("__label__ out, again; goto out;", "                      goto out;"),
    ("plain(a ? b : c);", "plain(a ? b : c);"),
]


@pytest.mark.parametrize(("text", "want"), CASES)
def test_mask_keeps_length_and_lines(text: str, want: str) -> None:
    got = mask(text)
    assert got == want
    assert [len(line) for line in got.split("\n")] == [len(line) for line in text.split("\n")]
