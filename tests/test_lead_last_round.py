"""A lead formula reading the last round's seats and sides as it ended (kind ``lead``:
``seats``, ``sides``): the general loop and the rulebook agree on who leads."""

from __future__ import annotations

from dominorules import api, records
from dominorules.kernel import generate

RULES = """title: Heavy hands pass the lead on
extends: pagat
lead:
  later: "leader + 1 if max(seats.pips) >= 20 else leader"
"""


def test_the_lead_follows_the_last_rounds_hands_and_both_readers_agree(tmp_path):
    path = tmp_path / "heavy.yaml"
    path.write_text(RULES, encoding="utf-8")
    game = api.load_game(str(path))
    assert game.rules.lead_reads_seats and not generate.covers(game)
    moved = stayed = 0
    for seed in range(2):
        events = api.play_match(game, 3, seed, trace=True).events
        deals = [e for e in events if e["event"] == "deal"]
        ends = [e for e in events if e["event"] == "round_end"]
        leaders = [d["leader"] for d in deals if d["leader"] is not None]
        for end, before, after in zip(ends, leaders, leaders[1:], strict=False):
            heavy = max(end["pips"]) >= 20      # pips are hand values: tile_value is pips
            assert after == ((before + 1) % 3 if heavy else before)
            moved += heavy
            stayed += not heavy
        record = tmp_path / f"{seed}.jsonl"
        records.write_records(str(record), events)
        assert records.verify_file(str(record)) == []
        assert records.check_file_strict(str(record)) == []
    assert moved and stayed


def test_a_plain_lead_formula_keeps_the_kernel():
    game = api.load_game("house/blocker-leads")
    assert not game.rules.lead_reads_seats
