"""``match.ends_in_play`` (engine/mechanisms/match.reached_in_play): house/muggins-wins-in-play
stops the match the moment play-time points reach the target."""

from __future__ import annotations

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms.match import reached_in_play
from dominorules.kernel import generate
from dominorules.rules import check_ruleset

MUGGINS = "house/muggins-wins-in-play"


def test_the_side_alone_at_the_top_and_at_the_target_has_won():
    assert reached_in_play(True, [150, 20], 150) == 0
    assert reached_in_play(True, [150, 150], 150) is None   # tied at the top: play on
    assert reached_in_play(True, [140, 20], 150) is None
    assert reached_in_play(False, [200, 0], 150) is None    # the switch off: never


def test_an_opening_that_reaches_the_target_ends_the_match_there():
    game = api.load_game(MUGGINS)
    deal = Deal.of(["5-5 0-1 0-2 0-3 0-4 1-2 1-3", "0-5 0-6 1-4 1-5 1-6 2-4 2-3"], (),
                   leader=0)
    state = game.new_match(2, seed=0, deals=[deal], start_scores=[140, 0])
    state.apply("5-5")
    assert state.is_terminal
    record = state.record
    assert [e["event"] for e in record[-4:]] == ["place", "score", "round_end", "match_end"]
    assert record[-3]["points"] == 10
    end = record[-2]
    assert (end["result"], end["winner"], end["points"], end["scores"]) == \
        ("target", None, [0, 0], [150, 0])
    assert record[-1] == {"event": "match_end", "winner": 0, "scores": [150, 0]}


def test_matches_stop_mid_round_and_both_readers_agree(tmp_path):
    game = api.load_game(MUGGINS)
    assert not generate.covers(game)
    stopped = 0
    for seed in range(6):
        result = api.play_match(game, 3, seed, trace=True)
        events = result.events
        end = [e for e in events if e["event"] == "round_end"][-1]
        if end["result"] == "target":
            stopped += 1
            assert events[-1]["event"] == "match_end" and events[-2] is end
            assert events[-3]["event"] == "score"
            top = max(end["scores"])
            assert top >= result.target and end["scores"].count(top) == 1
            assert events[-1]["winner"] == end["scores"].index(top)
        path = tmp_path / f"{seed}.jsonl"
        records.write_records(str(path), events)
        assert records.verify_file(str(path)) == []
        assert records.check_file_strict(str(path)) == []
    assert stopped >= 2


@pytest.mark.parametrize("match, words", [
    ("match:\n  ends_in_play: true\n  end: rounds\n  target: 5\n", "ends on rounds"),
    ("match:\n  ends_in_play: true\n", "no event scores during play"),
])
def test_ends_in_play_without_effect_is_refused(tmp_path, match, words):
    path = tmp_path / "bad.yaml"
    path.write_text("title: Bad\nextends: pagat\n" + match, encoding="utf-8")
    problems = check_ruleset(str(path))
    assert any(words in p.message for p in problems), [p.message for p in problems]
    assert all(p.path == "match.ends_in_play" and p.line == 4 for p in problems)


@pytest.mark.parametrize("name, players", [(MUGGINS, 2), ("house/tied-stake-grows", 4),
                                           ("house/four-in-a-row", 4)])
def test_the_specialised_loop_gives_the_loops_own_records(name, players):
    """The fast path of these rulesets is the general loop's source specialised
    (``kernel.specialise_loop``): the same records, seed for seed."""
    game = api.load_game(name)
    for seed in range(3):
        fast = api.play_match(game, players, seed, trace=True, engine="python")
        loop = api.play_match(game, players, seed, trace=True, engine="loop")
        assert fast.events == loop.events


def test_a_record_that_hides_the_stop_is_refused_by_both_readers(tmp_path):
    game = api.load_game(MUGGINS)
    events = next(r.events for r in (api.play_match(game, 3, s, trace=True) for s in range(6))
                  if r.events[-2]["result"] == "target")
    events[-2] = {**events[-2], "result": "blocked"}
    path = tmp_path / "bad.jsonl"
    records.write_records(str(path), events)
    [problem] = records.verify_file(str(path))
    assert "result should be target, not blocked" in problem.message
    [strict] = records.check_file_strict(str(path))
    assert 'the rules say "target"' in strict.message
