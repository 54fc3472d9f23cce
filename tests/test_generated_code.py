"""Generated code is code: tracebacks and debuggers show its lines, ``dominorules kernel``
prints it, and no text of a ruleset ever becomes part of it.

Kernels, written settlements, restrictions and formulas are Python made at run time; a
maintainer stepping through a failing match must see the line that failed, and a ruleset
file (which users share) must never be able to put code into them: its values reach the
generated code only through the code's namespace or as checked literals.
"""

from __future__ import annotations

import inspect
import json
import linecache
import traceback
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from dominorules import api
from dominorules.cli import main
from dominorules.kernel.generate import covers, kernel_for, kernel_source
from dominorules.kernel.jit_kernel import kernel_source as jit_source
from dominorules.kernel.listing import kernel_listing
from dominorules.kernel.settle import match_over_for, settlement_for

HOSTILE = "x'\"\n)\n__import__('os').system('echo pwned')  # \\ {NAME} $T"
MARKS = ("pwned", "__import__", "{NAME}", "$T")


def run_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _broken_stream():
    raise RuntimeError("the seat's stream broke")


def test_an_error_inside_a_kernel_shows_the_generated_line():
    """A traceback through the Python kernel names it (ruleset, players) and prints the
    line that failed, as for any module; ``inspect`` reads its source too."""
    game = api.load_game("pagat")
    play = kernel_for(game, 3)
    with pytest.raises(RuntimeError) as info:
        play(1, [_broken_stream] * 3, None, [None] * 3, None, 10)
    frames = [f for f in traceback.extract_tb(info.value.__traceback__)
              if f.filename.startswith("<dominorules kernel pagat 3p ")]
    assert frames, [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert frames[-1].line == "k = urnd() * m.bit_count() >> 32"
    text = "".join(traceback.format_exception(info.value))
    assert f'File "{frames[-1].filename}", line {frames[-1].lineno}, in play' in text
    assert "k = urnd() * m.bit_count() >> 32" in text
    assert inspect.getsource(play) == kernel_source(game, 3).lstrip("\n")


def test_the_written_pieces_and_the_specialised_loop_have_readable_lines(tmp_path):
    """The settlement and match end written out, the placement restrictions as code, the
    general loop specialised and every emitted formula: each compiled under a name that
    says what it is, its lines in ``linecache``."""
    game = api.load_game("house/lowest-side-takes-round")
    for fn in (settlement_for(game, 2), match_over_for(game, 2)):
        name = fn.__code__.co_filename
        assert name.startswith(("<dominorules settle house/lowest-side-takes-round 2p ",
                                 "<dominorules match_over house/lowest-side-takes-round 2p "))
        assert "".join(linecache.getlines(name)) == fn.source
    path = tmp_path / "spin-last.yaml"
    path.write_text(
        "title: Spinner, double blank last\nextends: house/muggins\nplay:\n  restrictions:\n"
        "    - allow: \"tile != [0|0] or count(playable) == 1\"\n"
        "      explain: \"you may place [0|0] only when it is your only playable tile\"\n")
    spin = api.load_game(str(path))
    assert not covers(spin)
    listing = kernel_listing(spin, 2)
    assert "kernel.specialise_loop" in listing
    name = next(line for line in listing.splitlines() if line.startswith("# compiled as: "))
    name = name.removeprefix("# compiled as: ")
    assert name.startswith("<dominorules kernel-loop spin-last 2p ")
    assert linecache.getlines(name)[0].startswith("def run(")


def test_a_formula_compiled_from_its_tree_shows_its_line():
    from dominorules.expr import compile_expression

    c = compile_expression("sum(opponents.value) - winner.value", "scoring")
    name = c.fn.__code__.co_filename
    assert name.startswith("<dominorules formula ")
    assert "env['opponents']" in linecache.getline(name, 1)


# --- dominorules kernel ---------------------------------------------------------------


def test_the_kernel_command_prints_the_kernel_that_plays():
    """What ``dominorules kernel`` prints is the source ``kernel_for`` compiles, headed
    by comments naming the switches and the writer of each piece: valid Python whole."""
    import ast

    code, out, _ = run_cli("kernel", "pagat", "--players", "3")
    assert code == 0
    head, _, body = out.partition("\n\n\n")
    assert head.startswith("# dominorules kernel pagat --players 3 --engine python\n")
    assert "# switches on:  " in head and "INLINE_SETTLE" in head.split("switches off:")[0]
    assert "settlement: the kernel's, its formulas inline" in head
    game = api.load_game("pagat")
    assert body.strip("\n") == kernel_source(game, 3).strip("\n")
    name = kernel_for(game, 3).__code__.co_filename
    assert f"# compiled as: {name}\n" in head
    ast.parse(out)


def test_the_kernel_command_names_the_writers_of_a_house_rulesets_pieces():
    code, out, _ = run_cli("kernel", "house/double-opening", "--players", "2")
    assert code == 0
    assert "#   opening: by its allow mask (kernel.opening.opener_for)" in out
    assert "#   settlement: kernel.settle.settlement_source (SETTLE, below)" in out
    assert "\ndef settle(ended):\n    (hands, drawn_by," in out and "\ndef match_over(rnd," in out
    code, out, _ = run_cli("kernel", "house/all-fives")
    assert code == 0 and "#   events: written inline (kernel.events.event_code)" in out
    assert "--players 2 " in out.splitlines()[0]          # the fewest players by default


def test_the_kernel_command_prints_the_jit_module():
    code, out, _ = run_cli("kernel", "dutch", "--engine", "jit")
    assert code == 0
    assert out.startswith("# dominorules kernel dutch --players 2 --engine jit\n")
    assert jit_source(api.load_game("dutch")) in out
    assert "def play_batch(" in out


def test_the_kernel_command_prints_a_shaped_boards_jit_module():
    """A shaped board has no Python kernel (the general loop plays it), but the JIT's GEN
    lines play it: ``--engine jit`` prints that module, the plain command says where."""
    code, out, _ = run_cli("kernel", "house/one-train", "--engine", "jit")
    assert code == 0
    assert out.startswith("# dominorules kernel house/one-train --players 2 --engine jit\n")
    assert "switch LAYOUT = " in out and "switch LAYOUT = 0" not in out
    assert "def play_batch(" in out
    code, out, err = run_cli("kernel", "house/one-train")
    assert (code, out) == (2, "")
    assert err == ("error: house/one-train shapes its board (board.layout): no Python kernel "
                   "plays it, the general loop does\n"
                   "  hint: --engine jit prints the JIT's kernel, which plays it\n")


@pytest.mark.parametrize("args, code, message", [
    (("kernel", "no-such-ruleset"), 2, "no builtin ruleset or file named 'no-such-ruleset'"),
    (("kernel", "pagat", "--players", "9"), 2, "pagat is played by 2 to 4 players, not 9"),
    (("kernel", "pagat", "--players", "two"), 2, "Invalid value for '--players'"),
    (("kernel", "pagat", "--engine", "c"), 2, "Invalid value for '--engine'"),
])
def test_the_kernel_command_refuses_in_one_line(args, code, message):
    got, out, err = run_cli(*args)
    assert got == code and out == ""
    assert message in err and "Traceback" not in err


def test_the_kernel_command_refuses_what_the_jit_cannot_run_in_one_line(tmp_path):
    path = tmp_path / "over-seats.yaml"   # (x -> ... over the seats: no program keeps it)
    path.write_text("title: Over seats\nextends: pagat\nscoring:\n"
                    "  domino: \"sum(opponents.value) + count(seats, s -> s.tiles > 1)\"\n")
    got, out, err = run_cli("kernel", str(path), "--engine", "jit")
    assert got == 2 and out == "" and "Traceback" not in err
    assert ("--engine jit cannot run this: over-seats's house-rule formulas read what the "
            "JIT kernel does not keep (x -> ...)") in err


def test_the_kernel_command_has_help_with_examples():
    code, out, _ = run_cli("kernel", "--help")
    assert code == 0 and "Examples:" in out and "dominorules kernel pagat --players 3" in out


# --- no ruleset text becomes code -------------------------------------------------------


def _ruleset(text: str, name: str) -> dict:
    """A ruleset touching every generated piece (events, restrictions as code, the
    opening by its mask, a redeal, the settlement and match end written out), its every
    free-text field set to ``text``."""
    return {
        "name": name, "title": text, "description": text, "source": text,
        "extends": "pagat",
        "deal": {"redeal_if": "max(seats.doubles) >= 5"},
        "opening": {"allow": "tile.pips >= 2", "explain": text,
                    "first_round": {"allow": "tile.is_double", "explain": text,
                                    "if_lacking": "pass_on"}},
        "play": {"restrictions": [{"allow": "tile.is_double or not any(playable.is_double)",
                                   "explain": text}]},
        "events": [{"title": text, "after": "place", "if": "end_total % 5 == 0",
                    "points": "end_total"}],
        "scoring": {"domino": "sum( opponents.value )   +   0 * players"},
        "match": {"draw_if": "round >= 40"},
        "examples": [{"title": text, "kind": "points", "players": 2, "result": "domino",
                      "hands": ["", "3-5"], "expect_points": [8, 0]},
                     {"title": text, "kind": "legal", "players": 2, "hands": ["6-6 1-2", "3-4"],
                      "ends": [6, 5], "boneyard": 5, "turn": 0,
                      "expect_legal": ["6-6 left", "draw"]}],
    }


def _write(tmp_path: Path, data: dict, file: str) -> str:
    path = tmp_path / file
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


def _generated(game, players: int) -> list[str]:
    """Every source generated for ``game`` at ``players``: the kernel in each record mode,
    the written settlement and match end, the listing's pieces."""
    texts = [kernel_source(game, players, record) for record in (False, True, "text")]
    texts += [fn.source for fn in (settlement_for(game, players), match_over_for(game, players))
              if fn is not None]
    listing = kernel_listing(game, players)
    # the code, not the comments naming the ruleset and its pieces
    texts.append("".join(line for line in listing.splitlines(True) if not line.startswith("#")))
    return texts


def test_no_text_of_a_ruleset_reaches_generated_code(tmp_path):
    """Quotes, newlines, ``__import__`` and template markers in every free-text field (a
    name as odd as the schema allows): none of it is in any generated source, the sources
    are those of the same rules with plain text, and the kernel plays as the loop."""
    from dominorules.rules import load_ruleset

    hostile = api.load_game(_write(tmp_path, _ruleset(HOSTILE, "__import__.os/system-x"),
                                   "hostile.yaml"))
    plain = api.load_game(_write(tmp_path, _ruleset("plain", "plain"), "plain.yaml"))
    data = load_ruleset(hostile.path).data
    planted = [data["title"], data["opening"]["explain"], data["events"][0]["title"],
               data["play"]["restrictions"][0]["explain"], data["examples"][0]["title"]]
    assert all(t == HOSTILE for t in planted) and hostile.rules.name == "__import__.os/system-x"
    assert covers(hostile) and hostile.rules.general
    for players in (2, 3, 4):
        mine, theirs = _generated(hostile, players), _generated(plain, players)
        assert mine == theirs
        for text in mine:
            assert "__import__.os/system-x" not in text
            assert not any(mark in text for mark in MARKS), players
            assert "sum( opponents.value )" not in text
        for i in range(3):
            seed = api.match_seed(5, i)
            a = api.play_match(hostile, players, seed, "random", trace=True)
            b = api.play_match(hostile, players, seed, "random", trace=True, engine="loop")
            c = api.play_match(plain, players, seed, "random")
            assert a == b and a.events == b.events
            assert (a.scores, a.rounds) == (c.scores, c.rounds)
    json.dumps(a.events)          # the record holds the name as data, quoted by json


def test_no_text_of_a_plain_ruleset_reaches_the_jit_module(tmp_path):
    data = {"name": "__import__.os", "title": HOSTILE, "description": HOSTILE,
            "source": HOSTILE, "extends": "dutch",
            "examples": [{"title": HOSTILE, "kind": "points", "players": 2,
                          "result": "domino", "hands": ["", "3-5"], "expect_points": [8, 0]}]}
    game = api.load_game(_write(tmp_path, data, "hostile-jit.yaml"))
    text = jit_source(game)
    assert text == jit_source(api.load_game("dutch"))
    assert not any(mark in text for mark in MARKS)


def test_no_text_of_a_house_ruleset_reaches_the_jit_module(tmp_path):
    """The house rules' kernel (jit_loop's GEN lines) is one source for every such
    ruleset: its events' text and formulas reach it as data (jit_house.programs) only."""
    data = {"name": "__import__.house", "title": HOSTILE, "description": HOSTILE,
            "source": HOSTILE, "extends": "house/all-fives",
            "events": [{"title": HOSTILE, "after": "place", "if": "end_total % 5 == 0",
                        "points": "end_total * 2"}]}
    game = api.load_game(_write(tmp_path, data, "hostile-house.yaml"))
    text = jit_source(game)
    assert text == jit_source(api.load_game("house/all-fives"))
    assert "def play_batch(" in text and "end_total * 2" not in text
    assert not any(mark in text for mark in MARKS) and "__import__.house" not in text


def test_no_text_of_a_ruleset_reaches_the_specialised_loop(tmp_path):
    """A spinner with placement restrictions keeps the general loop's own source,
    specialised: its text and the written settlement are those of plain words too."""
    def spin(text: str, name: str) -> dict:
        return {"name": name, "title": text, "description": text, "source": text,
                "extends": "house/muggins",
                "play": {"restrictions": [{"allow": "tile != [0|0] or count(playable) == 1",
                                           "explain": text}]}}
    hostile = api.load_game(_write(tmp_path, spin(HOSTILE, "__import__.spin"), "h.yaml"))
    plain = api.load_game(_write(tmp_path, spin("plain", "plain"), "p.yaml"))
    assert not covers(hostile)
    for players in (2, 4):
        mine, theirs = _generated(hostile, players)[3:], _generated(plain, players)[3:]
        assert mine == theirs and "def run(" in mine[-1]
        assert not any(mark in text for text in mine for mark in MARKS)
