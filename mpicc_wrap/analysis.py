"""PLACEHOLDER analysis (owner replaces): analyse(tu, external) -> TUAnalysis."""

from __future__ import annotations

from mpicc_wrap.model import FunctionSummary, ParsedTU, Stats, TUAnalysis


def analyse(tu: ParsedTU, external: dict[str, FunctionSummary]) -> TUAnalysis:
    """Run the static collective analysis on one TU (placeholder)."""
    return TUAnalysis([], [], {}, Stats())
