"""Build step that pyproject.toml cannot say: ship the top-level cli.py as dominorules.cli.

In a checkout ``interpreter/cli.py`` only runs the top-level ``cli.py`` (no symbolic
link, so a clone without link support works); a built package has no top-level file
to run, so the build puts a copy of ``cli.py`` in its place.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCli(build_py):
    """The standard build, then cli.py copied over the checkout's runner."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "dominorules" / "cli.py"
        if target.parent.is_dir():
            shutil.copyfile(Path(__file__).resolve().parent / "cli.py", target)


setup(cmdclass={"build_py": BuildWithCli})
