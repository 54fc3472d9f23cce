"""How a tile fits an end (``engine.mechanisms.matching``, ``matching`` in a ruleset): the
fit formula and wild tiles on constructed deals with exact legal moves, the way round a
tile lies when it fits either way, the records and their checks, validate's messages,
doubles in line, and the fast paths that refuse the mechanism."""

from __future__ import annotations

import textwrap

import pytest
from scenarios import legal

from dominorules import api, records
from dominorules.engine.actions import AmbiguousActionError, IllegalActionError
from dominorules.engine.board import LineOfPlay
from dominorules.engine.mechanisms.matching import FitRule, left_open, placements
from dominorules.kernel.generate import covers
from dominorules.kernel.jit_kernel import jit_reason
from dominorules.records import check_file_strict
from dominorules.rules import check_ruleset, load_ruleset

SEVEN = FitRule(lambda env: env["end"] + env["half"] == 7,
                frozenset({(0, 0), (1, 6), (2, 5), (3, 4)}), "far_half", 6, "end + half == 7")


@pytest.fixture
def house(tmp_path):
    """``house(yaml_text, base)`` -> the path of a ruleset file extending ``base``."""
    def write(text: str, base: str = "pagat") -> str:
        path = tmp_path / "house.yaml"
        path.write_text(f"title: A house rule\nextends: {base}\n" + textwrap.dedent(text))
        return str(path)
    return write


def test_the_rule_names_each_way_a_tile_may_lie():
    assert placements((2, 5), 5) == ((5, 2),)            # the same number, no rule
    assert placements((2, 5), 3) == ()
    assert placements((2, 4), 3, SEVEN) == ((4, 2),)      # 4 + 3 == 7: the 2 left open
    assert placements((0, 5), 0, SEVEN) == ()             # nothing adds to a blank
    assert placements((1, 6), 0, SEVEN) == ((1, 6), (6, 1))   # a matador, either way
    assert placements((0, 0), 3, SEVEN) == ((0, 0),)      # a double lies one way
    assert left_open((1, 6), 3, SEVEN, meets=6) == 1
    joker = FitRule(None, frozenset({(0, 0)}), "end", 6)
    assert placements((0, 0), 4, joker) == ((0, 4),)      # the end keeps its number
    assert placements((4, 5), 4, joker) == ((4, 5),)      # others: the same number


def start(name: str, hands: list[str], boneyard: str = "", leader: int = 0):
    game = api.load_game(name)
    return game.new_match(len(hands), 0, deals=[api.Deal.of(hands, boneyard, leader)])


def test_matador_places_by_sevens_and_a_matador_either_way_round():
    state = start("house/matador", ["6-6 4-2 1-5 6-1 3-3 2-2 0-4",
                                    "5-5 1-1 2-3 0-1 0-2 0-3 0-5"])
    state.apply("6-6")
    assert legal(state) == ["1-0 left", "1-1 left", "1-0 right", "1-1 right", "draw"]
    with pytest.raises(IllegalActionError, match=r"does not fit the left end \(6\): a half "
                       r"must meet an end so that end \+ half == 7, and only the wild tiles"):
        state.apply("3-2 left")
    state.apply("1-1 right")      # in line: the right end now shows 1
    assert legal(state) == ["5-1 left", "6-1 left 1", "6-1 left 6", "6-1 right 1",
                            "6-1 right 6", "draw"]
    with pytest.raises(AmbiguousActionError, match="either way round: write 6-1 left 1"):
        state.apply("6-1 left")
    with pytest.raises(IllegalActionError, match="the 5 of 5-1 cannot meet the left end"):
        state.apply("5-1 left 5")
    state.apply("6-1 right 1")    # the 1 against the 1: the 6 is left open
    place = state.record[-1]
    assert place == {"event": "place", "player": 0, "tile": [1, 6], "end": "right",
                     "meets": 1}
    assert state.decision().ends[:2] == (6, 6)
    state.apply("0-1 left")       # one way only: the record names no half
    assert "meets" not in state.record[-1]
    assert state.decision().ends[:2] == (0, 6)


def test_a_record_rebuilds_the_line_the_way_round_it_was_played():
    line = LineOfPlay(fit=SEVEN)
    line.place(6, 6, None)
    line.place(1, 1, "right")
    line.place(1, 6, "right", meets=1)
    line.place(1, 5, "left")
    assert line.line == [(5, 1), (6, 6), (1, 1), (1, 6)] and line.ends() == (5, 6)


@pytest.mark.parametrize("name,players", [("house/matador", 2), ("house/matador", 4),
                                          ("house/matador-nine", 3)])
