"""Helpers the tests and the benchmarks share: servers started for them, and their processes."""
