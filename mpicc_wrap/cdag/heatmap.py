"""Heatmap PNG of the volume matrix (bytes per sender and receiver), as FACT (§5.2)
and IPM draw communication topologies: ``mpicc-wrap-tool matrix DIR --png FILE``.

matplotlib is an optional extra (``pip install 'mpicc-wrap[plot]'``).  More ranks than
the picture has pixels would merge or drop rows when drawn, so ranks are aggregated
into blocks of ``block`` consecutive ranks first (the bytes of a block are summed):
at 1,024 ranks and ``MAX_CELLS`` = 128, one cell is 8 x 8 ranks, 3 pixels wide.
"""

from __future__ import annotations

from typing import Any

from mpicc_wrap.cdag.report import matrix_blocks

__all__ = ["MAX_CELLS", "PlotUnavailable", "aggregate", "require", "write_png"]

MAX_CELLS = 128  # cells per side at most: the plot area is about 380 pixels wide


class PlotUnavailable(Exception):
    """matplotlib cannot be imported."""


def require() -> Any:
    """matplotlib.pyplot with the file-only backend, or PlotUnavailable."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise PlotUnavailable(str(err)) from err
    return plt


def aggregate(cells: dict[tuple[int, int], tuple[int, int]], nranks: int,
              max_cells: int = MAX_CELLS) -> tuple[list[list[int]], int]:
    """Bytes per (sender block, receiver block) and the block size (ranks per cell,
    the smallest that fits nranks in max_cells per side)."""
    blocks, block = matrix_blocks(cells, nranks, max_cells)
    side = max(1, -(-nranks // block))
    grid = [[0] * side for _ in range(side)]
    for (src, dst), (_count, size) in blocks.items():
        grid[src][dst] += size
    return grid, block


def write_png(cells: dict[tuple[int, int], tuple[int, int]], nranks: int, path: str,
              title: str = "") -> int:
    """Draw the matrix to ``path`` (log colour scale, no traffic left white); return the
    block size."""
    plt = require()
    from matplotlib.colors import LogNorm

    grid, block = aggregate(cells, nranks)
    side = len(grid)
    masked = [[v if v > 0 else float("nan") for v in row] for row in grid]
    values = [v for row in grid for v in row if v > 0] or [1]
    low, top = min(values), max(values)
    fig, ax = plt.subplots(figsize=(5.6, 4.8), dpi=100)
    try:
        image = ax.imshow(masked, cmap="viridis", interpolation="nearest", origin="upper",
                          norm=LogNorm(vmin=low, vmax=max(top, 2 * low)),
                          extent=(-0.5 * block, (side - 0.5) * block,
                                  (side - 0.5) * block, -0.5 * block))
        unit = "rank" if block == 1 else f"rank (cells of {block} x {block} ranks)"
        ax.set_xlabel(f"receiver {unit}")
        ax.set_ylabel("sender rank")
        ax.set_title(title or f"bytes sent, {nranks} ranks", fontsize=10)
        fig.colorbar(image, ax=ax, label="bytes")
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
    return block
