"""Cost of the run-time deadlock diagnosis, and the time from a hang to its report.

1. Ping-pong latency (8-byte messages) and a halo-exchange loop (MPI_Irecv/MPI_Isend/
   MPI_Waitall with both ring neighbours, then an MPI_Allreduce every 10 steps), built
   with plain mpicc and with mpicc-wrap, alternating: plain, mpicc-wrap with the
   diagnosis off (the wrappers' pass-through), mpicc-wrap with MPICC_WRAP_DEADLOCK=1.
   The ratios of the medians to plain are printed (target: at most 1.05 at -n 2).
   "plain-mt" is the plain build initialised with MPI_THREAD_MULTIPLE: the fast-path
   cost a watchdog thread that calls MPI would impose on every call.  "diag+coll" adds
   MPICC_WRAP_HANG_COLLECTIVES=1 (blocking collectives as nonblocking ones plus the
   loop); a one-double MPI_Allreduce loop shows what that costs.
2. A receive-receive cycle run with MPICC_WRAP_HANG_TIMEOUT=T at each --hang-procs:
   each rank prints the wall-clock time at which it blocks; the script prints how long
   after the last rank blocked the job ended (target: at most T + 2 s).

Usage: python benchmarks/deadlock_overhead.py [--pairs 5] [--procs 2] [--hang-procs 2 4 16]
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

int main(int argc, char **argv)
{
    int rank, size, i, n = atoi(argv[2]), provided;
    double t0, t, tmax, a[128] = {0}, b[128], l[128], r[128], s = 0;
    if (argc > 3) /* what a watchdog thread calling MPI would need */
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (argv[1][0] == 'p') { /* ping-pong between ranks 0 and 1 */
        for (i = 0; i < n && rank < 2 && size > 1; i++) {
            if (rank == 0) {
                MPI_Send(a, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            }
        }
    } else if (argv[1][0] == 'a') { /* one-double allreduce */
        for (i = 0; i < n; i++)
            MPI_Allreduce(&a[0], &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else { /* halo exchange on a ring */
        int left = (rank + size - 1) % size, right = (rank + 1) % size;
        for (i = 0; i < n; i++) {
            MPI_Request q[4];
            MPI_Irecv(l, 128, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &q[0]);
            MPI_Irecv(r, 128, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &q[1]);
            MPI_Isend(a, 128, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &q[2]);
            MPI_Isend(a, 128, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &q[3]);
            MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
            a[i % 128] = 0.5 * (l[0] + r[0]) + 1;
            if (i % 10 == 0)
                MPI_Allreduce(&a[0], &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.6f\n", tmax);
    MPI_Finalize();
    return 0;
}
"""

HANG = r"""
#include <mpi.h>
#include <stdio.h>
#include <sys/time.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    struct timeval tv;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gettimeofday(&tv, NULL);
    printf("blocked %.3f\n", tv.tv_sec + 1e-6 * tv.tv_usec);
    fflush(stdout);
    MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"""


def build(workdir: Path) -> dict[str, Path]:
    exes = {}
    for name, text, cc in (("plain", BENCH, "mpicc"), ("diagnosed", BENCH, "mpicc-wrap"),
                           ("hang", HANG, "mpicc-wrap")):
        src = workdir / f"{name}.c"
        src.write_text(text)
        exes[name] = workdir / name
        res = run([tool(cc), "-O2", str(src), "-o", str(exes[name])], timeout=300)
        if res.returncode != 0:
            sys.exit(f"build of {name} failed:\n{res.output}")
    return exes


def seconds(exe: Path, nprocs: int, args: list[str], env: dict[str, str]) -> float:
    res = mpiexec(exe, nprocs, args, timeout=600, env=env)
    if res.returncode != 0 or res.timed_out:
        sys.exit(f"{exe.name} -n {nprocs} {args} failed:\n{res.output}")
    return float(res.stdout.split()[0])


def overhead(exes: dict[str, Path], nprocs: int, pairs: int, kind: str, n: int) -> None:
    variants = {"plain": ("plain", {}, []),
                "off": ("diagnosed", {"MPICC_WRAP_DEADLOCK": "0"}, []),
                "diagnosed": ("diagnosed", {"MPICC_WRAP_DEADLOCK": "1"}, []),
                "plain-mt": ("plain", {}, ["thread-multiple"]),
                "diag+coll": ("diagnosed", {"MPICC_WRAP_DEADLOCK": "1",
                                            "MPICC_WRAP_HANG_COLLECTIVES": "1"}, [])}
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(pairs):  # alternate, so that drifts in machine load hit all alike
        for name, (exe, env, extra) in variants.items():
            times[name].append(seconds(exes[exe], nprocs, [kind, str(n), *extra], env))
    med = {k: statistics.median(v) for k, v in times.items()}
    label = {"p": "ping-pong", "a": "allreduce"}.get(kind, "halo")
    cells = []
    for name in ("off", "diagnosed", "plain-mt", "diag+coll"):
        ratios = [d / p for d, p in zip(times[name], times["plain"], strict=True)]
        cells.append(f"{name}/plain {med[name] / med['plain']:.3f} "
                     f"(per-round {statistics.median(ratios):.3f})")
    print(f"{label} -n {nprocs}, {n} iterations: " + "; ".join(cells))
    for name, values in times.items():
        print(f"    {name:9s} median {1e6 * med[name] / n:8.2f} us/iteration; runs "
              + " ".join(f"{t:.4f}" for t in values))


def hang_latency(exe: Path, nprocs: int, timeout: float, workdir: Path) -> None:
    env = {"MPICC_WRAP_HANG_TIMEOUT": str(timeout),
           "MPICC_WRAP_DEADLOCK_DIR": str(workdir)}
    res = mpiexec(exe, nprocs, [], timeout=timeout + 120, env=env)
    end = time.time()
    blocked = [float(w.split()[1]) for w in res.stdout.splitlines() if w.startswith("blocked")]
    if res.timed_out or res.returncode != 78 or len(blocked) != nprocs:
        print(f"hang -n {nprocs}: no report (exit {res.returncode}):\n{res.output[-1500:]}")
        return
    after = end - max(blocked)
    print(f"hang -n {nprocs}: job ended {after:.2f} s after the last rank blocked "
          f"(timeout {timeout:g} s: {after - timeout:+.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--procs", type=int, nargs="+", default=[2])
    parser.add_argument("--pingpong", type=int, default=20000, help="iterations")
    parser.add_argument("--halo", type=int, default=5000, help="iterations")
    parser.add_argument("--hang-procs", type=int, nargs="*", default=[2, 4, 16])
    parser.add_argument("--hang-timeout", type=float, default=2.0)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(Path(tmp))
        print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
        for nprocs in opts.procs:
            overhead(exes, nprocs, opts.pairs, "p", opts.pingpong)
            overhead(exes, nprocs, opts.pairs, "h", opts.halo)
            overhead(exes, nprocs, opts.pairs, "a", opts.pingpong)
        for nprocs in opts.hang_procs:
            hang_latency(exes["hang"], nprocs, opts.hang_timeout, Path(tmp))


if __name__ == "__main__":
    main()
