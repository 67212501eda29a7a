"""Errors that end an invocation with a one-line message instead of a traceback."""

from __future__ import annotations


class WrapError(Exception):
    """A user-facing failure of mpicc-wrap itself: printed as
    ``mpicc-wrap: error: MESSAGE`` and exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class AnalysisSkipped(Exception):
    """Our own failure on valid code (parser limit, analysis bug).  The driver prints
    ``mpicc-wrap: note: analysis skipped for FILE: REASON`` and compiles the original
    source, unless MPICC_WRAP_STRICT=1."""


class Terminated(BaseException):
    """SIGTERM/SIGHUP arrived: unwind (removing temporary files) and exit 128+N.
    Raised by ``driver.tempfiles``' handlers; defined here so that the failure policy
    (``driver.entry``) need not import the temporary-file machinery."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.exit_code = 128 + signum
