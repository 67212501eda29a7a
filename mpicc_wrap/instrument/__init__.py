"""Findings -> patch: positions in the preprocessed text and the Jinja-templated check insertion."""
