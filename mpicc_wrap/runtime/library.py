"""Build the run-time checker (cclib/) once per MPI installation and source version.

cclib/ holds three units: the checker (``mpiccwrap_cc.[ch]``, the collective checks
the rewriter inserts calls to), the recorder (``mpiccwrap_recorder.[ch]``, PMPI
interception and the trace file) and the versioned protocol header
(``mpiccwrap_protocol.h``, read by Python through :mod:`mpicc_wrap.protocol`).
Every ``.c`` file goes into the build; both headers are installed beside it.

Two artefacts come out of one build, both compiled WITH THE MPI COMPILER so that
they match the user's MPI exactly:

* ``libmpiccwrap_cc.a``: the plain-C checker (objects built with -fPIC so that
  ``-shared`` links work too).  Instrumented executables link it statically, which
  is why they run under mpiexec with no LD_LIBRARY_PATH and keep working when the
  cache is cleaned after linking; uninstrumented programs do not reference the
  checker, so the linker pulls nothing from the archive and they cost nothing.
* ``_mpiccwrap_cc.so``: the same C sources built by cffi in embedding mode.  It is
  both a Python extension module (tests drive ``mpiccwrap_cc`` from mpi4py through
  it) and a shared library C programs could link.  Its C functions never start
  Python; the only Python-implemented export (``mpiccwrap_format_ranks``, a
  post-mortem helper) runs only when someone calls it.  It is optional: when it
  cannot be built (no Python headers, no cffi), the reason is kept in
  ``cffi-module-error.txt`` and the archive is still used.

The cache lives in ``switches.cache_dir(options)/runtime/<key>/`` where the key
hashes the cclib sources, the templates, the MPI compiler's ``-show`` output and real
path, and the Python and cffi versions.  If the cache is cleaned, already linked
executables keep running; the next link simply rebuilds the runtime.  Concurrent
builds (``make -j``) serialise on an ``fcntl.flock`` lock and build into a temporary
directory that is renamed into place atomically.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from mpicc_wrap import protocol
from mpicc_wrap.errors import WrapError
from mpicc_wrap.packagedata import data_dir
from mpicc_wrap.switches import Options

MODULE = "_mpiccwrap_cc"
ARCHIVE = "libmpiccwrap_cc.a"
DONE = "BUILD-COMPLETE"
MODULE_ERROR = "cffi-module-error.txt"  # why the optional cffi module is missing
BUILD_VERSION = "1"  # bump when the build recipe itself changes
# The deadlock diagnosis (cclib/mpiccwrap_hang.c) intercepts MPI calls of every object,
# so every executable links it, not only those that call the checker (ld's -u holds
# wherever it stands on the command line).
FORCE_LINK = ("-Wl,--undefined=mpiccwrap_hang_anchor",)

# Python-implemented export of the cffi embedding library (post-mortem helper).
PY_API = "int mpiccwrap_format_ranks(const int *ranks, int n, char *out, int outsize);"

# MPI handle types as cffi sees them (integers under MPICH).
_HANDLE_TYPES = """
typedef int... MPI_Comm;
typedef int... MPI_Op;
typedef int... MPI_Datatype;
"""


def c_api() -> str:
    """The C API of the cffi module, read from the headers (no declaration or constant is
    repeated here): the protocol section and the checker's declarations, which cffi's
    API mode then verifies against the real headers when it compiles the module."""
    decls = protocol.checker_declarations().replace("extern ", "")
    return _HANDLE_TYPES + protocol.protocol_section() + "\n" + decls + "\n"


INIT_CODE = f'''
from {MODULE} import ffi


@ffi.def_extern()
def mpiccwrap_format_ranks(ranks, n, out, outsize):
    """Write "0-3,5" for the sorted ranks into out; return the length or -1."""
    values = [ranks[i] for i in range(n)]
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(str(values[i]) if i == j else f"{{values[i]}}-{{values[j]}}")
        i = j + 1
    text = ",".join(parts).encode()
    if len(text) + 1 > outsize:
        return -1
    ffi.memmove(out, text + b"\\0", len(text) + 1)
    return len(text)
'''


@dataclass(frozen=True)
class Runtime:
    """Paths of one built checker runtime."""

    directory: Path
    archive: Path
    module: Path
    include: Path  # holds mpiccwrap_cc.h, mpiccwrap_recorder.h, mpiccwrap_protocol.h


def _package_files(directory: str, suffixes: tuple[str, ...]) -> dict[str, bytes]:
    root = data_dir(directory)
    return {
        entry.name: entry.read_bytes()
        for entry in sorted(root.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(suffixes)
    }


def cclib_sources() -> dict[str, bytes]:
    """The checker's C sources and header, by file name."""
    return _package_files("cclib", (".c", ".h"))


