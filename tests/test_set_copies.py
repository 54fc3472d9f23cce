"""Two sets shuffled together (``set.copies: 2``): every tile twice, as distinct indices
with one name. A constructed deal holding both copies of a tile and its exact legal
moves; playouts at every player count (tiles conserved counting copies, verify and
verify --strict accept, same seed same record); planted faults (a third copy dealt or
placed) rejected by the rulebook; validate's messages; the sheet, diff and the bots."""

from __future__ import annotations

from collections import Counter

import pytest

from dominorules import api, records
from dominorules.bots.strategist import StrategistBot
from dominorules.engine.actions import IllegalActionError
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms.set_tiles import set_tiles
from dominorules.engine.positions import legal, points_for
from dominorules.engine.tiles import Tile, TileSet, parse_tiles
from dominorules.kernel import jit_trace
from dominorules.kernel.generate import covers
from dominorules.kernel.jit_kernel import jit_reason
from dominorules.records import check_file_strict
from dominorules.rules import check_ruleset, load_ruleset
from dominorules.rules.describe import rule_sheet
from dominorules.rules.diff import diff

NAME = "house/two-sets"


@pytest.fixture(scope="module")
def game():
    return api.load_game(NAME)


def test_one_copy_keeps_the_single_sets_tables_and_two_sit_side_by_side():
    one, plain = TileSet(6, copies=1), TileSet(6)
    for attr in ("tiles", "index", "value_mask", "doubles_desc", "doubles_mask", "bit"):
        assert getattr(one, attr) == getattr(plain, attr)
    two = TileSet(6, copies=2)
    assert two.tile_count == 56 and two.tiles[:4] == (Tile(0, 0),) * 2 + (Tile(0, 1),) * 2
    assert two.index[Tile(5, 6)] == 2 * plain.index[Tile(5, 6)]   # the first copy
    both = two.mask(["6-5", "5-6"])
    assert both.bit_count() == 2 and two.tiles_of(both) == [Tile(5, 6)] * 2
    assert two.canonical(both) == 1 << two.index[Tile(5, 6)]       # one move, not two
    second = 1 << (two.index[Tile(5, 6)] + 1)
    assert two.canonical(second) == second                         # held alone: kept
    assert two.held_index(Tile(5, 6), second) == two.index[Tile(5, 6)] + 1
    with pytest.raises(ValueError, match="more often than the set holds it"):
        two.mask(["6-5", "6-5", "6-5"])
    assert set_tiles(1, copies=2) == [(0, 0), (0, 0), (0, 1), (0, 1), (1, 1), (1, 1)]


def test_a_deal_holding_both_copies_lists_each_move_once_and_keeps_the_other(game):
    hands = (parse_tiles("5-5 5-5 6-5 0-0 0-0 1-0 1-1"),
             parse_tiles("5-2 2-1 2-2 3-0 3-1 3-2 3-3"))
    state = game.new_match(2, 0, deals=[Deal(tuple(map(tuple, hands)), (), 0)])
    # the opening: 5-5 once though held twice, 0-0 once
    assert [str(a) for a in state.legal_actions()] == [
        "0-0", "1-0", "1-1", "5-5", "6-5", "draw"]
    state.apply("5-5")
    assert sorted(map(str, state.hand(0))) == sorted(["5-5", "6-5", "0-0", "0-0", "1-0",
                                                      "1-1"])
    state.apply("5-2 left")
    assert [str(a) for a in state.legal_actions()] == ["5-5 right", "6-5 right", "draw"]
    with pytest.raises(IllegalActionError, match=r"5-5 does not match the left end \(2\)"):
        state.apply("5-5 left")   # the why-not reads the copy the seat holds
    state.apply("5-5 right")   # the second copy: the line shows 2 and 5 still
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["2-1 left", "2-2 left", "3-2 left",
                                                       "draw"]
    placed = [tuple(e["tile"]) for e in state.record if e["event"] == "place"]
    assert placed == [(5, 5), (2, 5), (5, 5)]
    assert Tile(5, 5) not in state.hand(0)


def test_legal_and_points_positions_count_both_copies(game):
    hands = [parse_tiles("6-5 6-5 4-4"), parse_tiles("6-5 1-1")]   # three 6-5s: too many
    with pytest.raises(ValueError, match="more often than the set holds it"):
        legal(game, {"players": 2, "ends": [5, 3], "boneyard": 0, "turn": 0}, hands)
    hands = [parse_tiles("6-5 6-5 4-4"), parse_tiles("1-1")]
    got = legal(game, {"players": 2, "ends": [5, 4], "boneyard": 0, "turn": 0}, hands)
    assert [str(a) for a in got] == ["6-5 left", "4-4 right"]
    assert points_for(game, [[], parse_tiles("6-5 6-5")], "domino") == [22, 0]


