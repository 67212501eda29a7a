"""Run commands and MPI jobs from tests without ever hanging.

Every job runs in its own process group with a timeout; on timeout the whole group
(mpiexec, hydra proxies and ranks) is killed and the result says so.

The MPI installation is found the way users find it: ``$MPICC_WRAP_CC`` if set, else
the ``mpicc`` of the active environment (this interpreter's ``bin/``, then ``PATH``).
The launcher is the ``mpiexec`` beside that compiler, with the same suffix
(``mpicc.openmpi`` -> ``mpiexec.openmpi``).  Open MPI's ``--oversubscribe`` and, as
root, ``--allow-run-as-root`` are added here, never in user-facing code.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

OPENMPI_CC = "mpicc.openmpi"  # Debian's name for Open MPI's compiler wrapper


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


def search_path() -> str:
    """PATH as the tests' child processes see it: the venv's bin/ first."""
    return f"{bin_dir()}{os.pathsep}{os.environ.get('PATH', '')}"


def mpicc() -> list[str]:
    """The MPI C compiler command: ``$MPICC_WRAP_CC`` (may carry arguments), else the
    active environment's ``mpicc``; the program is resolved to an absolute path."""
    command = shlex.split(os.environ.get("MPICC_WRAP_CC", "")) or ["mpicc"]
    found = shutil.which(command[0], path=search_path())
    if not found:
        raise RuntimeError(f"MPI C compiler {command[0]!r} not found")
    return [found, *command[1:]]


@functools.cache
def _launcher(compiler: str) -> tuple[str, ...]:
    folder, name = os.path.split(compiler)
    sibling = os.path.join(folder, name.replace("mpicc", "mpiexec", 1))
    exe = sibling if "mpicc" in name and os.access(sibling, os.X_OK) else tool("mpiexec")
    if not is_openmpi(exe):
        return (exe,)
    root = ("--allow-run-as-root",) if os.geteuid() == 0 else ()
    return (exe, *root, "--oversubscribe")


@functools.cache
def is_openmpi(launcher: str) -> bool:
    """True when ``launcher`` (an mpiexec) belongs to Open MPI."""
    try:
        out = subprocess.run([launcher, "--version"], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return bool(re.search(r"Open MPI|OpenRTE|open-mpi", out.stdout + out.stderr))


def mpiexec_command() -> list[str]:
    """The launcher matching :func:`mpicc`, with the options tests need."""
    return list(_launcher(mpicc()[0]))


def compiler(name: str) -> list[str]:
    """Command for a compiler named in a test: ``"mpicc"`` is the MPI compiler of the
    run (:func:`mpicc`), anything else a console tool (``"mpicc-wrap"``)."""
    return mpicc() if name == "mpicc" else [tool(name)]


def openmpi_compiler() -> str | None:
    """Path of Open MPI's compiler wrapper, or None when Open MPI is not installed."""
    return shutil.which(OPENMPI_CC)


def rank_lines(stdout: str) -> set[tuple[int, str]]:
    """Lines ``"<rank> <text>"`` of a run's stdout as (rank, text) pairs.

    Tests never depend on the order in which mpiexec interleaves the ranks' output:
    each rank prints its own line, prefixed by its rank, and tests compare sets.  A
    line that does not start with a rank (two ranks' output run together) is kept as
    (-1, line), so it shows up in the comparison instead of vanishing.
    """
    pairs = set()
    for line in stdout.splitlines():
        if not line.strip():
            continue
        m = re.fullmatch(r"(?:rank )?(\d+):? (.*)", line.strip())
        pairs.add((int(m.group(1)), m.group(2)) if m else (-1, line))
    return pairs


def run(cmd: list[str], timeout: float = 120, cwd: str | Path | None = None,
        env: dict[str, str] | None = None, stdin: str | None = None) -> Run:
    """Run ``cmd`` in a new process group; kill the group on timeout."""
    full_env = dict(os.environ)
    full_env["PATH"] = search_path()
    if env:
        full_env.update(env)
    tag = f"{os.getpid()}.{next(_RUNS)}"
    full_env[_TAG] = tag
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
        kill_tagged(tag)  # before reading on: one of them may hold the pipes open
        out, err = proc.communicate()
        return Run(proc.returncode if proc.returncode is not None else -9, out, err, True)
    finally:
        kill_tagged(tag)


# Every process a run starts inherits this variable (MPI launchers pass the environment
# on to the ranks), so what outlives the run is found even outside its process group:
# hydra starts each rank in a session of its own, and a rank whose proxy was killed,
# or whose peers aborted, can spin on in MPI's progress loop forever.
_TAG = "MPICC_WRAP_TEST_RUN"
_RUNS = itertools.count()


def kill_tagged(tag: str) -> list[int]:
    """SIGKILL every process of this machine whose environment carries run ``tag``.

    Scans until a scan finds nothing, and at least twice: a process caught in the
    middle of ``execve`` (``setsid sleep``) shows an empty environment for a moment,
    and one scan missed it in CI."""
    needle = f"{_TAG}={tag}\0".encode()
    killed: list[int] = []
    for scan in range(10):
        found = _kill_matching(needle)
        killed += found
        if scan and not found:
            break
        time.sleep(0.02)
    return killed


def _kill_matching(needle: bytes) -> list[int]:
    """One scan of ``kill_tagged``."""
    killed: list[int] = []
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:  # no /proc: nothing to find
        return killed
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if needle not in environ.read() + b"\0":
                    continue
            os.kill(int(pid), signal.SIGKILL)
            killed.append(int(pid))
        except OSError:
            continue
    return killed


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
    return run([*mpiexec_command(), "-n", str(nprocs), str(exe), *(args or [])],
               timeout=timeout, cwd=cwd, env=env)


# Shared-memory files MPI libraries leave in /dev/shm when a job is killed or aborts.
_SHM_PREFIXES = ("mpich_shm_", "vader_segment.", "sm_segment.", "ucx_shm_")


def release_leaked_shm(since: float, folder: str = "/dev/shm") -> list[str]:
    """Remove MPI shared-memory files made at or after ``since`` that no live process
    maps: what the jobs of this test run leaked (a plain MPICH build's abort, any
    killed hang).  Left there, they fill RAM: 24 GiB in a day of test runs."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(_SHM_PREFIXES)]
    except OSError:
        return []
    if not names:
        return []
    mapped = _mapped_files(os.path.join(folder, ""))
    removed = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            if path not in mapped and os.stat(path).st_mtime >= since:
                os.unlink(path)
                removed.append(name)
        except OSError:
            continue
    return removed


def _mapped_files(folder: str) -> set[str]:
    """Paths of the files in ``folder`` that any process on this machine maps now."""
    mapped: set[str] = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as maps:
                mapped.update(line.split(maxsplit=5)[5].strip() for line in maps
                              if folder in line and line.count(" ") >= 5)
        except OSError:
            continue
    return mapped


def mpiexec_shim(folder: Path) -> Path:
    """Write ``folder/mpiexec``, a script running :func:`mpiexec_command` (for scripts
    such as examples/demo.sh that call plain ``mpiexec``); return ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "mpiexec"
    script.write_text("#!/bin/sh\nexec " + shlex.join(mpiexec_command()) + ' "$@"\n')
    script.chmod(0o755)
    return folder
