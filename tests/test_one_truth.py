"""One truth per rule: the readers of a mechanism ask its module, and so agree.

Play-time events are read by ``mechanisms.events.fire`` alone: the match loop
(``GeneralLoop._fire``, which the Python kernel and the rule examples' positions call too)
writes what it returns, the rulebook expects it. The opening rule of a round is
``mechanisms.opening.rule_of`` for the loop, the rulebook and the why-not explanations.
Each test here fails if one reader went back to a reading of its own.
"""

from __future__ import annotations

from pathlib import Path

from test_mechanisms import position

from dominorules import api, records
from dominorules.engine.actions import Action
from dominorules.engine.mechanisms import events
from dominorules.engine.mechanisms.duties import Duty
from dominorules.engine.mechanisms.opening import rule_of
from dominorules.records import check_file_strict
from dominorules.rules import check_ruleset

ROOT = Path(__file__).resolve().parents[1]
AT_ONCE = str(ROOT / "tests" / "rulesets" / "strict" / "points-at-once.yaml")

EVERY_EFFECT = """\
title: Every effect of one rule
extends: pagat
variables:
  tally: {initial: 0, after_round: "0"}
events:
  - after: place
    points: 1
    set: {tally: "tally + side.score"}
    again: true
    skip: 1
    next_draws: 1
    duty: {met: "true", fail_draws: 1}
"""


def test_points_count_at_once_for_every_formula_read_after_them():
    """From 10: rule 0 scores 1, so rule 1 (odd score) scores and sets ``seen`` to 12;
    rule 2's double makes 14, and its ``again`` and ``skip`` read 14: neither."""
    pos = position(AT_ONCE, [[(3, 3), (1, 2)], [(4, 5)]], boneyard=[(0, 0)] * 10,
                   scores=[10, 0], opening_tiles=[(3, 6)])
    pos.board.place((3, 3), "left")
    lines: list[dict] = []
    fired = events.fire(pos, 0, "place", events.environment(pos, 0, "place", (3, 3)),
                        record=lines)
    assert fired.scores == ((0, 0, 1), (1, 0, 1), (2, 0, 2))
    assert fired.sets == ((1, "seen", 12),) and pos.values["seen"] == 12
    assert (fired.again, fired.skips, pos.scores) == ((), 0, [14, 0])
    assert [(e["event"], e.get("rule")) for e in lines] == [
        ("score", 0), ("score", 1), ("set", 1), ("score", 2)]


def test_the_loop_reads_points_at_once_as_the_mechanism_does(tmp_path):
    """The rule examples run through the loop's ``_fire`` (``engine.positions``), and a
    match the loop plays reads back clean under the rulebook, with the rule that reads
    an earlier rule's point firing in it."""
    assert [d.headline() for d in check_ruleset(AT_ONCE)] == []
    game = api.load_game(AT_ONCE)
    result = api.play_match(game, 2, 5, bots=["random", "random"], trace=True,
                            engine="loop")
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), result.events)
    assert check_file_strict(str(path)) == []
    assert any(e["event"] == "set" and e["rule"] == 1 for e in result.events)


def test_a_placement_emptying_the_hand_keeps_its_points_and_skips_only(tmp_path):
    """A domino (or a player going out): the turn, the next seat's draw and the duty
    lapse in the mechanism itself, for the loop and the rulebook alike."""
    path = tmp_path / "every.yaml"
    path.write_text(EVERY_EFFECT)
    for ends_round in (False, True):
        pos = position(str(path), [[(1, 2)], [(3, 4)], [(5, 6)]], boneyard=[(0, 0)] * 5,
                       opening_tiles=[(2, 6)])
        pos.values = {"tally": 0}
        pos.board.place((1, 2), "left")
        lines: list[dict] = []
        fired = events.fire(pos, 0, "place", events.environment(pos, 0, "place", (1, 2)),
                            ends_round=ends_round, record=lines)
        assert (fired.scores, fired.sets, fired.skips) == (((0, 0, 1),), ((0, "tally", 1),),
                                                           1)
        if ends_round:
            assert (fired.again, fired.draws, fired.duties) == ((), (), ())
            assert [e["event"] for e in lines] == ["score", "set"]
        else:
            assert fired.again == (0,) and fired.draws == ((0, 1),)
            assert fired.duties == (Duty(0, 1, (1, 2)),)
            assert lines == [
                {"event": "score", "player": 0, "side": 0, "points": 1, "rule": 0},
                {"event": "set", "player": 0, "variable": "tally", "value": 1, "rule": 0},
                {"event": "extra_turn", "player": 0},
                {"event": "duty", "player": 1, "rule": 0, "tile": [1, 2]}]


def test_no_rule_firing_is_nothing():
    pos = position("house/all-fives", [[(1, 2)], [(3, 4)]], opening_tiles=[(2, 6)])
    pos.board.place((1, 2), "left")
    assert events.fire(pos, 0, "place",
                       events.environment(pos, 0, "place", (1, 2))) is events.NOTHING
    assert pos.scores == [0, 0]


def test_the_first_round_opening_is_explained_by_the_round_own_rule():
    """Round 1 of a ruleset whose first_round names the highest double opens with it at
    once, as a ruleset whose every round does: the why-not says so for both."""
    for name in ("house/first-round-highest-double", "hoyle"):
        state = api.load_game(name).new_match(players=2, seed=3)
        assert state.round == 1 and [str(a) for a in state.legal_actions()] == ["4-4"]
        assert api.explain_illegal(state, Action.parse("draw")) == (
            "the round opens with 4-4 at once: no draw before it")
    rules = api.load_game("house/first-round-highest-double").rules
    assert (rule_of(rules, 1).tile, rule_of(rules, 2).tile) == ("highest_double", "any")
