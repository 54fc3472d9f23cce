"""Actions: small value objects with one text form that parses back.

``6-4 left`` / ``6-4 right`` place a tile at an end, ``6-4`` is the opening (or a
placement where only one end fits, resolved by ``State.parse_action``), ``draw``
and ``pass``; a declaration's options are ``declare NAME`` and ``claim N``. Three
distinct errors, as in python-chess: malformed text, an illegal action, an ambiguous one.

Inside the engine an action is an int: ``tile_index << 2 | end`` (end 0 left,
1 right, 2 opening -- or up, on a spinner, outside the opening -- 3 down), ``DRAW``
or ``PASS``.

>>> a = Action.parse("6-4 left"); str(a), Action.parse(str(a)) == a
('6-4 left', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import Tile

DRAW = -1
PASS = -2
# a placement's second way (a fit rule's tile that fits one end with either half, leaving
# different numbers: ``mechanisms.matching``): the high half meets the end
FLIP = 1 << 24
# a move of several tiles (``mechanisms.several``): SEVERAL + its index among the decision's
SEVERAL = 1 << 26


class ActionError(ValueError):
    """Base of the three action errors."""


class MalformedActionError(ActionError):
    """The text is not an action at all."""


class IllegalActionError(ActionError):
    """A well-formed action the rules do not allow now; the message says why."""


class AmbiguousActionError(ActionError):
    """The text fits more than one legal action (a tile that fits both ends)."""


@dataclass(frozen=True)
class Action:
    """``kind`` is ``place``, ``several``, ``draw``, ``pass``, ``declare`` or ``claim``;
    ``end`` is ``left``/``right``/None (``up``/``down`` on a spinner's arms); ``meets`` the
    half against the end, named only when a fit rule lets the tile go on that end either
    way round (``6-1 left 6``); ``option`` a declaration's option (``declare double``,
    ``claim 10``); ``parts`` a ``several`` move's placements, in the order they are laid
    (``6-1 left + 1-1 right``: ``play.several``)."""

    kind: str
    tile: Tile | None = None
    end: str | None = None
    meets: int | None = None
    option: str | None = None
    parts: tuple[Action, ...] = ()

    @classmethod
    def place(cls, tile: Tile | str, end: str | None = None, meets: int | None = None
              ) -> Action:
        return cls("place", Tile.of(tile), end, meets)

    @classmethod
    def draw(cls) -> Action:
        return cls("draw")

    @classmethod
    def pass_(cls) -> Action:
        return cls("pass")

    @classmethod
    def several(cls, parts: tuple[Action, ...] | list[Action]) -> Action:
        return cls("several", parts=tuple(parts))

    def __str__(self) -> str:
        if self.option is not None:
            return f"{self.kind} {self.option}"
        if self.kind == "several":
            return " + ".join(str(p) for p in self.parts)
        if self.kind != "place":
            return self.kind
        if self.meets is not None:
            return f"{self.tile} {self.end} {self.meets}"
        return f"{self.tile} {self.end}" if self.end else str(self.tile)

    @classmethod
    def parse(cls, text: str, names: tuple[str, ...] = ()) -> Action:
        """Text -> Action; raises ``MalformedActionError`` with what to write instead.
        ``names``: the ends a board names beyond left, right, up, down, arms and seats'
        trains (``board_names``: a shared train's), each also by its first letter."""
        if "+" in text:   # several tiles in one move: each part a placement
            parts = [p.strip() for p in text.split("+")]
            if any(not p for p in parts):
                raise MalformedActionError(
                    f"'{text.strip()}' is not a move: write each tile and its end between "
                    "the + signs (6-1 left + 1-1 right)")
            found = [cls.parse(p, names) for p in parts]
            if any(a.kind != "place" for a in found):
                raise MalformedActionError(
                    f"'{text.strip()}' is not a move: only placements are joined by + "
                    "(6-1 left + 1-1 right)")
            return cls.several(found)
        words = text.strip().lower().split()
        if len(words) in (3, 4) and words[1] in ("train", "t") and words[2].isdigit():
            words[1:3] = [f"train {int(words[2])}"]   # a seat's own train: 6-4 train 2
        if words in (["draw"], ["d"]):
            return cls.draw()
        if words in (["pass"], ["p"]):
            return cls.pass_()
        if words and words[0] in ("declare", "claim"):
            return _declaration(words, text)
        if not words or len(words) > 3 or len(words) == 3 and not (
                words[2].isascii() and words[2].isdigit()):
            raise MalformedActionError(
                f"'{text.strip()}' is not an action: write a tile and an end "
                "(6-4 left), a tile (6-4), draw or pass")
        try:
            tile = Tile.parse(words[0])
        except ValueError:
            raise MalformedActionError(
                f"'{words[0]}' is not a tile: write it like 6-4") from None
        end = meets = None
        if len(words) == 3:   # the half against the end: 6-1 left 6
            if int(words[2]) not in (tile.low, tile.high):
                raise MalformedActionError(
                    f"'{words[2]}' is not a half of {tile}: write the half that meets the "
                    f"end ({tile} {words[1]} {tile.high} or {tile} {words[1]} {tile.low})")
            meets = int(words[2])
        if len(words) >= 2:
            end = (_END_WORDS.get(words[1]) or _arm(words[1]) or _train(words[1])
                   or _named(words[1], names))
            if end is None:
                raise MalformedActionError(
                    f"'{words[1]}' is not an end: write left or right (up or down on a "
                    "spinner)")
        return cls.place(tile, end, meets)



def _declaration(words: list[str], text: str) -> Action:
    """``declare NAME`` or ``claim N`` (engine.mechanisms.declarations)."""
    if len(words) != 2:
        raise MalformedActionError(
            f"'{text.strip()}' is not a declaration: write declare and an option's name "
            "(declare double) or claim and a number (claim 10)")
    if words[0] == "claim" and not (words[1].isascii() and words[1].isdigit()
                                    and len(words[1]) <= 9):
        raise MalformedActionError(
            f"'{words[1]}' is not a number of points: write claim and a number (claim 10)")
    option = str(int(words[1])) if words[0] == "claim" else words[1]
    return Action(words[0], option=option)


_END_WORDS = {"left": "left", "l": "left", "right": "right", "r": "right",
              "up": "up", "u": "up", "down": "down"}


def board_names(layout: object) -> tuple[str, ...]:
    """The end names a board shape (``Rules.layout``) gives beyond the fixed ones: its
    shared train's (``board.layout.shared_train``), if any."""
    shared = getattr(layout, "shared_train", "")
    return (shared,) if shared else ()


def _named(word: str, names: tuple[str, ...]) -> str | None:
    """One of ``names`` by its whole name, or by its first letter when no fixed end word
    and no other name starts with it."""
    if word in names:
        return word
    found = [n for n in names if n[0] == word]
    return found[0] if len(word) == 1 and len(found) == 1 and word not in _END_WORDS \
        and word != "t" else None


def is_arm(end: object, names: tuple[str, ...] = ()) -> bool:
    """Whether ``end`` is an arm's name in its one spelling (``5-5/3``), or a train's
    (``train 2``, or one of ``names``: a shared train's) on a board of trains."""
    return isinstance(end, str) and (_arm(end) == end or _train(end) == end or end in names)


def _train(word: str) -> str | None:
    """``train 2`` (seat 2's own train on a board of trains) in its one spelling, from
    ``train 2``, ``train2`` or ``t2``; None when ``word`` names no train."""
    for head in ("train ", "train", "t"):
        if word.startswith(head) and word[len(head):].isdigit():
            return f"train {int(word[len(head):])}"
    return None


def _arm(word: str) -> str | None:
    """``5-5/3`` (arm 3 of the 5-5 on a ``board.layout`` board) in its one spelling, or
    None when ``word`` is not an arm's name."""
    root, slash, k = word.partition("/")
    if not slash or not k.isdigit() or not 0 < int(k) < 100:
        return None
    try:
        tile = Tile.parse(root)
    except ValueError:
        return None
    return f"{tile.high}-{tile.low}/{int(k)}"
