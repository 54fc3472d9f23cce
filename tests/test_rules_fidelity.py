"""Issue 19: the engines do what the docs and the schema say, through real deals.

Each test failed before its fix: the heaviest tile's fallback lost to the lead's redeal,
``sides.won`` read false for a winner not yet reached, a lapsed extra turn was written,
and ``passes_in_row`` read 0 after a placement.
"""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.engine.positions import fired, points
from dominorules.engine.tiles import Tile, parse_tiles
from dominorules.records import check_file_strict

# 2 players, 7 tiles each, no double dealt; the heaviest tile dealt is [5|6], seat 1's
NO_DOUBLE = ["0-1 0-2 0-3 0-4 1-2 1-3 2-3", "0-5 0-6 1-4 1-5 1-6 2-4 5-6"]


def _yaml(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _play_out(state) -> None:
    """Play to the end taking the first legal action (the record is what is checked)."""
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])


def test_heaviest_opens_opens_with_the_heaviest_tile_instead_of_a_redeal():
    game = api.load_game("house/heaviest-opens")
    state = game.new_match(2, seed=0, deals=[Deal.of(NO_DOUBLE)])
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["6-5"]
    deal = next(e for e in state.record if e["event"] == "deal")
    assert deal["leader"] == 1           # not thrown in (leader null) and dealt again


def test_the_heaviest_tiles_holder_leads_and_the_next_round_rotates_from_them(tmp_path):
    path = _yaml(tmp_path, "hd.yaml", """title: Highest double, else the heaviest
extends: pagat
lead:
  first: highest_double
  later: rotate
opening:
  tile: any
  first_round:
    tile: highest_double
    if_unheld: heaviest
""")
    game = api.load_game(path)
    hands = ["0-1 0-2 0-3 0-4 1-2", "1-3 2-3 0-5 1-4 2-4", "0-6 1-5 1-6 2-5 5-6"]
    state = game.new_match(3, seed=3, deals=[Deal.of(hands)])
    assert state.current_player == 2 and [str(a) for a in state.legal_actions()] == ["6-5"]
    _play_out(state)
    leaders = [(e["round"], e["leader"]) for e in state.record if e["event"] == "deal"]
    assert leaders[0] == (1, 2)       # the player who really led round 1
    assert leaders[1] == (2, 0)       # round 2: one seat on from them


def test_every_side_reads_the_rounds_real_winner(tmp_path):
    """A constructed round: seat 2 dominoes; every side sees that somebody won."""
    game = api.load_game(_yaml(tmp_path, "won.yaml", """title: Everybody sees the winner
extends: pagat
scoring:
  every_side: "1 if any(sides.won) else 0"
"""))
    hands = [parse_tiles("1-2"), parse_tiles("3-4"), []]
    got = points(game, {"players": 3, "result": "domino"}, hands)
    assert got == [1, 1, 11]     # the domino scores 3 + 7, and every side 1


def test_the_kernel_plays_every_side_as_the_loop_does(tmp_path):
    game = api.load_game(_yaml(tmp_path, "won.yaml", """title: The winner scores one more
extends: pagat
scoring:
  every_side: "1 if side.won and any(sides.won) else 0"
"""))
    won = 0
    for seed in range(6):
        loop = api.play_match(game, 3, seed, engine="loop", trace=True)
        kernel = api.play_match(game, 3, seed, engine="python", trace=True)
        assert loop.events == kernel.events
        for r in loop.rounds:   # the winner gains its points and one more
            if r.winner is not None and r.winner != 0:
                won += 1
                assert r.points[r.winner] >= 1 and r.points[0] == 0
    assert won, "a round won by another side than side 0"


def _lapsing(seed: int) -> tuple[list[dict], int]:
    """doubles-play-again, 2 random bots: the record and a round_end right after a double
    that went out."""
    game = api.load_game("house/doubles-play-again")
    events = api.play_match(game, 2, seed, bots=["random", "random"], trace=True).events
    for i, e in enumerate(events):
        if e["event"] == "round_end" and e["result"] == "domino":
            last = events[i - 1]
            if last["event"] == "place" and last["tile"][0] == last["tile"][1]:
                return events, i
    raise AssertionError("no round ends on a double")


def test_a_lapsed_extra_turn_is_not_written_and_verify_rejects_one(tmp_path):
    events, end = _lapsing(0)
    assert not any(e["event"] == "extra_turn" and events[i + 1]["event"] == "round_end"
                   for i, e in enumerate(events[:-1]))
    good = tmp_path / "good.jsonl"
    records.write_records(str(good), events)
    assert records.verify_file(str(good)) == []
    old = events[:end] + [{"event": "extra_turn", "player": events[end - 1]["player"]}] \
        + events[end:]
    bad = tmp_path / "old.jsonl"
    records.write_records(str(bad), old)
    problems = records.verify_file(str(bad))
    assert [d.line for d in problems] == [end + 1]
    assert "not extra_turn" in problems[0].message


