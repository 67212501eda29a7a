"""The failure policy of both console commands (``mpicc-wrap``, ``mpicc-wrap-tool``):
no Python traceback reaches a user unless MPICC_WRAP_DEBUG=1, a ``WrapError`` is one
line with its exit code, an interrupt is 130, a bug of ours is one line and 1."""

from __future__ import annotations

import sys
from collections.abc import Callable

from mpicc_wrap import switches
from mpicc_wrap.errors import Terminated, WrapError

__all__ = ["guarded"]


def _print_traceback() -> None:
    import traceback  # only with MPICC_WRAP_DEBUG=1

    traceback.print_exc()


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run ``body`` under the failure policy; its exit code, or the policy's."""
    debug = switches.debug_flag()
    try:
        return body()
    except WrapError as exc:
        if debug:
            _print_traceback()
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except Terminated as exc:
        return exc.exit_code
    except BrokenPipeError:  # `mpicc-wrap-tool trace DIR | head`
        sys.stderr.close()
        return 0
    except Exception as exc:  # a bug of ours: one line, never a traceback
        if debug:
            _print_traceback()
        print(f"{prog}: error: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
