"""cDAG analysis time on generated binomial-broadcast graphs (issue 11, paper §3.2).

    python benchmarks/cdag_speed.py [--sizes 256 1024 4096 16384] [--rounds 3]

For each p: a binomial-tree broadcast from rank 0 over p processes (every rank's
buffer at one address), plus p extra messages between random pairs, each of which
the receiver forwards only after an earlier receive (dependencies, as in the paper's
test graphs).  Timed: matching (App. Alg. 1), dataflow (Alg. 3, 4) and detection
(Alg. 5, §4.2) over the whole graph, best of --rounds.  Printed: seconds,
microseconds per p·log2(p), and the ratio to the paper's C++ (0.9 us · p · log2 p,
Odin's dataflow + matching + detection constants).  Checks that the broadcast is
found; timing is printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mpicc_wrap.cdag.graph import Program  # noqa: E402
from mpicc_wrap.cdag.report import phases  # noqa: E402

PAPER_US = 0.9  # µs per p·log2 p: 0.85 + 0.15 + 0.13 (Odin, §3.2), rounded as the issue does


def generate(p: int, seed: int = 1) -> Program:
    """Binomial broadcast of 8 bytes from 0, and p random 4-byte messages."""
    rng = random.Random(seed)
    prog = Program(p)
    for rank in range(p):
        mask = 1
        while mask < p:
            if rank & mask:
                prog.recv(rank, rank - mask, 8, addr=0, site="tree.c:9")
                break
            mask <<= 1
        mask >>= 1
        while mask > 0:
            if rank + mask < p:
                prog.send(rank, rank + mask, 8, addr=0, site="tree.c:14")
            mask >>= 1
    for k in range(p):
        a = rng.randrange(p)
        b = (a + 1 + rng.randrange(p - 1)) % p
        prog.send(a, b, 4, addr=64 + 8 * k, tag=7, site="extra.c:3")
        prog.recv(b, a, 4, addr=64 + 8 * k, tag=7, site="extra.c:4")
    return prog


def run_once(prog: Program) -> tuple[float, bool]:
    prog.graph._frozen = None  # time the whole analysis, dependency numbering included
    start = time.perf_counter()
    _, _, found = phases(prog.graph)
    seconds = time.perf_counter() - start
    return seconds, any(i.name == "MPI_Bcast" and i.root == 0 for i in found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 4096, 16384])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'p':>7} {'ops':>8} {'seconds':>9} {'us/(p log2 p)':>14} {'x paper':>8}")
    for p in args.sizes:
        prog = generate(p)
        runs = [run_once(prog) for _ in range(args.rounds)]
        best = min(s for s, _ in runs)
        if not all(ok for _, ok in runs):
            print(f"p={p}: the broadcast was not detected", file=sys.stderr)
            return 1
        unit = p * math.log2(p)
        per = best / unit * 1e6
        print(f"{p:>7} {len(prog.graph.ops):>8} {best:>9.3f} {per:>14.2f} "
              f"{per / PAPER_US:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
