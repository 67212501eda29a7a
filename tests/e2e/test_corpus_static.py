"""Compile-time diagnostics of mpicc-wrap on the corpus match the inline expectations.

Each program is built once with mpicc-wrap (warnings only: MPICC_WRAP_INSTRUMENT=0).
Every ``expect-warning`` line gets a ``[-Wmpi-collective-order]`` warning naming its
collective, every ``expect-note`` line a ``note:``, cross-TU ``expect-link-warning``
lines a warning from the link step, and nothing else is warned (correct programs: no
``-Wmpi-`` warning at all).  The first tests check the harness's own parsing.
"""

from __future__ import annotations

import corpus_lib as corpus
import pytest

PROGRAMS = corpus.discover()
TAG = "mpi-collective-order"
WARN_ENV = {"MPICC_WRAP_INSTRUMENT": "0"}
COMPILE_OK = ("may-warn", "expect-warning", "expect-root-warning")
LINK_OK = (*COMPILE_OK, "expect-link-warning")


def test_annotations_parse_several_per_line() -> None:
    text = "x;\nif (r == 0 && MPI_Barrier(c));  // expect-warning: MPI_Barrier; expect-note: r\n"
    marks = corpus.parse_annotations(text, "f.c")
    assert [(m.key, m.value, m.line) for m in marks] == [
        ("expect-warning", "MPI_Barrier", 2), ("expect-note", "r", 2)]


def test_annotation_alternatives_and_block_comments() -> None:
    (mark,) = corpus.parse_annotations("f(); /* expect-warning: f()|MPI_Bcast */ g();", "a.c")
    assert mark.names() == ["f", "MPI_Bcast"]
    assert corpus.names_in("call to f() executes collectives", mark)
    assert not corpus.names_in("call to ff() executes collectives", mark)


def test_diagnostics_parse_gcc_format() -> None:
    err = ("src/a.c: In function 'main':\n"
           "src/a.c:14:9: warning: MPI_Barrier on MPI_COMM_WORLD may not be reached by all "
           "processes [-Wmpi-collective-order]\n"
           "src/a.c:13:5: note: this condition depends on the process rank\n"
           "a.c:3:1: warning: unused variable 'x' [-Wunused-variable]\n")
    diags = corpus.diagnostics(err)
    assert [(d.file, d.line, d.column, d.kind) for d in diags] == [
        ("src/a.c", 14, 9, "warning"), ("src/a.c", 13, 5, "note"), ("a.c", 3, 1, "warning")]
    assert [d.tag for d in corpus.mpi_warnings(diags)] == [TAG]
    assert diags[0].at(corpus.Mark("expect-warning", "MPI_Barrier", "a.c", 14))


@pytest.fixture(scope="module")
def builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> corpus.BuildCache:
    """mpicc-wrap builds of the selected programs, made up front two at a time."""
    cache = corpus.BuildCache("mpicc-wrap", tmp_path_factory.mktemp("static"), WARN_ENV)
    wanted = {p.name: p for p in corpus.selected(request, "program")}
    corpus.pool_map(cache.get, [(p,) for p in wanted.values()], key=lambda p: p.name)
    return cache


def built(builds: corpus.BuildCache, program: corpus.Program) -> corpus.Build:
    build = builds.get(program)
    assert build.ok, f"mpicc-wrap failed to build {program.name}:\n{build.log}"
    assert "analysis skipped" not in build.log, build.log
    return build


def covered(diag: corpus.Diagnostic, program: corpus.Program, keys: tuple[str, ...]) -> bool:
    return any(diag.at(m) for key in keys for m in program.marked(key))


def show(build: corpus.Build) -> str:
    return f"\n--- build log ---\n{build.log}"


def assert_warned(builds: corpus.BuildCache, program: corpus.Program, key: str, tag: str,
                  link: bool = False) -> None:
    """Every ``key`` mark has a ``[-Wtag]`` warning at its line naming its value."""
    build = built(builds, program)
    stderr = build.link_stderr if link else build.compile_stderr
    warnings = corpus.mpi_warnings(corpus.diagnostics(stderr))
    for mark in program.marked(key):
        assert any(w.at(mark) and w.tag == tag and corpus.names_in(w.message, mark)
                   for w in warnings), f"no {key} warning for {mark}" + show(build)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_expected_warnings(builds: corpus.BuildCache, program: corpus.Program) -> None:
    assert_warned(builds, program, "expect-warning", corpus.EXPECTED_TAGS["expect-warning"])


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.marked("expect-root-warning")],
                         ids=lambda p: p.name)
def test_expected_root_warnings(builds: corpus.BuildCache, program: corpus.Program) -> None:
    """A root or operator that depends on the rank is warned (beyond PARCOACH)."""
    assert_warned(builds, program, "expect-root-warning",
                  corpus.EXPECTED_TAGS["expect-root-warning"])


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_expected_notes(builds: corpus.BuildCache, program: corpus.Program) -> None:
    build = built(builds, program)
    notes = [d for d in corpus.diagnostics(build.compile_stderr + build.link_stderr)
             if d.kind == "note"]
    for mark in program.marked("expect-note"):
        assert any(n.at(mark) for n in notes), f"no note for {mark}" + show(build)


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.marked("expect-link-warning")],
                         ids=lambda p: p.name)
def test_expected_link_warnings(builds: corpus.BuildCache, program: corpus.Program) -> None:
    assert_warned(builds, program, "expect-link-warning",
                  corpus.EXPECTED_TAGS["expect-link-warning"], link=True)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_no_unexpected_warnings(builds: corpus.BuildCache, program: corpus.Program) -> None:
    build = built(builds, program)
    compile_w = corpus.mpi_warnings(corpus.diagnostics(build.compile_stderr))
    link_w = corpus.mpi_warnings(corpus.diagnostics(build.link_stderr))
    stray = ([w for w in compile_w if not covered(w, program, COMPILE_OK)]
             + [w for w in link_w if not covered(w, program, LINK_OK)])
    assert not stray, f"unexpected warnings: {stray}" + show(build)
