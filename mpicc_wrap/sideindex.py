"""The on-disk side of cross-TU summaries, in raw JSON form: an object's side file
``<obj>.mpicc-wrap.json`` and the per-function index beside it
(``.mpicc-wrap-summaries/NAME/KEY.json``, one entry per defining object).

``analysis.summaries`` gives these files their meaning (``FunctionSummary``); this
module only writes and reads them, with nothing heavier than ``json`` imported, so that
the direct cache (``driver.direct``) can republish an object's summaries and check
what a compile would see without loading the analysis.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

from mpicc_wrap.fileutil import write_atomically

__all__ = ["INDEX", "SCHEMA", "SIDE_SUFFIX", "merged", "publish", "side_file", "visible"]

SCHEMA = 1
SIDE_SUFFIX = ".mpicc-wrap.json"
INDEX = ".mpicc-wrap-summaries"  # beside the objects: NAME/KEY.json per defining object


def side_file(obj_path: str) -> str:
    return obj_path + SIDE_SUFFIX


def publish(obj_path: str, record: bytes, summaries: dict[str, dict[str, Any]]) -> None:
    """Write the object's side file (``record``), then index each summary (a
    JSON-ready dict) by function name.  An entry carries the side file's stamp, so it
    goes stale when the object is rebuilt without it.  Raises ``OSError`` (a
    read-only build directory) after the side file, never before."""
    side = side_file(obj_path)
    write_atomically(side, record)
    st = os.stat(side)
    obj = os.path.abspath(obj_path)
    key = hashlib.sha256(obj.encode()).hexdigest()[:20] + ".json"
    index = os.path.join(os.path.dirname(obj), INDEX)
    for name, summary in summaries.items():
        folder = os.path.join(index, name)
        os.makedirs(folder, exist_ok=True)
        entry = {"schema": SCHEMA, "object": obj, "side": [st.st_mtime_ns, st.st_size],
                 "summary": summary}
        write_atomically(os.path.join(folder, key), json.dumps(entry).encode())


def visible(obj_path: str, names: Iterable[str] | None = None, dirs: Iterable[str] = ()
            ) -> list[tuple[str, dict[str, Any]]]:
    """(entry file, summary dict) of every live index entry for ``names`` (default:
    every indexed name) in the directory of ``obj_path``, in the current one and in
    ``dirs`` (the compile's ``-I`` directories: a library built in a subdirectory
    keeps its objects beside the headers its users include, as p4est's libsc in
    ``sc/src``), in a fixed order.  Live: not the object's own (stale) entry, its
    object still exists (``make clean`` removes objects, not our side files) and its
    side file still has the stamp the entry recorded (the object still defines the
    function)."""
    own = os.path.abspath(obj_path)
    wanted = None if names is None else set(names)
    found: list[tuple[str, dict[str, Any]]] = []
    where = {os.path.dirname(own), os.path.abspath(".")} | {os.path.abspath(d) for d in dirs}
    for d in sorted(where):
        index = os.path.join(d, INDEX)
        try:
            listed = set(os.listdir(index))
        except OSError:
            continue
        for name in sorted(listed if wanted is None else listed & wanted):
            found += _entries(os.path.join(index, name), own)
    return found


def merged(entries: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """One summary per function name: the first, unless a later one executes
    collectives and it does not (a static function of another TU may share the name:
    stay on the side of warning)."""
    by_name: dict[str, dict[str, Any]] = {}
    for _, summary in entries:
        name = summary.get("name")
        if not isinstance(name, str):
            continue
        if name not in by_name or (summary.get("has_collectives")
                                   and not by_name[name].get("has_collectives")):
            by_name[name] = summary
    return by_name


def _entries(folder: str, own: str) -> list[tuple[str, dict[str, Any]]]:
    try:
        files = sorted(os.listdir(folder))
    except OSError:
        return []
    paths = (os.path.join(folder, file) for file in files)
    return [(path, summary) for path in paths if (summary := _entry(path, own)) is not None]


def _entry(path: str, own: str) -> dict[str, Any] | None:
    """One index entry's summary, if the entry is live (see ``visible``).  A dead one
    is deleted, so that a build's later compiles do not read it again (``make clean``
    leaves every entry of the directory dead until its object is rebuilt, which
    publishes it anew)."""
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read())
            opened = os.fstat(f.fileno())
        obj = doc["object"]
        if doc.get("schema") != SCHEMA or obj == own:
            return None
        try:
            st = os.stat(side_file(obj))
            live = os.path.exists(obj) and [st.st_mtime_ns, st.st_size] == doc["side"]
        except OSError:
            live = False
        if not live:
            _prune(path, opened)
            return None
        summary = doc["summary"]
        return summary if isinstance(summary, dict) else None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _prune(path: str, opened: os.stat_result) -> None:
    """Delete a dead entry unless a compile has just replaced it (publish renames a new
    file over it: another inode).  The window left between the check and the unlink
    can only hide a summary until its object is next compiled; the link check still
    sees every object."""
    try:
        now = os.stat(path)
        if (now.st_ino, now.st_mtime_ns) == (opened.st_ino, opened.st_mtime_ns):
            os.unlink(path)
    except OSError:
        pass
