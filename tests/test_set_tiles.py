"""The set: bigger sets, tiles taken out (``set.without``, ``set.keep``), written once in
``engine/mechanisms/set_tiles.py`` and seen by the deal, the rulebook, records, examples,
the rule sheet and validate; and ``sides.won`` read the same by every engine."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.engine.mechanisms.set_tiles import set_tiles, taken_out
from dominorules.engine.positions import legal
from dominorules.engine.tiles import Tile, parse_tiles
from dominorules.kernel import engines
from dominorules.kernel.generate import covers
from dominorules.kernel.jit_kernel import jit_reason
from dominorules.records import check_file_strict
from dominorules.rules import check_ruleset, load_ruleset
from dominorules.rules.describe import rule_sheet
from dominorules.rules.diff import diff

SMALL = """title: Small set
extends: pagat
set:
  without: ["[6|6]", "[0|5]"]
  keep: "tile.low > 0 or tile.is_double"
players:
  max: 2
deal:
  hand_size: "tile_count // 3"
"""


def _file(tmp_path, text: str, name: str = "r.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_the_mechanism_takes_out_named_tiles_and_those_keep_refuses():
    assert taken_out(2, [(2, 0)], None) == ((0, 2),)
    keep = lambda env: env["tile"][0] > 0 or env["tile"][0] == env["tile"][1]  # noqa: E731
    assert taken_out(2, [(2, 2)], keep) == ((0, 1), (0, 2), (2, 2))
    assert set_tiles(2, ((0, 1), (0, 2), (2, 2))) == [(0, 0), (1, 1), (1, 2)]


def test_a_smaller_set_is_dealt_drawn_and_counted_as_itself(tmp_path):
    game = api.load_game(_file(tmp_path, SMALL))
    # 28 less 6-6, 5-0 and the blanks 1-0, 2-0, 3-0, 4-0, 6-0 (0-0 is a double: kept)
    assert game.rules.removed_tiles == ((0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (6, 6))
    assert game.tileset.tile_count == 21 and game.hand_size(2) == 7   # tile_count // 3
    assert game.tileset.doubles_desc[0] == game.tileset.index[Tile(5, 5)]
    gone = {tuple(t) for t in game.rules.removed_tiles}
    for seed in range(4):
        events = api.play_match(game, 2, seed, bots=["random", "greedy"], trace=True).events
        for e in events:
            if e["event"] == "deal":
                dealt = [tuple(t) for h in e["hands"] for t in h] + \
                    [tuple(t) for t in e["boneyard"]]
                assert sorted(dealt) == set_tiles(6, game.rules.removed_tiles)
            if e["event"] in ("place", "draw") and e.get("tile"):
                assert tuple(e["tile"]) not in gone


def test_the_kernel_refuses_a_smaller_set_the_loop_and_the_jit_play_it(tmp_path):
    game = api.load_game(_file(tmp_path, SMALL))
    assert not covers(game)
    # the JIT plays it, on its own tables (tests/test_kernel_jit_house.py: house/no-blanks)
    assert jit_reason(game, 2, need_numba=False) is None
    a = api.play_match(game, 2, 5, engine="python", trace=True).events
    b = api.play_match(game, 2, 5, engine="loop", trace=True).events
    assert a == b


def test_verify_and_the_rulebook_accept_it_and_reject_a_tile_taken_out(tmp_path):
    game = api.load_game(_file(tmp_path, SMALL))
    events = api.play_match(game, 2, 3, trace=True).events
    good = tmp_path / "good.jsonl"
    records.write_records(str(good), events)
    assert records.verify_file(str(good)) == [] and check_file_strict(str(good)) == []
    deal = next(e for e in events if e["event"] == "deal")
    deal["boneyard"][-1] = [6, 6]          # a tile the set does not hold
    bad = tmp_path / "bad.jsonl"
    records.write_records(str(bad), events)
    replay = [d.message for d in records.verify_file(str(bad))]
    assert replay and "6-6 is taken out of this set" in replay[0]
    strict = [d.message for d in check_file_strict(str(bad))]
    assert any("without the tiles it takes out; the record deals [6, 6]" in m for m in strict)


def test_legal_moves_and_a_default_last_tile_in_a_set_without_blanks():
    game = api.load_game("house/no-blanks")
    assert game.tileset.tile_count == 21
    assert [str(a) for a in legal(game, {"players": 2, "ends": [6, 1], "boneyard": 5, "turn": 0},
                                  [parse_tiles("6-3 2-2 1-5"), parse_tiles("4-4")])] == \
        ["6-3 left", "5-1 right", "draw"]   # the dice set: what a blank would block, nothing


@pytest.mark.parametrize(("yaml_set", "where", "message"), [
    ('  without: ["[9|9]"]\n', ":4:", "set.without[0] [9|9] is not in a double-6 set"),
    ('  without: ["[0|6]", "[6|0]"]\n', ":4:", "set.without names [0|6] twice (as [6|0] too)"),
    ('  keep: "tile.pips"\n', ":4:10:", "set.keep must be a boolean"),
    ('  keep: "tile.low > 3"\ndeal:\n  hand_size: 7\n', ":6:14:",
     "needs 14 tiles, but the set has 6 (double-6 with 22 taken out)"),
    ('  keep: "tile.low > 3"\n', ":4:",      # pagat's hand size: reported at this file's set
     "needs 14 tiles, but the set has 6 (double-6 with 22 taken out)"),
    ('  max_pip: 3\n', ":4:", "needs 14 tiles, but a double-3 set has 10"),
    ('  keep: "not tile.is_double"\nlead:\n  first: highest_double\n', ":4:",
     "the set keeps no double, but lead.first is highest_double"),
])
def test_validate_places_each_set_problem_with_a_hint(tmp_path, yaml_set, where, message):
    text = f"title: Bad set\nextends: pagat\nset:\n{yaml_set}"
    if "highest_double" not in yaml_set:
        text += "players:\n  max: 2\n"
    problems = check_ruleset(_file(tmp_path, text))
    found = [p for p in problems if message in p.message]
    assert found, [p.message for p in problems]
    assert where in f":{found[0].line}:{found[0].column}:" and found[0].file.endswith("r.yaml")
    assert found[0].hint or found[0].code == "expr-type"   # a type error says it all


def test_an_opening_tile_or_an_example_tile_taken_out_is_reported(tmp_path):
    problems = check_ruleset(_file(tmp_path, """title: Bad opening
