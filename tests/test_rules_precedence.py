"""Issue 19: two rules deciding the same thing (validate says which wins, the sheet states
only that one), the sheet's lead and example texts, and validate's warnings at once."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import load_ruleset
from dominorules.rules.describe import rule_sheet

ROOT = Path(__file__).resolve().parents[1]
HOYLE = ROOT / "rulesets" / "hoyle.yaml"
MEXICAN = ROOT / "rulesets" / "mexican.yaml"


def _validate(*refs: str):
    return CliRunner().invoke(main, ["validate", *refs])


def test_validate_says_the_heaviest_tile_wins_over_the_leads_redeal():
    out = _validate("house/heaviest-opens")
    assert out.exit_code == 0 and out.stdout == "ok: house/heaviest-opens\n"
    head = out.stderr.splitlines()[0]
    here = ROOT / "rulesets" / "house" / "heaviest-opens.yaml"
    assert head == (
        f"{here}:12:14: warning: opening.if_unheld: heaviest wins over lead.first: "
        f"highest_double ({HOYLE}:26:10) and lead.later: highest_double ({HOYLE}:27:10) in "
        "every round when nobody holds a double: the holder of the heaviest tile dealt "
        "leads and opens with it, no redeal [opening.if_unheld]")


def test_validate_says_the_leads_redeal_wins_over_drawing_in_turn(tmp_path):
    mine = tmp_path / "draws.yaml"
    mine.write_text("title: Mexican, drawing for 6-6\nextends: mexican\nopening:\n"
                    "  if_unheld: draw_in_turn\n")
    out = _validate(str(mine))
    assert out.exit_code == 0
    lines = [x for x in out.stderr.splitlines() if ": warning: " in x]
    assert lines == [
        f"{MEXICAN}:27:10: warning: lead.first: opening_tile_holder wins over "
        f"opening.if_unheld: draw_in_turn ({mine}:4:14) in the first round when nobody "
        "holds 6-6: the tiles are dealt again, as drawing in turn starts from a leader and "
        "there is none [lead.first]",
        f"{MEXICAN}:28:10: warning: lead.later: opening_tile_holder wins over "
        f"opening.if_unheld: draw_in_turn ({mine}:4:14) in later rounds when nobody holds "
        "6-6: the tiles are dealt again, as drawing in turn starts from a leader and there "
        "is none [lead.later]"]
    opening = rule_sheet(load_ruleset(str(mine))).rule("opening").text
    assert opening.endswith("If nobody was dealt it, the tiles are shuffled and dealt again.")


def test_plain_variants_get_no_precedence_warning():
    out = _validate("pagat", "hoyle", "mexican", "vietnamese", "dutch")
    assert out.exit_code == 0 and out.stderr == ""


def test_the_sheet_states_only_the_rule_that_applies():
    sheet = rule_sheet(load_ruleset("house/heaviest-opens"))
    assert sheet.rule("lead").text == (
        "Every round, the leader is the player holding the highest double dealt; if nobody "
        "holds a double, the player holding the heaviest tile dealt, who opens with it.")
    assert "dealt again" not in sheet.rule("lead").text + sheet.rule("opening").text


def test_blocker_leads_first_round_leader_holds_six_six():
    sheet = rule_sheet(load_ruleset("house/blocker-leads"))
    assert sheet.rule("lead").text.startswith(
        "The first round's leader is the player holding 6-6. In later rounds")


def test_a_points_example_tells_both_ends(tmp_path):
    mine = tmp_path / "both.yaml"
    mine.write_text("""title: Both ends
extends: pagat
scoring:
  domino: "sum(opponents.value) + (10 if both_ends else 0)"
examples:
  - title: "A last tile fitting both ends scores 10 more"
    kind: points
    players: 2
    result: domino
    hands: ["", "1-2"]
    last_tile: "3-3"
    both_ends: true
    expect_points: [13, 0]
