"""Plug-in bots that misbehave in the ways a message itself could trip on: a ``__repr__``
that raises, a hollow Action, a 5,000-digit answer, a file that is not Python. Each
ends in one ``bot`` line naming the bot and its seat, never a traceback."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from dominorules import api
from dominorules.cli import main
from dominorules.engine.actions import Action

LEGAL = "1-0, 5-0, 2-1, 4-1, 5-3, 4-4, 6-4, draw"   # seat 0's first turn, pagat seed 1


class Plugin:
    def __init__(self, seat, rng):
        pass


class RaisesUnshowable(Plugin):
    def __repr__(self):
        raise RuntimeError("no repr")

    def choose(self, obs, legal):
        raise ValueError(10 ** 5000)


class Hollow(Plugin):
    def choose(self, obs, legal):
        return object.__new__(Action)


class Huge(Plugin):
    def choose(self, obs, legal):
        return 10 ** 5000


class HugeEnd(Plugin):
    def choose(self, obs, legal):
        return Action("place", legal[0].tile, 10 ** 5000)


@pytest.mark.parametrize("bot, says", [
    ("RaisesUnshowable", "failed: ValueError: <ValueError that cannot be shown>"),
    ("Hollow", f"returned <Action that cannot be shown> (Action), which is not one of the "
               f"legal actions: {LEGAL}"),
    ("Huge", f"returned <int that cannot be shown> (int), which is not one of the legal "
             f"actions: {LEGAL}"),
    ("HugeEnd", "returned <Action that cannot be shown> (Action), which is not one of the "
                f"legal actions: {LEGAL}"),
])
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_bot_whose_answer_cannot_be_shown_is_one_line(monkeypatch, bot, says, command):
    monkeypatch.syspath_prepend(os.path.dirname(__file__))
    spec = f"test_bots_hostile:{bot}"
    args = (["simulate", "pagat", "--matches", "2"] if command == "simulate" else
            ["compare", "pagat", "--matches", "2", "--no-skill", "--workers", "1"])
    result = CliRunner().invoke(main, [*args, "--bots", spec])
    assert result.exit_code == 1
    assert result.stderr == f"error: bot '{spec}' (seat 0) {says}\n"


def test_a_bot_object_whose_str_raises_is_named_in_the_summary():
    summary = api.simulate(api.load_game("pagat"), 2, 2, 1,
                           bots=[RaisesUnshowableButPlays(0, None), "random"])
    assert summary["bots"][0] == "<RaisesUnshowableButPlays that cannot be shown>"


class RaisesUnshowableButPlays(Plugin):
    def __repr__(self):
        raise RuntimeError("no repr")

    __str__ = __repr__

    def choose(self, obs, legal):
        return legal[0]


@pytest.mark.parametrize("content", [b"\x00\x01 not python", b"this is : not python\n"])
def test_a_bot_file_that_is_not_python_is_one_line(tmp_path, content):
    (tmp_path / "bot.py").write_bytes(content)
    result = CliRunner().invoke(main, ["simulate", "pagat", "--matches", "2", "--bots",
                                       f"{tmp_path}/bot.py:Bot"])
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith(f"error: bot '{tmp_path}/bot.py:Bot': importing ")
    assert len(result.stderr.splitlines()) == 1
