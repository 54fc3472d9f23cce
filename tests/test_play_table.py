"""The play package without a terminal: rendering, input, hints, the timeline, the loops.

Driven through ``ScriptedTerminal`` (answers from a list, screen kept as text); the
real program in a pseudo-terminal is tested in ``test_play_cli.py``.
"""

from __future__ import annotations

import json
import re

import pytest

from dominorules import api
from dominorules.engine.actions import Action
from dominorules.engine.tiles import Tile
from dominorules.play import PlaySettings, ScriptedTerminal, SetupError, play
from dominorules.play.commands import Command, Refusal, interpret
from dominorules.play.hint import strongest_bot, suggest, why
from dominorules.play.render import (
    Seating,
    hand_text,
    line_view,
    players_table,
    recent_others,
    round_result_text,
)
from dominorules.play.replay import Replayer, read_events
from dominorules.play.session import seat_table
from dominorules.play.timeline import Timeline, snapshots


def dutch_opening():
    """Dutch, seat 0 to open with a fixed deal (no voluntary draws under Dutch rules)."""
    game = api.load_game("dutch")
    deal = api.Deal.of(["6-6 1-2 3-3 0-0 4-5 2-2 1-1", "6-5 6-4 6-3 6-2 6-1 6-0 5-5"],
                       leader=0)
    return game.new_match(2, seed=1, deals=[deal])


# -- the line, hands, events --------------------------------------------------------------

def test_line_shows_doubles_crosswise_and_marks_both_open_ends():
    assert line_view([(4, 6), (6, 6), (6, 2)]).plain == (
        "              ┌6┐\n"
        "left 4 ◀  4-6 │─│ 6-2  ▶ 2 right\n"
        "              └6┘")


def test_a_long_line_wraps_in_bands_of_three_rows():
    text = line_view([(4, 6), (6, 6), (6, 2), (2, 2), (2, 1)], width=30).plain
    assert text.splitlines() == [
        "              ┌6┐", "left 4 ◀  4-6 │─│", "              └6┘",
        "              ┌2┐", "          6-2 │─│", "              └2┘",
        "", "          2-1  ▶ 1 right"]


def test_an_empty_line_says_so():
    assert line_view([]).plain == "(no tile placed yet)"


def test_hand_is_sorted_highest_first_and_playable_tiles_are_starred():
    hand = [Tile(0, 0), Tile(4, 6), Tile(6, 6), Tile(1, 3)]
    assert hand_text(hand, {Tile(6, 4)}).plain == "6-6  6-4*  3-1  0-0"
    assert hand_text([]).plain == "(no tiles)"


def test_recent_actions_are_the_others_since_my_last_move():
    seating = Seating(((0,), (1,), (2,)), ("you", "greedy", "random"))
    history = [{"event": "deal", "round": 1, "leader": 0, "hand_sizes": [7, 7, 7],
                "boneyard": 7},
               {"event": "place", "player": 0, "tile": [6, 6], "end": None},
               {"event": "draw", "player": 1},
               {"event": "place", "player": 1, "tile": [4, 6], "end": "left"},
               {"event": "pass", "player": 2}]
    assert recent_others(history, 0, seating) == [
        "Seat 1 (greedy) draws a tile", "Seat 1 (greedy) plays 6-4 on the left",
        "Seat 2 (random) passes"]
    assert recent_others(history, 0, seating, limit=1) == ["Seat 2 (random) passes"]


def test_round_results_name_the_side_and_the_seat_that_dominoed():
    pairs = Seating(((0, 2), (1, 3)), ("you", "greedy", "greedy", "greedy"))
    end = {"event": "round_end", "round": 3, "result": "domino", "winner": 0,
           "pips": [0, 5, 7, 9], "points": [14, 0], "scores": [40, 22]}
    assert round_result_text(end, pairs, by=2) == (
        "Round 3: Seat 2 (greedy) dominoes; Side 0 (seats 0 and 2) scores 14")
    tie = dict(end, result="blocked", winner=None, points=[0, 0])
    assert round_result_text(tie, pairs) == (
        "Round 3 is blocked and the lowest hands tie: nobody scores")


