"""Matching: does a tile fit an open end, which half meets it, and what it leaves open.

The plain rule (``docs/variants.md``): a tile goes at an end by matching one of its halves
to that end's value; its other half is then open there (a blank matches only a blank).
A ruleset may say otherwise (``matching`` in the schema, ``docs/house-rules.md``): a fit
formula over the end and the half that meets it (e.g. they add up to seven), and wild
tiles that fit any end. Then a tile may fit one end with either half, leaving different
numbers open: each way is a placement of its own, named by the half that meets the end.

This module is the rule, written once: the match loop's tables (``fit_tables``), the
rulebook (``verify --strict``) and the rule examples all ask it.

>>> fits((2, 5), 5), fits((2, 5), 3), left_open((2, 5), 5)
(True, False, 2)
>>> seven = FitRule(lambda env: env["end"] + env["half"] == 7, frozenset({(1, 6)}), "far_half", 6)
>>> placements((2, 5), 5, seven), placements((1, 6), 3, seven)
(((2, 5),), ((1, 6), (6, 1)))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Tile = tuple[int, int]


@dataclass(frozen=True)
class FitRule:
    """How a tile fits an end when the same-number rule does not say it all.

    ``fits`` reads ``end`` (the end's value), ``half`` (the half that would meet it),
    ``other`` (the tile's other half, left open), ``tile`` and ``max_pip``; None keeps the
    same-number rule for the tiles that are not wild. ``wild`` tiles fit any end: with
    ``far_half`` either half may meet it and the other is left open; with ``end`` the end
    keeps its number."""

    fits: Callable[[Mapping[str, Any]], Any] | None
    wild: frozenset[Tile]
    wild_leaves: str
    max_pip: int
    text: str = ""          # the fit formula as written (rule sheet, explanations)


def placements(tile: Tile, value: int, rule: FitRule | None = None
               ) -> tuple[tuple[int, int], ...]:
    """Each distinct way ``tile`` may go on an end showing ``value``: (the half that meets
    the end, the number it leaves open), by ascending half; ``()`` when it does not fit.
    Two ways only when they leave different numbers (a double fits one way)."""
    low, high = tile
    if rule is None or (rule.fits is None and tile not in rule.wild):
        if value == low:
            return ((low, high),)
        return ((high, low),) if value == high else ()
    if tile in rule.wild:
        if rule.wild_leaves == "end":
            return ((low, value),)
        return ((low, high),) if low == high else ((low, high), (high, low))
    out = []
    for half, other in ((low, high), (high, low)):
        if bool(rule.fits({"end": value, "half": half, "other": other, "tile": tile,
                           "max_pip": rule.max_pip})):
            out.append((half, other))
    if len(out) == 2 and out[0][1] == out[1][1]:
        out.pop()
    return tuple(out)


def fits(tile: Tile, value: int, rule: FitRule | None = None) -> bool:
    """Whether ``tile`` may go on an end showing ``value``."""
    return bool(placements(tile, value, rule))


def left_open(tile: Tile, value: int, rule: FitRule | None = None,
              meets: int | None = None) -> int:
    """The number ``tile`` leaves open on an end showing ``value``: the far side of the half
    that ``meets`` it (the first way it fits when ``meets`` is None)."""
    ways = placements(tile, value, rule)
    if not ways:   # the plain rule's reading of a tile that does not fit
        low, high = tile
        return high if low == value else low
    for half, left in ways:
        if meets is None or half == meets:
            return left
    return ways[0][1]


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]


def end_count(value: int, double: bool, doubles: str = "across") -> int:
    """What one open end adds to the ends' total: a double lying across shows both halves,
    one lying in line shows one number, like any tile."""
    return value * 2 if double and doubles == "across" else value


def fit_tables(pairs: list[Tile], rule: FitRule) -> tuple[tuple[int, ...], tuple[int, ...],
                                                            tuple[tuple[int, ...], ...],
                                                            tuple[tuple[int, ...], ...]]:
    """The rule as the match loop's tables over tile indices (``pairs`` in the set's order),
    built once per ruleset: per end value, the tiles that fit it (a mask), those that fit
    it two ways (a mask), and per tile the number left open the first way and the second.

    >>> fit_tables([(0, 0), (0, 1), (1, 1)], FitRule(None, frozenset(), "end", 1))[0]
    (3, 6)
    """
    top = rule.max_pip
    fit, two, first, second = [], [], [], []
    for v in range(top + 1):
        m = m2 = 0
        f, s = [], []
        for i, tile in enumerate(pairs):
            ways = placements(tile, v, rule)
            if ways:
                m |= 1 << i
            if len(ways) > 1:
                m2 |= 1 << i
            f.append(ways[0][1] if ways else -1)
            s.append(ways[1][1] if len(ways) > 1 else -1)
        fit.append(m)
        two.append(m2)
        first.append(tuple(f))
        second.append(tuple(s))
    return tuple(fit), tuple(two), tuple(first), tuple(second)
