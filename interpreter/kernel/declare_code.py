"""What the JIT reads of a ruleset's declarations and showdown, without numba: their
layout in the kernel's ``CODE`` (``block``: every formula a ``jit_formula`` program, read
from its checked tree; per moment how many declarations and where each starts, per
declaration its claims or its options' rows, the showdown's two programs), why the GEN
lines do not play some (``refused``) and the bounds of the points they add (``sizes``).
``kernel.jit_declare`` plays them; ``kernel.jit_house`` asks this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .formulas import Unsupported, magnitude

if TYPE_CHECKING:
    from ..engine.game import Game

# a declaration's head in CODE: its claims (0: named options), how many choices, where its
# due, worth, score and each_opponent programs start (-1: none), where its choices start,
# its index among the ruleset's declarations (the record's lines name it: jit_trace)
CLAIMS, CHOICES, DUE, WORTH, SCORE, EACH, AT, INDEX = range(8)
# an option's row: its value and lead programs (-1: none), the tiles it draws, how many
# variables it sets and where their (variable, program) pairs start
VALUE, LEAD, DRAW, SETS, SETS_AT = range(5)
ROW = 5

class Programs:
    """Writes a declaration's formula as a ``jit_formula`` program over the names of its
    kind: ``declare`` (an option's, at the round's start), ``place`` (a placement's event
    names and the chooser's: worth, due, an option's after a placement), ``claim``
    (those and the claim's number and worth), ``showdown`` (the seat found out and its
    passes). ``event``, ``lists``: an event's names and lists the kernel keeps (with the
    variables); ``live``: raises ``Unsupported`` for a side's tallies read during play."""

    def __init__(self, event: dict, lists: dict, values: dict, tiles: Any, live: Any):
        from . import jit_formula

        self.tiles, self.live, self.values = tiles, live, values
        mine = {"seat": "seat", "hand": "hand"}
        hand = {"hand": jit_formula.TILES}
        match = {"players": "players", "round": "round", "target": "target"}
        self.kinds = {
            "declare": ({**match, **mine, **values}, hand),
            "place": ({**event, **mine, **values}, {**lists, **hand}),
            "claim": ({**event, **mine, "claimed": "claimed", "worth": "worth", **values},
                      {**lists, **hand}),
            "showdown": ({**match, "player": "seat", "passes": "reneged", **values}, {}),
        }

    def __call__(self, tree: Any, kind: str, kept: int = 0) -> list[int]:
        """``tree`` as a program; ``kept``: values held at the stack's top meanwhile."""
        from . import jit_formula

        names, lists = self.kinds[kind]
        if kind != "showdown":
            self.live([tree])
        return jit_formula.program(tree, names, lists, self.tiles, jit_formula.STACK - kept)

    def variable(self, name: str) -> int:
        """A variable's index after the facts (``X_VARS``)."""
        from . import jit_formula

        return self.values[name] - len(jit_formula.FACT)


def block(game: Game, code: list[int], program: Programs) -> dict[str, int]:
    """Append the ruleset's declarations and showdown to ``code``; where each moment's
    block and the showdown's start, by their ``jit_template.PLAY_PARAMS`` names (-1:
    none)."""
    r = game.rules
    trees = r.declaration_trees or ()
    if len(trees) != len(r.declarations):
        raise Unsupported("declarations without their trees")
    at: dict[str, int] = {}
    for when, name in (("round_start", "DECL_START"), ("after_place", "DECL_PLACE")):
        mine = [k for k, d in enumerate(r.declarations) if d.when == when]
        at[name] = len(code) if mine else -1
        if not mine:
            continue
        head = len(code)
        code += [len(mine)] + [-1] * len(mine)
        for j, k in enumerate(mine):
            code[head + 1 + j] = len(code)
            _declaration(r.declarations[k], trees[k], code, program, when, k)
    show = r.showdown
    at["SHOWDOWN"] = len(code) if show is not None else -1
    if show is not None:
        start = len(code)
        code += [-1, -1]
        for j, (key, fn) in enumerate((("penalty", show.penalty),
                                       ("each_opponent", show.each_opponent))):
            if fn is not None:
                code[start + j] = len(code)
                code += program(_known((r.showdown_trees or {}).get(key)), "showdown")
    return at


