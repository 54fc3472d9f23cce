"""Declarations (engine.mechanisms.declarations): named options chosen at a named moment
(the rules for the hand, points claimed after a placement) and hands shown at a round's end,
played by the match loop, re-read by verify and the rulebook, refused by the kernels."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api, records
from dominorules.engine.actions import Action
from dominorules.engine.game import Deal
from dominorules.kernel import generate, jit_kernel
from dominorules.rules import check_ruleset

HOUSE = ("house/muggins-called", "house/passed-and-could-play")
# 2 players, seat 0 leads [5|5]: ends 5 and 5 make 10
FIVES = ("5-5 0-1 0-2 0-3 1-2 1-3 2-3", "0-4 1-4 1-5 2-4 2-5 3-4 3-5")
# seat 0 leads [6|6] and holds [6|4]; seat 1 holds no 6
SIXES = ("6-6 6-4 0-1 0-2 0-3 1-2 1-3", "0-0 0-4 0-5 1-4 1-5 2-4 2-5")
STAKE = """title: the leader's stake
extends: pagat
variables:
  stake: {initial: 1}
declarations:
  - name: stake
    title: The stake
    when: round_start
    options:
      - name: single
        set: {stake: 1}
      - name: double
        set: {stake: "2 * players"}
        value: "count(hand, t -> t.is_double)"
scoring:
  domino: "stake * sum(opponents.value)"
  blocked:
    points: "stake * (sum(opponents.value) - winner.value)"
"""


def _state(game, hands, boneyard: str, players: int = 2):
    return game.new_match(players, seed=0, deals=[Deal.of(hands, boneyard, leader=0)])


def _legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def _stake(tmp_path: Path):
    path = tmp_path / "stake.yaml"
    path.write_text(STAKE, encoding="utf-8")
    return api.load_game(str(path))


@pytest.mark.parametrize(("claim", "scores", "points"), [
    ("claim 10", (10, 0), [10, 0]),     # right: the count scores
    ("claim 0", (0, 10), [0, 10]),      # missed: muggins, the opponent takes it
    ("claim 15", (0, 15), [0, 15]),     # wrong: nothing scored, the claim marked for them
])
def test_a_claim_after_the_opening_scores_as_the_rule_says(claim, scores, points):
    state = _state(api.load_game("house/muggins-called"), FIVES, "6-6 0-0")
    state.apply("5-5")
    assert state.current_player == 0 and state.observation(0).phase == "declare"
    assert _legal(state) == ["claim 0", "claim 5", "claim 10", "claim 15", "claim 20"]
    state.apply(claim)
    assert state.scores == scores
    assert state.record[-1] == {"event": "claim", "player": 0, "declaration": "count",
                                "claimed": int(claim.split()[1]), "worth": 10,
                                "points": points}
    assert state.current_player == 1 and "draw" in _legal(state)


def test_the_leader_declares_the_stake_and_the_round_is_scored_by_it(tmp_path):
    game = _stake(tmp_path)
    state = _state(game, SIXES, "3-4 3-5")
    assert state.current_player == 0
    assert _legal(state) == ["declare single", "declare double"]
    assert state.observation(0).best_option == 1          # two doubles: double looks best
    state.apply("declare double")
    assert state.record[-1] == {"event": "declare", "player": 0, "declaration": "stake",
                                "option": "double"}
    single = _state(game, SIXES, "3-4 3-5")
    single.apply("declare single")
    while state.round == 1:   # the same moves under both stakes: the first legal each time
        move = _legal(state)[0]
        state.apply(move)
        single.apply(move)
    doubled, plain = (next(e for e in s.record if e["event"] == "round_end")
                      for s in (state, single))
    assert plain["points"][plain["winner"]] > 0
    assert doubled["points"] == [4 * p for p in plain["points"]]   # stake 2 * players


def test_a_typed_declaration_that_is_not_allowed_says_why(tmp_path):
    state = _state(api.load_game("house/muggins-called"), FIVES, "6-6 0-0")
    with pytest.raises(ValueError, match="no declaration is due now"):
        state.apply("claim 10")
    state.apply("5-5")
    with pytest.raises(ValueError, match="you must choose one of claim 0"):
        state.apply("claim 7")
    assert str(Action.parse("declare double")) == "declare double"


def test_passes_while_able_to_place_are_paid_at_the_showdown():
    state = _state(api.load_game("house/passed-and-could-play"), SIXES, "3-4 3-5")
    state.apply("6-6")
    for _ in range(4):   # seat 1 stuck (could draw), seat 0 holding [6|4]: two passes each
        state.apply("pass")
    shown = [e for e in state.record if e["event"] == "penalty"]
    assert shown == [{"event": "penalty", "player": 0, "passes": 2, "points": [0, 100]}]
    end = next(e for e in state.record if e["event"] == "round_end")
    assert end["points"] == [10, 0] and end["scores"] == [10, 100]


@pytest.mark.parametrize("name", HOUSE)
def test_house_rules_are_clean_and_played_by_the_general_loop_and_the_jit(name):
    assert check_ruleset(name) == []
    game = api.load_game(name)
    assert not generate.covers(game)   # the Python kernel: the general loop plays them
    assert jit_kernel.jit_reason(game, 2, need_numba=False) is None   # (jit_declare)


def test_a_ruleset_without_declarations_has_none():
    rules = api.load_game("house/passing").rules
    assert rules.declarations == () and rules.showdown is None


@pytest.mark.parametrize("name", HOUSE)
def test_playouts_at_every_player_count_verify_both_ways_and_repeat(name, tmp_path):
    game = api.load_game(name)
    events = []
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        for bots in ("random", "greedy", "strategist"):
            result = api.play_match(game, players, 3, bots=bots, trace=True)
            assert result.events == api.play_match(game, players, 3, bots=bots,
                                                   trace=True).events
            events += result.events
    kinds = {e["event"] for e in events}
    assert kinds & {"claim", "penalty"}
    _scores_add_up(events)
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []


def test_the_stake_declaration_playouts_verify(tmp_path):
    game = _stake(tmp_path)
    events = []
    for bots in ("random", "greedy"):
        events += api.play_match(game, 3, 5, bots=bots, trace=True).events
    assert any(e["event"] == "declare" for e in events)
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []


def _scores_add_up(events: list[dict]) -> None:
    """Every round_end's scores are the round points, the events' points, the claims' and
    the penalties' so far, and nothing else."""
    totals: list[int] = []
    for e in events:
        kind = e["event"]
        if kind == "match_start":
            totals = [0] * len(e["teams"])
        elif kind == "score":
            totals[e["side"]] += e["points"]
        elif kind in ("claim", "penalty"):
            totals = [t + p for t, p in zip(totals, e["points"], strict=True)]
        elif kind == "round_end":
            totals = [t + p for t, p in zip(totals, e["points"], strict=True)]
            assert e["scores"] == totals


