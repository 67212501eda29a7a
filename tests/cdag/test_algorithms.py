"""The cDAG algorithms on synthetic graphs: matching (App. Alg. 1), dataflow with
splits (Alg. 3, 4), wait sets (§2.3), detection (Alg. 5) and subsets (§4.2)."""

from __future__ import annotations

import patterns as P
import pytest

from mpicc_wrap.cdag.dataflow import propagate
from mpicc_wrap.cdag.graph import Program
from mpicc_wrap.cdag.matching import match
from mpicc_wrap.cdag.report import analyse, format_lines, format_matrix, format_ranks, matrix
from mpicc_wrap.cdag.waitsets import has_barrier_semantics, wait_sets


def found(prog: Program) -> list[tuple[str, int | None, str, int, int, bool]]:
    return [(p.name, p.root, format_ranks(p.ranks), p.bytes, p.count, p.subset)
            for p in analyse(prog.graph).patterns]


# -- matching ------------------------------------------------------------------------


def test_matching_pairs_in_posting_order_per_tag() -> None:
    prog = Program(2)
    s1 = prog.isend(0, 1, 4, tag=1)
    s2 = prog.isend(0, 1, 4, tag=2)
    s3 = prog.isend(0, 1, 4, tag=1)
    r2 = prog.recv(1, 0, 4, tag=2)
    r1 = prog.recv(1, 0, 4, tag=1)
    r3 = prog.recv(1, 0, 4, tag=1)
    m = match(prog.graph)
    assert (m.partner[s1], m.partner[s2], m.partner[s3]) == (r1, r2, r3)
    assert m.unmatched_sends == m.unmatched_recvs == []


def test_matching_follows_dependencies_and_reports_the_unmatched() -> None:
    prog = Program(3)
    prog.recv(1, 0, 4)  # rank 1 waits for 0 before it sends to 2
    s = prog.send(1, 2, 4)
    prog.send(0, 1, 4)
    lost = prog.send(0, 2, 8, tag=5)
    r = prog.recv(2, 1, 4)
    orphan = prog.recv(2, 0, 4, tag=6)
    m = match(prog.graph)
    assert m.partner[s] == r
    assert m.unmatched_sends == [lost] and m.unmatched_recvs == [orphan]


def test_matching_of_the_butterfly_pairs_every_round() -> None:
    prog = P.butterfly_alltoall()
    m = match(prog.graph)
    pairs = {(prog.graph.ops[s].rank, prog.graph.ops[r].rank) for s, r in m.pairs(prog.graph)}
    assert pairs == {(i, i ^ d) for i in range(4) for d in (1, 2)}


# -- dataflow / SST --------------------------------------------------------------------


def test_butterfly_sst_of_process_0_is_one_block_from_each_peer() -> None:
    """Figure 4: the final tuples of process 0 each come straight from the original
    block of one peer, though two of them travelled through another process."""
    prog = P.butterfly_alltoall()
    sst = propagate(prog.graph, match(prog.graph))
    final = sorted((f.src, f.src_addr, f.size, f.dst_addr) for f in sst.flows
                   if f.dst == 0 and not f.forwarded)
    assert final == [(1, 2, 1, 4), (2, 6, 1, 8), (3, 3, 1, 7)]


def test_butterfly_round_two_is_split_into_local_and_forwarded_data() -> None:
    """Figure 5: process 0's two-block message to process 2 holds a block it received
    from process 1 and one of its own: two SST assignments."""
    prog = P.butterfly_alltoall()
    sst = propagate(prog.graph, match(prog.graph))
    into_2 = sorted((f.src, f.src_addr, f.dst_addr) for f in sst.flows
                    if f.dst == 2 and f.dst_addr in (7, 8))
    assert into_2 == [(0, 6, 8), (1, 3, 7)]
    transit = [(f.src, f.dst) for f in sst.flows if f.forwarded]
    assert sorted(transit) == [(0, 1), (1, 0), (2, 3), (3, 2)]


def test_a_send_reads_what_the_latest_receive_wrote() -> None:
    prog = Program(3)
    prog.send(0, 1, 4, addr=10)
    prog.send(2, 1, 4, addr=30)
    prog.recv(1, 0, 4, addr=50)
    prog.send(1, 2, 4, addr=50)  # forwards 0's data
    prog.recv(1, 2, 4, addr=50)  # overwrites it
    prog.send(1, 0, 4, addr=50)  # forwards 2's data
    prog.recv(2, 1, 4, addr=70)
    prog.recv(0, 1, 4, addr=70)
    sst = propagate(prog.graph, match(prog.graph))
    got = {(f.dst, f.dst_addr): (f.src, f.src_addr) for f in sst.flows if not f.forwarded}
    assert got[(2, 70)] == (0, 10) and got[(0, 70)] == (2, 30)