def _conserved(events: list[dict]) -> None:
    whole = Counter(set_tiles(6, copies=2))
    for e in events:
        if e["event"] == "deal":
            dealt = Counter(tuple(t) for h in e["hands"] for t in h)
            dealt.update(tuple(t) for t in e["boneyard"])
            assert dealt == whole            # each tile twice, no third
            down: Counter = Counter()
        elif e["event"] == "place":
            down[tuple(e["tile"])] += 1
            assert down[tuple(e["tile"])] <= 2


@pytest.mark.parametrize("players", range(2, 9))
def test_playouts_conserve_tiles_verify_and_repeat(game, players, tmp_path):
    bots = ["random", "greedy", "strategist"][players % 3]
    result = api.play_match(game, players, players, bots=bots, trace=True)
    events = result.events
    _conserved(events)
    assert events == api.play_match(game, players, players, bots=bots, trace=True,
                                    ).events
    path = tmp_path / "m.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == [] and check_file_strict(str(path)) == []


def _second_copy_placed(events: list[dict]) -> int:
    """The index of the first placement that puts a tile's second copy down."""
    down: Counter = Counter()
    for k, e in enumerate(events):
        if e["event"] == "deal":
            down.clear()
        elif e["event"] == "place":
            down[tuple(e["tile"])] += 1
            if down[tuple(e["tile"])] == 2:
                return k
    raise AssertionError("no tile's second copy was placed")


def test_a_third_copy_dealt_or_placed_is_rejected(game, tmp_path):
    events = api.play_match(game, 2, 7, trace=True).events
    deal = next(e for e in events if e["event"] == "deal")
    bad = [dict(e) for e in events]
    i = events.index(deal)
    bad[i] = {**deal, "boneyard": deal["boneyard"][:-1] + [deal["hands"][0][0]]}
    path = tmp_path / "dealt.jsonl"
    records.write_records(str(path), bad)
    strict = [d.message for d in check_file_strict(str(path))]
    assert strict and "the set holds each tile 2 times (set.copies); the record deals " \
        f"{deal['hands'][0][0]} 3 times" in strict[0]
    assert records.verify_file(str(path))
    # a third copy placed: a later placement of a tile whose two copies are down already
    k = _second_copy_placed(events)
    later = next(j for j in range(k + 1, len(events)) if events[j]["event"] == "place")
    bad = [dict(e) for e in events]
    bad[later] = {**events[later], "tile": events[k]["tile"]}
    path = tmp_path / "placed.jsonl"
    records.write_records(str(path), bad)
    strict = check_file_strict(str(path))
    assert strict and strict[0].line == later + 1, [d.message for d in strict]
    assert f"the record places {events[k]['tile']}" in strict[0].message
    assert records.verify_file(str(path))


def test_the_python_kernel_refuses_it_and_the_loop_plays_it(game):
    assert not covers(game)
    assert jit_reason(game, 4, need_numba=False) is None   # the JIT plays it (jit_copies)
    assert jit_trace.reason(game) is None   # and records it (test_kernel_jit_records_deal)
    a = api.play_match(game, 4, 2, bots="greedy", trace=True, max_rounds=2).events
    b = api.play_match(game, 4, 2, bots="greedy", trace=True, max_rounds=2,
                       engine="loop").events
    assert a == b


def test_the_strategist_plays_its_own_policy_there(game):
    """Both copies counted (``tests/test_strategist_new_kinds.py``), on its fast decider."""
    state = game.new_match(3, 4)
    seat = state.current_player
    bot = StrategistBot(seat, __import__("random").Random(1))
    action, why = bot.explain(state.observation(seat), state.legal_actions())
    assert "greedy" not in why and action in state.legal_actions()
    assert type(bot.decider(game, 3)).__name__ == "Decider"


