"""The analysis terminates on every input, in time polynomial in the program's size.

Each family below generates programs of growing size ``n`` that used to drive a fixed
point without bound or exponentially (pointer walks such as ``p = *p``, recursive
structs, nests of loops, backward gotos, call chains whose collective sequences double
at each level, long else-if chains).  For each family the test runs the whole static
analysis (CFG, rank dependence, Algorithm 1, summaries), prints the growth of its work
and wall time, and asserts on the *work* (statements walked by the rank-dependence
solver, a deterministic count), never on a wall time: the growth exponent between
successive sizes stays below ``MAX_EXPONENT``.  Every family keeps its finding, so the
bounds never buy termination with silence.
"""

from __future__ import annotations

import math
import random
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mpirun import run, tool

from mpicc_wrap.analysis import rankdep, unit
from mpicc_wrap.frontend import parser
from mpicc_wrap.model import TUAnalysis
from mpicc_wrap.switches import Options

PRELUDE = """\
typedef int MPI_Comm; typedef int MPI_Datatype; typedef int MPI_Op;
extern MPI_Comm MPI_COMM_WORLD; extern MPI_Datatype MPI_INT; extern MPI_Op MPI_SUM;
int MPI_Init(int *, char ***); int MPI_Finalize(void);
int MPI_Comm_rank(MPI_Comm, int *); int MPI_Barrier(MPI_Comm);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
"""
MAX_EXPONENT = 3.0  # work may grow at most cubically with the program's size
OPTIONS = Options(cache="")


