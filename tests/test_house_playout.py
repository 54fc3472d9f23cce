"""Playouts over the house rules that use the issue-12 mechanisms, at every player count.

For a few seeded matches each: every tile is in exactly one hand, the boneyard or the board
at each round end; ``verify`` replays the record and accepts it (so every applied action was
legal and every score, extra turn and skip is the engine's); the scores are the sum of all
points (round points and points scored during play) before ``match.final``; the same seed
gives the same record; and ``verify`` rejects a record with a planted fault in the new
events.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominorules import api, records
from dominorules.cli import main
from dominorules.rules import check_ruleset, load_ruleset

HOUSE = Path(__file__).resolve().parent.parent / "rulesets" / "house"
# The house rules written for issue 12 (house rules as data): each uses its mechanisms.
NEW_RULES = [
    "all-fives", "block", "block-charges-own", "blocker-leads", "boneyard-to-dominoer",
    "double-blank-bonus", "double-blank-last", "double-blank-skips", "double-domino-bonus",
    "double-opening", "doubles-play-again", "equal-ends-bonus", "exact-target",
    "first-round-highest-double", "first-to-three", "fixed-rounds", "four-doubles-redeal",
    "heaviest-opens", "last-two-block", "low-score-wins", "lowest-side-takes-round",
    "minimum-to-start", "muggins", "pay-per-forced-draw", "play-to-the-right",
    "shutout-pays-double", "spinner",
]
SEEDS = (1, 2, 3)


def _game(name: str):
    return api.load_game(f"house/{name}")


CASES = [(name, players) for name in NEW_RULES
         for players in range(_game(name).rules.min_players, _game(name).rules.max_players + 1)]


def test_every_new_house_rule_validates_from_the_command_line():
    result = CliRunner().invoke(main, ["validate", *(str(HOUSE / f"{n}.yaml") for n in NEW_RULES)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", NEW_RULES)
def test_every_new_house_rule_is_checked_clean_with_its_examples(name):
    assert check_ruleset(f"house/{name}") == []
    text = (HOUSE / f"{name}.yaml").read_text(encoding="utf-8")
    assert "\nextends: " in text and "\nsource: " in text and "\ndescription: " in text


def referee(game, events) -> list[int]:
    """Independent checks of one match's record; returns the sides' totals before
    ``match.final`` (round points plus points scored during play)."""
    ts = game.tileset
    full = sorted((t.low, t.high) for t in ts.tiles)
    start = events[0]
    assert start["event"] == "match_start"
    sides = len(start["teams"])
    totals = [0] * sides
    round_play = [0] * sides
    hands = bone = board = None
    spinner = game.rules.spinner != "none"
    for e in events[1:]:
        kind = e["event"]
        if kind == "deal":
            hands = [sorted(map(tuple, h)) for h in e["hands"]]
            bone = [tuple(t) for t in e["boneyard"]]
            board = []
            round_play = [0] * sides
            assert sorted([t for h in hands for t in h] + bone) == full
        elif kind == "draw":
            assert tuple(e["tile"]) == bone.pop(0), "a draw takes the boneyard's first tile"
            hands[e["player"]].append(tuple(e["tile"]))
        elif kind == "place":
            hands[e["player"]].remove(tuple(e["tile"]))
            board.append(tuple(e["tile"]))
            allowed = ("left", "right", "up", "down") if spinner else ("left", "right")
            assert e["end"] in allowed or (e["end"] is None and len(board) == 1)
        elif kind == "score":
            round_play[e["side"]] += e["points"]
            totals[e["side"]] += e["points"]
        elif kind == "round_end":
            # conserved: every tile in exactly one hand, the boneyard or the board
            assert sorted([t for h in hands for t in h] + bone + board) == full
            assert e["pips"] == [sum(game.rules.tile_value(a, b) for a, b in h) for h in hands]
            if e["result"] == "domino":
                assert any(not h for h in hands)
            if game.rules.events:
                assert e["play_points"] == round_play
            else:
                assert "play_points" not in e and not any(round_play)
            totals = [t + p for t, p in zip(totals, e["points"], strict=True)]
            assert e["scores"] == totals, "round_end scores are every point so far"
    assert events[-1]["event"] == "match_end"
    return totals


def final_scores(name: str, totals: list[int], winner: int | None) -> list[int]:
    """match_end's scores: the totals, or for the one file with ``match.final`` its rule."""
    if name != "shutout-pays-double":
        return totals
    return [2 * t if i == winner and t == sum(totals) else t for i, t in enumerate(totals)]


