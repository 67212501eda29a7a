"""PLACEHOLDER instrumentation (owner replaces): rewrite(tu, plans) -> str."""

from __future__ import annotations

from mpicc_wrap.model import FunctionPlan, ParsedTU


def rewrite(tu: ParsedTU, plans: list[FunctionPlan]) -> str:
    """Return the preprocessed text with CC calls inserted (placeholder: unchanged)."""
    return tu.text
