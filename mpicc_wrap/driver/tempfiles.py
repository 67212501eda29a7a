"""A private temporary directory that is removed on exit, error, SIGINT and SIGTERM."""

from __future__ import annotations

import contextlib
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from types import FrameType

from mpicc_wrap.errors import Terminated

__all__ = ["Terminated", "private_dir"]


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
