"""PLACEHOLDER frontend (owner replaces): parse(text, main_file, compiler, options) -> ParsedTU."""

from __future__ import annotations

from mpicc_wrap.errors import AnalysisSkipped
from mpicc_wrap.model import ParsedTU
from mpicc_wrap.switches import Options


def parse(text: str, main_file: str, compiler: list[str], options: Options) -> ParsedTU:
    """Parse a preprocessed TU (placeholder: not implemented yet)."""
    raise AnalysisSkipped("frontend not implemented yet")
