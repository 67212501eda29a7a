"""Find and run the underlying MPI C compiler (never mpicc-wrap itself)."""

from __future__ import annotations

import os
import shlex
import sys

from mpicc_wrap.errors import WrapError

__all__ = ["ACTIVE_MARKER", "NOT_FOUND", "find", "identity", "replace", "run"]

# Set in the environment of every process we start: if it is already set when we
# start, the "underlying compiler" called us back and we would recurse forever.
ACTIVE_MARKER = "MPICC_WRAP_ACTIVE"
NOT_FOUND = "no MPI C compiler found; install MPI or set MPICC_WRAP_CC"


def is_self(path: str) -> bool:
    """True when ``path`` is (a link to) mpicc-wrap: its resolved name, the running
    script, or a Python launcher script whose entry point is mpicc_wrap."""
    real = os.path.realpath(path)
    if os.path.basename(real) == "mpicc-wrap":
        return True
    if sys.argv and sys.argv[0] and os.path.realpath(sys.argv[0]) == real:
        return True
    try:
        with open(real, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"mpicc_wrap" in head


def which(name: str, path: str) -> str | None:
    """``shutil.which`` for an executable name or path (without importing shutil,
    which pass-through runs would pay for)."""
    candidates = [name] if os.sep in name else [
        os.path.join(directory or ".", name) for directory in path.split(os.pathsep)]
    return next((c for c in candidates if os.access(c, os.X_OK) and not os.path.isdir(c)),
                None)


def _resolve(command: list[str], path: str) -> str | None:
    found = which(command[0], path) if command else None
    return found if found and not is_self(found) else None


def find(env: dict[str, str] | None = None) -> list[str]:
    """The underlying compiler command: $MPICC_WRAP_CC, else $MPICC, else the first
    ``mpicc`` on PATH that is not mpicc-wrap.  A variable naming mpicc-wrap itself is
    skipped (``MPICC=mpicc-wrap`` is a common setting)."""
    e = os.environ if env is None else env
    if e.get(ACTIVE_MARKER):
        raise WrapError("the underlying compiler runs mpicc-wrap again; "
                        "set MPICC_WRAP_CC to the real MPI C compiler")
    path = e.get("PATH", os.defpath)
    for var in ("MPICC_WRAP_CC", "MPICC"):
        command = shlex.split(e.get(var, ""))
        if not command:
            continue
        found = which(command[0], path)
        if found is None:
            raise WrapError(f"{var}={e[var]}: command not found")
        if not is_self(found):
            return [found, *command[1:]]
    for directory in path.split(os.pathsep):
        found = _resolve(["mpicc"], directory or ".")
        if found:
            return [found]
    raise WrapError(NOT_FOUND)


def identity(command: list[str]) -> list[str]:
    """The files whose size and mtime stand for the compilers ``command`` runs (the
    direct cache's compiler check): the MPI wrapper and the compiler its -show names."""
    from mpicc_wrap.frontend import handles  # -show: cached, the pipeline has run it

    paths = [os.path.realpath(command[0])]
    try:
        words = shlex.split(handles.show(tuple(command)))
    except ValueError:
        words = []
    found = which(words[0], os.environ.get("PATH", os.defpath)) if words else None
    return paths + ([os.path.realpath(found)] if found else [])


def child_env() -> dict[str, str]:
    """Environment for the processes we start (carries the recursion marker)."""
    env = dict(os.environ)
    env[ACTIVE_MARKER] = "1"
    return env


def run(command: list[str], stdin: bytes | None = None, capture: bool = False,
        ) -> tuple[int, bytes]:
    """Run ``command``; return its exit status (128+N when killed by signal N) and,
    when ``capture``, its stderr (else stderr goes to ours)."""
    import subprocess

    try:
        proc = subprocess.run(
            command, input=stdin, env=child_env(),
            stderr=subprocess.PIPE if capture else None,
        )
    except OSError as exc:
        raise WrapError(f"cannot run {command[0]}: {exc.strerror}") from exc
    return status(proc.returncode), proc.stderr or b""


def status(returncode: int) -> int:
    """A child's exit status as a shell reports it: 128+N when signal N killed it."""
    import signal

    if returncode >= 0:
        return returncode
    return 128 + (-returncode if -returncode in signal.valid_signals() else 1)


def replace(command: list[str]) -> int:
    """Become ``command`` (exec): a pass-through leaves no Python process waiting and
    the compiler's exit status, or the signal that killed it, reaches the caller as
    is.  Returns only by raising ``WrapError`` when the command cannot be executed."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(command[0], command, child_env())
    except OSError as exc:
        raise WrapError(f"cannot run {command[0]}: {exc.strerror}") from exc
    raise AssertionError("unreachable")  # pragma: no cover
