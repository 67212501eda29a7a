"""``python -m mpicc_wrap`` is ``mpicc-wrap``."""

import sys

from mpicc_wrap.cli import main

sys.exit(main())
