"""Broken input of every kind gets one readable message naming where it is and a hint
saying what would fix it: a YAML slip, a value out of the schema's range or of the
wrong type, a formula of the wrong type, an impossible deal, a bad command-line option,
a bad line typed at the prompt, a record cut short or edited. Each case is the exact
text a person sees."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dominorules import api
from dominorules.cli import main
from dominorules.play.commands import Refusal, board_help, help_text, interpret
from dominorules.play.replay import KEYS, replay_refusal
from dominorules.records import verify_file
from dominorules.rules import check_ruleset


def rendered(tmp_path: Path, text: str) -> list[str]:
    """Every error (notes left out) as the CLI renders it, the file named broken.yaml."""
    path = tmp_path / "broken.yaml"
    full = "extends: pagat\n" + ("" if "title:" in text else "title: Broken\n") + text
    path.write_text(full, encoding="utf-8")
    return [d.render(full).replace(str(path), "broken.yaml")
            for d in check_ruleset(str(path)) if d.severity != "note"]


RULESETS = [
    # YAML
    ("deal:\n\thand_size: 7\n",
     "broken.yaml:4:1: error: found character that cannot start any token (while scanning "
     "for the next token)\n"
     "    4 | \thand_size: 7\n"
     "      | ^\n"
     "  hint: YAML indents with spaces, not tabs: replace the tab with spaces"),
    ('description: "never closed\n',
     "broken.yaml:3:14: error: found unexpected end of stream (while scanning a quoted "
     "scalar)\n"
     '    3 | description: "never closed\n'
     "      |              ^\n"
     "  hint: a quoted value is not closed: end it with the quote it starts with"),
    ("players:\n  min: 2\n   max: 4\n",
     "broken.yaml:5:7: error: mapping values are not allowed in this context\n"
     "    5 |    max: 4\n"
     "      |       ^\n"
     "  hint: this line is indented more than the one above: the keys of one mapping start "
     "in the same column"),
    ("description: Draw: the plain game\n",
     "broken.yaml:3:18: error: mapping values are not allowed in this context\n"
     "    3 | description: Draw: the plain game\n"
     "      |                  ^\n"
     "  hint: a value holding ': ' needs quotes, e.g. title: \"Draw: the plain game\""),
    # the schema: ranges, sizes, types, forms
    ("players:\n  min: 0\n  max: 4\n",
     "broken.yaml:4:8: error: players.min must be at least 2, not 0 [players.min]\n"
     "    4 |   min: 0\n"
     "      |        ^\n"
     "  hint: write a whole number from 2 to 16. The fewest players the ruleset allows."),
    ("set:\n  max_pip: 40\n",
     "broken.yaml:4:12: error: set.max_pip must be at most 20, not 40 [set.max_pip]\n"
     "    4 |   max_pip: 40\n"
     "      |            ^\n"
     "  hint: write a whole number from 1 to 20. A double-N set holds every tile [a|b] with "
     "0 <= a <= b <= N: (N+1)(N+2)/2 tiles (double-six: 28)."),
    ("drawing:\n  limit: -1\n",
     "broken.yaml:4:10: error: drawing.limit must be at least 1, not -1 [drawing.limit]\n"
     "    4 |   limit: -1\n"
     "      |          ^\n"
     "  hint: write a whole number of 1 or more, or null. The most tiles drawn in one turn; "
     "null: no limit."),
    ("title: ''\n",
     "broken.yaml:2:8: error: title must not be empty [title]\n"
     "    2 | title: ''\n"
     "      |        ^\n"
     "  hint: write some text. The ruleset's full title, shown at the top of its rule sheet."),
    ('matching:\n  fits: "end + half == 7"\n  wild: []\n',
     "broken.yaml:5:9: error: matching.wild must hold at least 1 item [matching.wild]\n"
     "    5 |   wild: []\n"
     "      |         ^\n"
     "  hint: list at least 1, or leave matching.wild out. The wild tiles, each written as a "
     'quoted string such as "[6|1]".'),
    ("players: 4\n",
     "broken.yaml:3:10: error: players must be a mapping, not the integer 4 [players]\n"
     "    3 | players: 4\n"
     "      |          ^\n"
     "  hint: write its keys on the lines below, indented (key: value). How many play, and "
     "how they form sides."),
    ("players:\n  min: two\n  max: 4\n",
     "broken.yaml:4:8: error: players.min must be an integer, not the string 'two' "
     "[players.min]\n"
     "    4 |   min: two\n"
     "      |        ^\n"
     "  hint: write a whole number without quotes, e.g. 2. The fewest players the ruleset "
     "allows."),
    ("set:\n  copies: 5\n",
     "broken.yaml:4:11: error: set.copies must be one of: 1, 2 (not the integer 5) "
     "[set.copies]\n"
     "    4 |   copies: 5\n"
     "      |           ^\n"
     "  hint: expected one of: 1, 2"),
    ('name: "Bad Name!"\n',
     "broken.yaml:3:7: error: name: the string 'Bad Name!' is not in the expected form "
     "[name]\n"
     '    3 | name: "Bad Name!"\n'
     "      |       ^\n"
     "  hint: use letters, digits and _ . / -, with no spaces, starting with a letter, a "
     "digit or _: my-rules. The name users type. Defaults to the file's stem "
     "(`house/<stem>` for a builtin house rule). Never inherited through `extends`."),
    ('set:\n  without: ["6-6"]\n',
     "broken.yaml:4:13: error: set.without[0]: the string '6-6' is not in the expected form "
     "[set.without[0]]\n"
     '    4 |   without: ["6-6"]\n'
     "      |             ^\n"
     '  hint: write the tile in brackets, quoted: "[6|6]". A tile such as "[6|6]".'),
    ("board:\n  layout:\n    trains: true\n    shared_train: left\n",
     "broken.yaml:6:19: error: board.layout.shared_train may not be the string 'left' "
     "[board.layout.shared_train]\n"
     "    6 |     shared_train: left\n"
     "      |                   ^\n"
     "  hint: pick another; these are taken: left, right, up, down, train. With trains: one "
     "more train grows from the station, by this name, which any seat may play on "
     "(mexican: the Mexican train). Moves name it by the name or its first letter (12-5 "
     "mexican, 12-5 m)."),
    ("events:\n  - points: 1\n",
     "broken.yaml:4:5: error: missing required key 'after' in events[0] [events[0].after]\n"
     "    4 |   - points: 1\n"
     "      |     ^\n"
     "  hint: add after: to events[0]. What fires the rule: a placement, a tile drawn in a "
     "turn (the draws for the opening tile fire none), or a pass."),
    ("lead:\n  later: [1]\n",
     "broken.yaml:4:10: error: lead.later must be one of: lot, seat_zero, highest_double, "
     "opening_tile_holder, draw_highest_tile, exposed_tiles, rotate, same, winner, or a "
     "formula (not a list) [lead.later]\n"
     "    4 |   later: [1]\n"
     "      |          ^\n"
     '  hint: write one of the names listed, or a formula, e.g. "winner if winner >= 0 else '
     'leader + 1"'),
    # formulas
    ('set:\n  keep: "tile.high"\n',
     "broken.yaml:4:10: error: set.keep must be a boolean, this expression is an integer "
     "[set.keep]\n"
     '    4 |   keep: "tile.high"\n'
     "      |          ^^^^^^^^^\n"
     "  hint: compare it to make a condition, e.g. 'tile.high == 6' or 'tile.high > 0'"),
    ('scoring:\n  tile_value: "tile.is_double"\n',
     "broken.yaml:4:16: error: scoring.tile_value must be an integer, this expression is a "
     "boolean [scoring.tile_value]\n"
     '    4 |   tile_value: "tile.is_double"\n'
     "      |                ^^^^^^^^^^^^^^\n"
     "  hint: turn the condition into a number, e.g. '1 if tile.is_double else 0'"),
    ('scoring:\n  tile_value: "tile + 1"\n',
     "broken.yaml:4:16: error: '+' needs integers, the left operand is a tile "
     "[scoring.tile_value]\n"
     '    4 |   tile_value: "tile + 1"\n'
     "      |                ^^^^\n"
     "  hint: read a number from a tile: tile.pips, tile.high or tile.low"),
    ('scoring:\n  tile_value: "abs(tile.low, tile.high)"\n',
     "broken.yaml:4:16: error: abs takes one integer, it was given 2 arguments "
     "[scoring.tile_value]\n"
     '    4 |   tile_value: "abs(tile.low, tile.high)"\n'
     "      |                ^^^\n"
     "  hint: e.g. abs(a - b)"),
    ('scoring:\n  tile_value: "tile.pips // \'two\'"\n',
     "broken.yaml:4:29: error: unexpected character \"'\" [scoring.tile_value]\n"
     "    4 |   tile_value: \"tile.pips // 'two'\"\n"
     "      |                             ^\n"
     "  hint: formulas have no text values; a tile is written [6|4]"),
    ('scoring:\n  domino: "sum(winner.pips)"\n',
     "broken.yaml:4:16: error: sum takes one list of integers, this is an integer "
     "[scoring.domino]\n"
     '    4 |   domino: "sum(winner.pips)"\n'
     "      |                ^^^^^^^^^^^\n"
     "  hint: winner.pips is one number already: write it without sum(...)"),
    ('deal:\n  hand_size: "7 if players else 6"\n',
     "broken.yaml:4:20: error: the condition after 'if' must be a boolean, this is an "
     "integer [deal.hand_size]\n"
     '    4 |   hand_size: "7 if players else 6"\n'
     "      |                    ^^^^^^^\n"
     "  hint: compare it to make a condition, e.g. 'players == 6' or 'players > 0'"),
    ('scoring:\n  domino: "zebra"\n',
     "broken.yaml:4:12: error: unknown name 'zebra'; scoring offers: blocked, boneyard, "
     "boneyard_pips, boneyard_value, both_ends, drawn, end_total, ends, last_player, "
     "last_tile, opponents, passes, players, round, seats, sides, target, winner "
     "[scoring.domino]\n"
     '    4 |   domino: "zebra"\n'
     "      |            ^^^^^\n"
     "  hint: use one of the names listed, or declare it under variables:"),
    ('match:\n  target: "players +"\n',
     "broken.yaml:4:21: error: the expression ends too early; expected a name, a number, "
     "'(', '-', '[', 'false' or 'true' [match.target]\n"
     '    4 |   target: "players +"\n'
     "      |                     ^\n"
     "  hint: write what comes after '+', or remove it"),
    # impossible values a formula or the deal gives
    ("players:\n  min: 4\n  max: 4\ndeal:\n  hand_size: 8\n",
     "broken.yaml:7:14: error: dealing 8 tiles to each of 4 players needs 32 tiles, but a "
     "double-6 set has 28 [deal.hand_size]\n"
     "    7 |   hand_size: 8\n"
     "      |              ^\n"
     "  hint: deal fewer tiles, allow fewer players, or use a larger set (set.max_pip)"),
    ('match:\n  target: "0 if players == 4 else 61"\n',
     "broken.yaml:4:11: error: match.target gives 0 with 4 players; it must be at least 1 "
     "[match.target]\n"
     '    4 |   target: "0 if players == 4 else 61"\n'
     "      |           ^\n"
     "  hint: make the formula give at least 1 for every allowed player count"),
]


@pytest.mark.parametrize("text, message", RULESETS, ids=[str(i) for i in range(len(RULESETS))])
def test_a_broken_ruleset_gets_one_message_with_its_fix(tmp_path, text, message):
    assert rendered(tmp_path, text) == [message]


def test_every_pattern_in_the_schema_says_how_its_form_is_written():
    from dominorules.rules.schema import ruleset_schema

    def patterns(node, path=""):
        if isinstance(node, dict):
            if "pattern" in node and "anyOf" not in path:
                yield path, node
            for key, sub in node.items():
                yield from patterns(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                yield from patterns(sub, f"{path}[{i}]")

    found = dict(patterns(ruleset_schema()))
    assert len(found) >= 9
    # each says how to write it: an x-hint, or a description quoting the forms
    assert [p for p, node in found.items() if "x-hint" not in node and
            node.get("description", "").count('"') < 4] == []


# -- the prompt -----------------------------------------------------------------------------

COMMANDS = "hint, rules, ? (help), quit"


@pytest.fixture(scope="module")
def opening():
    """Dutch, seat 0 to open with a fixed deal."""
    game = api.load_game("dutch")
    deal = api.Deal.of(["6-6 1-2 3-3 0-0 4-5 2-2 1-1", "6-5 6-4 6-3 6-2 6-1 6-0 5-5"],
                       leader=0)
    return game.new_match(2, seed=1, deals=[deal])


@pytest.mark.parametrize("typed, message", [
    ("hint x", f"hint takes no argument: type hint alone; the commands are {COMMANDS}"),
    ("rules please", f"rules takes no argument: type rules alone; the commands are {COMMANDS}"),
    ("? me", f"? takes no argument: type ? alone; the commands are {COMMANDS}"),
    ("quit now", f"quit takes no argument: type quit alone; the commands are {COMMANDS}"),
    ("draw 2", "draw takes no argument: type draw alone to draw"),
    ("p x", "p takes no argument: type p alone to pass"),
    ("1 2", "a move number stands alone: type 1, or the move itself (6-4 left)"),
    ("hnt", "'hnt' is not a move or a command (did you mean hint?): type a move (its "
            f"number, 6-4 left, draw, pass) or a command: {COMMANDS}"),
    ("zebra", "'zebra' is not a move or a command: type a move (its number, 6-4 left, draw, "
              f"pass) or a command: {COMMANDS}"),
    ("6-x", "'6-x' is not a tile: write it like 6-4"),
])
def test_a_bad_line_at_the_prompt_says_what_to_type(opening, typed, message):
    assert interpret(typed, opening) == Refusal(message)


def test_the_help_lists_every_command_and_the_boards_own_moves():
    board = board_help(api.load_game("house/mexican-train").rules)
    assert help_text(None, board=board).splitlines()[3:] == [
        "  draw (d)               draw a tile from the boneyard",
        "  pass (p)               pass",
        "  6-4 train 2 (t2)       place a tile on seat 2's train",
        "  6-4 mexican (m)        place a tile on the mexican train",
        "  6-4 t0 + 4-1 t0        several tiles in one move, joined by +",
        "Commands (each typed alone, without anything after it):",
        "  hint                   ask the strongest bot for a move, and why",
        "  rules                  show the rule sheet of this ruleset",
        "  ? (help)               this help",
        "  quit (q, exit)         leave the match"]
    assert board_help(api.load_game("house/spinner").rules) == (
        "\n  6-4 up / 6-4 down      place a tile on a spinner's up or down end")
    assert board_help(api.load_game("house/chicken-foot").rules) == (
        "\n  6-4 5-5/2              place a tile on arm 2 of the 5-5")
    assert board_help(api.load_game("pagat").rules) == ""


def test_play_with_piped_input_refuses_each_bad_line_and_goes_on():
    result = CliRunner().invoke(main, ["play", "pagat", "--seed", "1", "--fast"],
                                input="hint x\n1 2\n", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-4:] == [
        f"Seat 0 > ✗ hint takes no argument: type hint alone; the commands are {COMMANDS}",
        "Seat 0 > ✗ a move number stands alone: type 1, or the move itself (6-4 left)",
        "Seat 0 > ",
        "End of input: the match is left unfinished."]


@pytest.mark.parametrize("typed, message", [
    ("b x", f"'b' stands alone: type it without 'x'. {KEYS} (events 1 to 40)"),
    ("q now", f"'q' stands alone: type it without 'now'. {KEYS} (events 1 to 40)"),
    ("5 6", f"'5' stands alone: type it without '6'. {KEYS} (events 1 to 40)"),
    ("99", "there is no event 99: the record holds events 1 to 40"),
    ("foo", f"'foo': {KEYS} (events 1 to 40)"),
])
def test_a_bad_line_at_the_replay_prompt_says_what_to_type(typed, message):
    assert replay_refusal(typed, 40) == message


# -- the command line -----------------------------------------------------------------------

def _run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("args, code, lines", [
    (["simulate", "pagat", "--players", "9"], 2,
     ["error: pagat is played by 2 to 4 players, not 9",
      "  hint: play with 2, 3 or 4 players (--players)"]),
    (["play", "pagat", "--humans", "7"], 2,
     ["error: there is no seat 7: pagat seats at most 4 players (seats 0 to 3)",
      "  hint: give --humans seats from 0 to 3"]),
    (["simulate", "pagat", "--seed", "abc"], 2,
     ["Usage: main simulate [OPTIONS] RULESET",
      "Try 'main simulate --help' for help.", "",
      "Error: Invalid value for '--seed': 'abc' is not a whole number: a seed is one, e.g. "
      "--seed 7 (the same seed plays the same matches)"]),
    (["simulate", "pagat", "--matches", "0"], 2,
     ["Usage: main simulate [OPTIONS] RULESET",
      "Try 'main simulate --help' for help.", "",
      "Error: Invalid value for '--matches': 0 is not in the range 1<=x<=1000000000."]),
    (["simulate", "house/all-five"], 2,
     ["house/all-five: error: no builtin ruleset or file named 'house/all-five'",
      "  hint: did you mean 'house/all-fives'? (`dominorules list` shows them all)"]),
])
def test_a_bad_option_is_one_message_with_its_fix(args, code, lines):
    result = _run(*args)
    assert result.exit_code == code
    assert result.stderr.splitlines() == lines


def test_a_ruleset_from_standard_input_is_named_stdin():
    result = CliRunner().invoke(main, ["validate", "-"],
                                input='extends: pagat\nset:\n  keep: "tile.high"\n')
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "<stdin>:3:10: error: set.keep must be a boolean, this expression is an integer "
        "[set.keep]")


# -- records --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def record(tmp_path_factory) -> list[str]:
    """The lines of one short match's record, as --trace writes them."""
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    assert _run("simulate", "pagat", "--matches", "1", "--seed", "3", "--trace",
                str(path)).exit_code == 0
    return path.read_text(encoding="utf-8").splitlines()


