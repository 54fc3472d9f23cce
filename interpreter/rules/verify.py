"""Run a ruleset's rule examples through the engine; each failure becomes a Diagnostic.

Examples are checked by ``validate`` (not by every load): they say what the rules
mean, and a failing one means the data and the intent disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..diagnostics import Diagnostic
from ..engine import positions
from ..engine.actions import Action, ActionError, board_names
from ..engine.dealt import DealtFailure, play_dealt
from ..engine.game import Game
from ..engine.game_rules import Rules
from ..engine.tiles import Tile, TileSet, parse_tiles
from .examples import Example
from .marked_yaml import FieldPath, Mark, dotted


def example_diagnostics(rules: Rules, examples: Sequence[Example],
                        marks: Mapping[FieldPath, Mark]) -> list[Diagnostic]:
    """One diagnostic per example the engine does not confirm, at the example's first line
    (a dealt example's decision that cannot be played: at that ``play`` entry)."""
    out = []
    for example, problem, inside in _failures(rules, examples):
        index = next(i for i, e in enumerate(examples) if e is example)
        path = ("examples", index, *inside)
        mark = marks.get(path) or marks.get(("examples", index))
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        out.append(Diagnostic("example", f"example '{example.title}' fails: {problem}",
                              path=dotted(path), hint="fix the example, or the rule it shows",
                              **where))
    return out


def check_examples(rules: Rules, examples: Sequence[Example]) -> list[tuple[Example, str]]:
    """Every example whose expectation the engine does not meet, with the reason."""
    return [(ex, problem) for ex, problem, _ in _failures(rules, examples)]


def _failures(rules: Rules, examples: Sequence[Example]
              ) -> list[tuple[Example, str, FieldPath]]:
    """``check_examples`` with where in the example each failure lies (``()``: the whole
    example; ``("play", i)``: a dealt example's decision)."""
    game = Game(rules)
    failures = []
    for ex in examples:
        inside: FieldPath = ()
        try:
            problem = _check(game, ex)
        except (ValueError, KeyError, ActionError, IndexError, TypeError) as exc:
            problem = f"cannot set up the example: {exc}"
        if isinstance(problem, DealtFailure):
            problem, inside = (f"cannot play the example: {problem.message}",
                               () if problem.index is None else ("play", problem.index))
        if problem:
            failures.append((ex, problem, inside))
    return failures


def _check_events(game: Game, data: dict, hands: list[list[Tile]]) -> str:
    """What one action fires against the example's expect_points / again / skips."""
    values: dict[str, int] = {}
    laid: list = []
    got = positions.fired(game, data, hands, values, laid)
    if isinstance(got, str):
        return f"cannot set up the example: {got}"
    points, again, skips, taken = got
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
    if taken != int(data.get("expect_next_draws", 0)):
        problems.append(f"expected the next player to draw {int(data.get('expect_next_draws', 0))}"
                        f" tiles, the rules give {taken}")
    if len(laid) != int(data.get("expect_duties", 0)):   # events[].duty
        problems.append(f"expected {int(data.get('expect_duties', 0))} duties laid, the rules "
                        f"lay {len(laid)}")
    seats = data.get("expect_duty_seats")   # events[].duty.on: who bears them
    if seats is not None and [d.bearer for d in laid] != list(seats):
        problems.append(f"expected duties on seats {list(seats)}, the rules lay them on "
                        f"{[d.bearer for d in laid]}")
    wanted = data.get("expect_variables")   # an event's set: the values after the action
    if wanted is not None and {k: values.get(k) for k in wanted} != dict(wanted):
        problems.append(f"expected variables {dict(wanted)} after the action, the rules give "
                        f"{ {k: values.get(k) for k in wanted} }")
    return "; ".join(problems)


def _check_dealt(game: Game, data: dict) -> str | DealtFailure:
    """A dealt example's match (``engine.dealt``) against what it expects."""
    got = play_dealt(game, data)
    if isinstance(got, DealtFailure):
        return got
    problems = []
    if "expect_redeal" in data and got.redealt != data["expect_redeal"]:
        problems.append("expected the deal to be thrown in, the rules keep it"
                        if data["expect_redeal"] else
                        "expected the deal to stand, the rules throw it in")
    checks = (("expect_leader", "leader", got.leader), ("expect_turn", "seat to act", got.turn),
              ("expect_next_leader", "round 2's leader", got.next_leader))
    for key, what, value in checks:
        if key in data and data[key] != value:
            problems.append(f"expected {what} {data[key]}, the rules give {value}")
    if "expect_opening" in data:
        want = Tile.parse(str(data["expect_opening"]))
        if got.opening is None:
            problems.append(f"expected the opening {want}, but no tile was placed yet: add "
                            "the opening to play")
        elif got.opening != want:
            problems.append(f"expected the opening {want}, the rules give {got.opening}")
    if "expect_legal" in data:
        names = board_names(game.rules.layout)
        want_legal = sorted(str(Action.parse(str(t), names)) for t in data["expect_legal"])
        if sorted(got.legal) != want_legal:
            problems.append(f"expected legal actions {', '.join(want_legal) or 'none'}; the "
                            f"rules allow {', '.join(got.legal) or 'none'}")
    if "expect_scores_now" in data and list(data["expect_scores_now"]) != got.scores_now:
        problems.append(f"expected scores {list(data['expect_scores_now'])} once play is done, "
                        f"the rules give {got.scores_now}")
    for key, what, value in (("expect_points", "points", got.points),
                             ("expect_scores", "scores", got.scores)):
        if key not in data:
            continue
        if value is None:
            problems.append(f"expected {what} at round 1's end, but play does not end it")
        elif list(data[key]) != value:
            problems.append(f"expected {what} {list(data[key])} at round 1's end, the rules "
                            f"give {value}")
    return "; ".join(problems)


def _hands(ts: TileSet, data: dict) -> list[list[Tile]]:
    hands = [parse_tiles(h) if isinstance(h, str) else [Tile.of(t) for t in h]
             for h in data["hands"]]
    for h in hands:
        for t in h:
            if not ts.holds(t):
                raise ValueError(ts.missing(str(t), t))
    return hands


def _check(game: Game, ex: Example) -> str | DealtFailure:
    data = ex.data
    hands = _hands(game.tileset, data)
    general = game.rules.general
    if ex.kind == "events":
        return _check_events(game, data, hands)
    if ex.kind == "dealt":
        return _check_dealt(game, data)
    if ex.kind == "points":
        if general:
            got = positions.points(game, data, hands)
        else:
            got = positions.points_for(game, hands, data.get("result", "domino"), data.get("drawn"))
        want = list(data["expect_points"])
        if got != want:
            return f"expected points {want}, the rules give {got}"
        if "expect_variables" in data:
            after = positions.variables_after(game, data, hands)
            wanted = {**after, **data["expect_variables"]}
            if after != wanted:
                return f"expected variables {wanted} for the next round, the rules give {after}"
        return ""
    legal = positions.legal(game, data, hands)
    want = [Action.parse(str(t), board_names(game.rules.layout)) for t in data["expect_legal"]]
    if sorted(map(str, legal)) != sorted(map(str, want)):
        shown = ", ".join(map(str, legal)) or "none"
        return (f"expected legal actions {', '.join(map(str, want)) or 'none'}; "
                f"the rules allow {shown}")
    return ""
