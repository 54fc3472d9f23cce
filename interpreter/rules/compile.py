"""Turn a merged, valid ruleset into ``engine.Rules``: formulas to callables, choices to values.

Every expression is compiled once here; its problems become Diagnostics placed
on the offending character inside the YAML file. The callables are wrapped to
the plain signatures ``Rules`` documents, so the engine never sees an env dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..diagnostics import Diagnostic
from ..engine.rules import Example, Rules, ScoreContext
from ..expr import ExprError, compile_expression
from .exprpos import locate
from .source import Mark, Path, dotted

Env = Mapping[str, Any]
EnvFn = Callable[[Env], Any]

# (path in the ruleset, field kind of the expression language)
EXPRESSIONS: tuple[tuple[Path, str], ...] = (
    (("deal", "hand_size"), "hand_size"),
    (("drawing", "cost"), "draw_cost"),
    (("scoring", "tile_value"), "tile_value"),
    (("scoring", "domino"), "scoring"),
    (("scoring", "blocked", "points"), "scoring"),
    (("match", "target"), "target"),
)


def tile_count(max_pip: int) -> int:
    """Tiles in a double-``max_pip`` set."""
    return (max_pip + 1) * (max_pip + 2) // 2


def parse_tile(text: str) -> tuple[int, int]:
    """``"[6|4]"`` -> ``(4, 6)``: a tile is (low, high)."""
    a, b = (int(part) for part in text.strip("[]").split("|"))
    return (min(a, b), max(a, b))


def get(data: Any, path: Path) -> Any:
    """The value at ``path``, or None when any step is missing (or not a mapping)."""
    value: Any = data
    for part in path:
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _problem_diagnostic(problem: Any, path: Path, value: Any, mark: Mark | None
                        ) -> Diagnostic:
    where: dict[str, Any] = {}
    if mark is not None:
        text = value if isinstance(value, str) else str(value)
        line, column = locate(mark, text, problem.offset)
        where = {"file": mark.file, "line": line, "column": column}
    return Diagnostic(problem.code, problem.message, path=dotted(path), hint=problem.hint,
                      length=max(1, problem.length), **where)


def compile_expressions(data: Mapping[str, Any], marks: Mapping[Path, Mark],
                        skip: set[str] = frozenset()) -> tuple[dict[Path, EnvFn], list[Diagnostic]]:
    """Compile every formula field present; returns path -> fn(env) and the problems found.

    ``skip`` holds dotted paths already reported (by the schema): they are left alone.
    """
    compiled: dict[Path, EnvFn] = {}
    problems: list[Diagnostic] = []
    for path, kind in EXPRESSIONS:
        value = get(data, path)
        if value is None or dotted(path) in skip or not isinstance(value, int | str):
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            compiled[path] = lambda env, v=value: v
            continue
        try:
            compiled[path] = compile_expression(value, kind).fn
        except ExprError as exc:
            problems += [_problem_diagnostic(p, path, value, marks.get(path))
                         for p in exc.problems]
    return compiled, problems


def wrap(data: Mapping[str, Any], fns: Mapping[Path, EnvFn]) -> dict[str, Callable[..., int]]:
    """The compiled formulas under the names and signatures of ``Rules``."""
    max_pip = data["set"]["max_pip"]
    count = tile_count(max_pip)
    hand = fns[("deal", "hand_size")]
    cost = fns[("drawing", "cost")]
    value = fns[("scoring", "tile_value")]
    domino = fns[("scoring", "domino")]
    blocked = fns[("scoring", "blocked", "points")]
    target = fns[("match", "target")]

    def score_env(ctx: ScoreContext) -> dict[str, Any]:
        return {"winner": ctx.winner, "opponents": ctx.opponents, "sides": ctx.sides,
                "seats": ctx.seats, "players": ctx.players}

    return {
        "hand_size": lambda players: hand(
            {"players": players, "max_pip": max_pip, "tile_count": count}),
        "draw_cost": lambda players: cost({"players": players}),
        "tile_value": lambda low, high: value({"tile": (low, high)}),
        "domino_points": lambda ctx: domino(score_env(ctx)),
        "blocked_points": lambda ctx: blocked(score_env(ctx)),
        "target": lambda players, side_count, partnerships: target(
            {"players": players, "side_count": side_count, "partnerships": partnerships}),
    }


def examples(data: Mapping[str, Any], marks: Mapping[Path, Mark]) -> tuple[Example, ...]:
    """The rule examples, passed through as ``Example`` values with their YAML line."""
    out = []
    for i, item in enumerate(data.get("examples", [])):
        mark = marks.get(("examples", i))
        out.append(Example(item["kind"], item["title"], dict(item), mark.line if mark else 0))
    return tuple(out)


def build_rules(name: str, data: Mapping[str, Any], marks: Mapping[Path, Mark],
                fns: Mapping[Path, EnvFn]) -> Rules:
    """``Rules`` from a valid ruleset (defaults filled in) and its compiled formulas."""
    tile = data["opening"]["tile"]
    drawing, lead, scoring = data["drawing"], data["lead"], data["scoring"]
    return Rules(
        name=name,
        title=data["title"],
        description=data["description"],
        source=data["source"],
        max_pip=data["set"]["max_pip"],
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        partnerships=data["players"]["sides"] == "partnerships",
        reserve=drawing["reserve"],
        first_leader=lead["first"],
        later_leader=lead["later"],
        lead_count_from=lead["count_from"],
        opening_tile=tile if tile in ("any", "highest_double") else parse_tile(tile),
        opener=data["opening"]["opener"],
        if_unheld=data["opening"]["if_unheld"],
        voluntary_draw=drawing["voluntary"] == "allowed",
        when_stuck=drawing["when_stuck"],
        draw_limit=drawing["limit"],
        draw_cost_to=drawing["cost_to"],
        blocked_winner=scoring["blocked"]["winner"],
        blocked_tie=scoring["blocked"]["tie"],
        match_tie=data["match"]["tie"],
        examples=examples(data, marks),
        **wrap(data, fns),
    )