def test_the_sheet_and_diff_say_two_sets_and_count_the_boneyard():
    sheet = rule_sheet(load_ruleset(NAME))
    assert sheet.rule("set").text.startswith(
        "Two double-six sets shuffled together, every tile twice:")
    assert "56 tiles in all" in sheet.rule("set").text
    assert "42 tiles with 2 players" in sheet.rule("deal.hand_size").text
    assert "set" in [r.key for r in diff(load_ruleset("pagat"), load_ruleset(NAME)).rules]


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "r.yaml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(("body", "where", "message"), [
    ("set:\n  copies: 3\n", ":4:11:", "set.copies must be one of: 1, 2"),
    ("set:\n  copies: 2\ndeal:\n  hand_size: 15\nplayers:\n  max: 4\n", ":6:14:",
     "needs 60 tiles, but 2 double-6 sets shuffled together have 56"),
    ("set:\n  copies: 2\nlead:\n  first: highest_double\n", ":6:10:",
     "lead.first is highest_double, but with set.copies: 2"),
    ("set:\n  copies: 2\nexamples:\n  - title: t\n    kind: points\n    players: 2\n"
     "    result: domino\n    hands: [\"\", \"6-5 6-5 6-5\"]\n    expect_points: [0, 0]\n",
     ":10:17:", "tile 6-5 is dealt 3 times"),
])
def test_validate_places_each_copies_problem_with_a_hint(tmp_path, body, where, message):
    problems = check_ruleset(_file(tmp_path, f"title: Bad\nextends: pagat\n{body}"))
    found = [p for p in problems if message in p.message]
    assert found, [p.message for p in problems]
    assert where in f":{found[0].line}:{found[0].column}:" and found[0].hint


def test_events_and_a_spinner_see_the_copies_as_ordinary_tiles(tmp_path):
    game = api.load_game(_file(tmp_path, """title: All fives, two sets, a spinner
extends: house/all-fives
set:
  copies: 2
board:
  spinner: first_double
players:
  max: 6
"""))
    for players in (2, 6):
        events = api.play_match(game, players, 11, bots="greedy", trace=True).events
        _conserved(events)
        assert any(e["event"] == "score" for e in events)   # the ends scored in play
        path = tmp_path / f"f{players}.jsonl"
        records.write_records(str(path), events)
        assert records.verify_file(str(path)) == [] and check_file_strict(str(path)) == []


def test_the_rulebook_lists_a_tile_held_twice_once_alone_and_in_several_tile_moves(tmp_path):
    """The rulebook (``mechanisms.turn``, verify --strict's reading) offers each move once,
    as the loop does: two 5-5s and two 6-6s are one placement each, and one move of both."""
    from dominorules.engine.mechanisms import turn
    from dominorules.engine.mechanisms.board import Board
    from dominorules.engine.mechanisms.position import Position

    path = tmp_path / "doubles.yaml"
    path.write_text(f"title: T\nextends: {NAME}\nplay:\n  several:\n    most: 2\n"
                    "    tiles: \"tile.is_double\"\n", encoding="utf-8")
    for name, expect in ((NAME, ["5-5 left", "6-6 right", "draw"]),
                         (str(path), ["5-5 left", "6-6 right", "5-5 left + 6-6 right", "draw"])):
        rules = load_ruleset(name).rules
        pos = Position(rules, 2, ((0,), (1,)), rules.target(2, 2, False), [0, 0], [0, 0])
        pos.hands = [[(5, 5), (5, 5), (6, 6), (6, 6), (1, 2)], [(0, 1)]]
        pos.boneyard, pos.drawn, pos.play_points = [(0, 0)] * 6, [0, 0], [0, 0]
        pos.turns = [0, 0]
        pos.board = Board()
        pos.board.place((5, 6), None)
        assert [str(a) for a in turn.legal_actions(pos)] == expect


def test_a_holders_rule_inherited_is_refused_at_this_files_copies_with_what_to_write(tmp_path):
    """hoyle leads and opens by the highest double's holder: this file cannot fix hoyle's
    lines, so each is refused at its own set.copies, naming the inherited line."""
    path = _file(tmp_path, "title: Bad\nextends: hoyle\nset:\n  copies: 2\n")
    problems = check_ruleset(path)
    assert [(p.file, p.line, p.column, p.path) for p in problems] == [
        (path, 4, 11, "set.copies")] * 3
    assert [p.message.split(" (")[0] for p in problems] == [
        "lead.first is highest_double, but with set.copies: 2 two seats may hold that tile, "
        "and no rule says which of them leads",
        "lead.later is highest_double, but with set.copies: 2 two seats may hold that tile, "
        "and no rule says which of them leads",
        "opening.tile is highest_double, but with set.copies: 2 two seats may hold that "
        "tile, and no rule says which of them opens"]
    assert all("inherited from " in p.message and "hoyle.yaml:" in p.message for p in problems)
    assert [p.hint for p in problems] == [
        "write lead.first: lot (or another lead naming no tile's holder) in this file, or "
        "drop set.copies",
        "write lead.later: lot (or another lead naming no tile's holder) in this file, or "
        "drop set.copies",
        "write opening.tile: any in this file, or drop set.copies"]
    fixed = _file(tmp_path, "title: Fixed\nextends: hoyle\nset:\n  copies: 2\nlead:\n"
                  "  first: lot\n  later: lot\nopening:\n  tile: any\n")
    assert check_ruleset(fixed) == []
