"""What the JIT record tests check of a match on both engines, written once: the
round's lines against the JIT's log bound, and the same results and record text, at
every builtin bot's table and a mixed one; the same results without a record; the same
summary and trace file from ``simulate``; the player counts the tests take."""

from __future__ import annotations

from pathlib import Path

from dominorules import api
from dominorules.kernel import engines
from dominorules.record_lines import encode_events

BOTS = ("random", "greedy", "strategist")


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


def same_results(game, players: int, seeds: list[int], tables) -> None:
    """The JIT's matches without a record (``engines.jit_results``) at each table of
    ``tables`` (a bot's name, or one a seat) are the Python engine's, field for field."""
    for bots in tables:
        got = engines.jit_results(game, players, seeds, bots)
        for seed, match in zip(seeds, got, strict=True):
            assert match == api.play_match(game, players, seed, bots), (players, bots, seed)


def same_summary(game, players: int, matches: int, seed: int, bots,
                 traces: tuple[Path | None, Path | None] = (None, None)) -> None:
    """``simulate``'s summary from the JIT and from the Python engine: the same but for the
    engine it names; ``traces``: where each writes its matches' records."""
    jit, py = (None if t is None else str(t) for t in traces)
    a = api.simulate(game, players, matches, seed, bots, trace_path=jit, engine="jit")
    b = api.simulate(game, players, matches, seed, bots, trace_path=py, engine="python")
    assert (a.pop("engine"), b.pop("engine")) == ("jit", "python")
    assert a == b, (game.name, players, bots)


def same_trace_files(tmp_path: Path, game, players: int, matches: int, seed: int,
                     bots) -> Path:
    """``simulate`` writing its trace on the JIT and on the Python engine: the same summary
    and, byte for byte, the same file, which ``verify`` accepts. Returns the JIT's file
    (for a caller's stricter check)."""
    from dominorules.records import verify_file

    jit, py = tmp_path / "jit.jsonl", tmp_path / "py.jsonl"
    same_summary(game, players, matches, seed, bots, (jit, py))
    assert jit.read_bytes() == py.read_bytes(), (game.name, players, bots)
    assert verify_file(str(jit)) == [], game.name
    return jit


def on_every_bot_table(game, players: int, seeds: list[int], trace: bool = False
                       ) -> list[dict]:
    """``same_on_both_engines`` with each builtin bot at every seat, then the three of
    them in turn (the JIT playing each table, with a record when ``trace``): the Python
    engine's events."""
    events = []
    for bots in (*BOTS, [BOTS[s % 3] for s in range(players)]):
        assert engines.jit_reason(game, players, bots, trace=trace) is None
        events += same_on_both_engines(game, players, seeds, bots)
    return events


def player_counts(game, most: int = 4) -> list[int]:
    """Every player count of 2 to ``most`` the ruleset takes."""
    takes = []
    for n in range(2, most + 1):
        try:
            game.check_players(n)
        except Exception:   # noqa: BLE001 - a player count the ruleset does not take
            continue
        takes.append(n)
    return takes


def every_player_count(*paths: str):
    """(path, players) for each ruleset file at every player count it allows, as pytest
    parameters named by the file and the count."""
    import pytest

    for path in paths:
        rules = api.load_game(path).rules
        for players in range(rules.min_players, rules.max_players + 1):
            yield pytest.param(path, players, id=f"{Path(path).stem}-{players}")


def need_jit() -> None:
    """Skip the test without numba or with ``DOMINORULES_NO_JIT`` set."""
    import pytest

    pytest.importorskip("numba")
    from dominorules.kernel import jit_kernel

    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
