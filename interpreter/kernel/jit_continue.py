"""The expert's playouts on the JIT: the continuation kernel's script and its one stream.

``engine.continuation.continue_round`` plays a round from an imagined deal: the round's
seen moves replayed by a scripted policy (a deal that cannot have produced them is
refused: ``Inconsistent``), the candidate, then rollout policies to the round's end, the
strategists of every seat sharing one ``random.Random`` seeded with the playout's seed.
``jit_loop``'s ``if CONT:`` lines play the same (``jit_continuation`` drives them): the
deal is given, every question before the candidate answered from the script here
(``scripted``), every event before it held to the script (``seen``), and the
strategists' ties drawn from that one Mersenne Twister, written out here exactly as
CPython's ``random.seed(int)`` and ``random()`` (``mt_seed``, ``mt_random``), so a tie
breaks the same way on both engines. Greedy and random rollouts pick by its words
(``mt_word``, ``getrandbits(32)``) as they pick by a seat's words elsewhere: the
expert's stream gives them ``random()`` as a word over 2**32 (``bots.expert._Words``).

The script reaches the kernel in its ``CODE`` array (unused by the plain game's lines):
``C_SEAT`` the seat to act at the position, ``C_LEADER`` the round's leader,
``C_FIRST`` the round's number, ``C_MOVES`` the number of seen moves, then a row of
three per move (kind: ``PLACE``, ``DRAW``, ``PASS`` or ``OTHER``; its player; a
placement's code ``tile << 2 | end``), then per playout its candidate's code (-1: a
draw) and its deck (the tiles in dealing order, ``GeneralLoop._deal``'s), then the
rounds won per side and the variables the round began with (``won_at``), last where the
script starts (after a house-rule kernel's programs: ``jit_house.programs``).

Under house rules the kernel records each playout (``jit_record``) and holds the round's
lines so far to the seen events when the candidate comes (``seen_lines``: their kinds
and seats, a score, a variable set, an extra turn or skip, a duty's line too), as
``continue_round`` holds the loop's record to them; a question's seen move is the one at
the record's length.
"""

from __future__ import annotations

from .jit import njit
from .jit_record import (
    K_DUTY,
    K_FAILED,
    K_MET,
    K_OUT,
    K_RULE_DRAW,
    K_SCORE,
    K_SET,
    LINE,
    TOK_DRAW,
    TOK_EXTRA,
    TOK_PASS,
    TOK_PLACE,
    TOK_SKIP,
    token_seat,
)

C_SEAT, C_LEADER, C_FIRST, C_MOVES, C_PLAYOUTS = range(5)
HEAD = 5
# a seen event's kind: the record's event names (``KINDS``), any other OTHER
PLACE, DRAW, PASS, OTHER, EXTRA_TURN, SKIP, SCORE, SET, DUTY, DUTY_MET, DUTY_FAILED, OUT = (
    range(12))
KINDS = {"place": PLACE, "draw": DRAW, "pass": PASS, "extra_turn": EXTRA_TURN, "skip": SKIP,
         "score": SCORE, "set": SET, "duty": DUTY, "duty_met": DUTY_MET,
         "duty_failed": DUTY_FAILED, "out": OUT}
DRAW_CODE = -1
# the Twister's state in a row of int64: 624 words from MT_AT, then the index
MT_N = 624
MT_AT = 1   # (jit_loop keeps it in the seats' shared row, after its one number)
MT_SIZE = MT_N + 1
_MASK = 0xFFFFFFFF


@njit
def mt_seed(S, seed: int) -> None:
    """``random.seed(seed)``, put off until the stream's first number (most playouts break
    no tie: seeding costs more than the rest of their stream): the index says which."""
    S[MT_AT + MT_N] = MT_N + 1 + seed