EDITED = ("this line does not follow from the lines before it: the record was edited, or "
          "written by another version (docs/records.md tells each event's fields)")


def _problems(tmp_path: Path, name: str, text: str) -> list[tuple[int, str, str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(d.line, d.message, d.hint.replace(str(path), name)) for d in verify_file(str(path))]


def test_a_record_cut_short_or_edited_says_what_happened(tmp_path, record):
    whole = "\n".join(record) + "\n"
    cut = whole[:whole.index("\n", 400) + 30]     # the file stops inside a line
    assert _problems(tmp_path, "cut.jsonl", cut) == [
        (cut.count("\n") + 1, "not JSON: " + _json_error(cut.splitlines()[-1]),
         "the last line is cut short: the file was truncated while it was written")]
    assert _problems(tmp_path, "quit.jsonl", "\n".join(record[:5]) + "\n") == [
        (5, "the record ends before the match is over",
         "the last match stops before it ends (left at the table, or the file cut short): "
         "`dominorules replay quit.jsonl` shows it up to there")]
    lines = list(record)
    lines[3] = lines[3][:-1]
    assert _problems(tmp_path, "badline.jsonl", "\n".join(lines) + "\n") == [
        (4, "not JSON: " + _json_error(lines[3]),
         "each line of a record is one JSON object, as --trace writes it: was this line "
         "edited?")]
    lines = list(record)
    lines.insert(2, '{"event": "bogus"}')
    [(line, message, hint)] = _problems(tmp_path, "bogus.jsonl", "\n".join(lines) + "\n")
    assert (line, hint) == (3, EDITED) and message.startswith("unknown event 'bogus'")


def test_a_ruleset_or_nothing_given_as_a_record_says_what_to_give(tmp_path):
    assert _problems(tmp_path, "rules.yaml", "extends: pagat\n") == [
        (1, "not JSON: Expecting value",
         "rules.yaml looks like a ruleset: `dominorules validate rules.yaml` checks one; "
         "verify and replay read a game record")]
    assert _problems(tmp_path, "empty.jsonl", "") == [
        (0, "the record holds no events",
         "give a game record as --trace writes one (dominorules simulate RULESET --matches 1 "
         "--trace game.jsonl)")]


def test_verify_prints_the_hint_under_its_line(tmp_path, record):
    path = tmp_path / "quit.jsonl"
    path.write_text("\n".join(record[:5]) + "\n", encoding="utf-8")
    result = _run("verify", str(path))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:5: the record ends before the match is over",
        "  hint: the last match stops before it ends (left at the table, or the file cut "
        f"short): `dominorules replay {path}` shows it up to there"]


def _json_error(line: str) -> str:
    import json
    try:
        json.loads(line)
    except json.JSONDecodeError as exc:
        return exc.msg
    raise AssertionError(f"{line!r} is JSON")