extends: hoyle
set:
  without: ["[6|6]"]
opening:
  tile: "[6|6]"
examples:
  - title: a hand holding a tile taken out
    kind: legal
    players: 2
    hands: ["6-6", "1-2"]
    ends: [1, 2]
    boneyard: 3
    turn: 0
    expect_legal: ["draw"]
"""))
    messages = [p.message for p in problems]
    assert "opening.tile [6|6] is taken out of this set (set.without or set.keep)" in messages
    assert "tile 6-6 is taken out of this set (set.without or set.keep)" in messages


def test_the_rule_sheet_and_diff_name_the_tiles_taken_out(tmp_path):
    small = load_ruleset(_file(tmp_path, SMALL))
    text = rule_sheet(small).rule("set").text
    assert "Taken out before play, and never dealt, drawn or counted: 6-6 and 5-0; and every " \
           "tile failing the condition tile.low > 0 or tile.is_double (1-0, 2-0, 3-0, 4-0 " \
           "and 6-0). 21 tiles are played." in text
    assert "set" in [r.key for r in diff(load_ruleset("pagat"), small).rules]
    values = rule_sheet(load_ruleset("house/no-blanks")).rule("scoring.tile_value").text
    assert values.endswith("both halves added (6-6 is 12, 1-1 is 2).")


def test_bigger_sets_parse_two_digit_tiles_and_the_jit_plays_them():
    """(their matches on the JIT: tests/test_kernel_jit_wide.py)"""
    assert Tile.parse("15-12") == Tile(12, 15) and str(Tile(12, 15)) == "15-12"
    for name, count in (("house/double-fifteen", 136), ("house/double-eighteen", 190)):
        game = api.load_game(name)
        assert game.tileset.tile_count == count
        assert jit_reason(game, 2, need_numba=False) is None
        why = jit_reason(game, 2)
        assert engines.choose(game, 2, "random", "auto", matches=50_000) == (
            "jit" if why is None else "python")


def test_every_side_reads_the_winner_in_verify_strict_too(tmp_path):
    """``sides.won`` in ``scoring.every_side`` is the round's winner for every side: the
    loop, the kernel and the rulebook agree, and the rulebook rejects other points."""
    game = api.load_game(_file(tmp_path, """title: Everybody sees the winner
