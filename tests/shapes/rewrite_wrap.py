"""mpicc-wrap whose analysis stage "rewrites" every TU to its own preprocessed text.

Used by the shape tests: it drives every C source through the rewritten-text path
(compile the .i, write the depfile ourselves) so that path must match mpicc too.
"""

import sys

from mpicc_wrap.driver import cli, stage


def _identity(pp_text, source, compiler, options, external=None, warning_flags=None,
              stream=None):
    return stage.StageResult(pp_text)


stage.run = _identity
sys.exit(cli.main())