def test_every_bot_plays_matador_alike_by_either_path_and_both_checks_accept(
        name, players, tmp_path):
    """Random picks among every way round (the loop's own uniform pick and the bot's
    ``choose`` agree), greedy places a tile its first way, the strategist falls back to
    greedy; verify and verify --strict accept the records."""
    game = api.load_game(name)
    events = []
    for seed, bots in enumerate(("random", "greedy", "strategist")):
        fast = api.play_match(game, players, seed, bots, trace=True)
        slow = api.play_match(game, players, seed, bots, trace=True, fast=False)
        assert fast.events == slow.events and fast.rounds == slow.rounds
        events += fast.events
    assert any("meets" in e for e in events)
    path = tmp_path / "m.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == [] and check_file_strict(str(path)) == []


def test_a_planted_fault_in_the_way_round_is_rejected_by_both_checks(tmp_path):
    game = api.load_game("house/matador")
    events = api.play_match(game, 2, 3, "random", trace=True).events
    i = next(i for i, e in enumerate(events) if "meets" in e)
    low, high = events[i]["tile"]
    wrong = [dict(e) for e in events]
    wrong[i]["meets"] = high if wrong[i]["meets"] == low else low   # the other way round
    path = tmp_path / "w.jsonl"
    records.write_records(str(path), wrong)
    assert records.verify_file(str(path)) != []
    assert check_file_strict(str(path)) != []
    unnamed = [dict(e) for e in events]
    del unnamed[i]["meets"]                                          # which way? unsaid
    records.write_records(str(path), unnamed)
    assert "either way round" in records.verify_file(str(path))[0].message
    assert check_file_strict(str(path)) != []


def test_the_python_kernel_refuses_a_fit_rule_and_the_jit_plays_it():
    for name in ("house/matador", "house/matador-nine"):
        game = api.load_game(name)
        assert not covers(game)   # the general loop plays it on the Python engine
        assert jit_reason(game, 2, need_numba=False) is None   # (test_kernel_jit_house)
        # the strategist's fit-aware weighing too (test_kernel_jit_strategist_rules)
        assert jit_reason(game, 2, "strategist", need_numba=False) is None
    assert covers(api.load_game("pagat"))


def test_doubles_in_line_count_one_number_in_the_ends_total(house, tmp_path):
    path = house("""
        matching:
          doubles: in_line
        examples:
          - title: "[4|4] on the 4 against a 1: ends 1 and 4 make 5, scored"
            kind: events
            players: 2
            hands: ["4-4 1-2", "3-5"]
            ends: [1, 4]
            boneyard: 10
            turn: 0
            action: "4-4 right"
            expect_points: [5, 0]
    """, base="house/all-fives")
    assert check_ruleset(path) == []      # its example: the double counts once
    assert load_ruleset(path).rules.doubles == "in_line"
    events = api.play_match(path, 2, 4, "random", trace=True).events
    out = tmp_path / "d.jsonl"
    records.write_records(str(out), events)
    assert records.verify_file(str(out)) == [] and check_file_strict(str(out)) == []


@pytest.mark.parametrize("text,where,says", [
    ('matching:\n  fits: "end + halff == 7"\n', "4:16", "unknown name 'halff'"),
    ('matching:\n  fits: "end + half == 20"\n', "4:9", "no tile fits any end"),
    ('matching:\n  wild: ["[6|9]"]\n', "4:10", "wild tile [6|9] is not in a double-6 set"),
    ('matching:\n  wild: "tile.pips == 20"\n', "4:9", "holds for no tile of the set"),
    ('matching:\n  wild_leaves: end\n', "4:16", "no tile is wild"),
])
def test_validate_places_a_bad_fit_rule_and_says_what_would_fix_it(house, text, where, says):
    path = house(text)
    problems = check_ruleset(path)
    assert problems, text
    first = problems[0]
    assert says in first.message and f"{first.line}:{first.column}" == where
    assert first.hint


def test_the_strategist_weighs_a_fit_rule_and_lays_the_double_while_it_fits():
    """Its own policy under the rule (``tests/test_strategist_new_kinds.py`` has more)."""
    import random

    from dominorules.bots.strategist import StrategistBot

    state = start("house/matador", ["6-6 4-2 1-5 6-1 3-3 2-2 0-4",
                                    "5-5 1-1 2-3 0-1 0-2 0-3 0-5"])
    state.apply("6-6")
    bot = StrategistBot(1, random.Random(0))
    action, why = bot.explain(state.observation(1), state.legal_actions())
    assert (str(action), why) == ("1-1 right", "1-1 right: places a double while it still fits")
