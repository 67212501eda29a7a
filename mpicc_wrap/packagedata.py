"""Where the package's data directories are: ``templates``, ``cclib``, ``integration``.

Installed, they are the subpackages ``mpicc_wrap.<name>`` (pyproject maps the
top-level directories there).  Imported from a source checkout (``python -m pytest``
puts the checkout first on ``sys.path``) those subpackages do not exist, and the
directories sit beside the package instead.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path


def data_dir(name: str) -> Traversable:
    """The data directory ``name`` of the installed package or of the checkout."""
    try:
        return resources.files(f"mpicc_wrap.{name}")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / name
