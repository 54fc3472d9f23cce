"""Turn a merged, valid ruleset into ``engine.Rules``: formulas to callables, choices to values.

Every expression is compiled once here; its problems become Diagnostics placed
on the offending character inside the YAML file. The callables are wrapped to
the plain signatures ``Rules`` documents, so the engine never sees an env dict.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..diagnostics import Diagnostic
from ..engine.game_rules import (
    LEAD_CHOOSERS,
    LEAD_FOLLOWERS,
    Declaration,
    DeclareOption,
    DutyRule,
    FitRule,
    Opening,
    PlayEvent,
    Restriction,
    Rules,
    ScoreContext,
    Showdown,
    Variable,
)
from ..engine.mechanisms.layout import SPINS, Shape
from ..engine.mechanisms.set_tiles import taken_out
from ..engine.mechanisms.several import SeveralRule
from ..engine.mechanisms.table import reads as table_names
from ..engine.tiles import in_set, not_in_set, parse_pair, tile_count
from ..expr import ExprError, ast, compile_expression
from ..expr.ast import names_read, nodes
from ..expr.errors import ExprProblem
from ..expr.fields import FIELDS, READS_VARIABLES
from ..expr.runtime import FUNCTIONS
from ..expr.types import BOOL, INT
from .exprpos import locate
from .marked_yaml import FieldPath, Mark, dotted
from .schema import formula_fields

Env = Mapping[str, Any]
EnvFn = Callable[[Env], Any]

# What the first edition's scoring formulas could read: one reading anything else (a round
# fact, a side's score...) needs the general settlement.
_PLAIN_SCORING_NAMES = {"winner", "opponents", "sides", "seats", "players"}
_PLAIN_ATTRIBUTES = {"index", "value", "pips", "tiles", "drawn", "players", "seat"}
LEAD_WORDS = LEAD_CHOOSERS + LEAD_FOLLOWERS
# the Rules fields of what acts only while tiles are placed (build_rules: a ruleset general
# only by these is ``play_only``; kernel.jit_house names those its JIT plays)
IN_PLAY = ("events", "restrictions", "if_none_allowed", "spinner", "direction",
           "draw_ends_turn", "draw_exactly", "passing", "several", "fit", "doubles", "layout",
           "play_until")


def formula_paths(data: Mapping[str, Any]) -> list[tuple[FieldPath, str]]:
    """Every formula field present in ``data``, with its kind: the fields whose schema
    refers to the formula (or condition) definition (``schema.formula_fields``)."""
    return formula_fields(data)


def reads_hand_pips(tree: ast.Node) -> bool:
    """Whether a formula reads a side's or player's ``pips`` (not a tile's)."""
    for node in nodes(tree):
        if isinstance(node, ast.Attribute) and node.attr == "pips":
            typ = node.obj.type
            while typ is not None and typ.elem is not None:
                typ = typ.elem
            if typ is not None and typ.name in ("side", "player"):
                return True
    return False


def reads_round_facts(tree: ast.Node) -> bool:
    """Whether a scoring formula reads more than the first edition offered."""
    return any((isinstance(n, ast.Name) and n.name not in _PLAIN_SCORING_NAMES)
               or (isinstance(n, ast.Attribute) and n.attr not in _PLAIN_ATTRIBUTES)
               for n in nodes(tree))


def get(data: Any, path: FieldPath) -> Any:
    """The value at ``path``, or None when any step is missing (or not a mapping or list)."""
    value: Any = data
    for part in path:
        if isinstance(part, int) and isinstance(value, list):
            if not 0 <= part < len(value):
                return None
            value = value[part]
            continue
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _problem_diagnostic(problem: Any, path: FieldPath, value: Any, mark: Mark | None,
                        kind: str = "") -> Diagnostic:
    where: dict[str, Any] = {}
    if mark is not None:
        text = value if isinstance(value, str) else str(value)
        line, column = locate(mark, text, problem.offset)
        where = {"file": mark.file, "line": line, "column": column}
    return Diagnostic(problem.code, _in_field_words(problem.message, path, kind),
                      path=dotted(path), hint=problem.hint, length=max(1, problem.length),
                      **where)


def _in_field_words(message: str, path: FieldPath, kind: str) -> str:
    """A formula's result of the wrong type named by the field the file wrote
    (``declarations[0].due must be a boolean``), not by its kind (``event_place``, which
    several fields share and whose own result may be the other type)."""
    said = f"{kind.removesuffix('_condition')} must be "
    if kind and message.startswith(said):
        return f"{dotted(path)} must be {message[len(said):]}"
    return message


def compile_expressions(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark],
                        skip: set[str] = frozenset(),
                        trees: dict[FieldPath, ast.Node] | None = None
                        ) -> tuple[dict[FieldPath, EnvFn], list[Diagnostic]]:
    """Compile every formula field present; returns path -> fn(env) and the problems found.

    ``skip`` holds dotted paths already reported (by the schema): they are left alone.
    ``trees``, when given, receives each compiled formula's checked syntax tree.
    """
    compiled: dict[FieldPath, EnvFn] = {}
    problems: list[Diagnostic] = []
    extra, problems = variable_names(data, marks)
    for path, kind in formula_paths(data):
        value = get(data, path)
        if value is None or dotted(path) in skip or not isinstance(value, int | str):
            continue
        if isinstance(value, bool) and kind.endswith("_condition"):
            compiled[path] = lambda env, v=value: v
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            compiled[path] = lambda env, v=value: v
            continue
        try:
            result = compile_expression(value, kind,
                                        extra if kind in READS_VARIABLES else None)
        except ExprError as exc:
            problems += [_problem_diagnostic(p, path, value, marks.get(path), kind)
                         for p in exc.problems]
            continue
        outside = _tiles_outside(result.ast, data, value) + _names_without_board(result.ast, data)
        if outside:
            problems += [_problem_diagnostic(p, path, value, marks.get(path)) for p in outside]
            continue
        compiled[path] = result.fn
        if trees is not None:
            trees[path] = result.ast
    return compiled, problems


