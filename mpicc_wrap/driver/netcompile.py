"""Compile rewritten text under a type net: a rewrite that does not type-check is
never compiled.

gcc only *warns* when an inserted check hands a pointer where a handle belongs
(``MPI_Comm *`` passed as ``MPI_Comm``, an integer under MPICH) and the build goes
on to a program that aborts at start-up.  So the rewritten text is compiled with the
diagnostics that reveal such a rewrite made errors (``NET_FLAGS``; they change
nothing else).  When that compile fails, the failure is ours unless the user's own
text trips the same diagnostics at the same lines (old code full of int/pointer
mixing): then the preprocessed original is checked with the same flags, and only
if every net error of the rewritten text is one the original has too is the
rewritten text compiled again without the net.  Otherwise the caller compiles the
original source with an "instrumented code did not compile" note.

The flags go only on the compile of our rewritten text, never on the user's
original compile.  ``-w`` turns ``-Werror=`` diagnostics off too, so under ``-w`` the
net runs as a separate ``-fsyntax-only`` pass without it.
"""

from __future__ import annotations

import re
from collections import Counter

from mpicc_wrap.driver import commands as pp
from mpicc_wrap.driver import compiler as cc
from mpicc_wrap.driver.cmdline import Invocation

__all__ = ["NET_FLAGS", "compile_rewritten", "net_errors"]

NET_FLAGS = (
    "-Werror=int-conversion",
    "-Werror=incompatible-pointer-types",
    "-Werror=int-to-pointer-cast",
    "-Werror=pointer-to-int-cast",
    "-Werror=implicit-function-declaration",
)
_ERROR = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?:\d+:)? error: (?P<msg>.*)$", re.M)
_NET_OPTION = re.compile(r"\[(-Werror=[\w-]+)\]\s*$")

Key = tuple[str, str, str]  # (file, line, -Werror= option)


def net_errors(stderr: str) -> tuple[Counter[Key], int]:
    """The net's errors in ``stderr`` by (file, line, option), and how many other
    errors there are (hard errors no flag of ours caused)."""
    found: Counter[Key] = Counter()
    other = 0
    for m in _ERROR.finditer(stderr):
        option = _NET_OPTION.search(m["msg"])
        if option and option.group(1) in NET_FLAGS:
            found[(m["file"], m["line"], option.group(1))] += 1
        else:
            other += 1
    return found, other


_NO_W = frozenset({"-w"})


def _command(compiler: list[str], inv: Invocation, text_path: str, out: str | None,
             net: bool, keep_w: bool = True) -> list[str]:
    """The rewritten-text compile (``out`` None: -fsyntax-only), with the net or not;
    without the user's -w when ``keep_w`` is False (the net needs its diagnostics)."""
    return pp.compile_rewritten_command(compiler, inv, text_path, out,
                                        NET_FLAGS if net else (),
                                        frozenset() if keep_w else _NO_W)


def users_own(compiler: list[str], inv: Invocation, original_path: str, stderr: str) -> bool:
    """True when every net error of a failed rewritten compile (``stderr``) is one
    the user's own preprocessed text ``original_path`` has as well."""
    mine, other = net_errors(stderr)
    if other or not mine:
        return False
    code, err = cc.run(_command(compiler, inv, original_path, None, True, keep_w=False),
                       capture=True)
    theirs, _ = net_errors(err.decode(errors="replace"))
    return code != 0 and not (mine - theirs)


def compile_rewritten(compiler: list[str], inv: Invocation, rewritten_path: str,
                      original_path: str, out: str) -> tuple[int, bytes]:
    """Compile rewritten preprocessed text to ``out`` under the type net; return the
    exit status and the compiler's stderr (of the compile that counts)."""
    if "-w" in pp.words(inv, pp.COMPILE_KINDS):  # -w silences -Werror= too: a separate pass
        code, err = cc.run(_command(compiler, inv, rewritten_path, None, True, keep_w=False),
                           capture=True)
        if code != 0 and not users_own(compiler, inv, original_path,
                                       err.decode(errors="replace")):
            return code, err
        return cc.run(_command(compiler, inv, rewritten_path, out, False), capture=True)
    code, err = cc.run(_command(compiler, inv, rewritten_path, out, True), capture=True)
    if code == 0 or not users_own(compiler, inv, original_path, err.decode(errors="replace")):
        return code, err
    return cc.run(_command(compiler, inv, rewritten_path, out, False), capture=True)
