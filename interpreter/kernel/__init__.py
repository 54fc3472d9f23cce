"""Compiled match kernels: a ruleset turned into code (Python, and numba when installed)."""