# words a variable may not be named: the language's own and every formula's names
_KEYWORDS = {"if", "else", "and", "or", "not", "in", "true", "false"}
_NAME = re.compile(r"[a-z][a-z0-9_]{0,30}")


def variable_names(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]
                   ) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The names ``variables:`` adds to the formulas that read them (all integers), and
    a problem for each name that would hide a name a formula already has."""
    variables = data.get("variables")
    if not isinstance(variables, Mapping):
        return {}, []
    taken = _KEYWORDS | set(FUNCTIONS) | {n for spec in FIELDS.values() for n in spec.names}
    names: dict[str, Any] = {}
    problems: list[Diagnostic] = []
    for name in variables:
        mark = marks.get(("variables", name))
        where = ({"file": mark.file, "line": mark.key_line, "column": mark.key_column}
                 if mark else {})
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            problems.append(Diagnostic(
                "variable-name", f"a variable's name must be a lower-case word formulas can "
                f"read; {name!r} is not", path=f"variables.{name}",
                hint="use lower-case letters, digits and _, starting with a letter "
                     "(say stake or blocked_run)", **where))
        elif name in taken:
            problems.append(Diagnostic(
                "variable-name", f"a variable cannot be called {name!r}: formulas already "
                "read that name", path=f"variables.{name}",
                hint=f"rename it, say {name}_count or my_{name}", **where))
        else:
            names[str(name)] = INT
    return names, problems


def variables_of(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn],
                 trees: Mapping[FieldPath, ast.Node] | None = None) -> tuple[Variable, ...]:
    """``Rules.variables`` from ``variables:`` (in the file's order)."""
    trees = trees or {}
    return tuple(Variable(str(name), int(spec["initial"]),
                          fns.get(("variables", name, "after_round")),
                          str(spec.get("after_round", "")),
                          _tree_of(spec.get("after_round"),
                                   trees.get(("variables", name, "after_round"))))
                 for name, spec in (data.get("variables") or {}).items())


def declarations_of(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]
                    ) -> tuple[Declaration, ...]:
    """``Rules.declarations`` from ``declarations:`` (in the file's order)."""
    out = []
    for i, item in enumerate(data.get("declarations") or ()):
        here = ("declarations", i)
        options = tuple(
            DeclareOption(opt["name"], tuple(
                (var, fns[(*here, "options", k, "set", var)]) for var in (opt.get("set") or {})
                if (*here, "options", k, "set", var) in fns),
                fns.get((*here, "options", k, "value")), opt.get("description", ""),
                fns.get((*here, "options", k, "lead")), int(opt.get("draw", 0)))
            for k, opt in enumerate(item.get("options") or ()))
        out.append(Declaration(
            item["name"], item["when"], item.get("title", ""), item.get("explain", ""),
            options, tuple(item.get("claims") or ()), fns.get((*here, "worth")),
            fns.get((*here, "score")), fns.get((*here, "each_opponent")),
            fns.get((*here, "due"))))
    return tuple(out)