# -- input --------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, expected", [
    ("pass", Refusal("you hold a playable tile (0-0), so you may not pass")),
    ("draw", Refusal("voluntary draws are not allowed: you must open")),
    ("6-6 left", Refusal("the opening tile is placed without an end: write just 6-6")),
    ("7-7", Refusal("you do not hold 7-7")),
    ("0", Refusal("there is no move 0: type a number from 1 to 7")),
    ("hello world", Refusal("'hello' is not a move or a command (did you mean help?): type "
                            "a move (its number, 6-4 left, draw, pass) or a command: hint, "
                            "rules, ? (help), quit")),
    ("six-four", Refusal("'six-four' is not a tile: write it like 6-4")),
    ("6-6 up", Refusal("the opening tile is placed without an end: write just 6-6")),
    ("6-6 middle", Refusal("'middle' is not an end: write left or right (up or down on a "
                           "spinner)")),
    ("", Refusal("type a move (its number or its text), or ? for help")),
    ("?", Command("help")), ("HINT", Command("hint")), ("rules", Command("rules")),
    ("quit", Command("quit")),
    ("2", Action.place("1-1")), ("4-5", Action.place("5-4")),
])
def test_input_at_the_opening(typed, expected):
    assert interpret(typed, dutch_opening()) == expected


def test_input_after_the_opening_resolves_one_end_or_asks_which():
    state = dutch_opening()
    state.apply("6-6")
    assert interpret("6-5", state) == Refusal("6-5 fits both ends: write 6-5 left or 6-5 right")
    assert interpret("6-5 r", state) == Action.place("6-5", "right")
    assert interpret("draw", state) == Refusal(
        "voluntary draws are not allowed: you can place 6-0")


def test_a_tile_that_fits_one_end_needs_no_end():
    game = api.load_game("pagat")
    deal = api.Deal.of(["6-4 1-1", "4-2 5-5"], leader=0)
    state = game.new_match(2, seed=1, deals=[deal])
    state.apply("6-4")                              # leaves 4 left, 6 right
    assert interpret("4-2", state) == Action.place("4-2", "left")
    assert interpret("5-5", state) == Refusal("5-5 matches neither open end (4 and 6)")


# -- hints --------------------------------------------------------------------------------

def test_hint_offers_a_legal_move_of_the_strongest_bot():
    state = dutch_opening()
    hint = suggest(state, 0)
    assert hint.bot == strongest_bot()
    assert hint.action in state.legal_actions()
    assert hint.reason


def test_why_tells_value_and_the_number_left_open():
    state = dutch_opening()
    state.apply("6-6")
    state.apply("6-5 left")                         # 5 left, 6 right; seat 0 to play
    obs = state.observation(0)
    legal = state.legal_actions()
    assert legal == [Action.place("5-4", "left")]
    assert why(obs, legal, legal[0]) == "5-4 is your only playable tile"
    assert why(obs, legal, Action("pass")) == "you can neither place a tile nor draw"


def test_why_an_opening_tile():
    game = api.load_game("pagat")
    state = game.new_match(2, seed=1, deals=[api.Deal.of(["6-6 6-4 4-1 4-4 2-0", "6-3 5-5"],
                                                         leader=0)])
    obs, legal = state.observation(0), state.legal_actions()
    assert why(obs, legal, Action.place("6-6")) == (
        "6-6 is worth 12, the most of your playable tiles, so it will not count against you "
        "if the round blocks; it leaves a 6 open and you hold 1 more tile with a 6; it gets a "
        "double out of your hand (a double fits only one number)")
    assert why(obs, legal, Action.place("6-4")) == (
        "it leaves a 6 open and you hold 1 more tile with a 6; "
        "it leaves a 4 open and you hold 2 more tiles with a 4")
    assert why(obs, legal, Action.place("2-0")) == "2-0 is worth 2"
    assert why(obs, legal, Action("draw")) == (
        "it would rather see another tile than play one of these now")


