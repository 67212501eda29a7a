"""Files that parallel compiles share: exclusive locks and atomic replacement.

Under ``make -j`` many mpicc-wrap processes write the same reports, caches and side
files at once.  Two disciplines keep every reader whole, and this module is the only
place that implements them:

- ``locked``: an exclusive ``flock`` on a file that several writers update in place
  (the JSON Lines report appends under it, the SARIF log is read, merged and
  rewritten under it); ``write_all`` completes a short ``os.write``.
- ``write_atomically``: a complete new file under a unique temporary name in the same
  directory, then ``os.replace`` (side-file summaries, the header and result caches):
  a reader sees the old file or the new one, never a torn one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator

__all__ = ["locked", "read_all", "write_all", "write_atomically"]


@contextlib.contextmanager
def locked(path: str, flags: int) -> Iterator[int]:
    """Open ``path`` (created if missing) with ``flags`` under an exclusive flock; the
    descriptor is closed, and the lock released, on leaving the block."""
    fd = os.open(path, flags | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (os.write may write less than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_all(fd: int) -> bytes:
    """Every byte from the descriptor's position to the end of the file."""
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def write_atomically(path: str, data: bytes, mode: int = 0o666) -> None:
    """Replace ``path`` by a file holding ``data``: written under a unique temporary
    name in the same directory, then renamed over ``path`` with ``os.replace``.
    ``mode`` is filtered by the umask, as ``open`` does (0o600: private to the
    user).  The temporary
    file never outlives a failure; the failure (``OSError``) is the caller's to
    handle."""
    tmp = os.path.join(os.path.dirname(path),
                       f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
