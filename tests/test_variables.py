"""Round and match variables (``variables:``, engine/mechanisms/variables.py): the stake
of house/tied-stake-grows played, recorded, verified and checked at load."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.diagnostics import DiagnosticError
from dominorules.engine.game_rules import Variable
from dominorules.engine.mechanisms import variables
from dominorules.kernel import generate, jit_kernel
from dominorules.rules import check_ruleset

STAKE = "house/tied-stake-grows"


def _match_with_a_tie(game) -> list[dict]:
    """The first seeded match of the stake ruleset that has a tied (unwon) round."""
    for seed in range(60):
        events = api.play_match(game, 4, seed, trace=True).events
        if any(e["event"] == "round_end" and e["winner"] is None for e in events):
            return events
    raise AssertionError("no tied round in 60 matches")


def test_the_stake_grows_after_a_tie_and_multiplies_the_next_won_hand():
    game = api.load_game(STAKE)
    events = _match_with_a_tie(game)
    ends = [e for e in events if e["event"] == "round_end"]
    stake = 1
    for end in ends:
        if end["winner"] is None:
            assert end["points"] == [0, 0]
        else:   # the winner's points are the stake in force times its plain points
            assert end["points"][end["winner"]] % stake == 0
        stake = 1 if end["winner"] is not None else stake + 1
        assert end["variables"] == {"stake": stake}
    assert any(e["variables"]["stake"] == 2 for e in ends)


def test_verify_and_the_rulebook_accept_the_record_and_reject_a_wrong_stake(tmp_path):
    events = _match_with_a_tie(api.load_game(STAKE))
    good = tmp_path / "good.jsonl"
    records.write_records(str(good), events)
    assert records.verify_file(str(good)) == []
    assert records.check_file_strict(str(good)) == []
    tied = next(i for i, e in enumerate(events)
                if e["event"] == "round_end" and e["winner"] is None)
    bad_events = json.loads(json.dumps(events))
    bad_events[tied]["variables"]["stake"] = 5
    bad = tmp_path / "bad.jsonl"
    records.write_records(str(bad), bad_events)
    [problem] = records.verify_file(str(bad))
    assert "variables should be {'stake': 2}" in problem.message
    [strict] = records.check_file_strict(str(bad))
    assert 'the rules say {"stake": 2}' in strict.message


def test_after_round_reads_the_old_values_all_at_once():
    bump = Variable("a", 1, lambda env: env["b"] + 1)
    copy = Variable("b", 10, lambda env: env["a"])
    facts = variables.round_facts(True, 1, 2, 100, None, [0, 0], [0, 0])
    assert variables.after_round((bump, copy), {"a": 1, "b": 10}, facts) == {"a": 11, "b": 1}


def test_python_leaves_a_ruleset_with_variables_to_the_general_loop_the_jit_plays_it():
    game = api.load_game(STAKE)
    assert not generate.covers(game)
    # the JIT plays them (tests/test_kernel_jit_house.py: four-in-a-row, tied-stake-grows)
    assert jit_kernel.jit_reason(game, 4, need_numba=False) is None
    assert api.load_game("pagat").rules.variables == ()


@pytest.mark.parametrize("body, line, column, words", [
    ("variables:\n  round: {initial: 1}\n", 4, 3, "cannot be called 'round'"),
    ("variables:\n  Big-Stake: {initial: 1}\n", 4, 3, "lower-case word"),
    ("variables:\n  stake:\n    initial: 1\n    after_round: \"stake + blocked\"\n", 6, 27,
     "needs integers"),
    ("scoring:\n  domino: \"stakes * 2\"\n", 4, 12, "did you mean 'stake'"),
])
def test_validate_names_the_bad_variable_with_its_place(tmp_path, body, line, column, words):
    path = tmp_path / "bad.yaml"
    path.write_text("title: Bad\nextends: house/tied-stake-grows\n" + body, encoding="utf-8")
    problems = check_ruleset(str(path))
    found = [p for p in problems if words in p.message or words in (p.hint or "")]
    assert found, [p.message for p in problems]
    assert (found[0].line, found[0].column) == (line, column)


def test_an_example_naming_no_variable_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "title: Bad\nextends: house/tied-stake-grows\nexamples:\n"
        "  - title: x\n    kind: points\n    players: 4\n    result: domino\n"
        "    hands: ['', '1-2', '6-6', '2-3']\n    variables: {stak: 2}\n"
        "    expect_points: [16, 0]\n", encoding="utf-8")
    [problem] = check_ruleset(str(path))
    assert "'stak', which is no variable" in problem.message
    assert problem.line == 9


def test_a_variable_that_grows_without_bound_stops_the_match_with_one_message(tmp_path):
    path = tmp_path / "grow.yaml"
    path.write_text("title: Grows\nextends: pagat\nvariables:\n  big:\n    initial: 10\n"
                    "    after_round: \"big * big * big * big * big * big\"\n", encoding="utf-8")
    game = api.load_game(str(path))
    with pytest.raises(DiagnosticError) as caught:
        for seed in range(20):
            api.play_match(game, 2, seed)
    [problem] = caught.value.diagnostics
    assert problem.message.startswith("variable big outgrew 1000 digits")
    assert problem.path == "variables.big.after_round"
