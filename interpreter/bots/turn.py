"""One bot turn, guarded: a plug-in bot's bug or bad answer becomes one ``bot`` Diagnostic.

Simulation and the terminal table both ask bots through here, so a bot that raises,
returns something that is not an action, or picks an illegal one is reported the
same way, naming the bot and its seat, instead of as a traceback from deep inside.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..engine.actions import Action, ActionError
from ..engine.state import State
from ..engine.tiles import Tile
from .guard import BOT_ERRORS, shown, who


def _fail(message: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic("bot", message)])


def bot_turn(state: State, bot: Any, label: str, seat: int) -> Action:
    """Ask ``bot`` (called ``label``) for the move of ``seat`` and play it; the action played."""
    legal = state.legal_actions()
    try:
        choice = bot.choose(state.observation(seat), legal)
    except BOT_ERRORS as exc:  # a plug-in's own bug (or its sys.exit), told in one line
        raise _fail(f"{who(label, seat)} failed: {type(exc).__name__}: "
                    f"{shown(exc, str)}") from None
    if not isinstance(choice, (Action, str)) or not _whole(choice):
        raise _fail(f"{who(label, seat)} returned {shown(choice)} ({type(choice).__name__}), "
                    f"which is not one of the legal actions: {_moves(legal)}")
    try:
        action = state.parse_action(choice) if isinstance(choice, str) else choice
        state.apply(action)
    except ActionError as exc:
        said = f"'{shown(choice, str)}'" if isinstance(choice, Action) else shown(choice)
        raise _fail(f"{who(label, seat)} returned {said}, which is not one of the legal "
                    f"actions ({_moves(legal)}): {exc}") from None
    return action


def _whole(choice: Any) -> bool:
    """A string, or an Action whose fields are all there and sane (a hollow one, made
    without its fields, or one with a 5,000-digit end, would fail deep in the engine)."""
    if isinstance(choice, str):
        return len(choice) <= 1000
    try:
        kind, tile, end = choice.kind, choice.tile, choice.end
        return (type(kind) is str and (end is None or type(end) is str)
                and (tile is None or isinstance(tile, Tile) and type(tile.low) is int
                     and type(tile.high) is int and 0 <= tile.low <= tile.high < 1000))
    except BOT_ERRORS:
        return False


def _moves(legal: list[Action]) -> str:
    """The legal actions as a person types them: built only for an error message."""
    return ", ".join(map(str, legal))
