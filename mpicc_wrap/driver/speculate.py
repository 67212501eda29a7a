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

It runs when a CPU is idle (``idle_cpu``), once the TU turns out to be large
(``large``), or when nothing is ever instrumented (``MPICC_WRAP_INSTRUMENT=0``).
With every CPU busy (a ``make -j2`` on two cores in full flow) the compile beside
the analysis only shares their time, and when the analysis does rewrite the source,
the compile's work is thrown away.  Where a core idles (a
directory's last target, a serial part of the build) it takes the compile's time
off the critical path.  Every-TU builds, ``make -j2``, medians of two rounds against
mpicc (README, "Eighth session"):

* pnetcdf, whose 53,000-line ``var_getput.c`` ends a directory: 2.02x off, 1.66x
  with these rules, 1.46x always;
* fftw3's MPI part, where 12 of 35 TUs are instrumented: 2.85x off, 3.07x with these
  rules, 3.32x always (its 4-7 s builds move by 0.3 between rounds).

The driver speculates only where the result cannot differ from a sequential run
(``pipeline.Build._may_speculate``): a compile or ``-S`` of named files to a named
output, no input on stdin, none of our warnings escalated to errors (an error must
leave no object behind), and not ``MPICC_WRAP_STRICT``.  When our stderr is a
terminal, the compiler's is a pseudo-terminal of the same size, so it colours and
wraps its messages as it would on ours.
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

__all__ = ["LARGE_BYTES", "Speculation", "idle_cpu", "large"]

GRACE_SECONDS = 5.0  # after SIGTERM, before SIGKILL
LOADAVG = "/proc/loadavg"
# A TU whose preprocessed text is this large compiles for long (pnetcdf's var_getput.c,
# 2.5 MB: 24 s at -O2) and is analysed for long (8 s): it is the critical path of its
# directory, and overlapping the two pays even when every CPU is busy.  System and MPI
# headers alone make about 0.3 MB (fftw3's MPI files).
LARGE_BYTES = 1 << 20


def large(path: str) -> bool:
    """Whether the preprocessed TU at ``path`` is large (``LARGE_BYTES``)."""
    try:
        return os.path.getsize(path) >= LARGE_BYTES
    except OSError:
        return False


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
    """The user's compile command, running in the background.  ``terminal``: our
    stderr is a terminal, so the compiler's is a pseudo-terminal of the same size
    (``_Terminal``), and it colours and wraps its messages as it would on ours."""

    def __init__(self, command: list[str], folder: str, terminal: bool = False) -> None:
        self.out: _File | _Terminal = _Terminal() if terminal else _File(folder)
        try:
            self.proc = subprocess.Popen(
                command, env=cc.child_env(), stdin=subprocess.DEVNULL,
                stderr=self.out.child_fd, process_group=0)
        except OSError as exc:
            raise WrapError(f"cannot run {command[0]}: {exc.strerror}") from exc
        finally:
            self.out.started()

    def finish(self) -> int:
        """Wait; the compiler's stderr goes to ours; its exit status (128+N when
        killed by signal N, as ``compiler.run`` reports it)."""
        code = self.proc.wait()
        data = self.out.close()
        sys.stderr.flush()
        sys.stderr.buffer.write(data)
        sys.stderr.flush()
        return cc.status(code)

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
        self.out.close()


class _File:
    """The compiler's stderr kept in a file of the private directory."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, "speculative-stderr.log")
        self.child_fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)

    def started(self) -> None:
        os.close(self.child_fd)

    def close(self) -> bytes:
        with open(self.path, "rb") as f:
            return f.read()


class _Terminal:
    """A pseudo-terminal for the compiler's stderr, read by a thread (a compiler
    blocks on a full terminal).  Output processing is off, so the bytes are the ones
    the compiler wrote ("\n", not "\r\n"), and the size is that of our terminal."""

    def __init__(self) -> None:
        import pty
        import termios
        import threading

        self.master, self.child_fd = pty.openpty()
        attrs = termios.tcgetattr(self.child_fd)
        attrs[1] &= ~termios.OPOST
        termios.tcsetattr(self.child_fd, termios.TCSANOW, attrs)
        _copy_size(2, self.child_fd)
        self.chunks: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:  # EIO: every process holding the terminal has closed it
                return
            if not chunk:
                return
            self.chunks.append(chunk)

    def started(self) -> None:
        os.close(self.child_fd)

    def close(self) -> bytes:
        """All the compiler wrote (a process it left behind that still holds the
        terminal does not hold us up for more than the grace period)."""
        self.reader.join(GRACE_SECONDS)
        return b"".join(self.chunks)


def _copy_size(src: int, dst: int) -> None:
    """Give terminal ``dst`` the size of terminal ``src`` (if ``src`` is one)."""
    import fcntl
    import termios

    try:
        size = fcntl.ioctl(src, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(dst, termios.TIOCSWINSZ, size)
    except OSError:
        pass


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
