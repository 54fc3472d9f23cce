"""What the rule sheet's writers share: the sheet's lines, the view of a ruleset they read,
the registry of writers, and the wording both the plain game's writers (``describe``)
and the house rules' (``describe_house``) use.

``describe`` imports ``describe_house`` (so every sheet tells the house rules) and both
import this module: the registry lives below them, so neither imports the other's
caller. ``_rule`` keeps the plain game's rules before the optional (house) ones
whichever module registers first, so a sheet's order never depends on import order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.tiles import Tile
from ..expr import format_expression
from .precedence import governing

SECTIONS = ("Equipment", "Players and sides", "Deal", "Leader and opening", "A turn",
            "End of round", "Scoring", "Match", "Examples")


@dataclass(frozen=True)
class RuleLine:
    """One rule: a stable ``key`` (the data it tells, e.g. ``drawing.limit``), a short
    ``title``, the sentence(s) ``text``, and the ``formulas`` quoted in the text."""

    key: str
    title: str
    text: str
    formulas: tuple[str, ...] = ()


class _View:
    """What the sentence writers read: the merged data, and the compiled rules to evaluate
    formulas with. ``formulas`` collects the formula texts a writer quotes."""

    def __init__(self, ruleset: Any):
        self.data: dict[str, Any] = ruleset.data
        self.rules = ruleset.rules
        self.formulas: list[str] = []
        self.read: set[str] = set()  # every field a writer looked at (tests check coverage)

    def get(self, dotted: str) -> Any:
        self.read.add(dotted)
        value: Any = self.data
        for part in dotted.split("."):
            value = value[int(part)] if isinstance(value, list) else value[part]
        return value

    def opt(self, dotted: str, default: Any = None) -> Any:
        """``get`` for a key that may be absent (the optional house-rule keys)."""
        try:
            return self.get(dotted)
        except (KeyError, IndexError, TypeError):
            return default

    @property
    def clockwise(self) -> str:
        """The way play goes round the table (``play.direction``)."""
        return "clockwise" if self.opt("play.direction", "left") == "left" \
            else "counter-clockwise"

    def turn_way(self, text: str) -> str:
        """A sentence written for play going clockwise, told the way play goes."""
        if self.clockwise == "clockwise":
            return text
        return text.replace("clockwise", "counter-clockwise").replace(
            "from their left", "from their right")

    @property
    def counts(self) -> list[int]:
        """Every allowed number of players."""
        return list(range(self.get("players.min"), self.get("players.max") + 1))

    @property
    def partnerships(self) -> bool:
        return self.get("players.sides") == "partnerships"

    def formula(self, dotted: str) -> str | None:
        """The canonical text of an expression field, or None when it is a plain number
        (or a plain true/false)."""
        raw = self.get(dotted)
        if isinstance(raw, bool) or isinstance(raw, int):
            return None
        text = format_expression(str(raw))
        try:
            int(text)
            return None
        except ValueError:
            self.formulas.append(text)
            return text


# A writer returns the rule's sentence; an optional rule's writer returns None when the
# ruleset leaves it at its default (the plain game: nothing to tell), and a list rule's
# writer returns one RuleLine per item (``events[0]``, ...).
_Writer = Callable[[_View], "str | None | list[RuleLine]"]


@dataclass(frozen=True)
class _Spec:
    key: str
    section: str
    title: str
    write: _Writer
    optional: bool = False


_SPECS: list[_Spec] = []


def _rule(key: str, section: str, title: str, optional: bool = False
          ) -> Callable[[_Writer], _Writer]:
    """Register a sentence writer: the one place a rule's wording lives. An ``optional``
    rule is told only when the ruleset uses it (see ``describe_house``)."""
    assert section in SECTIONS, section

    def register(fn: _Writer) -> _Writer:
        spec = _Spec(key, section, title, fn, optional)
        if optional:
            _SPECS.append(spec)
        else:   # before the first optional rule: the plain game's rules come first
            _SPECS.insert(sum(not s.optional for s in _SPECS), spec)
        return fn
    return register


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"



def _side_noun(view: _View) -> str:
    return "side" if view.partnerships else "player"


def _opening_tile(view: _View, raw: str | None = None) -> str:
    raw = view.get("opening.tile") if raw is None else raw
    if raw in ("any", "highest_double"):
        return "any tile" if raw == "any" else "the highest double dealt"
    return str(Tile.parse(raw))  # the higher half first, however it was written


_HEAVIEST = "the heaviest tile dealt opens, played by its holder"


def _lead_redeals(view: _View, rules: dict[str, Any], rounds: tuple[str, ...]) -> bool:
    """The lead's redeal wins over ``draw_in_turn`` in every round described, for the same
    tile (``rules.precedence``): the draw-in-turn sentence would never apply."""
    for key in rounds:
        case = governing(view.data, key == "first")
        if case is None or case.kind != "redeal":
            return False
        if view.data["lead"][key] == "highest_double" and rules["tile"] != "highest_double":
            return False      # a double dealt, the required tile not: the drawing applies
    return bool(rounds)


def opening_sentence(view: _View, rules: dict[str, Any], rounds: tuple[str, ...] = ()) -> str:
    """How a round opens under ``rules`` (tile, opener, if_unheld) in ``rounds`` (``first``,
    ``later``: where a lead's redeal may win over the opening's drawing in turn)."""
    if _lead_redeals(view, rules, rounds):
        rules = {**rules, "if_unheld": "redeal"}
    if rules["tile"] == "any":
        return "The leader opens the round with any tile from their hand."
    tile = _opening_tile(view, rules["tile"])
    if rules["opener"] == "leader":
        text = f"The first tile must be {tile}, and the leader opens with it at once."
    else:
        text = view.turn_way(f"The first tile must be {tile}: whoever holds it opens with it "
                             "at once, and play goes on from their left.")
    unheld = ("If nobody holds a double" if rules["tile"] == "highest_double"
              else "If nobody was dealt it")
    if rules["if_unheld"] == "redeal":
        return f"{text} {unheld}, the tiles are shuffled and dealt again."
    if rules["if_unheld"] == "heaviest":
        return f"{text} {unheld}, {_HEAVIEST}."
    return view.turn_way(
        f"{text} {unheld}, each player in turn, starting with the leader and going "
        "clockwise, draws one tile; the first to draw it opens with it at once.")


