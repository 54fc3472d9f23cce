"""What the JIT kernel writes down of a match for its record, in numba: a log of tokens.

A record (``docs/records.md``) is mostly placements, draws and passes, each one of a few
thousand lines fixed by the seat, the tile and the end: the kernel writes each as one
integer, the index of its text in ``jit_trace``'s table (``place_token``, ``draw_token``
and ``pass_token`` below say which). The few lines that carry numbers (the match's start, a
deal, a round's end, the match's end) are items in a second array ``DAT`` (a kind, then
their numbers); the kernel logs the token ``DYN + j`` for the batch's j-th item, and
``jit_trace`` turns each item into its line with the record encoder. So the record's
format is written once, in Python; the kernel only says what happened.

The house rules the GEN lines play add lines of their own: an event's ``extra_turn`` and a
``skip`` (one token a seat), a placement on a spinner's up or down arm (``arm_token``) or
one under a fit rule that names the half meeting the end (``meets_token``), a pass
showing a hidden row's front tile (``shown_token``), the stock's tile turned up
(``turn_up_token``), a placement on a shaped board's end (``board.layout``: an item of
the seat, the tile and the end's ``jit_layout`` name code, ``at_item``; ``jit_trace``
spells the name out), and the lines of events and duties (items of five numbers: a
``score``, a variable's ``set``, a ``duty`` laid, ``duty_met``, ``duty_failed``, a ``draw``
a rule made, a player ``out``), gathered by ``jit_events.fire`` and ``jit_duties`` into a
small buffer, ``EVL``, and copied here by ``event_lines`` in the general loop's order. A
tile of a move of several tiles is an item (``part_item``: the line's ``part``), and the
lines of declarations and the showdown (``declare``, ``claim``, an option's ``draw``,
``penalty``) are gathered by ``jit_declare`` in the same buffer and copied by
``declared_lines``. A ruleset without them logs none of these. Recorded, 5,000
three-player matches laying two tiles a turn from a turned-up tile (CLI, CPU, medians
of 3) took 3.5 s on the JIT against 30.7 s on the Python engine; 20,000 of a count
claimed after each placement 3.4 s against 8.5 s.

``LOG`` empty means no records: every write in ``jit_loop`` is behind ``if REC``, a
test of one local the kernel reads once a batch (``jit_events.fire`` tests its buffer's
size). Unrecorded, the event lines cost nothing measurable: 16 interleaved pairs of
150,000 three-player all-fives matches took a median 5.39 s of CPU before and 5.23 s
after. Recorded, 20,000 three-player matches (CLI, CPU, medians of 3) took 5.4 s on the
JIT against 8.7 s on the Python engine for all-fives, 4.4 s against 8.1 s for a spinner;
20,000 three-player matches of hidden rows 5.0 s against 11.9 s, and 30,000 four-player
matches of a double-twelve set (the wide kernel, its numba start some 2 s of it) 4.6 s against
6.8 s (interleaved, medians of 3).
"""

from __future__ import annotations

from .jit import njit

# the kinds of DAT's items, first number of each
K_START, K_DEAL, K_ROUND, K_END, K_SCORE = 0, 1, 2, 3, 4
# the items of five numbers (kind, player, then three) of events' and duties' lines: a
# set (variable, value, rule), a duty laid (rule, tile), met (rule), failed (rule, the
# seat bearing it next, -1 none), a draw a rule made (tile, rule), a player out
# (numbered apart from the kinds above, which other mechanisms' lines extend)
K_SET, K_DUTY, K_MET, K_FAILED, K_RULE_DRAW, K_OUT = range(20, 26)
# a placement on a shaped board's end (board.layout), named by its jit_layout NAME code:
# an item of four numbers (kind, player, tile, name)
K_AT, AT_LINE = 30, 4   # (numbered apart from the kinds above and below)
# a line in EVL, the buffer of one action's event lines (``event_lines``): its kind (an
# item's, or EXTRA: an extra turn's token), its player (ACTOR: the seat acting), three
# numbers (a score's side, points and rule)
EXTRA, ACTOR, LINE = -1, -1, 5
# the items of moves of several tiles and of declarations (numbered apart from the kinds
# above and other mechanisms'): a tile of a move (``part_item``: its code ``tile << 2 |
# end``, its place i among the move's n tiles), a ``declare`` (the declaration's index in
# the ruleset, the option), a ``claim`` (the declaration, the claim's index, the worth;
# then in EVL a CLAIM_POINTS row: what the claimer's side and every other side gained,
# which ``declared_lines`` joins to its item), a ``draw`` an option made (tile,
# declaration) and a ``penalty`` at the showdown (passes, the side's pay, the others' gain)
K_PART, K_DECLARE, K_CLAIM, K_DECL_DRAW, K_PENALTY, CLAIM_POINTS = range(40, 46)
# a part's code: the half meeting its end (part_way_item) above any tile's code, which
# on a set over 62 tiles passes 8 bits
WAY = 1 << 24
# a tile of a move on a shaped board (``at_part_item``: the tile, its end's jit_layout NAME
# code, its place i among the move's n tiles as ``i << 8 | n``), LINE numbers as K_PART's
K_AT_PART = 46
CLAIM = LINE + 2   # a claim's numbers in DAT: its row and the points' two


