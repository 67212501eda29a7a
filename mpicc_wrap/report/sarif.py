"""SARIF 2.1.0 report of findings, one log per build (MPICC_WRAP_SARIF=FILE).

Every TU merges its results into ``runs[0]`` of the same file: read, replace this
TU's previous results (a rebuild must not duplicate them), rewrite in place, all under
an exclusive ``flock`` on the file so that ``make -j`` compiles never lose a result.
Locations under the SARIF file's directory are relative URIs against the base id
``SRCROOT``; others are absolute ``file://`` URIs.  Conditions (PARCOACH Alg. 1's
PDF+ nodes, paper 004 §3.1) and counter-example notes (paper 003 §5) become
``relatedLocations``; findings silenced by the source marker carry an ``inSource``
suppression; findings of a tag turned off (-Wno-TAG) are left out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from mpicc_wrap import rules
from mpicc_wrap.fileutil import locked, read_all, write_all
from mpicc_wrap.model import Finding, Loc, Verdict
from mpicc_wrap.switches import Options

__all__ = ["record_tu", "result", "rule"]

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
TOOL = "mpicc-wrap"
TU_KEY = "mpiccWrapTranslationUnit"  # result property naming the TU that produced it


def rule(tag: str) -> dict[str, Any]:
    """The reportingDescriptor of a diagnostic tag, from the rules registry."""
    known = rules.lookup(tag)
    if known is None:
        return {"id": tag, "name": tag,
                "shortDescription": {"text": f"mpicc-wrap diagnostic -W{tag}"},
                "defaultConfiguration": {"level": "warning"}}
    level = "none" if known.level == "off" else known.level
    return {"id": tag, "name": tag, "shortDescription": {"text": known.summary},
            "fullDescription": {"text": known.help}, "help": {"text": known.help},
            "defaultConfiguration": {"level": level, "enabled": known.level != "off"}}


def empty_log(base: str) -> dict[str, Any]:
    """A SARIF log with one run of mpicc-wrap and no results."""
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [{
            "tool": {"driver": {"name": TOOL, "rules": []}},
            "originalUriBaseIds": {"SRCROOT": {"uri": Path(base).as_uri().rstrip("/") + "/"}},
            "results": [],
        }],
    }


def artifact(file: str, base: str) -> dict[str, str]:
    """artifactLocation of a source path, relative to ``base`` when below it."""
    path = os.path.abspath(file)
    if path.startswith(base.rstrip(os.sep) + os.sep):
        return {"uri": quote(Path(os.path.relpath(path, base)).as_posix()), "uriBaseId": "SRCROOT"}
    return {"uri": Path(path).as_uri()}


def location(loc: Loc, base: str, message: str = "", ident: int | None = None) -> dict[str, Any]:
    """A SARIF location at a user source position, optionally with id and message."""
    region = {"startLine": max(loc.line, 1), "startColumn": max(loc.column, 1)}
    data: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact(loc.file, base),
                                                 "region": region}}
    if ident is not None:
        data["id"] = ident
    if message:
        data["message"] = {"text": message}
    return data


def result(finding: Finding, verdict: Verdict, base: str, tu: str) -> dict[str, Any]:
    """The SARIF result of one finding."""
    related = [(c.loc, c.reason or f"condition '{c.text}'") for c in finding.conditions]
    related += [(n.loc, n.message) for n in finding.notes]
    data: dict[str, Any] = {
        "ruleId": finding.tag,
        "level": verdict.level if verdict.level in ("warning", "error") else "warning",
        "message": {"text": finding.message},
        "locations": [location(finding.loc, base)],
        "relatedLocations": [location(loc, base, text, i) for i, (loc, text) in enumerate(related)],
        "properties": {TU_KEY: tu, "function": finding.function, "collective": finding.collective,
                       "communicator": finding.comm},
    }
    if verdict.suppressed:
        data["suppressions"] = [{"kind": "inSource",
                                 "justification": "mpicc-wrap: ignore marker in the source"}]
    return data


def merge(log: dict[str, Any], tu: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Replace ``tu``'s results in ``runs[0]`` by ``results`` and list their rules."""
    run = log["runs"][0]
    run["results"] = [r for r in run.get("results", [])
                      if r.get("properties", {}).get(TU_KEY) != tu] + results
    rules = run["tool"]["driver"].setdefault("rules", [])
    known = {r["id"] for r in rules}
    rules.extend(rule(t) for t in sorted({r["ruleId"] for r in results} - known))
    return log


def _load(data: bytes, base: str) -> dict[str, Any]:
    """The existing log, or a fresh one when the file is empty or not ours."""
    try:
        log = json.loads(data)
        if log.get("version") == VERSION and log["runs"][0]["tool"]["driver"]["name"] == TOOL:
            return dict(log)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        pass
    return empty_log(base)


def write(path: str, tu: str, results: list[dict[str, Any]]) -> None:
    """Merge one TU's results into the SARIF file at ``path`` under a lock."""
    base = os.path.dirname(os.path.abspath(path))
    with locked(path, os.O_RDWR) as fd:
        old = read_all(fd)
        data = json.dumps(merge(_load(old, base), tu, results)).encode() + b"\n"  # C encoder
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        write_all(fd, data)


def record_tu(options: Options, tu: str, findings: list[Finding], judged: list[Verdict],
              stream: TextIO) -> None:
    """Merge a TU's findings (``judged``: the verdict on each) into the SARIF report, if
    one is requested; findings of a tag turned off are left out."""
    if not options.sarif:
        return
    base = os.path.dirname(os.path.abspath(options.sarif))
    key = os.path.abspath(tu)
    results = [result(f, v, base, key) for f, v in zip(findings, judged, strict=True)
               if v.level != "off"]
    try:
        write(options.sarif, key, results)
    except OSError as err:
        stream.write(f"mpicc-wrap: warning: cannot write SARIF report {options.sarif}: "
                     f"{err.strerror}\n")
