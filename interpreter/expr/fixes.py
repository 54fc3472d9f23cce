"""What would fix a formula's type error: the hint of every ``expr-type`` problem.

The checker says what is wrong ("'+' needs integers, the left operand is a tile");
these say what to write instead, with the formula's own text in the example
("read a number from the tile: tile.pips, tile.high or tile.low"), so a person
can act on the message without reading docs/language.md first.
"""

from __future__ import annotations

from .types import BOOL, INT, PLAYER, SIDE, TILE, Type, list_of

LIST_OF_INT = list_of(INT)
LIST_OF_BOOL = list_of(BOOL)

# longer operands are named "it" in an example: a hint stays one line
_SHOWN = 40

# what an attribute-free example of each function looks like (a wrong argument count)
CALL_EXAMPLES: dict[str, str] = {
    "abs": "abs(a - b)",
    "all": "all(list) or all(list, x -> condition)",
    "any": "any(list) or any(list, x -> condition)",
    "count": "count(list) or count(list, x -> condition)",
    "max": "max(a, b) or max(list)",
    "min": "min(a, b) or min(list)",
    "sum": "sum(list) or sum(list, x -> number)",
}

# a number each kind of value offers, and a condition (for the examples)
_NUMBERS = {TILE: ("pips", "high", "low"), SIDE: ("score", "pips", "index"),
            PLAYER: ("seat", "pips", "tiles")}
_CONDITIONS = {TILE: "is_double", SIDE: "won"}


def shown(text: str) -> str:
    """An operand's text as an example shows it: itself, or ``x`` when it is too long."""
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else "x"


def _grouped(text: str) -> str:
    """``text`` bracketed when it is more than a name or an attribute read, so an example
    built around it (``... > 0``, ``.pips``) reads as one formula."""
    return text if all(c.isalnum() or c in "_.[]|-" for c in text) and "-" not in text[:1] \
        else f"({text})"


def to_type(want: Type, got: Type, text: str) -> str:
    """What to write so that ``text``, of type ``got``, gives ``want`` instead."""
    t = shown(text)
    g = _grouped(t)
    if want == BOOL:
        return _to_bool(got, t, g)
    if want == INT:
        return _to_int(got, t, g)
    if want == TILE and got == INT:
        return "write a tile such as [6|6], or compare a number of the tile, e.g. " \
               "'tile.high == 6'"
    if want.elem is not None and got.elem is None:
        return f"{t} is one value, not a list: use it without the list function"
    return f"write {want.words()} here"


def _to_bool(got: Type, t: str, g: str) -> str:
    if got == INT:
        return f"compare it to make a condition, e.g. '{g} == 6' or '{g} > 0'"
    if got in _NUMBERS:
        number = _NUMBERS[got][0]
        if got in _CONDITIONS:
            return (f"read a condition from it, e.g. '{g}.{_CONDITIONS[got]}', or compare "
                    f"a number of it, e.g. '{g}.{number} > 0'")
        return f"compare a number of it, e.g. '{g}.{number} == 0'"
    if got == LIST_OF_BOOL:
        return f"ask whether any or all hold: any({t}) or all({t})"
    if got.elem is not None:
        return f"count it into a condition, e.g. 'count({t}) > 0'"
    return "write a condition (a boolean) here"


def _to_int(got: Type, t: str, g: str) -> str:
    if got == BOOL:
        return f"turn the condition into a number, e.g. '1 if {t} else 0'"
    if got in _NUMBERS:
        a, b, c = _NUMBERS[got]
        return f"read a number from {got.words()}: {g}.{a}, {g}.{b} or {g}.{c}"
    if got == LIST_OF_INT:
        return f"add the list up with sum({t}), or take min({t}) or max({t})"
    if got == LIST_OF_BOOL:
        return f"count the true ones: count({t}, x -> x)"
    if got.elem is not None and got.elem in _NUMBERS:
        return f"count them with count({t}), or add up a number of each, e.g. " \
               f"sum({g}.{_NUMBERS[got.elem][0]})"
    if got.elem is not None:
        return f"count them with count({t})"
    return "write a number (an integer) here"


def equality(left: Type, right: Type, left_text: str, right_text: str) -> str:
    """What to compare instead of two values of different types."""
    pair = {left: left_text, right: right_text}
    if set(pair) == {TILE, INT}:
        tile, number = shown(pair[TILE]), shown(pair[INT])
        return (f"compare a number of the tile, e.g. '{_grouped(tile)}.high == {number}', "
                f"or the tile with a tile such as [6|6]")
    if set(pair) == {BOOL, INT}:
        number, condition = _grouped(shown(pair[INT])), shown(pair[BOOL])
        return (f"compare like with like: make the number a condition ('{number} > 0') or "
                f"the condition a number ('1 if {condition} else 0')")
    return f"compare like with like: make the right side {left.words()} too"


def argument(func: str, got: Type, want: Type, text: str) -> str:
    """What to give ``func`` instead of ``text`` (of type ``got``) where it takes ``want``."""
    t = shown(text)
    g = _grouped(t)
    if func == "sum" and got == INT:
        return f"{t} is one number already: write it without sum(...)"
    if func in ("any", "all") and got == BOOL:
        return f"{t} is one condition already: write it without {func}(...)"
    if func in ("any", "all") and got.elem is not None:
        return f"make a condition of each element, e.g. {func}({t}, x -> {_example(got.elem)})"
    if func in ("sum", "min", "max") and got == LIST_OF_BOOL:
        return f"count the true ones: count({t}, x -> x)"
    if func in ("sum", "min", "max") and got.elem in _NUMBERS:
        return f"{func} a number of each element, e.g. {func}({g}.{_NUMBERS[got.elem][0]})"
    if func in ("min", "max") and want == INT and got.elem is not None:
        return (f"write {func}({t}) alone for the list's "
                f"{'smallest' if func == 'min' else 'largest'}, or give integers only")
    if func == "abs" and got.elem is not None:
        return f"abs takes one number: add the list up first, e.g. abs(sum({t}))"
    return to_type(want, got, text)


def _example(elem: Type) -> str:
    """A condition on one element ``x`` of a list of ``elem``, for an example."""
    if elem == INT:
        return "x > 0"
    if elem in _CONDITIONS:
        return f"x.{_CONDITIONS[elem]}"
    if elem in _NUMBERS:
        return f"x.{_NUMBERS[elem][0]} > 0"
    return "count(x) > 0"
