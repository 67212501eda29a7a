"""The bits in which a tracked local flag word may differ between processes.

Memory keeps the bits of a flag word per location (``Store.get``'s mask,
``expressions._write_bits``); this is the same for the locals the walk tracks in its
environment, a small local array counting as one word (``locations.env_arrays``).
hdf5's ``H5D__mpio_opt_possible`` collects the reasons against collective I/O in
``local_cause[2]``: ``local_cause[0] |= H5D_MPIO_NOT_SIMPLE_OR_SCALAR_DATASPACES`` on a
test of the process's own dataspace, then ``if (local_cause[0] &
H5D_MPIO_SET_INDEPENDENT)``, a bit only the transfer mode sets, before the
``MPI_Allreduce`` of the causes.

The environment key ``"~x"`` (``BITS``) beside a multi-valued ``x`` holds a mask (in
decimal) such that ``x`` has the same value on every process in every bit outside it.
Soundness: bit ``i`` of ``x | C``, ``x & C`` and ``x ^ C`` is a function of bit ``i``
of ``x`` and of ``C``, so processes that all make such a write (or all skip it) keep
every bit they agreed on; when only some make it (a per-process gate, or an element
chosen per process, ``a[rank] |= 1``), only the bits the write may change can come to
differ.  Any other write of ``x`` by the processes that differ, or a write that
leaves a per-process value, drops the key: the whole word may differ.  Where paths
meet the masks are joined (a local that is single-valued on a path contributes no
bit).  A read ``x & MASK`` that shares no bit with the mask (with the sign bits
``_sign_bits`` adds for a widening conversion) is single-valued.  The elements of a
tracked array share one mask, element ``k``'s bits at ``k * WIDTH`` (``element_mask``),
so hdf5's ``local_cause[1] |= H5D_MPIO_RANK0_NOT_H5S_ALL`` (bit 0 of the second
element) leaves bit 0 of the first alone; a write or read at an index that is not a
constant counts for every element."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["BITS", "WIDTH", "bits_key", "element_mask", "env_bits", "join_bits", "merge_bits"]

BITS = "~"  # prefix of an environment key: the bits that multi-valued local may differ in
WIDTH = 256  # bits per element of a tracked array in its mask (a wider mask: all of them)


def bits_key(name: str) -> str:
    """The environment key of the bits of the tracked local ``name``."""
    return BITS + name


def merge_bits(a: int | None, b: int | None) -> int | None:
    """Bits that may differ on either of two accounts (None: any bit)."""
    return None if a is None or b is None else a | b


def element_mask(mask: int, index: int | None, length: int | None) -> int | None:
    """``mask`` read or written in element ``index`` of a tracked array of ``length``
    elements, as bits of the array's one mask; every element's for an index not known
    or out of range; None (the whole array) when the length is not known."""
    if length is None:
        return None
    if index is not None and 0 <= index < length:
        return mask << (WIDTH * index)  # a negative mask covers the later elements too
    one = mask if 0 <= mask < 1 << WIDTH else (1 << WIDTH) - 1
    return sum(one << (WIDTH * k) for k in range(length))


def env_bits(env: Mapping[str, str], name: str) -> int | None:
    """The bits in which ``name`` may differ in ``env``: 0 when it is single-valued
    there, None when any bit may."""
    if name not in env:
        return 0
    mask = env.get(bits_key(name))
    return None if mask is None else int(mask)


def join_bits(out: dict[str, str], a: Mapping[str, str], b: Mapping[str, str]) -> None:
    """Set the bits keys of ``out``, the join of ``a`` and ``b``: the union of both
    paths' masks, none where either path lets the whole word differ."""
    for key in [k for k in out if k[0] == BITS]:
        mask = merge_bits(env_bits(a, key[1:]), env_bits(b, key[1:]))
        if mask is None:
            del out[key]
        else:
            out[key] = str(mask)
