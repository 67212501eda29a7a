"""Cross-TU function summaries: their JSON codec, what a compile can see, and the
link check.

PARCOACH (paper 004 §3.1) summarises each function by the collectives it executes so
that callers can be checked; across translation units those summaries must travel with
the objects.  For every object it compiles the wrapper records the summaries and the
*deferred* findings (a call, under a rank-dependent condition, to a function of
another TU: the warning holds only if that callee executes collectives), encoded here
(``encode``/``decode``) and stored by ``runtime.objects`` in the object's ELF section
and in its side file ``<obj>.mpicc-wrap.json``.

What a build order can see: ``visible`` gives a compile the summaries already
published (``publish``: the side file plus a per-function index beside it) in the
directory of the object it produces and in the current directory, for the names its
TU mentions.  A caller
compiled *after* its callee therefore gets the callee's summary at compile time and is
warned and instrumented then; a caller compiled *before* its callee only records a
deferred finding, which ``link_findings`` turns into a finding at link time, from the
``Record`` of every linked object (``runtime.objects.read_inputs``).  An object with
deferred findings also records how to recompile its source (``rebuild``: path, cwd,
flags, sha256), so that ``relink`` can re-instrument it at the link.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any

from mpicc_wrap import sideindex
from mpicc_wrap.model import Condition, Finding, FunctionSummary, Loc, Note, Pos
from mpicc_wrap.sideindex import INDEX, SCHEMA, SIDE_SUFFIX, side_file
from mpicc_wrap.switches import Options

SECTION = ".mpicc_wrap"
_IDENT = re.compile(r"[A-Za-z_]\w*")

__all__ = ["INDEX", "SCHEMA", "SECTION", "SIDE_SUFFIX", "Record", "decode", "decode_rebuild",
           "encode", "identifiers", "known_summaries", "link_findings", "publish", "resolved",
           "side_file",
           "visible"]

# -- JSON encoding --------------------------------------------------------------------


def encode(summaries: dict[str, FunctionSummary], deferred: list[Finding],
           rebuild: dict[str, Any] | None = None) -> bytes:
    """The JSON record stored for one object.  ``rebuild`` (optional key, so schema 1
    readers ignore it) says how to recompile the object's source at link time."""
    doc: dict[str, Any] = {"schema": SCHEMA, "tool": "mpicc-wrap",
                           "summaries": [dataclasses.asdict(s) for s in summaries.values()],
                           "deferred": [dataclasses.asdict(f) for f in deferred]}
    if rebuild:
        doc["rebuild"] = rebuild
    return json.dumps(doc, sort_keys=True).encode()


def decode(data: bytes) -> tuple[dict[str, FunctionSummary], list[Finding]] | None:
    """Inverse of ``encode``; None for anything unreadable or of another schema."""
    try:
        doc = json.loads(data.rstrip(b"\0"))
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            return None
        sums = [_summary(s) for s in doc["summaries"]]
        return {s.name: s for s in sums}, [_finding(f) for f in doc["deferred"]]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


_SUMMARY_FIELDS = frozenset(f.name for f in dataclasses.fields(FunctionSummary))


def _summary(fields: dict[str, Any]) -> FunctionSummary:
    """A summary from its JSON object; keys a later version added are left out (each
    only refines what the others say, so a summary without it is the conservative
    one), so that objects compiled by a newer mpicc-wrap keep their summaries."""
    return FunctionSummary(**{k: v for k, v in fields.items() if k in _SUMMARY_FIELDS})


def decode_rebuild(data: bytes) -> dict[str, Any] | None:
    """The ``rebuild`` entry of a record (see ``encode``), or None."""
    try:
        doc = json.loads(data.rstrip(b"\0"))
    except ValueError:
        return None
    rebuild = doc.get("rebuild") if isinstance(doc, dict) else None
    return rebuild if isinstance(rebuild, dict) else None


def _finding(d: dict[str, Any]) -> Finding:
    d = dict(d)
    d.pop("suppressed", None)  # written by versions that kept verdicts in findings
    d["pos"], d["loc"] = Pos(**d["pos"]), Loc(**d["loc"])
    d["conditions"] = [Condition(Pos(**c["pos"]), Loc(**c["loc"]), c["text"], c["reason"])
                       for c in d["conditions"]]
    d["notes"] = [Note(Loc(**n["loc"]), n["message"]) for n in d["notes"]]
    return Finding(**d)


# -- visible at compile time ----------------------------------------------------------


