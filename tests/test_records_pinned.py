"""The five variants keep their records: the same seeds give byte-for-byte the records the
first edition wrote (before the house-rule mechanisms), for every player count and bot.

The digest was computed with the first edition's engine (commit 611f60a) and matches
today's; a change to it means a variant's statistics moved and must be explained. Both
engines give it: the ruleset's kernel (what simulations run) and the match loop (what the
step-by-step State, verify and play run).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from dominorules import api

PINNED = (
    "28b9944472ce3c2f47efdc2987ff9d6861cb643e7ee009103145a44d5a967c4c")


@pytest.mark.parametrize("engine", ["python", "loop"])
def test_the_five_variants_give_the_first_editions_records(engine):
    digest = hashlib.sha256()
    for name in ("pagat", "hoyle", "dutch", "mexican", "vietnamese"):
        game = api.load_game(name)
        rules = game.rules
        for players in range(rules.min_players, rules.max_players + 1):
            for seed, bots in ((0, "random"), (1, "random"), (2, "greedy"), (3, "strategist")):
                match = api.play_match(game, players, seed=seed, bots=bots, trace=True,
                                       engine=engine)
                for event in match.events:
                    digest.update(json.dumps(event, sort_keys=True).encode())
    assert digest.hexdigest() == PINNED
