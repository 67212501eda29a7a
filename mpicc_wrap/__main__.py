"""``python -m mpicc_wrap`` is ``mpicc-wrap``."""

import sys

from mpicc_wrap.driver.cli import main

sys.exit(main())