def publish(obj_path: str, summaries: dict[str, FunctionSummary], deferred: list[Finding],
            rebuild: dict[str, Any] | None = None) -> bytes:
    """Write the object's side file, then index its summaries by function name beside
    it (``sideindex.publish``).  Returns the record for the ELF section.  Raises
    ``OSError`` (a read-only build directory) after the side file, never before."""
    data = encode(summaries, deferred, rebuild if deferred else None)
    sideindex.publish(obj_path, data,
                      {name: dataclasses.asdict(s) for name, s in summaries.items()})
    return data


def visible(obj_path: str, options: Options, names: Iterable[str] | None = None,
            dirs: Iterable[str] = ()) -> dict[str, FunctionSummary]:
    """Summaries of ``names`` (default: every indexed name) published by the objects of
    the object's directory, of the current directory and of ``dirs`` (the compile's
    ``-I`` directories), except the object's own
    (stale) ones, those whose object is gone (``make clean`` removes objects, not our
    side files: a deleted function must not stay visible) and those its object no
    longer defines (the entry's side-file stamp is out of date): ``sideindex.visible``.

    A compile passes the identifiers of its TU: it reads one small entry per name it
    mentions that another object defines, not every side file of the directory, which
    made a build of N TUs read O(N^2) files."""
    return from_raw(sideindex.visible(obj_path, names, dirs))


def from_raw(entries: list[tuple[str, dict[str, Any]]]) -> dict[str, FunctionSummary]:
    """The summaries of raw index entries (``sideindex.visible``), one per name
    (``sideindex.merged``: a summary that executes collectives wins a clash)."""
    found: dict[str, FunctionSummary] = {}
    for name, raw in sideindex.merged(entries).items():
        try:
            found[name] = _summary(raw)
        except TypeError:
            continue
    return found


def identifiers(text: str) -> set[str]:
    """Every identifier of a TU's text: a superset of the functions it may call or
    take the address of, to look their summaries up with ``visible``."""
    return set(_IDENT.findall(text))


def _merge(into: dict[str, FunctionSummary], new: dict[str, FunctionSummary]) -> None:
    """Add summaries; on a name clash keep one that executes collectives (a static
    function of another TU may share the name: stay on the side of warning)."""
    for name, s in new.items():
        if name not in into or (s.has_collectives and not into[name].has_collectives):
            into[name] = s


# -- link step ------------------------------------------------------------------------


@dataclasses.dataclass
class Record:
    """What one object contributes: where it came from, its summaries and deferrals."""

    origin: str
    summaries: dict[str, FunctionSummary]
    deferred: list[Finding]
    rebuild: dict[str, Any] | None = None  # how to recompile it (objects with deferrals)
    path: str = ""  # the link input it comes from (the archive, for a member)
    member: str = ""  # the archive member name, "" for an object


def link_findings(records: list[Record]) -> list[Finding]:
    """The link check: deferred calls whose callee, now known from the records of every
    linked object, executes collectives.  Returns the findings; the driver prints and
    reports them through ``report.emit`` like compile-time findings."""
    known = known_summaries(records)
    findings: dict[tuple[Loc, str], Finding] = {}
    for r in records:
        for f in resolved(r, known):
            findings.setdefault((f.loc, f.callee), _escalate(f, known[f.callee]))
    return list(findings.values())


def known_summaries(records: list[Record], skip: Record | None = None
                    ) -> dict[str, FunctionSummary]:
    """Every summary of the records (but ``skip``'s), merged as ``_merge`` does."""
    known: dict[str, FunctionSummary] = {}
    for r in records:
        if r is not skip:
            _merge(known, r.summaries)
    return known


def resolved(record: Record, known: dict[str, FunctionSummary]) -> list[Finding]:
    """The deferred findings of ``record`` whose callee, per ``known``, executes
    collectives: they hold."""
    return [f for f in record.deferred
            if f.callee in known and known[f.callee].has_collectives]


def _escalate(f: Finding, callee: FunctionSummary) -> Finding:
    """The link-time warning for a deferred finding whose callee executes collectives."""
    first = callee.sequence[0].split("@")[0] if callee.sequence else "collectives"
    where = f"{first} in {callee.name}() at {callee.file}:{callee.line}"
    message = (f"call to {callee.name}() executes collectives ({where}) and may not be "
               f"reached by all processes")
    return dataclasses.replace(f, collective=f"call to {callee.name}()", message=message)
