"""Data directories resolve both installed and from a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from mpicc_wrap import packagedata


@pytest.mark.parametrize(("name", "member"), [("cclib", "mpiccwrap_cc.h"),
                                              ("templates", "cc_site.c.j2"),
                                              ("integration", "mpicc-wrap-toolchain.cmake")])
def test_data_dirs_hold_their_files(name: str, member: str) -> None:
    assert packagedata.data_dir(name).joinpath(member).is_file()


def test_checkout_layout_is_used_when_the_subpackage_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(resources, "files", missing)
    found = packagedata.data_dir("cclib")
    assert found == Path(packagedata.__file__).resolve().parent.parent / "cclib"
    assert found.joinpath("mpiccwrap_cc.h").is_file()


def test_every_subpackage_is_installed() -> None:
    """A non-editable install (CI's, a user's) ships only the packages pyproject lists:
    a new subpackage missing there imports in the checkout and fails once installed."""
    import tomllib

    from paths import ROOT

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "mpicc_wrap").rglob("__init__.py")}
    assert found <= listed, f"missing from pyproject.toml: {sorted(found - listed)}"
