"""Compile the user's command while the analysis runs, and keep the result when the
analysis leaves the source as it is.

Most translation units come out of the analysis unchanged (no suspect collective, so
nothing to instrument), and for them the build's answer is exactly what the user's own
command produces.  Running that command only after the analysis put the two times end
to end; a large file waited for its analysis (pnetcdf's 53,000-line ``var_getput.c``:
8 s) and then for gcc (24 s), with the other core of a ``make -j2`` idle at a
directory's last target.  ``Speculation`` starts the command at once, in its own
process group, with its stderr kept in a file of the private directory:

* ``finish()``: the analysis changed nothing -- wait, replay the compiler's stderr
  (after our own findings, the order of a sequential run) and return its exit status.
* ``cancel()``: the analysis rewrote the source, or the build is unwinding -- the
  group gets SIGTERM (SIGKILL after a grace period) and is waited for, so no process
  of it writes the output after the instrumented compile has written it.

It runs only when a CPU is idle (``idle_cpu``).  With every CPU busy -- a ``make -j2``
on two cores in full flow -- the compile beside the analysis only shares their time,
and when the analysis does rewrite the source, what it computed is thrown away: on
fftw3's MPI part, where 12 of 35 TUs are instrumented, speculating always made the
every-TU build 3.59x as long as mpicc's instead of 2.86x.  Where a core idles (a
directory's last target, a serial part of the build) it takes the compile's time off
the critical path (pnetcdf's, whose 53,000-line file ends a directory: 1.99x ->
1.68x, speculating always).

The driver speculates only where the result cannot differ from a sequential run
(``pipeline.Build._may_speculate``): a compile or ``-S`` of named files to a named
output, no input on stdin, none of our warnings escalated to errors (an error must
leave no object behind), not ``MPICC_WRAP_STRICT``, and a stderr that is not a
terminal (a compiler colours what it writes to a terminal, not what goes to a file).
A SIGKILL of mpicc-wrap itself leaves the compile running to its end, as the user's
command would have.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from mpicc_wrap.driver import compiler as cc
from mpicc_wrap.errors import WrapError

__all__ = ["Speculation", "idle_cpu"]

GRACE_SECONDS = 5.0  # after SIGTERM, before SIGKILL
LOADAVG = "/proc/loadavg"


def idle_cpu(loadavg: str | None = None) -> bool:
    """Whether a CPU this process may use has nothing to run now.  Linux's
    ``/proc/loadavg`` counts the tasks runnable at this instant (``1.05 1.37 1.33 3/345
    5784``: 3, this process among them); elsewhere the one-minute load average stands
    in.  ``loadavg``: the file's text (tests)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        if loadavg is None:
            with open(LOADAVG, encoding="ascii") as f:
                loadavg = f.read()
        running = int(loadavg.split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        try:
            running = int(os.getloadavg()[0]) + 1
        except (AttributeError, OSError):
            return False
    return running < cpus


class Speculation:
    """The user's compile command, running in the background."""

    def __init__(self, command: list[str], folder: str) -> None:
        self.log = os.path.join(folder, "speculative-stderr.log")
        with open(self.log, "wb") as err:
            try:
                self.proc = subprocess.Popen(
                    command, env=cc.child_env(), stdin=subprocess.DEVNULL, stderr=err,
                    process_group=0)
            except OSError as exc:
                raise WrapError(f"cannot run {command[0]}: {exc.strerror}") from exc

    def finish(self) -> int:
        """Wait; the compiler's stderr goes to ours; its exit status (128+N when
        killed by signal N, as ``compiler.run`` reports it)."""
        code = self.proc.wait()
        with open(self.log, "rb") as err:
            sys.stderr.flush()
            sys.stderr.buffer.write(err.read())
            sys.stderr.flush()
        if code < 0:
            code = 128 + (-code if -code in signal.valid_signals() else 1)
        return code

    def cancel(self) -> None:
        """Stop the whole process group and wait until none of it is left."""
        if self.proc.poll() is None:
            _signal_group(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                _signal_group(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        _drain_group(self.proc.pid)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the group; False when no process of it is left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - our own children
        return False
    return True


def _drain_group(pgid: int) -> None:
    """Wait for the leader's descendants (the compiler proper, the assembler) that
    outlive it; SIGKILL them after the grace period."""
    deadline = time.monotonic() + GRACE_SECONDS
    while _signal_group(pgid, 0):
        if time.monotonic() > deadline:
            _signal_group(pgid, signal.SIGKILL)
            deadline = time.monotonic() + GRACE_SECONDS
        time.sleep(0.01)
