"""The import layers of pyproject.toml's [tool.importlinter] hold: lower stages never
import higher ones (the same check .ci/run runs before the tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_layers_hold() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    command = str(exe) if exe.exists() else shutil.which("lint-imports")
    if command is None:
        if os.environ.get("CI"):
            pytest.fail("lint-imports is missing: install '.[test]'")
        pytest.skip("lint-imports not installed (install '.[test]')")
    done = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


# Modules that do not fix their surface with __all__ yet (owned by other work in
# progress: the rankdep split, the instrument and runtime build, the frontend).
NO_ALL_YET = {"analysis.callgraph", "analysis.catalogue", "analysis.cfg",
              "analysis.dominance", "analysis.orders", "analysis.rankdep",
              "frontend.gnumask", "frontend.handles", "frontend.headercache",
              "frontend.parser", "frontend.positions", "instrument.rewrite",
              "runtime.library", "errors", "switches", "packagedata", "__main__"}


def test_every_module_states_its_job_and_fixes_its_surface() -> None:
    """scan-build-py style: a docstring, and ``__all__`` naming only what it defines."""
    import ast
    import importlib

    package = ROOT / "mpicc_wrap"
    for path in sorted(package.rglob("*.py")):
        name = ".".join(path.relative_to(package).with_suffix("").parts)
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{name}: no docstring"
        if path.name == "__init__.py" or name in NO_ALL_YET:
            continue
        module = importlib.import_module(f"mpicc_wrap.{name}")
        assert hasattr(module, "__all__"), f"{name}: no __all__"
        assert all(hasattr(module, n) for n in module.__all__), name
