"""After the run: readers of the checker's records and traces
(the Python side of the protocol defined in cclib/)."""