def play(name: str, players: int, seed: int):
    return api.play_match(_game(name), players, seed, trace=True)


@pytest.mark.parametrize("name, players", CASES)
def test_house_playouts_conserve_tiles_add_up_and_verify(name, players, tmp_path):
    game = _game(name)
    for seed in SEEDS:
        result = play(name, players, seed)
        events = result.events
        totals = referee(game, events)
        end = events[-1]
        assert end["scores"] == final_scores(name, totals, end["winner"])
        assert list(result.scores) == end["scores"]
        again = play(name, players, seed)
        assert [json.dumps(e) for e in again.events] == [json.dumps(e) for e in events]
        path = tmp_path / f"{seed}.jsonl"
        records.write_records(str(path), events)
        assert records.verify_file(str(path)) == [], f"seed {seed}"


def test_low_score_wins_goes_to_the_lowest_total_once_someone_reaches_100():
    for seed in SEEDS:
        end = play("low-score-wins", 3, seed).events[-1]
        scores = end["scores"]
        assert max(scores) >= 100
        if scores.count(min(scores)) == 1:
            assert end["winner"] == scores.index(min(scores))
        else:
            assert end["winner"] is None


def test_first_to_three_ends_when_a_player_has_won_three_rounds():
    for seed in SEEDS:
        events = play("first-to-three", 3, seed).events
        wins = [0, 0, 0]
        for e in events:
            if e["event"] == "round_end" and e["winner"] is not None:
                wins[e["winner"]] += 1
                assert max(wins) <= 3
        assert events[-1]["winner"] == wins.index(3)


def test_fixed_rounds_plays_two_rounds_per_player():
    for players in (2, 3, 4):
        events = play("fixed-rounds", players, 1).events
        assert sum(e["event"] == "round_end" for e in events) == 2 * players


# -- verify rejects planted faults in the new events -----------------------------------------

def _first_record(name: str, players: int, wanted) -> list[dict]:
    """The first seeded record (seeds 1..40) holding an event ``wanted`` accepts."""
    for seed in range(1, 41):
        events = play(name, players, seed).events
        if any(wanted(e) for e in events):
            return events
    raise AssertionError(f"no match of {name} in 40 seeds holds the event")


def _rejected(tmp_path, events) -> bool:
    path = tmp_path / "planted.jsonl"
    records.write_records(str(path), events)
    return records.verify_file(str(path)) != []


def test_verify_rejects_a_changed_score_event(tmp_path):
    events = _first_record("all-fives", 2, lambda e: e["event"] == "score")
    i = next(i for i, e in enumerate(events) if e["event"] == "score")
    assert not _rejected(tmp_path, events)
    events[i] = {**events[i], "points": events[i]["points"] + 5}
    assert _rejected(tmp_path, events)


def test_verify_rejects_a_dropped_extra_turn(tmp_path):
    events = _first_record("doubles-play-again", 3, lambda e: e["event"] == "extra_turn")
    i = next(i for i, e in enumerate(events) if e["event"] == "extra_turn")
    assert not _rejected(tmp_path, events)
    assert _rejected(tmp_path, events[:i] + events[i + 1:])


def test_verify_rejects_a_skip_of_the_wrong_player(tmp_path):
    events = _first_record("double-blank-skips", 3, lambda e: e["event"] == "skip")
    i = next(i for i, e in enumerate(events) if e["event"] == "skip")
    assert not _rejected(tmp_path, events)
    events[i] = {**events[i], "player": (events[i]["player"] + 1) % 3}
    assert _rejected(tmp_path, events)


def test_verify_rejects_an_up_end_on_a_board_without_a_spinner(tmp_path):
    events = play("equal-ends-bonus", 2, 1).events
    i = next(i for i, e in enumerate(events) if e["event"] == "place" and e["end"] is not None)
    assert not _rejected(tmp_path, events)
    events[i] = {**events[i], "end": "up"}
    assert _rejected(tmp_path, events)


