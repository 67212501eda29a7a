"""Result-cache defects: the key covers the parser versions; a write scans the store
only now and then, not every time (a build with N TUs was O(N^2) in directory scans)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from mpicc_wrap.driver import resultcache
from mpicc_wrap.driver.resultcache import Entry
from mpicc_wrap.model import Stats, TUAnalysis
from mpicc_wrap.switches import Options


def test_fingerprint_follows_the_installed_parser(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "__init__.py"
    fake.write_text("__version__ = '3.1'\n")
    real_find = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        if name == "pycparser":
            return SimpleNamespace(origin=str(fake))
        return real_find(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    resultcache.tool_fingerprint.cache_clear()
    before = resultcache.tool_fingerprint()
    fake.write_text("__version__ = '3.12'  # an upgrade\n")
    os.utime(fake, ns=(10**9, 10**9))
    resultcache.tool_fingerprint.cache_clear()
    try:
        assert resultcache.tool_fingerprint() != before
    finally:
        resultcache.tool_fingerprint.cache_clear()


def test_store_scans_the_store_about_once_in_evict_every_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scans: list[str] = []
    monkeypatch.setattr(resultcache, "evict", lambda folder, limit: scans.append(folder))
    options = Options(cache=str(tmp_path))
    writes = 4 * resultcache.EVICT_EVERY
    entry = Entry("a.c", TUAnalysis([], [], {}, Stats()), None)
    for k in range(writes):
        resultcache.store(options, f"{k:08x}" + "0" * 56, entry)
    assert len(os.listdir(resultcache.directory(options))) == writes
    assert len(scans) == 4
