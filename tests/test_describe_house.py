"""The rule sheet and diff tell every house-rule mechanism in one plain sentence, and a
plain ruleset's sheet is untouched (tests/test_describe.py pins those)."""

from __future__ import annotations

import json
from pathlib import Path

from dominorules.rules import load_ruleset
from dominorules.rules.describe import render_sheet, rule_keys, rule_sheet
from dominorules.rules.diff import diff, render_diff

HOUSE = str(Path(__file__).parent / "rulesets" / "house" / "every-mechanism.yaml")

# every rule the house file tells differently from pagat, exactly
SENTENCES = {
    "seats": (
        "Seats are numbered clockwise from 0. Play goes to the right, counter-"
        "clockwise: each seat is followed by the one before it, seat 0 by the last; the"
        " lead passes the same way."
    ),
    "deal.redeal_if": (
        "If max(seats.doubles) >= 5 after the deal, the tiles are shuffled and dealt "
        "again."
    ),
    "lead": (
        "The first round's leader is chosen by a fair lot. In later rounds the leader "
        "is the seat given by last_player if last_player_won else last_player + 1, "
        "counted round the table from seat 0 (modulo the number of players)."
    ),
    "opening.allow": (
        "The opening tile must meet: tile.is_double — otherwise: “the round must open "
        "with a double”. A leader holding no such tile draws until they hold one, "
        "drawing the boneyard out if need be; if none comes, the heaviest tile in any "
        "hand (the leader's draws included) opens, played by its holder."
    ),
    "opening.first_round": (
        "The first round opens by its own rule: the first tile must be 6-6: whoever "
        "holds it opens with it at once, and play goes on from their right. If nobody "
        "was dealt it, the heaviest tile dealt opens, played by its holder. The opening"
        " tile must meet: tile.is_double — otherwise: “the round must open with a "
        "double”. A leader holding no such tile draws until they hold one, drawing "
        "the boneyard out if need be; if none comes, the heaviest tile in any hand (the "
        "leader's draws included) opens, played by its holder."
    ),
    "turn": (
        "On their turn a player places one tile at one of the line's open ends, "
        "matching one of its halves to that end's value (a blank matches only a blank)."
        " Doubles lie crosswise in the line. Placing a tile ends the turn."
    ),
    "board.spinner": (
        "The first double placed is a spinner: once both its sides are played on, it "
        "opens two more ends (up to four)."
    ),
    "play.restrictions[0]": (
        "A placement must meet: tile.is_double or not any(playable.is_double) — "
        "otherwise: “you hold a playable double, so you must play one”."
    ),
    "play.if_none_allowed": (
        "When the placement rules forbid every playable tile a player holds, they are "
        "lifted for that turn."
    ),
    "events[0]": (
        "After a placement, if end_total % 5 == 0: the player scores end_total."
    ),
    "events[1]": (
        "After a placement, if tile.is_double: the player plays again."
    ),
    "events[2]": (
        "After each tile drawn, if forced: the player loses 1 point and each opponent "
        "scores 1 point."
    ),
    "events[3]": (
        "After a pass: the next player loses their turn."
    ),
    "scoring.blocked": (
        "In a blocked round the player whose rank, side.value + side.tiles, is lowest "
        "wins and scores the sum of the opponents' hand values minus the winner's own "
        "hand value (formula: sum(opponents.value) - winner.value); if two or more "
        "players tie for lowest, the player who made the last placement wins if they "
        "are among them; otherwise nobody scores. Only the player who made the last "
        "placement and the next player are compared."
    ),
    "scoring.domino_winner": (
        "A player who dominoes does not win the round outright: it is settled like a "
        "blocked round, the dominoer's empty hand counting 0, and the player the "
        "comparison picks scores the blocked round's points."
    ),
    "scoring.every_side": (
        "After each round every player (the winner too) also scores -side.value."
    ),
    "match.tie": (
        "The lowest score wins; a tie for the lowest score is a drawn match."
    ),
    "match.exact": (
        "The target must be reached exactly: a player whose round points would take "
        "them past the target scores nothing that round."
    ),
    "match.minimum_to_start": (
        "A player with no score yet scores a round's points only if they are at least "
        "10."
    ),
    "match.draw_if": (
        "After each round, if round >= 20, a match not yet won ends drawn."
    ),
    "match.final": (
        "When the match ends, after its winner is decided, each player's final score is"
        " side.score * 2 if side.won else side.score."
    ),
}


def write(tmp_path: Path, text: str, base: str = "pagat") -> str:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {base}\ntitle: A house rule\n" + text, encoding="utf-8")
    return str(path)


def test_every_mechanism_gets_its_sentence():
    sheet = rule_sheet(load_ruleset(HOUSE))
    for key, text in SENTENCES.items():
        assert sheet.rule(key).text == text, key


