"""The rulebook (``verify --strict``): an independent reading of records from the docs.

It accepts what the engine writes for every builtin ruleset at every player count,
rejects a planted fault of every event kind where the engine's replay rejects it too,
and never imports the match loops or kernels it is a second opinion on.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from player_counts import played_counts

from dominorules import api, records
from dominorules.records import check_file_strict
from dominorules.rules.resources import builtin_paths

ROOT = Path(__file__).resolve().parents[1]
BOTS = ("random", "greedy", "strategist")

def write(path, events) -> str:
    records.write_records(str(path), events)
    return str(path)


def strict(path) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in check_file_strict(str(path))]


def engine(path) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in records.verify_file(str(path))]


def counts(name: str) -> list[int]:
    """Its fewest, 4 and most players (tests/player_counts.py), an even count where it
    plays in partnerships."""
    game = api.load_game(name)
    return [n for n in played_counts(game) if not (game.rules.partnerships and n % 2)]


def _sweep_cases():
    for name in sorted(builtin_paths()):
        yield pytest.param(name, id=name)


@pytest.mark.parametrize("name", list(_sweep_cases()))
def test_the_rulebook_accepts_what_the_engine_writes(name, tmp_path):
    """Three matches at each of its player counts (``counts``), each seating random,
    greedy and strategist bots differently."""
    game = api.load_game(name)
    events = []
    for n in counts(name):
        for m in range(3):
            bots = [BOTS[(m + n + seat) % 3] for seat in range(n)]
            events += api.play_match(game, n, 77 * n + m, bots=bots, trace=True).events
    assert strict(write(tmp_path / "r.jsonl", events)) == []


STRICT = ROOT / "tests" / "rulesets" / "strict"


def _own_cases():
    for path in sorted(STRICT.glob("*.yaml")):
        yield pytest.param(path, id=path.stem)
    house = ROOT / "tests" / "rulesets" / "house"
    yield pytest.param(house / "fives-spinner.yaml", id="fives-spinner")
    yield pytest.param(house / "every-mechanism.yaml", id="every-mechanism")


@pytest.mark.parametrize("path", list(_own_cases()))
def test_the_rulebook_accepts_what_the_engine_writes_for_mechanisms_no_builtin_uses(path,
                                                                                   tmp_path):
    game = api.load_game(str(path))
    events = []
    for n in counts(str(path)):
        for m in range(3):
            bots = [BOTS[(m + n + seat) % 3] for seat in range(n)]
            events += api.play_match(game, n, 1000 * n + m, bots=bots, trace=True).events
    assert strict(write(tmp_path / "r.jsonl", events)) == []


# -- planted faults: both readings reject each, the rulebook at the planted line ----------

def _first(events, kind, pred=lambda e: True) -> int:
    return next(i for i, e in enumerate(events) if e["event"] == kind and pred(e))


def _set(events, i, **fields):
    events[i] = {**events[i], **fields}
    return i


def _round_end(field, change):
    def plant(events):
        i = _first(events, "round_end")
        return _set(events, i, **{field: change(events[i][field])})
    return plant


def _bump(values):
    return [values[0] + 1, *values[1:]]


def _move_tile_to_boneyard(events):
    i = _first(events, "deal")
    hands = [list(h) for h in events[i]["hands"]]
    tile = hands[0].pop()
    return _set(events, i, hands=hands, boneyard=[tile, *events[i]["boneyard"]])


def _duplicate_tile(events):
    i = _first(events, "deal")
    return _set(events, i, boneyard=[events[i]["hands"][0][0], *events[i]["boneyard"][1:]])


def _second_leader(events):
    i = _first(events, "deal", lambda e: e["round"] == 2)
    return _set(events, i, leader=(events[i]["leader"] + 1) % 2)


def _claim_a_redeal(events):
    i = _first(events, "deal")
    events.insert(i, {**events[i], "leader": None})
    return i


def _wrong_draw(events):
    i = _first(events, "draw")
    return _set(events, i, tile=[6, 6] if events[i]["tile"] != [6, 6] else [0, 0])


def _draw_holding_a_playable_tile(events):      # dutch: no voluntary draws
    i = _first(events, "place", lambda e: e["end"] is not None)
    deal = events[_first(events, "deal")]
    events.insert(i, {"event": "draw", "player": events[i]["player"],
                      "tile": deal["boneyard"][0]})
    return i


def _place_on_the_other_end(events):
    ends, i = None, None
    for j, e in enumerate(events):            # the first left placement misfitting the right
        if e["event"] == "deal":
            ends = None
        elif e["event"] == "place":
            if ends is None:
                ends = list(e["tile"])
                continue
            k = 0 if e["end"] == "left" else 1
            if k == 0 and ends[1] not in e["tile"]:
                i = j
                break
            ends[k] = sum(e["tile"]) - ends[k]
    return _set(events, i, end="right")


def _wrong_player(events):
    i = _first(events, "place", lambda e: e["end"] is not None)
    return _set(events, i, player=1 - events[i]["player"])


def _pass_holding_a_playable_tile(events):
    i = _first(events, "place", lambda e: e["end"] is not None)
    events[i] = {"event": "pass", "player": events[i]["player"]}
    return i


def _score_points(events):
    i = _first(events, "score")
    return _set(events, i, points=events[i]["points"] + 5)


def _drop(kind):
    def plant(events):
        i = _first(events, kind)
        del events[i]
        return i
    return plant


def _skip_someone_else(events):
    i = _first(events, "skip")
    return _set(events, i, player=(events[i]["player"] + 1) % 3)


def _unearned_extra_turn(events):
    i = _first(events, "place", lambda e: e["end"] is not None and e["tile"][0] != e["tile"][1])
    events.insert(i + 1, {"event": "extra_turn", "player": events[i]["player"]})
    return i + 1


def _match_end(field, change):
    def plant(events):
        i = _first(events, "match_end")
        return _set(events, i, **{field: change(events[i][field])})
    return plant


def _match_start(**fields):
    def plant(events):
        return _set(events, 0, **fields)
    return plant


def _cut_before_match_end(events):
    i = _first(events, "match_end")
    del events[i:]
    return i - 1


FAULTS = {
    "match_start players": ("pagat", 2, 3, _match_start(players=5)),
    "match_start teams": ("pagat", 2, 3, _match_start(teams=[[0, 1]])),
    "match_start ruleset": ("pagat", 2, 3, _match_start(ruleset="no-such-rules")),
    "deal hand size": ("pagat", 2, 3, _move_tile_to_boneyard),
    "deal tile twice": ("pagat", 2, 3, _duplicate_tile),
    "deal leader": ("pagat", 2, 3, _second_leader),
    "deal thrown in": ("hoyle", 2, 9, _claim_a_redeal),
    "draw tile": ("pagat", 2, 3, _wrong_draw),
    "draw not allowed": ("dutch", 2, 3, _draw_holding_a_playable_tile),
    "place end": ("pagat", 2, 3, _place_on_the_other_end),
    "place player": ("pagat", 2, 3, _wrong_player),
    "pass": ("pagat", 2, 3, _pass_holding_a_playable_tile),
    "score points": ("house/all-fives", 2, 1, _score_points),
    "score missing": ("house/all-fives", 2, 1, _drop("score")),
    "extra_turn missing": ("house/doubles-play-again", 2, 2, _drop("extra_turn")),
    "extra_turn unearned": ("house/doubles-play-again", 2, 2, _unearned_extra_turn),
    "skip missing": ("house/double-blank-skips", 3, 1, _drop("skip")),
    "skip player": ("house/double-blank-skips", 3, 1, _skip_someone_else),
    "round_end points": ("pagat", 2, 3, _round_end("points", _bump)),
    "round_end scores": ("pagat", 2, 3, _round_end("scores", _bump)),
    "round_end winner": ("pagat", 2, 3, _round_end("winner", lambda w: 1 - w)),
    "round_end result": ("pagat", 2, 3, _round_end(
        "result", lambda r: "blocked" if r == "domino" else "domino")),
    "round_end pips": ("pagat", 2, 3, _round_end("pips", _bump)),
    "round_end play_points": ("house/all-fives", 2, 1, _round_end("play_points", _bump)),
    "match_end winner": ("pagat", 2, 3, _match_end("winner", lambda w: 1 - w)),
    "match_end scores": ("pagat", 2, 3, _match_end("scores", _bump)),
    "truncated": ("pagat", 2, 3, _cut_before_match_end),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_both_readings_reject_a_planted_fault(fault, tmp_path):
    name, players, seed, plant = FAULTS[fault]
    events = api.play_match(api.load_game(name), players, seed, trace=True).events
    clean = write(tmp_path / "clean.jsonl", events)
    assert engine(clean) == [] and strict(clean) == []
    line = plant(events) + 1
    path = write(tmp_path / "fault.jsonl", events)
    assert engine(path), "the engine's replay accepts the fault"
    found = strict(path)
    assert [at for at, _ in found] == [line], found


def test_the_rulebook_names_the_line_what_the_rules_say_and_what_the_record_says(tmp_path):
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    i = _round_end("points", _bump)(events)
    assert events[i]["points"] == [1, 20]      # seat 1 dominoed for 20: seat 0 planted a point
    assert strict(write(tmp_path / "a.jsonl", events)) == [
        (i + 1, "round_end points: the rules say [0, 20]; the record says [1, 20]")]
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    i = _wrong_draw(events)
    deal = events[_first(events, "deal")]
    first = deal["boneyard"][0]
    planted = events[i]["tile"]
    assert strict(write(tmp_path / "b.jsonl", events)) == [
        (i + 1, f"a draw takes the boneyard's first tile, [{first[0]}, {first[1]}]; the "
                f"record draws [{planted[0]}, {planted[1]}]")]


def test_a_tile_the_player_does_not_hold_is_named_with_the_hand(tmp_path):
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    deal = events[_first(events, "deal")]
    i = _first(events, "place")                      # the opening: seat 1, as dealt
    seat = events[i]["player"]
    other = deal["hands"][1 - seat][0]
    _set(events, i, tile=other)
    hand = ", ".join(f"[{a}, {b}]" for a, b in deal["hands"][seat])
    assert strict(write(tmp_path / "t.jsonl", events)) == [
        (i + 1, f"player {seat} holds [{hand}] by the rules; the record places "
                f"[{other[0]}, {other[1]}]")]
    assert engine(str(tmp_path / "t.jsonl"))


def test_a_pass_holding_a_playable_tile_names_the_legal_actions(tmp_path):
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    i = _pass_holding_a_playable_tile(events)
    (line, message), = strict(write(tmp_path / "p.jsonl", events))
    assert line == i + 1
    assert message.startswith(f"player {events[i]['player']} may ")
    assert message.endswith("by the rules; the record has pass")
    assert " draw " in message.replace(",", " ") + " "   # pagat: voluntary draws are allowed


# -- the engine faults of issue 19, read the way the docs say -----------------------------

def test_a_record_whose_domino_earns_another_turn_lapses_it(tmp_path):
    """The record the docs describe (no extra_turn after a domino) reads true; the one the
    engine wrote before issue 19 (an extra_turn line before round_end) is refused there."""
    game = api.load_game("house/doubles-play-again")
    for seed in range(1, 60):
        events = api.play_match(game, 2, seed, trace=True).events
        ends = [i for i, e in enumerate(events) if e["event"] == "round_end"
                and e["result"] == "domino" and events[i - 1]["event"] == "place"
                and events[i - 1]["tile"][0] == events[i - 1]["tile"][1]]
        if ends:
            break
    assert strict(write(tmp_path / "d.jsonl", events)) == []
    lapsed = [*events[:ends[0]], {"event": "extra_turn", "player": events[ends[0] - 1]["player"]},
              *events[ends[0]:]]
    (line, message), = strict(write(tmp_path / "e.jsonl", lapsed))
    assert line == ends[0] + 1 and "the record has extra_turn" in message


def test_heaviest_opens_records_read_true(tmp_path):
    events = []
    for index in range(2):   # the run: a thrown-in deal where no hand holds a double
        events += api.play_match(api.load_game("house/heaviest-opens"), 2,
                                 api.match_seed(68789, index), bots=["random", "greedy"],
                                 trace=True).events
    assert strict(write(tmp_path / "h.jsonl", events)) == []


def _own_rules(tmp_path, text: str, players: int, seeds: range):
    source = tmp_path / "own.yaml"
    source.write_text(text)
    game = api.load_game(str(source))
    events = []
    for seed in seeds:
        events += api.play_match(game, players, seed, trace=True).events
    return write(tmp_path / "own.jsonl", events)


def test_every_side_sees_the_round_winner_from_every_side(tmp_path):
    path = _own_rules(tmp_path, "title: t\nextends: pagat\nscoring:\n"
                      "  every_side: \"1 if any(sides.won) else 0\"\n", 3, range(1, 4))
    assert strict(path) == []


def test_a_placement_after_passes_sees_them(tmp_path):
    path = _own_rules(tmp_path, "title: t\nextends: house/block\nevents:\n  - after: place\n"
                      "    if: \"passes_in_row > 0\"\n    points: 1\n", 3, range(1, 6))
    assert strict(path) == []


# -- where the docs and the engine parted ways beyond issue 19's first eight findings --------

def test_two_idle_table_turns_made_of_passes_and_skips_block_the_round(tmp_path):
    path = _own_rules(tmp_path, "title: t\nextends: house/block\nevents:\n"
                      "  - {after: pass, skip: 1}\n", 2, range(2000, 2001))
    assert strict(path) == []


def test_a_leader_lacking_an_opening_tile_draws_until_the_boneyard_runs_out(tmp_path):
    path = _own_rules(tmp_path, "title: t\nextends: pagat\nopening: {allow: \"tile.is_double\","
                      " if_lacking: draw, if_unheld: heaviest}\n", 4, range(4000, 4005))
    assert strict(path) == []


def test_a_mangled_record_gets_a_diagnostic_never_an_exception(tmp_path):
    """Fields set to odd values, lines dropped or repeated: one diagnostic each time."""
    import json
    import random

    rng = random.Random(5)
    base = api.play_match(api.load_game("house/muggins"), 2, 11, trace=True).events
    odd = [None, 0, -1, 7, 10 ** 30, "x", [], [1], [9, 9], [[0, 0]], True, {}, "up",
           [[1, 2], [3]]]
    path = tmp_path / "m.jsonl"
    for _ in range(60):
        events = [dict(e) for e in base]
        i = rng.randrange(len(events))
        if rng.random() < 0.7:
            events[i][rng.choice(list(events[i]))] = rng.choice(odd)
        elif rng.random() < 0.5:
            del events[i]
        else:
            events.insert(i, dict(rng.choice(events)))
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
        found = check_file_strict(str(path))
        assert all(d.line > 0 and d.message for d in found)


# -- the second opinion on the command line --------------------------------------------------

def _cli(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_cli_verify_strict(tmp_path):
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    path = write(tmp_path / "ok.jsonl", events)
    ok = _cli("verify", "--strict", path)
    assert ok.returncode == 0
    assert ok.stdout == f"{path}: ok (the engine's replay and the rulebook's reading)\n"
    assert _cli("verify", path).stdout == f"{path}: ok\n"          # unchanged without it
    i = _round_end("points", _bump)(events)
    bad = _cli("verify", "--strict", write(tmp_path / "bad.jsonl", events))
    assert bad.returncode == 1
    lines = [line for line in bad.stderr.splitlines() if not line.startswith("  hint: ")]
    assert [line.split(": ")[1] for line in lines] == ["engine", "rulebook"]
    assert all(line.startswith(f"{tmp_path / 'bad.jsonl'}:{i + 1}: ") for line in lines)
    # the engine's line says what may have happened: the record was edited
    assert bad.stderr.splitlines()[1].startswith("  hint: this line does not follow from")
    assert "--strict" in _cli("verify", "--help").stdout


def test_cli_verify_strict_on_an_unreadable_line_says_it_once(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"event": "nope"}\n')
    bad = _cli("verify", "--strict", str(path))
    assert bad.returncode == 1
    assert len(bad.stderr.splitlines()) == 2   # the line, and its hint
    assert bad.stderr.startswith(f"{path}:1: unknown event 'nope'")
    assert bad.stderr.splitlines()[1].startswith("  hint: this line does not follow from")
    assert _cli("verify", "--strict", str(tmp_path / "missing.jsonl")).returncode == 2


# -- independence ------------------------------------------------------------------------------

FORBIDDEN = ("engine.general_loop", "engine.plain_loop", "engine.board", "engine.positions",
             "engine.explain", "engine.game", "engine.state", "engine.scoring", "kernel")


def _imports(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports, as an absolute dotted name."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
            else:
                base = []
            module = ".".join(base + ([node.module] if node.module else []))
            out.add(module)
            out |= {f"{module}.{alias.name}" for alias in node.names}
    return out


def test_the_rulebook_never_imports_the_loops_or_kernels():
    engine_dir = ROOT / "interpreter" / "engine"
    files = {engine_dir / "rulebook.py": "dominorules.engine"}
    files |= {p: "dominorules.engine.mechanisms" for p in (engine_dir / "mechanisms").glob("*.py")}
    assert len(files) >= 11
    for path, package in files.items():
        for module in _imports(path, package):
            rel = module.removeprefix("dominorules.")
            assert not any(rel == bad or rel.startswith(bad + ".") for bad in FORBIDDEN), \
                f"{path.name} imports {module}"


def test_the_rulebook_reads_only_what_records_makes_public():
    """The rulebook reads no file and imports neither ``records`` nor ``rules`` (the layer
    above it, tests/test_layers.py); ``records.check_file_strict`` loads a record's ruleset
    through ``records.ruleset_for`` and turns a ``records.RecordMismatch`` into the
    rulebook's diagnostic. No private name of another module is read."""
    tree = ast.parse((ROOT / "interpreter" / "engine" / "rulebook.py").read_text())
    private = sorted({f"{n.value.id}.{n.attr}" for n in ast.walk(tree)
                      if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                      and n.value.id in ("records", "deal", "lead", "opening", "settle",
                                         "turn", "events", "match")
                      and n.attr.startswith("_")})
    assert private == []
    assert {"ruleset_for", "RecordMismatch", "check_file_strict"} <= set(dir(records))
    assert not {"records", "rules"} & {n.module for n in ast.walk(tree)
                                       if isinstance(n, ast.ImportFrom) and n.level}


def test_a_record_naming_no_ruleset_is_refused_alike_by_both_readings(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"event":"match_start","ruleset":"no-such-rules","seed":1,'
                    '"players":2,"teams":[[0],[1]]}\n')
    message = ("ruleset 'no-such-rules': no builtin ruleset has this name, and the record "
               "names no source file")
    assert engine(path) == [(1, message)]
    assert strict(path) == [(1, message)]
