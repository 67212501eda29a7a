"""The MPI function catalogue, as data (PLACEHOLDER: the frontend/catalogue owner
replaces the table with all of MPI-4; the API below is fixed)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MPIFunc:
    """What the analyses need to know about one MPI function.

    Argument indices are 0-based; None when the function has no such argument.
    kind: 'collective' (blocking), 'nonblocking', 'persistent', 'neighbor',
    'constructor', 'destructor', 'finalize', 'init', 'rank', 'size', 'p2p-send',
    'p2p-recv', 'wait', 'abort', 'other'.
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

    @property
    def is_collective(self) -> bool:
        """True for calls every process of the communicator must make in order."""
        return self.kind in COLLECTIVE_KINDS


COLLECTIVE_KINDS = frozenset(
    {"collective", "nonblocking", "persistent", "neighbor", "constructor", "destructor",
     "finalize"}
)

_TABLE: tuple[MPIFunc, ...] = (
    MPIFunc("MPI_Barrier", "collective", comm=0),
    MPIFunc("MPI_Bcast", "collective", comm=4, root=3, count=1, datatype=2, shared_outputs=(0,)),
    MPIFunc("MPI_Allreduce", "collective", comm=5, op=4, count=2, datatype=3,
            shared_outputs=(1,)),
    MPIFunc("MPI_Reduce", "collective", comm=6, root=5, op=4, count=2, datatype=3,
            rank_outputs=(1,)),
    MPIFunc("MPI_Finalize", "finalize"),
    MPIFunc("MPI_Comm_rank", "rank", comm=0, rank_outputs=(1,)),
    MPIFunc("MPI_Comm_size", "size", comm=0, shared_outputs=(1,)),
    MPIFunc("MPI_Recv", "p2p-recv", comm=5, rank_outputs=(0, 6)),
    MPIFunc("MPI_Abort", "abort", comm=0),
)

CATALOGUE: dict[str, MPIFunc] = {f.name: f for f in _TABLE}

NORETURN_FUNCTIONS = frozenset(
    {"exit", "_exit", "_Exit", "abort", "quick_exit", "MPI_Abort", "__builtin_unreachable",
     "__builtin_trap", "longjmp", "siglongjmp", "pthread_exit", "__assert_fail"}
)


def lookup(name: str) -> MPIFunc | None:
    """The catalogue entry for ``name`` (also for its PMPI_ twin), or None."""
    if name.startswith("PMPI_"):
        name = "MPI_" + name[5:]
    return CATALOGUE.get(name)
