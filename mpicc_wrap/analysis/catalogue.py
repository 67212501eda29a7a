"""The MPI function catalogue, as data: which MPI-4 calls are collective and where
their communicator, root, operator and data-size arguments are.

The collective families are written once in their blocking form; the nonblocking
(``MPI_I...``), persistent (``..._init``, MPI-4) and large-count (``..._c``) variants
are derived from it because MPI keeps the argument positions and only appends
``request`` (and ``info`` before it for ``_init``).  ``tests/test_catalogue.py`` checks
every entry against the prototypes of the installed ``mpi.h``.

Point-to-point and request calls carry what a run-time matcher reads (peer, tag,
request, status and message arguments; issue 10's wait-for graph, issue 11's
traces), so the interception layer looks positions up here instead of keeping its
own table.

Rank-dependence seeds (PARCOACH §3.2, 004: "rank-dependent" values are those obtained
from MPI_Comm_rank and the like) are here too: ``rank_outputs`` of MPI calls and
``RANK_SOURCE_FUNCTIONS`` for libc/POSIX calls whose result differs between processes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class MPIFunc:
    """What the analyses need to know about one MPI function.

    Argument indices are 0-based; None when the function has no such argument.
    kind: 'collective' (blocking), 'nonblocking', 'persistent', 'neighbor',
    'constructor', 'destructor', 'finalize', 'init', 'rank', 'size', 'p2p-send',
    'p2p-recv', 'wait' (completion: Wait*/Test*), 'start' (MPI_Start/Startall),
    'abort', 'other'.
    """

    name: str
    kind: str
    comm: int | None = None  # communicator (or window/file handle) argument
    root: int | None = None
    op: int | None = None
    count: int | None = None  # count argument for the data-size signature
    datatype: int | None = None  # datatype argument for the data-size signature
    rank_outputs: tuple[int, ...] = ()  # pointer args that receive per-rank values
    shared_outputs: tuple[int, ...] = ()  # pointer args that receive values all ranks share
    handle: str = "comm"  # type of the ``comm`` argument: 'comm', 'win' or 'file'
    # Arguments passed as a pointer to a handle the call reads (and may reset), as in
    # MPI_Comm_free(&c): a check that reads such an argument dereferences it.
    handle_ptrs: tuple[int, ...] = ()
    base: str = ""  # blocking collective this is a variant of ("MPI_Bcast" for MPI_Ibcast)
    # MPI_Request* argument: the request a nonblocking/persistent call creates, or the
    # request (array, when ``nrequests`` is set) a wait/test/start completes or starts.
    request: int | None = None
    inplace: int | None = None  # buffer arg that, when MPI_IN_PLACE, voids count/datatype
    # Point-to-point matching (MPI-4 §3.5): the destination rank and tag a send
    # carries, the source rank and tag a receive or probe matches (Sendrecv has both).
    dest: int | None = None
    sendtag: int | None = None
    source: int | None = None
    recvtag: int | None = None
    status: int | None = None  # MPI_Status* written (an array for Waitall/some, Testall/some)
    message: int | None = None  # MPI_Message* of matched probes and receives (§3.8.2)
    # Completion of requests (§3.7.3-5): count of the request array, and the int*
    # outputs that say which requests completed.
    nrequests: int | None = None
    flag: int | None = None  # Test*, Iprobe, Improbe: did it complete / match
    index: int | None = None  # Waitany/Testany: index; Waitsome/Testsome: the indices
    outcount: int | None = None  # Waitsome/Testsome: how many completed
    # Handle constructors: the pointer argument that receives the new communicator,
    # window or file handle (every member of it made this call: ``rankdep/communicators``).
    creates: int | None = None
    # Local destructors: the null handle they store in their first argument
    # (``rankdep/resets.py``: ``if (h != MPI_INFO_NULL) MPI_Info_free(&h);``)
    resets_to: str = ""

    @property
    def starts_only(self) -> bool:
        """True for calls that start a collective operation and return without waiting
        for the other processes (MPI-4 §6.12: nonblocking collectives; MPI_Comm_idup)."""
        return self.kind == "nonblocking" or (self.kind == "constructor"
                                              and self.request is not None)

    @property
    def is_collective(self) -> bool:
        """True for calls every process of the communicator must make in order."""
        return self.kind in COLLECTIVE_KINDS

    def handle_arg(self, index: int, text: str) -> str:
        """C expression of the handle value the call reads from argument ``index``,
        written ``text`` at the call: ``text`` itself, or the handle it points to when
        the argument is a pointer to a handle (``handles.pointee``)."""
        from mpicc_wrap.frontend.handles import pointee

        return pointee(text) if index in self.handle_ptrs else text

    @property
    def peer(self) -> int | None:
        """The one peer argument of a send, receive or probe (None for Sendrecv, which
        has both ``dest`` and ``source``, and for calls without a peer)."""
        if self.dest is not None and self.source is not None:
            return None
        return self.dest if self.dest is not None else self.source

    @property
    def tag(self) -> int | None:
        """The one tag argument, as :attr:`peer`."""
        if self.sendtag is not None and self.recvtag is not None:
            return None
        return self.sendtag if self.sendtag is not None else self.recvtag

    @property
    def family(self) -> str:
        """The blocking collective name used to match variants (itself if none)."""
        return self.base or self.name

    @property
    def size_equal(self) -> bool:
        """True when MPI requires the data size (count x type size) to be equal on every
        rank: its whole family (blocking, I-, _init and _c forms) does."""
        return self.family in SIZE_EQUAL_FAMILIES and self.count is not None


# Collectives whose data size MPI requires to be equal on every rank; elsewhere
# (Gather, Scatter, Alltoallv, ...) sizes differ legitimately.
SIZE_EQUAL_FAMILIES = frozenset({
    "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan",
    "MPI_Reduce_scatter_block",
})


COLLECTIVE_KINDS = frozenset(
    {"collective", "nonblocking", "persistent", "neighbor", "constructor", "destructor",
     "finalize"}
)

# Blocking collectives (MPI-4 §6).  Signature fields (count/datatype) are those that are
# significant, and equal in type-signature size, on every rank; `inplace` names the
# buffer that may be MPI_IN_PLACE (then count/datatype are ignored on that rank).
_F = MPIFunc
_BLOCKING: tuple[MPIFunc, ...] = (
    _F("MPI_Barrier", "collective", comm=0),
    _F("MPI_Bcast", "collective", comm=4, root=3, count=1, datatype=2, shared_outputs=(0,)),
    _F("MPI_Gather", "collective", comm=7, root=6, count=1, datatype=2, inplace=0,
       rank_outputs=(3,)),
    _F("MPI_Gatherv", "collective", comm=8, root=7, count=1, datatype=2, inplace=0,
       rank_outputs=(3,)),
    _F("MPI_Scatter", "collective", comm=7, root=6, count=4, datatype=5, inplace=3,
       rank_outputs=(3,)),
    _F("MPI_Scatterv", "collective", comm=8, root=7, count=5, datatype=6, inplace=4,
       rank_outputs=(4,)),
    _F("MPI_Allgather", "collective", comm=6, count=4, datatype=5, shared_outputs=(3,)),
    _F("MPI_Allgatherv", "collective", comm=7, shared_outputs=(3,)),
    _F("MPI_Alltoall", "collective", comm=6, count=4, datatype=5, rank_outputs=(3,)),
    _F("MPI_Alltoallv", "collective", comm=8, rank_outputs=(4,)),
    _F("MPI_Alltoallw", "collective", comm=8, rank_outputs=(4,)),
    _F("MPI_Reduce", "collective", comm=6, root=5, op=4, count=2, datatype=3,
       rank_outputs=(1,)),  # recvbuf is only defined at the root
    _F("MPI_Allreduce", "collective", comm=5, op=4, count=2, datatype=3, shared_outputs=(1,)),
    _F("MPI_Reduce_scatter", "collective", comm=5, op=4, datatype=3, rank_outputs=(1,)),
    _F("MPI_Reduce_scatter_block", "collective", comm=5, op=4, count=2, datatype=3,
       rank_outputs=(1,)),
    _F("MPI_Scan", "collective", comm=5, op=4, count=2, datatype=3, rank_outputs=(1,)),
    _F("MPI_Exscan", "collective", comm=5, op=4, count=2, datatype=3, rank_outputs=(1,)),
    # Neighbourhood collectives (MPI-4 §8.6): collective over the topology communicator.
    _F("MPI_Neighbor_allgather", "neighbor", comm=6, rank_outputs=(3,)),
    _F("MPI_Neighbor_allgatherv", "neighbor", comm=7, rank_outputs=(3,)),
    _F("MPI_Neighbor_alltoall", "neighbor", comm=6, rank_outputs=(3,)),
    _F("MPI_Neighbor_alltoallv", "neighbor", comm=8, rank_outputs=(4,)),
    _F("MPI_Neighbor_alltoallw", "neighbor", comm=8, rank_outputs=(4,)),
)


def _nonblocking(f: MPIFunc) -> MPIFunc:
    """MPI_Ixxx: same arguments plus a trailing request."""
    name = "MPI_I" + f.name[4].lower() + f.name[5:]
    return replace(f, name=name, kind="nonblocking", base=f.name, request=_after_comm(f, 1))


def _persistent(f: MPIFunc) -> MPIFunc:
    """MPI_Xxx_init (MPI-4): same arguments plus info and request."""
    return replace(f, name=f.name + "_init", kind="persistent", base=f.name,
                   request=_after_comm(f, 2))


def _after_comm(f: MPIFunc, offset: int) -> int:
    """Index ``offset`` places after the communicator (collectives end with it)."""
    assert f.comm is not None, f.name
    return f.comm + offset


_COLLECTIVE_VARIANTS = tuple(g(f) for f in _BLOCKING for g in (_nonblocking, _persistent))

# Sends (MPI-4 §3.2, 3.4, 3.7.2, 3.9): (buf, count, datatype, dest, tag, comm[, request]),
# with the index of their request argument (None: blocking).
_SENDS: tuple[tuple[str, int | None], ...] = (
    ("MPI_Send", None), ("MPI_Ssend", None), ("MPI_Bsend", None), ("MPI_Rsend", None),
    ("MPI_Isend", 6), ("MPI_Issend", 6), ("MPI_Ibsend", 6), ("MPI_Irsend", 6),
    ("MPI_Send_init", 6), ("MPI_Ssend_init", 6), ("MPI_Bsend_init", 6), ("MPI_Rsend_init", 6),
)

_OTHERS: tuple[MPIFunc, ...] = (
    # Communicator constructors and destructors (MPI-4 §7.4): collective over `comm`.
    _F("MPI_Comm_split", "constructor", comm=0, creates=3),
    _F("MPI_Comm_split_type", "constructor", comm=0, creates=4),
    _F("MPI_Comm_dup", "constructor", comm=0, creates=1),
    _F("MPI_Comm_dup_with_info", "constructor", comm=0, creates=2),
    _F("MPI_Comm_idup", "constructor", comm=0, request=2, creates=1),
    _F("MPI_Comm_idup_with_info", "constructor", comm=0, request=3, creates=2),
    _F("MPI_Comm_create", "constructor", comm=0, creates=2),
    # Collective over the *group* only, not over `comm`: not checked as a collective.
    _F("MPI_Comm_create_group", "other", comm=0, creates=3),
    _F("MPI_Comm_create_from_group", "other", creates=4),
    _F("MPI_Intercomm_create_from_groups", "other", creates=7),
    _F("MPI_Comm_free", "destructor", comm=0, handle_ptrs=(0,)),
    _F("MPI_Comm_disconnect", "destructor", comm=0, handle_ptrs=(0,)),
    _F("MPI_Intercomm_create", "constructor", comm=0, creates=5),
    _F("MPI_Intercomm_merge", "constructor", comm=0, creates=2),
    _F("MPI_Cart_create", "constructor", comm=0, creates=5),
    _F("MPI_Cart_sub", "constructor", comm=0, creates=2),
    _F("MPI_Graph_create", "constructor", comm=0, creates=5),
    _F("MPI_Dist_graph_create", "constructor", comm=0, creates=8),
    _F("MPI_Dist_graph_create_adjacent", "constructor", comm=0,
       creates=9),
    _F("MPI_Comm_spawn", "constructor", comm=5, root=4),
    _F("MPI_Comm_spawn_multiple", "constructor", comm=6, root=5),
    _F("MPI_Comm_accept", "constructor", comm=3, root=2),
    _F("MPI_Comm_connect", "constructor", comm=3, root=2),
    _F("MPI_Comm_set_info", "collective", comm=0),  # collective since MPI-3.0
    # One-sided windows (MPI-4 §12).
    _F("MPI_Win_create", "constructor", comm=4, creates=5),
    _F("MPI_Win_allocate", "constructor", comm=3, rank_outputs=(4,), creates=5),
    _F("MPI_Win_allocate_shared", "constructor", comm=3, rank_outputs=(4,),
       creates=5),
    _F("MPI_Win_create_dynamic", "constructor", comm=1, creates=2),
    _F("MPI_Win_fence", "collective", comm=1, handle="win"),
    _F("MPI_Win_set_info", "collective", comm=0, handle="win"),
    _F("MPI_Win_free", "destructor", comm=0, handle="win", handle_ptrs=(0,)),
    _F("MPI_Win_shared_query", "other", rank_outputs=(2, 3, 4)),
    # Parallel I/O (MPI-4 §14): collective over the file's communicator.
    _F("MPI_File_open", "constructor", comm=0, creates=4),
    _F("MPI_File_close", "destructor", comm=0, handle="file", handle_ptrs=(0,)),
    _F("MPI_File_set_view", "collective", comm=0, handle="file"),
    _F("MPI_File_set_size", "collective", comm=0, handle="file"),
    _F("MPI_File_preallocate", "collective", comm=0, handle="file"),
    _F("MPI_File_set_info", "collective", comm=0, handle="file"),
    _F("MPI_File_set_atomicity", "collective", comm=0, handle="file"),
    _F("MPI_File_sync", "collective", comm=0, handle="file"),
    _F("MPI_File_seek_shared", "collective", comm=0, handle="file"),
    _F("MPI_File_read_all", "collective", comm=0, handle="file", rank_outputs=(1, 4)),
    _F("MPI_File_write_all", "collective", comm=0, handle="file", rank_outputs=(4,)),
    _F("MPI_File_read_at_all", "collective", comm=0, handle="file", rank_outputs=(2, 5)),
    _F("MPI_File_write_at_all", "collective", comm=0, handle="file", rank_outputs=(5,)),
    _F("MPI_File_read_ordered", "collective", comm=0, handle="file", rank_outputs=(1, 4)),
    _F("MPI_File_write_ordered", "collective", comm=0, handle="file", rank_outputs=(4,)),
    # Split collectives: begin and end are each collective, in order.
    _F("MPI_File_read_all_begin", "collective", comm=0, handle="file", rank_outputs=(1,)),
    _F("MPI_File_read_all_end", "collective", comm=0, handle="file", rank_outputs=(1, 2)),
    _F("MPI_File_write_all_begin", "collective", comm=0, handle="file"),
    _F("MPI_File_write_all_end", "collective", comm=0, handle="file", rank_outputs=(2,)),
    _F("MPI_File_read_at_all_begin", "collective", comm=0, handle="file", rank_outputs=(2,)),
    _F("MPI_File_read_at_all_end", "collective", comm=0, handle="file", rank_outputs=(1, 2)),
    _F("MPI_File_write_at_all_begin", "collective", comm=0, handle="file"),
    _F("MPI_File_write_at_all_end", "collective", comm=0, handle="file", rank_outputs=(2,)),
    _F("MPI_File_read_ordered_begin", "collective", comm=0, handle="file", rank_outputs=(1,)),
    _F("MPI_File_read_ordered_end", "collective", comm=0, handle="file", rank_outputs=(1, 2)),
    _F("MPI_File_write_ordered_begin", "collective", comm=0, handle="file"),
    _F("MPI_File_write_ordered_end", "collective", comm=0, handle="file", rank_outputs=(2,)),
    _F("MPI_File_iread_all", "nonblocking", comm=0, handle="file", request=4,
       base="MPI_File_read_all", rank_outputs=(1,)),
    _F("MPI_File_iwrite_all", "nonblocking", comm=0, handle="file", request=4,
       base="MPI_File_write_all"),
    _F("MPI_File_iread_at_all", "nonblocking", comm=0, handle="file", request=5,
       base="MPI_File_read_at_all", rank_outputs=(2,)),
    _F("MPI_File_iwrite_at_all", "nonblocking", comm=0, handle="file", request=5,
       base="MPI_File_write_at_all"),
    # Process lifetime.  Finalize has no communicator: collective over all processes.
    _F("MPI_Finalize", "finalize"),
    _F("MPI_Init", "init"),
    _F("MPI_Init_thread", "init", shared_outputs=(3,)),
    _F("MPI_Abort", "abort", comm=0),
    # Rank and size queries (the seeds of rank dependence, PARCOACH §3.2).
    _F("MPI_Comm_rank", "rank", comm=0, rank_outputs=(1,)),
    _F("MPI_Group_rank", "rank", rank_outputs=(1,)),
    _F("MPI_Cart_coords", "rank", comm=0, rank_outputs=(3,)),
    _F("MPI_Cart_rank", "rank", comm=0, rank_outputs=(2,)),
    _F("MPI_Cart_shift", "rank", comm=0, rank_outputs=(3, 4)),
    _F("MPI_Cart_get", "rank", comm=0, rank_outputs=(4,), shared_outputs=(2, 3)),
    _F("MPI_Dist_graph_neighbors", "rank", comm=0, rank_outputs=(2, 3, 5, 6)),
    _F("MPI_Get_processor_name", "other", rank_outputs=(0, 1)),
    _F("MPI_Comm_size", "size", comm=0, shared_outputs=(1,)),
    _F("MPI_Comm_remote_size", "size", comm=0, shared_outputs=(1,)),
    _F("MPI_Group_size", "size", shared_outputs=(1,)),
    _F("MPI_Cartdim_get", "other", comm=0, shared_outputs=(1,)),
    _F("MPI_Dims_create", "other", shared_outputs=(2,)),
    _F("MPI_Topo_test", "other", comm=0, shared_outputs=(1,)),
    _F("MPI_Comm_test_inter", "other", comm=0, shared_outputs=(1,)),
    _F("MPI_Reduce_local", "other", op=4, count=2, datatype=3),  # local, not collective
    _F("MPI_Wtime", "other"),
    _F("MPI_Wtick", "other"),
    # Local destructors: each sets its handle argument to the null handle, one value on
    # every process that makes the call.  As unknown functions they wrote it with a
    # value derived from what it pointed to: pnetcdf's 'if (ncp->mpiinfo !=
    # MPI_INFO_NULL) MPI_Info_free(&ncp->mpiinfo);' in ncmpio_free_NC made the handle
    # per-process wherever a summary said the info object's contents were.
    *(_F(name, "other", shared_outputs=(0,), resets_to=null) for name, null in (
        ("MPI_Info_free", "MPI_INFO_NULL"), ("MPI_Type_free", "MPI_DATATYPE_NULL"),
        ("MPI_Group_free", "MPI_GROUP_NULL"), ("MPI_Op_free", "MPI_OP_NULL"),
        ("MPI_Errhandler_free", "MPI_ERRHANDLER_NULL"))),
    # Point-to-point (MPI-4 §3).
    *(_F(name, "p2p-send", comm=5, count=1, datatype=2, dest=3, sendtag=4, request=request)
      for name, request in _SENDS),
    _F("MPI_Recv", "p2p-recv", comm=5, count=1, datatype=2, rank_outputs=(0, 6), source=3,
       recvtag=4, status=6),
    _F("MPI_Irecv", "p2p-recv", comm=5, count=1, datatype=2, rank_outputs=(0,), request=6,
       source=3, recvtag=4),
    _F("MPI_Recv_init", "p2p-recv", comm=5, count=1, datatype=2, rank_outputs=(0,),
       request=6, source=3, recvtag=4),
    _F("MPI_Sendrecv", "p2p-recv", comm=10, rank_outputs=(5, 11), dest=3, sendtag=4,
       source=8, recvtag=9, status=11),
    _F("MPI_Sendrecv_replace", "p2p-recv", comm=7, rank_outputs=(0, 8), dest=3, sendtag=4,
       source=5, recvtag=6, status=8),
    _F("MPI_Isendrecv", "p2p-recv", comm=10, rank_outputs=(5,), request=11, dest=3,
       sendtag=4, source=8, recvtag=9),
    _F("MPI_Isendrecv_replace", "p2p-recv", comm=7, rank_outputs=(0,), request=8, dest=3,
       sendtag=4, source=5, recvtag=6),
    _F("MPI_Probe", "p2p-recv", comm=2, rank_outputs=(3,), source=0, recvtag=1, status=3),
    _F("MPI_Iprobe", "p2p-recv", comm=2, rank_outputs=(3, 4), source=0, recvtag=1, flag=3,
       status=4),
    _F("MPI_Mprobe", "p2p-recv", comm=2, rank_outputs=(4,), source=0, recvtag=1, message=3,
       status=4),
    _F("MPI_Improbe", "p2p-recv", comm=2, rank_outputs=(3, 5), source=0, recvtag=1, flag=3,
       message=4, status=5),
    _F("MPI_Mrecv", "p2p-recv", rank_outputs=(0, 4), message=3, status=4),
    _F("MPI_Imrecv", "p2p-recv", rank_outputs=(0,), request=4, message=3),
    _F("MPI_Psend_init", "p2p-send", comm=6, request=8, dest=4, sendtag=5),
    _F("MPI_Precv_init", "p2p-recv", comm=6, rank_outputs=(0,), request=8, source=4,
       recvtag=5),
    # Completion (MPI-4 §3.7.3): statuses, indices and flags differ between ranks.
    _F("MPI_Wait", "wait", rank_outputs=(1,), request=0, status=1),
    _F("MPI_Waitall", "wait", rank_outputs=(2,), nrequests=0, request=1, status=2),
    _F("MPI_Waitany", "wait", rank_outputs=(2, 3), nrequests=0, request=1, index=2, status=3),
    _F("MPI_Waitsome", "wait", rank_outputs=(2, 3, 4), nrequests=0, request=1, outcount=2,
       index=3, status=4),
    _F("MPI_Test", "wait", rank_outputs=(1, 2), request=0, flag=1, status=2),
    _F("MPI_Testall", "wait", rank_outputs=(2, 3), nrequests=0, request=1, flag=2, status=3),
    _F("MPI_Testany", "wait", rank_outputs=(2, 3, 4), nrequests=0, request=1, index=2, flag=3,
       status=4),
    _F("MPI_Testsome", "wait", rank_outputs=(2, 3, 4), nrequests=0, request=1, outcount=2,
       index=3, status=4),
    _F("MPI_Start", "start", request=0),
    _F("MPI_Startall", "start", nrequests=0, request=1),
)

# Functions that also exist as MPI-4 large-count `NAME_c` with the same positions.
_LARGE_COUNT = frozenset(
    {f.name for f in _BLOCKING + _COLLECTIVE_VARIANTS if f.family != "MPI_Barrier"}
    | {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend",
       "MPI_Ibsend", "MPI_Irsend", "MPI_Send_init", "MPI_Ssend_init", "MPI_Bsend_init",
       "MPI_Rsend_init", "MPI_Recv", "MPI_Irecv", "MPI_Recv_init", "MPI_Sendrecv",
       "MPI_Sendrecv_replace", "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Mrecv",
       "MPI_Imrecv", "MPI_Reduce_local", "MPI_Win_create", "MPI_Win_allocate",
       "MPI_Win_allocate_shared", "MPI_Win_shared_query", "MPI_File_read_all",
       "MPI_File_write_all", "MPI_File_read_at_all", "MPI_File_write_at_all",
       "MPI_File_read_ordered", "MPI_File_write_ordered", "MPI_File_read_all_begin",
       "MPI_File_write_all_begin", "MPI_File_read_at_all_begin",
       "MPI_File_write_at_all_begin", "MPI_File_read_ordered_begin",
       "MPI_File_write_ordered_begin", "MPI_File_iread_all", "MPI_File_iwrite_all",
       "MPI_File_iread_at_all", "MPI_File_iwrite_at_all"}
)

_BASE_TABLE = _BLOCKING + _COLLECTIVE_VARIANTS + _OTHERS
_TABLE: tuple[MPIFunc, ...] = _BASE_TABLE + tuple(
    replace(f, name=f.name + "_c", base=f.family) for f in _BASE_TABLE if f.name in _LARGE_COUNT
)

CATALOGUE: dict[str, MPIFunc] = {f.name: f for f in _TABLE}

NORETURN_FUNCTIONS = frozenset(
    {"exit", "_exit", "_Exit", "abort", "quick_exit", "MPI_Abort", "__builtin_unreachable",
     "__builtin_trap", "longjmp", "siglongjmp", "_longjmp", "__longjmp_chk", "pthread_exit",
     "__assert_fail", "__assert_perror_fail", "__assert", "__stack_chk_fail", "err", "errx",
     "verr", "verrx", "thrd_exit", "__builtin_abort", "__builtin_exit"}
)

# Error exits (issue: a rank that exits with a failure status takes the whole job down
# under MPICH's mpiexec and Open MPI's mpirun, checked with both): like MPI_Abort they
# end the job, so a path that can only end in one is an error check, not a divergence.
# ``ERROR_EXITS`` always fail; ``STATUS_EXITS`` fail unless their status argument (at
# the given index) is the constant 0.  -Wmpi-exit-divergence reports them anyway.
ERROR_EXITS = frozenset(
    {"abort", "__builtin_abort", "__builtin_trap", "__assert_fail", "__assert_perror_fail",
     "__assert", "__stack_chk_fail"}
)
STATUS_EXITS: dict[str, int] = {
    "exit": 0, "_exit": 0, "_Exit": 0, "quick_exit": 0, "__builtin_exit": 0,
    "err": 0, "errx": 0, "verr": 0, "verrx": 0,
}


@dataclass(frozen=True)
class RankSource:
    """A non-MPI function whose result may differ between processes.

    ``returns``: the return value is per-process; ``args``: pointer arguments that
    receive per-process values; ``args_from``: every argument from this index on does
    (scanf-style variadics).
    """

    name: str
    returns: bool = True
    args: tuple[int, ...] = ()
    args_from: int | None = None


_R = RankSource
# Seeds of rank dependence outside MPI.  getenv is NOT listed: mpiexec gives every rank
# the same environment except the launcher's rank variables, so getenv is rank-dependent
# only for the names in RANK_ENV_VARS (see is_rank_source_call).  Reading stdin is: only
# rank 0 receives it under mpiexec.
_RANK_SOURCES: tuple[RankSource, ...] = (
    _R("MPI_Wtime"), _R("PMPI_Wtime"), _R("getpid"), _R("getppid"), _R("gettid"),
    _R("pthread_self"), _R("sched_getcpu"), _R("time", args=(0,)), _R("clock"),
    _R("times", args=(0,)), _R("rand"), _R("random"), _R("rand_r"), _R("drand48"),
    _R("lrand48"), _R("mrand48"), _R("erand48"), _R("nrand48"), _R("jrand48"),
    _R("random_r", args=(1,)), _R("arc4random"), _R("arc4random_uniform"),
    _R("getrandom", args=(0,)), _R("getentropy", args=(0,)),
    _R("gettimeofday", args=(0,)), _R("clock_gettime", args=(1,)),
    _R("timespec_get", args=(0,)), _R("ftime", args=(0,)), _R("getrusage", args=(1,)),
    _R("gethostname", args=(0,)), _R("uname", args=(0,)), _R("gethostid"),
    _R("scanf", args_from=1), _R("getchar"), _R("getc_unlocked"),
    _R("MPI_Get_processor_name", args=(0, 1)),
)
RANK_SOURCE_FUNCTIONS: dict[str, RankSource] = {r.name: r for r in _RANK_SOURCES}

# Environment variables launchers set differently on each rank (MPICH/Hydra, Open MPI,
# Slurm, PMIx, Intel MPI, MVAPICH).
RANK_ENV_VARS = frozenset(
    {"PMI_RANK", "PMI_ID", "PMIX_RANK", "MPI_LOCALRANKID", "OMPI_COMM_WORLD_RANK",
     "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_NODE_RANK", "SLURM_PROCID",
     "SLURM_LOCALID", "SLURM_NODEID", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
     "MPI_RANK", "ALPS_APP_PE", "PALS_RANKID", "PALS_LOCAL_RANKID", "HOSTNAME"}
)


# External functions that only read through their pointer arguments: a call of one
# writes no memory (the rank-dependence analysis otherwise assumes an unknown callee
# may write every pointer argument).  MPI functions write only their catalogued outputs.
READ_ONLY_FUNCTIONS = frozenset({
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "perror", "fflush", "free",
    "strlen", "strcmp", "strncmp", "memcmp", "fwrite", "write", "assert", "__assert_fail",
    "exit", "abort", "atoi", "atol", "atof", "strtol", "strtod", "strtoul", "fclose",
})


# The handle types of MPI (MPI-4 §2.5.1): opaque objects the library owns.  Open MPI
# spells a predefined handle as the address of a library global cast to one of them,
# ``((MPI_Datatype) ((void *) &(ompi_mpi_int)))``; such an object holds no data of the
# program, so the rank-dependence analysis gives a value of these types no pointees
# (MPICH's handles are integers and have none either).
HANDLE_TYPES = frozenset({
    "MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Request", "MPI_Errhandler", "MPI_Info",
    "MPI_Group", "MPI_Win", "MPI_File", "MPI_Message", "MPI_Session",
})


def reads_only(name: str) -> bool:
    """True when a call of the external function ``name`` writes no memory."""
    return name in READ_ONLY_FUNCTIONS


def keeps_globals(name: str | None) -> bool:
    """True when a call of ``name`` writes none of the program's variables: a
    read-only function, or an MPI function (which writes only its outputs, the
    arguments it is given).  None (a call through a pointer) may write any."""
    return bool(name) and (reads_only(name or "") or lookup(name or "") is not None)


# External functions that write only the arguments at these positions: the formatted
# output functions write their destination, never the values they format (the
# variadic ``...`` has no prototype that says const, so an unknown callee would be
# taken to write ``base_name`` in hdf5's ``snprintf(fullname, size, "%s/%s", prefix,
# base_name)``).  An assumption: no format holds ``%n``, which writes an ``int *``.
WRITES_ONLY_ARGS: dict[str, frozenset[int]] = {
    "sprintf": frozenset({0}), "snprintf": frozenset({0}), "vsprintf": frozenset({0}),
    "vsnprintf": frozenset({0}), "asprintf": frozenset({0}), "vasprintf": frozenset({0}),
    "__builtin___sprintf_chk": frozenset({0}), "__builtin___snprintf_chk": frozenset({0}),
    "__sprintf_chk": frozenset({0}), "__snprintf_chk": frozenset({0}),
    "__vsprintf_chk": frozenset({0}), "__vsnprintf_chk": frozenset({0}),
}


# External functions whose writes derive from the memory only these arguments point to,
# not from what the destination held: ``memset(p, 0, n)`` stores its second argument,
# ``memcpy(d, s, n)`` what ``s`` points to.  An unknown function is taken to write
# values derived from all it is given, the destination's old contents too, so a
# function that clears a struct whose type some other object of the file leaves
# per-process wrote it per-process in its summary (hdf5's ``H5O_loc_reset(loc)``:
# ``HDmemset(loc, 0, sizeof(H5O_loc_t)); loc->addr = HADDR_UNDEF;``).
READS_MEMORY_OF: dict[str, frozenset[int]] = {
    **dict.fromkeys(("memset", "bzero", "explicit_bzero", "__builtin_memset",
                     "__builtin___memset_chk"), frozenset()),
    **dict.fromkeys(("memcpy", "memmove", "strcpy", "strncpy", "stpcpy", "stpncpy",
                     "__builtin_memcpy", "__builtin_memmove", "__builtin___memcpy_chk",
                     "__builtin___memmove_chk", "__builtin___strcpy_chk",
                     "__builtin___strncpy_chk", "__builtin___stpcpy_chk"),
                    frozenset({1})),
}


def read_args(name: str) -> frozenset[int] | None:
    """The arguments whose pointed-to memory a call of the external function ``name``
    may read into what it writes (None: any)."""
    return READS_MEMORY_OF.get(name)


def written_args(name: str) -> frozenset[int] | None:
    """The argument positions a call of the external function ``name`` may write
    through (None: any not declared pointer-to-const)."""
    return WRITES_ONLY_ARGS.get(name)


def lookup(name: str) -> MPIFunc | None:
    """The catalogue entry for ``name`` (also for its PMPI_ twin), or None."""
    if name.startswith("PMPI_"):
        name = "MPI_" + name[5:]
    return CATALOGUE.get(name)


def rank_source(name: str) -> RankSource | None:
    """The rank-dependence seed entry of a non-MPI function (or its PMPI_ twin)."""
    if name.startswith("PMPI_"):
        name = "MPI_" + name[5:]
    return RANK_SOURCE_FUNCTIONS.get(name)


def is_rank_env(var: str) -> bool:
    """True when getenv(var) may differ between ranks (a launcher rank variable)."""
    return var in RANK_ENV_VARS