def _strict(tmp_path, events) -> list:
    path = tmp_path / "planted.jsonl"
    records.write_records(str(path), events)
    return records.check_file_strict(str(path))


def _first_record(name: str, kind: str) -> list[dict]:
    game = api.load_game(name)
    for seed in range(50):
        events = api.play_match(game, 2, seed, trace=True).events
        if any(e["event"] == kind for e in events):
            return events
    raise AssertionError(f"no {kind} in 50 matches")


def test_the_rulebook_rejects_a_wrong_penalty(tmp_path):
    events = _first_record("house/passed-and-could-play", "penalty")
    i = next(i for i, e in enumerate(events) if e["event"] == "penalty")
    events[i] = {**events[i], "points": [p + 5 for p in events[i]["points"]]}
    [found] = _strict(tmp_path, events)
    assert found.line == i + 1 and "penalty points: the rules say" in found.message


def test_the_rulebook_rejects_a_claim_not_offered_and_wrong_claim_points(tmp_path):
    events = _first_record("house/muggins-called", "claim")
    i = next(i for i, e in enumerate(events) if e["event"] == "claim")
    planted = [*events[:i], {**events[i], "claimed": 7}, *events[i + 1:]]
    [found] = _strict(tmp_path, planted)
    assert "the rules offer claim 0, claim 5" in found.message
    planted = [*events[:i], {**events[i], "points": [99, 0]}, *events[i + 1:]]
    [found] = _strict(tmp_path, planted)
    assert "claim points: the rules say" in found.message


def test_the_rulebook_rejects_an_option_not_offered(tmp_path):
    game = _stake(tmp_path)
    events = api.play_match(game, 2, 1, trace=True).events
    i = next(i for i, e in enumerate(events) if e["event"] == "declare")
    events[i] = {**events[i], "option": "triple"}
    path = tmp_path / "planted.jsonl"
    records.write_records(str(path), events)
    found = records.check_file_strict(str(path))
    assert found and "the rules offer declare single, declare double" in found[0].message


def test_validate_names_a_declaration_with_no_options_and_a_name_used_twice(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\nextends: pagat\ndeclarations:\n  - name: stake\n"
                    "    when: round_start\n  - name: stake\n    when: round_start\n"
                    "    options:\n      - name: one\n      - name: one\n", encoding="utf-8")
    found = check_ruleset(str(path))
    said = {(d.line, d.column): d for d in found}
    assert "offers no options" in said[(4, 5)].message and "claims:" in said[(4, 5)].hint
    assert "is used twice" in said[(6, 11)].message
    assert "option 'one'" in said[(10, 15)].message


def test_compare_reports_what_declarations_did_in_sample_matches():
    from dominorules.explore.choices import count_declarations, declaration_notes

    assert count_declarations("pagat", 2, ("random",), 1, matches=1) is None
    got = count_declarations("house/muggins-called", 2, ("greedy",), 1, matches=2)
    assert got.claims["right"] > 0 and got.claims["missed"] == got.claims["wrong"] == 0
    assert got.claim_points > 0 and got.taken_points == 0   # greedy claims the true count
    [line] = declaration_notes(["pagat", "house/passed-and-could-play"], ["pagat", "bad"],
                               2, ("random",), 1, matches=2)
    assert line.startswith("Declarations in 2 sample matches of bad (bots random)")
    assert "penalties at the showdown" in line


def test_play_shows_the_declaration_in_the_rule_s_words_and_tells_the_claim():
    from rich.console import Console

    from dominorules.play import render

    state = _state(api.load_game("house/muggins-called"), FIVES, "6-6 0-0")
    state.apply("5-5")
    seating = render.Seating(((0,), (1,)), ("you", "greedy"))
    console = Console(width=100, record=True)
    console.print(render.table_view(state.observation(0), seating, state.legal_actions()))
    shown = console.export_text()
    assert "Declare now · Claiming the count: after placing, claim what the ends make" in shown
    assert "1) claim 0   2) claim 5   3) claim 10" in shown
    state.apply("claim 0")
    assert render.event_text(state.record[-1], seating) == (
        "Seat 0 (you) claims nothing (worth 10): Seat 1 (greedy) +10")
