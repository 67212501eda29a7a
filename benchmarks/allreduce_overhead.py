"""Run-time cost of the collective check: a loop of one-integer MPI_Allreduce calls,
built plain (mpicc) and instrumented (mpicc-wrap), run alternately under mpiexec.

The allreduce sits under ``if (rank >= 0)``: rank-dependent for the static analysis,
so mpicc-wrap flags it and precedes every call with mpiccwrap_cc, yet true on every
rank.  If the analysis does not flag it, the script falls back to a variant that calls
mpiccwrap_cc by hand, linked through library.link_args.  The check is itself
one small MPI_Allreduce, so a ratio of 2.0 is the floor; the target is <= 2.1.  A
third variant ("twice": two plain allreduces per iteration) measures that floor on the
machine at hand, which matters when the cores are shared and timings are noisy.

Usage: python benchmarks/allreduce_overhead.py [--pairs 5] [--runs 2=20000 4=200]
(--runs: NPROCS=ITERATIONS; with more ranks than cores MPICH's busy polling makes each
allreduce cost milliseconds, so oversubscribed runs use fewer iterations.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mpirun import mpiexec, run, tool  # noqa: E402

from mpicc_wrap.runtime import library  # noqa: E402
from mpicc_wrap.switches import Options  # noqa: E402

PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef MW_HAND
#include "mpiccwrap_cc.h"
static const struct mpiccwrap_site site = {
    7, "MPI_Allreduce", "MPI_COMM_WORLD", "bench.c", 20, "main", "", 1,
    MPICCWRAP_CHECK_OP | MPICCWRAP_CHECK_SIZE};
#define CHECK() mpiccwrap_cc(MPI_COMM_WORLD, &site, 0, MPI_SUM, 1, MPI_INT)
#elif defined(MW_TWICE)
static int twice;
#define CHECK() MPI_Allreduce(&x, &twice, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
#else
#define CHECK() 0
#endif

int main(int argc, char **argv)
{
    int rank, i, x, y = 0, n = argc > 1 ? atoi(argv[1]) : 20000;
    double t, tmax;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (i = 0; i < n; i++) {
        x = i;
        if (rank >= 0)
            (CHECK(), MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    }
    t = MPI_Wtime() - t;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.6f %d\n", tmax, y);
    MPI_Finalize();
    return 0;
}
"""


def build(workdir: Path) -> tuple[dict[str, Path], str]:
    """The plain, twice and instrumented executables, and how the latter was made."""
    src = workdir / "bench.c"
    src.write_text(PROGRAM)
    plain, twice, checked = workdir / "plain", workdir / "twice", workdir / "checked"
    exes = {"plain": plain, "twice": twice, "checked": checked}
    obj = workdir / "bench.o"
    for cmd in ([tool("mpicc"), "-O2", str(src), "-o", str(plain)],
                [tool("mpicc"), "-O2", "-DMW_TWICE", str(src), "-o", str(twice)],
                [tool("mpicc-wrap"), "-O2", "-c", str(src), "-o", str(obj)],
                [tool("mpicc-wrap"), "-O2", str(obj), "-o", str(checked)]):
        res = run(cmd, timeout=300)
        if res.returncode != 0:
            sys.exit(f"build failed: {' '.join(cmd)}\n{res.output}")
    # the program's own object calls the check (every executable mpicc-wrap links
    # defines mpiccwrap_cc, instrumented or not)
    symbols = subprocess.run(["nm", str(obj)], capture_output=True, text=True).stdout
    if " U mpiccwrap_cc" in symbols:
        return exes, "mpicc-wrap (analysis flagged the allreduce)"
    args = library.link_args([tool("mpicc")], Options.from_env())
    include = str(Path(args[0]).parent)
    res = run([tool("mpicc"), "-O2", "-DMW_HAND", "-I", include, str(src), *args, "-o",
               str(checked)], timeout=300)
    if res.returncode != 0:
        sys.exit(f"build failed:\n{res.output}")
    return exes, "hand-written mpiccwrap_cc calls (analysis did not flag)"


def seconds(exe: Path, nprocs: int, iterations: int) -> float:
    res = mpiexec(exe, nprocs, [str(iterations)], timeout=600)
    if res.returncode != 0 or res.timed_out:
        sys.exit(f"{exe.name} -n {nprocs} failed:\n{res.output}")
    return float(res.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--runs", nargs="+", default=["2=20000", "4=200"],
                        help="NPROCS=ITERATIONS for each process count")
    opts = parser.parse_args()
    runs = [tuple(int(x) for x in r.split("=")) for r in opts.runs]
    with tempfile.TemporaryDirectory() as tmp:
        exes, how = build(Path(tmp))
        print(f"instrumented variant: {how}; {os.cpu_count()} cores")
        for nprocs, iterations in runs:
            times: dict[str, list[float]] = {name: [] for name in exes}
            for _ in range(opts.pairs):  # alternate so drifts in machine load cancel
                for name, exe in exes.items():
                    times[name].append(seconds(exe, nprocs, iterations))
            med = {k: statistics.median(v) for k, v in times.items()}
            print(f"-n {nprocs}, {iterations} iterations: ratio checked/plain "
                  f"{med['checked'] / med['plain']:.2f} (floor twice/plain "
                  f"{med['twice'] / med['plain']:.2f}; checked/twice "
                  f"{med['checked'] / med['twice']:.2f})")
            for name, values in times.items():
                print(f"    {name:8s} median {1e6 * med[name] / iterations:9.2f} us/iteration;"
                      f" runs {' '.join(f'{t:.4f}' for t in values)} s")


if __name__ == "__main__":
    main()
