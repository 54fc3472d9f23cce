"""The guard around a plug-in bot: whatever it raises or answers becomes one ``bot`` line.

A plug-in's constructor, ``policy(game)`` and fast policy run inside the engine's
loop, where a stray exception is a traceback and an illegal answer is worse: the
loop applies it, the hand and the boneyard stop adding up and the match may never
end. So a plug-in's fast policy is wrapped here and its every answer checked
against the masks it was given before the engine sees it. Builtin bots are trusted
and never wrapped: their policies cost nothing extra.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..engine.actions import DRAW

# what a bot may raise that must still end in one line: a bug, or sys.exit() in its code
BOT_ERRORS = (Exception, SystemExit)


def fail(who: str, what: str) -> DiagnosticError:
    """The one diagnostic for a bot that misbehaved: ``who`` names the bot and its seat."""
    return DiagnosticError([Diagnostic("bot", f"{who} {what}")])


def failed(who: str, exc: BaseException) -> DiagnosticError:
    return fail(who, f"failed: {type(exc).__name__}: {shown(exc, str)}")


def shown(value: Any, how: Callable[[Any], str] = repr, most: int = 120) -> str:
    """A plug-in's answer (or its exception) as a message quotes it: cut to ``most``
    characters, and never an error itself (a ``__repr__`` that raises, an int of
    5,000 digits, which Python will not write)."""
    try:
        text = how(value)
    except BOT_ERRORS:
        text = f"<{type(value).__name__} that cannot be shown>"
    return text if len(text) <= most else text[:most - 3] + "..."


def is_builtin(bot: Any) -> bool:
    """A bot (class, object or function) shipped in ``dominorules.bots``: trusted."""
    module = getattr(bot, "__module__", "") or ""
    return module.startswith("dominorules.bots.")


def who(label: str, seat: int) -> str:
    return f"bot '{label}' (seat {seat})"


def construct(cls: type, seat: int, rng: Any, label: str) -> Any:
    """``cls(seat, rng)``, any failure told in one line."""
    try:
        return cls(seat, rng)
    except TypeError as exc:
        raise fail(f"bot class {getattr(cls, '__qualname__', label)}",
                   f"must take (seat, rng): {exc}") from None
    except BOT_ERRORS as exc:
        raise failed(who(label, seat), exc) from None


def fast_policy(bot: Any, game: Any, label: str, seat: int) -> Callable[[int, int, bool], int]:
    """``bot.policy(game)``, checked on every answer unless the bot is builtin."""
    if is_builtin(bot):
        return bot.policy(game)
    name = who(label, seat)
    try:
        policy = bot.policy(game)
    except BOT_ERRORS as exc:
        raise failed(name, exc) from None
    if not callable(policy):
        raise fail(name, f"policy(game) returned {type(policy).__name__}, not a function")

    def checked(left: int, right: int, can_draw: bool) -> int:
        try:
            a = policy(left, right, can_draw)
        except BOT_ERRORS as exc:
            raise failed(name, exc) from None
        if type(a) is int:
            if a == DRAW and can_draw:
                return a
            if a >= 0:
                t, end = a >> 2, a & 3
                if end == 0 and left >> t & 1 or end == 1 and right >> t & 1:
                    return a
                if end == 2 and left >> t & 1:  # "the opening": placed as the left end
                    return t << 2
        raise fail(name, f"policy answered {shown(a)}, which is not a legal action here "
                   f"({_legal_text(game, left, right, can_draw)})")
    return checked


def _legal_text(game: Any, left: int, right: int, can_draw: bool) -> str:
    """The legal actions a policy was offered, as a person would type them."""
    from ..engine.tiles import bits

    tiles = game.tileset.tiles
    moves = [f"{tiles[t]} left" for t in bits(left)] + [f"{tiles[t]} right" for t in bits(right)]
    return "legal: " + ", ".join(moves + (["draw"] if can_draw else []))
