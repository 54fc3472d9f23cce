"""Rule examples of kind dealt: hands as dealt, played through the ruleset's own redeal,
lead and opening rules and the decisions named, checked by validate and shown by rules."""

from __future__ import annotations

from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import load_ruleset
from dominorules.rules.describe import rule_sheet

NO_DOUBLE = '["0-1 0-2 0-3 0-4 1-2 1-3 2-3", "0-5 0-6 1-4 1-5 1-6 2-4 5-6"]'


def _write(tmp_path, body: str, name: str = "mine.yaml"):
    path = tmp_path / name
    path.write_text(body)
    return path


def _validate(path):
    return CliRunner().invoke(main, ["validate", str(path)])


HOYLE_NO_DOUBLE = f"""title: Hoyle, dealt no double
extends: hoyle
examples:
  - title: "Dealt no double: thrown in"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
    expect_redeal: true
  - title: "Dealt no double: the heaviest tile opens"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
    expect_leader: 1
    expect_legal: ["6-5"]
"""


def test_a_dealt_example_runs_the_real_redeal_and_lead(tmp_path):
    """Hoyle redeals a deal with no double: the first example holds, the second fails,
    each at its line, with what the rules give instead."""
    path = _write(tmp_path, HOYLE_NO_DOUBLE)
    out = _validate(path)
    assert out.exit_code == 1
    heads = [x for x in out.stderr.splitlines() if ": error: " in x]
    assert len(heads) == 1 and heads[0].startswith(f"{path}:9:5: error: example 'Dealt no "
                                                   "double: the heaviest tile opens' fails: ")
    assert "expected leader 1, the rules give " in heads[0]


def test_a_dealt_example_plays_its_decisions_to_the_rounds_end(tmp_path):
    path = _write(tmp_path, """title: Same leader, checked wrong
extends: house/same-leader
examples:
  - title: "Seat 1 leads, round 2 rotates (wrong: same leader)"
    kind: dealt
    players: 2
    hands: ["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2"]
    leader: 1
    play: ["1-1", "1-0 left", "2-1 right", "0-0 left", "2-2 right", "2-0 left", "draw",
           "3-2 left", "3-0 left", "draw", "4-2 right", "4-0 left", "4-1 left", "draw",
           "draw", "draw", "draw", "4-3 right", "3-1 left", "3-3 left", "draw", "5-3 left",
           "5-0 left", "draw", "6-3 right", "6-0 left", "6-1 left", "6-2 right", "5-1 left"]
    expect_points: [0, 7]
    expect_scores: [0, 7]
    expect_next_leader: 0
""")
    out = _validate(path)
    assert out.exit_code == 1
    assert ("fails: expected round 2's leader 0, the rules give 1 [examples[0]]"
            in out.stderr)


def test_an_illegal_decision_is_named(tmp_path):
    path = _write(tmp_path, f"""title: Heaviest, played wrong
extends: house/heaviest-opens
examples:
  - title: "Seat 1 must open with 6-5"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
    play: ["5-0"]
    expect_turn: 0
""")
    out = _validate(path)
    assert out.exit_code == 1
    assert "cannot play the example: play[0] 5-0 is not legal for seat 1" in out.stderr
    assert "(legal: 6-5)" in out.stderr


def test_an_illegal_decision_is_reported_at_its_play_entry(tmp_path):
    """The failure points at the ``play`` entry that cannot be played, in block and in
    flow style, not at the example's first line."""
    path = _write(tmp_path, f"""title: Heaviest, played wrong
extends: house/heaviest-opens
examples:
  - title: "Block style"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
    play:
      - "6-5"
      - "6-6"
    expect_turn: 0
  - title: "Flow style"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
    play: ["6-5", "draw", "draw", "3-3"]
    expect_turn: 0
""")
    out = _validate(path)
    assert out.exit_code == 1
    heads = [x for x in out.stderr.splitlines() if ": error: " in x]
    assert heads == [
        f"{path}:10:9: error: example 'Block style' fails: cannot play the example: play[1] "
        "6-6 is not legal for seat 0: you do not hold 6-6 (legal: draw) [examples[0].play[1]]",
        f"{path}:16:35: error: example 'Flow style' fails: cannot play the example: play[3] "
        "3-3 is not legal for seat 0: you do not hold 3-3 (legal: draw) [examples[1].play[3]]",
    ]


def test_load_checks_of_a_dealt_example(tmp_path):
    path = _write(tmp_path, """title: Bad dealt examples
extends: pagat
examples:
  - title: "Short hands and a counted boneyard"
    kind: dealt
    players: 2
    hands: ["0-1 0-2", "0-5 0-6 1-4 1-5 1-6 2-4 5-6"]
    boneyard: 5
    expect_scores: [1, 2, 3]
    expect_turn: 2
""")
    out = _validate(path)
    assert out.exit_code == 1
    heads = [x for x in out.stderr.splitlines() if ": error: " in x]
    assert heads == [
        f"{path}:7:13: error: seat 0 is dealt 2 tiles here; with 2 players the deal gives 7 "
        "[examples[0].hands[0]]",
        f"{path}:8:15: error: a dealt example's boneyard is its tiles in drawing order, not a "
        "count [examples[0].boneyard]",
        f"{path}:9:20: error: expect_scores has 3 values; there are 2 sides "
        "[examples[0].expect_scores]",
        f"{path}:10:18: error: expect_turn is seat 2, but the seats are 0 to 1 "
        "[examples[0].expect_turn]"]


def test_a_shipped_dealt_example_is_on_the_sheet():
    line = rule_sheet(load_ruleset("house/highest-double-six-six")).rule("examples[0]")
    assert line.text == (
        "2 players dealt seat 0 5-5 1-0 2-0 3-0 4-0 2-1 3-1 and seat 1 5-0 6-0 4-1 5-1 6-1 "
        "4-2 3-2; boneyard drawn from 0-0 6-6 first; played: draw, draw. Then seat 0 leads; "
        "seat 1 is to act; legal: 6-6.")


def test_a_dealt_example_must_expect_something(tmp_path):
    path = _write(tmp_path, f"""title: Nothing expected
extends: pagat
examples:
  - title: "Dealt, nothing checked"
    kind: dealt
    players: 2
    hands: {NO_DOUBLE}
""")
    out = _validate(path)
    assert out.exit_code == 1
    assert out.stderr.splitlines()[0] == (
        f"{path}:4:5: error: examples[0] needs at least one of: expect_leader, expect_redeal, "
        "expect_turn, expect_opening, expect_legal, expect_points, expect_scores, "
        "expect_next_leader, expect_scores_now [examples[0]]")
