"""What a turn may hold (engine.mechanisms.turn_options): a draw that ends the turn
(``drawing.ends_turn``), exact draws (``drawing.exactly``), passing at will
(``play.passing: at_will``), played by the match loop, read by the rulebook, refused by
the kernels, and the bots' policies under them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.kernel import generate, jit_kernel
from dominorules.rules import check_ruleset

HOUSE = ("house/passing", "house/draw-ends-turn", "house/pass-pass")
# 2 players, seat 0 leads [6|6]; seat 1 holds no 6
HANDS = ("6-6 6-4 0-1 0-2 0-3 1-2 1-3", "0-0 0-4 0-5 1-4 1-5 2-4 2-5")


def _game(tmp_path: Path, body: str, base: str = "pagat"):
    path = tmp_path / "rules.yaml"
    path.write_text(f"title: test\nextends: {base}\n{body}", encoding="utf-8")
    return api.load_game(str(path))


def _state(game, boneyard: str, players: int = 2, hands=HANDS):
    return game.new_match(players, seed=0, deals=[Deal.of(hands, boneyard, leader=0)])


def _legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_exact_draws_go_on_past_a_tile_that_fits_then_place_or_pass(tmp_path):
    game = _game(tmp_path, "drawing:\n  voluntary: forbidden\n  exactly: 2\n")
    state = _state(game, "5-6 3-4 3-5")
    state.apply("6-6")
    assert _legal(state) == ["draw"]
    state.apply("draw")                       # [6|5] fits: the second draw is still due
    assert state.current_player == 1 and _legal(state) == ["draw"]
    state.apply("draw")                       # [3|4]: two drawn, no third draw
    assert _legal(state) == ["6-5 left", "6-5 right"]
    state.apply("6-5 left")
    assert state.current_player == 0


def test_exact_draws_end_in_a_pass_when_nothing_fits(tmp_path):
    game = _game(tmp_path, "drawing:\n  voluntary: forbidden\n  exactly: 2\n")
    state = _state(game, "3-4 3-5 5-6")
    state.apply("6-6")
    state.apply("draw")
    state.apply("draw")
    assert _legal(state) == ["pass"]


def test_a_draw_that_ends_the_turn_hands_it_on_even_when_the_tile_fits(tmp_path):
    game = api.load_game("house/draw-ends-turn")
    state = _state(game, "5-6 3-4")
    state.apply("6-6")
    state.apply("draw")
    assert state.current_player == 0
    assert [e["event"] for e in state.record[-2:]] == ["place", "draw"]   # no pass written
    state.apply("6-4 left")
    assert state.current_player == 1 and "6-5 right" in _legal(state)


def test_exact_draws_that_end_the_turn(tmp_path):
    game = _game(tmp_path, "drawing:\n  voluntary: forbidden\n  exactly: 2\n  ends_turn: true\n")
    state = _state(game, "5-6 3-4 3-5")
    state.apply("6-6")
    state.apply("draw")
    assert state.current_player == 1 and _legal(state) == ["draw"]
    state.apply("draw")
    assert state.current_player == 0


def test_passing_at_will_is_offered_beside_placements_and_draws():
    game = api.load_game("house/passing")
    state = _state(game, "3-4 3-5")
    state.apply("6-6")
    assert _legal(state) == ["draw", "pass"]          # stuck, may draw or pass
    state.apply("pass")
    assert _legal(state) == ["6-4 left", "6-4 right", "draw", "pass"]


def test_passes_at_will_block_a_round_only_after_two_turns_of_the_table():
    """The bound: nobody placing or drawing for 2 x players turns blocks the round even
    though placements remain; forced passes by every player block it at once."""
    game = api.load_game("house/passing")
    state = _state(game, "3-4 3-5")
    state.apply("6-6")
    for _ in range(4):
        assert state.round == 1 and state.current_player is not None
        state.apply("pass")
    end = next(e for e in state.record if e["event"] == "round_end")
    assert end["result"] == "blocked"
    assert [e["event"] for e in state.record].count("pass") == 4


def test_the_random_bot_picks_the_pass_as_one_more_option_and_both_paths_agree():
    game = api.load_game("house/passing")
    fast = api.play_match(game, 3, 5, trace=True)
    slow = api.play_match(game, 3, 5, trace=True, fast=False)
    assert fast.events == slow.events
    assert sum(r.passes for r in fast.rounds) > 0


@pytest.mark.parametrize("bot", ["greedy", "strategist"])
def test_greedy_and_strategist_never_pass_while_they_could_place(bot):
    game = api.load_game("house/passing")
    result = api.play_match(game, 2, 3, bots=[bot, bot], trace=True)
    replay = game.new_match(2, seed=3)
    for e in result.events:
        if e["event"] not in ("place", "draw", "pass") or replay.is_terminal:
            continue
        legal = replay.legal_actions()
        if e["event"] == "pass":
            assert not any(a.kind in ("place", "draw") for a in legal)
        action = "pass" if e["event"] == "pass" else "draw" if e["event"] == "draw" else (
            f"{e['tile'][0]}-{e['tile'][1]}" + (f" {e['end']}" if e["end"] else ""))
        replay.apply(action)
    assert replay.is_terminal


@pytest.mark.parametrize("name", HOUSE)
def test_house_rules_are_clean_and_played_by_the_loop_and_the_jit(name):
    # the Python kernel leaves turn options to the general loop; the JIT's GEN kernel
    # plays them (kernel/jit_template.py: AT_WILL, ENDS_TURN, EXACTLY), held to the loop
    # by tests/test_kernel_jit_house.py
    assert check_ruleset(name) == []
    game = api.load_game(name)
    assert not generate.covers(game)
    assert jit_kernel.jit_reason(game, game.rules.min_players, need_numba=False) is None


@pytest.mark.parametrize("name", HOUSE)
def test_house_playouts_verify_both_ways(name, tmp_path):
    game = api.load_game(name)
    events = []
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        for bots in ("random", "greedy", "strategist"):
            events += api.play_match(game, players, 7, bots=bots, trace=True).events
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []


def _planted(tmp_path, events) -> list:
    path = tmp_path / "planted.jsonl"
    records.write_records(str(path), events)
    return records.check_file_strict(str(path))


def test_the_rulebook_rejects_a_placement_after_a_draw_that_ended_the_turn(tmp_path):
    game = api.load_game("house/draw-ends-turn")
    state = _state(game, "5-6 3-4")
    state.apply("6-6")
    state.apply("draw")
    planted = list(state.record) + [{"event": "place", "player": 1, "tile": [5, 6], "end": "right"}]
    found = _planted(tmp_path, planted)
    assert "player 0's turn" in found[0].message


def test_the_rulebook_rejects_a_placement_in_the_middle_of_an_exact_draw(tmp_path):
    game = _game(tmp_path, "drawing:\n  voluntary: forbidden\n  exactly: 2\n")
    state = _state(game, "5-6 3-4 3-5")
    state.apply("6-6")
    state.apply("draw")
    planted = list(state.record) + [{"event": "place", "player": 1, "tile": [5, 6],
                                     "end": "right"}]
    found = _planted(tmp_path, planted)
    assert "may draw by the rules" in found[0].message


def test_the_rulebook_rejects_a_pass_at_will_under_forced_passing(tmp_path):
    game = api.load_game("pagat")
    state = _state(game, "3-4 3-5 2-3 2-2")
    state.apply("6-6")
    planted = list(state.record) + [{"event": "pass", "player": 1}]
    found = _planted(tmp_path, planted)
    assert "may draw by the rules" in found[0].message


def test_validate_names_exact_draws_beside_a_limit(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\nextends: pagat\ndrawing:\n  limit: 3\n  exactly: 2\n",
                    encoding="utf-8")
    [problem] = check_ruleset(str(path))
    assert (problem.line, problem.column) == (5, 12)
    assert "exactly and drawing.limit" in problem.message and "not both" in problem.hint


def test_the_loop_and_decide_ask_turn_options_alone_and_a_plain_ruleset_never(
        tmp_path, monkeypatch):
    """The turn's options are written once (``turn_options.now``): the loop asks it at
    each decision of a ruleset using them, ``GeneralLoop.decide`` (a position's legal
    moves) asks it too, and a ruleset without them never calls it (resolved at init)."""
    from dominorules.engine import positions
    from dominorules.engine.mechanisms import turn_options

    asked = []
    real = turn_options.now
    monkeypatch.setattr(turn_options, "now", lambda *a: asked.append(a) or real(*a))
    api.play_match(api.load_game("pagat"), 2, 3, engine="loop")
    assert asked == []
    game = _game(tmp_path, "drawing:\n  voluntary: forbidden\n  exactly: 2\n")
    state = _state(game, "5-6 3-4 3-5")
    state.apply("6-6")
    state.apply("draw")                       # mid-way: the loop asked, only a draw
    assert asked[-1][1:] == (1, True) and real(*asked[-1]) == (True, False)
    before = len(asked)   # a rule example's position: GeneralLoop.decide asks the same
    legal = positions.legal(game, {"ends": [6, 6], "turn": 1, "boneyard": 4,
                                   "drawn_this_turn": 1}, [["0-1"], ["6-5", "0-0"]])
    assert [str(a) for a in legal] == ["draw"]
    assert len(asked) == before + 1 and asked[-1][1:] == (1, True)
