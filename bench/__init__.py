"""Benchmarks run by hand (``python -m bench.<name>``), never by the test suite."""
