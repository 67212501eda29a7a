"""Build a ParsedTU from a small C source for the analysis tests: preprocess with the
real mpicc and parse with the frontend (parser.parse), as the stage does."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import mpirun

from mpicc_wrap.frontend import parser
from mpicc_wrap.model import ParsedTU
from mpicc_wrap.switches import Options

OPTIONS = Options(cache=str(Path(tempfile.gettempdir()) / "mpicc-wrap-analysis-tests"))


def preprocess(source: str, name: str = "src.c") -> str:
    """Run ``mpicc -E`` on ``source`` saved as ``name`` in a temporary directory."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / name).write_text(source)
        out = subprocess.run([*mpirun.mpicc(), "-E", name], capture_output=True, text=True,
                             timeout=60, check=True, cwd=tmp)
    return out.stdout


def wrapped_stderr(folder: Path, name: str, source: str, *flags: str) -> str:
    """Compile ``source``, saved as ``name`` in ``folder``, with ``mpicc-wrap -c``
    (result cache off) and return what it printed; the compile must succeed."""
    (folder / name).write_text(source)
    done = mpirun.run([mpirun.tool("mpicc-wrap"), *flags, "-c", name, "-o", "x.o"],
                      cwd=folder, timeout=300, env={"MPICC_WRAP_RESULT_CACHE": "0"})
    assert done.returncode == 0, done.stderr
    return done.stderr


def parse_source(source: str, name: str = "src.c") -> ParsedTU:
    """Preprocess and parse ``source`` as the file ``name``."""
    return parser.parse(preprocess(source, name), name, mpirun.mpicc(), OPTIONS)
