"""What a human typed at their turn: a legal action, a table command, or why it is refused.

A move is the number of a listed legal action or the action's text form
(``6-4 left``, ``6-4`` when only one end fits, ``draw``, ``pass``); an illegal one
is refused with the engine's reason in the rules' own terms (``explain_illegal``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import Action, ActionError

COMMANDS = {"?": "help", "help": "help", "hint": "hint", "rules": "rules", "quit": "quit",
            "q": "quit", "exit": "quit"}

HELP = """Type the number of a move, or the move itself:
  6-4 left / 6-4 right   place a tile at that end (6-4 alone when only one end fits,
                         or to open the round){ways}
  draw (d)               draw a tile from the boneyard
  pass (p)               pass
Commands:
  hint                   ask the strongest bot for a move, and why
  rules                  show the rule sheet of this ruleset
  ?                      this help
  quit                   leave the match{kept}"""


WAYS = """
  6-1 left 6             the same, naming the half against the end, when the tile fits
                         that end either way round (this ruleset's fit rule)"""


def help_text(trace: str | None, ways: bool = False) -> str:
    """The table's help; ``quit`` says the record is kept only when one is (``--trace``);
    ``ways``: the ruleset has a fit rule, so a move may name the half against the end."""
    return HELP.format(kept=" (the record so far is kept)" if trace else "",
                       ways=WAYS if ways else "")


@dataclass(frozen=True)
class Command:
    """A table command: ``help``, ``hint``, ``rules`` or ``quit``."""

    name: str


@dataclass(frozen=True)
class Refusal:
    """Input that is not a legal move now, and why (to show before asking again)."""

    message: str


MAX_TYPED = 80  # characters of a typed line kept: no move or command is longer


def clean(text: str) -> str:
    """A typed line fit to read and to echo: control characters (escape sequences, a
    pasted NUL) dropped, blanks trimmed, at most ``MAX_TYPED`` characters."""
    kept = "".join(c for c in text if c.isprintable()).strip()
    return kept if len(kept) <= MAX_TYPED else kept[:MAX_TYPED] + "..."


def typed_number(word: str) -> int | None:
    """The number a player typed in plain digits 0-9 (``²`` or ``٣`` are no move number),
    or None; an absurdly long one is 0, which no list offers."""
    if not (word.isascii() and word.isdigit()):
        return None
    return int(word) if len(word) <= 9 else 0


def interpret(text: str, state) -> Action | Command | Refusal:
    """Turn one line typed by the player to act into a legal Action, a Command or a Refusal."""
    typed = clean(text)
    word = typed.lower()
    if not word:
        return Refusal("type a move (its number or its text), or ? for help")
    if word in COMMANDS:
        return Command(COMMANDS[word])
    legal = state.legal_actions()
    n = typed_number(word)
    if n is not None:
        if 1 <= n <= len(legal):
            return legal[n - 1]
        shown = word if len(word) <= 12 else word[:9] + "..."
        return Refusal(f"there is no move {shown}: type a number from 1 to {len(legal)}"
                       if len(legal) > 1 else f"there is no move {shown}: the only move is 1")
    try:
        action = state.parse_action(typed)
    except ActionError as exc:
        return Refusal(str(exc))
    if action in legal:
        return action
    from ..engine.explain import explain_illegal

    return Refusal(explain_illegal(state, action))