def showdown_of(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]) -> Showdown | None:
    """``Rules.showdown`` from ``showdown:``; None without one (the round's end pays nothing)."""
    spec = data.get("showdown")
    if spec is None:
        return None
    return Showdown(fns.get(("showdown", "penalty")), fns.get(("showdown", "each_opponent")),
                    spec.get("explain", ""))


def _tiles_outside(tree: ast.Node, data: Mapping[str, Any], text: str) -> list[ExprProblem]:
    """A tile literal the ruleset's set does not hold (``[9|9]`` in a double-six game):
    no tile can ever equal it, and the engines index tiles by it."""
    max_pip = (data.get("set") or {}).get("max_pip") if isinstance(data.get("set"), dict) \
        else None
    if not isinstance(max_pip, int) or isinstance(max_pip, bool):
        return []
    return [ExprProblem("expr-type", not_in_set(f"tile {text[n.offset:n.offset + n.length]}",
                                                max_pip),
                        n.offset, n.length, f"name a tile whose halves are 0 to {max_pip}")
            for n in nodes(tree) if isinstance(n, ast.Tile) and not in_set(n, max_pip)]


def _names_without_board(tree: ast.Node, data: Mapping[str, Any]) -> list[ExprProblem]:
    """``own_train`` on a board without trains: it could only ever read false, so the
    condition it sits in would silently never (or always) hold."""
    board = data.get("board") if isinstance(data.get("board"), Mapping) else {}
    layout = board.get("layout") if isinstance(board.get("layout"), Mapping) else {}
    if layout.get("trains"):
        return []
    return [ExprProblem("expr-name", "own_train is always false here: the board has no "
                        "trains, so no tile ever goes on the player's own train",
                        n.offset, n.length, "give the board trains (board.layout.trains: "
                        "true), or remove own_train")
            for n in nodes(tree) if isinstance(n, ast.Name) and n.name == "own_train"]


def removed_tiles(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]
                  ) -> tuple[tuple[int, int], ...]:
    """The tiles ``set.without`` and ``set.keep`` take out of the set, in its order (a
    ``keep`` that did not compile keeps every tile)."""
    the_set = data["set"]
    without = [parse_pair(t) for t in the_set.get("without", ())]
    return taken_out(the_set["max_pip"], without, fns.get(("set", "keep")))


def copies_of(data: Mapping[str, Any]) -> int:
    """``set.copies``: how many times the set holds each of its tiles (1 unless two sets
    are shuffled together)."""
    return int(data["set"].get("copies", 1))