# -- effects a rule example cannot show, pinned on seeded records ---------------------------

def _rounds(events: list[dict]) -> list[list[dict]]:
    """The events of each round, from its (last) deal to its round_end."""
    out, current = [], []
    for e in events:
        if e["event"] == "deal":
            current = [e]
        elif current:
            current.append(e)
            if e["event"] == "round_end":
                out.append(current)
                current = []
    return out


def test_play_to_the_right_turns_and_leads_go_to_the_previous_seat():
    for players in (3, 4):
        events = play("play-to-the-right", players, 1).events
        rounds = _rounds(events)
        for before, after in pairwise(rounds):
            assert after[0]["leader"] == (before[0]["leader"] - 1) % players
        for rnd in rounds:
            turns = [e for e in rnd if e["event"] in ("place", "pass")]
            for a, b in pairwise(turns):
                assert b["player"] == (a["player"] - 1) % players


def test_four_doubles_are_always_redealt_and_nothing_else_is():
    game = _game("four-doubles-redeal")
    redeals = 0
    for seed in range(1, 11):
        events = play("four-doubles-redeal", 2, seed).events
        deals = [e for e in events if e["event"] == "deal"]
        for deal, following in zip(deals, deals[1:] + [None], strict=True):
            most = max(sum(a == b for a, b in hand) for hand in deal["hands"])
            thrown_in = following is not None and following["round"] == deal["round"]
            assert thrown_in == (most >= 4), deal
            redeals += thrown_in
    assert redeals, "ten matches should see at least one hand with four doubles"
    assert game.rules.redeal_if is not None


def test_a_shutout_doubles_the_winners_final_score():
    for seed in range(1, 301):
        events = play("shutout-pays-double", 2, seed).events
        totals = _rounds(events)[-1][-1]["scores"]
        if 0 in totals:
            end = events[-1]
            winner = end["winner"]
            assert end["scores"][winner] == 2 * totals[winner] >= 200
            assert end["scores"][1 - winner] == 0
            return
    raise AssertionError("no shutout in 300 two-player matches")


def test_blocker_leads_gives_the_lead_to_the_last_placer_or_the_next_seat():
    for seed in SEEDS:
        events = play("blocker-leads", 4, seed).events
        rounds = _rounds(events)
        assert next(e for e in rounds[0] if e["event"] == "place")["tile"] == [6, 6]
        for before, after in pairwise(rounds):
            last = [e for e in before if e["event"] == "place"][-1]["player"]
            won = before[-1]["winner"] == last % 2          # partnerships: side = seat % 2
            assert after[0]["leader"] == (last if won else (last + 1) % 4)


# -- each rule's effect, read back from seeded records ---------------------------------------

def _walk(rnd: list[dict]):
    """(event, hands before it, ends before it) for each event of a round on a line."""
    hands = [list(map(tuple, h)) for h in rnd[0]["hands"]]
    bone = [tuple(t) for t in rnd[0]["boneyard"]]
    ends = None
    for e in rnd[1:]:
        yield e, [list(h) for h in hands], ends
        if e["event"] == "draw":
            hands[e["player"]].append(bone.pop(0))
        elif e["event"] == "place":
            tile = tuple(e["tile"])
            hands[e["player"]].remove(tile)
            if ends is None:
                ends = tile
            else:
                i = 0 if e["end"] == "left" else 1
                ends = tuple(tile[0] + tile[1] - ends[i] if j == i else ends[j] for j in (0, 1))


def _played_rounds(name: str, players: int, seeds=range(1, 21)):
    for seed in seeds:
        yield from _rounds(play(name, players, seed).events)


def test_low_score_wins_charges_each_player_their_own_pips():
    for rnd in _played_rounds("low-score-wins", 3, SEEDS):
        assert rnd[-1]["points"] == rnd[-1]["pips"]


def test_a_block_charges_everyone_but_the_unique_lowest_hand():
    for rnd in _played_rounds("block-charges-own", 3):
        end = rnd[-1]
        if end["result"] == "blocked":
            low = min(end["pips"]) if end["pips"].count(min(end["pips"])) == 1 else None
            assert end["points"] == [0 if p == low else -p for p in end["pips"]]


