"""Anything typed at ``play`` or ``replay`` is answered and asked again; a typo never ends
the match. Other Unicode digits, huge numbers, control characters and a pasted
megabyte each get a short refusal, and the next good answer plays on.
"""

from __future__ import annotations

import json

import pytest

from dominorules import api
from dominorules.play import PlaySettings, ScriptedTerminal, play
from dominorules.play.commands import Refusal, interpret
from dominorules.play.replay import Replayer
from dominorules.play.timeline import snapshots

HOSTILE = ["²", "٣", "1" * 5000, "-1", "0", "\x1b[2J\x1b[31m1", "\x00\x07", "6-4 " * 100000,
           "9" * 40 + "-4 left", "1e3", "0x1", "１"]


@pytest.mark.parametrize("typed", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_at_the_table_is_a_short_refusal(typed):
    state = api.load_game("pagat").new_match(players=2, seed=1)
    reply = interpret(typed, state)
    assert isinstance(reply, Refusal)
    assert len(reply.message) < 200
    assert "\x1b" not in reply.message and "\x00" not in reply.message


def test_the_match_goes_on_after_every_kind_of_typo(tmp_path):
    trace = tmp_path / "t.jsonl"
    term = ScriptedTerminal([*HOSTILE, "1", "quit", "yes"])
    assert play(PlaySettings("pagat", seed=8, fast=True, trace=str(trace)), term) == 0
    assert term.prompts.count("Seat 0 > ") >= len(HOSTILE) + 1
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert any(e.get("player") == 0 for e in events)  # "1" was played after all the typos


def test_replay_answers_hostile_text_and_steps_on():
    events = api.play_match("pagat", 2, 1, trace=True).events
    term = ScriptedTerminal([*HOSTILE, "2", "q"])
    assert Replayer(snapshots(events), term).run() == 0
    # a line of control characters only is an empty line once they are dropped: "next"
    assert term.text.count("✗") == len(HOSTILE) - 1
    assert term.text.count("Event 2 of") == 2