def wrap(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]) -> dict[str, Callable[..., int]]:
    """The compiled formulas under the names and signatures of ``Rules`` (None for one
    missing from ``fns``: it did not compile)."""
    max_pip = data["set"]["max_pip"]
    count = (tile_count(max_pip) - len(removed_tiles(data, fns))) * copies_of(data)
    hand = fns.get(("deal", "hand_size"))
    cost = fns.get(("drawing", "cost"))
    value = fns.get(("scoring", "tile_value"))
    domino = fns.get(("scoring", "domino"))
    blocked = fns.get(("scoring", "blocked", "points"))
    target = fns.get(("match", "target"))

    def score_env(ctx: ScoreContext) -> dict[str, Any]:
        return {"winner": ctx.winner, "opponents": ctx.opponents, "sides": ctx.sides,
                "seats": ctx.seats, "players": ctx.players}

    made = {
        "hand_size": lambda players: hand(
            {"players": players, "max_pip": max_pip, "tile_count": count}),
        "draw_cost": lambda players: cost({"players": players}),
        "tile_value": lambda low, high: value({"tile": (low, high)}),
        "domino_points": lambda ctx: domino(score_env(ctx)),
        "blocked_points": lambda ctx: blocked(score_env(ctx)),
        "target": lambda players, side_count, partnerships: target(
            {"players": players, "side_count": side_count, "partnerships": partnerships}),
    }
    present = {"hand_size": hand, "draw_cost": cost, "tile_value": value,
               "domino_points": domino, "blocked_points": blocked, "target": target}
    return {name: fn if present[name] is not None else None for name, fn in made.items()}


def partial_rules(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]) -> Any:
    """``wrap``'s callables as attributes, None for each formula that did not compile: what
    the load-time checks of a file with a formula error can still run."""
    from types import SimpleNamespace

    return SimpleNamespace(**wrap(data, fns), removed_tiles=removed_tiles(data, fns),
                           copies=copies_of(data))


def _duty(data: Mapping[str, Any] | None, met: EnvFn | None) -> DutyRule | None:
    """``events[].duty`` as the engine's ``DutyRule`` (None: the event lays none; a ``met``
    written as true or false is that constant)."""
    if data is None:
        return None
    if met is None:
        value = bool(data.get("met", True))
        met = (lambda env: True) if value else (lambda env: False)
    return DutyRule(met, int(data.get("fail_points", 0)), int(data.get("fail_draws", 0)),
                    data.get("lasts", "until_met") == "until_met", data.get("on", "next"))


def _layout(data: Mapping[str, Any] | None) -> Shape | None:
    """``board.layout`` as the engine's ``Shape`` (None when the ruleset names none)."""
    if data is None:
        return None
    spins = data.get("spins", "none")
    return Shape(ends=1 if data.get("ends") == "one" else 2,
                 spins=spins if spins in SPINS else parse_pair(spins),
                 sides=int(data.get("sides", 2)), opening_sides=int(data.get("opening_sides", 0)),
                 through=bool(data.get("through", True)),
                 arms_open=data.get("arms_open", "after_sides"),
                 answer_first=bool(data.get("answer_first", False)),
                 dead_arms=bool(data.get("dead_arms", False)),
                 trains=bool(data.get("trains", False)),
                 shared_train=str(data.get("shared_train") or ""),
                 markers=bool(data.get("markers", False)),
                 answer_doubles=bool(data.get("answer_doubles", False)))


def _several(data: Mapping[str, Any] | None, fns: Mapping[FieldPath, EnvFn]
             ) -> SeveralRule | None:
    """``play.several`` as the engine's ``SeveralRule`` (None when the ruleset names none)."""
    if data is None:
        return None
    chain = data.get("move") == "chain"   # a run of up to four tiles unless ``most`` says
    return SeveralRule(most=int(data.get("most", 4 if chain else 2)),
                       tiles=fns.get(("play", "several", "tiles")),
                       alone=fns.get(("play", "several", "alone")),
                       explain=data.get("explain", ""),
                       tiles_text=str(data["tiles"]) if "tiles" in data else "",
                       whole_hand=data.get("move", "each_end") == "whole_hand",
                       after_double=data.get("move", "each_end") == "after_double",
                       chain=chain)


def _tile_choice(tile: str) -> str | tuple[int, int]:
    return tile if tile in ("any", "highest_double") else parse_pair(tile)