def test_a_block_is_settled_between_the_blocker_and_the_next_player():
    seen = 0
    for rnd in _played_rounds("last-two-block", 3):
        end = rnd[-1]
        if end["result"] == "blocked":
            last = [e for e in rnd if e["event"] == "place"][-1]["player"]
            after = (last + 1) % 3
            pips = end["pips"]
            winner = last if pips[last] <= pips[after] else after
            assert end["winner"] == winner
            assert end["points"][winner] == sum(pips) - 2 * pips[winner]
            seen += 1
    assert seen


def test_after_a_domino_the_side_with_the_lower_hands_takes_the_round():
    for rnd in _played_rounds("lowest-side-takes-round", 4, SEEDS):
        end = rnd[-1]
        totals = [end["pips"][0] + end["pips"][2], end["pips"][1] + end["pips"][3]]
        if end["result"] == "domino" and totals[0] != totals[1]:
            winner = totals.index(min(totals))
            assert end["winner"] == winner and end["points"][winner] == max(totals)


def test_domino_bonuses_for_a_double_and_for_the_boneyard():
    for rnd in _played_rounds("double-domino-bonus", 2):
        end = rnd[-1]
        if end["result"] == "domino":
            last = [e for e in rnd if e["event"] == "place"][-1]["tile"]
            bonus = 10 if last[0] == last[1] else 0
            assert end["points"][end["winner"]] == sum(end["pips"]) + bonus
    for rnd in _played_rounds("boneyard-to-dominoer", 3):
        end = rnd[-1]
        if end["result"] == "domino":
            left = len(rnd[0]["boneyard"]) - sum(e["event"] == "draw" for e in rnd)
            bone = sum(a + b for a, b in rnd[0]["boneyard"][-left:]) if left else 0
            assert end["points"][end["winner"]] == sum(end["pips"]) + bone


def test_openings_follow_the_opening_rules():
    passed_on = 0
    for rnd in _played_rounds("double-opening", 3):
        first = next(e for e in rnd if e["event"] == "place")
        assert first["tile"][0] == first["tile"][1]
        passed_on += first["player"] != rnd[0]["leader"]
    assert passed_on, "a leader without a double hands the opening on"
    for seed in SEEDS:
        rounds = _rounds(play("first-round-highest-double", 3, seed).events)
        first = next(e for e in rounds[0] if e["event"] == "place")
        assert first["tile"] == max(t for h in rounds[0][0]["hands"] for t in h if t[0] == t[1])


def test_double_blank_is_placed_only_as_the_last_playable_tile():
    placed = 0
    for rnd in _played_rounds("double-blank-last", 2):
        for e, hands, ends in _walk(rnd):
            if e["event"] == "place" and ends is not None and e["tile"] == [0, 0]:
                playable = [t for t in hands[e["player"]] if ends[0] in t or ends[1] in t]
                assert playable == [(0, 0)]
                placed += 1
    assert placed


def test_play_time_events_fire_exactly_when_their_condition_holds():
    for rnd in _played_rounds("equal-ends-bonus", 2, SEEDS):
        walked = list(_walk(rnd))
        for (e, _, _), (nxt, _, ends) in zip(walked, walked[1:] + [(None, None, None)],
                                             strict=True):
            if e["event"] == "place" and e["end"] is not None:
                fired = nxt is not None and nxt["event"] == "score"
                assert fired == (ends[0] == ends[1])
    for rnd in _played_rounds("double-blank-skips", 3, SEEDS):
        for e, nxt in pairwise(rnd):
            if nxt["event"] == "skip":
                assert e["event"] == "place" and e["tile"] == [0, 0]
                assert nxt["player"] == (e["player"] + 1) % 3
    for rnd in _played_rounds("pay-per-forced-draw", 3, SEEDS):
        for (e, hands, ends), (nxt, _, _) in pairwise(_walk(rnd)):
            if e["event"] == "draw" and ends is not None:
                stuck = not any(ends[0] in t or ends[1] in t for t in hands[e["player"]])
                if stuck:
                    assert nxt["event"] == "score" and nxt["points"] == 1
                else:
                    assert nxt["event"] != "score"