def test_the_kernel_writes_no_lapsed_extra_turn_either():
    game = api.load_game("house/doubles-play-again")
    for seed in range(4):
        loop = api.play_match(game, 3, seed, bots=["random"] * 3, engine="loop", trace=True)
        kernel = api.play_match(game, 3, seed, bots=["random"] * 3, engine="python",
                                trace=True)
        assert json.dumps(loop.events) == json.dumps(kernel.events)


PASSES = """title: Points for the passes before a placement
extends: pagat
events:
  - after: place
    if: "not opening"
    points: "10 * passes_in_row"
"""


def test_passes_in_row_before_a_placement_in_an_example(tmp_path):
    game = api.load_game(_yaml(tmp_path, "passes.yaml", PASSES))
    hands = [parse_tiles("1-2 6-6"), parse_tiles("3-4"), parse_tiles("0-5")]
    got = fired(game, {"players": 3, "hands": ["1-2 6-6", "3-4", "0-5"], "ends": [2, 5],
                       "boneyard": 0, "turn": 0, "passes_in_row": 2, "action": "2-1 left"},
                hands)
    assert got == ([20, 0, 0], 0, 0, 0)   # (points, extra turns, skips, next draws)


@pytest.mark.parametrize("turns", ["", "  - after: place\n    if: \"tile.high == 9\"\n"
                                        "    again: true\n"])
def test_passes_in_row_before_a_placement_in_play(tmp_path, turns):
    """Every placement after passes scores 10 a pass, the same in the loop and kernel
    (also in the kernel's general turn order, kept for an event that grants turns)."""
    game = api.load_game(_yaml(tmp_path, "passes.yaml", PASSES + turns))
    scored = 0
    for seed in range(30):
        loop = api.play_match(game, 3, seed, engine="loop", trace=True).events
        kernel = api.play_match(game, 3, seed, engine="python", trace=True).events
        assert loop == kernel
        for i, e in enumerate(loop):
            if e["event"] == "place" and e["end"] is not None:
                run = 0
                j = i - 1
                while loop[j]["event"] == "pass":
                    run += 1
                    j -= 1
                after = loop[i + 1]
                if run:
                    scored += 1
                    assert after == {"event": "score", "player": e["player"],
                                     "side": e["player"], "points": 10 * run, "rule": 0}
                else:
                    assert after["event"] != "score"
    assert scored > 0


def test_the_leader_is_the_lead_rules_seat_and_the_rotation_counts_from_it():
    """docs/records.md: vietnamese's leader (by lot, then rotating) starts the drawing and
    the rotation; the holder of [6|6] opens. Seat 0 leads, seat 2 opens; round 2: seat 1."""
    game = api.load_game("vietnamese")
    state = game.new_match(3, seed=0, deals=[Deal.of(["1-2", "3-4", "6-6"], leader=0)])
    assert state.current_player == 2 and [str(a) for a in state.legal_actions()] == ["6-6"]
    _play_out(state)
    deals = [(e["round"], e["leader"]) for e in state.record if e["event"] == "deal"]
    first_place = next(e for e in state.record if e["event"] == "place")
    assert deals[:2] == [(1, 0), (2, 1)] and first_place["player"] == 2


# -- issue 19, found by the rulebook: two idle table turns, and drawing for the opening ------

def _short(events: list[dict]) -> list[str]:
    """Events as short lines: ``0 6-6``, ``1 pass``, ``0 skip``, ``0 draw 6-5``."""
    out = []
    for e in events:
        kind = e["event"]
        if kind == "deal":
            out.append(f"deal {e['round']} leader {e['leader']}")
        elif kind == "place":
            out.append(f"{e['player']} {Tile.of(e['tile'])}")
        elif kind == "draw":
            out.append(f"{e['player']} draw {Tile.of(e['tile'])}")
        elif kind in ("pass", "skip"):
            out.append(f"{e['player']} {kind}")
        elif kind == "round_end":
            out.append(f"end {e['result']} winner {e['winner']} pips {e['pips']} "
                       f"points {e['points']}")
        else:
            out.append(kind)
    return out


SKIP_ON_PASS = "title: t\nextends: house/block\nevents:\n  - {after: pass, skip: 1}\n"