def mechanisms(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn],
               trees: Mapping[FieldPath, ast.Node]) -> dict[str, Any]:
    """The house-rule mechanisms of ``Rules``, and whether the general loop must run them."""
    play = data.get("play") or {}
    opening = data["opening"]
    scoring, match = data["scoring"], data["match"]
    blocked = scoring["blocked"]
    first = opening.get("first_round")
    first_opening = None
    if first:
        merged = {**opening, **first}
        first_opening = Opening(
            tile=_tile_choice(merged["tile"]), opener=merged["opener"],
            if_unheld=merged["if_unheld"], allow=fns.get(("opening", "first_round", "allow"),
                                                         fns.get(("opening", "allow"))),
            explain=merged.get("explain", ""), if_lacking=merged.get("if_lacking", "redeal"),
            allow_tree=_tree_of(merged.get("allow"), trees.get(
                ("opening", "first_round", "allow"), trees.get(("opening", "allow")))))
    restrictions = tuple(
        Restriction(fns[("play", "restrictions", i, "allow")], item.get("explain", ""),
                    str(item["allow"]), names_read(trees.get(("play", "restrictions", i, "allow"))),
                    tree=_tree_of(item["allow"], trees.get(("play", "restrictions", i, "allow"))))
        for i, item in enumerate(play.get("restrictions", ())))
    events = tuple(
        PlayEvent(after=item["after"], title=item.get("title", ""),
                  condition=fns.get(("events", i, "if")),
                  points=fns.get(("events", i, "points")),
                  each_opponent=fns.get(("events", i, "each_opponent")),
                  again=fns.get(("events", i, "again")),
                  skip=fns.get(("events", i, "skip")),
                  next_draws=fns.get(("events", i, "next_draws")),
                  sets=tuple((str(name), fns[("events", i, "set", name)])
                             for name in (item.get("set") or {})
                             if ("events", i, "set", name) in fns),
                  duty=_duty(item.get("duty"), fns.get(("events", i, "duty", "met"))))
        for i, item in enumerate(data.get("events", ())))
    later = data["lead"]["later"]
    out: dict[str, Any] = dict(
        removed_tiles=removed_tiles(data, fns),
        copies=copies_of(data),
        spinner=(data.get("board") or {}).get("spinner", "none"),
        fit=fit_rule(data, fns),
        doubles=(data.get("matching") or {}).get("doubles", "across"),
        layout=_layout((data.get("board") or {}).get("layout")),
        direction=play.get("direction", "left"),
        restrictions=restrictions,
        if_none_allowed=play.get("if_none_allowed", "stuck"),
        draw_ends_turn=bool(data["drawing"].get("ends_turn", False)),
        draw_exactly=data["drawing"].get("exactly"),
        passing=play.get("passing", "forced"),
        several=_several(play.get("several"), fns),
        play_until=play.get("until", "first_out"),
        events=events,
        opening_allow=fns.get(("opening", "allow")),
        opening_explain=opening.get("explain", ""),
        if_lacking=opening.get("if_lacking", "redeal"),
        first_opening=first_opening,
        later_leader_formula=None if later in LEAD_WORDS else fns.get(("lead", "later")),
        redeal_if=fns.get(("deal", "redeal_if")),
        turn_up=bool((data.get("deal") or {}).get("turn_up", False)),
        blind=bool((data.get("deal") or {}).get("blind", False)),
        leftover=(data.get("deal") or {}).get("leftover", "boneyard"),
        domino_winner=scoring.get("domino_winner", "dominoer"),
        blocked_rank=(fns.get(("scoring", "blocked", "rank"))
                      if blocked["winner"] in ("lowest", "highest") else None),
        blocked_among=blocked.get("among", "all"),
        every_side=fns.get(("scoring", "every_side")),
        domino_formula=fns[("scoring", "domino")],
        blocked_formula=fns[("scoring", "blocked", "points")],
        match_end=match.get("end", "points"),
        match_winner=match.get("winner", "highest"),
        exact_target=bool(match.get("exact", False)),
        minimum_to_start=int(match.get("minimum_to_start", 0)),
        draw_if=fns.get(("match", "draw_if")),
        final=fns.get(("match", "final")),
        variables=variables_of(data, fns, trees),
        declarations=declarations_of(data, fns),
        showdown=showdown_of(data, fns),
        ends_in_play=bool(match.get("ends_in_play", False)),
        lead_reads_seats=later not in LEAD_WORDS and bool(
            names_read(trees.get(("lead", "later"))) & {"seats", "sides"}),
    )
    plain = Rules.__dataclass_fields__
    # what acts only while tiles are placed: the board (spinner, direction of play),
    # events and restrictions; a ruleset general only by these deals, opens and settles
    # as the plain game does (the kernel then keeps the plain deal, opening and settlement)
    in_play = IN_PLAY
    general = any(out[k] != plain[k].default for k in out
                  if k not in ("domino_formula", "blocked_formula", *in_play))
    general = general or blocked["winner"] in ("lowest", "highest") \
        or blocked["tie"] in ("last_player", "next_player") \
        or opening["if_unheld"] == "heaviest"
    plain = [trees[p] for p in (("scoring", "domino"), ("scoring", "blocked", "points"))
             if p in trees]
    general = general or any(reads_round_facts(t) for t in plain)
    # the first edition's settler knows hand values only: pips that differ need the general
    value = fns[("scoring", "tile_value")]
    top = data["set"]["max_pip"]
    standard = all(value({"tile": (a, b)}) == a + b
                   for a in range(top + 1) for b in range(a, top + 1))
    general = general or (not standard and any(reads_hand_pips(t) for t in plain))
    during_play = any(out[k] != Rules.__dataclass_fields__[k].default for k in in_play)
    out["general"] = general or during_play
    out["play_only"] = during_play and not general
    out["domino_tree"] = _tree_of(scoring["domino"], trees.get(("scoring", "domino")))
    out["blocked_tree"] = _tree_of(blocked["points"], trees.get(("scoring", "blocked", "points")))
    if out["blocked_rank"] is not None:
        out["blocked_rank_tree"] = _tree_of(blocked.get("rank"),
                                            trees.get(("scoring", "blocked", "rank")))
    if out["every_side"] is not None:
        out["every_side_tree"] = _tree_of(scoring.get("every_side"),
                                          trees.get(("scoring", "every_side")))
    if out["opening_allow"] is not None:
        out["opening_allow_tree"] = _tree_of(opening.get("allow"), trees.get(("opening", "allow")))
    if out["redeal_if"] is not None:
        out["redeal_if_tree"] = _tree_of((data.get("deal") or {}).get("redeal_if"),
                                         trees.get(("deal", "redeal_if")))
    if out["draw_if"] is not None:
        out["draw_if_tree"] = _tree_of(match.get("draw_if"), trees.get(("match", "draw_if")))
    if out["final"] is not None:
        out["final_tree"] = _tree_of(match.get("final"), trees.get(("match", "final")))
    if out["later_leader_formula"] is not None:
        out["later_leader_tree"] = _tree_of(later, trees.get(("lead", "later")))
    # what events and declarations after a placement read of the table
    # (engine.mechanisms.table), resolved once here
    out["reads_table"] = any(table_names(names_read(tree)) for (key, *_), tree in trees.items()
                             if key in ("events", "declarations"))
    out["event_trees"] = tuple(
        {**{key: _tree_of(item[key], trees.get(("events", i, key))) for key in EVENT_FORMULAS
            if item.get(key) is not None},
         # a set's formulas (set.<name>) and a duty's met (duty.met), for kernel.jit_house
         **{f"set.{name}": _tree_of(value, trees.get(("events", i, "set", name)))
            for name, value in (item.get("set") or {}).items()},
         **({"duty.met": _tree_of(item["duty"]["met"], trees.get(("events", i, "duty", "met")))}
            if "met" in (item.get("duty") or {}) else {})}
        for i, item in enumerate(data.get("events", ())))
    out["declaration_trees"] = tuple(   # (kernel.jit_declare)
        _declaration_trees(item, i, trees) for i, item in enumerate(data.get("declarations") or ()))
    out["showdown_trees"] = {path[1]: tree for path, tree in trees.items()
                             if path[0] == "showdown"}
    if play.get("several") is not None:   # its conditions' trees (kernel.jit_several)
        out["several_trees"] = {key: _tree_of(play["several"][key],
                                              trees.get(("play", "several", key)))
                                for key in ("tiles", "alone") if key in play["several"]}
    return out