def log_bound(N: int, T: int, at_will: bool = False, rows: int = 0) -> int:
    """Tokens one deal and the round it opens may log, with the match's end and the next
    match's start: a deal, every tile drawn (a seek, the turns, or a boneyard drawn out in
    vain) and placed, the passes (fewer than ``N`` between two draws or placements; with
    passing at will, fewer than ``2 * N``: the idle turns that block a round; with hidden
    rows of ``rows`` tiles, at most ``N * rows`` until a fitting tile comes to a front or
    every seat is stuck, then ``N`` more), the round's end, the match's end and the next
    start."""
    return 1 + 2 * T + T + pass_gap(N, at_will, rows) * (2 * T + 2) + 3


def pass_gap(N: int, at_will: bool = False, rows: int = 0) -> int:
    """The most passes between two draws or placements (``log_bound``)."""
    return max(2 * N if at_will else N, N * (rows + 3) if rows else 0)


def dat_bound(N: int, T: int, sides: int, variables: int, words: int = 1) -> int:
    """``DAT``'s numbers for the same: a deal (a hand ``words`` numbers), a round's end
    (its play points too), the match's end, a start."""
    return (3 + N * words + T) + (4 + N + 3 * sides + variables) + (2 + sides) + 2


def event_bound(N: int, T: int, lines: dict[str, int], rows: int = 0) -> int:
    """The most event lines (``score``, ``set``, ``extra_turn``, ``duty``) a round may
    write: ``lines`` per action (place, draw, pass) the most its rules write, placements
    and draws at most a tile each, passes fewer than ``2 * N`` between two of them (the
    idle turns that block a round; ``pass_gap`` with hidden rows of ``rows`` tiles)."""
    return (T * lines.get("place", 0) + T * lines.get("draw", 0)
            + pass_gap(N, True, rows) * (2 * T + 2) * lines.get("pass", 0))


def duty_bound(N: int, T: int, laid: int, passing: int) -> int:
    """The most lines a round's duties may write once laid (their ``duty`` lines are
    ``event_bound``'s; ``laid``: the most one placement lays, ``passing`` of them passing
    on when failed): a duty that lapses is met or failed once (with a ``score`` line);
    one passing on is met once and fails at most once a turn (a placement, a draw or a
    pass: fewer than ``2 * N`` passes between two of the others); the ``draw`` lines of
    failures take at most the round's tiles."""
    turns = 3 * T + 2 * N * (2 * T + 2)
    return T * (laid - passing) * 2 + T * passing * (1 + 2 * turns) + T


@njit
def put_line(EVL, kind, player, a, b, c):
    """One line into ``EVL`` (``event_lines`` logs it; ``player`` ACTOR: the seat acting),
    when there is a record (an empty EVL: none)."""
    if EVL.shape[0] == 0:
        return
    n = EVL[0]
    k = 1 + LINE * n
    EVL[k] = kind
    EVL[k + 1] = player
    EVL[k + 2] = a
    EVL[k + 3] = b
    EVL[k + 4] = c
    EVL[0] = n + 1


@njit
def place_token(N, T, p, t, end):
    """A placement's token: ``end`` 0 for the opening tile (end null), 1 left, 2 right."""
    return (p * T + t) * 3 + end


@njit
def draw_token(N, T, p, t):
    return 3 * N * T + p * T + t


@njit
def pass_token(N, T, p):
    return 4 * N * T + p


@njit
def extra_token(N, T, p):
    """Seat ``p``'s ``extra_turn``."""
    return 4 * N * T + N + p


@njit
def skip_token(N, T, p):
    """Seat ``p``'s ``skip``."""
    return 4 * N * T + 2 * N + p


@njit
def arm_token(N, T, p, t, end):
    """A placement on a spinner's arm: ``end`` 2 up, 3 down."""
    return 4 * N * T + 3 * N + (p * T + t) * 2 + end - 2


