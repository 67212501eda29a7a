"""Where the test data and the checkout's directories are, for tests in any subfolder."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
CORPUS = TESTS / "corpus"
SHAPES = TESTS / "shapes"
THIRDPARTY = TESTS / "thirdparty"
INTEGRATION = ROOT / "integration"
BENCHMARKS = ROOT / "benchmarks"
EXAMPLES = ROOT / "examples"
