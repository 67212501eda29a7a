"""``mpicc-wrap``: the console entry point.  No Python traceback reaches a user unless
MPICC_WRAP_DEBUG=1."""

from __future__ import annotations

import sys

from mpicc_wrap import rules, switches
from mpicc_wrap.driver import cmdline, compiler, entry
from mpicc_wrap.driver import commands as pp

__all__ = ["main", "toolchain_path"]

TOOLCHAIN = ("integration", "mpicc-wrap-toolchain.cmake")


def toolchain_path() -> str:
    """Absolute path of the installed CMake toolchain file."""
    from mpicc_wrap.packagedata import data_dir  # lazily: importlib.resources costs ~15 ms

    directory, name = TOOLCHAIN
    return str(data_dir(directory).joinpath(name))


def _wrap_option(word: str) -> int | None:
    """Handle our own ``--wrap-*`` commands (only as the first argument, so a linker's
    ``-Xlinker --wrap=...`` is never taken for one)."""
    if word == "--wrap-help":
        sys.stdout.write(switches.help_text())
        return 0
    if word == "--wrap-cmake-toolchain":
        print(toolchain_path())
        return 0
    return None


def _main(argv: list[str], console: bool = False) -> int:
    """``console``: this process is the ``mpicc-wrap`` command itself, so a
    pass-through may become the compiler (exec) instead of waiting for it."""
    if argv:
        handled = _wrap_option(argv[0])
        if handled is not None:
            return handled
    options = switches.Options.from_env()
    inv = cmdline.parse(argv)
    for flag in inv.unknown_flags:
        known = ", ".join(f"-W{tag}" for tag in rules.RULES)
        print(f"mpicc-wrap: warning: unknown warning option '{flag}' (mpicc-wrap knows "
              f"{known})", file=sys.stderr)
    command = compiler.find()
    if pp.passthrough(inv, options):  # without loading the pipeline (~50 ms)
        run = compiler.replace if console else lambda c: compiler.run(c)[0]
        return run([*command, *inv.command])
    from mpicc_wrap.driver import pipeline

    return pipeline.run(inv, command, options, argv if console else None)


def main(argv: list[str] | None = None) -> int:
    """Run mpicc-wrap with ``argv`` (default: the process arguments)."""
    args = sys.argv[1:] if argv is None else list(argv)
    return entry.guarded("mpicc-wrap", lambda: _main(args, console=argv is None))
