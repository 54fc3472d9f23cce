"""Broken rulesets for the newer mechanisms and bad moves typed against them, as a new
user meets them: each gets one message naming the field (and line) and the fix, never a
Python internal ("tuple index out of range", a tile's repr, a formula kind for a field)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api
from dominorules.engine.actions import IllegalActionError
from dominorules.rules import check_ruleset


def rendered(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "broken.yaml"
    path.write_text("title: Broken\n" + text, encoding="utf-8")
    return [d.render(path.read_text(encoding="utf-8")).replace(f"{path}", "broken.yaml")
            for d in check_ruleset(str(path))]


LEGAL = "examples:\n  - title: t\n    kind: legal\n    players: 2\n"


@pytest.mark.parametrize(("text", "message"), [
    # an example's open end of a number no tile has (was "tuple index out of range")
    ("extends: house/matador\n" + LEGAL + '    hands: ["6-1 5-5", "4-4"]\n'
     '    ends: [9, 3]\n    expect_legal: ["6-1 left"]\n',
     "broken.yaml:8:12: error: ends[0] is 9, but no tile of a double-6 set has that number "
     "[examples[0].ends[0]]\n"
     "    8 |     ends: [9, 3]\n"
     "      |            ^\n"
     "  hint: give open ends from 0 to 6"),
    # a board tile outside the set (was "Tile(low=6, high=9)")
    ("extends: pagat\n" + LEGAL + '    hands: ["6-1 5-5", "4-4"]\n    board: ["6-9"]\n'
     '    expect_legal: ["draw"]\n',
     "broken.yaml:8:13: error: tile 6-9 is not in a double-6 set [examples[0].board[0]]\n"
     '    8 |     board: ["6-9"]\n'
     "      |             ^\n"
     "  hint: name a tile whose halves are 0 to 6"),
    # a board tile the set takes out (was "Tile(low=0, high=3)")
    ("extends: house/no-blanks\n" + LEGAL + '    hands: ["6-1 5-5", "4-4"]\n'
     '    board: ["0-3"]\n    expect_legal: ["draw"]\n',
     "broken.yaml:8:13: error: tile 0-3 is taken out of this set (set.without or set.keep) "
     "[examples[0].board[0]]\n"
     '    8 |     board: ["0-3"]\n'
     "      |             ^\n"
     "  hint: lay only tiles still in the set"),
    # a tile both on the board and in a hand (was accepted, and played a second time)
    ("extends: pagat\n" + LEGAL + '    hands: ["6-1 5-5", "4-4"]\n    board: ["5-5"]\n'
     '    expect_legal: ["draw"]\n',
     "broken.yaml:8:13: error: tile 5-5 is both in seat 0's hand and on the board "
     "[examples[0].board[0]]\n"
     '    8 |     board: ["5-5"]\n'
     "      |             ^\n"
     "  hint: each tile of the set exists once"),
    # a board entry that is no tile, at its own line (was at the example's title)
    ("extends: pagat\n" + LEGAL + '    hands: ["6-1 5-5", "4-4"]\n    board: ["six four"]\n'
     '    expect_legal: ["draw"]\n',
     "broken.yaml:8:13: error: board[0]: 'six' is not a tile: write it like 6-4 "
     "[examples[0].board[0]]\n"
     '    8 |     board: ["six four"]\n'
     "      |             ^\n"
     '  hint: write the opening tile alone ("5-5"), then each tile with its end ("5-2 left")'),
    # no wild tile at all (was "must be ..., ... (not a list)")
    ("extends: pagat\nmatching:\n  fits: \"end + half == 7\"\n  wild: []\n",
     "broken.yaml:5:9: error: matching.wild must hold at least 1 item [matching.wild]\n"
     "    5 |   wild: []\n"
     "      |         ^\n"
     "  hint: list at least 1, or leave matching.wild out. The wild tiles, each written as a "
     'quoted string such as "[6|1]".'),
    # a wild tile listed twice (was jsonschema's "[...] has non-unique elements")
    ("extends: pagat\nmatching:\n  fits: \"end + half == 7\"\n  wild: [\"[6|1]\", \"[6|1]\"]\n",
     "broken.yaml:5:9: error: matching.wild lists the same value twice [matching.wild]\n"
     '    5 |   wild: ["[6|1]", "[6|1]"]\n'
     "      |         ^\n"
     "  hint: list each once"),
    # a formula of the wrong type is named by its field (was "event_place must be ...")
    ("extends: house/muggins-called\ndeclarations:\n  - name: count\n    when: after_place\n"
     "    claims: [0, 5]\n    worth: \"end_total\"\n    score: \"claimed\"\n"
     "    due: \"end_total\"\n",
     "broken.yaml:9:11: error: declarations[0].due must be a boolean, this expression is an "
     "integer [declarations[0].due]\n"
     '    9 |     due: "end_total"\n'
     "      |           ^^^^^^^^^\n"
     "  hint: compare it to make a condition, e.g. 'end_total == 6' or 'end_total > 0'"),
    ("extends: pagat\nvariables:\n  stake:\n    initial: 1\ndeclarations:\n  - name: stake\n"
     "    when: round_start\n    options:\n      - name: double\n        set:\n"
     "          stake: \"stake > 1\"\n",
     "broken.yaml:12:19: error: declarations[0].options[0].set.stake must be an integer, this "
     "expression is a boolean [declarations[0].options[0].set.stake]\n"
     '   12 |           stake: "stake > 1"\n'
     "      |                   ^^^^^^^^^\n"
     "  hint: turn the condition into a number, e.g. '1 if stake > 1 else 0'"),
    ("extends: pagat\nplay:\n  several:\n    tiles: \"tile.pips + 1\"\n",
     "broken.yaml:5:13: error: play.several.tiles must be a boolean, this expression is an "
     "integer [play.several.tiles]\n"
     '    5 |     tiles: "tile.pips + 1"\n'
     "      |             ^^^^^^^^^^^^^\n"
     "  hint: compare it to make a condition, e.g. '(tile.pips + 1) == 6' or "
     "'(tile.pips + 1) > 0'"),
])
def test_a_broken_mechanism_gets_one_message_at_its_line(tmp_path, text, message):
    assert rendered(tmp_path, text) == [message]


def _stuck_with_only_moves_of_two():
    game = api.load_game("house/double-draw")   # pairs, one on each end; no voluntary draw
    return game.new_match(2, 0, deals=[api.Deal.of(
        ["6-3 6-2 5-4 5-2 4-1 2-0", "0-0 1-1 2-2 3-3 4-4 5-5"], "6-1", 0)])


@pytest.mark.parametrize(("typed", "why"), [
    # was "you may still draw, so you may not pass": no draw is allowed there
    ("pass", "you can play 4-1 left + 6-2 right, so you may not pass"),
    # was "a player with no playable tile passes at once under these rules"
    ("draw", "voluntary draws are not allowed: you can place 4-1 left + 6-2 right"),
])
def test_a_refused_pass_or_draw_names_the_move_of_several_tiles(typed, why):
    state = _stuck_with_only_moves_of_two()
    assert [str(a) for a in state.legal_actions()] == ["4-1 left + 6-2 right",
                                                      "4-1 left + 6-3 right"]
    with pytest.raises(IllegalActionError) as refused:
        state.apply(typed)
    assert str(refused.value) == why


def test_a_tile_typed_before_the_opening_double_is_found_says_which_opens():
    game = api.load_game("house/chicken-foot")   # 9-9 opens the first hand: nobody holds it
    tiles = [f"{a}-{b}" for a in range(10) for b in range(a, 10) if (a, b) != (9, 9)]
    state = game.new_match(2, 0, deals=[api.Deal.of(
        [" ".join(tiles[:21]), " ".join(tiles[21:42])], "", 0)])
    assert [str(a) for a in state.legal_actions()] == ["draw"]
    with pytest.raises(IllegalActionError) as refused:   # was "... the opening tile any tile"
        state.apply("0-0")
    assert str(refused.value) == (
        "nobody can open yet: players draw in turn until a tile that may open is found (this "
        "hand is set with its own double: 9-9 in the first hand, one lower each hand), so you "
        "must draw")