@njit
def meets_token(N, T, p, t, end, flip):
    """A placement under a fit rule naming the half that meets the end (``end`` 0 to 3:
    left, right, up, down): the tile's low half (``flip`` 0) or its high half (1)."""
    return 6 * N * T + 3 * N + ((p * T + t) * 4 + end) * 2 + flip


@njit
def shown_token(N, T, p, t):
    """Seat ``p``'s pass showing its row's front tile ``t`` (``deal.blind``)."""
    return 14 * N * T + 3 * N + p * T + t


@njit
def turn_up_token(N, T, t):
    """The stock's tile ``t`` turned up to start the line (``deal.turn_up``)."""
    return 15 * N * T + 3 * N + t


# what a fixed token is (``token_seat``, the tokens above read back): a placement (on a
# line, a spinner's arm or meeting a half), a draw, a pass (a hidden row's too), an
# extra turn, a skip, another (the turned-up tile)
TOK_PLACE, TOK_DRAW, TOK_PASS, TOK_EXTRA, TOK_SKIP, TOK_OTHER = range(6)


@njit
def token_seat(tok, N, T):
    """(what, seat) of fixed token ``tok`` (``TOK_...``; seat -1 for the turned-up tile):
    the tokens above read back, as the expert's playouts check a record's lines against
    the round seen (``jit_continue.seen_lines``)."""
    NT = N * T
    if tok < 3 * NT:
        return TOK_PLACE, tok // 3 // T
    if tok < 4 * NT:
        return TOK_DRAW, (tok - 3 * NT) // T
    if tok < 4 * NT + N:
        return TOK_PASS, tok - 4 * NT
    if tok < 4 * NT + 2 * N:
        return TOK_EXTRA, tok - 4 * NT - N
    if tok < 4 * NT + 3 * N:
        return TOK_SKIP, tok - 4 * NT - 2 * N
    if tok < 6 * NT + 3 * N:
        return TOK_PLACE, (tok - 4 * NT - 3 * N) // 2 // T
    if tok < 14 * NT + 3 * N:
        return TOK_PLACE, (tok - 6 * NT - 3 * N) // 8 // T
    if tok < 15 * NT + 3 * N:
        return TOK_PASS, (tok - 14 * NT - 3 * N) // T
    return TOK_OTHER, -1


@njit
def dynamic(N, T):
    """The first token of a line with numbers (``DAT``'s items): after the fixed ones."""
    return 15 * N * T + 3 * N + T


@njit
def event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T):
    """The lines ``jit_events.fire`` and ``jit_duties`` gathered in ``EVL`` for seat
    ``p``'s action, logged in their order (an ``extra_turn`` a token, the others an item
    each), the buffer emptied; returns (nl, nd, nj) as ``start_item``'s callers keep
    them."""
    for k in range(EVL[0]):
        at = 1 + LINE * k
        player = EVL[at + 1]
        if player == ACTOR:
            player = p
        if EVL[at] == EXTRA:
            LOG[nl] = extra_token(N, T, player)
        else:
            LOG[nl] = DYN + nj
            nj += 1
            DAT[nd] = EVL[at]
            DAT[nd + 1] = player
            DAT[nd + 2] = EVL[at + 2]
            DAT[nd + 3] = EVL[at + 3]
            DAT[nd + 4] = EVL[at + 4]
            nd += LINE
        nl += 1
    EVL[0] = 0
    return nl, nd, nj


@njit
def out_line(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T):
    """Seat ``p`` is out and the round goes on (``play.until: side_out``): its ``out``
    line, logged at once; (nl, nd, nj)."""
    put_line(EVL, K_OUT, p, 0, 0, 0)
    return event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)


@njit
def at_item(LOG, DAT, nl, nd, nj, DYN, p, t, name):
    """Seat ``p`` lays tile ``t`` on a shaped board's end whose ``jit_layout`` NAME code
    is ``name`` (``left``, ``9-9/3``, ``train 2``: ``jit_trace`` spells it out); (nl, nd,
    nj) as ``event_lines`` returns them."""
    LOG[nl] = DYN + nj
    DAT[nd] = K_AT
    DAT[nd + 1] = p
    DAT[nd + 2] = t
    DAT[nd + 3] = name
    return nl + 1, nd + AT_LINE, nj + 1


@njit
def start_item(DAT, nd, seed):
    """The match's start: its seed (the rest is the ruleset's)."""
    DAT[nd] = K_START
    DAT[nd + 1] = seed
    return nd + 2


@njit
def deal_item(DAT, nd, rnd, leader, hands, deck, N, T):
    """A deal: its round, leader (-1: none), the hands as masks and the deck's order."""
    DAT[nd] = K_DEAL
    DAT[nd + 1] = rnd
    DAT[nd + 2] = leader
    for s in range(N):
        DAT[nd + 3 + s] = hands[s]
    for i in range(T):
        DAT[nd + 3 + N + i] = deck[i]
    return nd + 3 + N + T


