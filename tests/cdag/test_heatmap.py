"""mpicc-wrap-tool matrix --png: the volume matrix as a heatmap (matplotlib, the 'plot'
extra), blocks of ranks summed when there are more ranks than cells."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest

from mpicc_wrap.cdag import heatmap
from mpicc_wrap.driver import tool


def test_ranks_are_summed_in_blocks_when_they_exceed_the_cells() -> None:
    cells = {(i, (i + 1) % 1024): (1, 10) for i in range(1024)}
    grid, block = heatmap.aggregate(cells, 1024)
    assert block == 8 and len(grid) == 128 and all(len(row) == 128 for row in grid)
    assert sum(map(sum, grid)) == 10240
    assert grid[0][0] == 70 and grid[0][1] == 10  # 0->1 ... 6->7 | 7->8
    small, one = heatmap.aggregate({(0, 2): (3, 96)}, 3)
    assert one == 1 and small == [[0, 0, 96], [0, 0, 0], [0, 0, 0]]


def test_png_without_matplotlib_is_one_line_and_status_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    real = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "matplotlib":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code = tool.main(["matrix", str(tmp_path), "--png", str(tmp_path / "m.png")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "matplotlib" in err and "mpicc-wrap[plot]" in err
    assert not (tmp_path / "m.png").exists()


def test_png_of_1024_ranks_is_drawn_in_blocks(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib import image

    cells = {(i, j): (1, 8 * (1 + (i + j) % 7)) for i in range(0, 1024, 3)
             for j in (0, (i + 1) % 1024, (i + 512) % 1024)}
    out = tmp_path / "m.png"
    assert heatmap.write_png(cells, 1024, str(out)) == 8
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = image.imread(str(out))
    assert pixels.shape[0] >= 400 and pixels.shape[1] >= 500
