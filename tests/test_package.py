"""The installed package: one import name (``dominorules``), ``python -m dominorules``,
``--version``, shell completion of rulesets, and examples at the end of every --help."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominorules import __version__
from dominorules.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_only_dominorules_is_installed_at_the_top_level():
    """No `cli` or `interpreter` module lands in a user's environment."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    tool = project["tool"]["setuptools"]
    assert "py-modules" not in tool
    assert {p.split(".")[0] for p in tool["packages"]} == {"dominorules"}
    assert tool["package-dir"]["dominorules"] == "interpreter"
    assert project["project"]["scripts"] == {"dominorules": "dominorules.cli:main"}
    # the CLI ships inside the package: interpreter/cli.py runs the top-level cli.py
    # (a plain file, not a link: a clone without link support, Windows' default, works)
    assert not (ROOT / "interpreter" / "cli.py").is_symlink()
    assert main.callback.__code__.co_filename == str((ROOT / "cli.py").resolve())


def test_every_subpackage_of_interpreter_is_installed():
    """A folder of interpreter/ missing from pyproject's list is left out of a built
    package, and only a user's ``pip install .`` finds out (engine.mechanisms once was)."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    found = {"dominorules" + "".join("." + part for part in init.parent.relative_to(
                 ROOT / "interpreter").parts)
             for init in (ROOT / "interpreter").rglob("__init__.py")}
    assert found - listed == set()


def test_a_built_package_holds_cli_py_itself(tmp_path):
    """`pip install .` has no top-level cli.py to run: the build copies it into the package."""
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True, timeout=300)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dominorules"]
    shipped = (tmp_path / "dominorules" / "cli.py").read_text(encoding="utf-8")
    assert shipped == (ROOT / "cli.py").read_text(encoding="utf-8")


def test_python_m_dominorules_and_the_version():
    out = subprocess.run([sys.executable, "-m", "dominorules", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"dominorules, version {__version__}\n"


def complete(words: str) -> list[str]:
    env = {"_DOMINORULES_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split(" ")) - 1)}
    res = CliRunner().invoke(main, [], prog_name="dominorules", env=env)
    return [line.split(",", 1)[1] for line in res.output.splitlines()]


def test_completion_offers_builtin_names_folders_and_yaml_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house-rules").mkdir()
    (tmp_path / "house-rules" / "short.yaml").write_text("extends: dutch\n")
    (tmp_path / "notes.txt").write_text("")
    assert complete("dominorules rules house/pay") == ["house/pay-per-draw",
                                                         "house/pay-per-forced-draw"]
    assert complete("dominorules compare pagat d") == ["dutch"]
    assert complete("dominorules rules house") == [
        *(n for n in complete("dominorules rules house/") if n.startswith("house/")),
        "house-rules/"]
    assert complete("dominorules validate house-rules/") == ["house-rules/short.yaml"]
    assert "notes.txt" not in complete("dominorules play ")


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_help_ends_with_examples(command):
    res = CliRunner().invoke(main, [command, "--help"], prog_name="dominorules")
    assert res.exit_code == 0
    tail = res.output.rstrip().split("Examples:\n")[-1].splitlines()
    assert 2 <= len(tail) <= 3
    assert all(line.strip().startswith("dominorules ") for line in tail), tail
    assert any(f"dominorules {command}" in line for line in tail)
