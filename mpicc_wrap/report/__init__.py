"""Findings -> the user: verdicts and GCC-format diagnostics, JSON Lines and SARIF
reports, and ``emit``, the one path through them (the rules registry they read is the
base module ``mpicc_wrap.rules``)."""
