"""Exit codes agree everywhere: 2 for a usage error, 1 for an invalid ruleset or record.

The same mistake (an unknown bot, a player count the ruleset does not allow, a
missing file) gets the same code from simulate, compare, play, verify and replay.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli import main

USAGE = {
    "unknown bot": {
        "simulate": ["simulate", "pagat", "--bots", "nosuch"],
        "compare": ["compare", "pagat", "dutch", "--bots", "nosuch"],
        "compare skill": ["compare", "pagat", "dutch", "--skill-bots", "nosuch,random"],
        "play": ["play", "pagat", "--bots", "nosuch"],
    },
    "player count": {
        "simulate": ["simulate", "pagat", "--players", "9"],
        "compare": ["compare", "pagat", "dutch", "--players", "9"],
        "play": ["play", "pagat", "--players", "9"],
    },
    "bots for seats": {
        "simulate": ["simulate", "pagat", "--bots", "random,random,random"],
        "compare": ["compare", "pagat", "dutch", "--bots", "random,random,random"],
    },
    "missing file": {
        "simulate": ["simulate", "no/such.yaml"],
        "compare": ["compare", "pagat", "no/such.yaml"],
        "play": ["play", "no/such.yaml"],
        "rules": ["rules", "no/such.yaml"],
        "verify": ["verify", "no/such.jsonl"],
        "replay": ["replay", "no/such.jsonl"],
    },
}
CASES = [(kind, cmd, args) for kind, by_cmd in USAGE.items() for cmd, args in by_cmd.items()]


@pytest.mark.parametrize("kind, command, args", CASES,
                         ids=[f"{k}-{c}" for k, c, _ in CASES])
def test_a_usage_error_exits_2_in_every_command(kind, command, args):
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["simulate", "{d}/bad.yaml"], ["compare", "pagat", "{d}/bad.yaml"],
    ["play", "{d}/bad.yaml"], ["rules", "{d}/bad.yaml"], ["validate", "{d}/bad.yaml"],
    ["verify", "{d}/bad.jsonl"], ["replay", "{d}/bad.jsonl"],
])
def test_an_invalid_ruleset_or_record_exits_1(tmp_path, args):
    (tmp_path / "bad.yaml").write_text("extends: pagat\ndeal:\n  hand_size: lots\n")
    (tmp_path / "bad.jsonl").write_text('{"event":"pass"}\n')
    result = CliRunner().invoke(main, [a.format(d=tmp_path) for a in args], input="")
    assert result.exit_code == 1, result.output
