"""AST -> findings: the MPI catalogue, CFGs, rank dependence, PARCOACH's Algorithm 1,
the call graph and cross-TU summaries."""
