"""mpicc-wrap: a drop-in mpicc that finds MPI collective-ordering bugs."""

__version__ = "0.1.0"