def _compiler_identity(compiler: list[str]) -> str:
    """What distinguishes one MPI installation from another: -show output and path."""
    exe = shutil.which(compiler[0]) or compiler[0]
    parts = [os.path.realpath(exe), *compiler[1:]]
    for flag in ("-show", "-showme"):
        try:
            proc = subprocess.run([*compiler, flag], capture_output=True, text=True,
                                  timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if proc.returncode == 0 and proc.stdout.strip():
            parts.append(proc.stdout.strip())
            break
    return "\n".join(parts)


def runtime_key(compiler: list[str]) -> str:
    """Cache key: cclib sources, templates, build recipe and MPI compiler identity."""
    digest = hashlib.sha256(BUILD_VERSION.encode())
    files = {**cclib_sources(), **_package_files("templates", (".j2",))}
    for name, data in files.items():
        digest.update(name.encode() + b"\0" + data + b"\0")
    digest.update(_compiler_identity(compiler).encode())
    digest.update(f"{sys.version}\0{_cffi_version()}".encode())  # the .so embeds Python
    return digest.hexdigest()[:20]


def _cffi_version() -> str:
    try:
        import cffi
    except ImportError:
        return "none"
    return str(cffi.__version__)


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WrapError(f"cannot build the checker runtime: {cmd[0]}: {exc}") from exc
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr + proc.stdout).strip().splitlines()[-15:])
        raise WrapError(f"cannot build the checker runtime: {' '.join(cmd)} failed:\n{tail}")


def _build_archive(compiler: list[str], build: Path) -> None:
    sources = sorted(p.name for p in build.glob("*.c"))
    objects = []
    for name in sources:
        obj = name[:-2] + ".o"
        _run([*compiler, "-std=c99", "-O2", "-fPIC", "-I", str(build), "-c", name, "-o", obj],
             build)
        objects.append(obj)
    ar = shutil.which("ar")
    if not ar:
        raise WrapError("cannot build the checker runtime: 'ar' not found on PATH")
    _run([ar, "rcs", ARCHIVE, *objects], build)


def _build_module(compiler: list[str], build: Path) -> None:
    """Run the cffi build in a child interpreter: distutils prints, and CC must be set."""
    env = dict(os.environ, CC=" ".join(compiler))
    env.pop("LDSHARED", None)
    code = f"from mpicc_wrap.runtime.library import build_cffi; build_cffi({str(build)!r})"
    _run([sys.executable, "-c", code], build, env)


def build_cffi(build_dir: str) -> None:
    """cffi embedding build of cclib/*.c into build_dir (runs in a child process)."""
    import cffi

    build = Path(build_dir)
    ffi = cffi.FFI()
    ffi.embedding_api(PY_API)
    ffi.cdef(c_api())
    ffi.set_source(MODULE, '#include "mpiccwrap_cc.h"',
                   sources=sorted(str(p) for p in build.glob("*.c")),
                   include_dirs=[str(build)], extra_compile_args=["-std=c99"])
    ffi.embedding_init_code(INIT_CODE)
    ffi.compile(tmpdir=str(build / "cffi"), target=MODULE + ".so")
    shutil.move(str(build / "cffi" / (MODULE + ".so")), str(build / (MODULE + ".so")))
    shutil.rmtree(build / "cffi", ignore_errors=True)


def _paths(directory: Path) -> Runtime:
    return Runtime(directory, directory / ARCHIVE, directory / (MODULE + ".so"), directory)


def _build_into(compiler: list[str], final: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=final.name + ".tmp-", dir=final.parent))
    tmp.chmod(0o755)
    try:
        for name, data in cclib_sources().items():
            (tmp / name).write_bytes(data)
        _build_archive(compiler, tmp)
        try:
            _build_module(compiler, tmp)
        except WrapError as exc:  # executables only need the archive
            (tmp / MODULE_ERROR).write_text(f"{exc}\n")
        (tmp / DONE).write_text("ok\n")
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def ensure_runtime(compiler: list[str], options: Options) -> Runtime:
    """Build the checker runtime for this MPI compiler if the cache lacks it."""
    base = Path(cache_root(options))
    final = base / runtime_key(compiler)
    if (final / DONE).exists():
        return _paths(final)
    try:
        base.mkdir(parents=True, exist_ok=True)
        with open(base / (final.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (final / DONE).exists():
                _build_into(compiler, final)
    except OSError as exc:
        raise WrapError(f"cannot build the checker runtime in {base}: {exc}") from exc
    return _paths(final)


def cache_root(options: Options) -> str:
    """Directory holding one sub-directory per built runtime."""
    from mpicc_wrap.switches import cache_dir

    return os.path.join(cache_dir(options), "runtime")


def link_args(compiler: list[str], options: Options, scratch: str | None = None) -> list[str]:
    """Extra link arguments that add the checker runtime: its static archive, then
    FORCE_LINK (the deadlock diagnosis goes into every executable).

    The archive is linked by path, so the executable needs nothing at run time.  When
    the cache cannot hold it (read-only, not a directory, full), it is built in
    ``scratch`` for this link alone, with a note: an unusable cache never fails a link.
    """
    try:
        return [str(ensure_runtime(compiler, options).archive), *FORCE_LINK]
    except WrapError as exc:
        if scratch is None:
            raise
        print(f"mpicc-wrap: note: {exc}; building it for this link only", file=sys.stderr)
    private = Path(scratch) / "runtime"
    private.parent.mkdir(parents=True, exist_ok=True)
    try:
        _build_into(compiler, private)
    except OSError as exc:
        raise WrapError(f"cannot build the checker runtime in {scratch}: {exc}") from exc
    return [str(_paths(private).archive), *FORCE_LINK]
