"""Environment switches, as a table: the single place that names and documents them.

Every switch is an environment variable so that no command-line flag of gcc or of the
MPI compiler is ever shadowed.  ``mpicc-wrap --wrap-help`` prints this table.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from mpicc_wrap import rules
from mpicc_wrap.errors import WrapError

N = TypeVar("N", int, float)


class Switch(NamedTuple):
    name: str
    default: str
    help: str


SWITCHES: tuple[Switch, ...] = (
    Switch("MPICC_WRAP_CC", "", "underlying MPI compiler command (may carry arguments); "
           "else $MPICC, else the first mpicc on PATH that is not mpicc-wrap"),
    Switch("MPICC_WRAP_DISABLE", "0", "1: pure pass-through to the underlying compiler"),
    Switch("MPICC_WRAP_STRICT", "0", "1: an analysis that cannot run is an error, not a note"),
    Switch("MPICC_WRAP_DEBUG", "0", "1: show Python tracebacks and keep temporary files"),
    Switch("MPICC_WRAP_WERROR", "0", "1: mpicc-wrap warnings are errors (like -Werror=mpi-*)"),
    Switch("MPICC_WRAP_INSTRUMENT", "1", "0: warn only, do not insert run-time checks; "
           "all: check every collective and exit of every function, flagged or not, except "
           "unflagged nonblocking starts (a test mode: a correct program must run exactly "
           "as with plain mpicc)"),
    Switch("MPICC_WRAP_REPORT", "", "append a JSON report of findings and statistics to this file"),
    Switch("MPICC_WRAP_SARIF", "", "write a SARIF 2.1.0 report of findings to this file"),
    Switch("MPICC_WRAP_STATS", "0", "1: print per-TU statistics (collective sites, flagged, ...)"),
    Switch("MPICC_WRAP_CACHE", "", "cache directory (default: $XDG_CACHE_HOME/mpicc-wrap)"),
    Switch("MPICC_WRAP_RESULT_CACHE", "1", "0: do not cache analysis results (a rebuild of "
           "an unchanged TU then re-parses and re-analyses it) nor whole compiles (the "
           "direct cache: an unchanged -c compile replayed without running a compiler)"),
    Switch("MPICC_WRAP_BUDGET", "30", "seconds of analysis per TU (CPU and wall clock); "
           "past it the TU compiles unchanged with a note; 0: no limit"),
    Switch("MPICC_WRAP_MEMORY", "2048", "MiB of memory the analysis of one TU may use; "
           "past it the TU compiles unchanged with a note; 0: no limit"),
    Switch("MPICC_WRAP_SPECULATE", "1", "1: run the user's compile command beside the "
           "analysis when a CPU is idle, the TU is large (1 MiB preprocessed) or nothing "
           "is instrumented, and keep its object if the analysis rewrites nothing (a "
           "compile to a file, no -Werror on our tags); always: for every compile; 0: "
           "compile after the analysis"),
    Switch("MPICC_WRAP_LINE_TABLES", "1", "1: a C compile whose command has no -g option "
           "gets -g1 (line tables only; the code is the same) so that run-time reports name "
           "file:line; 0: compile with the user's debug options only"),
    Switch("MPICC_WRAP_CHECK", "1", "run time: 0 turns the instrumented checks off; all: "
           "check the root, operator and data size of every collective of the program, "
           "whoever compiled it (through the MPI interception)"),
    Switch("MPICC_WRAP_DEADLOCK", "1", "run time: diagnose hangs: a job whose ranks are all "
           "blocked with no call able to complete ends with a DEADLOCK: report and exit code "
           "78; 0 turns the diagnosis off"),
    Switch("MPICC_WRAP_HANG_COLLECTIVES", "0", "run time: 1 lets the deadlock diagnosis see "
           "ranks blocked in collectives too (they then run as their nonblocking forms, "
           "which some MPIs make slower)"),
    Switch("MPICC_WRAP_HANG_TIMEOUT", "10", "run time: seconds a rank waits in one MPI call "
           "before the deadlock diagnosis looks at the job"),
    Switch("MPICC_WRAP_DEADLOCK_DIR", "", "run time: directory of the wait-for graph files "
           "mpiccwrap-deadlock.json and .dot (default: the reporting rank's working directory)"),
    Switch("MPICC_WRAP_SYNC_SENDS", "0", "run time: 1 runs every MPI_Send as MPI_Ssend, so "
           "programs that rely on MPI's buffering deadlock visibly"),
    Switch("MPICC_WRAP_TRACE_DIR", "", "run time: each process writes to this directory "
           "the checks it performed (mpicc-wrap-tool trace DIR) and its trace of "
           "point-to-point calls, probes and blocking collectives (mpicc-wrap-tool matrix "
           "DIR: matrix, calls per site, hand-written collectives)"),
    Switch("MPICC_WRAP_CDAG", "0", "run time: 1 records every point-to-point operation and, "
           "in MPI_Finalize, reports hand-written collectives on world rank 0's stderr"),
    Switch("MPICC_WRAP_CDAG_DIR", "", "run time: directory of the cDAG record files "
           "(default: the working directory)"),
    Switch("MPICC_WRAP_CDAG_MAX", "1000000", "run time: cDAG records per process (104 bytes "
           "each); past it operations are counted, not recorded, with a note"),
    Switch("MPICC_WRAP_CDAG_REPORT", "1", "run time: 0 only writes the cDAG files (analyse "
           "them with mpicc-wrap-tool cdag DIR)"),
    Switch("MPICC_WRAP_CDAG_MEASURE", "1", "run time: 0 does not time the detected "
           "collectives in MPI_Finalize (each is run 1 + 5 times on the pattern's processes "
           "and the report shows its fastest call)"),
    Switch("MPICC_WRAP_TOOL", "", "run time: the mpicc-wrap-tool program rank 0 runs for the "
           "cDAG report (default: the one on PATH)"),
)


def _flag(env: dict[str, str], name: str, default: str) -> bool:
    return env.get(name, default).strip().lower() not in ("", "0", "no", "off", "false")


def _speculate(env: dict[str, str]) -> str:
    if env.get("MPICC_WRAP_SPECULATE", "").strip().lower() == "always":
        return "always"
    return "idle" if _flag(env, "MPICC_WRAP_SPECULATE", "1") else "off"


def _number(env: dict[str, str], name: str, default: str, kind: Callable[[str], N]) -> N:
    """A non-negative number switch; a malformed value is a one-line user error."""
    text = env.get(name, "").strip() or default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value < 0 or value != value:  # NaN is not a budget
        raise WrapError(f"{name}={text}: expected a non-negative number")
    return value


def debug_flag(env: dict[str, str] | None = None) -> bool:
    """MPICC_WRAP_DEBUG, readable before the other switches are validated."""
    return _flag(dict(os.environ if env is None else env), "MPICC_WRAP_DEBUG", "0")


class Options(NamedTuple):
    """Compile-time switches read once per invocation (a NamedTuple for the start-up
    time of pass-through runs, see ``rules.Rule``; change one with ``_replace``)."""

    disable: bool = False
    strict: bool = False
    debug: bool = False
    werror: bool = False
    instrument: bool = True
    instrument_all: bool = False  # MPICC_WRAP_INSTRUMENT=all
    report: str = ""
    sarif: str = ""
    stats: bool = False
    cache: str = ""
    result_cache: bool = True
    budget: float = 30.0
    memory: int = 2048
    line_tables: bool = True  # MPICC_WRAP_LINE_TABLES
    speculate: str = "idle"  # MPICC_WRAP_SPECULATE: off, idle (1) or always
    exit_divergence: bool = False  # set from -Wmpi-exit-divergence, not from the env
    error_divergence: bool = False  # set from -Wmpi-error-divergence, not from the env
    strict_aliasing: bool = True  # False under -fno-strict-aliasing (rankdep/layouts.py)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Options:
        e = dict(os.environ if env is None else env)
        return cls(
            disable=_flag(e, "MPICC_WRAP_DISABLE", "0"),
            strict=_flag(e, "MPICC_WRAP_STRICT", "0"),
            debug=_flag(e, "MPICC_WRAP_DEBUG", "0"),
            werror=_flag(e, "MPICC_WRAP_WERROR", "0"),
            instrument=_flag(e, "MPICC_WRAP_INSTRUMENT", "1"),
            instrument_all=e.get("MPICC_WRAP_INSTRUMENT", "").strip().lower() == "all",
            report=e.get("MPICC_WRAP_REPORT", ""),
            sarif=e.get("MPICC_WRAP_SARIF", ""),
            stats=_flag(e, "MPICC_WRAP_STATS", "0"),
            cache=e.get("MPICC_WRAP_CACHE", ""),
            result_cache=_flag(e, "MPICC_WRAP_RESULT_CACHE", "1"),
            budget=_number(e, "MPICC_WRAP_BUDGET", "30", float),
            memory=_number(e, "MPICC_WRAP_MEMORY", "2048", int),
            line_tables=_flag(e, "MPICC_WRAP_LINE_TABLES", "1"),
            speculate=_speculate(e),
        )


def cache_dir(options: Options) -> str:
    """Directory for caches that must live outside any source tree."""
    if options.cache:
        return options.cache
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mpicc-wrap")


def help_text() -> str:
    """Text of ``mpicc-wrap --wrap-help``."""
    width = max(len(s.name) for s in SWITCHES)
    lines = [
        "mpicc-wrap: drop-in mpicc that checks MPI collective ordering.",
        "Usage: mpicc-wrap [mpicc arguments...]   (every argument goes to the MPI compiler)",
        "       mpicc-wrap --wrap-help             this text",
        "       mpicc-wrap --wrap-cmake-toolchain  print the path of the CMake toolchain file",
        "",
        "Warning flags understood (and not passed on): -Wno-TAG, -Werror=TAG,",
        "-Wno-error=TAG and -WTAG for these tags (default level in brackets):",
        *(f"  -W{r.tag} [{r.level}]: {r.summary}" for r in rules.RULES.values()),
        "",
        "Environment switches:",
    ]
    for s in SWITCHES:
        default = f" (default {s.default})" if s.default else ""
        lines.append(f"  {s.name.ljust(width)}  {s.help}{default}")
    return "\n".join(lines) + "\n"
