"""Chicken Foot's tap (house/chicken-foot-tap): a declaration asked only when ``due`` (the
hand down to one tile), and an option's ``draw`` penalty taken at once
(engine.mechanisms.declarations)."""

from __future__ import annotations

from pathlib import Path

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.rules import check_ruleset

NAME = "house/chicken-foot-tap"
# 2 players; seat 0 sets 9-9; after 9-2 and 9-1 on two toes, seat 0 holds only 6-7
HANDS = ("9-9 9-1 6-7", "9-2 9-3 0-0")
OPENING = ["9-9", "9-2 9-9/1", "9-1 9-9/2"]
# the builtin deals 21 tiles to each of 2 players: its examples deal 3 (hand_size: 3)
SHORT = """title: tap, short hands
extends: house/chicken-foot-tap
examples:
  - title: "a short hand too many"
    kind: dealt
    players: 2
    hand_size: 3
    hands: ["9-9 9-1 6-7 5-5", "9-2 9-3 0-0"]
    expect_turn: 0
  - title: "more than the deal"
    kind: dealt
    players: 2
    hand_size: 22
    hands: ["9-9", "9-2"]
    expect_turn: 0
  - title: "hand_size is a dealt example's"
    kind: legal
    players: 2
    hand_size: 3
    hands: ["9-9 9-1 6-7", "9-2 9-3 0-0"]
    expect_legal: []
"""


def _state():
    game = api.load_game(NAME)
    return game.new_match(2, seed=0, deals=[Deal.of(HANDS, "9-5 6-6 7-7", leader=0)])


def _legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_the_call_is_asked_only_when_one_tile_is_left():
    state = _state()
    state.apply("9-9")                  # two tiles left: nothing to call
    assert _legal(state)[0].startswith("9-2") and state.current_player == 1
    state.apply("9-2 9-9/1")
    state.apply("9-1 9-9/2")            # one tile left: tap or not
    assert state.current_player == 0
    assert _legal(state) == ["declare tap", "declare silent"]


def test_a_tap_draws_nothing_and_silence_draws_the_penalty_tile():
    tapped = _state()
    for a in [*OPENING, "declare tap"]:
        tapped.apply(a)
    assert not any(e["event"] == "draw" for e in tapped.record)
    silent = _state()
    for a in [*OPENING, "declare silent"]:
        silent.apply(a)
    tail = silent.record[-2:]
    assert tail == [{"event": "declare", "player": 0, "declaration": "tap", "option": "silent"},
                    {"event": "draw", "player": 0, "tile": [5, 9], "rule": "tap"}]
    assert silent.current_player == 1
    silent.apply("9-3 9-9/3")
    silent.apply("declare tap")
    assert _legal(silent) == ["9-5 9-9/4", "9-5 9-9/5", "9-5 9-9/6"]


def test_the_file_s_own_examples_hold_on_short_hands(tmp_path: Path):
    assert check_ruleset(NAME) == []
    from dominorules.rules import load_ruleset
    kinds = [ex.data.get("hand_size") for ex in load_ruleset(NAME).examples]
    assert kinds and set(kinds) == {3}
    path = tmp_path / "short.yaml"
    path.write_text(SHORT, encoding="utf-8")
    said = [(d.line, d.message) for d in check_ruleset(str(path))]
    assert said == [
        (8, "seat 0 is dealt 4 tiles here; the example's hand_size is 3"),
        (13, "hand_size 22 is more than the 21 tiles the deal gives with 2 players"),
        (19, "hand_size belongs to a dealt example (kind: dealt), not kind legal")], said


def _records(tmp_path: Path) -> list[dict]:
    game = api.load_game(NAME)
    events = []
    for bots in ("random", "greedy"):
        result = api.play_match(game, 4, 1, bots=bots, trace=True)
        assert result.events == api.play_match(game, 4, 1, bots=bots, trace=True).events
        events += result.events
    return events


def _referee(events: list[dict]) -> None:
    """Independent of the engine: tiles conserved, every draw the boneyard's first tile, a
    call asked only of a seat left with one tile, and a penalty draw only after silence."""
    hands: list[list[tuple]] = []
    bone: list[tuple] = []
    last = None
    for e in events:
        kind = e["event"]
        if kind == "deal":
            hands = [[tuple(t) for t in h] for h in e["hands"]]
            bone = [tuple(t) for t in e["boneyard"]]
            last = None
        elif kind == "place":
            hands[e["player"]].remove(tuple(e["tile"]))
        elif kind == "draw":
            assert tuple(e["tile"]) == bone.pop(0)
            hands[e["player"]].append(tuple(e["tile"]))
            if e.get("rule") == "tap":
                assert last == (e["player"], "silent") and len(hands[e["player"]]) == 2
        elif kind == "declare":
            assert len(hands[e["player"]]) == 1, "the call is due with one tile left"
        elif kind == "round_end":
            assert e["pips"] == [sum(50 if t == (0, 0) else t[0] + t[1] for t in h)
                                 for h in hands]
        last = (e.get("player"), e.get("option")) if kind == "declare" else None


def test_playouts_verify_and_a_missing_penalty_draw_is_refused(tmp_path: Path):
    events = _records(tmp_path)
    _referee(events)
    options = {e["option"] for e in events if e["event"] == "declare"}
    assert options == {"tap", "silent"}           # random picks both; greedy always taps
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []
    i = next(i for i, e in enumerate(events) if e["event"] == "draw" and e.get("rule") == "tap")
    planted = tmp_path / "planted.jsonl"
    records.write_records(str(planted), [*events[:i], *events[i + 1:]])
    found = records.check_file_strict(str(planted))
    assert found and found[0].line == i + 1 and "draw" in found[0].message


def test_validate_refuses_a_draw_or_due_at_round_start(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\nextends: pagat\ndeclarations:\n  - name: x\n"
                    "    when: round_start\n    due: \"count(hand) == 1\"\n    options:\n"
                    "      - name: one\n        draw: 1\n", encoding="utf-8")
    said = {(d.line, d.column): d for d in check_ruleset(str(path))}
    assert "due reads the placement" in said[(6, 10)].message
    assert "draws tiles" in said[(9, 15)].message


def test_play_offers_the_call_in_the_rule_s_words():
    from rich.console import Console

    from dominorules.play import render

    state = _state()
    for a in OPENING:
        state.apply(a)
    seating = render.Seating(((0,), (1,)), ("you", "greedy"))
    console = Console(width=100, record=True)
    console.print(render.table_view(state.observation(0), seating, state.legal_actions()))
    shown = console.export_text()
    assert "Declare now · Tapping the last domino: down to one tile, tap it" in shown
    assert "1) declare tap   2) declare silent" in shown


def test_compare_notes_the_penalty_draws():
    from dominorules.explore.choices import count_declarations

    greedy = count_declarations(NAME, 3, ("greedy",), 1, matches=1)
    assert greedy.penalty_draws == 0 and set(greedy.options) == {"tap tap"}   # always taps
    rand = count_declarations(NAME, 3, ("random",), 1, matches=2)
    assert rand.options["tap silent"] >= rand.penalty_draws > 0