@njit
def _init(S, seed: int) -> None:
    """CPython's ``random.seed(seed)`` for ``0 <= seed < 2**32``: ``init_by_array`` of
    the one 32-bit word (``_randommodule.c``)."""
    o = MT_AT
    S[o] = 19650218
    for i in range(1, MT_N):
        prev = S[o + i - 1]
        S[o + i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
    i = 1
    for _ in range(MT_N):   # max(N, key length 1); the key's one word, j always 0
        prev = S[o + i - 1]
        S[o + i] = ((S[o + i] ^ ((prev ^ (prev >> 30)) * 1664525)) + seed) & _MASK
        i += 1
        if i >= MT_N:
            S[o] = S[o + MT_N - 1]
            i = 1
    for _ in range(MT_N - 1):
        prev = S[o + i - 1]
        S[o + i] = ((S[o + i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= MT_N:
            S[o] = S[o + MT_N - 1]
            i = 1
    S[o] = 0x80000000
    S[o + MT_N] = MT_N


@njit
def _twist(S, k: int, k1: int, km: int) -> None:
    y = (S[k] & 0x80000000) | (S[k1] & 0x7FFFFFFF)
    v = S[km] ^ (y >> 1)
    if y & 1:
        v ^= 0x9908B0DF
    S[k] = v


@njit
def _generate(S) -> None:
    """The Twister's next 624 words (``genrand_uint32``'s refill, its three loops)."""
    o = MT_AT
    for k in range(o, o + MT_N - 397):
        _twist(S, k, k + 1, k + 397)
    for k in range(o + MT_N - 397, o + MT_N - 1):
        _twist(S, k, k + 1, k + 397 - MT_N)
    _twist(S, o + MT_N - 1, o, o + 396)
    S[o + MT_N] = 0


@njit
def mt_word(S) -> int:
    """``genrand_uint32``: the next tempered word (``getrandbits(32)``: what a greedy or
    random rollout picks by, ``bots.expert._Words``)."""
    at = S[MT_AT + MT_N]
    if at >= MT_N:
        if at > MT_N:   # seeded, not yet made (mt_seed)
            _init(S, at - MT_N - 1)
        _generate(S)
    y = S[MT_AT + S[MT_AT + MT_N]]
    S[MT_AT + MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK


@njit
def mt_random(S) -> float:
    """CPython's ``random()``: 53 bits of two words, as ``random_random`` makes them."""
    a = mt_word(S) >> 5
    b = mt_word(S) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit
def seen(CODE, ev: int, kind: int, p: int) -> bool:
    """The round's event number ``ev`` (a ``kind`` by seat ``p``) is the one seen there."""
    at = HEAD + 3 * ev
    return ev < CODE[C_MOVES] and CODE[at] == kind and CODE[at + 1] == p


@njit
def scripted(CODE, ev: int, p: int, playout: int, masks0: int, masks1: int, masks2: int,
             masks3: int, can_draw: bool) -> tuple[int, bool, bool]:
    """The answer to a question before the candidate (``continuation._Script._scripted``):
    (code, the candidate played now, the deal refused). The seen move at ``ev`` when it
    is this seat's placement or draw, the candidate when every seen move is replayed and
    the seat is the position's; each one the rules must allow (``masks`` per end: left,
    right, a spinner's up and down; ``can_draw``)."""
    nm = CODE[C_MOVES]
    if ev > nm:   # the round went past the position
        return 0, False, True
    if ev == nm:
        if p != CODE[C_SEAT]:
            return 0, False, True
        code = CODE[HEAD + 3 * nm + playout]
        now = True
    else:
        at = HEAD + 3 * ev
        kind = CODE[at]
        if CODE[at + 1] != p or (kind != PLACE and kind != DRAW):
            return 0, False, True
        code = DRAW_CODE if kind == DRAW else CODE[at + 2]
        now = False
    if code == DRAW_CODE:
        return code, now, not can_draw
    e = code & 3
    m = masks0 if e == 0 else masks1 if e == 1 else masks2 if e == 2 else masks3
    return code, now, not (m >> (code >> 2)) & 1


@njit
def won_at(CODE, T: int) -> int:
    """Where the rounds won per side start in ``CODE`` (after the playouts' decks), then
    per variable (the ruleset's order) whether the round began with it set, and to what."""
    return deck_at(CODE, CODE[C_PLAYOUTS], T)


@njit
def seen_lines(CODE, LOG, DAT, at: int, dat: int, N: int, T: int, DYN: int) -> bool:
    """The record's lines of the round so far (``LOG`` from ``at``, their items' numbers
    in ``DAT`` from ``dat``: the house rules' lines, ``LINE`` numbers each) are the seen
    events, kind by kind and seat by seat (``_Script._check``), when the candidate comes:
    a house-rule kernel records its playouts to the candidate, its event lines too."""
    for j in range(CODE[C_MOVES]):
        tok = LOG[at + j]
        if tok >= DYN:   # an item: an event's or a duty's line (jit_record.event_lines)
            k = DAT[dat]
            player = DAT[dat + 1]
            dat += LINE
            kind = (SCORE if k == K_SCORE else SET if k == K_SET else DUTY if k == K_DUTY
                    else DUTY_MET if k == K_MET else DUTY_FAILED if k == K_FAILED
                    else DRAW if k == K_RULE_DRAW else OUT if k == K_OUT else -1)
        else:
            what, player = token_seat(tok, N, T)
            kind = (PLACE if what == TOK_PLACE else DRAW if what == TOK_DRAW else
                    PASS if what == TOK_PASS else EXTRA_TURN if what == TOK_EXTRA else
                    SKIP if what == TOK_SKIP else -1)
        s = HEAD + 3 * j
        if kind != CODE[s] or player != CODE[s + 1]:
            return False
    return True


@njit
def deck_at(CODE, playout: int, T: int) -> int:
    """Where playout ``playout``'s deck starts in ``CODE``."""
    nm, n = CODE[C_MOVES], CODE[C_PLAYOUTS]
    return HEAD + 3 * nm + n + playout * T


@njit
def event(CODE, ev: int, kind: int, p: int, done: bool, bad: bool) -> tuple[int, bool, bool]:
    """A ``kind`` by seat ``p`` the loop made by itself, before the candidate: it must be
    the seen event at ``ev`` (``_Script._check``); (the next event, done, refused)."""
    if done:
        return ev, done, bad
    if seen(CODE, ev, kind, p):
        return ev + 1, False, bad
    return ev + 1, True, True