""")
    out = _validate(str(mine))
    assert out.exit_code == 0, out.stderr
    text = rule_sheet(load_ruleset(str(mine))).rule("examples[0]").text
    assert text == ("2 players, the round ends in a domino; hands: seat 0 empty and seat 1 2-1; "
                    "last tile 3-3; the last tile fitted both ends. Points per player: 13 "
                    "and 0.")


def test_validate_warns_when_some_matches_hit_the_round_cap(tmp_path):
    mine = tmp_path / "exact.yaml"
    mine.write_text("title: Exactly 100, no draw\nextends: pagat\nmatch:\n  target: 100\n"
                    "  exact: true\n")
    out = _validate(str(mine))
    assert out.exit_code == 0 and out.stdout == f"ok: {mine}\n"
    head = out.stderr.splitlines()[0]
    assert re.fullmatch(
        rf"{re.escape(str(mine))}: warning: [1-9][0-9]* of [1-9][0-9]* sample matches with "
        r"[234] players stopped undecided at the round cap \(1000 rounds\): some matches "
        r"never end \[match.target\]", head), head


def test_a_deal_check_is_reported_with_a_formula_error(tmp_path):
    mine = tmp_path / "two.yaml"
    mine.write_text('title: Two problems\nextends: pagat\ndeal:\n  hand_size: 20\nscoring:\n'
                    '  domino: "sum(opponents.valu)"\n')
    out = _validate(str(mine))
    assert out.exit_code == 1
    heads = [x for x in out.stderr.splitlines() if ": error: " in x]
    assert heads == [
        f"{mine}:4:14: error: dealing 20 tiles to each of 2 players needs 40 tiles, but a "
        "double-6 set has 28 [deal.hand_size]",
        f"{mine}:6:26: error: a side has no attribute 'valu'; its attributes are: doubles, "
        "drawn, index, pips, players, rounds_won, score, tiles, value, won [scoring.domino]"]


def test_an_unknown_key_does_not_hide_the_other_checks(tmp_path):
    mine = tmp_path / "three.yaml"
    mine.write_text('title: Three problems\nextends: pagat\ndeal:\n  hand_size: 20\nscoring:\n'
                    '  domino: "sum(opponents.valu)"\ncolour: red\n')
    out = _validate(str(mine))
    assert out.exit_code == 1
    heads = [x.split(": error: ")[1] for x in out.stderr.splitlines() if ": error: " in x]
    assert heads == [
        "dealing 20 tiles to each of 2 players needs 40 tiles, but a double-6 set has 28 "
        "[deal.hand_size]",
        "a side has no attribute 'valu'; its attributes are: doubles, drawn, index, pips, "
        "players, rounds_won, score, tiles, value, won [scoring.domino]",
        "unknown key 'colour' [colour]"]


def test_a_faulty_value_does_not_hide_the_other_checks(tmp_path):
    """A value the schema refuses (not only an unknown key) is checked as if it were not
    written: the rest of the file, on the parent's value there (pagat's reserve of 2 and
    hand of 7), gets its deal and example checks in the same run."""
    mine = tmp_path / "faults.yaml"
    mine.write_text('title: Faults\nextends: pagat\ndrawing:\n  reserve: -1\nboard:\n'
                    '  spinner: yes\nexamples:\n  - title: "short"\n'
                    '    kind: dealt\n    players: 2\n    hands: ["0-1 0-2", "0-5"]\n'
                    '    expect_turn: 0\n')
    out = _validate(str(mine))
    assert out.exit_code == 1
    heads = [x.split(": error: ")[1] for x in out.stderr.splitlines() if ": error: " in x]
    assert heads == [
        "drawing.reserve must be at least 0, not -1 [drawing.reserve]",
        "board.spinner must be one of: none, first_double (not true/false) [board.spinner]",
        "seat 0 is dealt 2 tiles here; with 2 players the deal gives 7 [examples[0].hands[0]]",
        "seat 1 is dealt 1 tiles here; with 2 players the deal gives 7 [examples[0].hands[1]]"]
    assert "note:" not in out.stderr


def test_a_fault_the_rest_cannot_be_checked_without_says_so_in_one_line(tmp_path):
    """An event without ``after`` cannot be cut out without renumbering the events after
    it: the formulas are still checked, and one line says the rest waits."""
    mine = tmp_path / "event.yaml"
    mine.write_text('title: Event\nextends: pagat\nevents:\n  - points: 1\n'
                    'deal:\n  hand_size: 20\n')
    out = _validate(str(mine))
    assert out.exit_code == 1
    lines = out.stderr.splitlines()
    assert [x.split(": error: ")[1] for x in lines if ": error: " in x] == [
        "missing required key 'after' in events[0] [events[0].after]"]
    assert lines[-1] == (f"{mine}: note: the deal, match and example checks run once the "
                         "problems above are fixed")


def test_a_required_tile_the_leader_rarely_holds_is_warned_at_the_files_own_rule(tmp_path):
    """opener: leader with [6|6] under a lot and a rotation: a leader without [6|6] throws
    the deal in (docs/house-rules.md), so most deals are dealt again. Told at the tile the
    file writes, not at pagat's inherited opener."""
    mine = tmp_path / "six.yaml"
    mine.write_text('title: Six-six by the leader\nextends: pagat\nopening:\n  tile: "[6|6]"\n')
    out = _validate(str(mine))
    assert out.exit_code == 0
    heads = [x for x in out.stderr.splitlines() if ": warning: " in x]
    assert heads == [
        f"{mine}:4:9: warning: every round must open with [6|6] by its leader "
        "(opening.opener: leader), but lead.first: lot and lead.later: rotate do not look "
        "for it: a leader who does not hold it throws the deal in, so most deals are dealt "
        "again [opening.opener]"]
    assert "hint: write opener: holder (its holder opens)" in out.stderr


def test_a_lead_that_looks_for_the_tile_or_a_holder_opener_is_not_warned(tmp_path):
    later = tmp_path / "later.yaml"   # hoyle's highest double, but later rounds rotate
    later.write_text("title: Rotating hoyle\nextends: hoyle\nlead:\n  later: rotate\n")
    out = _validate(str(later))
    assert [x.split(": warning: ")[1][:60] for x in out.stderr.splitlines()
            if ": warning: " in x] == ["later rounds must open with the highest double dealt by "
                                        "its "]
    for name in ("hoyle", "mexican", "vietnamese", "dutch", "house/blocker-leads",
                 "house/highest-double-six-six"):
        assert "opener" not in _validate(name).stderr, name
