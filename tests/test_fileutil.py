"""The one module that locks shared files and replaces them atomically."""

from __future__ import annotations

import os
import stat

import pytest

from mpicc_wrap import fileutil


def test_write_atomically_replaces_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "a.json"
    path.write_text("old")
    fileutil.write_atomically(str(path), b"new")
    assert path.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["a.json"]


def test_write_atomically_mode_is_filtered_by_umask(tmp_path):
    old = os.umask(0o022)
    try:
        fileutil.write_atomically(str(tmp_path / "shared"), b"x")
        fileutil.write_atomically(str(tmp_path / "private"), b"x", 0o600)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "shared").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "private").st_mode) == 0o600


def test_write_atomically_failure_removes_the_temporary(tmp_path):
    target = tmp_path / "dir"
    target.mkdir()
    (target / "keep").write_text("x")  # os.replace of a file over a non-empty dir fails
    with pytest.raises(OSError):
        fileutil.write_atomically(str(target), b"data")
    assert sorted(os.listdir(tmp_path)) == ["dir"]


def test_locked_appends_and_reads_back(tmp_path):
    path = str(tmp_path / "log")
    for part in (b"one\n", b"two\n"):
        with fileutil.locked(path, os.O_WRONLY | os.O_APPEND) as fd:
            fileutil.write_all(fd, part)
    with fileutil.locked(path, os.O_RDONLY) as fd:
        assert fileutil.read_all(fd) == b"one\ntwo\n"
