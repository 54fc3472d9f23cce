"""Can a ruleset's match ever end? A few sample matches say, before anyone runs a compare.

A ruleset may be valid and still never finish: no rule ever scores a point, or the
target lies far beyond what rounds score. Such matches run to the round cap
(``api.MAX_ROUNDS``) and stop undecided. ``validate`` plays a few seeded matches
between random bots and warns when they hit the cap; it cannot prove a match ends
(points may depend on play), but it catches the common mistakes at once.
"""

from __future__ import annotations

from .diagnostics import Diagnostic, DiagnosticError

SAMPLES = 3  # seeded matches played (a normal ruleset ends each within a few rounds)
# then, when none of those stopped: more matches at every player count, within a time
# budget, warning when this share or more stop at the cap (a match that only sometimes
# runs forever: an exact target missed again and again)
MORE_SAMPLES = 40
CAPPED_SHARE = 0.05
BUDGET_SECONDS = 3.0


def _short(n: int) -> str:
    """A whole number as written, or as ``about 10^N`` when it is absurdly long."""
    text = str(n)
    return text if len(text) <= 24 else f"about 10^{len(text.lstrip('-')) - 1}"


def reach_warnings(game, path: str) -> list[Diagnostic]:
    """Warnings (severity ``warning``) when sample matches of ``game`` stop at the round cap."""
    from .api import MAX_ROUNDS, play_match

    players = game.rules.min_players
    try:
        game.check_players(players)
    except Exception:  # noqa: BLE001 - a seating problem is validate's error, not ours
        return []
    try:
        results = [play_match(game, players, seed, "random") for seed in range(1, SAMPLES + 1)]
    except DiagnosticError as exc:  # e.g. no deal can ever open: the match cannot even start
        return [Diagnostic(d.code, f"a sample match failed: {d.message}", file=path,
                           hint=d.hint, severity="warning") for d in exc.diagnostics]
    capped = [r for r in results if r.capped]
    if not capped:
        return _sometimes_capped(game, path)
    rounds = [rnd for r in results for rnd in r.rounds]
    points = sum(sum(rnd.points) for rnd in rounds)
    target = game.target(players)
    if points == 0:
        message = (f"no side scored a point in {len(rounds)} sample rounds: a match can "
                   f"never reach its target ({target})")
        hint = "check scoring.domino, scoring.blocked.points and drawing.cost"
    else:
        per_round = points // len(rounds)  # whole numbers: any size, no float overflow
        message = (f"{len(capped)} of {SAMPLES} sample matches stopped undecided at the "
                   f"round cap ({MAX_ROUNDS} rounds): the target ({_short(target)}) looks "
                   f"beyond reach, averaging {_short(per_round)} points a round")
        hint = "lower match.target, or score more points a round"
    return [Diagnostic("reach", message, file=path, path="match.target", hint=hint,
                       severity="warning")]


def _sometimes_capped(game, path: str) -> list[Diagnostic]:
    """A warning when ``CAPPED_SHARE`` or more of up to ``MORE_SAMPLES`` matches at some
    player count stop at the round cap. Seeds go round the player counts in turn, so a
    sampling cut short at ``BUDGET_SECONDS`` has still tried every count."""
    import time

    from .api import MAX_ROUNDS, play_match

    rules = game.rules
    counts = range(rules.min_players, rules.max_players + 1)
    played = dict.fromkeys(counts, 0)
    capped = dict.fromkeys(counts, 0)
    deadline = time.monotonic() + BUDGET_SECONDS
    for seed in range(SAMPLES + 1, SAMPLES + 1 + MORE_SAMPLES):
        if time.monotonic() > deadline:
            break
        for players in counts:
            try:
                result = play_match(game, players, seed, "random")
            except DiagnosticError:
                continue
            played[players] += 1
            capped[players] += result.capped
    shares = [(capped[n] / played[n], n) for n in counts if played[n]]
    share, players = max(shares, default=(0.0, 0))
    if not capped.get(players) or share < CAPPED_SHARE:
        return []
    return [Diagnostic(
        "reach", f"{capped[players]} of {played[players]} sample matches with {players} "
        f"players stopped undecided at the round cap ({MAX_ROUNDS} rounds): some matches "
        "never end", file=path, path="match.target", severity="warning",
        hint="make the target easier to reach (match.exact needs an exact finish), or end "
             "an undecided match with match.draw_if")]
