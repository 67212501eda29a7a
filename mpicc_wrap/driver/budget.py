"""Run one TU's analysis within a time and memory budget, so no build waits on it.

The analysis terminates by construction (bounded domains and walk caps in ``rankdep``),
but a bound that depends on the size of the program can still be large.  This is the
safety net: ``run(fn, seconds, mebibytes)`` calls ``fn`` in a forked child process with

* a wall-clock deadline of ``seconds``: the parent waits at most that long, then kills
  the child (the build never waits longer than the budget);
* a CPU-time limit of ``seconds`` (RLIMIT_CPU; SIGXCPU ends the child);
* an address-space cap of ``mebibytes`` above what the child had at fork (RLIMIT_AS;
  Python raises MemoryError);
* a large stack (``frontend.deep_stack``): deeply nested code (a 400-arm ``else if``
  chain) is walked recursively by the CFG builder and the analyses.

The child pickles ``fn()``'s result (or the reason it failed) into a pipe.  Any failure
becomes ``AnalysisSkipped`` with a one-line reason; the driver then compiles the user's
original source with a note.  A budget of 0 runs ``fn`` in this process, unbounded.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from mpicc_wrap.errors import AnalysisSkipped

__all__ = ["run"]

T = TypeVar("T")
_CHUNK = 1 << 16
TICK_SECONDS = 0.1


def run(fn: Callable[[], T], seconds: float, mebibytes: int, debug: bool = False,
        tick: Callable[[], None] | None = None) -> T:
    """``fn()`` computed in a child within the budget; AnalysisSkipped otherwise.
    ``tick``: called about every ``TICK_SECONDS`` while the child runs."""
    from mpicc_wrap.frontend.parser import deep_stack

    if seconds <= 0:
        return deep_stack(fn)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns
        os.close(read_end)
        _child(fn, write_end, seconds, mebibytes, debug)
    os.close(write_end)
    try:
        data = _collect(read_end, time.monotonic() + seconds, tick)
    finally:
        os.close(read_end)
        status = _reap(pid)
    if data is None:
        raise AnalysisSkipped(f"analysis budget of {seconds:g} s exceeded")
    return _verdict(data, status, seconds, mebibytes)


def _child(fn: Callable[[], Any], fd: int, seconds: float, mebibytes: int,
           debug: bool) -> None:
    """Compute in the child and send ("ok", result) or ("skip", reason); exit at once
    (no atexit handlers: the parent owns the temporary directory)."""
    code = 0
    if not debug:  # what the stage prints travels in the pipe; Python's own last-resort
        _silence_stderr()  # reports (a MemoryError in a thread's excepthook) must not
    try:                   # reach the user's terminal
        _limit(seconds, mebibytes)
        from mpicc_wrap.frontend.parser import deep_stack

        message: tuple[str, Any] = ("ok", deep_stack(fn))
    except AnalysisSkipped as exc:
        message = ("skip", str(exc))
    except MemoryError:
        message = ("skip", f"analysis memory cap of {mebibytes} MiB exceeded")
    except BaseException as exc:  # our bug: one line for the user (traceback on debug)
        if debug:
            traceback.print_exc()
        message = ("skip", f"internal error: {type(exc).__name__}: {exc}")
    try:
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(payload)
    except BaseException:
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(code)


def _silence_stderr() -> None:
    """Point this (child) process's fd 2 at /dev/null."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)


def _limit(seconds: float, mebibytes: int) -> None:
    """CPU-time and address-space limits for this (child) process; the children it
    starts (none, normally) would inherit them."""
    cpu = max(1, int(seconds + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if mebibytes > 0:
        from mpicc_wrap.frontend.parser import STACK_BYTES  # the deep_stack thread reserves it

        cap = _address_space() + STACK_BYTES + (mebibytes << 20)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _address_space() -> int:
    """Bytes of virtual memory this process maps now (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _collect(fd: int, deadline: float, tick: Callable[[], None] | None = None
             ) -> bytes | None:
    """Everything the child writes, or None if the deadline passes first."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], min(left, TICK_SECONDS) if tick else left)
        if not ready:
            if tick is not None:
                tick()
            continue
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> int:
    """Wait for the child, killing it if it is still running; its wait status."""
    finished, status = os.waitpid(pid, os.WNOHANG)
    if finished == 0:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        status = os.waitpid(pid, 0)[1]
    return status


def _verdict(data: bytes, status: int, seconds: float, mebibytes: int) -> Any:
    """The child's result, or AnalysisSkipped saying why there is none."""
    if data:
        try:
            kind, value = pickle.loads(data)
        except Exception as exc:
            raise AnalysisSkipped(f"internal error: unreadable analysis result ({exc})"
                                  ) from None
        if kind == "ok":
            return value
        raise AnalysisSkipped(str(value))
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
        raise AnalysisSkipped(f"analysis budget of {seconds:g} s exceeded")
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        raise AnalysisSkipped(f"analysis killed (memory cap of {mebibytes} MiB?)")
    raise AnalysisSkipped(f"analysis process ended without a result (status {status})")