def test_nonblocking_send_posted_before_a_receive_reads_the_old_data() -> None:
    prog = Program(3)
    prog.send(0, 1, 4, addr=10)
    r = prog.irecv(1, 0, 4, addr=50)
    prog.isend(1, 2, 4, addr=50)  # posted before the receive completes: own data
    prog.wait(1, [r])
    prog.recv(2, 1, 4, addr=0)
    sst = propagate(prog.graph, match(prog.graph))
    assert [(f.src, f.src_addr) for f in sst.flows if f.dst == 2] == [(1, 50)]


def test_a_receive_posted_after_a_completion_waits_for_its_data() -> None:
    """Rank 3's second receive is posted after its first completed; that completion
    resolves long before rank 2's send can go (rank 2 first plays ping-pong with rank
    0), so the receive must not count as done until the send delivered: rank 3 then
    forwards rank 2's data."""
    prog = Program(4)
    prog.send(1, 3, 8, addr=10)
    prog.recv(3, 1, 8, addr=100)
    prog.recv(3, 2, 8, addr=200)
    prog.send(3, 1, 8, addr=200)
    prog.recv(1, 3, 8, addr=20)
    for _ in range(4):
        prog.send(2, 0, 4, addr=600, tag=5)
        prog.recv(0, 2, 4, addr=700, tag=5)
        prog.send(0, 2, 4, addr=800, tag=5)
        prog.recv(2, 0, 4, addr=900, tag=5)
    prog.send(2, 3, 8, addr=400)
    sst = propagate(prog.graph, match(prog.graph))
    assert [(f.src, f.src_addr) for f in sst.flows if f.dst == 1] == [(2, 400)]


# -- wait sets ---------------------------------------------------------------------------


def test_wait_sets_of_a_dissemination_barrier_are_complete() -> None:
    prog = P.dissemination_barrier(6)
    masks = wait_sets(prog.graph, match(prog.graph))
    assert has_barrier_semantics(masks, list(range(6)))


def test_wait_sets_of_a_chain_grow_along_it() -> None:
    prog = P.pipeline(4, items=1)
    masks = wait_sets(prog.graph, match(prog.graph))
    assert masks == [0b0001, 0b0011, 0b0111, 0b1111]
    assert not has_barrier_semantics(masks, [0, 1, 2, 3])


# -- detection (Alg. 5) ---------------------------------------------------------------------


def test_butterfly_alltoall_is_detected() -> None:
    assert found(P.butterfly_alltoall()) == [("MPI_Alltoall", None, "0-3", 1, 1, False)]


@pytest.mark.parametrize("p", [3, 5, 8])
@pytest.mark.parametrize(("build", "name", "root"), [
    (P.linear_bcast, "MPI_Bcast", 0), (P.binomial_bcast, "MPI_Bcast", 0),
    (P.linear_scatter, "MPI_Scatter", 0), (P.binomial_scatter, "MPI_Scatter", 0),
    (P.linear_gather, "MPI_Gather", 0), (P.tree_gather, "MPI_Gather", 0),
    (P.ring_allgather, "MPI_Allgather", None), (P.pairwise_alltoall, "MPI_Alltoall", None),
    (P.binomial_reduce, "MPI_Reduce", 0),
])
def test_hand_written_collectives_are_detected(build, name: str, root: int | None,
                                               p: int) -> None:
    assert found(build(p)) == [(name, root, f"0-{p - 1}", 8, 1, False)]


@pytest.mark.parametrize("p", [4, 8])
def test_recursive_doubling_is_an_allgather_though_each_step_hashes_more(p: int) -> None:
    assert found(P.doubling_allgather(p)) == [("MPI_Allgather", None, f"0-{p - 1}", 8, 1,
                                               False)]


def test_dissemination_barrier_is_detected_per_round() -> None:
    assert found(P.dissemination_barrier(5, reps=3)) == [
        ("MPI_Barrier", None, "0-4", 0, 3, False)]


def test_repetitions_are_counted() -> None:
    assert found(P.binomial_bcast(6, reps=4)) == [("MPI_Bcast", 0, "0-5", 8, 4, False)]


@pytest.mark.parametrize(("build", "name"), [
    (P.binomial_bcast, "MPI_Bcast"), (P.ring_allgather, "MPI_Allgather"),
    (P.tree_gather, "MPI_Gather"), (P.binomial_scatter, "MPI_Scatter")])
