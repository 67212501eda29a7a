"""The command line, compiler discovery and the per-invocation pipeline:
argv -> compile jobs -> stage (frontend, analysis, instrument) -> compile -> link."""
