"""Cost of the cDAG recording (issue 11) on point-to-point-heavy loops.

One microbenchmark, built with plain mpicc and with mpicc-wrap, run alternating round
after round in these variants:

* ``plain``: the plain mpicc build;
* ``passthru``: the mpicc-wrap build with ``MPICC_WRAP_DEADLOCK=0`` (no interception;
  the cDAG hooks are linked in and skipped);
* ``off``: the mpicc-wrap build as users run it (deadlock diagnosis on, the default;
  cDAG hooks linked in, ``MPICC_WRAP_CDAG`` unset): the target is at most 1.01;
* ``cdag``: ``MPICC_WRAP_CDAG=1`` (recording on, report off so the analysis is not
  timed): the target is at most 1.10;
* ``trace``: ``MPICC_WRAP_TRACE_DIR`` alone: the same recording plus the blocking
  collectives and probes, written at MPI_Finalize for ``mpicc-wrap-tool matrix``, no
  analysis at the end.

Loops (``--loops``): ``sendrecv`` is a pairwise alltoall (p-1 MPI_Sendrecv of
``--bytes`` per round), ``halo`` a ring exchange of MPI_Irecv/MPI_Isend/MPI_Waitall,
``pingpong`` 8-byte MPI_Send/MPI_Recv between ranks 0 and 1, ``xself`` each rank's
MPI_Irecv/MPI_Isend/MPI_Waitall with itself (no waiting for another process: the
least noisy measure of the cost per operation on a loaded machine), ``allreduce`` an
8-byte MPI_Allreduce (what the trace adds to a collective).  The program times its
loop with MPI_Wtime and with its CPU time (slowest rank of each): that is the
per-operation cost; the CPU time is the steadier of the two on a loaded machine.  The whole job's
wall time, which adds writing the records at MPI_Finalize, is printed beside it.
Ratios are medians of the per-round ratios to ``plain`` and, for the recording, to
``off`` (the interception's own effect on this MPI's progress is not the recording's).
Never asserted in tests: a shared 2-core machine is too noisy.

Usage: python benchmarks/cdag_overhead.py [--rounds 7] [--procs 2] [--iterations 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mpirun import mpiexec, run, tool  # noqa: E402

BENCH = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    int rank, size, i, k, n = atoi(argv[2]), bytes = atoi(argv[3]);
    double t0, c0, t[2], tmax[2];
    char *a, *b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    a = calloc((size_t)size, (size_t)bytes + 8);
    b = calloc((size_t)size, (size_t)bytes + 8);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = cpu();
    if (argv[1][0] == 's') { /* pairwise alltoall */
        for (i = 0; i < n; i++) {
            for (k = 1; k < size; k++) {
                int to = (rank + k) % size, from = (rank + size - k) % size;
                MPI_Sendrecv(a + (size_t)to * bytes, bytes, MPI_BYTE, to, 0,
                             b + (size_t)from * bytes, bytes, MPI_BYTE, from, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            a[i % bytes] = (char)i;
        }
    } else if (argv[1][0] == 'h') { /* halo exchange on a ring */
        int left = (rank + size - 1) % size, right = (rank + 1) % size;
        for (i = 0; i < n; i++) {
            MPI_Request q[4];
            MPI_Irecv(b, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &q[0]);
            MPI_Irecv(b + bytes, bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &q[1]);
            MPI_Isend(a, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &q[2]);
            MPI_Isend(a + bytes, bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &q[3]);
            MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
            a[i % bytes] = b[0];
        }
    } else if (argv[1][0] == 'x') { /* exchange with oneself: no wait for another rank */
        for (i = 0; i < n; i++) {
            MPI_Request q[2];
            MPI_Irecv(b, bytes, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(a, bytes, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
            a[i % bytes] = b[0];
        }
    } else if (argv[1][0] == 'a') { /* 8-byte allreduce */
        for (i = 0; i < n; i++) {
            MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            a[0] = b[0];
        }
    } else { /* 8-byte ping-pong between ranks 0 and 1 */
        for (i = 0; i < n && rank < 2 && size > 1; i++) {
            if (rank == 0) {
                MPI_Send(a, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(a, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
    }
    t[0] = MPI_Wtime() - t0;
    t[1] = cpu() - c0;
    MPI_Reduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.6f %.6f\n", tmax[0], tmax[1]);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
"""

VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "plain": ("plain", {}),
    "passthru": ("wrapped", {"MPICC_WRAP_DEADLOCK": "0"}),
    "off": ("wrapped", {}),
    "cdag": ("wrapped", {"MPICC_WRAP_CDAG": "1", "MPICC_WRAP_CDAG_REPORT": "0"}),
    "trace": ("wrapped", {"MPICC_WRAP_TRACE_DIR": "@"}),
}


RECORDING = ("cdag", "trace")


def build(workdir: Path) -> dict[str, Path]:
    exes = {}
    src = workdir / "bench.c"
    src.write_text(BENCH)
    for name, cc in (("plain", "mpicc"), ("wrapped", "mpicc-wrap")):
        exes[name] = workdir / name
        res = run([tool(cc), "-O2", str(src), "-o", str(exes[name])], timeout=300)
        if res.returncode != 0:
            sys.exit(f"build with {cc} failed:\n{res.output}")
    return exes


def once(exe: Path, nprocs: int, args: list[str], env: dict[str, str],
         workdir: Path) -> tuple[float, float, float]:
    """(loop seconds as the program measured them, the loop's CPU seconds, job wall
    seconds); both loop figures are the slowest rank's."""
    out = workdir / "out"
    out.mkdir(exist_ok=True)
    for old in out.iterdir():
        old.unlink()
    env = {k: str(out) if v == "@" else v for k, v in env.items()}
    env.setdefault("MPICC_WRAP_CDAG_DIR", str(out))
    start = time.perf_counter()
    res = mpiexec(exe, nprocs, args, timeout=600, env=env, cwd=out)
    wall = time.perf_counter() - start
    if res.returncode != 0 or res.timed_out:
        sys.exit(f"{exe.name} -n {nprocs} {args} {env} failed:\n{res.output}")
    loop, cpu = res.stdout.split()[:2]
    return float(loop), float(cpu), wall


def written(workdir: Path) -> int:
    return sum(f.stat().st_size for f in (workdir / "out").iterdir())


def overhead(exes: dict[str, Path], nprocs: int, rounds: int, loop: str, n: int,
             size: int, workdir: Path) -> None:
    loops: dict[str, list[float]] = {name: [] for name in VARIANTS}
    cpus: dict[str, list[float]] = {name: [] for name in VARIANTS}
    walls: dict[str, list[float]] = {name: [] for name in VARIANTS}
    sizes: dict[str, int] = {}
    for _ in range(rounds):  # alternate, so that drifts in machine load hit all alike
        for name, (exe, env) in VARIANTS.items():
            t, c, wall = once(exes[exe], nprocs, [loop, str(n), str(size)], env, workdir)
            loops[name].append(t)
            cpus[name].append(c)
            walls[name].append(wall)
            sizes[name] = written(workdir)
    ops = {"s": 2 * (nprocs - 1), "h": 4, "p": 2, "x": 2, "a": 1}[loop[0]] * n

    def ratio(name: str, base: str, data: dict[str, list[float]]) -> float:
        return statistics.median(a / b for a, b in zip(data[name], data[base], strict=True))

    print(f"{loop} -n {nprocs}, {n} iterations ({ops} operations per process), "
          f"{size if loop[0] != 'p' else 8} bytes per message:")
    for name in VARIANTS:
        med = statistics.median(loops[name])
        cells = f"loop {1e9 * med / ops:7.1f} ns/op, x{ratio(name, 'plain', loops):.3f} plain"
        if name in RECORDING:
            cells += f", x{ratio(name, 'off', loops):.3f} off"
        cells += (f"; cpu {1e9 * statistics.median(cpus[name]) / ops:7.1f} ns/op, "
                  f"x{ratio(name, 'plain', cpus):.3f} plain")
        if name in RECORDING:
            cells += f", x{ratio(name, 'off', cpus):.3f} off"
        cells += (f"; job {statistics.median(walls[name]):.3f} s "
                  f"(x{ratio(name, 'plain', walls):.3f}); "
                  f"{sizes[name] / nprocs / 1e6:.2f} MB written per process")
        print(f"    {name:10s} {cells}")
        print(f"    {'':10s} loop runs " + " ".join(f"{t:.4f}" for t in loops[name]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--procs", type=int, nargs="+", default=[2])
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--bytes", type=int, default=1024, help="bytes per message")
    loops = ["xself", "sendrecv", "halo", "pingpong", "allreduce"]
    parser.add_argument("--loops", nargs="+", default=loops, choices=loops)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(Path(tmp))
        print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
        for nprocs in opts.procs:
            for loop in opts.loops:
                overhead(exes, nprocs, opts.rounds, loop, opts.iterations, opts.bytes,
                         Path(tmp))


if __name__ == "__main__":
    main()
