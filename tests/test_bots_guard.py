"""Plug-in bots that raise, exit or answer illegally: one line naming the bot and seat, exit 1.

Every way a plug-in runs is guarded (its constructor, ``choose``, ``policy(game)`` and
the fast policy's every answer), and an illegal answer from a fast policy is never
applied: before the guard one wrong answer looped forever while memory grew.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''
import sys


class BadInit:
    def __init__(self, seat, rng):
        raise RuntimeError("no config file")


class Exits:
    def __init__(self, seat, rng):
        pass

    def choose(self, obs, legal):
        sys.exit(3)


class _Fast:
    def __init__(self, seat, rng):
        pass

    def choose(self, obs, legal):
        return legal[0]


class BadPolicyFactory(_Fast):
    def policy(self, game):
        raise KeyError("tables")


class Illegal(_Fast):
    def policy(self, game):
        return lambda left, right, can_draw: 27 << 2      # a tile it does not hold


class OutOfRange(_Fast):
    def policy(self, game):
        return lambda left, right, can_draw: 10 ** 30


class NotAnInt(_Fast):
    def policy(self, game):
        return lambda left, right, can_draw: "6-4"


class PolicyExits(_Fast):
    def policy(self, game):
        def pick(left, right, can_draw):
            raise SystemExit(0)
        return pick


class Honest(_Fast):
    """The first legal placement, as a fast policy: a well-behaved plug-in still plays."""

    def policy(self, game):
        def pick(left, right, can_draw):
            m = left or right
            return ((m & -m).bit_length() - 1) << 2 | (0 if left else 1)
        return pick
'''


@pytest.fixture()
def env(tmp_path, monkeypatch):
    (tmp_path / "plugs.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}


def run(env, *args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("bot, says", [
    ("BadInit", "failed: RuntimeError: no config file"),
    ("Exits", "failed: SystemExit: 3"),
    ("BadPolicyFactory", "failed: KeyError: 'tables'"),
    ("Illegal", "policy answered 108, which is not a legal action here"),
    ("OutOfRange", f"policy answered {10 ** 30}, which is not a legal action here"),
    ("NotAnInt", "policy answered '6-4', which is not a legal action here"),
    ("PolicyExits", "failed: SystemExit: 0"),
])
@pytest.mark.parametrize("seats", ["one bot everywhere", "one bot a seat"])
def test_a_misbehaving_plug_in_is_one_diagnostic_naming_it_and_its_seat(env, bot, says, seats):
    from dominorules import api
    from dominorules.bots import loader
    from dominorules.diagnostics import DiagnosticError

    loader._RESOLVED.clear()  # each test's plugs module is a fresh file
    sys.modules.pop("plugs", None)
    spec = f"plugs:{bot}"
    bots, seat = (spec, 0) if seats == "one bot everywhere" else (["random", spec], 1)
    with pytest.raises(DiagnosticError) as err:
        api.simulate(api.load_game("pagat"), 2, 2, 1, bots)
    [d] = err.value.diagnostics
    assert d.message.startswith(f"bot '{spec}' (seat {seat}) {says}")


@pytest.mark.parametrize("command", [
    ["simulate", "pagat", "--matches", "2"],
    ["compare", "pagat", "hoyle", "--matches", "4", "--workers", "2", "--no-skill"],
])
def test_the_cli_says_it_in_one_line_exit_1(env, command):
    result = run(env, *command, "--bots", "plugs:Illegal")
    assert result.returncode == 1
    assert result.stderr == ("error: bot 'plugs:Illegal' (seat 0) policy answered 108, which "
                             "is not a legal action here (legal: 1-0 left, 5-0 left, 2-1 left, "
                             "4-1 left, 5-3 left, 4-4 left, 6-4 left, draw)\n")


def test_an_honest_plug_in_policy_plays_through_the_guard(env):
    result = run(env, "simulate", "pagat", "--matches", "3", "--bots", "plugs:Honest")
    assert result.returncode == 0, result.stderr
