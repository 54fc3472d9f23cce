"""One bot per seat: the one place that turns what a user gave into a bot for each seat.

``simulate``, ``compare``, ``sweep``, ``tune``, ``play`` and the Python API all seat
their bots here, so the same mistake (an empty name, too many or too few bots, an
unknown bot) gets the same message everywhere, as a ``UsageError`` (the command line
exits 2): it is the command that asks for something impossible, not a broken file.

>>> seat_bots(split_names("random, greedy"), 2)
('random', 'greedy')
>>> seat_bots(("greedy",), [1, 2])
('greedy', 'greedy')
>>> try:
...     seat_bots(("random", "greedy", "random"), 2)
... except UsageError as exc:
...     print(exc.diagnostics[0].message)
3 bots for 2 players
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError, UsageError
from .loader import resolve

CODE = "bot"  # the diagnostic code of every bot problem (the loader's too)


def split_names(text: str) -> tuple[str, ...]:
    """``--bots`` text -> the names, comma separated; ``""`` -> ``()`` (the default bot).

    >>> split_names(" random ,strategist")
    ('random', 'strategist')
    """
    if not text.strip():
        return ()
    names = tuple(part.strip() for part in text.split(","))
    if not all(names):
        raise UsageError([Diagnostic(
            CODE, f"empty bot name in '{text}'",
            hint="separate bot names by single commas, e.g. random,strategist")])
    return names


def seat_bots(specs: Sequence[Any], seats: int | Sequence[int]) -> tuple[Any, ...]:
    """One spec for each seat: ``specs`` holds one for every seat, or exactly one per seat.

    ``seats`` is the player count when bots sit everywhere, or the seats bots fill
    (``play`` with humans at the others). Every name among the specs is resolved now,
    so an unknown bot fails before any match is played. Specs that are not names
    (a class, a function, a bot object: the Python API) pass through unchecked.
    """
    seat_list = list(range(seats)) if isinstance(seats, int) else list(seats)
    specs = tuple(specs)
    if len(specs) == 1:
        specs = specs * len(seat_list)
    if len(specs) != len(seat_list):
        raise UsageError([Diagnostic(
            CODE, f"{len(specs)} bots for {_seats_text(seats, seat_list)}",
            hint="give one bot for all of them, or one per seat separated by commas")])
    check_names(specs)
    return specs


def check_names(specs: Sequence[Any]) -> None:
    """Resolve every bot name among ``specs`` (a ``UsageError`` for one that names no bot)."""
    try:
        for name in sorted({s for s in specs if isinstance(s, str)}):
            resolve(name)
    except DiagnosticError as exc:   # an unknown bot: the command's fault
        raise UsageError(exc.diagnostics) from None


def _seats_text(seats: int | Sequence[int], seat_list: list[int]) -> str:
    if isinstance(seats, int):
        return f"{seats} players"
    n = len(seat_list)
    return f"{n} bot seat{'s' * (n != 1)} ({', '.join(map(str, seat_list))})"
