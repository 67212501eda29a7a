"""``python -m mpicc_wrap`` is ``mpicc-wrap``.  A rebuild of an unchanged compile is
served from the direct cache before the driver is even imported."""

import sys

from mpicc_wrap.driver import direct

code = direct.serve(sys.argv[1:])
if code is None:
    from mpicc_wrap.driver.cli import main

    code = main()
sys.exit(code)
