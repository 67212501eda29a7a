"""Run commands and MPI jobs from tests without ever hanging.

Every job runs in its own process group with a timeout; on timeout the whole group
(mpiexec, hydra proxies and ranks) is killed and the result says so.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def bin_dir() -> Path:
    """The directory of the running interpreter's scripts (venv bin)."""
    return Path(sys.executable).parent


def tool(name: str) -> str:
    """Path of a console tool, preferring the test venv's copy."""
    candidate = bin_dir() / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if not found:
        raise RuntimeError(f"{name} not found")
    return found


def run(cmd: list[str], timeout: float = 120, cwd: str | Path | None = None,
        env: dict[str, str] | None = None, stdin: str | None = None) -> Run:
    """Run ``cmd`` in a new process group; kill the group on timeout."""
    full_env = dict(os.environ)
    full_env["PATH"] = f"{bin_dir()}{os.pathsep}{full_env.get('PATH', '')}"
    if env:
        full_env.update(env)
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=full_env, text=True, start_new_session=True,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        return Run(proc.returncode, out, err, False)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        return Run(proc.returncode if proc.returncode is not None else -9, out, err, True)


def _kill_group(pid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return
        if sig == signal.SIGTERM:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return


def mpiexec(exe: str | Path, nprocs: int, args: list[str] | None = None, timeout: float = 30,
            cwd: str | Path | None = None, env: dict[str, str] | None = None) -> Run:
    """Run an MPI program under ``mpiexec -n nprocs`` with a hard timeout."""
    return run([tool("mpiexec"), "-n", str(nprocs), str(exe), *(args or [])],
               timeout=timeout, cwd=cwd, env=env)
