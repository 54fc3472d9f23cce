"""``python -m dominorules``: the same command as ``dominorules``."""

from .cli import main

main(prog_name="dominorules")