# -- the timeline matches the engine ------------------------------------------------------

def test_timeline_hands_follow_the_engine_through_a_whole_match():
    game = api.load_game("pagat")
    state = game.new_match(3, seed=5)
    timeline = Timeline()
    fed = 0
    while not state.is_terminal:
        for event in state.record[fed:]:
            timeline.feed(event)
        fed = len(state.record)
        snap = timeline.snapshot()
        for seat in range(3):
            assert list(snap.hands[seat]) == state.hand(seat)
        assert snap.line == state.observation(0).line
        assert snap.boneyard == state.observation(0).boneyard
        state.apply(state.legal_actions()[-1])
    last = snapshots(state.record)[-1]
    assert last.scores == state.outcome.scores


# -- the play loop on a scripted terminal --------------------------------------------------

def test_setup_errors_are_usage_errors():
    with pytest.raises(SetupError) as err:
        seat_table(PlaySettings("pagat", humans=(5,)))
    assert err.value.diagnostics[0].message == (
        "there is no seat 5: pagat seats at most 4 players (seats 0 to 3)")
    with pytest.raises(SetupError) as err:
        seat_table(PlaySettings("pagat", players=3, bots=("random", "greedy", "random")))
    assert err.value.diagnostics[0].message == (
        "3 bots for 2 bot seats (1, 2)")


def test_a_seat_given_twice_is_refused():
    with pytest.raises(SetupError) as err:
        seat_table(PlaySettings("pagat", humans=(0, 0)))
    assert err.value.diagnostics[0].message == "seat 0 is given twice in --humans"


def test_a_bots_draws_in_a_row_are_one_line():
    seating = Seating(((0,), (1,)), ("you", "greedy"))
    history = [{"event": "place", "player": 0, "tile": [1, 2], "end": None},
               *[{"event": "draw", "player": 1, "tile": [0, k]} for k in range(3)],
               {"event": "place", "player": 1, "tile": [2, 3], "end": "right"}]
    assert recent_others(history, 0, seating) == [
        "Seat 1 (greedy) draws 3 tiles", "Seat 1 (greedy) plays 3-2 on the right"]


def test_rules_at_the_table_shows_the_sheet_then_the_table_again(tmp_path):
    term = ScriptedTerminal(["rules"])
    play(PlaySettings("pagat", seed=7, fast=True), term)
    text = term.text
    sheet = text.index("Players and sides")
    assert text.index("Your hand:", sheet) > sheet   # the table drawn again under the sheet


def test_default_players_seat_every_human():
    table = seat_table(PlaySettings("mexican", seed=4))
    assert (table.players, table.humans, table.bots) == (4, (0,), {
        1: strongest_bot(), 2: strongest_bot(), 3: strongest_bot()})
    table = seat_table(PlaySettings("pagat", humans=(0, 2), bots=("greedy",), seed=1))
    assert table.players == 3 and table.seating.kinds == ("human", "greedy", "human")


def test_the_partner_is_labelled_in_partnership_play():
    table = seat_table(PlaySettings("mexican", bots=("greedy",), seed=4))
    assert table.seating.seat(2) == "Seat 2 (greedy, your partner)"
    assert table.seating.seat(1) == "Seat 1 (greedy)"
    hot = seat_table(PlaySettings("mexican", humans=(0, 1), bots=("greedy",), seed=4))
    rows = players_table(hot.seating, (7, 7, 7, 7), (0, 0), 1, viewer=1)
    names = [str(c) for c in rows.columns[1].cells]
    assert names == ["Seat 0 (human)", "Seat 1 (human) - you", "Seat 2 (greedy)",
                     "Seat 3 (greedy) - your partner"]


DUTCH_SEAT_ZERO = "name: dutch-seat-zero\nextends: dutch\nlead: {first: seat_zero}\n"