@njit
def deal_item_words(DAT, nd, rnd, leader, hands, deck, N, T):
    """``deal_item`` for a set over 62 tiles: each hand its ``W`` words (``jit_bits``),
    word 0 first."""
    DAT[nd] = K_DEAL
    DAT[nd + 1] = rnd
    DAT[nd + 2] = leader
    W = hands.shape[1]
    for s in range(N):
        for w in range(W):
            DAT[nd + 3 + s * W + w] = hands[s, w]
    nd += 3 + N * W
    for i in range(T):
        DAT[nd + i] = deck[i]
    return nd + T


@njit
def round_end_item(DAT, nd, rnd, blocked, wside, pips, points, scores, N, sides):
    """A round's end: its number, result (1: blocked, 2: stopped at the target, the match
    won mid-round), winning side (-1: none), each seat's
    hand value, each side's points and scores (the variables follow, written by the GEN
    lines)."""
    DAT[nd] = K_ROUND
    DAT[nd + 1] = rnd
    DAT[nd + 2] = blocked
    DAT[nd + 3] = wside
    nd += 4
    for s in range(N):
        DAT[nd + s] = pips[s]
    nd += N
    for i in range(sides):
        DAT[nd + i] = points[i]
        DAT[nd + sides + i] = scores[i]
    return nd + 2 * sides


@njit
def match_end_item(DAT, nd, winner, scores, sides):
    DAT[nd] = K_END
    DAT[nd + 1] = winner
    for i in range(sides):
        DAT[nd + 2 + i] = scores[i]
    return nd + 2 + sides


@njit
def part_item(LOG, DAT, nl, nd, nj, DYN, p, t, e, i, n):
    """Seat ``p``'s placement of tile ``t`` on end ``e`` (0 left, 1 right) as the i-th of a
    move's ``n`` tiles (``play.several``: the line's ``part``), logged at ``LOG[nl]``;
    returns (nd, nj)."""
    LOG[nl] = DYN + nj
    DAT[nd] = K_PART
    DAT[nd + 1] = p
    DAT[nd + 2] = t << 2 | e
    DAT[nd + 3] = i
    DAT[nd + 4] = n
    return nd + LINE, nj + 1


@njit
def part_way_item(LOG, DAT, nl, nd, nj, DYN, p, t, e, way, i, n):
    """``part_item`` on any of a spinner's four ends (``e`` 0 to 3) or under a fit rule:
    ``way`` 1 or 2 when the line names the half that meets the end (the tile's low or
    high), 0 when it does not; its code ``way * WAY | tile << 2 | end``; (nd, nj)."""
    LOG[nl] = DYN + nj
    DAT[nd] = K_PART
    DAT[nd + 1] = p
    DAT[nd + 2] = way * WAY | t << 2 | e
    DAT[nd + 3] = i
    DAT[nd + 4] = n
    return nd + LINE, nj + 1


@njit
def at_part_item(LOG, DAT, nl, nd, nj, DYN, p, t, name, i, n):
    """Seat ``p``'s placement of tile ``t`` on the shaped board's end of NAME code ``name``
    as the i-th of a move's ``n`` tiles (``play.several`` with ``board.layout``: the line's
    end by name, and its ``part``); (nl, nd, nj) as ``at_item`` returns them."""
    LOG[nl] = DYN + nj
    DAT[nd] = K_AT_PART
    DAT[nd + 1] = p
    DAT[nd + 2] = t
    DAT[nd + 3] = name
    DAT[nd + 4] = i << 8 | n
    return nl + 1, nd + LINE, nj + 1


@njit
def declared_lines(EVL, LOG, DAT, nl, nd, nj, DYN):
    """The lines ``jit_declare`` gathered in ``EVL`` (a choice, an option's draws, the
    showdown's penalties), logged in their order, an item each (a claim's CLAIM_POINTS
    row joined to it), the buffer emptied; returns (nl, nd, nj)."""
    for k in range(EVL[0]):
        at = 1 + LINE * k
        if EVL[at] == CLAIM_POINTS:   # the claim just copied: its points
            DAT[nd] = EVL[at + 2]
            DAT[nd + 1] = EVL[at + 3]
            nd += 2
            continue
        LOG[nl] = DYN + nj
        nl += 1
        nj += 1
        for j in range(LINE):
            DAT[nd + j] = EVL[at + j]
        nd += LINE
    EVL[0] = 0
    return nl, nd, nj