def test_unrelated_extra_messages_do_not_hide_a_collective(build, name: str) -> None:
    prog = P.noise(build(7), 14)
    assert [p.name for p in analyse(prog.graph).patterns] == [name]


def test_two_processes_are_never_a_collective() -> None:
    assert found(P.linear_bcast(2, reps=5)) == []


@pytest.mark.parametrize(("label", "prog"), [
    ("1-D stencil", P.stencil_1d(6)), ("1-D stencil, 3 ranks", P.stencil_1d(3)),
    ("periodic 1-D stencil", P.stencil_1d(7, periodic=True)),
    ("2-D stencil", P.stencil_2d(3, 3)), ("2-D stencil 2x4", P.stencil_2d(2, 4)),
    ("pipeline", P.pipeline(6)), ("master-worker", P.master_worker(6, tasks=17)),
    ("master-worker, as many tasks as workers", P.master_worker(5, tasks=4)),
])
def test_non_collectives_are_not_reported(label: str, prog: Program) -> None:
    assert found(prog) == [], label


# -- subsets (§4.2) -----------------------------------------------------------------------


def test_rooted_collective_on_a_subset_is_found_with_its_largest_group() -> None:
    prog = Program(8)
    for _ in range(3):
        for j in (2, 4, 6):  # rank 0 broadcasts to the even ranks
            prog.send(0, j, 16, addr=64, site="sub.c:3")
        for j in (2, 4, 6):
            prog.recv(j, 0, 16, addr=64, site="sub.c:5")
    assert found(prog) == [("MPI_Bcast", 0, "0,2,4,6", 16, 3, True)]


def test_a_subset_pattern_seen_once_is_not_reported() -> None:
    prog = Program(8)
    for j in (2, 4, 6):
        prog.send(0, j, 16, addr=64)
        prog.recv(j, 0, 16, addr=64)
    assert found(prog) == []


# -- report ------------------------------------------------------------------------------------


def test_report_line_names_pattern_sites_and_count() -> None:
    lines = format_lines(analyse(P.linear_bcast(4, reps=2).graph))
    assert lines == ["mpicc-wrap: cDAG: pattern MPI_Bcast root=0 ranks=0-3 bytes=8 x2 "
                     "sites=bcast.c:5 (MPI_Send), bcast.c:8 (MPI_Recv)"]


def test_matrix_counts_messages_and_bytes_per_pair() -> None:
    prog = P.linear_bcast(3, size=8, reps=2)
    m = matrix(prog.graph, match(prog.graph))
    assert m == {(0, 1): (2, 16), (0, 2): (2, 16)}


def test_text_matrix_sums_blocks_of_ranks_past_32() -> None:
    """1,024 ranks, a ring: 32 x 32 cells of 32 ranks; a block sends 31 messages to
    itself and one to the next block (the last to the first)."""
    prog = Program(1024)
    for r in range(1024):
        prog.send(r, (r + 1) % 1024, 8)
        prog.recv((r + 1) % 1024, r, 8)
    lines = format_matrix(prog.graph, match(prog.graph))
    assert len(lines) == 33 and lines[0].split()[1:3] == ["0-31", "32-63"]
    assert lines[1].split()[:4] == ["0-31", "31/248", "1/8", "."]
    assert lines[32].split()[1] == "1/8" and lines[32].split()[-1] == "31/248"
    small = format_matrix(P.linear_bcast(3).graph, match(P.linear_bcast(3).graph))
    assert small[1].split() == ["0", ".", "1/8", "1/8"]


def test_a_rewritten_buffer_is_not_forwarded_data() -> None:
    """Rank 1 receives into v, overwrites it and sends it: the hashes differ, so rank
    2 gets rank 1's data, not rank 0's (no broadcast from 0)."""
    prog = Program(3)
    prog.send(0, 1, 4, addr=8, content=11)
    r = prog.recv(1, 0, 4, addr=16)
    prog.graph.ops[r].content = 11
    prog.send(1, 2, 4, addr=16, content=22)
    prog.recv(2, 1, 4, addr=0)
    sst = propagate(prog.graph, match(prog.graph))
    assert [(f.src, f.src_addr) for f in sst.flows if f.dst == 2] == [(1, 16)]
    prog.graph.ops[-2].content = 11  # the same bytes again: forwarded
    sst = propagate(prog.graph, match(prog.graph))
    assert [(f.src, f.src_addr) for f in sst.flows if f.dst == 2] == [(0, 8)]
