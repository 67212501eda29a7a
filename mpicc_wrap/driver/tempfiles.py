"""A private temporary directory that is removed on exit, error, SIGINT and SIGTERM."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from mpicc_wrap.errors import Terminated
from mpicc_wrap.fileutil import write_all

__all__ = ["Terminated", "captured_stderr", "private_dir"]


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def private_dir(keep: bool = False) -> Iterator[str]:
    """A fresh ``mpicc-wrap-*`` directory under the system temp dir (one per
    invocation, so parallel builds never share files).  ``keep`` (MPICC_WRAP_DEBUG)
    leaves it in place and says where."""
    path = tempfile.mkdtemp(prefix="mpicc-wrap-")
    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError):  # not the main thread: keep the default
            previous[sig] = signal.signal(sig, _raise)
    try:
        yield path
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if keep:
            print(f"mpicc-wrap: note: temporary files kept in {path}", file=sys.stderr)
        else:
            shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def captured_stderr(folder: str) -> Iterator[Path]:
    """Everything written to file descriptor 2 in the block, by this process and its
    children, goes to a file in ``folder`` (yielded) and, on leaving, to the real
    stderr in the same order.  Only for a stderr that is not a terminal, where a
    compiler writes the same bytes to a file as to a pipe."""
    log = Path(folder) / "stderr.log"
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 2)
    os.close(fd)
    try:
        yield log
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        with contextlib.suppress(OSError), open(log, "rb") as f:
            while chunk := f.read(1 << 16):
                write_all(2, chunk)