def wild_tiles(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]
               ) -> frozenset[tuple[int, int]]:
    """``matching.wild`` as the set of wild tiles: the list as written, or every tile of
    the set its condition holds for (read once, here)."""
    wild = (data.get("matching") or {}).get("wild")
    if wild is None:
        return frozenset()
    if isinstance(wild, list):
        return frozenset(parse_pair(t) for t in wild)
    top = data["set"]["max_pip"]
    cond = fns.get(("matching", "wild"))
    if cond is None:   # true or false written as such
        return frozenset((a, b) for a in range(top + 1) for b in range(a, top + 1)
                         if wild is True)
    return frozenset((a, b) for a in range(top + 1) for b in range(a, top + 1)
                     if cond({"tile": (a, b), "max_pip": top}))


def fit_rule(data: Mapping[str, Any], fns: Mapping[FieldPath, EnvFn]) -> FitRule | None:
    """``matching``'s fit formula and wild tiles as one ``FitRule``; None when the ruleset
    keeps the same-number rule (so it pays nothing for the mechanism)."""
    matching = data.get("matching") or {}
    if "fits" not in matching and "wild" not in matching:
        return None
    text = matching.get("fits")
    formula = fns.get(("matching", "fits"))
    if formula is None and isinstance(text, bool):
        formula = (lambda env: True) if text else (lambda env: False)
    return FitRule(formula, wild_tiles(data, fns), matching.get("wild_leaves", "far_half"),
                   data["set"]["max_pip"], str(text) if text is not None else "")


