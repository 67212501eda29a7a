"""The checker library's build (C sources in the top-level cclib/) and what the driver links."""
