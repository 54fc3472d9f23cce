"""Deals the scenario tests share: a fixed deal of a real ruleset and the moves that play
it out, each checked by hand against the rules (see the comment above each).

Hands are per seat as ``"6-4 3-3"``; a boneyard lists its first tiles in draw order
(the rest of the set follows, ascending); moves are the text forms, in play order.
"""

from __future__ import annotations

from scenarios import moves_of

# pagat, 3 players, leader 2: seat 2 goes out; seats 0 and 1 keep 4-3 (7) and 5-5 (10)
THREE = ["1-0 3-0 5-0 3-3 4-3 5-3 6-4", "2-0 6-0 5-1 6-2 5-5 6-5 6-6",
         "4-0 1-1 3-1 6-1 3-2 5-2 5-4"]
THREE_BONEYARD = "6-3 0-0 4-4 2-1 4-2 2-2 4-1"
THREE_MOVES = moves_of("3-1, 3-3 right, 5-1 left, 5-4 left, 3-0 right, 2-0 right, 5-2 right, "
                       "6-4 left, 6-2 left, 3-2 left, 5-0 right, 6-0 right, 6-1 right, "
                       "5-3 left, 6-5 left, 1-1 right, 1-0 right, 6-6 left, 4-0 right")

# pagat, 4 players, leader 3: 6 tiles each, a boneyard of 4 of which 2 may be drawn
FOUR = ["2-2 3-3 4-3 4-4 6-5 6-6", "2-0 3-0 4-1 6-1 5-3 6-3", "1-0 6-0 1-1 3-1 3-2 4-2",
        "0-0 4-0 2-1 5-1 6-2 6-4"]
FOUR_BONEYARD = "5-5 5-0 5-2 5-4"
FOUR_MOVES = moves_of("0-0, draw, draw, 5-0 left, 5-3 left, 3-2 left, 6-2 left, 6-5 left, "
                      "3-0 right, 3-1 right, 5-1 right, 5-5 left")
# ... then every player passes in turn: blocked with hands 37, 23, 15, 17
FOUR_BLOCKED_MOVES = FOUR_MOVES + moves_of("pass, pass, pass, pass")

# pagat, 3 players, leader 2, tied block (21, 53, 21): nobody wins the round
TIE = ["1-1 3-1 4-2 5-2 3-3 5-3 6-5", "3-0 5-0 6-0 5-1 3-2 5-4 5-5",
       "1-0 4-0 2-1 4-1 6-1 6-3 4-4"]
TIE_BONEYARD = "0-0 6-6 2-2 2-0 6-4 4-3 6-2"
TIE_MOVES = moves_of("6-1, 3-1 left, 3-0 left, 1-0 left, 6-5 right, 5-5 right, 4-1 left, "
                     "4-2 left, 5-1 right, 2-1 left, 1-1 right, draw, draw, draw, draw, "
                     "draw, pass, pass, pass")
