"""The CI guard .ci/check-paths: a tracked file holding an absolute path into the
machine's own directories fails the run; the corpus and the allow-list are exempt."""

from __future__ import annotations

import shutil
from pathlib import Path

import mpirun
import pytest

ROOT = Path(__file__).resolve().parent.parent
GUARD = ROOT / ".ci" / "check-paths"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "clone" / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy2(GUARD, repo / ".ci" / "check-paths")
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    for cmd in (["init", "-q"], ["add", "-A"]):
        result = mpirun.run(["git", *cmd], cwd=repo, timeout=60)
        assert result.returncode == 0, result.output
    return repo


def _guard(repo: Path) -> mpirun.Run:
    return mpirun.run(["bash", str(repo / ".ci" / "check-paths")], cwd=repo, timeout=60)


def test_clean_repository_passes(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"a.py": 'X = "/usr/include/csmith"  # a system directory\n'})
    result = _guard(repo)
    assert result.returncode == 0, result.output


@pytest.mark.parametrize("where", ["home", "root", "clone", "parent"])
def test_a_planted_machine_path_fails(tmp_path: Path, where: str) -> None:
    repo_dir = tmp_path / "clone" / "repo"
    path = {"home": "/" + "home/someone/venv/bin/mpicc", "root": "/" + "root/.cache/x",
            "clone": f"{repo_dir}/tests/x.c", "parent": f"{repo_dir.parent}/venv/bin/mpicc"}
    repo = _repo(tmp_path, {"tests/helper.py": f'MPICC = "{path[where]}"\n'})
    result = _guard(repo)
    assert result.returncode == 1, result.output
    assert "absolute paths into this machine's directories" in result.stderr
    assert "tests/helper.py:1:" in result.stderr


def test_corpus_and_longer_names_are_not_flagged(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {
        "tests/corpus/p.c": '// "/' + 'home/user/x"\n',
        "a.md": "tests/corpus/root_bcast.c and /" + "rootfs are fine\n",
    })
    result = _guard(repo)
    assert result.returncode == 0, result.output