EVENT_FORMULAS = ("if", "points", "each_opponent", "again", "skip", "next_draws")


def _declaration_trees(item: Mapping[str, Any], i: int, trees: Mapping[FieldPath, ast.Node]
                       ) -> dict[Any, ast.Node]:
    """Declaration ``i``'s checked trees by their path below it (``("options", k, "set",
    name)``, ``"worth"``...), a number written as such (``set: {stake: 2}``) as its node:
    the JIT writes each one's program (kernel.declare_code)."""
    out = {path[2:] if len(path) > 3 else path[2]: tree
           for path, tree in trees.items() if path[:2] == ("declarations", i)}
    written = [((key,), item.get(key)) for key in ("due", "worth", "score", "each_opponent")]
    for k, option in enumerate(item.get("options") or ()):
        written += [(("options", k, key), option.get(key)) for key in ("value", "lead")]
        written += [(("options", k, "set", name), value)
                    for name, value in (option.get("set") or {}).items()]
    for path, value in written:
        key = path[0] if len(path) == 1 else path
        tree = _tree_of(value, None) if key not in out else None
        if tree is not None:
            out[key] = tree
    return out


def _tree_of(value: Any, tree: ast.Node | None) -> ast.Node | None:
    """A formula's checked tree; a number or a truth value written as such becomes an
    ``Int`` or a ``Bool`` node."""
    if tree is not None:
        return tree
    if isinstance(value, bool):
        return ast.Bool(value, type=BOOL)
    if isinstance(value, int):
        return ast.Int(value, type=INT)
    return None


def build_rules(name: str, data: Mapping[str, Any], marks: Mapping[FieldPath, Mark],
                fns: Mapping[FieldPath, EnvFn], trees: Mapping[FieldPath, ast.Node] | None = None
                ) -> Rules:
    """``Rules`` from a valid ruleset (defaults filled in) and its compiled formulas."""
    tile = data["opening"]["tile"]
    drawing, lead, scoring = data["drawing"], data["lead"], data["scoring"]
    later = lead["later"]
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
        later_leader=later if later in LEAD_WORDS else "formula",
        lead_count_from=lead["count_from"],
        opening_tile=_tile_choice(tile),
        opener=data["opening"]["opener"],
        if_unheld=data["opening"]["if_unheld"],
        voluntary_draw=drawing["voluntary"] == "allowed",
        when_stuck=drawing["when_stuck"],
        draw_limit=drawing["limit"],
        draw_cost_to=drawing["cost_to"],
        blocked_winner=scoring["blocked"]["winner"],
        blocked_tie=scoring["blocked"]["tie"],
        match_tie=data["match"]["tie"],
        **wrap(data, fns),
        **mechanisms(data, fns, trees or {}),
    )
