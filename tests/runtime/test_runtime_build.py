"""Building and caching the checker runtime (runtime_build)."""

from __future__ import annotations

import ctypes
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mpirun import is_openmpi, mpicc, mpiexec, mpiexec_command, rank_lines

from mpicc_wrap.errors import WrapError
from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> library.Runtime:
    cache = tmp_path_factory.mktemp("cache")
    return library.ensure_runtime(mpicc(), Options(cache=str(cache)))


def test_build_produces_archive_and_cffi_module(runtime: library.Runtime) -> None:
    assert runtime.archive.is_file() and runtime.module.is_file()
    assert (runtime.include / "mpiccwrap_cc.h").is_file()
    symbols = subprocess.run(["nm", str(runtime.archive)], capture_output=True, text=True,
                             check=True).stdout
    assert " T mpiccwrap_cc" in symbols and " T mpiccwrap_cc_exit" in symbols
    assert runtime.directory.parent.name == "runtime"


def test_link_args_reuse_the_cache(runtime: library.Runtime) -> None:
    options = Options(cache=str(runtime.directory.parent.parent))
    stamp = runtime.archive.stat().st_mtime_ns
    assert library.link_args(mpicc(), options) == [str(runtime.archive), *library.FORCE_LINK]
    assert runtime.archive.stat().st_mtime_ns == stamp


def test_key_depends_on_the_mpi_compiler(tmp_path: Path) -> None:
    other = tmp_path / "mpicc"
    other.write_text("#!/bin/sh\necho other-mpi -lmpi\n")
    other.chmod(0o755)
    assert library.runtime_key(mpicc()) == library.runtime_key(mpicc())
    assert library.runtime_key([str(other)]) != library.runtime_key(mpicc())


def test_build_failure_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "mpicc"
    broken.write_text("#!/bin/sh\necho 'no compiler here' >&2\nexit 3\n")
    broken.chmod(0o755)
    with pytest.raises(WrapError, match="(?s)cannot build the checker runtime: .*no compiler here"):
        library.link_args([str(broken)], Options(cache=str(tmp_path / "c")))
    assert not any(p.is_dir() for p in (tmp_path / "c" / "runtime").iterdir())


def test_cffi_module_is_optional(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(compiler: list[str], build: Path) -> None:
        raise WrapError("cannot build the checker runtime: no Python.h")

    monkeypatch.setattr(library, "_build_module", fail)
    runtime = library.ensure_runtime(mpicc(), Options(cache=str(tmp_path)))
    assert runtime.archive.is_file() and not runtime.module.exists()
    assert "no Python.h" in (runtime.directory / library.MODULE_ERROR).read_text()


def test_concurrent_builds_share_one_complete_cache(tmp_path: Path) -> None:
    code = textwrap.dedent(f"""
        from mpicc_wrap.runtime import library
        from mpicc_wrap.switches import Options
        print(library.link_args({mpicc()!r}, Options(cache={str(tmp_path)!r}))[0])
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs[0] == outs[1] and Path(outs[0]).is_file()
    entries = sorted(p.name for p in (tmp_path / "runtime").iterdir() if p.is_dir())
    assert entries == [Path(outs[0]).parent.name]  # no temporary build left behind


def _load_module(path: Path) -> object:
    spec = importlib.util.spec_from_file_location(library.MODULE, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_embedding_python_helper_formats_ranks(runtime: library.Runtime) -> None:
    lib = ctypes.CDLL(str(runtime.module))
    fmt = lib.mpiccwrap_format_ranks
    ranks = (ctypes.c_int * 5)(0, 1, 2, 3, 5)
    out = ctypes.create_string_buffer(32)
    assert fmt(ranks, 5, out, 32) == 5 and out.value == b"0-3,5"
    assert fmt(ranks, 5, out, 4) == -1


PY_CHECK = """
import importlib.util, os, sys
from mpi4py import MPI
spec = importlib.util.spec_from_file_location("_mpiccwrap_cc", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
ffi, lib = mod.ffi, mod.lib
comm = MPI.COMM_WORLD
keep = [ffi.new("char[]", s) for s in (b"MPI_Barrier", b"", b"t.py", b"main", b"")]
site = ffi.new("struct mpiccwrap_site *", dict(color=7 + comm.rank * (sys.argv[2] == "bug"),
    name=keep[0], comm=keep[1], file=keep[2], line=3, function=keep[3], cond=keep[4]))
lib.mpiccwrap_cc(MPI._handleof(comm), site, lib.MPICCWRAP_NO_ROOT,
                 MPI._handleof(MPI.OP_NULL), -1, MPI._handleof(MPI.DATATYPE_NULL))
comm.Barrier()
sys.stdout.flush()
os.write(1, f"{comm.rank} passed\\n".encode())  # one line, one write, rank first
"""


@pytest.mark.mpi
def test_checker_callable_from_mpi4py(runtime: library.Runtime, tmp_path: Path) -> None:
    if is_openmpi(mpiexec_command()[0]):
        pytest.skip("mpi4py in the venv is built for the MPICH wheel, not for Open MPI")
    script = tmp_path / "check.py"
    script.write_text(PY_CHECK)
    ok = mpiexec(sys.executable, 2, [str(script), str(runtime.module), "ok"], timeout=60)
    assert ok.returncode == 0, ok.output
    assert rank_lines(ok.stdout) == {(0, "passed"), (1, "passed")}, ok.output
    bad = mpiexec(sys.executable, 2, [str(script), str(runtime.module), "bug"], timeout=60)
    assert bad.returncode != 0 and "passed" not in bad.stdout
    assert "DYNAMIC-CHECK: collective mismatch on MPI_COMM_WORLD: rank 0 is about to call " \
        "MPI_Barrier at t.py:3 in main(); rank 1 is about to call MPI_Barrier" in bad.stderr