def test_a_skip_that_completes_two_idle_table_turns_blocks_the_round(tmp_path):
    """docs/house-rules.md: two full turns of the table in passes and skips block the round.
    Two players: seat 1 passes, seat 0 is skipped, seat 1 passes, seat 0 is skipped: four
    idle turns, so the round is blocked there (it used to give seat 1 one more turn)."""
    game = api.load_game(_yaml(tmp_path, "skip.yaml", SKIP_ON_PASS))
    state = game.new_match(2, seed=0, deals=[Deal.of(
        ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 4-4 5-5 1-0"], leader=0)])
    for move in ("6-6", "pass", "pass"):
        assert state.current_player == (0 if move == "6-6" else 1)
        state.apply(move)
    lines = _short(state.record[1:])
    assert lines[:7] == ["deal 1 leader 0", "0 6-6", "1 pass", "0 skip", "1 pass", "0 skip",
                         "end blocked winner 1 pips [51, 31] points [0, 20]"]
    assert lines[7] == "deal 2 leader 1"


def test_the_kernel_blocks_the_round_where_the_loop_does(tmp_path):
    game = api.load_game(_yaml(tmp_path, "skip.yaml", SKIP_ON_PASS))
    blocked_by_a_skip = 0
    for seed in range(8):
        loop = api.play_match(game, 2, seed, engine="loop", trace=True).events
        kernel = api.play_match(game, 2, seed, engine="python", trace=True).events
        assert loop == kernel
        blocked_by_a_skip += sum(1 for i, e in enumerate(loop)
                                 if e["event"] == "round_end" and loop[i - 1]["event"] == "skip")
    assert blocked_by_a_skip > 0


# seat 0 holds no double, seat 1 six of them; the boneyard's drawable twelve hold none
# (pagat keeps its last two, [4|6] and [6|6], undrawn); [5|6] is drawn first
LACKING = ["0-1 0-2 0-3 0-4 0-5 0-6 1-2", "0-0 1-1 2-2 3-3 4-4 5-5 1-3"]
LACKING_YARD = "5-6 1-4 1-5 1-6 2-3 2-4 2-5 2-6 3-4 3-5 3-6 4-5"
DRAWS = [f"0 draw {t}" for t in parse_tiles(LACKING_YARD)]


def _lacking_rules(tmp_path, unheld: str) -> str:
    return _yaml(tmp_path, "lack.yaml", "title: t\nextends: pagat\nopening:\n"
                 f"  allow: \"tile.is_double\"\n  if_lacking: draw\n  if_unheld: {unheld}\n")


def _draw_for_the_opening(state) -> None:
    while [str(a) for a in state.legal_actions()] == ["draw"] and state.current_player == 0:
        state.apply("draw")


def test_a_leader_lacking_an_opening_tile_draws_the_boneyard_out_then_the_heaviest_opens(
        tmp_path):
    """The schema: the leader draws until they hold a double; when the boneyard runs out,
    if_unheld applies. The leader cannot see that no double is to come, so all twelve
    drawable tiles are drawn; then the heaviest tile in any hand, the drawn [5|6], opens."""
    game = api.load_game(_lacking_rules(tmp_path, "heaviest"))
    state = game.new_match(2, seed=0, deals=[Deal.of(LACKING, LACKING_YARD, leader=0)])
    _draw_for_the_opening(state)
    assert state.current_player == 0 and [str(a) for a in state.legal_actions()] == ["6-5"]
    state.apply("6-5")
    assert _short(state.record[1:]) == ["deal 1 leader 0", *DRAWS, "0 6-5"]


def test_a_leader_drawing_the_boneyard_out_in_vain_throws_the_deal_in(tmp_path):
    """if_unheld: redeal (and draw_in_turn, with nothing left to draw): after the twelve
    draws the deal is thrown in, and the round is dealt again (the shuffle's next deal)."""
    for unheld in ("redeal", "draw_in_turn"):
        game = api.load_game(_lacking_rules(tmp_path, unheld))
        state = game.new_match(2, seed=0, deals=[Deal.of(LACKING, LACKING_YARD, leader=0)])
        _draw_for_the_opening(state)
        lines = _short(state.record[1:])
        assert lines[:13] == ["deal 1 leader 0", *DRAWS], unheld
        assert lines[13].startswith("deal 1 leader ") and len(lines) == 14, unheld
        # both readings of the record accept it: the engine's replay and the rulebook's
        _play_out(state)
        path = tmp_path / f"{unheld}.jsonl"
        records.write_records(str(path), state.record)
        assert records.verify_file(str(path)) == []
        assert check_file_strict(str(path)) == []
