"""Rewriting shapes the checks must survive: communicators behind pointers, in array
elements and struct members; handles passed by pointer to MPI_Comm_free
(``MPI_Comm *comm`` parameter, ``&comms[i]``, ``&s->comm``, ``p->pcomm``); calls in
macros, ``for`` headers, ``return`` expressions and ``?:``; a K&R definition.

With ``MPICC_WRAP_INSTRUMENT=all`` every collective of this correct program is
checked: the rewritten text must type-check under the net and the program must run
exactly as its plain build.  (Before handles passed by pointer were dereferenced,
the check was handed ``comm`` itself, an ``MPI_Comm *``, and the job aborted.)
"""

from __future__ import annotations

import re
from pathlib import Path

import mpirun
import pytest
from analysis_helpers import preprocess
from mpirun import mpiexec, run, tool

from mpicc_wrap.driver import netcompile, stage
from mpicc_wrap.switches import Options

SOURCE = r"""#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SYNC(c) MPI_Barrier(c)
#define NCOMMS 3

struct holder { MPI_Comm comm; };
struct indirect { MPI_Comm *pcomm; };

static MPI_Comm comms[NCOMMS];

/* A handle passed by pointer, freed through the pointer (MPICH's mtest.c). */
static void free_param(MPI_Comm *comm) {
  if (*comm != MPI_COMM_NULL)
    MPI_Comm_free(comm);
}

static void free_all(void) {
  int i;
  for (i = 0; i < NCOMMS; i++)
    MPI_Comm_free(&comms[i]);
}

static void free_member(struct holder *s) { MPI_Comm_free(&s->comm); }

static void free_indirect(struct indirect *p) { MPI_Comm_free(p->pcomm); }

static int through_pointer(MPI_Comm *pc, struct holder h, struct holder *s) {
  int i, sum = 0, one = 1;
  MPI_Barrier(*pc);
  MPI_Barrier(h.comm);
  MPI_Barrier(s->comm);
  for (i = 0; i < NCOMMS; i++) {
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comms[i]);
  }
  return sum;
}

static int in_macro(MPI_Comm comm) { SYNC(comm); return SYNC(comm) == MPI_SUCCESS; }

static int in_for_header(MPI_Comm comm, int n) {
  int i, k = 0;
  for (MPI_Barrier(comm); k < n && MPI_Barrier(comm) == MPI_SUCCESS; k++, MPI_Barrier(comm))
    ;
  for (i = MPI_Barrier(comm); i < n; i++)
    k++;
  return k;
}

static int in_return(MPI_Comm comm) { return MPI_Barrier(comm) + MPI_Barrier(comm); }

static int in_conditional(MPI_Comm a, MPI_Comm b, int flag) {
  return flag ? MPI_Barrier(a) : MPI_Barrier(b);
}

static int knr(comm, n)
  MPI_Comm comm;
  int n;
{
  int v = n, s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, comm);
  return s;
}

int main(int argc, char **argv) {
  int rank, size, i;
  MPI_Comm mine, target;
  struct holder h, s;
  struct indirect p;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < NCOMMS; i++)
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  MPI_Comm_dup(MPI_COMM_WORLD, &h.comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &target);
  p.pcomm = &target;
  printf("rank %d sum %d\n", rank, through_pointer(&mine, h, &s));
  printf("rank %d macro %d for %d return %d cond %d knr %d\n", rank, in_macro(mine),
         in_for_header(mine, 3), in_return(mine), in_conditional(mine, h.comm, argc > 5),
         knr(mine, 2));
  free_param(&mine);
  free_param(&mine); /* already MPI_COMM_NULL: skipped by the program itself */
  free_all();
  free_member(&h);
  free_member(&s);
  free_indirect(&p);
  printf("rank %d freed %d\n", rank, mine == MPI_COMM_NULL && h.comm == MPI_COMM_NULL &&
         comms[2] == MPI_COMM_NULL && target == MPI_COMM_NULL);
  MPI_Finalize();
  return 0;
}
"""


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory: pytest.TempPathFactory) -> str:
    cache = tmp_path_factory.mktemp("cache")
    options = Options(instrument_all=True, result_cache=False, cache=str(cache))
    result = stage.run(preprocess(SOURCE, "shapes.c"), "shapes.c", mpirun.mpicc(), options,
                       stream=open("/dev/null", "w"))
    assert result.text is not None
    return result.text


def function(text: str, name: str) -> str:
    """From the definition of ``name`` to the next definition (exit checks end the
    closing line, so the brace is not at the start of one)."""
    start = re.search(rf"(?:static )?(?:int|void) {name}\(", text)
    assert start, name
    end = re.compile(r"static const struct mpiccwrap_site|(?:static )?(?:int|void) \w+\("
                     ).search(text, start.end())
    return text[start.start():end.start() if end else len(text)]


@pytest.mark.parametrize(("func", "handle"), [
    ("free_param", "(*(comm))"), ("free_all", "comms[i]"), ("free_member", "s->comm"),
    ("free_indirect", "(*(p->pcomm))"), ("through_pointer", "*pc"),
    ("through_pointer", "h.comm"), ("through_pointer", "s->comm"),
    ("through_pointer", "comms[i]"), ("in_macro", "comm"), ("in_for_header", "comm"),
    ("in_return", "comm"), ("in_conditional", "a"), ("in_conditional", "b"), ("knr", "comm"),
])
def test_check_reads_the_handle(rewritten: str, func: str, handle: str) -> None:
    assert f"mpiccwrap_cc({handle}, &mpiccwrap__s" in function(rewritten, func)


def test_nothing_behind_a_pointer_is_exit_checked(rewritten: str) -> None:
    exits = re.findall(r"mpiccwrap_cc_exit\(([^,]*), &mpiccwrap__s\d+\)", rewritten)
    assert exits and not [e for e in exits if "*" in e or "[" in e], exits


def test_callee_names_are_not_used_at_the_call(rewritten: str) -> None:
    """free_indirect(&p): its MPI_Comm_free(p->pcomm) names the callee's pointer
    parameter, which means nothing in main (where p is a struct)."""
    main = function(rewritten, "main")
    call = next(line for line in main.splitlines() if "free_indirect(&p)" in line)
    assert "p->pcomm" not in call


def test_rewritten_text_type_checks(rewritten: str, tmp_path: Path) -> None:
    text = tmp_path / "shapes.i"
    text.write_text(rewritten)
    res = run([tool("mpicc"), "-Wall", "-fsyntax-only", "-x", "cpp-output", str(text),
               *netcompile.NET_FLAGS], timeout=120)
    assert res.returncode == 0, res.output


@pytest.mark.mpi
def test_instrumented_everywhere_runs_as_plain(tmp_path: Path) -> None:
    src = tmp_path / "shapes.c"
    src.write_text(SOURCE)
    env = {"MPICC_WRAP_CACHE": str(tmp_path / "cache"), "MPICC_WRAP_INSTRUMENT": "all"}
    outputs = []
    for cc in ("mpicc", "mpicc-wrap"):
        exe = tmp_path / cc
        build = run([tool(cc), str(src), "-o", str(exe)], timeout=300, env=env)
        assert build.returncode == 0, build.output
        assert "analysis skipped" not in build.stderr, build.stderr
        outputs.append(mpiexec(exe, 3, timeout=60))
    plain, wrapped = outputs
    assert plain.returncode == 0 and wrapped.returncode == 0, wrapped.output
    assert "DYNAMIC-CHECK" not in wrapped.output
    assert sorted(wrapped.stdout.splitlines()) == sorted(plain.stdout.splitlines())
    assert wrapped.stdout.count("freed 1") == 3
