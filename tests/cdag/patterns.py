"""Synthetic cDAGs of hand-written collectives and of non-collective patterns, built
in program order with mpicc_wrap.cdag.graph.Program (addresses are per process)."""

from __future__ import annotations

import random

from mpicc_wrap.cdag.graph import Program


def butterfly_alltoall(p: int = 4) -> Program:
    """The paper's Figures 1-5 on 4 processes: two rounds, partner i^1 then i^2.

    Rank i holds its own block for itself at 0, for i^1 and i^3 at 2..3 (round 1),
    for i^2 at 6.  Round 1 receives i^1's two blocks at 4..5 (for i, for i^2); round 2
    sends [5, 7) (one received block, one local: the split of Figure 5) and receives
    at 7..8."""
    prog = Program(p)
    first = {}
    for i in range(p):
        prog.send(i, i ^ 1, 2, addr=2, site="bfly.c:10")
        first[i] = prog.recv(i, i ^ 1, 2, addr=4, site="bfly.c:11")
    for i in range(p):
        prog.send(i, i ^ 2, 2, addr=5, site="bfly.c:14")
        prog.recv(i, i ^ 2, 2, addr=7, site="bfly.c:15")
    return prog


def linear_bcast(p: int, size: int = 8, root: int = 0, reps: int = 1) -> Program:
    prog = Program(p)
    for _ in range(reps):
        for j in range(p):
            if j != root:
                prog.send(root, j, size, addr=100, site="bcast.c:5")
        for j in range(p):
            if j != root:
                prog.recv(j, root, size, addr=200, site="bcast.c:8")
    return prog


def binomial_bcast(p: int, size: int = 8, prog: Program | None = None,
                   reps: int = 1) -> Program:
    """MPICH's binomial tree from root 0; every rank uses its buffer at 100."""
    prog = prog or Program(p)
    for _ in range(reps):
        for rank in range(p):
            mask = 1
            while mask < p:
                if rank & mask:
                    prog.recv(rank, rank - mask, size, addr=100, site="tree.c:9")
                    break
                mask <<= 1
            mask >>= 1
            while mask > 0:
                if rank + mask < p:
                    prog.send(rank, rank + mask, size, addr=100, site="tree.c:14")
                mask >>= 1
    return prog


def linear_scatter(p: int, size: int = 8) -> Program:
    prog = Program(p)
    for j in range(1, p):
        prog.send(0, j, size, addr=1000 + j * size, site="scatter.c:5")
    for j in range(1, p):
        prog.recv(j, 0, size, addr=50, site="scatter.c:8")
    return prog


def binomial_scatter(p: int, size: int = 8) -> Program:
    """Root 0 sends each subtree its blocks; inner ranks forward the upper part of
    what they received (their own block stays at the start of their buffer)."""
    prog = Program(p)
    for rank in range(p):
        mask, have = 1, p  # the root holds blocks 0..p-1 at 0
        while mask < p:
            if rank & mask:
                have = min(mask, p - rank)
                prog.recv(rank, rank - mask, have * size, addr=0, site="bsc.c:9")
                break
            mask <<= 1
        mask >>= 1
        while mask > 0:
            if rank + mask < p and mask < have:
                count = min(mask, p - rank - mask)
                prog.send(rank, rank + mask, count * size, addr=mask * size, site="bsc.c:15")
            mask >>= 1
    return prog


def linear_gather(p: int, size: int = 8) -> Program:
    prog = Program(p)
    for j in range(1, p):
        prog.send(j, 0, size, addr=10, site="gather.c:5")
    for j in range(1, p):
        prog.recv(0, j, size, addr=1000 + j * size, site="gather.c:8")
    return prog


def tree_gather(p: int, size: int = 8) -> Program:
    """Binomial gather to 0: rank r collects its subtree's blocks after its own block
    (at 0) and sends them up in one message."""
    prog = Program(p)
    for rank in range(p):
        mask, held = 1, 1
        while mask < p:
            if rank & mask:
                prog.send(rank, rank - mask, held * size, addr=0, site="tg.c:12")
                break
            if rank + mask < p:
                count = min(mask, p - rank - mask)
                prog.recv(rank, rank + mask, count * size, addr=held * size, site="tg.c:16")
                held += count
            mask <<= 1
    return prog


def ring_allgather(p: int, size: int = 8) -> Program:
    """Each rank's block i sits at i*size of its buffer; step k forwards block
    (rank - k) to the right neighbour."""
    prog = Program(p)
    for k in range(p - 1):
        for rank in range(p):
            block = (rank - k) % p
            prog.isend(rank, (rank + 1) % p, size, addr=block * size, site="ring.c:10")
        for rank in range(p):
            block = (rank - k - 1) % p
            r = prog.irecv(rank, (rank - 1) % p, size, addr=block * size, site="ring.c:11")
            prog.wait(rank, [r])
    return prog


def doubling_allgather(p: int, size: int = 8) -> Program:
    """Recursive doubling (p a power of two): at step m a rank swaps its 2^m held
    blocks with rank ^ m.  Each send's content hash covers all its blocks, as the
    runtime records it, so a block's hash differs from step to step."""
    prog = Program(p)
    m = 1
    while m < p:
        for rank in range(p):
            mine = rank & ~(m - 1)
            prog.isend(rank, rank ^ m, size * m, addr=mine * size, content=1000 * m + mine,
                       site="rd.c:9")
        for rank in range(p):
            theirs = (rank ^ m) & ~(m - 1)
            r = prog.irecv(rank, rank ^ m, size * m, addr=theirs * size, site="rd.c:9")
            prog.wait(rank, [r])
        m *= 2
    return prog


