"""The JIT's game records (``kernel/jit_record.py``, ``kernel/jit_trace.py``): byte for
byte the Python engine's, for every ruleset the JIT plays and records.

Each builtin ruleset the JIT records (the plain kernel's and the GEN kernel's house
rules: events' score, extra turn and skip lines, a spinner's arms, a fit rule's meets),
at a player count from 2 to 4 and with the random, greedy and strategist bots (alone and
mixed), writes the same text on both engines, each round within the log's bound; a
``simulate --trace`` file from the JIT equals the Python engine's and ``verify`` (and
``verify --strict``) accept it; a log too small for one match grows, the matches split
over calls unchanged; what the JIT does not record, it refuses with a sentence, and
``auto`` then keeps Python.
The kernels are the ones ``test_kernel_jit.py`` and ``test_kernel_jit_house.py``
compile (records are a run-time switch): this file compiles nothing of its own.
"""

from __future__ import annotations

import pytest
from jit_record_checks import round_lines, same_trace_files

from dominorules import api
from dominorules.diagnostics import UsageError
from dominorules.kernel import engines
from dominorules.record_lines import encode_events
from dominorules.records import check_file_strict
from dominorules.rules import builtin_rulesets

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

BOTS = ("random", "greedy", "strategist")


def _takes(game, players: int) -> bool:
    try:
        game.check_players(players)
    except Exception:   # noqa: BLE001 - a player count the ruleset does not take
        return False
    return True


def _cases():
    """(ruleset, players, bots): every ruleset the JIT records, one player count each
    (2, 3, 4 in turn, where the ruleset takes it) and the bots in turn, mixed every
    fourth."""
    k = 0
    for b in builtin_rulesets():
        game = api.load_game(b.name)
        counts = [n for n in (2, 3, 4) if _takes(game, n)
                  and engines.jit_reason(game, n, "random", trace=True) is None]
        if not counts:
            continue
        players = counts[k % len(counts)]
        bots = BOTS[k % 3] if k % 4 != 3 else [BOTS[(k + s) % 3] for s in range(players)]
        if engines.jit_reason(game, players, bots, trace=True) is not None:
            bots = "greedy"   # (a bot the JIT does not play on this ruleset)
        yield b.name, players, bots
        k += 1


CASES = list(_cases())


def test_the_jit_records_the_five_variants_and_the_gen_kernels_house_rules():
    names = {name for name, _, _ in CASES}
    assert {"pagat", "hoyle", "dutch", "mexican", "vietnamese"} <= names
    assert {"house/tied-stake-grows", "house/heaviest-opens", "house/four-doubles-redeal",
            "house/play-to-the-right", "house/double-blank-last"} <= names
    # events' score, extra_turn and skip lines; a spinner's arms; a fit rule's meets
    assert {"house/all-fives", "house/pay-per-forced-draw", "house/doubles-play-again",
            "house/double-blank-skips", "house/pass-pass", "house/spinner", "house/muggins",
            "house/matador", "house/matador-nine"} <= names
    # events setting variables, laying duties, reading the table; a match won mid-round;
    # players going out (their set, duty, out and target lines: test_kernel_jit_rec_events)
    assert {"house/headers-raise-stake", "house/answer-the-double", "house/cover-the-double",
            "house/bergen-headers", "house/bergen-near-game", "house/muggins-wins-in-play",
            "house/side-out"} <= names


@pytest.mark.parametrize(("name", "players", "bots"), CASES)
def test_the_jits_record_is_the_python_engines_byte_for_byte(name, players, bots):
    game = api.load_game(name)
    seeds = [api.match_seed(11, i) for i in range(3)]
    got = engines.jit_results(game, players, seeds, bots, trace=True)
    bound = jit_kernel.kernel(game, players).record_text.log_round
    for seed, match in zip(seeds, got, strict=True):
        want = api.play_match(game, players, seed, bots, trace=True)
        assert match == want, (bots, seed)
        assert encode_events(match.events) == encode_events(want.events), (bots, seed)
        assert max(round_lines(match.events)) <= bound   # the log's room for a round


def test_events_a_spinner_and_a_fit_rule_write_their_lines_on_the_jit():
    """The lines the GEN kernel's house rules add, each written by the JIT: a score, an
    extra turn and a skip; the spinner's up and down arms; the half that meets an end."""
    seen = {}
    for name, players in (("house/pass-pass", 4), ("house/muggins", 3),
                          ("house/matador", 2), ("house/pay-per-forced-draw", 3)):
        game = api.load_game(name)
        seeds = [api.match_seed(5, i) for i in range(4)]
        for match in engines.jit_results(game, players, seeds, "random", trace=True):
            for e in match.events:
                kind = e.get("end") if e["event"] == "place" else e["event"]
                seen.setdefault(name, set()).add("meets" if "meets" in e else kind)
    assert {"extra_turn", "skip"} <= seen["house/pass-pass"]
    assert {"score", "up", "down"} <= seen["house/muggins"]
    assert "meets" in seen["house/matador"]
    assert "score" in seen["house/pay-per-forced-draw"]


