"""A value exchanged in both arms: the root's side and the others' side of one broadcast.

A common way to share a value read on one process (beyond both papers)::

    if (rank == root) { len = strlen(getenv(name)); MPI_Bcast(&len, 1, MPI_INT, root, c); }
    else MPI_Bcast(&len, 1, MPI_INT, root, c);
    if (len > 0) ...

The test is per-process, so the φ-placement of the walk (statements.py) makes every
tracked local an arm writes per-process after the join.  But ``len``'s last write in
each arm is the shared output of a broadcast, the first collective of each arm: the two
calls are one collective, made by the root in one arm and by the others in the other,
and every process leaves it holding the root's value.  So a tracked local whose last
write in both arms is the shared output (``MPIFunc.shared_outputs``) of an MPI
collective with the same function, communicator and root as written, at the same
position among the collectives each arm makes (``Arm.made``: MPI collectives and calls
that may run collectives), is not gated at the join.

The positions are counted on each arm's straight line: a collective, or a call that
may run one, inside a loop or a ``switch`` of the arm makes later positions unknown; an
``if`` inside the arm is summarised the same way and folds into the arm's line, its
exchanges kept when both of its arms make them alike, its count kept when both arms
make as many.  The arms start at one position: the processes made the same calls
before the test.  When the arms' sequences do not match the calls are not one
collective, but then Algorithm 1 finds the mismatch at this test (the arms order the
collectives differently, or make different ones), and only what follows from the
values is spared.  hdf5's ``getenv_all`` (test/h5test.c) is the pattern, with the
root's broadcast of the length under its own test of the value.

An exchange names the part of the shared output a local holds: all of it, or one
constant element a local was copied out of, or packed into by the root before its
broadcast (rootarm.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

__all__ = ["Arm", "Exchange", "Seen", "exchanged", "fold", "mentioned", "record"]

# (position in the arm, MPI function, communicator, root) as written, and the part of
# its shared output held ("": all of it; "[K]": element K, rootarm.py)
Exchange = tuple[int, str, str, str, str]


@dataclass
class Arm:
    """One arm of an ``if`` being walked inside a per-process one (or the per-process
    one itself): the collectives made on its straight line so far (None: not known),
    and per tracked local the collective whose shared output last wrote it there
    (None: some other write)."""

    level: int  # statements.Statements._nested on the arm's straight line
    made: int | None = 0
    last: dict[str, Exchange | None] = field(default_factory=dict)
    owner: int = 0  # id of the test of the ``if`` it is an arm of
    # (communicator, root) as written, when only that root runs the arm, and per
    # tracked array the locals stored in its constant elements since (rootarm.py)
    root: tuple[str, str] | None = None
    packed: dict[str, dict[str, str]] = field(default_factory=dict)


# id(test of the if) -> {local: the exchange its arm last wrote it with (None: another
# write)}, for each enclosing arm from the outermost: what a test inside the arms
# reads (``record``, ``analysis/armkeys.py``)
Seen = list[tuple[int, dict[str, Exchange | None]]]


def mentioned(e: c_ast.Node | None) -> set[str]:
    """The identifiers an expression mentions anywhere (calls and memory reads too)."""
    found: set[str] = set()
    stack = [e] if e is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.ID):
            found.add(node.name)
        stack.extend(child for _, child in node.children())
    return found


def record(arms: list[Arm], test: c_ast.Node, seen: Seen | None) -> Seen:
    """The arms' last writes of the locals ``test`` mentions, merged with an earlier
    walk's (``seen``): an entry two walks disagree on becomes None (another write), so
    the record only ever says less, whatever the order of the walks."""
    names = mentioned(test)
    now = [(a.owner, {x: a.last[x] for x in names if x in a.last}) for a in arms]
    if seen is None:
        return now
    if [o for o, _ in seen] != [o for o, _ in now]:  # walked inside other arms
        return [(o, dict.fromkeys(e)) for o, e in now]
    return [(o, {x: d.get(x) if d.get(x) == e.get(x) else None for x in d.keys() | e.keys()})
            for (o, d), (_, e) in zip(seen, now, strict=True)]


def exchanged(a: Arm, b: Arm) -> set[str]:
    """The locals both arms last wrote with the shared output of one collective."""
    return {x for x, e in a.last.items() if e is not None and b.last.get(x) == e}


def fold(outer: Arm, a: Arm, b: Arm) -> None:
    """Walked inside ``outer``, the ``if`` whose arms were ``a`` and ``b`` is one step of
    ``outer``'s straight line: its exchanges move to ``outer``'s positions, its
    collectives count when both arms make as many."""
    base = outer.made
    both = exchanged(a, b)
    for x in a.last.keys() | b.last.keys():
        e = a.last.get(x) if x in both else None
        outer.last[x] = None if e is None or base is None else (base + e[0],) + e[1:]
    outer.made = base + a.made if (base is not None and a.made is not None
                                   and a.made == b.made) else None