def pointer_walk(n: int) -> str:
    """``p = *p`` and ``q = **q`` in loops: the walk that never terminated."""
    body = "\n".join(f"  for (int i{k} = 0; i{k} < 3; i{k}++) {{ p{k} = *p{k}; "
                     f"q{k} = (void ***)**q{k}; p{(k + 1) % n} = (void **)q{k}; }}"
                     for k in range(n))
    decls = " ".join(f"void **p{k} = (void **)&r; void ***q{k} = (void ***)&p{k};"
                     for k in range(n))
    return f"""int main(int c, char **v) {{ int r; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); {decls}
{body}
  if (*(int *)p0) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def linked_lists(n: int) -> str:
    """Recursive structs walked in loops, one helper per list, data from the rank."""
    helpers = "\n".join(f"""int walk{k}(struct node *h) {{ int s = 0;
  for (struct node *q = h; q; q = q->next) {{ s += q->v; q->next->next = q; }}
  while (h && h->next) h = h->next->next;
  return s + (h ? h->v : 0); }}""" for k in range(n))
    calls = " + ".join(f"walk{k}(&a[{k}])" for k in range(n))
    return f"""struct node {{ struct node *next; int v; }};
{helpers}
int main(int c, char **v) {{ int r; struct node a[{n}]; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); a[0].v = r;
  for (int k = 0; k < {n}; k++) a[k].next = &a[(k + 1) % {n}];
  if ({calls}) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def nested_loops(n: int) -> str:
    """A nest of depth n whose variables flow into each other level by level."""
    opens = "".join(f"for (int i{k} = 0; i{k} < x{k}; i{k}++) {{ x{(k + 1) % n} += x{k}; "
                    for k in range(n))
    decls = " ".join(f"int x{k} = {k};" for k in range(n))
    return f"""int main(int c, char **v) {{ int r; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); {decls}
  {opens} x0 = r; {"}" * n}
  if (x{n - 1}) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def goto_loops(n: int) -> str:
    """Backward gotos that form n overlapping loops."""
    labels = "\n".join(f"  L{k}: y{k} = y{(k + 1) % n} + 1; if (y{k} < 10) goto L{k // 2};"
                       for k in range(n))
    decls = " ".join(f"int y{k} = 0;" for k in range(n))
    return f"""int main(int c, char **v) {{ int r; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); {decls} y{n - 1} = r;
{labels}
  if (y0) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def call_chain(n: int) -> str:
    """f_k calls f_{k+1} twice: inlined collective sequences would double per level."""
    funcs = [f"void f{n}(void) {{ MPI_Barrier(MPI_COMM_WORLD); }}"]
    funcs += [f"void f{k}(void) {{ f{k + 1}(); MPI_Barrier(MPI_COMM_WORLD); f{k + 1}(); }}"
              for k in range(n - 1, -1, -1)]
    return "\n".join(funcs) + """
int main(int c, char **v) { int r; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r) f0();
  MPI_Finalize(); return 0; }"""


def else_if_chain(n: int) -> str:
    """A long else-if chain (deep recursion in every AST and CFG walk)."""
    arms = "\n".join(f"  else if (x == {k}) y += {k};" for k in range(1, n))
    return f"""int pick(int x) {{ int y = 0; if (x == 0) y = 1;
{arms}
  return y; }}
int main(int c, char **v) {{ int r; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (pick(r)) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def pointer_soup(n: int) -> str:
    """n pointers assigned to each other at random in a loop: dense points-to sets."""
    rng = random.Random(n)
    moves = " ".join(f"p{rng.randrange(n)} = *(int **)p{rng.randrange(n)}; "
                     f"p{rng.randrange(n)} = p{rng.randrange(n)};" for _ in range(2 * n))
    decls = " ".join(f"int *p{k} = &v[{k}];" for k in range(n))
    return f"""int main(int c, char **argv) {{ int r, v[{n}]; MPI_Init(&c, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); {decls} v[0] = r;
  while (*p0) {{ {moves} }}
  if (*p{n - 1}) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


FAMILIES: dict[str, tuple[Callable[[int], str], list[int]]] = {
    "pointer_walk": (pointer_walk, [4, 8, 16, 32]),
    "linked_lists": (linked_lists, [4, 8, 16, 32]),
    "nested_loops": (nested_loops, [4, 8, 16, 24]),
    "goto_loops": (goto_loops, [4, 8, 16, 32]),
    "call_chain": (call_chain, [4, 8, 16, 32]),
    "else_if_chain": (else_if_chain, [50, 100, 200, 400]),
    "pointer_soup": (pointer_soup, [4, 8, 16, 32]),
}


def _analyse(source: str) -> tuple[TUAnalysis, rankdep.RankDependence, float]:
    """The whole analysis of ``source`` (after PRELUDE), on the deep stack the driver
    uses; the rank-dependence solver is returned too, for its work counters."""
    made: list[rankdep.RankDependence] = []

    class Counting(rankdep.RankDependence):
        def __init__(self, *args: object, **kw: object) -> None:
            super().__init__(*args, **kw)  # type: ignore[arg-type]
            made.append(self)

    def run() -> TUAnalysis:
        tu = parser.parse(PRELUDE + source, "stress.c", [], OPTIONS)
        return unit.analyse(tu, {})

    real = rankdep.RankDependence
    rankdep.RankDependence = Counting  # type: ignore[misc]
    try:
        start = time.perf_counter()
        result = parser.deep_stack(run)
        return result, made[0], time.perf_counter() - start
    finally:
        rankdep.RankDependence = real  # type: ignore[misc]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_analysis_work_grows_polynomially(family: str) -> None:
    make, sizes = FAMILIES[family]
    rows = []
    for n in sizes:
        result, solver, seconds = _analyse(make(n))
        assert result.findings, f"{family}({n}) lost its finding"
        rows.append((n, solver.steps, solver.walks, solver.gave_up, seconds))
    print(f"\n{family}: n, statements walked, unit walks, gave up, seconds")
    for n, steps, walks, gave_up, seconds in rows:
        print(f"  {n:4d} {steps:9d} {walks:6d} {gave_up!s:>5} {seconds:8.3f}")
    for (n0, w0, *_), (n1, w1, *_) in zip(rows, rows[1:], strict=False):
        exponent = math.log(w1 / w0) / math.log(n1 / n0)
        print(f"  growth {n0}->{n1}: work x{w1 / w0:.2f}, exponent {exponent:.2f}")
        assert exponent <= MAX_EXPONENT, f"{family}: work grows like n^{exponent:.1f}"


def test_pointer_walk_locations_are_k_limited() -> None:
    """However often ``p = *p`` is walked, no location has more than MAX_DEREF stars."""
    _, solver, _ = _analyse(pointer_walk(8))
    pts = solver.store.pts
    keys = set(pts) | {p for v in pts.values() for p in v}
    assert max(rankdep.locations.depth(k) for k in keys) == rankdep.MAX_DEREF


def test_walk_cap_falls_back_to_multi_valued(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the walk cap the answer is conservative: the condition is still reported
    as per-process (with the give-up reason), never silently uniform."""
    monkeypatch.setattr(rankdep.solver, "WALKS_PER_UNIT", 0)
    monkeypatch.setattr(rankdep.solver, "WALKS_SLACK", 1)
    result, solver, _ = _analyse(linked_lists(4))
    assert solver.gave_up
    assert result.findings
    # Memory that is uniform in truth is multi-valued once the solver gives up (the
    # rank is read, so the TU has a seed and the solver runs at all).
    uniform = """int n = 3;
    int main(int c, char **v) { int r; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);
      if (n) MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }"""
    result, solver, _ = _analyse(uniform)
    assert solver.gave_up and result.findings


CSMITH_INCLUDE = Path("/usr/include/csmith")
_FUNC_START = re.compile(r"^(static\s+)?[\w ]+\**\s*func_\d+\(.*\)\n\{.*\n", re.M)
_MAIN_START = re.compile(r"^int main\s*\(.*\)\n\{\n", re.M)


def _with_mpi(program: str) -> str:
    """A csmith program with a rank variable and a rank-dependent barrier at the start
    of every function, and MPI_Init/MPI_Finalize around main's body."""
    def barrier(m: re.Match[str]) -> str:
        return m.group(0) + "    if (mw_rank & 1) MPI_Barrier(MPI_COMM_WORLD);\n"

    program = _FUNC_START.sub(barrier, program)
    program = _MAIN_START.sub(lambda m: m.group(0) + "    MPI_Init(0, 0); "
                              "MPI_Comm_rank(MPI_COMM_WORLD, &mw_rank);\n", program, count=1)
    head, sep, tail = program.rpartition("    return 0;\n}")
    assert sep, "csmith's main has changed shape"
    program = head + "    MPI_Finalize();\n" + sep + tail
    return "#include <mpi.h>\nstatic int mw_rank;\n" + program


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_csmith_programs_with_mpi_terminate(seed: int, tmp_path: Path) -> None:
    """Random C programs (csmith) with MPI calls inserted compile through mpicc-wrap
    with their analysis done (not skipped, not over budget), and are warned."""
    csmith = shutil.which("csmith")
    if csmith is None or not CSMITH_INCLUDE.is_dir():
        pytest.skip("csmith (Debian packages csmith, libcsmith-dev) is not installed")
    source = subprocess.run([csmith, "--seed", str(seed), "--max-funcs", "8"],
                            capture_output=True, text=True, timeout=60, check=True,
                            cwd=tmp_path).stdout
    (tmp_path / "prog.c").write_text(_with_mpi(source))
    # No budget: the analysis itself must terminate (the run's timeout guards the test).
    env = {"MPICC_WRAP_RESULT_CACHE": "0", "MPICC_WRAP_STRICT": "1", "MPICC_WRAP_BUDGET": "0"}
    start = time.perf_counter()
    done = run([tool("mpicc-wrap"), f"-I{CSMITH_INCLUDE}", "-c", "prog.c"], timeout=300,
               cwd=tmp_path, env=env)
    print(f"csmith seed {seed}: {source.count(chr(10))} lines, "
          f"{time.perf_counter() - start:.2f} s through mpicc-wrap")
    assert not done.timed_out and done.returncode == 0, done.stderr[-2000:]
    assert "analysis skipped" not in done.stderr
    assert "[-Wmpi-collective-order]" in done.stderr


def test_a_tu_without_seeds_skips_the_solver() -> None:
    """No rank, no received data, no per-process library call: every question has the
    answer "single-valued" without a fixed point (``rankdep.seeds``); one solve, made
    only for the summaries, says what each function writes (``effects.py``)."""
    no_seed = """int n = 3; void work(int *p) { *p += n; }
    int main(int c, char **v) { MPI_Init(&c, &v); work(&n);
      if (n) MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }"""
    calls: list[str] = []
    real = rankdep.RankDependence.reason

    def counted(self: rankdep.RankDependence, *args: object) -> str | None:
        calls.append("reason")
        return real(self, *args)  # type: ignore[arg-type]

    rankdep.RankDependence.reason = counted  # type: ignore[method-assign]
    try:
        result, solver, _ = _analyse(no_seed)
    finally:
        rankdep.RankDependence.reason = real  # type: ignore[method-assign]
    assert not result.findings and not calls  # no question reached the solver
    # *p, and n, which main passes it (points-to facts are context-insensitive)
    assert not solver.store.multi and result.summaries["work"].writes == ["g:n:0", "p0:1"]
    seeded = no_seed.replace("work(&n);", "MPI_Comm_rank(MPI_COMM_WORLD, &n);")
    result, _, _ = _analyse(seeded)
    assert result.findings


def rank_bounded_nest(n: int) -> str:
    """A nest of depth n whose bounds all differ between processes; the innermost body
    writes ``out``, which no loop reads, and each counter is set before it is read."""
    opens = "".join(f"for (int i{k} = 0; i{k} < r + {k}; i{k}++) {{ " for k in range(n))
    return f"""int main(int c, char **v) {{ int r, out = 0; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  {opens} out = i{n - 1}; {"}" * n}
  if (out) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""


def test_a_round_that_changes_nothing_a_loop_reads_is_its_last() -> None:
    """A loop stops when another round would read what this one read: its test's gate
    is the one this round ran under, and the locals that became per-process here are
    not read before they are written (``Statements._unread``).  Every level of this
    nest made its loop go round again (its gate went from none to its test; its
    counter and ``out`` became per-process), so the walk grew with the square of the
    depth (346 statements at depth 12, 1,258 at 24); now once per level."""
    rows = []
    for n in (12, 24):
        result, solver, _ = _analyse(rank_bounded_nest(n))
        assert result.findings, "the barrier under the per-process out lost its finding"
        rows.append(solver.steps)
    assert rows[1] <= 2.2 * rows[0], rows


@pytest.mark.parametrize("body", [
    "y = x; x = r;",  # read before the write of the same round
    "if (k) x = 0; y = x; x = r;",  # written in one arm only: the other reads the old x
    "for (int j = 0; j < 2; j++) x = 0; y = x; x = r;",  # a loop may run no round
    "switch (k) { case 1: x = 0; } y = x; x = r;",  # nor a switch its arm
    "x = x + 0; y = x; x = r;",  # read by the write itself
])
def test_a_local_read_before_it_is_written_takes_another_round(body: str) -> None:
    """The other side of ``_unread``: a local that became per-process late in a round
    and is read, on some path, before it is written in the next, makes the loop go
    round again; ``y`` then differs between processes and the barrier is reported."""
    source = f"""int main(int c, char **v) {{ int r, x = 0, y = 0; MPI_Init(&c, &v);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  for (int k = 0; k < 3; k++) {{ {body} }}
  if (y) MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize(); return 0; }}"""
    result, _, _ = _analyse(source)
    assert result.findings