extends: pagat
scoring:
  every_side: "1 if any(sides.won) and not side.won else 0"
"""))
    events = api.play_match(game, 3, 2, trace=True).events
    assert events == api.play_match(game, 3, 2, engine="loop", trace=True).events
    end = next(e for e in events if e["event"] == "round_end" and e["winner"] is not None)
    losers = [s for s in range(3) if s != end["winner"]]
    assert all(end["points"][s] == 1 for s in losers)   # each loser reads the winner
    path = tmp_path / "won.jsonl"
    records.write_records(str(path), events)
    assert check_file_strict(str(path)) == []
    end["points"][losers[0]] = 0
    end["scores"][losers[0]] -= 1
    records.write_records(str(path), events)
    assert check_file_strict(str(path)), "a loser that missed the winner is rejected"
    json.dumps(events)


def test_the_strategist_counts_a_suit_by_the_tiles_in_play():
    from dominorules.bots.strategy import _Tables
    game = api.load_game("house/no-blanks")
    tables = _Tables(game.tileset.tiles, 6, game.values)
    assert tables.suit_size == (0, 6, 6, 6, 6, 6, 6)    # no blank; each value on 6 tiles
    whole = api.load_game("pagat")
    assert _Tables(whole.tileset.tiles, 6, whole.values).suit_size == (7,) * 7
    bots = ["strategist", "greedy"]
    fast = api.play_match(game, 2, 4, bots=bots, trace=True).events
    assert fast == api.play_match(game, 2, 4, bots=bots, trace=True, engine="loop").events


@pytest.mark.parametrize("base", ["hoyle", "house/draw-for-lead", "house/double-opening",
                                  "house/spinner"])
def test_lead_and_opening_rules_see_the_smaller_set(tmp_path, base):
    """The highest double with 6-6 and 5-5 out is 4-4; a lot draws from the tiles in play;
    a double must open from those; records pass both readings."""
    game = api.load_game(_file(tmp_path, f"""title: Smaller set on {base}
extends: {base}
set:
  without: ["[6|6]", "[5|5]"]
players:
  max: 3
"""))
    assert game.tileset.doubles_desc[0] == game.tileset.index[Tile(4, 4)]
    events = []
    for seed in range(2):
        events += api.play_match(game, 3, seed, bots=["random", "greedy", "strategist"],
                                 trace=True).events
    first = [tuple(e["tile"]) for e in events if e["event"] == "place" and e["end"] is None]
    assert first and not {(6, 6), (5, 5)} & set(first)
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == [] and check_file_strict(str(path)) == []


def test_play_shows_two_digit_tiles_and_takes_a_typed_move(tmp_path):
    import re

    from dominorules.play import PlaySettings, ScriptedTerminal, play
    trace = tmp_path / "t.jsonl"
    term = ScriptedTerminal(["draw", "quit", "yes"])
    assert play(PlaySettings("house/double-fifteen", seed=3, fast=True, bots=("random",),
                             trace=str(trace)), term) == 0
    hand = next(line for line in term.text.splitlines() if line.startswith("Your hand:"))
    assert re.search(r"\b1[0-5]-\d+", hand)
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert any(e["event"] == "draw" and e["player"] == 0 for e in events)
