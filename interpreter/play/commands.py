"""What a human typed at their turn: a legal action, a table command, or why it is refused.

A move is the number of a listed legal action or the action's text form
(``6-4 left``, ``6-4`` when only one end fits, ``draw``, ``pass``); an illegal one
is refused with the engine's reason in the rules' own terms (``explain_illegal``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..engine.actions import Action, ActionError

COMMANDS = {"?": "help", "help": "help", "hint": "hint", "rules": "rules", "quit": "quit",
            "q": "quit", "exit": "quit"}

HELP = """Type the number of a move, or the move itself:
  6-4 left / 6-4 right   place a tile at that end (6-4 alone when only one end
                         fits, or to open the round){ways}
  draw (d)               draw a tile from the boneyard
  pass (p)               pass{board}{declares}
Commands (each typed alone, without anything after it):
  hint                   ask the strongest bot for a move, and why
  rules                  show the rule sheet of this ruleset
  ? (help)               this help
  quit (q, exit)         leave the match{kept}"""

DECLARES = """
  declare NAME           take an option a declaration offers (declare double)
  claim N                claim N points, when a claim is offered (claim 10)"""

# the commands as the refusals list them, each with its other spellings
COMMAND_LIST = "hint, rules, ? (help), quit"

# the moves typed as one word: anything after them is refused, not read as a tile
MOVE_WORDS = {"draw": "draw", "d": "draw", "pass": "pass", "p": "pass"}


WAYS = """
  6-1 left 6             the same, naming the half against the end, when the
                         tile fits that end either way round (this ruleset's
                         fit rule)"""


def help_text(trace: str | None, ways: bool = False, declares: bool = False,
              board: str = "") -> str:
    """The table's help; ``quit`` says the record is kept only when one is (``--trace``);
    ``ways``: the ruleset has a fit rule, so a move may name the half against the end;
    ``declares``: it has declarations, so a move may be ``declare NAME`` or ``claim N``;
    ``board``: the lines of the moves its board offers (``board_help``)."""
    return HELP.format(kept=" (the record so far is kept)" if trace else "",
                       ways=WAYS if ways else "", declares=DECLARES if declares else "",
                       board=board)


def board_help(rules) -> str:
    """The help's lines for the moves a ruleset's board and play add to ``6-4 left``: a
    spinner's up and down, a shaped board's arms, trains, several tiles at once; each
    written as the move is typed, so the help never offers a move the board lacks."""
    lines = []
    layout = rules.layout
    if rules.spinner != "none" and layout is None:
        lines.append("  6-4 up / 6-4 down      place a tile on a spinner's up or down end")
    if layout is not None and layout.spins != "none" and not layout.trains:
        lines.append("  6-4 5-5/2              place a tile on arm 2 of the 5-5")
    if layout is not None and layout.trains:
        lines.append("  6-4 train 2 (t2)       place a tile on seat 2's train")
        if layout.shared_train:
            name = layout.shared_train
            lines.append(f"  6-4 {name} ({name[0]})".ljust(25)
                         + f"place a tile on the {name} train")
    if rules.several is not None:
        lines.append("  6-4 t0 + 4-1 t0        " if layout is not None and layout.trains
                     else "  6-1 left + 1-1 right   ")
        lines[-1] += "several tiles in one move, joined by +"
    return "".join("\n" + line for line in lines)


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
    extra = _with_argument(word)
    if extra is not None:
        return extra
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
        return _not_a_move(word) or Refusal(str(exc))
    if action in legal:
        return action
    from ..engine.explain import explain_illegal

    return Refusal(explain_illegal(state, action))


def _with_argument(word: str) -> Refusal | None:
    """A command, a one-word move or a move number with something typed after it
    (``hint x``, ``draw 2``, ``1 2``): what it takes instead, rather than a complaint that
    the command's name is not a tile."""
    first, _, rest = word.partition(" ")
    if not rest:
        return None
    if first in COMMANDS:
        return Refusal(f"{first} takes no argument: type {first} alone; the commands are "
                       f"{COMMAND_LIST}")
    if first in MOVE_WORDS:
        return Refusal(f"{first} takes no argument: type {first} alone to "
                       f"{MOVE_WORDS[first]}")
    if typed_number(first) is not None:
        return Refusal(f"a move number stands alone: type {first}, or the move itself "
                       "(6-4 left)")
    return None


def _not_a_move(word: str) -> Refusal | None:
    """A word that is no tile, no move and no command (``hlep``): the closest command or
    move word when one is close, and the commands; None for what looks like a tile, whose
    own refusal (``'6-x' is not a tile``) says more."""
    first = word.split()[0] if word.split() else word
    if not first.isalpha() or first in ("declare", "claim"):
        return None
    close = difflib.get_close_matches(first, [*COMMANDS, *MOVE_WORDS, "declare", "claim"],
                                      n=1, cutoff=0.6)
    said = f" (did you mean {close[0]}?)" if close and len(first) > 1 else ""
    return Refusal(f"'{first}' is not a move or a command{said}: type a move (its number, "
                   f"6-4 left, draw, pass) or a command: {COMMAND_LIST}")
