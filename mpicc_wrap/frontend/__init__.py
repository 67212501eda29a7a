"""Preprocessed text -> AST: GNU masking, the system-header cache, the parser,
and facts about the MPI installation."""
