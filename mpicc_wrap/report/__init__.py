"""Findings -> the user: GCC-format diagnostics, the rules registry,
JSON Lines and SARIF reports."""
