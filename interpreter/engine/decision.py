"""``Decision``: what the match loop asks a seat, as one named value.

The match loop (``engine.general_loop``) yields it to the step-by-step
``State``; ``legal_pairs``, explanations and observations read it by name.
``ends`` and ``masks`` hold every end (left, right, up, down: None and 0 for an end
that is not open), so a spinner's arms need no other shape.
"""

from __future__ import annotations

from typing import Any, NamedTuple

PLAY, OPEN, SEEK = 0, 1, 2    # placing at the ends / the opening tile is due / drawing for it
DECLARE = 3                   # choosing among a declaration's options (mechanisms.declarations)
NO_ENDS = (None, None, None, None)
NO_MASKS = (0, 0, 0, 0)


class Decision(NamedTuple):
    """One seat to act: its hand, the ends, the legal tiles at each end, and what else it may do.

    ``masks[0]`` holds the tiles that may open when ``phase`` is ``OPEN``; ``pos`` is the
    next boneyard tile's index in the deck (tiles left: deck length - pos). Built by name
    (``Decision(player=..., ...)``); ``left``, ``right``, ``left_mask`` and ``right_mask``
    read the first two ends, so no field is written twice.
    """

    player: int
    hand: int
    can_draw: bool
    can_pass: bool
    phase: int                # PLAY, OPEN, SEEK or DECLARE
    drawn: int                # tiles this player drew this turn
    pos: int
    ends: tuple = NO_ENDS     # every end's value, None when not open
    masks: tuple = NO_MASKS   # legal tiles at each end (the opening tiles at 0 in OPEN)
    flips: tuple = NO_MASKS   # of those, the tiles that fit that end two ways (a fit rule):
                              # placed with their low half against it, or their high (FLIP)
    names: tuple = ()         # a shaped board's (board.layout) end names, one per mask;
                              # empty: the ends are left, right, up, down
    declaration: Any = None   # DECLARE: the Declaration asked (engine.game_rules); its options
                              # are the legal actions, action code k the k-th
    best: int = 0             # DECLARE: the option the fixed policy takes (greedy, strategist)
    several: tuple = ()       # moves of several tiles (play.several): each a tuple of
                              # placement codes t << 2 | end, laid in that order

    @property
    def left(self) -> int:
        """The left end's value; -1 before the opening."""
        value = self.ends[0]
        return -1 if value is None else value

    @property
    def right(self) -> int:
        value = self.ends[1] if len(self.ends) > 1 else None   # a one-end board has one
        return -1 if value is None else value

    @property
    def left_mask(self) -> int:
        return self.masks[0] if self.masks else 0

    @property
    def right_mask(self) -> int:
        return self.masks[1] if len(self.masks) > 1 else 0