def test_illegal_input_is_explained_and_asked_again_then_quit_keeps_the_record(tmp_path):
    ruleset, trace = tmp_path / "dutch-seat-zero.yaml", tmp_path / "t.jsonl"
    ruleset.write_text(DUTCH_SEAT_ZERO)
    term = ScriptedTerminal(["pass", "42", "quit", "n", "1", "quit", "yes"])
    code = play(PlaySettings(str(ruleset), seed=3, fast=True, trace=str(trace)), term)
    assert code == 0
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    lowest = min(Tile.of(t) for t in events[1]["hands"][0])   # the first legal opening
    assert ("Seat 0 > pass\n"
            f"✗ you hold a playable tile ({lowest}), so you may not pass\n"
            "Seat 0 > 42\n✗ there is no move 42: type a number from 1 to 7\n"
            f"Seat 0 > quit\nLeave this match? The record so far is kept in {trace}. [y/N] n\n"
            "Seat 0 > 1\n") in term.text
    assert term.prompts.count(f"Leave this match? The record so far is kept in {trace}. "
                              "[y/N] ") == 2
    assert " ".join(term.text.split()).endswith(
        f"You left the match. The record is in {trace} (dominorules replay {trace}).")
    assert events[0]["source"] == str(ruleset)
    assert events[2] == {"event": "place", "player": 0, "tile": lowest.to_json(), "end": None}
    assert all(e["event"] != "match_end" for e in events)


def test_end_of_input_leaves_cleanly_with_the_record_so_far(tmp_path):
    trace = tmp_path / "t.jsonl"
    term = ScriptedTerminal(["1", "1"])
    assert play(PlaySettings("pagat", seed=8, fast=True, trace=str(trace)), term) == 0
    assert "End of input: the match is left unfinished." in term.text
    kinds = [json.loads(line)["event"] for line in trace.read_text().splitlines()]
    assert kinds[:2] == ["match_start", "deal"] and "match_end" not in kinds


def test_a_scripted_human_plays_a_match_to_the_end(tmp_path):
    trace = tmp_path / "t.jsonl"
    term = ScriptedTerminal(["1"] * 1000)
    assert play(PlaySettings("hoyle", seed=2, fast=True, trace=str(trace),
                             bots=("greedy",)), term) == 0
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[-1]["event"] == "match_end"
    result = api.play_match("hoyle", 2, seed=2, bots=[_first, "greedy"], trace=True)
    assert events == result.events          # the same choices give the same record
    assert "wins the match" in term.text or "The match is drawn" in term.text


def _first(obs, legal):
    return legal[0]


def test_hot_seat_shows_one_hand_per_cleared_screen_after_enter():
    term = ScriptedTerminal(["", "1", "", "1", "", "1", "", "1"])
    play(PlaySettings("pagat", humans=(0, 1), seed=6, fast=True), term)
    screens = term.text.split("<clear>")[1:]
    assert term.clears == len(screens) >= 3
    for screen in screens:
        hands = [m.group(0) for m in re.finditer(r"Seat (\d) > ", screen)]
        if not hands:
            continue
        banner = re.search(r"Seat (\d): press Enter to show your hand ", screen)
        assert banner and banner.start() < screen.index("Your hand")
        assert set(hands) == {f"Seat {banner.group(1)} > "}


def test_hint_falls_back_to_greedy_without_the_strategist(monkeypatch):
    import dominorules.play.hint as hint

    monkeypatch.setattr(hint, "PREFERRED", ("no-such-bot", "greedy"))
    state = dutch_opening()
    got = hint.suggest(state, 0)
    assert str(got) == ("greedy would play 0-0: 0-0 is worth 13, the most of your playable "
                        "tiles, so it will not count against you if the round blocks; it gets "
                        "a double out of your hand (a double fits only one number)")


# -- replay -------------------------------------------------------------------------------

def test_replay_steps_back_and_jumps(tmp_path):
    result = api.play_match("pagat", 2, seed=9, bots="random", trace=True)
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in result.events))
    steps = snapshots(read_events(str(path)))
    term = ScriptedTerminal(["", "", "b", "4", "x", "q"])
    assert Replayer(steps, term).run() == 0
    heads = [line for line in term.text.splitlines() if line.startswith("Event ")]
    assert [h.split(" · ")[0] for h in heads] == [
        f"Event {n} of {len(steps)}" for n in (1, 2, 3, 2, 4)]
    assert "✗ 'x': Enter: next" in term.text


