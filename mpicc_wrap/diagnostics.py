"""PLACEHOLDER diagnostics (owner replaces): emit(tu, result, options, warning_flags, stream) -> int."""

from __future__ import annotations

from typing import TextIO

from mpicc_wrap.model import ParsedTU, TUAnalysis
from mpicc_wrap.switches import Options


def emit(tu: ParsedTU, result: TUAnalysis, options: Options, warning_flags: dict[str, str],
         stream: TextIO) -> int:
    """Print findings; return the number of warnings escalated to errors (placeholder)."""
    return 0
