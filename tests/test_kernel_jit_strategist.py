"""The strategist on the JIT (``kernel.jit_strategist``): the Python engine's matches.

Every builtin ruleset the JIT plays (a spinner's too: ``jit_strategist_arms``), the five
variants at 2, 3 and 4 players, a house ruleset at the fewest and most of those it allows,
with the strategist against random, against greedy and at
every seat: the JIT's ``MatchResult``
equals the Python engine's field for field for the same seeds (a score off by a float's
last bit would break a tie another way and change the match). The Python strategist is
the truth (``tests/test_strategist_pinned.py`` pins it).
"""

from __future__ import annotations

import pytest
from jit_record_checks import same_summary

from dominorules import api
from dominorules.kernel import engines
from dominorules.rules import builtin_rulesets

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)


OWN_POLICIES = ("house/matador", "house/matador-nine", "house/blind-hughie", "house/two-sets")


# played at 2, 3 and 4 players; a house ruleset at the fewest and most of those it allows
# (the count is a number to the kernel, not code: the counts between play the same lines)
EVERY_COUNT = ("pagat", "hoyle", "dutch", "mexican", "vietnamese")


def _cases():
    for b in builtin_rulesets():
        game = api.load_game(b.name)
        counts = []
        for players in (2, 3, 4):
            try:
                game.check_players(players)
            except Exception:
                continue
            if jit_kernel.jit_reason(game, players, "strategist") is None \
                    and b.name not in OWN_POLICIES \
                    and game.tileset.tile_count <= jit_kernel.MAX_TILES:   # (the wider:
                # tests/test_kernel_jit_wide.py, on one kernel)
                counts.append(players)
        if b.name not in EVERY_COUNT:
            counts = sorted({counts[0], counts[-1]}) if counts else []
        for players in counts:
            yield b.name, players


CASES = list(_cases())


def _tables(players: int) -> list:
    """The strategist alone, against random, against greedy (seats alternating, so a
    strategist has an opponent of each kind at 3 and 4 players, and a partner in a
    partnership)."""
    return ["strategist", (["strategist", "random"] * 2)[:players],
            (["greedy", "strategist"] * 2)[:players]]


def test_the_cases_cover_the_variants_and_every_player_count():
    names = {name for name, _ in CASES}
    assert {"pagat", "hoyle", "dutch", "mexican", "vietnamese", "house/double-nine",
            "house/partnership-draw", "house/draw-one",
            "house/spinner", "house/muggins"} <= names   # (jit_strategist_arms)
    # a fit rule, hidden rows, two sets: every player count, with records, in
    # test_kernel_jit_strategist_rules.py
    assert not set(OWN_POLICIES) & names
    assert {players for _, players in CASES} == {2, 3, 4}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_jit_strategist_plays_the_python_engines_matches(name, players):
    game = api.load_game(name)
    seeds = [api.match_seed(21, i) for i in range(3)]
    for bots in _tables(players):
        jit = engines.jit_results(game, players, seeds, bots)
        for seed, got in zip(seeds, jit, strict=True):
            assert got == api.play_match(game, players, seed, bots), (bots, seed)


def _voluntary_draws(events: list[dict]) -> int:
    """Draws in a record by a player who held a tile fitting an open end."""
    hands, ends, count = {}, None, 0
    for e in events:
        kind = e["event"]
        if kind == "deal":
            hands = {p: [tuple(t) for t in h] for p, h in enumerate(e["hands"])}
            ends = None
        elif kind == "place":
            a, b = e["tile"]
            hands[e["player"]].remove((a, b))
            if e["end"] is None:
                ends = [a, b]
            else:
                at = 0 if e["end"] == "left" else 1
                ends[at] = a + b - ends[at]
        elif kind == "draw":
            hand = hands[e["player"]]
            if ends is not None and any(v in t for t in hand for v in ends):
                count += 1
            hand.append(tuple(e["tile"]))
    return count


def test_the_strategists_voluntary_draws_are_played_alike():
    """pagat lets a player draw while holding a playable tile, and at two players (a
    boneyard deep enough) the strategist sometimes does, to make an opponent known to hold
    a suit wait: those matches too are the Python engine's."""
    game = api.load_game("pagat")
    seeds = [api.match_seed(5, i) for i in range(20)]
    python = [api.play_match(game, 2, s, "strategist", trace=True) for s in seeds]
    assert sum(_voluntary_draws(m.events) for m in python) > 0
    assert engines.jit_results(game, 2, seeds, "strategist") == python


def test_auto_takes_the_jit_for_a_long_strategist_run():
    game = api.load_game("pagat")
    assert engines.choose(game, 3, "strategist", "auto", matches=10_000) == "jit"
    assert engines.choose(game, 3, ["strategist", "greedy", "random"], "auto",
                          matches=10_000) == "jit"
    assert engines.choose(game, 3, "strategist", "auto", matches=100) == "python"


def test_simulate_with_strategists_gives_the_same_summary_from_either_engine():
    game = api.load_game("hoyle")
    same_summary(game, 4, 300, 7, "strategist")


@pytest.mark.parametrize("skilled", ["strategist", "drawer"])
def test_compares_skill_rows_give_the_same_numbers_from_either_engine(skilled):
    """The skill pairing's skilled seat rotates: the JIT plays it once per seat (the
    strategist), or leaves it to Python where it cannot (the drawer), under --engine jit."""
    from dominorules.explore.compare import CompareSettings, compare
    from dominorules.explore.report import to_json
    from dominorules.explore.runner import SerialBackend

    def numbers(engine: str) -> dict:
        s = CompareSettings(("pagat", "hoyle"), 3, 90, 4, skill_bots=(skilled, "random"),
                            batch_size=40, engine=engine)
        out = to_json(compare(s, SerialBackend()))
        del out["run"]
        return out

    assert numbers("jit") == numbers("python")
