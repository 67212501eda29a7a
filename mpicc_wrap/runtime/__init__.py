"""The checker library's build (C sources in the top-level cclib/) and what the driver
links; object metadata: the summaries section of ELF objects and archives (objects.py)."""
