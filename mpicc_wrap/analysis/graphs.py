"""Graph walks the analysis shares: reachability, predecessor maps, DFS postorder.

Graphs are given as a step function ``node -> successors`` (a CFG's node list, a
successor map, a call graph or, for backward walks, a predecessor map), so every
caller walks its own representation without converting it.  All walks are iterative:
a 400-arm ``else if`` chain or a deep call chain must not hit Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

__all__ = ["Step", "postorder", "predecessors", "reachable"]

Step = Callable[[int], Iterable[int]]
N = TypeVar("N", bound=Hashable)


def reachable(step: Step, starts: Iterable[int], allow: Callable[[int], bool] | None = None,
              seen: set[int] | None = None) -> set[int]:
    """``starts`` and every node reachable from them through ``step``.

    A node for which ``allow`` is false is neither entered nor walked through.  Nodes
    already in ``seen`` are not entered again; ``seen`` is updated in place and
    returned (a walk that grows one set over several calls)."""
    seen = set() if seen is None else seen
    stack = list(starts)
    seen.update(stack)
    while stack:
        for s in step(stack.pop()):
            if s not in seen and (allow is None or allow(s)):
                seen.add(s)
                stack.append(s)
    return seen


def predecessors(succs: Mapping[int, Iterable[int]]) -> dict[int, list[int]]:
    """The predecessor map of a successor map (every node of either side is a key;
    each list is in the order of ``succs``)."""
    preds: dict[int, list[int]] = {n: [] for n in succs}
    for n, ss in succs.items():
        for s in ss:
            preds.setdefault(s, []).append(n)
    return preds


def postorder(step: Callable[[N], Iterable[N]], roots: Iterable[N]) -> list[N]:
    """Depth-first postorder of everything reachable from ``roots`` (a forest: a root
    already visited from an earlier one is skipped)."""
    order: list[N] = []
    seen: set[N] = set()
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(step(root)))]
        while stack:
            node, rest = stack[-1]
            nxt = next((s for s in rest if s not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(step(nxt))))
    return order
