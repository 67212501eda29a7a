"""The on-demand shortcut: a TU that contains no seed has no multi-valued expression.

Every reason the solver records starts at a seed (``Expressions._seed``): a rank output
of an MPI call, a per-process library function (``catalogue.rank_source``), ``getenv``
of a launcher rank variable, or a call of another TU's function whose summary says
``returns_rank`` or lists ``rank_writes``.  Facts only propagate from reasons (data
flow, gating, ``ANY``), so a TU whose code calls none of these answers "single-valued"
to every question, and the fixed point -- most of the analysis time of a TU without
MPI calls, such as a container or I/O utility file -- is skipped (``Uniform``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from pycparser import c_ast

from mpicc_wrap.analysis import catalogue
from mpicc_wrap.analysis.rankdep.exchanges import Seen
from mpicc_wrap.analysis.rankdep.locations import callee
from mpicc_wrap.analysis.visitor import Visitor
from mpicc_wrap.model import FunctionSummary

__all__ = ["Uniform", "call_names", "has_seeds"]


class _Calls(Visitor):
    """The names of the functions called by name anywhere in a TU."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = callee(node)
        if name is not None:
            self.names.add(name)
        self.generic_visit(node)


def _is_seed(name: str, external: Mapping[str, FunctionSummary]) -> bool:
    entry = catalogue.lookup(name)
    summary = external.get(name)
    return (name == "getenv" or catalogue.rank_source(name) is not None
            or (entry is not None and bool(entry.rank_outputs))
            or (summary is not None and (summary.returns_rank or bool(summary.rank_writes))))


def call_names(ast: c_ast.FileAST) -> set[str]:
    """The names of the functions called by name anywhere in the TU."""
    calls = _Calls()
    calls.visit(ast)
    return calls.names


def has_seeds(ast: c_ast.FileAST, external: Mapping[str, FunctionSummary],
              names: set[str] | None = None) -> bool:
    """True if some call of the TU (``names``: its ``call_names``) can introduce a
    per-process value."""
    return any(_is_seed(name, external) for name in (names or call_names(ast)))


class Solved(Protocol):
    """What ``Uniform`` asks of the solve of a TU without seeds."""

    def effects(self, func_name: str) -> tuple[bool, list[str], list[str] | None]: ...
    def ignores_arguments(self, func_name: str) -> bool: ...
    def arg_writes(self, func_name: str) -> list[str] | None: ...
    def init_writes(self, func_name: str) -> list[str]: ...
    def new_writes(self, func_name: str) -> list[str]: ...
    def callbacks(self, func_name: str) -> dict[str, list[str]]: ...
    def called_params(self, func_name: str
                      ) -> tuple[list[int], dict[str, list[str]], list[int]]: ...


class Uniform:
    """The rank-dependence answers of a TU without seeds: everything is single-valued.
    What a function writes (its summary's ``writes``, ``effects.py``) still needs the
    points-to facts: ``solved`` (a callable) solves the TU for them when a summary
    first asks (None: unknown), and the same solve says which callbacks it bound
    (``callbacks.py``: a summary whose writes were found with a bound callback must
    list it).  Without
    them a caller in another TU had to assume that Scotch's ``dgraphGhst2(grafptr)``
    (a file without seeds) writes per-process data through every argument it was
    given."""

    def __init__(self, solved: Callable[[], Solved] | None = None) -> None:
        self._solved = solved

    def reason(self, func_name: str, expr: c_ast.Node, comm: str = "") -> str | None:
        return None

    def returns_rank(self, func_name: str) -> bool:
        return False

    def arm_writes_at(self, test: c_ast.Node) -> Seen:
        return []  # no per-process test: no arms were walked

    def rank_params(self, func_name: str) -> list[int]:
        return []

    def ignores_arguments(self, func_name: str) -> bool:
        return self._solved().ignores_arguments(func_name) if self._solved else False

    def effects(self, func_name: str) -> tuple[bool, list[str], list[str] | None]:
        return False, [], self._solved().effects(func_name)[2] if self._solved else None

    def rank_bits(self, func_name: str) -> dict[str, int]:
        return {}

    def arg_writes(self, func_name: str) -> list[str] | None:
        return self._solved().arg_writes(func_name) if self._solved else None

    def init_writes(self, func_name: str) -> list[str]:
        return self._solved().init_writes(func_name) if self._solved else []

    def new_writes(self, func_name: str) -> list[str]:
        return self._solved().new_writes(func_name) if self._solved else []

    def callbacks(self, func_name: str) -> dict[str, list[str]]:
        return self._solved().callbacks(func_name) if self._solved else {}

    def called_params(self, func_name: str
                      ) -> tuple[list[int], dict[str, list[str]], list[int]]:
        return self._solved().called_params(func_name) if self._solved else ([], {}, [])
