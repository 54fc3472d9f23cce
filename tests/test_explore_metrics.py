"""Metric definitions on hand-built matches whose every answer is worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dominorules.engine.results import MatchResult, RoundStats
from dominorules.explore import stats
from dominorules.explore.metrics import (
    aggregate_matches,
    feature_names,
    features,
    is_comeback,
    lead_changes,
    metrics_for,
    shown,
)


def rnd(no, leader, result, winner, points, scores, turns, placements, draws, passes,
        decisions, choice_points, tied=False, redeals=0, winner_seat=None):
    return RoundStats(round=no, leader=leader, result=result, winner=winner,
                      winner_seat=winner if winner_seat is None else winner_seat,
                      tied_block=tied, points=points, scores=scores, turns=turns,
                      placements=placements, draws=draws, passes=passes, decisions=decisions,
                      choice_points=choice_points, redeals=redeals)


SOLO3 = ((0,), (1,), (2,))

# Seat 2 wins from behind; seat 1 led first; one blocked round tied, one did not.
COMEBACK = MatchResult("x", 3, 11, SOLO3, 2, (10, 0, 65), 61, (
    rnd(1, 1, "domino", 0, (10, 0, 0), (10, 0, 0), 10, 8, 3, 2, 12, 6),
    rnd(2, 2, "blocked", None, (0, 0, 0), (10, 0, 0), 9, 6, 0, 3, 9, 3, tied=True,
        redeals=1),
    rnd(3, 0, "domino", 2, (0, 0, 15), (10, 0, 15), 11, 9, 1, 2, 12, 4),
    rnd(4, 1, "blocked", 2, (0, 0, 50), (10, 0, 65), 12, 8, 0, 4, 12, 2),
))
# A drawn match: one blocked round where both tied sides scored.
DRAWN = MatchResult("x", 3, 12, SOLO3, None, (62, 62, 0), 61, (
    rnd(1, 0, "blocked", None, (62, 62, 0), (62, 62, 0), 6, 3, 2, 3, 8, 1, tied=True),
))


def value(key, matches, skilled=None, players=3):
    agg = aggregate_matches(matches, skilled)
    pairing = "skill" if key.startswith("skill") else "main"
    metric = next(m for m in metrics_for(pairing, players) if m.key == key)
    return stats.estimate(metric, agg, feature_names(players)).value


def test_features_of_one_match_by_hand():
    names = feature_names(3)
    got = dict(zip(names, features(COMEBACK, skilled_seat=2), strict=True))
    assert got == {
        "one": 1, "sides": 3, "rounds": 4, "turns": 42, "placements": 31, "draws": 4,
        "passes": 11, "decisions": 45, "choice_points": 15, "redeals": 1, "blocked": 2,
        "tied_blocks": 1, "points": 75, "drawn": 0, "decided": 1, "lead_changes": 1,
        "comeback": 1, "leader_edge": -1, "skill_win": 1, "skill_edge": 2,
        # 3 sides x 4 rounds; 3 rounds won, none by the round leader's side: 3 * 0 - 3
        "side_rounds": 12, "round_leader_edge": -3, "domino_rounds": 2,
        "play_points": 0, "extra_turns": 0, "skips": 0,
        "seat_win_0": 0, "seat_win_1": 0, "seat_win_2": 1,
        # the mechanisms' counters (engine.results.MECHANISM_COUNTERS): none reported
        "variable_sets": 0, "variables_final": 0, "duties_laid": 0, "duties_failed": 0,
        "duties_met": 0, "leads_handed": 0,
    }


def test_a_mechanism_counter_becomes_a_feature_and_its_metric():
    """``MatchResult.counters`` (what the general loop counts for a mechanism) lands in the
    feature of its name, and every counter has a metric that reads it."""
    import dataclasses

    counted = dataclasses.replace(COMEBACK, counters={"variable_sets": 7, "duties_met": 2})
    got = dict(zip(feature_names(3), features(counted), strict=True))
    assert (got["variable_sets"], got["duties_met"], got["duties_laid"]) == (7, 2, 0)
    from dominorules.engine.results import MECHANISM_COUNTERS
    from dominorules.explore.metrics import MECHANISM_COUNTERS as METRICS
    assert {m.num for m in METRICS} == set(MECHANISM_COUNTERS)


@pytest.mark.parametrize(("key", "expected"), [
    ("rounds_per_match", Fraction(5, 2)),
    ("turns_per_round", Fraction(48, 5)),
    ("placements_per_round", Fraction(34, 5)),
    ("draws_per_round", Fraction(6, 5)),
    ("passes_per_round", Fraction(14, 5)),
    ("redeals_per_round", Fraction(1, 5)),
    ("blocked_rate", Fraction(3, 5)),
    ("tied_block_rate", Fraction(2, 3)),
    ("points_per_round", Fraction(199, 5)),
    ("drawn_match_rate", Fraction(1, 2)),
    ("win_rate_seat_0", 0),
    ("win_rate_seat_1", 0),
    ("win_rate_seat_2", Fraction(1, 2)),
    # the first leader's side won 0 of 2 matches; its fair share of the 1 decided is 1/3
    ("leader_advantage", Fraction(0, 2) - Fraction(1, 2) * Fraction(1, 3)),
    ("balance", Fraction(1, 2)),
    ("lead_changes", Fraction(1, 2)),
    ("comeback_rate", 1),
    ("decision_rate", Fraction(16, 53)),
    ("turns_per_match", Fraction(42 + 6, 2)),
    ("placements_per_match", Fraction(31 + 3, 2)),
    ("domino_rate", Fraction(2, 5)),
    # no round leader's side won its round; 3 of 5 rounds were won: (0 - 3/3) / 5
    ("round_leader_advantage", Fraction(-1, 5)),
])
def test_metric_values_on_two_matches(key, expected):
    assert value(key, [COMEBACK, DRAWN]) == pytest.approx(float(expected), abs=1e-12)


def test_skill_metrics_follow_the_skilled_seat():
    # skilled seat 2 won the first match; the second was drawn
    assert value("skill_win_rate", [COMEBACK, DRAWN], skilled=[2, 0]) == 0.5
    # 1/2 won, minus a fair share (1/3) of the 1/2 of matches that were decided
    assert value("skill_gap", [COMEBACK, DRAWN], skilled=[2, 0]) == pytest.approx(1 / 3)
    assert value("skill_win_rate", [COMEBACK, DRAWN], skilled=[1, 0]) == 0.0


def test_partnership_seats_win_with_their_side():
    teams = ((0, 2), (1, 3))
    m = MatchResult("x", 4, 1, teams, 1, (40, 101), 100, (
        rnd(1, 3, "domino", 1, (0, 101), (0, 101), 20, 17, 0, 3, 20, 9, winner_seat=3),))
    got = dict(zip(feature_names(4), features(m), strict=True))
    assert [got[f"seat_win_{s}"] for s in range(4)] == [0, 1, 0, 1]
    assert got["sides"] == 2
    assert got["leader_edge"] == 2 * 1 - 1   # seat 3 led and its side won


def test_lead_changes_skip_ties_and_count_each_new_leader():
    r = [rnd(i + 1, 0, "domino", 0, (0, 0), s, 1, 1, 0, 0, 1, 0) for i, s in
         enumerate([(5, 0), (5, 5), (5, 9), (12, 9), (12, 20)])]
    m = MatchResult("x", 2, 1, ((0,), (1,)), 1, (12, 20), 20, tuple(r))
    assert lead_changes(m) == 3
    assert is_comeback(m)


def test_a_wire_to_wire_winner_is_no_comeback():
    r = [rnd(1, 0, "domino", 0, (30, 0), (30, 0), 1, 1, 0, 0, 1, 0),
         rnd(2, 1, "domino", 0, (30, 0), (60, 0), 1, 1, 0, 0, 1, 0)]
    m = MatchResult("x", 2, 1, ((0,), (1,)), 0, (60, 0), 50, tuple(r))
    assert not is_comeback(m)
    assert lead_changes(m) == 0


def test_undefined_ratio_is_none_not_zero():
    r = [rnd(1, 0, "domino", 0, (30, 0), (70, 0), 1, 1, 0, 0, 1, 0)]
    m = MatchResult("x", 2, 1, ((0,), (1,)), 0, (70, 0), 50, tuple(r))
    agg = aggregate_matches([m, m])
    tied = next(x for x in metrics_for("main", 2) if x.key == "tied_block_rate")
    assert stats.estimate(tied, agg, feature_names(2)).value is None


def test_histograms_count_match_lengths_and_round_points():
    agg = aggregate_matches([COMEBACK, DRAWN])
    assert dict(agg.rounds_hist) == {4: 1, 1: 1}
    assert dict(agg.points_hist) == {10: 1, 0: 1, 15: 1, 50: 1, 124: 1}


def test_every_metric_has_a_question_unit_and_definition():
    for m in metrics_for("main", 4) + metrics_for("skill", 4):
        assert m.question.endswith("?") and m.unit and m.doc


def test_one_pass_features_agree_with_the_readable_definitions_on_real_matches():
    from dominorules import api

    names = feature_names(3)
    game = api.load_game("pagat")
    for i in range(40):
        m = api.play_match(game, 3, api.match_seed(5, i), "random")
        got = dict(zip(names, features(m), strict=True))
        assert got["lead_changes"] == lead_changes(m)
        assert got["comeback"] == int(is_comeback(m))
        assert got["rounds"] == len(m.rounds)
        assert got["points"] == sum(sum(r.points) for r in m.rounds)


def test_balance_in_partnerships_is_the_gap_between_sides_not_partners():
    teams = ((0, 2), (1, 3))
    matches = [MatchResult("x", 4, i, teams, i % 2, (100, 0) if i % 2 == 0 else (0, 100), 100,
                           (rnd(1, 0, "domino", i % 2, (100, 0) if i % 2 == 0 else (0, 100),
                                (100, 0) if i % 2 == 0 else (0, 100), 20, 17, 0, 3, 20, 9),))
               for i in range(6)]
    agg = aggregate_matches(matches)
    balance = next(m for m in metrics_for("main", 4, True) if m.key == "balance")
    est = stats.estimate(balance, agg, feature_names(4))
    # every seat won half: no gap, but seat 0 against seat 1 (not its partner) is uncertain
    assert est.value == 0.0
    assert est.low == 0.0 and est.high > 0.5     # a gap is never below 0: clipped there


def test_points_during_play_extra_turns_and_skips_are_read_when_reported():
    base = rnd(1, 0, "domino", 0, (30, 5), (30, 5), 10, 8, 0, 2, 10, 4)
    house = base._replace(play_points=(10, 5), extra_turns=2, skips=1)
    m = MatchResult("x", 2, 1, ((0,), (1,)), 0, (30, 5), 20, (house, base))
    got = dict(zip(feature_names(2), features(m), strict=True))
    assert (got["play_points"], got["extra_turns"], got["skips"]) == (15, 2, 1)
    assert value("play_points_per_round", [m], players=2) == 7.5
    assert value("skips_per_round", [m], players=2) == 0.5


def test_a_leader_who_always_wins_the_round_has_the_whole_unfair_share():
    r = [rnd(i + 1, i % 2, "domino", i % 2, (5, 0) if i % 2 == 0 else (0, 5),
             (5, 0), 1, 1, 0, 0, 1, 0) for i in range(4)]
    m = MatchResult("x", 2, 1, ((0,), (1,)), 0, (10, 10), 20, tuple(r))
    # won all 4 rounds; a fair share is 1/2 of them
    assert value("round_leader_advantage", [m], players=2) == 0.5


def test_rows_used_only_by_house_mechanisms_are_hidden_until_some_ruleset_uses_them():
    base = rnd(1, 0, "domino", 0, (30, 5), (30, 5), 10, 8, 0, 2, 10, 4)
    plain = MatchResult("x", 2, 1, ((0,), (1,)), 0, (30, 5), 20, (base,))
    house = MatchResult("x", 2, 1, ((0,), (1,)), 0, (30, 5), 20, (
        base._replace(play_points=(3, 0)),))
    names = feature_names(2)
    metric = next(m for m in metrics_for("main", 2) if m.key == "play_points_per_round")
    assert not shown(metric, [aggregate_matches([plain])], names)
    assert shown(metric, [aggregate_matches([plain]), aggregate_matches([house])], names)
