"""Error exits end the job (the launcher tears it down when a rank exits with a failure
status), so paths that can only end in one are error checks, not divergences; a
successful exit(0) on some ranks still is one.  -Wmpi-exit-divergence reports the
error-exit paths on request, under their own tag."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import wrapped_stderr
from paths import CORPUS
from pycparser import c_parser

from mpicc_wrap.analysis import cfg


def _call(text: str) -> object:
    ast = c_parser.CParser().parse(f"void f(int code) {{ {text}; }}")
    return ast.ext[0].body.block_items[0]


@pytest.mark.parametrize("text,fails", [
    ("exit(1)", True), ("exit(-1)", True), ("exit(code)", True), ("_exit(2)", True),
    ("abort()", True), ("__assert_fail(0, 0, 0, 0)", True), ("errx(3, 0)", True),
    ("exit(0)", False), ("exit((int)0)", False), ("_Exit(0L)", False),
    ("printf(0)", False), ("MPI_Abort(0, 1)", False),
])
def test_error_exit_classification(text: str, fails: bool) -> None:
    assert cfg.error_exit(_call(text)) is fails  # type: ignore[arg-type]


def _compile(tmp_path: Path, name: str, *flags: str) -> str:
    return wrapped_stderr(tmp_path, name, (CORPUS / name).read_text(), *flags)


@pytest.mark.parametrize("name", ["correct_error_exit_then_collectives.c",
                                  "correct_abort_assert_checks.c"])
def test_error_exits_are_silent_by_default_and_reported_on_request(tmp_path: Path,
                                                                   name: str) -> None:
    assert "warning" not in _compile(tmp_path, name)
    asked = _compile(tmp_path, name, "-Wmpi-exit-divergence")
    assert "[-Wmpi-exit-divergence]" in asked
    assert "[-Wmpi-collective-order]" not in asked


def test_successful_exit_on_some_ranks_is_still_a_finding(tmp_path: Path) -> None:
    err = _compile(tmp_path, "buggy_exit_before_barrier.c")
    assert "MPI_Barrier on MPI_COMM_WORLD" in err and "[-Wmpi-collective-order]" in err
    assert "[-Wmpi-exit-divergence]" not in _compile(tmp_path, "buggy_exit_before_barrier.c",
                                                     "-Wmpi-exit-divergence")
