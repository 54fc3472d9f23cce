"""What the JIT record tests check of a match on both engines, written once: the
round's lines against the JIT's log bound, and the same results and record text."""

from __future__ import annotations

from dominorules import api
from dominorules.kernel import engines
from dominorules.record_lines import encode_events


def round_lines(events: list[dict]) -> list[int]:
    """The lines of each deal and the round it opens (with the match's end and start)."""
    counts = [0]
    for e in events:
        if e["event"] == "deal":
            counts.append(0)
        counts[-1] += 1
    return counts


def same_on_both_engines(game, players: int, seeds: list[int], bots) -> list[dict]:
    """The matches on both engines: the same results and record text; every round within
    the JIT's log bound; the Python engine's events."""
    from dominorules.kernel import jit_kernel  # (numba: the callers skip without it)

    got = engines.jit_results(game, players, seeds, bots, trace=True)
    bound = jit_kernel.kernel(game, players).record_text.log_round
    events = []
    for seed, match in zip(seeds, got, strict=True):
        want = api.play_match(game, players, seed, bots, trace=True)
        assert encode_events(match.events) == encode_events(want.events), (bots, seed)
        assert match == want, (bots, seed)
        assert max(round_lines(match.events)) <= bound
        events += want.events
    return events
