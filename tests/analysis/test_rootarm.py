"""A root branches on what it packed, the others on what they unpacked (rootarm.py):
the two tests are one value only when the arm that packs is run by the root alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_helpers import parse_source, wrapped_stderr
from pycparser import c_parser

from mpicc_wrap.analysis import unit
from mpicc_wrap.analysis.rankdep.rootarm import RankLocals, calls_rank, root_arm

# The root reads the flag in its arm (from argc here; a file or the input in real code)
ROOT = ("u = argc > 2; p[3] = u; MPI_Bcast(p, 4, MPI_INT, 0, MPI_COMM_WORLD); "
        "if (u) MPI_Barrier(MPI_COMM_WORLD);")
OTHERS = ("MPI_Bcast(p, 4, MPI_INT, 0, MPI_COMM_WORLD); u = p[3]; "
          "if (u) MPI_Barrier(MPI_COMM_WORLD);")
BCAST = "MPI_Bcast(p, 4, MPI_INT, 0,"
REDUCE = "MPI_Allreduce(MPI_IN_PLACE, p, 4, MPI_INT, MPI_MAX,"


def _warned(tmp_path: Path, body: str) -> bool:
    source = ("#include <mpi.h>\n"
              "int main(int argc, char **argv)\n{\n"
              "    int rank, u = 0, p[4] = {0};\n"
              "    MPI_Init(&argc, &argv);\n    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
              f"{body}\n    MPI_Finalize();\n    return 0;\n}}\n")
    return "warning: MPI_Barrier" in wrapped_stderr(tmp_path, "a.c", source)


@pytest.mark.parametrize("body,warned", [
    (f"if (rank == 0) {{ {ROOT} }} else {{ {OTHERS} }}", False),
    (f"if (0 == rank) {{ {ROOT} }} else {{ {OTHERS} }}", False),
    (f"if (!rank) {{ {ROOT} }} else {{ {OTHERS} }}", False),
    (f"if (rank != 0) {{ {OTHERS} }} else {{ {ROOT} }}", False),
    (f"if (rank) {{ {OTHERS} }} else {{ {ROOT} }}", False),
    # another element packed as well: the packing of p[3] stands
    (f"if (rank == 0) {{ p[1] = 5; {ROOT} }} else {{ {OTHERS} }}", False),
    # the arm that packs is not the root's
    (f"if (rank == 1) {{ {ROOT} }} else {{ {OTHERS} }}", True),
    # the broadcast's root is another rank than the arm's
    (f"if (rank == 0) {{ {ROOT.replace('MPI_INT, 0', 'MPI_INT, 1')} }} "
     f"else {{ {OTHERS.replace('MPI_INT, 0', 'MPI_INT, 1')} }}", True),
    # the flag changed after it was packed
    (f"if (rank == 0) {{ {ROOT.replace('p[3] = u;', 'p[3] = u; u = !u;')} }} "
     f"else {{ {OTHERS} }}", True),
    # the element overwritten after the flag was packed into it
    (f"if (rank == 0) {{ {ROOT.replace('p[3] = u;', 'p[3] = u; p[3] = 0;')} }} "
     f"else {{ {OTHERS} }}", True),
    # the others unpack another element
    (f"if (rank == 0) {{ {ROOT} }} else {{ {OTHERS.replace('p[3]', 'p[2]')} }}", True),
    # a reduction's output is not what the root put in
    (f"if (rank == 0) {{ {ROOT.replace(BCAST, REDUCE)} }} "
     f"else {{ {OTHERS.replace(BCAST, REDUCE)} }}", True),
    # the flag's address escapes: a write through the pointer is not seen by name
    (f"int *q = &u; if (rank == 0) {{ {ROOT.replace('p[3] = u;', 'p[3] = u; *q = !u;')} }} "
     f"else {{ {OTHERS} }}", True),
    # the rank variable is written elsewhere too: the arm is not known to be the root's
    (f"rank = rank + 0; if (rank == 0) {{ {ROOT} }} else {{ {OTHERS} }}", True),
])
def test_a_packed_flag_matches_its_unpacked_copy_only_on_the_root(
        tmp_path: Path, body: str, warned: bool) -> None:
    assert _warned(tmp_path, body) is warned


def _facts_and_test(code: str) -> tuple[RankLocals, object]:
    ast = c_parser.CParser().parse("void f(int c, int root) {" + code + "}")
    body = ast.ext[0].body
    names = {"c", "root", "r", "q"}
    return RankLocals.of(body, names, ["c", "root"]), body.block_items[-1].cond


@pytest.mark.parametrize("code,found", [
    ("int r; MPI_Comm_rank(c, &r); if (r == root) ;", (True, ("c", "root"))),
    ("int r; MPI_Comm_rank(c, &r); if (r != 2) ;", (False, ("c", "2"))),
    ("int r; MPI_Comm_rank(c, &r); if (r) ;", (False, ("c", "0"))),
    # the root is written: not fixed
    ("int r; MPI_Comm_rank(c, &r); root = 1; if (r == root) ;", None),
    # two communicators' ranks in one variable
    ("int r; MPI_Comm_rank(c, &r); MPI_Comm_rank(d, &r); if (r == 0) ;", None),
    # the rank's address escapes
    ("int r, *q; MPI_Comm_rank(c, &r); q = &r; if (r == 0) ;", None),
    ("int r; MPI_Comm_rank(c, &r); if (r < 1) ;", None),
    # another variable of the root's name in an inner block
    ("int r; MPI_Comm_rank(c, &r); { int root = 3; } if (r == root) ;", None),
])
def test_root_arm_recognises_a_test_of_the_rank_against_a_fixed_root(
        code: str, found: object) -> None:
    facts, test = _facts_and_test(code)
    assert root_arm(test, facts) == found  # type: ignore[arg-type]


@pytest.mark.parametrize("calls,expected", [
    ([], False), (["printf", "MPI_Bcast"], False),
    (["MPI_Comm_rank"], True), (["printf", "PMPI_Comm_rank"], True),
])
def test_calls_rank_names_the_rank_calls(calls: list[str], expected: bool) -> None:
    assert calls_rank(calls) is expected


@pytest.mark.parametrize("rank_call,scans", [
    ("MPI_Comm_rank(MPI_COMM_WORLD, &rank);", 1),
    ("rank = getpid();", 0),  # per-process, but no local is an MPI rank: no scan
])
def test_the_body_is_scanned_for_ranks_only_when_it_asks_for_one(
        monkeypatch: pytest.MonkeyPatch, rank_call: str, scans: int) -> None:
    calls: list[str] = []
    scan = RankLocals.of

    def counted(body: object, names: set[str], params: list[str]) -> RankLocals:
        calls.append("scan")
        return scan(body, names, params)  # type: ignore[arg-type]

    monkeypatch.setattr(RankLocals, "of", staticmethod(counted))
    source = ("#include <mpi.h>\nint getpid(void);\n"
              "int main(int argc, char **argv)\n{\n    int rank;\n"
              f"    MPI_Init(&argc, &argv);\n    {rank_call}\n"
              "    if (rank == 0) { MPI_Barrier(MPI_COMM_WORLD); }\n"
              "    MPI_Finalize();\n    return 0;\n}\n")
    result = unit.analyse(parse_source(source), {})
    assert len(calls) == scans
    assert [f.collective for f in result.findings] == ["MPI_Barrier"]
