"""Rule examples that run: a position's legal actions, or a finished round's points.

``check_examples(rules)`` is what ``dominorules validate`` calls; it returns the
failures with a readable message. Positions and single actions are set up on the
general loop and decided by its own methods (``engine.house_examples``), so an
example checks the rules the engine plays.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import house_examples
from .actions import Action, ActionError
from .game import Game
from .game_rules import Example, Rules
from .tiles import Tile, TileSet, in_set, not_in_set, parse_tiles


def points_for(game: Game, hands: Sequence[Sequence[Tile]], result: str,
               drawn: Sequence[int] | None = None) -> list[int]:
    """Points per side for a round ending with these hands (``domino``: the first empty hand
    went out)."""
    ts = game.tileset
    n = len(hands)
    masks = [ts.mask(h) for h in hands]
    pips = [game.hand_value(m) for m in masks]
    counts = [len(h) for h in hands]
    domino = next((s for s in range(n) if not hands[s]), None) if result == "domino" else None
    settle = game.settler(n).settle
    return settle(pips, counts, list(drawn or [0] * n), domino, game.draw_cost(n))[3]


def check_examples(rules: Rules) -> list[tuple[Example, str]]:
    """Every example whose expectation the engine does not meet, with the reason."""
    game = Game(rules)
    failures = []
    for ex in rules.examples:
        try:
            problem = _check(game, ex)
        except (ValueError, KeyError, ActionError, IndexError, TypeError) as exc:
            problem = f"cannot set up the example: {exc}"
        if problem:
            failures.append((ex, problem))
    return failures


def _check_events(game: Game, data: dict, hands: list[list[Tile]]) -> str:
    """What one action fires against the example's expect_points / again / skips."""
    got = house_examples.fired(game, data, hands)
    if isinstance(got, str):
        return f"cannot set up the example: {got}"
    points, again, skips = got
    sides = len(game.teams(len(hands)))
    want = list(data.get("expect_points") or [0] * sides)
    problems = []
    if points != want:
        problems.append(f"expected points {want} during play, the rules give {points}")
    if bool(again) != bool(data.get("expect_again", False)):
        problems.append("expected another turn" if data.get("expect_again")
                        else "expected no other turn, the rules give one")
    if skips != int(data.get("expect_skips", 0)):
        problems.append(f"expected {int(data.get('expect_skips', 0))} skipped turns, the rules "
                        f"give {skips}")
    return "; ".join(problems)


def _hands(ts: TileSet, data: dict) -> list[list[Tile]]:
    hands = [parse_tiles(h) if isinstance(h, str) else [Tile.of(t) for t in h]
             for h in data["hands"]]
    for h in hands:
        for t in h:
            if not in_set(t, ts.max_pip):
                raise ValueError(not_in_set(str(t), ts.max_pip))
    return hands


def _check(game: Game, ex: Example) -> str:
    data = ex.data
    hands = _hands(game.tileset, data)
    general = game.rules.general
    if ex.kind == "events":
        return _check_events(game, data, hands)
    if ex.kind == "points":
        if general:
            got = house_examples.points(game, data, hands)
        else:
            got = points_for(game, hands, data.get("result", "domino"), data.get("drawn"))
        want = list(data["expect_points"])
        if got != want:
            return f"expected points {want}, the rules give {got}"
        return ""
    legal = house_examples.legal(game, data, hands)
    want = [Action.parse(str(t)) for t in data["expect_legal"]]
    if sorted(map(str, legal)) != sorted(map(str, want)):
        shown = ", ".join(map(str, legal)) or "none"
        return (f"expected legal actions {', '.join(map(str, want)) or 'none'}; "
                f"the rules allow {shown}")
    return ""
