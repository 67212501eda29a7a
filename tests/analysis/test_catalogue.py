"""The catalogue checked against the prototypes of the installed mpi.h."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from mpirun import mpicc, run

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.catalogue import CATALOGUE, lookup

_ATTR = re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")
_PROTO = re.compile(r"\b(?:int|double)\s+(P?MPI_\w+)\s*\(([^;{]*?)\)\s*;", re.S)
_HANDLE_TYPES = {"comm": "MPI_Comm", "win": "MPI_Win", "file": "MPI_File"}


@lru_cache(maxsize=1)
def prototypes() -> dict[str, list[str]]:
    """{MPI function name: [declared parameter text, ...]} from mpicc -E of mpi.h."""
    res = run([*mpicc(), "-E", "-"], stdin="#include <mpi.h>\n", timeout=60)
    assert res.returncode == 0, res.stderr
    text = _ATTR.sub("", re.sub(r"^#.*$", "", res.stdout, flags=re.M))
    protos: dict[str, list[str]] = {}
    for m in _PROTO.finditer(text):
        params = [" ".join(p.split()) for p in m.group(2).split(",")]
        protos[m.group(1)] = [] if params == ["void"] else params
    return protos


def _param_type(param: str) -> str:
    """'const MPI_Comm *comm' -> 'MPI_Comm*' (drop the name and qualifiers)."""
    words = param.replace("*", " * ").replace("[]", " * ").split()
    words = [w for w in words if w not in ("const", "volatile")]
    stars = words.count("*")
    base = [w for w in words if w != "*"]
    return base[0] + "*" * stars


def entry(name: str) -> catalogue.MPIFunc:
    """The catalogue entry of ``name``, which must exist."""
    found = lookup(name)
    assert found is not None, name
    return found


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_entry_matches_mpi_h(name: str) -> None:
    protos = prototypes()
    assert name in protos, f"{name} not declared in mpi.h"
    params = protos[name]
    f = CATALOGUE[name]
    for field in ("comm", "root", "op", "count", "datatype", "request", "inplace"):
        idx = getattr(f, field)
        assert idx is None or idx < len(params), (name, field, idx, params)
    for idx in f.rank_outputs + f.shared_outputs:
        assert idx < len(params) and "*" in _param_type(params[idx]), (name, idx, params)
    if f.comm is not None:
        want = _HANDLE_TYPES[f.handle] + ("*" if f.comm in f.handle_ptrs else "")
        assert _param_type(params[f.comm]) == want, (name, params[f.comm])
    for idx in f.handle_ptrs:  # a pointer to a handle, and nothing else
        assert _param_type(params[idx]) in {t + "*" for t in _HANDLE_TYPES.values()}, (
            name, idx, params[idx])
    if f.root is not None:
        assert _param_type(params[f.root]) == "int"
    if f.op is not None:
        assert _param_type(params[f.op]) == "MPI_Op"
    if f.datatype is not None:
        assert _param_type(params[f.datatype]) == "MPI_Datatype"
    if f.count is not None:
        assert _param_type(params[f.count]) in ("int", "MPI_Count")
    if f.request is not None:
        assert _param_type(params[f.request]) == "MPI_Request*"
    if f.creates is not None:
        assert _param_type(params[f.creates]) in {t + "*" for t in _HANDLE_TYPES.values()}, (
            name, params[f.creates])


# Constructors of handles whose group includes processes that did not make the call:
# the spawned or connected side of an intercommunicator.
_FOREIGN = {"MPI_Comm_spawn", "MPI_Comm_spawn_multiple", "MPI_Comm_accept",
            "MPI_Comm_connect"}


def test_every_constructor_names_its_new_handle() -> None:
    missing = [n for n, f in CATALOGUE.items()
               if f.kind == "constructor" and f.creates is None
               and n.removeprefix("P") not in _FOREIGN]
    assert not missing


@pytest.mark.parametrize("name", sorted(catalogue.RANK_SOURCE_FUNCTIONS))
def test_rank_source_mpi_entries_exist(name: str) -> None:
    if "MPI_" in name:
        assert name in prototypes() or name.replace("PMPI_", "MPI_") in prototypes()


def test_every_blocking_collective_has_all_variants() -> None:
    blocking = [f for f in CATALOGUE.values() if f.kind in ("collective", "neighbor")
                and f.name.startswith(("MPI_Neighbor", "MPI_Barrier", "MPI_Bcast", "MPI_Gather",
                                       "MPI_Scatter", "MPI_All", "MPI_Reduce", "MPI_Scan",
                                       "MPI_Exscan")) and not f.name.endswith("_c")]
    assert len(blocking) == 22
    for f in blocking:
        nb = lookup("MPI_I" + f.name[4].lower() + f.name[5:])
        pers = lookup(f.name + "_init")
        assert nb is not None and nb.kind == "nonblocking" and nb.family == f.name
        assert pers is not None and pers.kind == "persistent" and pers.family == f.name
        assert (lookup(f.name + "_c") is not None) == (f.name != "MPI_Barrier")


def test_kinds_and_collectiveness() -> None:
    assert not entry("MPI_Reduce_local").is_collective
    assert not entry("MPI_Comm_create_group").is_collective
    assert entry("MPI_Comm_split").kind == "constructor"
    assert entry("MPI_Comm_free").kind == "destructor"
    fin = entry("MPI_Finalize")
    assert fin.kind == "finalize" and fin.comm is None and fin.is_collective
    assert entry("MPI_Abort").kind == "abort"
    assert entry("MPI_Win_fence").handle == "win"
    assert entry("MPI_File_write_at_all").handle == "file"
    for name in ("MPI_Comm_free", "MPI_Comm_disconnect", "MPI_Win_free", "MPI_File_close"):
        assert entry(name).handle_ptrs == (0,), name
    assert entry("MPI_Barrier").handle_ptrs == ()
    assert entry("MPI_Send").kind == "p2p-send" and not entry("MPI_Send").is_collective
    assert entry("MPI_Wait").kind == "wait"
    assert entry("MPI_Comm_rank").rank_outputs == (1,)
    assert entry("MPI_Comm_size").shared_outputs == (1,)
    assert entry("MPI_Allreduce").shared_outputs == (1,)
    assert entry("MPI_Alltoall").rank_outputs == (3,)
    assert entry("MPI_Ibcast").request == 5 and entry("MPI_Bcast_init").request == 6


def test_pmpi_and_unknown() -> None:
    assert lookup("PMPI_Barrier") is CATALOGUE["MPI_Barrier"]
    assert lookup("MPI_Not_a_function") is None
    assert lookup("printf") is None
    assert catalogue.rank_source("PMPI_Wtime") is not None


def test_rank_sources_and_noreturn() -> None:
    hostname, getpid = catalogue.rank_source("gethostname"), catalogue.rank_source("getpid")
    assert hostname is not None and hostname.args == (0,)
    assert getpid is not None and getpid.returns
    assert catalogue.rank_source("getenv") is None
    assert catalogue.is_rank_env("PMI_RANK") and not catalogue.is_rank_env("HOME")
    assert {"exit", "abort", "MPI_Abort"} <= catalogue.NORETURN_FUNCTIONS


@pytest.mark.parametrize(("text", "value"), [
    ("&c", "c"), ("& c", "c"), ("&comms[i]", "comms[i]"), ("&s->comm", "s->comm"),
    ("&a.b[2].c", "a.b[2].c"), ("comm", "(*(comm))"), ("p->pcomm", "(*(p->pcomm))"),
    ("&comms[0] + i", "(*(&comms[0] + i))"), ("&(c)", "(*(&(c)))"),
    ("get_comm()", "(*(get_comm()))"), ("(MPI_Comm *) p", "(*((MPI_Comm *) p))"),
])
def test_handle_passed_by_pointer_is_dereferenced(text: str, value: str) -> None:
    """A check reads the handle a destructor is given the address of, never the
    pointer itself (MPI_Comm_free(comm) with ``MPI_Comm *comm``)."""
    assert entry("MPI_Comm_free").handle_arg(0, text) == value
    assert entry("MPI_Barrier").handle_arg(0, text) == text


# -- point-to-point and request arguments (what a run-time matcher reads) -------------

_MATCHING = ("dest", "sendtag", "source", "recvtag", "status", "message", "nrequests",
             "flag", "index", "outcount", "request")
# Field -> (parameter type in mpi.h, parameter names MPICH and Open MPI use).
_MATCHING_PARAMS: dict[str, tuple[str, frozenset[str]]] = {
    "dest": ("int", frozenset({"dest"})),
    "sendtag": ("int", frozenset({"tag", "sendtag"})),
    "source": ("int", frozenset({"source"})),
    "recvtag": ("int", frozenset({"tag", "recvtag"})),
    "status": ("MPI_Status*", frozenset({"status", "array_of_statuses"})),
    "message": ("MPI_Message*", frozenset({"message"})),
    "nrequests": ("int", frozenset({"count", "incount"})),
    "flag": ("int*", frozenset({"flag"})),
    "index": ("int*", frozenset({"index", "indx", "array_of_indices"})),
    "outcount": ("int*", frozenset({"outcount"})),
    "request": ("MPI_Request*", frozenset({"request", "array_of_requests"})),
}
_P2P_KINDS = ("p2p-send", "p2p-recv", "wait", "start")
# mpi.h spellings that differ from the MPI-4 standard's: MPICH 4 names the source of a
# partitioned receive `dest`.
_NAME_QUIRKS = {("MPI_Precv_init", "source"): "dest"}


def _param_name(param: str) -> str | None:
    """'MPI_Request array_of_requests[]' -> 'array_of_requests'; None if unnamed."""
    words = param.replace("*", " ").replace("[]", " ").split()
    return words[-1] if len(words) >= 2 and not words[-1].startswith("MPI_") else None


@pytest.mark.parametrize("name", sorted(n for n, f in CATALOGUE.items() if f.kind in _P2P_KINDS))
def test_matching_arguments_match_mpi_h(name: str) -> None:
    """Every peer, tag, request, status and message argument of a point-to-point or
    request call is in the catalogue, at the position, type and name mpi.h gives."""
    params = prototypes()[name]
    f = CATALOGUE[name]
    found = {field: getattr(f, field) for field in _MATCHING if getattr(f, field) is not None}
    for field, idx in found.items():
        want_type, want_names = _MATCHING_PARAMS[field]
        assert idx < len(params) and _param_type(params[idx]) == want_type, (name, field, params)
        pname = _param_name(params[idx])
        quirk = _NAME_QUIRKS.get((f.family, field))
        assert pname is None or pname in want_names | {quirk}, (name, field, params[idx])
    # Completeness: every parameter of a matching type is described by some field
    # (a tag is the send's or the receive's depending on the direction).
    described = set(found.values())
    for idx, param in enumerate(params):
        kind = _param_type(param)
        if kind in ("MPI_Status*", "MPI_Message*", "MPI_Request*"):
            assert idx in described, (name, idx, param)
        if kind == "int" and _param_name(param) in ("dest", "source", "tag", "sendtag",
                                                     "recvtag"):
            assert idx in described, (name, idx, param)
    sends = f.kind == "p2p-send"
    assert (f.dest is not None) == (f.sendtag is not None)
    assert (f.source is not None) == (f.recvtag is not None)
    assert not sends or f.source is None
    assert f.nrequests is None or f.request == f.nrequests + 1


def test_peer_and_tag_name_the_single_direction() -> None:
    assert (entry("MPI_Send").peer, entry("MPI_Send").tag) == (3, 4)
    assert (entry("MPI_Irecv_c").peer, entry("MPI_Irecv_c").tag) == (3, 4)
    assert (entry("MPI_Probe").peer, entry("MPI_Probe").tag) == (0, 1)
    sendrecv = entry("MPI_Sendrecv")
    assert sendrecv.peer is None and sendrecv.tag is None
    assert (sendrecv.dest, sendrecv.sendtag, sendrecv.source, sendrecv.recvtag) == (3, 4, 8, 9)
    assert entry("MPI_Waitall").nrequests == 0 and entry("MPI_Waitall").status == 2
    assert entry("MPI_Barrier").peer is None