def test_the_diff_shows_each_differing_house_rule_in_table_order():
    d = diff(load_ruleset("pagat"), load_ruleset(HOUSE))
    assert d.keys() == list(SENTENCES)
    assert {r.key: r.b.text for r in d.rules} == SENTENCES
    added = [r.key for r in d.rules if r.a.text == "No such rule."]
    assert added == ["deal.redeal_if", "opening.allow", "opening.first_round", "board.spinner",
                     "play.restrictions[0]", "play.if_none_allowed", "events[0]", "events[1]",
                     "events[2]", "events[3]", "scoring.domino_winner", "scoring.every_side",
                     "match.exact", "match.minimum_to_start", "match.draw_if", "match.final"]
    # and the other way round, the house file's rules are what pagat lacks
    back = diff(load_ruleset(HOUSE), load_ruleset("pagat"))
    assert [r.key for r in back.rules if r.b.text == "No such rule."] == added


def test_diff_text_markdown_and_json_of_a_house_rule(tmp_path: Path):
    house = write(tmp_path, "events:\n  - title: Fives\n    after: place\n"
                            '    if: "end_total % 5 == 0"\n    points: end_total\n')
    d = diff(load_ruleset("pagat"), load_ruleset(house))
    assert render_diff(d, "text").splitlines()[2:] == [
        "1 rule differs.", "", "A turn", "------", "Fives:",
        "  pagat  No such rule.",
        "  house  After a placement, if end_total % 5 == 0: the player scores end_total."]
    md = render_diff(d, "markdown").splitlines()
    assert md[-1] == ("| Fives | No such rule. | After a placement, if `end_total % 5 == 0`: "
                      "the player scores `end_total`. |")
    assert json.loads(render_diff(d, "json"))["differences"] == [
        {"section": "A turn", "key": "events[0]", "title": "Fives", "a": "No such rule.",
         "b": "After a placement, if end_total % 5 == 0: the player scores end_total."}]


def test_sheet_formats_carry_the_house_rules():
    sheet = rule_sheet(load_ruleset(HOUSE))
    md = render_sheet(sheet, "markdown").splitlines()
    assert ("- **Placement rule 1.** A placement must meet: "
            "`tile.is_double or not any(playable.is_double)` \u2014 otherwise: \u201cyou hold "
            "a playable double, so you must play one\u201d.") in md
    turn = [s for s in json.loads(render_sheet(sheet, "json"))["sections"]
            if s["title"] == "A turn"][0]["rules"]
    assert turn[-1] == {"key": "events[3]", "title": "Play-time rule 4",
                        "text": "After a pass: the next player loses their turn.",
                        "formulas": []}
    assert "- Spinner. The first double placed is a spinner: once both its sides are played " \
           "on, it" in render_sheet(sheet, "text")


def test_a_plain_ruleset_tells_no_house_rule():
    optional = set(rule_keys(optional=True)) - set(rule_keys())
    keys = {line.key.partition("[")[0] for sec in rule_sheet(load_ruleset("pagat")).sections
            for line in sec.rules}
    assert optional and not optional & keys


def test_partnership_match_formats(tmp_path: Path):
    house = write(tmp_path, "match:\n  end: rounds_won\n  target: 3\n"
                            "scoring:\n  every_side: 5\n"
                            "events:\n  - after: place\n    if: both_ends\n    points: 10\n"
                            "    each_opponent: -10\n    skip: 2\n", base="mexican")
    sheet = rule_sheet(load_ruleset(house))
    assert sheet.rule("match.target").text == "The match is won by the first side to win 3 rounds."
    assert sheet.rule("match.tie").text == "Points are kept, but only rounds won decide the match."
    assert sheet.rule("scoring.every_side").text == (
        "After each round every side (the winning side too) also scores 5 points.")
    assert sheet.rule("events[0]").text == (
        "After a placement, if both_ends: the player's side scores 10 points, the other side "
        "loses 10 points and the next 2 players lose their turn.")


def test_fixed_rounds_lowest_wins(tmp_path: Path):
    house = write(tmp_path, "match:\n  end: rounds\n  target: 5\n  winner: lowest\n"
                            "  tie: play_on\n")
    sheet = rule_sheet(load_ruleset(house))
    assert sheet.rule("match.target").text == "The match ends after 5 rounds."
    assert sheet.rule("match.tie").text == (
        "The lowest score wins; if the lowest scores tie, another round is played.")


def test_highest_rank_ties_to_the_next_player_in_partnerships(tmp_path: Path):
    house = write(tmp_path, "scoring:\n  blocked:\n    winner: highest\n    rank: 7\n"
                            "    tie: next_player\n", base="mexican")
    assert rule_sheet(load_ruleset(house)).rule("scoring.blocked").text == (
        "In a blocked round the side whose rank, 7, is highest wins and scores the sum of "
        "the opposing side's hand values (formula: sum(opponents.value)); if two or more "
        "sides tie for highest, the side of the player who follows the last placement in "
        "turn wins if it is among them; otherwise nobody scores.")
