"""PLACEHOLDER cross-TU summaries (owner replaces). API:
store(obj_path, summaries, deferred, options); visible(obj_path, options) -> dict;
link_check(link_inputs, options, stream) -> int (number of errors)."""

from __future__ import annotations

from typing import TextIO

from mpicc_wrap.model import Finding, FunctionSummary
from mpicc_wrap.switches import Options


def store(obj_path: str, summaries: dict[str, FunctionSummary], deferred: list[Finding],
          options: Options) -> None:
    """Record an object's summaries (placeholder: does nothing)."""


def visible(obj_path: str, options: Options) -> dict[str, FunctionSummary]:
    """Summaries of other TUs a compile producing ``obj_path`` can see (placeholder)."""
    return {}


def link_check(link_inputs: list[str], options: Options, stream: TextIO) -> int:
    """Report what only the whole program shows; return escalated errors (placeholder)."""
    return 0