def test_match_formats_exact_hundred_and_ten_to_get_on():
    for seed in SEEDS:
        events = play("exact-target", 3, seed).events
        assert all(max(e["scores"]) <= 100 for e in events if e["event"] == "round_end")
        if events[-1]["winner"] is not None:
            assert events[-1]["scores"][events[-1]["winner"]] == 100
        events = play("minimum-to-start", 3, seed).events
        before = [0, 0, 0]
        for e in (e for e in events if e["event"] == "round_end"):
            assert all(a == 0 or b != 0 or a >= 10 for a, b in zip(e["scores"], before,
                                                                     strict=True))
            before = e["scores"]


def _end_totals(rnd: list[dict], spins: bool):
    """(index in the round, the end total after it) for each placement: counted as the
    Fives games count, by a model written here (a crosswise double at an arm's end counts
    twice; a spinner's up and down arms count once a tile lies on them)."""
    arms: dict[str, list] = {}      # end -> [value, a double at its end, a tile on the arm]
    spinner = None
    for i, e in enumerate(rnd):
        if e["event"] != "place":
            continue
        tile = tuple(e["tile"])
        double = tile[0] == tile[1]
        if e["end"] is None:
            arms = {"left": [tile[0], double, False], "right": [tile[1], double, False]}
            total = tile[0] + tile[1]
        else:
            if e["end"] in ("up", "down"):
                arms.setdefault(e["end"], [spinner, False, False])
            arms[e["end"]] = [sum(tile) - arms[e["end"]][0], double, True]
            total = sum(2 * v if dbl else v for end, (v, dbl, played) in arms.items()
                        if played or end in ("left", "right"))
        if spins and spinner is None and double:
            spinner = tile[0]
        yield i, total


@pytest.mark.parametrize("name, spins", [("all-fives", False), ("muggins", True)])
def test_fives_score_exactly_the_end_total_when_it_is_a_multiple_of_five(name, spins):
    scored = 0
    for players in (2, 4):
        for rnd in _played_rounds(name, players, range(1, 6)):
            for i, total in _end_totals(rnd, spins):
                after = rnd[i + 1]
                if total > 0 and total % 5 == 0:
                    assert after["event"] == "score" and after["points"] == total
                    scored += 1
                else:
                    assert after["event"] != "score"
    assert scored


@pytest.mark.parametrize("name, players", [("doubles-play-again", 3),
                                           ("double-blank-skips", 3), ("double-blank-skips", 2)])
def test_after_an_extra_turn_the_placer_acts_again_and_a_skipped_seat_does_not(name, players):
    seen = 0
    for seed in range(1, 11):
        events = play(name, players, seed).events
        for i, e in enumerate(events):
            if e["event"] not in ("extra_turn", "skip"):
                continue
            placer = next(x for x in reversed(events[:i]) if x["event"] == "place")["player"]
            nxt = next(x for x in events[i + 1:]
                       if x["event"] in ("place", "pass", "draw", "round_end"))
            if nxt["event"] != "round_end":
                step = 0 if e["event"] == "extra_turn" else 2
                assert nxt["player"] == (placer + step) % players
                seen += 1
    assert seen


# Rules whose effect no example kind can state (turn order, redeals, match formats, the final
# score): the seeded tests above pin them instead.
NO_EXAMPLE = {"play-to-the-right", "four-doubles-redeal", "shutout-pays-double",
              "first-to-three", "fixed-rounds"}


@pytest.mark.parametrize("name", sorted(set(NEW_RULES) - NO_EXAMPLE))
def test_some_example_fails_under_the_ruleset_it_extends(name, tmp_path):
    """The examples pin what the house rule changes: the parent's rules break one."""
    data = load_ruleset(f"house/{name}").data
    path = tmp_path / "parent.yaml"      # JSON is YAML: the parent with the child's examples
    path.write_text(json.dumps({"title": "parent", "extends": data["extends"],
                                "examples": data["examples"]}), encoding="utf-8")
    problems = check_ruleset(str(path))
    assert problems and all(p.path.startswith("examples") for p in problems)
