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