def test_without_fast_each_round_end_waits_for_enter_and_bots_pause(tmp_path):
    pauses: list[float] = []

    class Slow(ScriptedTerminal):
        def pause(self, seconds: float) -> None:
            pauses.append(seconds)

    trace = tmp_path / "slow.jsonl"
    term = Slow(["1"] * 1000)
    play(PlaySettings("house/one-point-per-round", seed=3, bots=("greedy",),
                      trace=str(trace)), term)
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    rounds = sum(e["event"] == "round_end" for e in events)
    # one pause a line told: a bot's draws in a row are one line ("Seat 1 draws 3 tiles")
    told = sum(e["event"] in ("draw", "place", "pass") and e["player"] == 1
               and not (e["event"] == "draw" and nxt == {**nxt, "event": "draw", "player": 1})
               for e, nxt in zip(events, events[1:] + [{}], strict=True))
    assert rounds >= 2
    assert term.prompts.count("Press Enter for the next round ") == rounds - 1
    assert pauses == [0.6] * told


def test_asking_for_hints_does_not_change_the_match(tmp_path):
    plain, hinted = tmp_path / "plain.jsonl", tmp_path / "hinted.jsonl"
    play(PlaySettings("pagat", players=3, seed=12, fast=True, trace=str(plain)),
         ScriptedTerminal(["1"] * 1000))
    term = ScriptedTerminal(["hint", "1"] * 1000)
    play(PlaySettings("pagat", players=3, seed=12, fast=True, trace=str(hinted)), term)
    assert plain.read_text() == hinted.read_text()
    assert plain.read_text().rstrip().endswith("}") and '"match_end"' in plain.read_text()
    assert term.text.count("Hint: ") == term.text.count("Seat 0 > 1")


def test_without_trace_quit_does_not_claim_a_record_is_kept():
    term = ScriptedTerminal(["?", "quit", "yes"])
    assert play(PlaySettings("pagat", seed=3, fast=True), term) == 0
    assert term.prompts == ["Seat 0 > ", "Seat 0 > ",
                            "Leave this match? Nothing is recorded (--trace FILE keeps a "
                            "record). [y/N] "]
    assert "leave the match\n" in term.text and "record so far" not in term.text


@pytest.mark.parametrize(("ruleset", "players", "goal"), [
    ("pagat", 2, "Round 1 · target 100 ·"),
    ("house/chicken-foot", 3, "Round 1 of 10 ·"),
    ("house/first-to-three", 2, "Round 1 · 3 rounds won wins ·"),
])
def test_the_status_line_says_what_the_target_counts(ruleset, players, goal):
    """A fixed number of hands is not a score to reach: the status says which it is."""
    from rich.console import Console

    from dominorules.play.render import Seating, table_view
    game = api.load_game(ruleset)
    state = game.new_match(players, seed=1)
    console = Console(width=100, record=True, force_terminal=False)
    seating = Seating(game.teams(players), ("you",) + ("random",) * (players - 1))
    console.print(table_view(state.observation(state.current_player), seating,
                             state.legal_actions(), 100))
    assert goal in console.export_text()


@pytest.mark.parametrize(("ruleset", "players", "first"), [
    ("pagat", 2, "2 players · target 100 · "),
    ("house/mexican-train", 4, "4 players · 13 rounds · "),
    ("house/first-to-three", 2, "2 players · 3 rounds won wins · "),
])
def test_the_matchs_first_line_says_what_the_target_counts(ruleset, players, first):
    """Thirteen hands of Mexican Train are not a score of 13 to reach."""
    term = ScriptedTerminal(["quit", "yes"])
    assert play(PlaySettings(ruleset, players=players, seed=3, fast=True), term) == 0
    assert first in term.text