def _known(tree: Any) -> Any:
    if tree is None:
        raise Unsupported("a declaration's formula without its tree")
    return tree


def _declaration(d: Any, trees: dict, code: list[int], program: Any, when: str,
                 index: int) -> None:
    """One declaration's head, its choices and their programs, appended to ``code``."""
    start = len(code)
    n = len(d.claims) if d.claims else len(d.options)
    code += [len(d.claims), n, -1, -1, -1, -1, -1, index]
    place = "place" if when == "after_place" else "declare"
    for slot, key, kind, fn in ((DUE, "due", "place", d.due), (WORTH, "worth", "place", d.worth),
                                (SCORE, "score", "claim", d.score),
                                (EACH, "each_opponent", "claim", d.each_opponent)):
        if fn is not None:
            code[start + slot] = len(code)
            code += program(_known(trees.get(key)), kind)
    code[start + AT] = len(code)
    if d.claims:
        code += [int(c) for c in d.claims]
        return
    rows = len(code)
    code += [-1, -1, 0, 0, -1] * len(d.options)
    for k, option in enumerate(d.options):
        row = rows + ROW * k
        code[row + DRAW] = int(option.draw)
        for slot, key, fn in ((VALUE, "value", option.value), (LEAD, "lead", option.lead)):
            if fn is not None:
                code[row + slot] = len(code)
                code += program(_known(trees.get(("options", k, key))), place)
        code[row + SETS] = len(option.sets)
        pairs = len(code)
        code[row + SETS_AT] = pairs
        code += [0, 0] * len(option.sets)
        for j, (name, _) in enumerate(option.sets):
            code[pairs + 2 * j] = program.variable(name)
            code[pairs + 2 * j + 1] = len(code)
            code += program(_known(trees.get(("options", k, "set", name))), place,
                            len(option.sets))


def refused(r: Any) -> str | None:
    """What of a ruleset's declarations or showdown the GEN lines do not play (a phrase
    for ``jit_house.reason``), or None."""
    # (after a placement they read the ends and their tiles as events do: a fit rule's
    # numbers, a spinner's four ends: jit_events.arm_facts, jit_house._event_lists)
    if r.showdown is not None and r.blind:
        return "the hands shown at a round's end (showdown) with hidden rows (deal.blind)"
    return None


def sizes(game: Game, players: int, hand: int, known: dict[str, int], actions: int
          ) -> list[int]:
    """Bounds of what the declarations and the showdown add to a round's points (a claim
    at most once a placement, a penalty once a seat), for the JIT's 64-bit check; raises
    ``Unsupported`` for an option's value or lead that may outgrow 64 bits."""
    r = game.rules
    T = game.tileset.tile_count
    out = []
    for d, trees in zip(r.declarations, r.declaration_trees or (), strict=True):
        for key, tree in trees.items():
            if isinstance(key, tuple) and key[2] in ("value", "lead") and magnitude(
                    tree, hand, T, players, known) > 1 << 62:
                raise Unsupported("a declaration's option may outgrow 64 bits")
        if not d.claims:
            continue
        worth = magnitude(trees["worth"], hand, T, players, known) if "worth" in trees else 0
        facts = {**known, "claimed": max(abs(c) for c in d.claims), "worth": worth}
        score = magnitude(trees["score"], hand, T, players, facts) if "score" in trees \
            else worth
        each = magnitude(trees["each_opponent"], hand, T, players, facts) \
            if "each_opponent" in trees else 0
        out.append((T + 1) * (score + each))
    facts = {**known, "passes": actions}
    for tree in (r.showdown_trees or {}).values() if r.showdown is not None else ():
        out.append(players * magnitude(tree, hand, T, players, facts))
    return out
