"""AST -> findings: the MPI catalogue, CFGs and graph walks, rank dependence, PARCOACH's
Algorithm 1, the call graph, the frozen analysis context, findings and plans, and the
cross-TU summaries' codec and link check."""
