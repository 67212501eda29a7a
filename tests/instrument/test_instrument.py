"""The rewriting stage: CC calls inserted at exact positions, on existing lines.

Plans are built by hand from small preprocessed programs (``make_plan``) so these
tests do not depend on the analysis.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mpirun import mpicc, mpiexec, rank_lines, run

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.instrument import rewrite
from mpicc_wrap.model import Condition, ExitPoint, FunctionPlan, ParsedTU, Pos, Site
from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options

PROGRAM = r"""#include <mpi.h>
#include <stdio.h>

int helper(int x) { return x * 2; }

int f(int rank) {
  if (rank % 2 == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  return rank;
}

int g(int rank) {
  int v = rank, s = 0;
  if (rank >= 0) return MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM,
                                      MPI_COMM_WORLD) + s;
  return 0;
}

int h(int rank) {
  int x = rank;
  if (rank < 100) MPI_Bcast(&x, 1, MPI_INT, rank % 2, MPI_COMM_WORLD);
  return x;
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && argv[1][0] == 'f') f(rank);
  if (argc > 1 && argv[1][0] == 'h') h(rank);
  printf("%d g %d helper %d\n", rank, g(rank), helper(rank));
  MPI_Finalize();
  return 0;
}
"""

MARKER = re.compile(r'^# (\d+) "([^"]*)"')


def preprocess(tmp: Path, source: str = PROGRAM) -> ParsedTU:
    """Preprocess with mpicc -E and build a ParsedTU (no AST: the rewriter needs none)."""
    src = tmp / "p.c"
    src.write_text(source)
    res = run([*mpicc(), "-E", str(src)], timeout=60)
    assert res.returncode == 0, res.output
    linemap: list[tuple[str, int]] = []
    file, line = str(src), 1
    for text in res.stdout.splitlines():
        linemap.append((file, line))
        match = MARKER.match(text)
        if match:
            file, line = match.group(2), int(match.group(1))
        else:
            line += 1
    return ParsedTU(None, res.stdout, str(src), linemap, source.count("\n"),
                    handle_names={"(MPI_Comm)0x44000000": "MPI_COMM_WORLD"})


def pos_of(text: str, offset: int) -> Pos:
    line = text.count("\n", 0, offset) + 1
    return Pos(line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def matching(text: str, at: int) -> int:
    """Offset of the bracket closing the one at ``at``."""
    pairs = {"(": ")", "{": "}"}
    depth = 0
    for i in range(at, len(text)):
        if text[i] == text[at]:
            depth += 1
        elif text[i] == pairs[text[at]]:
            depth -= 1
            if depth == 0:
                return i
    raise AssertionError("unbalanced")


def make_plan(tu: ParsedTU, header: str, comm: str = "((MPI_Comm)0x44000000)") -> FunctionPlan:
    """A plan checking every catalogued collective of one function, like Alg. 2."""
    text = tu.text
    start = text.index(header)
    body = text.index("{", start)
    close = matching(text, body)
    cond_at = text.index("if (", body)
    cond = Condition(pos_of(text, cond_at), tu.loc(pos_of(text, cond_at)), "rank", "rank")
    sites = []
    for m in re.finditer(r"\b(MPI_\w+)\s*\(", text[body:close]):
        entry = catalogue.lookup(m.group(1))
        if not entry or not entry.is_collective:
            continue
        s = body + m.start()
        e = matching(text, body + m.end() - 1) + 1
        sites.append(Site("collective", m.group(1), header.split("(")[0].split()[-1], comm,
                          pos_of(text, s), pos_of(text, e), tu.loc(pos_of(text, s)),
                          flagged=True, conditions=[cond]))
    exits = []
    for m in re.finditer(r"\breturn\b", text[body:close]):
        s = body + m.start()
        e = text.index(";", s) + 1
        value = text[s + 6:e - 1]
        exits.append(ExitPoint("return", pos_of(text, s), pos_of(text, e),
                               tu.loc(pos_of(text, s)), bool(value.strip()), "MPI_" in value))
    end = pos_of(text, close)
    exits.append(ExitPoint("end", end, end, tu.loc(end)))
    name = header.split("(")[0].split()[-1]
    return FunctionPlan(name, header.split()[0], pos_of(text, body), end,
                        pos_of(text, start), sites, exits, [comm])


def function_text(text: str, header: str) -> str:
    start = text.index(header)
    return text[start:matching(text, text.index("{", start)) + 1]


@pytest.fixture
def tu(tmp_path: Path) -> ParsedTU:
    return preprocess(tmp_path)


def test_no_plan_leaves_the_text_unchanged(tu: ParsedTU) -> None:
    assert rewrite.rewrite(tu, []) == tu.text


def test_lines_kept_and_unplanned_functions_byte_identical(tu: ParsedTU) -> None:
    plans = [make_plan(tu, "int f(int rank)"), make_plan(tu, "int g(int rank)")]
    out = rewrite.rewrite(tu, plans)
    assert out.count("\n") == tu.text.count("\n")
    for header in ("int helper(int x)", "int h(int rank)", "int main(int argc"):
        assert function_text(out, header) == function_text(tu.text, header)
    changed = [i + 1 for i, (a, b) in enumerate(zip(tu.text.splitlines(), out.splitlines(),
                                                    strict=True)) if a != b]
    f_lines = range(plans[0].def_start.line, plans[0].body_end.line + 1)
    g_lines = range(plans[1].def_start.line, plans[1].body_end.line + 1)
    assert changed and all(n in f_lines or n in g_lines for n in changed)


def test_collective_becomes_a_comma_expression_and_exits_are_checked(tu: ParsedTU) -> None:
    plan = make_plan(tu, "int f(int rank)")
    lines = rewrite.rewrite(tu, [plan]).splitlines()
    first = plan.def_start.line - 1
    assert lines[first].startswith("struct mpiccwrap_site {")
    assert lines[first].count("static const struct mpiccwrap_site") == 3
    assert '"MPI_Barrier", "MPI_COMM_WORLD", ' in lines[first]
    assert lines[first].endswith("int f(int rank) {")
    world = "((MPI_Comm)0x44000000)"
    assert lines[first + 2] == (
        f"    (mpiccwrap_cc({world}, &mpiccwrap__s1, -1000000, (MPI_Op)0, -1L, "
        f"(MPI_Datatype)0), MPI_Barrier({world}));")
    assert lines[first + 3] == (
        f"  {{ mpiccwrap_cc_exit({world}, &mpiccwrap__s2); return rank; }}")
    assert lines[first + 4] == f"mpiccwrap_cc_exit({world}, &mpiccwrap__s3); }}"


def test_site_records_user_file_line_and_condition(tu: ParsedTU) -> None:
    out = rewrite.rewrite(tu, [make_plan(tu, "int f(int rank)")])
    barrier = re.search(r"mpiccwrap__s1 = \{ (\d+), \"MPI_Barrier\", \"MPI_COMM_WORLD\", "
                        r"\"([^\"]+)\", (\d+), \"f\", \"([^\"]+)\", 1, 0 \}", out)
    assert barrier
    assert int(barrier.group(1)) == rewrite.color("MPI_Barrier")
    assert barrier.group(2).endswith("p.c") and barrier.group(3) == "8"
    assert barrier.group(4).endswith("p.c:7")


def test_return_value_with_collective_is_evaluated_before_exit_checks(tu: ParsedTU) -> None:
    out = rewrite.rewrite(tu, [make_plan(tu, "int g(int rank)")])
    line = next(ln for ln in out.splitlines() if "int mpiccwrap__ret" in ln)
    assert line.startswith("  if (rank >= 0) { int mpiccwrap__ret = ( (mpiccwrap_cc(")
    assert ", -1000000, (MPI_Op)(0x58000003), 1, ((MPI_Datatype)0x4c000405)), MPI_Allreduce(" \
        in line
    tail = next(ln for ln in out.splitlines() if "+ s)" in ln)
    assert tail.endswith("((MPI_Comm)0x44000000))) + s); mpiccwrap_cc_exit(((MPI_Comm)"
                         "0x44000000), &mpiccwrap__s2); return mpiccwrap__ret; }")


def test_root_and_size_checked_for_bcast(tu: ParsedTU) -> None:
    out = rewrite.rewrite(tu, [make_plan(tu, "int h(int rank)")])
    assert ("(mpiccwrap_cc(((MPI_Comm)0x44000000), &mpiccwrap__s1, rank % 2, (MPI_Op)0, 1, "
            "((MPI_Datatype)0x4c000405)), MPI_Bcast(") in out
    assert re.search(r'"MPI_Bcast", "MPI_COMM_WORLD", "[^"]+", 21, "h", "[^"]+", 1, 5 \}', out)


def test_call_and_noreturn_kinds(tu: ParsedTU) -> None:
    plan = make_plan(tu, "int f(int rank)")
    call = plan.sites[0]
    plan.sites = [Site("call", "helper", "f", "", call.start, call.end, call.loc,
                       flagged=True),
                  Site("noreturn", "exit", "f", "", call.start, call.end, call.loc)]
    out = rewrite.rewrite(tu, [plan])
    assert ("(mpiccwrap_cc(((MPI_Comm)0x44000000), &mpiccwrap__s1, -1000000, (MPI_Op)0, -1L, "
            "(MPI_Datatype)0), (mpiccwrap_cc_exit(((MPI_Comm)0x44000000), &mpiccwrap__s2), "
            "MPI_Barrier(((MPI_Comm)0x44000000))))") in out
    assert f'{rewrite.color("helper()")}, "helper()"' in out


def test_call_with_unknown_communicator_is_not_checked(tu: ParsedTU) -> None:
    """An unflagged call site whose communicator the analysis could not name gets no
    check: a check on some other communicator would pair with nothing on the ranks
    of that communicator that do not make the call.  (Flagged, it is checked on the
    function's first exit communicator: test_call_and_noreturn_kinds.)"""
    plan = make_plan(tu, "int f(int rank)")
    call = plan.sites[0]
    plan.sites = [Site("call", "helper", "f", "", call.start, call.end, call.loc)]
    out = rewrite.rewrite(tu, [plan])
    body = function_text(out, "int f(int rank)")
    assert "mpiccwrap_cc(" not in body and "mpiccwrap_cc_exit(" in body


def test_call_with_fixed_sequence_is_coloured_by_its_first_collective(tu: ParsedTU) -> None:
    """leader_sync() and worker_sync(), each running MPI_Barrier, are the same to the
    analysis; their checks must agree too (else a correct program is aborted)."""
    plan = make_plan(tu, "int f(int rank)")
    call = plan.sites[0]
    plan.sites = [Site("call", "leader_sync", "f", "((MPI_Comm)0x44000000)", call.start,
                       call.end, call.loc, first="MPI_Barrier")]
    out = rewrite.rewrite(tu, [plan])
    assert f'{rewrite.color("MPI_Barrier")}, "leader_sync()"' in out


def test_communicator_spellings_are_normalised(tu: ParsedTU) -> None:
    plan = make_plan(tu, "int f(int rank)")
    plan.comms = ["(MPI_Comm) 0x44000000", "((MPI_Comm)0x44000000)", "MPI_COMM_WORLD"]
    out = rewrite.rewrite(tu, [plan])
    ret = out.splitlines()[plan.exits[0].start.line - 1]
    assert ret == "  { mpiccwrap_cc_exit((MPI_Comm) 0x44000000, &mpiccwrap__s2); return rank; }"
    plan.sites[0].comm = "MPI_COMM_WORLD"  # named by the analysis (e.g. for MPI_Finalize)
    plan.comms = ["sub"]  # MPI_Comm_free(&sub): the analysis hands over the handle
    out = rewrite.rewrite(tu, [plan])
    assert "(mpiccwrap_cc(mpiccwrap_comm_world(), &mpiccwrap__s1," in out
    assert "mpiccwrap_cc_exit(sub, &mpiccwrap__s2); return rank; }" in out
    assert '"exit", "sub", ' in out


def test_a_new_site_kind_is_a_table_row(tu: ParsedTU, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = rewrite.SiteKind("cc_site.c.j2", "check", lambda s: "traced " + s.name)
    monkeypatch.setitem(rewrite.SITE_KINDS, "traced", kind)
    plan = make_plan(tu, "int f(int rank)")
    plan.sites[0].kind = "traced"
    out = rewrite.rewrite(tu, [plan])
    assert f'{rewrite.color("traced MPI_Barrier")}, "traced MPI_Barrier"' in out
    assert "(mpiccwrap_cc(((MPI_Comm)0x44000000), &mpiccwrap__s1," in out


def test_unknown_site_kind_is_skipped_not_crashed(tu: ParsedTU) -> None:
    plan = make_plan(tu, "int f(int rank)")
    plan.sites[0].kind = "p2p"
    with pytest.raises(AnalysisSkipped, match="unknown site kind"):
        rewrite.rewrite(tu, [plan])


def test_misplaced_return_is_skipped(tu: ParsedTU) -> None:
    plan = make_plan(tu, "int g(int rank)")
    plan.exits[0] = ExitPoint("return", plan.body_start, plan.exits[0].end, plan.exits[0].loc,
                              True, True)
    with pytest.raises(AnalysisSkipped, match="return statement not where planned"):
        rewrite.rewrite(tu, [plan])


def test_c_string_and_split_args() -> None:
    assert rewrite.c_string('a"b\\c\td') == '"a\\"b\\\\c\\011d"'
    assert rewrite.c_string("é") == '"\\303\\251"'
    assert rewrite.split_args('MPI_Bcast(&x, f(1, 2), "a,b", \',\', c)') == [
        "&x", "f(1, 2)", '"a,b"', "','", "c"]
    assert rewrite.split_args("MPI_Barrier()") == []


def test_colors_are_stable_distinct_and_not_exit() -> None:
    names = sorted({*catalogue.CATALOGUE, "helper()", "g()"})
    colors = [rewrite.color(n) for n in names]
    assert len(set(colors)) == len(colors)
    assert rewrite.exit_color() not in colors
    assert rewrite.color("MPI_Barrier") == rewrite.color("MPI_Barrier")


def test_declarations_come_from_the_header() -> None:
    decls = rewrite.declarations()
    assert decls.startswith("struct mpiccwrap_site {") and "\n" not in decls
    assert "int mpiccwrap_cc(MPI_Comm comm" in decls


@pytest.fixture(scope="module")
def runtime_args(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    cache = tmp_path_factory.mktemp("cache")
    return library.link_args(mpicc(), Options(cache=str(cache)))


def build(tmp: Path, text: str, args: list[str], name: str) -> Path:
    src = tmp / f"{name}.i"
    src.write_text(text)
    exe = tmp / name
    res = run([*mpicc(), "-Wall", "-Wextra", "-Werror", str(src), *args, "-o", str(exe)],
              timeout=120)
    assert res.returncode == 0, res.output
    return exe


@pytest.mark.mpi
def test_rewritten_program_compiles_and_runs_like_the_original(
        tu: ParsedTU, tmp_path: Path, runtime_args: list[str]) -> None:
    plans = [make_plan(tu, h) for h in ("int f(int rank)", "int g(int rank)", "int h(int rank)")]
    plain = build(tmp_path, tu.text, [], "plain")
    checked = build(tmp_path, rewrite.rewrite(tu, plans), runtime_args, "checked")
    outputs = [mpiexec(exe, 3, timeout=30) for exe in (plain, checked)]
    assert [r.returncode for r in outputs] == [0, 0], outputs[1].output
    assert rank_lines(outputs[1].stdout) == rank_lines(outputs[0].stdout)
    assert rank_lines(outputs[0].stdout) == {(r, f"g 3 helper {2 * r}") for r in range(3)}
    assert outputs[1].stderr == ""


@pytest.mark.mpi
@pytest.mark.parametrize("nprocs", [2, 4])
def test_rewritten_mismatch_is_stopped_with_user_lines(
        nprocs: int, tu: ParsedTU, tmp_path: Path, runtime_args: list[str]) -> None:
    plans = [make_plan(tu, h) for h in ("int f(int rank)", "int g(int rank)")]
    exe = build(tmp_path, rewrite.rewrite(tu, plans), runtime_args, "checked")
    res = mpiexec(exe, nprocs, ["f"], timeout=30)
    assert not res.timed_out and res.returncode != 0
    evens = "rank 0 is" if nprocs == 2 else "ranks 0,2 are"
    odds = "rank 1 is" if nprocs == 2 else "ranks 1,3 are"
    assert re.search(rf"DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: {evens} about to "
                     rf"call MPI_Barrier at \S*p\.c:8 in f\(\); {odds} about to leave f\(\) at "
                     rf"\S*p\.c:9; the divergence comes from the condition at \S*p\.c:7 "
                     r"\(compile-time warning\)", res.stderr), res.stderr


@pytest.mark.mpi
def test_rewritten_root_mismatch_is_reported(tu: ParsedTU, tmp_path: Path,
                                             runtime_args: list[str]) -> None:
    exe = build(tmp_path, rewrite.rewrite(tu, [make_plan(tu, "int h(int rank)")]),
                runtime_args, "checked")
    res = mpiexec(exe, 3, ["h"], timeout=30)
    assert not res.timed_out and res.returncode != 0
    assert re.search(r"DYNAMIC-CHECK: MPI_Bcast at \S*p\.c:21 in h\(\) on MPI_COMM_WORLD: "
                     r"ranks disagree on the root: ranks 0,2 use root 0, rank 1 uses root 1",
                     res.stderr), res.stderr
