"""``python -m dominorules``: the same command as ``dominorules``."""

from .commands.cli import main

main(prog_name="dominorules")
