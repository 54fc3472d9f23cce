"""Verifying a long record of a ruleset file costs what it costs for a builtin: the file is
loaded once, and no cache keeps the Games of finished work alive."""

from __future__ import annotations

import gc
import weakref

from dominorules import api
from dominorules.records import verify_file, write_records


def test_a_record_of_many_matches_loads_its_ruleset_file_once(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text("name: mine\nextends: pagat\ndeal:\n  hand_size: 5\n")
    game = api.load_game(str(source))
    events = [e for seed in range(20) for e in api.play_match(game, 2, seed, trace=True).events]
    write_records(str(tmp_path / "r.jsonl"), events)
    loads = []

    def counting(ref):
        loads.append(ref)
        return api.load_game(ref)

    assert verify_file(str(tmp_path / "r.jsonl"), load_game=counting) == []
    assert loads == [str(source)]


def test_no_cache_keeps_a_game_alive(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text("extends: pagat\n")
    game = api.load_game(str(source))
    api.play_match(game, 3, 1)          # fills the per-player-count memos
    ref = weakref.ref(game)
    del game
    gc.collect()
    assert ref() is None
