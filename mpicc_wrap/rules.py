"""The diagnostics mpicc-wrap emits, one registered ``Rule`` per ``-W`` tag.

Every tag a finding may carry is defined here and nowhere else: the analysis tags its
findings with these constants, the command line accepts ``-W[no-][error=]TAG`` only
for these tags, diagnostics print ``[-WTAG]`` and take the default level from here,
the SARIF log describes its rules from here, and the corpus harness checks its
expected tags against this table.  A new diagnosis (deadlock, pattern, ...) becomes a
new ``Rule`` in ``RULES``.

Why a base module and not ``report/``: the registry is read by the analysis (which
names the tags of its findings) and by the command-line model, and the import layers
(``pyproject.toml``, import-linter) let lower layers import only base modules; the
report layer sits above the analysis.  This module imports nothing of the package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["COLLECTIVE_OP", "COLLECTIVE_ORDER", "COLLECTIVE_ROOT", "ERROR_DIVERGENCE",
           "EXIT_DIVERGENCE", "RULES", "Rule", "lookup"]


class Rule(NamedTuple):
    """One diagnostic: its ``-W`` tag, a one-line summary, the level it has when no
    flag names it ("warning", or "off": enabled by ``-WTAG`` only), a help text and the
    templates of its messages (``str.format`` fields; see ``text``).  A NamedTuple, not
    a dataclass: every run imports this module, pass-through runs too, and
    ``dataclasses`` costs them ~20 ms of imports."""

    tag: str
    summary: str
    level: str
    help: str
    messages: Mapping[str, str] = {}  # noqa: RUF012 (read only)

    def text(self, kind: str, **fields: object) -> str:
        """The message ``kind`` of this rule with its fields filled in."""
        return self.messages[kind].format(**fields)


COLLECTIVE_ORDER = Rule(
    "mpi-collective-order",
    "An MPI collective may not be reached by all processes of its communicator, or "
    "processes may call collectives in different orders",
    "warning",
    "A rank-dependent condition decides whether (or in which order) processes reach the "
    "collective (PARCOACH Algorithm 1); the processes that skip it hang the others.",
    {"unreached": "{what} may not be reached by all processes",
     "reorder": "{what} may be called in a different order by different processes",
     # a note of the warning at ``line``: another collective made conditional by the
     # same rank-dependent conditions (one warning per cause)
     "same_cause": "{message}: the same cause as the warning at line {line}"})
COLLECTIVE_ROOT = Rule(
    "mpi-collective-root",
    "The root argument of an MPI collective may differ between processes",
    "warning",
    "MPI requires every process of the communicator to pass the same root; a "
    "rank-dependent root hangs the job or corrupts its data.",
    {"differs": "{name} on {comm}: the root may differ between processes"})
COLLECTIVE_OP = Rule(
    "mpi-collective-op",
    "The reduction operator of an MPI collective may differ between processes",
    "warning",
    "MPI requires every process of the communicator to pass the same reduction "
    "operator; a rank-dependent operator gives undefined results.",
    {"differs": "{name} on {comm}: the operator may differ between processes"})
EXIT_DIVERGENCE = Rule(
    "mpi-exit-divergence",
    "Some processes may exit with a failure status (exit(1), abort(), a failed assert) "
    "while others call a collective; the launcher then ends the job, so this is "
    "reported only on request",
    "off",
    "Off by default: under mpiexec a process that exits with a failure status takes the "
    "whole job down.  -Wmpi-exit-divergence reports these paths.")
ERROR_DIVERGENCE = Rule(
    "mpi-error-divergence",
    "Processes may diverge at a collective only after an MPI call or an allocation "
    "failed on some of them (an error code or a NULL pointer tested), so this is "
    "reported only on request",
    "off",
    "Off by default: the analysis assumes that MPI calls return MPI_SUCCESS (the "
    "default error handler of communicators aborts the job on any error) and that "
    "allocations succeed.  -Wmpi-error-divergence reports the collectives that only a "
    "failure can make some processes skip, such as an MPI_File_read_at error on rank 0 "
    "returned before a broadcast.")

RULES: dict[str, Rule] = {r.tag: r for r in (COLLECTIVE_ORDER, COLLECTIVE_ROOT, COLLECTIVE_OP,
                                             EXIT_DIVERGENCE, ERROR_DIVERGENCE)}


def lookup(tag: str) -> Rule | None:
    """The rule of ``tag`` (with or without its ``mpi-`` prefix), else None."""
    return RULES.get(tag) or RULES.get("mpi-" + tag)