def test_simulate_trace_on_the_jit_writes_the_python_engines_file_and_verify_accepts_it(
        tmp_path):
    source = tmp_path / "short.yaml"   # a ruleset file: match_start names its source
    source.write_text("title: Short\nextends: house/tied-stake-grows\nmatch:\n  target: 60\n")
    for ref, players, bots in (("dutch", 3, "greedy"), (str(source), 4, "strategist")):
        game = api.load_game(ref)
        jit = same_trace_files(tmp_path, game, players, 20, 3, bots)
    assert check_file_strict(str(jit)) == []


def test_a_log_too_small_for_a_match_grows_and_the_record_is_unchanged(monkeypatch):
    import numpy as np

    game = api.load_game("house/four-doubles-redeal")   # redeals: deals thrown in
    seeds = [api.match_seed(5, i) for i in range(12)]
    whole = engines.jit_results(game, 3, seeds, "random", trace=True)
    monkeypatch.setattr(jit_kernel, "RECORD_LOG", 1)   # room for about one round a call
    small = engines.jit_results(game, 3, seeds, "random", trace=True)
    assert small == whole   # the rows of a match played again are the same
    assert [m.events for m in small] == [m.events for m in whole]
    assert any(e["event"] == "deal" and e["leader"] is None for m in small for e in m.events)
    calls = []
    jit_kernel.kernel(game, 3).run(np.array(seeds, np.int64), [0, 0, 0],
                                   sink=lambda text, n: calls.append(n))
    assert sum(calls) == len(seeds) and len(calls) > 1


def test_records_the_jit_does_not_write_are_refused_and_auto_keeps_python(tmp_path,
                                                                           monkeypatch):
    pagat = api.load_game("pagat")
    assert engines.choose(pagat, 3, "random", "jit", trace=True) == "jit"
    assert engines.choose(pagat, 3, "random", "auto", trace=True, matches=50_000) == "jit"
    assert jit_trace.reason(pagat) is None
    # an event making the next player draw: its draw lines are the JIT's now
    # (tests/test_kernel_jit_rec_draws.py)
    path = tmp_path / "draws.yaml"
    path.write_text("title: Test\nextends: pagat\nevents:\n  - title: A double costs a tile\n"
                    "    after: place\n    if: tile.is_double\n    next_draws: 1\n")
    draws = api.load_game(str(path))
    assert jit_trace.reason(draws) is None
    assert engines.choose(draws, 2, "random", "jit", trace=True) == "jit"
    # a line the JIT would not write (none is left: a stand-in for the next mechanism's)
    monkeypatch.setattr(jit_trace, "_NOT_WRITTEN", ((lambda r: bool(r.events),
                                                     "events (a stand-in)"),))
    assert jit_trace.reason(draws) == ("the JIT does not write the records of draws's "
                                       "events (a stand-in); the python engine does")
    with pytest.raises(UsageError) as info:
        engines.choose(draws, 2, "random", "jit", trace=True)
    assert "--engine jit cannot run this" in info.value.diagnostics[0].message
    assert engines.choose(draws, 2, "random", "auto", trace=True, matches=50_000) == "python"


@pytest.mark.parametrize("ref", ["house/draw-ends-turn", "house/passing", "exact-at-will"])
def test_the_turn_options_records_are_the_python_engines(tmp_path, ref):
    """A draw ending the turn, an exact draw, a pass at will add no line of their own: the
    JIT records them, byte for byte (passing at will: up to 2 * N idle turns a round, the
    log's bound)."""
    if ref == "exact-at-will":
        path = tmp_path / "r.yaml"
        path.write_text("title: Test\nextends: pagat\ndrawing:\n  exactly: 2\n"
                        "  voluntary: forbidden\nplay:\n  passing: at_will\n")
        ref = str(path)
    game = api.load_game(ref)
    seeds = [api.match_seed(13, i) for i in range(6)]
    for players in (2, 3, 4):
        if not _takes(game, players):
            continue
        assert engines.jit_reason(game, players, "random", trace=True) is None
        for bots in ("random", "greedy", "strategist", ["random", "greedy", "strategist"][
                :players] + ["random"] * (players - 3)):
            got = engines.jit_results(game, players, seeds, bots, trace=True)
            for seed, match in zip(seeds, got, strict=True):
                want = api.play_match(game, players, seed, bots, trace=True)
                assert encode_events(match.events) == encode_events(want.events), (
                    players, bots, seed)
                assert match == want


@pytest.mark.parametrize("name", ["house/spinner", "house/matador", "house/all-fives"])
def test_a_spinner_a_fit_rule_and_events_are_recorded_on_the_jit(name):
    game = api.load_game(name)
    assert engines.jit_reason(game, 2, "random") is None
    assert jit_trace.reason(game) is None
    assert engines.choose(game, 2, "random", "auto", trace=True, matches=50_000) == "jit"
