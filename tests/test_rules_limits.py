"""Big or hostile YAML: validation stays linear in the file, or a stated limit refuses it.

Thousands of unknown keys, too many values, an alias bomb, a long ``extends`` chain
and a megabyte-long line each end in a few readable lines, never in minutes of work,
a wall of diagnostics or a megabyte echoed back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dominorules.diagnostics import Diagnostic
from dominorules.rules import check_ruleset
from dominorules.rules.load import MAX_EXTENDS
from dominorules.rules.marked_yaml import MAX_NODES

ROOT = Path(__file__).resolve().parent.parent


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "validate", str(path)],
                          capture_output=True, text=True, timeout=60)


def test_thousands_of_unknown_keys_print_the_first_fifty_then_a_count(tmp_path):
    bad = tmp_path / "keys.yaml"
    bad.write_text("extends: pagat\n" + "".join(f"zz{i}: {i}\n" for i in range(3000)))
    assert len(check_ruleset(str(bad))) == 3000
    result = validate(bad)
    assert result.returncode == 1
    assert result.stderr.count(": error: unknown key") == 50
    assert result.stderr.splitlines()[-1] == ("... and 2950 more problems "
                                              "(the first 50 are shown)")


def test_too_many_values_names_the_real_cause_and_nothing_after_it(tmp_path):
    bad = tmp_path / "many.yaml"
    bad.write_text("extends: pagat\n" + "".join(f"zz{i}: {i}\n" for i in range(MAX_NODES)))
    [d] = check_ruleset(str(bad))
    assert d.message == f"the file holds more than {MAX_NODES:,} values"


def test_an_alias_bomb_is_an_alias_that_expands_too_far(tmp_path):
    rows = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcde", "bcdef", strict=True):
        rows.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    bad = tmp_path / "bomb.yaml"
    bad.write_text("\n".join(rows) + "\n")
    [d] = check_ruleset(str(bad))
    assert d.message == "an alias expands too far"


def test_an_extends_chain_beyond_the_limit_is_refused_at_the_link_that_breaks_it(tmp_path):
    for i in range(MAX_EXTENDS + 5):
        parent = f"./r{i + 1}.yaml" if i < MAX_EXTENDS + 4 else "pagat"
        (tmp_path / f"r{i}.yaml").write_text(f"extends: {parent}\n")
    [d] = check_ruleset(str(tmp_path / "r0.yaml"))
    assert (d.code, d.message) == ("extends",
                                   f"the extends chain is longer than {MAX_EXTENDS} files")
    assert d.file.endswith(f"r{MAX_EXTENDS - 1}.yaml") and d.line == 1


def test_a_long_source_line_is_cut_around_the_caret():
    line = "x" * 5000 + "BAD" + "y" * 5000
    d = Diagnostic("schema", "bad", file="f.yaml", line=1, column=5001)
    shown, caret = d.render(line).splitlines()[1:3]
    assert len(shown) < 140 and "BAD" in shown
    assert shown.startswith("    1 | ...") and shown.endswith("...")
    assert shown[caret.index("^")] == "B"