def pairwise_alltoall(p: int, size: int = 8) -> Program:
    prog = Program(p)
    for k in range(1, p):
        for rank in range(p):
            dst, src = (rank + k) % p, (rank - k) % p
            prog.send(rank, dst, size, addr=dst * size, site="a2a.c:7")
            prog.recv(rank, src, size, addr=1000 + src * size, site="a2a.c:8")
    return prog


def binomial_reduce(p: int, size: int = 8) -> Program:
    """Receive each child's partial sum into tmp (500), add it into buf (100) unseen,
    send buf to the parent."""
    prog = Program(p)
    for rank in range(p):
        mask = 1
        while mask < p:
            if rank & mask:
                prog.send(rank, rank - mask, size, addr=100, site="red.c:12")
                break
            if rank + mask < p:
                prog.recv(rank, rank + mask, size, addr=500, site="red.c:15")
            mask <<= 1
    return prog


def dissemination_barrier(p: int, reps: int = 1) -> Program:
    prog = Program(p)
    for _ in range(reps):
        d = 1
        while d < p:
            for rank in range(p):
                s = prog.isend(rank, (rank + d) % p, 0, site="bar.c:6")
                r = prog.irecv(rank, (rank - d) % p, 0, site="bar.c:7")
                prog.wait(rank, [s, r])
            d <<= 1
    return prog


def stencil_1d(p: int, size: int = 16, iters: int = 3, periodic: bool = False) -> Program:
    """Halo exchange: send u[1] left and u[n] right, receive into u[0] and u[n+1]."""
    prog = Program(p)
    for _ in range(iters):
        for rank in range(p):
            reqs = []
            for side, peer in ((0, rank - 1), (1, rank + 1)):
                if periodic:
                    peer %= p
                if 0 <= peer < p:
                    reqs.append(prog.irecv(rank, peer, size, addr=[0, 900][side],
                                           site="st.c:20"))
                    reqs.append(prog.isend(rank, peer, size, addr=[100, 800][side],
                                           site="st.c:21"))
            prog.wait(rank, reqs)
    return prog


def stencil_2d(rows: int, cols: int, size: int = 16, iters: int = 2) -> Program:
    prog = Program(rows * cols)
    for _ in range(iters):
        for rank in range(rows * cols):
            r, c = divmod(rank, cols)
            reqs = []
            for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    peer = (r + dr) * cols + c + dc
                    reqs.append(prog.irecv(rank, peer, size, addr=k * 1000, site="st2.c:30"))
                    reqs.append(prog.isend(rank, peer, size, addr=5000 + k * 1000,
                                           site="st2.c:31"))
            prog.wait(rank, reqs)
    return prog


def pipeline(p: int, size: int = 8, items: int = 4) -> Program:
    """Stage i receives into `in`, computes `out`, sends `out` on."""
    prog = Program(p)
    for _ in range(items):
        for rank in range(p):
            if rank > 0:
                prog.recv(rank, rank - 1, size, addr=10, site="pipe.c:8")
            if rank < p - 1:
                prog.send(rank, rank + 1, size, addr=20, site="pipe.c:10")
    return prog


def master_worker(p: int, tasks: int = 10, size: int = 4, seed: int = 1) -> Program:
    """Master 0 hands out tasks from one buffer (its contents change), collects results
    with MPI_ANY_SOURCE into one buffer, ends with zero-byte stop messages."""
    rng = random.Random(seed)
    prog = Program(p)
    given = 0
    for w in range(1, p):
        given += 1
        prog.send(0, w, size, addr=40, content=given, site="mw.c:10")
        prog.recv(w, 0, size, addr=60, site="mw.c:30")
    busy = list(range(1, p))
    while busy:
        w = busy.pop(rng.randrange(len(busy)))
        prog.send(w, 0, size, addr=70, tag=1, site="mw.c:33")
        prog.recv(0, w, size, addr=44, tag=1, wildcard=True, site="mw.c:14")
        if given < tasks:
            given += 1
            prog.send(0, w, size, addr=40, content=given, site="mw.c:16")
            prog.recv(w, 0, size, addr=60, site="mw.c:30")
            busy.append(w)
        else:
            prog.send(0, w, 0, addr=40, tag=2, site="mw.c:19")
            prog.recv(w, 0, 0, addr=60, tag=2, site="mw.c:30")
    return prog


def noise(prog: Program, count: int, size: int = 3, seed: int = 7) -> Program:
    """``count`` unrelated messages between random pairs, in their own buffers."""
    rng = random.Random(seed)
    p = prog.graph.nranks
    for k in range(count):
        a = rng.randrange(p)
        b = (a + 1 + rng.randrange(p - 1)) % p
        prog.send(a, b, size, addr=10**6 + k * 8, tag=99, site="noise.c:1")
        prog.recv(b, a, size, addr=2 * 10**6 + k * 8, tag=99, site="noise.c:2")
    return prog
