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


def test_verify_holds_one_match_at_a_time_not_the_whole_record(tmp_path):
    """A 120 MB record (under the 512 MB limit) made verify allocate until MemoryError:
    every event was parsed into memory before the first was checked."""
    import tracemalloc

    path = tmp_path / "long.jsonl"
    api.simulate(api.load_game("pagat"), 2, 60, 1, trace_path=str(path), engine="python")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        assert verify_file(str(path)) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * size, (peak, size)   # the file's bytes and one match, not 20 times it


def test_replay_refuses_a_record_too_long_to_step_through_at_once(tmp_path):
    from click.testing import CliRunner

    from dominorules.cli import main
    from dominorules.play.replay import MAX_EVENTS

    path = tmp_path / "long.jsonl"
    api.simulate(api.load_game("pagat"), 2, 400, 1, trace_path=str(path), engine="python")
    lines = path.read_text().count("\n")
    assert lines > MAX_EVENTS
    result = CliRunner().invoke(main, ["replay", str(path)], input="q\n")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}: error: the record holds more than 100,000 events (line 100001); replay "
        "steps through a few matches at a time")
