"""PLACEHOLDER checker-runtime build (owner replaces): link_args(compiler, options) -> list[str]."""

from __future__ import annotations

from mpicc_wrap.switches import Options


def link_args(compiler: list[str], options: Options) -> list[str]:
    """Extra link arguments that add the checker runtime (placeholder: none)."""
    return []
