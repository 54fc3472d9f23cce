"""The JIT kernel's match loop, in numba's nopython subset, for a batch of seeds.

This module is never imported as it stands: it is the source every JIT kernel is made of,
real Python, so ruff and a reader see it as code. ``kernel.specialise_kernel`` reads its
syntax tree and specialises it as it does the Python kernel's (``python_kernel``, with the
same folding): the switches below become constants and the branches they rule out are cut,
the placeholders get their values, and ``jit_kernel`` writes what is left to the cache
folder, where numba keeps the machine code beside it (a later run or another worker loads
it instead of compiling again).

A ruleset whose house rules act at a round's end, the match's end, the deal, the lead, the
opening or during play (``jit_house.plays``) keeps the ``if GEN:`` lines: they call
``jit_settle``, ``jit_opening`` and ``jit_events`` (play-time events; with ``TURNS``, the
general loop's turn order of granted and skipped turns and passes at will), and run the
ruleset's formulas as programs (``jit_formula``: the array ``CODE``, where each starts a
parameter ``F_...``), so they hold no text of any ruleset and one compiled kernel plays
them all. Any other ruleset keeps the ``else`` lines, the plain game's, with its two
scoring formulas put in for ``DOMINO`` and ``BLOCKED`` (expressions over arrays that
``kernel.formulas`` emits from the checked trees), so one compiled kernel serves every
ruleset with the same formulas; a set over 62 tiles keeps the ``if WIDE:`` lines, its
hands as ``W`` words (``jit_bits``), and under house rules the ``GEN and WIDE`` lines that
find the tiles each end takes and the pieces of ``jit_gen_wide`` (a set of at most 62
tiles: those lines folded away); the pick and what it does are one for both widths.
Everything else a ruleset says (tables, numbers, switches) arrives as arrays: its numbers
and switches in ``Q``, read by name (``N = Q[Q_N]``: the indexes ``jit_template.INDEXES``
and ``PLAY_INDEXES``, written in as numbers).

It plays exactly what ``engine.general_loop`` plays for the seats' bots ``random``
(kind 0: the uniform pick), ``greedy`` (kind 1) and ``strategist`` (kind 2: its choices
and what it knows of each seat in ``kernel.jit_strategist``): the same SHAKE-128 words
(``kernel.shake``), the same lot stream, the same settlement. Each round becomes one row of
integers (``jit_template.ROUND_COLUMNS``), each match one row (``MATCH_COLUMNS``);
``jit_kernel.results`` turns them back into ``MatchResult``. Given a log (``LOG``, ``DAT``:
``kernel.jit_record``) it writes down each line of the match's record as a token, which
``kernel.jit_trace`` spells out; without one (an empty ``LOG``) each line costs one test of
a local that never changes.
"""

import numpy as np

from dominorules.kernel.jit import njit
from dominorules.kernel.jit_opening import (  # the lead and the opening, any width
    lead_holder,
    tile_opening,
)
from dominorules.kernel.jit_record import (
    deal_item,
    draw_token,
    dynamic,
    match_end_item,
    pass_token,
    place_token,
    round_end_item,
    start_item,
)
from dominorules.kernel.jit_strategist import (
    KNOW_ROWS,
    choose,
    know_deal,
    know_lack,
    know_open,
    know_place,
    opening,
)
from dominorules.kernel.jit_support import (  # noqa: F401 - the formulas put in call them
    _count,
    _floordiv,
    _max,
    _max_at,
    _min,
    _min_at,
    _mod,
    _sum,
    _sum_at,
    lead_random,
    lead_stream,
    low_index,
    popcount,
)
from dominorules.kernel.shake import (
    CHUNK,
    FIRST,
    MSG,
    deal_into,
    seat_words_next,
    seat_words_start,
    shuffle_keys,
)

# -- the placeholders (jit_kernel.kernel_source gives their values) ---------------------
# the switches: the house rules' lines (jit_house.plays), a set's hands as words
GEN = WIDE = False
# the plain game's scoring formulas, numba expressions (kernel.formulas.emit)
DOMINO = BLOCKED = 0
# the expert's playouts (jit_continue): each "match" one playout of a given deal, its
# round's seen moves replayed from the script in CODE, a candidate, then the rollouts
# (the strategist, greedy or random at every seat)
CONT = False
if not GEN and not CONT:   # the plain lines: eight matches' first streams at once
    from dominorules.kernel.shake import GIVEN, LANES, first_streams8, given_keys, seat_words_given

if CONT:
    from dominorules.kernel.jit_continue import (
        C_FIRST,
        C_LEADER,
        DRAW_CODE,
        MT_SIZE,
        deck_at,
        mt_seed,
        mt_word,
        scripted,
        seen_lines,
        won_at,
    )
    from dominorules.kernel.jit_continue import DRAW as SEEN_DRAW
    from dominorules.kernel.jit_continue import PASS as SEEN_PASS
    from dominorules.kernel.jit_continue import PLACE as SEEN_PLACE
    from dominorules.kernel.jit_continue import event as script_event

if GEN:
    from dominorules.engine.mechanisms.blind import front_piece as front
    from dominorules.engine.mechanisms.blind import pop_front_piece as pop_front
    from dominorules.engine.mechanisms.blind import rows_of_piece as rows_of
    from dominorules.engine.mechanisms.blind import to_back_piece as to_back
    from dominorules.engine.mechanisms.leftover import receiver_piece as receiver
    from dominorules.engine.mechanisms.match import match_over_piece as match_over
    from dominorules.engine.mechanisms.settle import LOWEST_HAND
    from dominorules.engine.mechanisms.settle import TIE_EACH as EACH_TIED  # (a parameter)
    from dominorules.engine.mechanisms.settle import best_sides_piece as best_sides
    from dominorules.engine.mechanisms.settle import counted_piece as counted
    from dominorules.engine.mechanisms.settle import hand_rank_piece as hand_rank
    from dominorules.engine.mechanisms.settle import winner_seat_piece as winner_seat
    from dominorules.engine.mechanisms.side_out import goes_on_piece as goes_on
    from dominorules.engine.mechanisms.side_out import next_in_piece as next_in
    from dominorules.engine.mechanisms.turn_up import before_piece as before
    from dominorules.kernel import (
        jit_declare,  # declarations and the showdown
        jit_masks,  # a set read one way whatever its width
        jit_several_arms,  # several tiles on four ends, under a fit rule...
        jit_several_shaped,  # several tiles on a shaped board
    )
    from dominorules.kernel.jit_board import NO_SPINNER, double_of, spin_open, spin_place
    from dominorules.kernel.jit_copies import canonical, canonical_at
    from dominorules.kernel.jit_duties import failed, lay, met_by
    from dominorules.kernel.jit_events import (
        LAPSE_AGAIN,
        RULES,
        arm_facts,
        arms_total,
        end_total,
        event_facts,
        fire,
        may_fire,
        pass_events,
        pass_fire,
        pay_draws,
    )
    from dominorules.kernel.jit_formula import run
    from dominorules.kernel.jit_layout import (
        BOARD_SIZE,
        MAXID,
        NAME,
        S_LISTS,
        SHAPE_N,
        clear,
        fits,
        list_facts,
        passed,
        place,
        place_open,
        unpack,
    )
    from dominorules.kernel.jit_layout import allowed as allowed_ends
    from dominorules.kernel.jit_layout import end_total as layout_total
    from dominorules.kernel.jit_layout import pick as layout_pick
    from dominorules.kernel.jit_matching import FLIP, left_open, uniform_pick
    from dominorules.kernel.jit_opening import (
        ANY,
        SEEK_OUT,
        SEEK_TURNS,
        UNHELD_HEAVIEST,
        heaviest,
        open_round,
    )
    from dominorules.kernel.jit_opening_allow import allowed_of, open_any
    from dominorules.kernel.jit_record import (  # several, declarations
        LINE,
        arm_token,
        at_item,
        at_part_item,
        declared_lines,
        event_lines,
        meets_token,
        out_line,
        part_item,
        part_way_item,
        shown_token,
        skip_token,
        turn_up_token,
    )
    from dominorules.kernel.jit_settle import tallies
    from dominorules.kernel.jit_several import CHAIN as SEV_CHAIN_KIND
    from dominorules.kernel.jit_several import (
        DEAD,
        MOST,
        MOVE,
        SCRATCH,
        SET_BLOCKS,
        TIES,
        alone,
        moves,
        pick,
    )
    from dominorules.kernel.jit_several import KIND as SEV_KIND
    from dominorules.kernel.jit_several import ROWS as MV_ROWS
    from dominorules.kernel.jit_strategist import know_turn_up
    from dominorules.kernel.jit_strategist_arms import choose_arms
    from dominorules.kernel.jit_strategist_blind import choose_blind, know_front, know_shown
    from dominorules.kernel.jit_strategist_layout import choose_layout, open_layout
    from dominorules.kernel.jit_support import seat_after


    @njit
    def allowed(m, end, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
        """The tiles of ``m`` that the placement restrictions allow on an end showing ``end``
        (``engine.general_loop.allowed_at``): their program (``jit_formula``) for each."""
        F[X_END] = end
        keep = 0
        while m:
            b = m & -m
            m ^= b
            F[X_TILE] = low_index(b)
            if run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                keep |= b
        return keep


    @njit
    def greedy_ends(m0, m1, m2, m3, word, VALUES, ties):
        """``greedy`` over the four ends of a spinner (``GreedyBot.policy``): the most valuable
        tile, ties broken by the seat's word in the canonical order (left, right, up, down);
        a tile fitting an end two ways goes its first way, as the policy over masks places it."""
        count = 0
        best = -(1 << 62)
        for end in range(4):
            m = m0 if end == 0 else m1 if end == 1 else m2 if end == 2 else m3
            while m:
                b = m & -m
                m ^= b
                t = low_index(b)
                v = VALUES[t]
                if v > best:
                    best = v
                    count = 0
                if v == best:
                    ties[count] = t << 2 | end
                    count += 1
        return ties[(word * count) >> 32]


    @njit
    def owed_draws(CODE, F, p, N, right, deck, pos, draw_end, hands, drawn_by, EVL, K,
                   strat_seats, L, R, U, D, NE):
        """The tiles seat ``p``'s placement's events owe (``events.next_draws``), drawn now
        by the seat after it (``jit_events.pay_draws``); a strategist reads them as the
        record's draws, the drawer lacking the open ends (``strategy.Knowledge``). Returns
        (the deck position, the drawer and its draws, or -1 and 0 when none was drawn)."""
        victim = seat_after(p, N, right)
        drew = pos
        pos = pay_draws(CODE, F, victim, deck, pos, draw_end, hands, drawn_by, EVL)
        if pos == drew:
            return pos, -1, 0
        if strat_seats:
            know_lack(K, victim, L, R)
            if NE == 4:   # a spinner's arms: it lacks those too
                know_lack(K, victim, U, D)
        return pos, victim, pos - drew
if WIDE:
    from dominorules.kernel import jit_bits  # a set of tiles as W words (over 62 tiles)
    from dominorules.kernel.jit_record import deal_item_words
if WIDE and GEN:
    from dominorules.kernel import (
        jit_blind,  # hidden rows at a turn (the front tile alone)
        jit_duties,  # (failed_words)
        jit_gen_wide,  # house rules over words
    )

# the arrays' indexes by name (jit_template.INDEXES), each written in as its number
Q_N = Q_SIDES_N = Q_T = Q_HAND = Q_DEALT = Q_DRAW_END = Q_LIMIT = Q_DRAW_COST = Q_TARGET = Q_VOL = 0
Q_STUCK_DRAW = Q_REQ_TILE = Q_OPENER_HOLDER = Q_DRAW_IN_TURN = Q_FIRST_CODE = Q_LATER_CODE = 0
Q_COUNT_FROM_PREV = Q_INDIVIDUAL = Q_LOWEST_SIDE = Q_TIE_EACH = Q_COST_TO_WINNER = Q_PLAY_ON = 0
Q_MAX_REDEALS = Q_DOUBLES_MASK = Q_DOMINOER = Q_RANK_HOW = Q_LAST_TWO = Q_TIE_CODE = Q_MIN_START = 0
Q_EXACT = Q_END_CODE = Q_LOWEST_WINS = Q_O1_TILE = Q_O1_HOLDER = Q_O1_UNHELD = Q_O1_LACKING = 0
Q_O1_AMASK = Q_O2_TILE = Q_O2_HOLDER = Q_O2_UNHELD = Q_O2_LACKING = Q_O2_AMASK = Q_F_DOMINO = 0
Q_F_BLOCKED = Q_F_RANK = Q_F_EVERY_SIDE = Q_F_DRAW_IF = Q_F_FINAL = Q_F_LEAD = Q_F_REDEAL = 0
R_ROUND = R_LEADER = R_RESULT = R_WINNER = R_WINNER_SEAT = R_TIED_BLOCK = R_TURNS = R_PLACEMENTS = 0
R_DRAWS = R_PASSES = R_DECISIONS = R_CHOICE_POINTS = R_REDEALS = R_EXTRA_TURNS = R_SKIPS = 0
R_POINTS = M_WINNER = M_CAPPED = M_ROUNDS = M_FIRST_ROW = M_SCORES = X_BLOCKED = X_ROUND = 0
X_TARGET = X_PLAYERS = X_LAST_TILE = X_LAST_PLAYER = X_PASSES = X_DRAWN = X_BONEYARD = X_WINNER = 0
X_SIDE = X_WSIDE = X_MATCH_WIN = X_LEADER = X_LEAD_WINNER = X_WINNER_SIDE = X_LEAD_LAST = 0
X_LEAD_BLOCKED = X_LAST_PLAYER_WON = X_ROUND_WON = X_POS = T_SP = T_SV = T_ST = T_SD = T_SQ = 0
T_SCORES = T_ROUNDS_WON = T_P = T_V = T_C = T_DB = T_DQ = T_TL = T_TH = T_PIPS = T_VALUES = 0
if GEN:
    Q_RIGHT = Q_F_RESTRICT = Q_R_SURE = Q_WAIVE = Q_PASS_FORBIDDEN = Q_EV_PLACE = Q_EV_DRAW = 0
    Q_EV_PASS = Q_TURNS = Q_AT_WILL = Q_ENDS_TURN = Q_EXACTLY = Q_TLIMIT = Q_MAX_TURNS = Q_SPIN = 0
    Q_FIT = Q_FIT_AT = Q_IN_PLAY = Q_DUTIES = Q_LEFT_TO = Q_TURN_UP = Q_SIDE_OUT = Q_SECONDS = 0
    Q_BLIND = Q_DECL_START = Q_DECL_PLACE = Q_SHOWDOWN = Q_SEVERAL = Q_LAYOUT = Q_O_ROUNDS = 0
    Q_O_ALLOW = Q_ACROSS = Q_SETTLE_BOARD = 0
    X_TILE = X_END = X_HAND = X_PLAYABLE = X_OPENING = X_BOTH_ENDS = X_FORCED = X_END_LT = 0
    X_END_RT = X_IN_PLAY = X_REACHED = X_FIRED = X_OWED = X_VARIABLE_SETS = X_VARS = 0
    COUNTED_N = X_FIRST_TURN = 0
if WIDE:
    W = 0   # the words of a hand (jit_bits)
FIT_L, FIT_R, FIT_OPEN, FIT_NONE = range(4)   # the rows of FITS
if GEN:   # and a spinner's arms, each end's tiles fitting two ways (a fit rule)
    FIT_U, FIT_D, FIT_2L, FIT_2R, FIT_2U, FIT_2D = range(4, 10)

_U = np.uint64


@njit
def greedy(m_left, m_right, word, VALUES, ties):
    """The ``greedy`` bot's placement as ``tile << 2 | end``: the most valuable tile,
    ties broken by the seat's word, in the canonical order (left end, then right)."""
    count = 0
    best = -(1 << 62)
    for end in range(2):
        m = m_left if end == 0 else m_right
        while m:
            b = m & -m
            m ^= b
            t = low_index(b)
            v = VALUES[t]
            if v > best:
                best = v
                count = 0
            if v == best:
                ties[count] = t << 2 | end
                count += 1
    return ties[(word * count) >> 32]


@njit
def sample(rng, count, k, pool):
    for i in range(count):
        pool[i] = i
    for i in range(k):
        j = i + int(lead_random(rng) * (count - i))
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x


@njit
def before_deal(code, N, T, PIPS, rng, prev_leader, prev_winner, count_from_prev, pool, alive):
    """``leaders.before_deal``: the leader, or -1 when it depends on the deal."""
    if code == 0:
        return 0
    if code == 1:
        return int(lead_random(rng) * N)
    if code == 2:
        return 0 if prev_leader < 0 else (prev_leader + 1) % N
    if code == 3:
        return 0 if prev_leader < 0 else prev_leader
    if code == 4:
        if prev_winner >= 0:
            return prev_winner
        return 0 if prev_leader < 0 else prev_leader
    if code == 5:
        n = N
        for s in range(N):
            alive[s] = s
        while n > 1:
            sample(rng, T, n, pool)
            best = -1
            for i in range(n):
                if PIPS[pool[i]] > best:
                    best = PIPS[pool[i]]
            kept = 0
            for i in range(n):
                if PIPS[pool[i]] == best:
                    alive[kept] = alive[i]
                    kept += 1
            n = kept
        return alive[0]
    if code == 6:
        sample(rng, T, N, pool)
        number = 0
        for i in range(N):
            number += PIPS[pool[i]]
        number %= N
        start = prev_leader if (count_from_prev and prev_leader >= 0) else 0
        return (start + number) % N
    return -1


@njit
def play_batch(seeds, start, stop, max_rounds, start_scores, kinds, Q, PM, TL, TH, PIPS,
               VALUES, DOUBLES_DESC, SIDE_OF, TEAMS, OPP, SIDES, SEATS, STRAT, HEAVY, CODE,
               match_out, round_out, LOG, DAT, LOG_ROUND, DAT_ROUND):
    """Play matches ``seeds[start:stop]`` while ``round_out`` has room for a whole match
    (and ``LOG``, ``DAT`` for its record: ``jit_record``; empty, no record); returns
    (matches played, rows written, round of a failed deal or 0, tokens logged, items'
    numbers written)."""
    # every parameter of PARAMS by its name: N = Q[Q_N], ...
    N = Q[Q_N]
    SIDES_N = Q[Q_SIDES_N]
    T = Q[Q_T]
    HAND = Q[Q_HAND]
    DEALT = Q[Q_DEALT]
    DRAW_END = Q[Q_DRAW_END]
    LIMIT = Q[Q_LIMIT]
    DRAW_COST = Q[Q_DRAW_COST]
    TARGET = Q[Q_TARGET]
    VOL = Q[Q_VOL]
    STUCK_DRAW = Q[Q_STUCK_DRAW]
    REQ_TILE = Q[Q_REQ_TILE]
    OPENER_HOLDER = Q[Q_OPENER_HOLDER]
    DRAW_IN_TURN = Q[Q_DRAW_IN_TURN]
    FIRST_CODE = Q[Q_FIRST_CODE]
    LATER_CODE = Q[Q_LATER_CODE]
    COUNT_FROM_PREV = Q[Q_COUNT_FROM_PREV]
    INDIVIDUAL = Q[Q_INDIVIDUAL]
    LOWEST_SIDE = Q[Q_LOWEST_SIDE]
    TIE_EACH = Q[Q_TIE_EACH]
    COST_TO_WINNER = Q[Q_COST_TO_WINNER]
    PLAY_ON = Q[Q_PLAY_ON]
    MAX_REDEALS = Q[Q_MAX_REDEALS]
    DOUBLES_MASK = Q[Q_DOUBLES_MASK]
    DOMINOER = Q[Q_DOMINOER]
    RANK_HOW = Q[Q_RANK_HOW]
    LAST_TWO = Q[Q_LAST_TWO]
    TIE_CODE = Q[Q_TIE_CODE]
    MIN_START = Q[Q_MIN_START]
    EXACT = Q[Q_EXACT]
    END_CODE = Q[Q_END_CODE]
    LOWEST_WINS = Q[Q_LOWEST_WINS]
    O1_TILE = Q[Q_O1_TILE]
    O1_HOLDER = Q[Q_O1_HOLDER]
    O1_UNHELD = Q[Q_O1_UNHELD]
    O1_LACKING = Q[Q_O1_LACKING]
    O1_AMASK = Q[Q_O1_AMASK]
    O2_TILE = Q[Q_O2_TILE]
    O2_HOLDER = Q[Q_O2_HOLDER]
    O2_UNHELD = Q[Q_O2_UNHELD]
    O2_LACKING = Q[Q_O2_LACKING]
    O2_AMASK = Q[Q_O2_AMASK]
    F_DOMINO = Q[Q_F_DOMINO]
    F_BLOCKED = Q[Q_F_BLOCKED]
    F_RANK = Q[Q_F_RANK]
    F_EVERY_SIDE = Q[Q_F_EVERY_SIDE]
    F_DRAW_IF = Q[Q_F_DRAW_IF]
    F_FINAL = Q[Q_F_FINAL]
    F_LEAD = Q[Q_F_LEAD]
    F_REDEAL = Q[Q_F_REDEAL]
    if GEN:
        RIGHT = Q[Q_RIGHT]
        F_RESTRICT = Q[Q_F_RESTRICT]
        R_SURE = Q[Q_R_SURE]
        WAIVE = Q[Q_WAIVE]
        PASS_FORBIDDEN = Q[Q_PASS_FORBIDDEN]
        EV_PLACE = Q[Q_EV_PLACE]
        EV_DRAW = Q[Q_EV_DRAW]
        EV_PASS = Q[Q_EV_PASS]
        TURNS = Q[Q_TURNS]
        AT_WILL = Q[Q_AT_WILL]
        ENDS_TURN = Q[Q_ENDS_TURN]
        EXACTLY = Q[Q_EXACTLY]
        TLIMIT = Q[Q_TLIMIT]
        MAX_TURNS = Q[Q_MAX_TURNS]
        SPIN = Q[Q_SPIN]
        FIT = Q[Q_FIT]
        FIT_AT = Q[Q_FIT_AT]
        IN_PLAY = Q[Q_IN_PLAY]
        DUTIES = Q[Q_DUTIES]
        LEFT_TO = Q[Q_LEFT_TO]
        TURN_UP = Q[Q_TURN_UP]
        SIDE_OUT = Q[Q_SIDE_OUT]
        SECONDS = Q[Q_SECONDS]
        BLIND = Q[Q_BLIND]
        DECL_START = Q[Q_DECL_START]
        DECL_PLACE = Q[Q_DECL_PLACE]
        SHOWDOWN = Q[Q_SHOWDOWN]
        SEVERAL = Q[Q_SEVERAL]
        LAYOUT = Q[Q_LAYOUT]
        O_ROUNDS = Q[Q_O_ROUNDS]
        O_ALLOW = Q[Q_O_ALLOW]
        ACROSS = Q[Q_ACROSS]
        SETTLE_BOARD = Q[Q_SETTLE_BOARD]
    # the seats' words and the shuffle keys, squeezed as they are read (kernel.shake)
    WB = np.zeros((FIRST + CHUNK) * N, np.uint32)
    wpos = np.zeros(N, np.int64)
    wend = np.zeros(N, np.int64)
    wblock = np.zeros(N, np.int64)
    wmade = np.zeros(N, np.int64)
    wshared = np.zeros(1 + MT_SIZE if CONT else 1, np.int64)   # (CONT: and the Twister)
    wfirst = np.empty(25, np.uint64)
    wstates = np.empty((N, 25), np.uint64)
    msg = np.empty(MSG, np.uint8)
    block = np.empty(4 * T, np.uint32)
    sstate = np.empty(25, np.uint64)
    have = 0
    if not GEN and not CONT:   # the first words of the next LANES matches (first_streams8)
        B8 = (np.empty(LANES * GIVEN * T, np.uint32), np.empty(LANES * FIRST * N, np.uint32),
              np.empty(LANES * N * CHUNK, np.uint32), np.empty((LANES * N, 25), np.uint64),
              np.empty((25, LANES), np.uint64), np.empty(25, np.uint64))
        given = most = made = lane = 0
        more = later = False
    deck = np.empty(T, np.int64)
    scratch = np.empty(2 * T + 2, np.int64)
    if WIDE:
        hands = np.zeros((N, W), np.int64)   # each row a hand, and the tiles fitting each end
        # the tiles fitting the left and right ends, those the opener may open with, none
        FITS = np.zeros((10 if GEN else 4, W), np.int64)
    else:
        hands = np.zeros(N, np.int64)
        FITS = np.zeros(10 if GEN else 4, np.int64)   # (the strategist's sets: jit_masks)
    drawn_by = np.zeros(N, np.int64)
    scores = np.zeros(SIDES_N, np.int64)
    points = np.zeros(SIDES_N, np.int64)
    P = np.zeros(N, np.int64)
    C = np.zeros(N, np.int64)
    SP = np.zeros(SIDES_N, np.int64)
    ST = np.zeros(SIDES_N, np.int64)
    SD = np.zeros(SIDES_N, np.int64)
    lowest = np.zeros(SIDES_N, np.int64)
    ties = np.zeros(4 * T, np.int64)
    pool = np.zeros(T, np.int64)
    alive = np.zeros(N, np.int64)
    rng = np.zeros(1, np.uint64)
    if GEN:
        # the house-rule formulas' tables (jit_formula): the seats' pips P and values V (one
        # array in the plain game), the sides' sums, the scores, the tiles; F the round's facts
        TAB = np.zeros((T_VALUES + 1, max(T + 1, N, SIDES_N)), np.int64)
        for t in range(T):
            TAB[T_TL, t], TAB[T_TH, t], TAB[T_PIPS, t], TAB[T_VALUES, t] = (TL[t], TH[t], PIPS[t],
                                                                          VALUES[t])
        # the tile a list of tiles reads past its ends (runtime.NOTHING: (-1, 0); jit_formula)
        TAB[T_TL, T], TAB[T_PIPS, T], TAB[T_VALUES, T] = -1, -1, -1
        P, V, C, DB, DQ = TAB[T_P], TAB[T_V], TAB[T_C], TAB[T_DB], TAB[T_DQ]
        SP, SV, ST, SD, SQ = TAB[T_SP], TAB[T_SV], TAB[T_ST], TAB[T_SD], TAB[T_SQ]
        scores, rounds_won = TAB[T_SCORES], TAB[T_ROUNDS_WON]
        NV = CODE[0]                    # the variables (variables:), after the facts in F
        # then the placement's rules that owe the next seat tiles (jit_events.pay_draws) and
        # those laying a duty that fired (jit_events.fired_at)
        nf = X_VARS + NV + (3 * CODE[CODE[EV_PLACE + RULES]] if EV_PLACE >= 0 else 0)
        if WIDE:   # then the hand's and the playable tiles' words, which a program reads
            nf += 2 * W   # as those facts (jit_masks.put_fact)
        F = np.zeros(nf, np.int64)
        VNEW = np.zeros(NV, np.int64)
        F[X_TARGET] = TARGET
        F[X_PLAYERS] = N
        F[X_IN_PLAY] = IN_PLAY   # (jit_events.fire asks it: match.ends_in_play)
        stack = np.zeros(64, np.int64)
        # the duties pending (jit_duties: a row each, in the order laid), and a duty's bearers
        DUTY = np.zeros((T * N * DUTIES + 1, 3), np.int64)   # (DUTIES: the rules laying one)
        BEARERS = np.zeros(N, np.int64)
        RENEGED = np.zeros(N, np.int64)   # each seat's passes while able to place (SHOWDOWN)
        ZN = np.zeros(N, np.int64)      # nothing drawn yet: the redeal condition's seats
        RK = np.zeros(SIDES_N, np.int64)   # what a blocked round compares per side
        fin = np.zeros(SIDES_N, np.int64)
        round_play = np.zeros(SIDES_N, np.int64)   # points scored during play (events)
        everyone = (1 << N) - 1   # TURNS: the seats that passed since a placement or draw, bits
        IDLE_MAX = 2 * N          # turns with nobody placing or drawing that block the round
        # the board beyond the line's two ends (jit_board): the spinner's arms U and D, open
        # once NE is 4, and the spinner's sides still bare (need) and number (sval)
        BOARD = SPIN or FIT
        NE = 2
        U = D = sval = 0
        spt = -1   # the spinner, once its arms open (what an untouched arm shows events)
        last_both = 0   # the last placement fitted two or more ends (the loop's last_both;
        # SETTLE_BOARD: a settlement formula reads it)
        need = NO_SPINNER
        VN = PM.shape[0]                # end values, 0 to max_pip (the fit tables' rows)
        # deal.blind: each seat's row as a ring (blind.py), its front at RHEAD, RLEN long
        ROWS = np.zeros((N, max(HAND, 1)), np.int64)
        RHEAD = np.zeros(N, np.int64)
        RLEN = np.zeros(N, np.int64)
        stuck = False
        # play.several (jit_several): the moves offered at a turn, a row each (MN: its
        # tiles), the ties among them and the single tiles, each seat's turns this round
        # (first_turn) and the scratch of a chain's search (a row a depth; a shaped board's
        # a board a depth: jit_several_shaped)
        MOST_N = CODE[SEVERAL + MOST] if SEVERAL >= 0 else 1
        # a chain's tile that goes on earns no extra turn (several.again_lapses: LAPSE_AGAIN)
        SEV_CHAIN = SEVERAL >= 0 and CODE[SEVERAL + SEV_KIND] == SEV_CHAIN_KIND
        MV = np.zeros((CODE[SEVERAL + MV_ROWS] if SEVERAL >= 0 else 1, max(MOST_N, 2)), np.int64)
        MN = np.zeros(CODE[SEVERAL + MV_ROWS] if SEVERAL >= 0 else 1, np.int64)
        TIE = np.zeros(CODE[SEVERAL + TIES] if SEVERAL >= 0 else 1, np.int64)
        STURNS = np.zeros(N, np.int64)
        SEVD = np.zeros((SCRATCH, MOST_N + 1), np.int64)
        SLB = np.zeros((MOST_N + 1 if SEVERAL >= 0 and LAYOUT else 1, BOARD_SIZE), np.int64)
        SPE = np.zeros(MAXID, np.int64)
        TT = np.zeros(MOST_N + 1, np.int64)
        # board.layout: the shape (LSH), the board (LB), the ends open to the seat at turn and
        # the tiles each takes (PE, FM: jit_layout)
        LSH = np.zeros(SHAPE_N, np.int64)
        unpack(LAYOUT, LSH)
        LISTS = LSH[S_LISTS]   # formulas read its ends as lists (jit_layout.list_facts)
        LB = np.zeros(BOARD_SIZE if LAYOUT else 1, np.int64)
        PE = np.zeros(MAXID, np.int64)
        # the sets of tiles the shaped board's pieces walk (jit_masks): the tiles each end
        # takes (FM), the fitting ones and the hand (LF), two scratch sets (LS), a chain's
        # candidates, hands and playable tiles a depth (SDS); over a wide set rows of words
        # and the restrictions' sets of a chain's later tiles, an end each (SRM, SRK), on
        # the board its tiles before leave (jit_several_shaped._steps: RS, the program)
        CHAIN_ENDS = MAXID if SEVERAL >= 0 and LAYOUT and F_RESTRICT >= 0 else 1
        RS = np.zeros(3, np.int64)
        RS[0], RS[1], RS[2] = F_RESTRICT, R_SURE, WAIVE
        if WIDE:
            FM = np.zeros((MAXID, W), np.int64)
            FK = np.zeros((MAXID, W), np.int64)   # an end's tiles the restrictions allow
            LF = np.zeros((2, W), np.int64)
            LS = np.zeros((2, W), np.int64)
            SDS = np.zeros((SET_BLOCKS * (MOST_N + 1), W), np.int64)
            # whole_hand's dead positions (jit_several.dead_at: a hand's words, ends, search)
            DEADT = np.zeros((W + 2, DEAD + 1 if SEVERAL >= 0 else 1), np.int64)
            SRM = np.zeros((CHAIN_ENDS, W), np.int64)
            SRK = np.zeros((CHAIN_ENDS, W), np.int64)
        else:
            FM = np.zeros(MAXID, np.int64)
            FK = np.zeros(MAXID, np.int64)
            LF = np.zeros(2, np.int64)
            LS = np.zeros(2, np.int64)
            SDS = np.zeros(SET_BLOCKS * (MOST_N + 1), np.int64)
            DEADT = np.zeros((3, DEAD + 1 if SEVERAL >= 0 else 1), np.int64)   # (whole_hand)
            SRM = np.zeros(CHAIN_ENDS, np.int64)
            SRK = np.zeros(CHAIN_ENDS, np.int64)
        AFTER = np.zeros(BOARD_SIZE if LAYOUT else 1, np.int64)   # the strategist's look ahead
        PE2 = np.zeros(MAXID, np.int64)
        ne = lmany = 0
    else:
        V, DB, SV = P, drawn_by, SP
    TEAM_N = TEAMS.shape[1]
    # the seats' bots as bit masks (bit s: seat s plays greedy, or the strategist), read
    # once a batch
    greedy_seats = strat_seats = 0
    for s in range(N):
        if kinds[s] == 1:
            greedy_seats |= 1 << s
        elif kinds[s] == 2:
            strat_seats |= 1 << s
    # the strategists' view of the record, its ties and the seats' words (jit_strategist)
    if WIDE:
        # (the BOARD row: W words; hidden rows: a row a seat past KNOW_ROWS, as below)
        K = np.zeros((KNOW_ROWS + N, max(N, W, T)) if GEN and BLIND else (KNOW_ROWS, max(N, W)),
                     np.int64)
        UNSEEN = np.zeros((2 if GEN else 1, W), np.int64)   # the strategist's scratch rows
    else:
        # (hidden rows: a row a seat past KNOW_ROWS, of the tiles shown: jit_strategist_blind)
        K = np.zeros((KNOW_ROWS + N, max(N, T)) if GEN and BLIND else (KNOW_ROWS, N),
                     np.int64)
        UNSEEN = np.zeros(2, np.int64)   # the strategist's scratch sets (jit_masks)
    TS = np.zeros(4 * T + 2, np.float64)   # (a tie among a spinner's four ends' tiles)
    if CONT:
        at_candidate = np.zeros(SIDES_N, np.int64)   # a playout's scores at its candidate
        # the script (jit_continue), after the house rules' programs: where CODE's last says
        SC = CODE[CODE[CODE.shape[0] - 1]:]
        rbase = dbase = 0   # the round's first line after its deal, its first item's numbers
    WS = (WB, wpos, wend, wblock, wmade, wshared, wfirst, wstates, msg)
    if CONT:   # a strategist's tie in a playout: the rollouts' Twister (jit_strategist.pick)
        TW = wshared
    else:
        TW = None
    # the record (jit_record): tokens logged (nl), DAT's numbers (nd), its items (nj); a
    # match that may outgrow them is played again by the next call (from nl0, nd0)
    REC = LOG.shape[0] > 0
    DYN = dynamic(N, T)
    nl = nd = nj = nl0 = nd0 = 0
    if GEN:
        # the event lines of one action, gathered by jit_events.fire (jit_record.event_lines):
        # at most a score a side, a set a variable, an extra turn and a duty a seat a rule;
        # or a duty's (jit_duties): met, or failed with its score, and the tiles drawn
        EVN = 0
        for ev in (EV_PLACE, EV_DRAW, EV_PASS):
            if ev >= 0:
                EVN = max(EVN, CODE[CODE[ev + RULES]])
        # or the declarations' (jit_declare): a choice each (a claim two rows), an option's
        # draws, the showdown's penalties
        DECLS = (CODE[DECL_START] if DECL_START >= 0 else 0) + (
            CODE[DECL_PLACE] if DECL_PLACE >= 0 else 0)
        EVL = np.zeros(1 + LINE * max(EVN * (SIDES_N + 1 + NV + N), 3 * DUTY.shape[0] + T,
                                      2 * DECLS + T + N) if REC else 0, np.int64)
    row = 0
    m_i = start
    while m_i < stop and row + max_rounds <= round_out.shape[0]:
        seed = seeds[m_i]
        if CONT:   # a playout's record (house rules: seen_lines) starts the log again
            nl = nd = nj = 0
        if REC:
            if nl + LOG_ROUND > LOG.shape[0] or nd + DAT_ROUND > DAT.shape[0]:
                break
            nl0, nd0 = nl, nd
            LOG[nl] = DYN + nj
            nl, nj = nl + 1, nj + 1
            nd = start_item(DAT, nd, seed)
        if not GEN and not CONT:   # as many deals given as the last LANES matches made,
            most = max(most, made)   # and the seats' block 1 if one of them read it
            for s in range(N):
                later = later or wblock[s] > 0
            lane = (m_i - start) % LANES
            if lane == 0:
                given = min(most, GIVEN) if m_i > start else 4
                more, most, later = later, 0, False
                first_streams8(seeds, m_i, min(LANES, stop - m_i), N, T, given, more, B8, msg)
            seat_words_given(B8, lane, N, more, WB, wpos, wend, wblock, wmade, wshared, wstates)
        elif not CONT:   # (a playout's seats draw from its one stream; its leader is given)
            seat_words_start(seed, N, WB, wpos, wend, wblock, wshared, wfirst, msg)
        if not CONT:
            lead_stream(seed, rng)
        if CONT:   # a playout: the rollouts' one stream seeded, the script from its start
            mt_seed(wshared, seed)
            ev = 0
            done = bad = False
        for i in range(SIDES_N):
            scores[i] = start_scores[i]
        made = 0
        first_row = row
        prev_leader = prev_winner = -1
        if GEN:
            prev_side = prev_last = prev_blocked = -1
            for i in range(SIDES_N):
                rounds_won[i] = 0
                if CONT:   # the rounds won before the one under way
                    rounds_won[i] = SC[won_at(SC, T) + i]
            for v in range(NV):   # each variable's initial value (jit_formula.code's header)
                F[X_VARS + v] = CODE[1 + NV + v]
                if CONT and SC[won_at(SC, T) + SIDES_N + 2 * v]:   # or as the round began
                    F[X_VARS + v] = SC[won_at(SC, T) + SIDES_N + 2 * v + 1]
            for c in range(COUNTED_N):   # what the mechanisms did (COUNTED)
                F[X_VARIABLE_SETS + c] = 0
        over = False
        match_win = -1
        capped = 0
        rnd_no = 0
        if CONT:
            rnd_no = SC[C_FIRST] - 1   # the round under way
        while not over:
            rnd_no += 1
            if rnd_no > max_rounds:
                capped = 1
                break
            choice = FIRST_CODE if rnd_no == 1 else LATER_CODE
            if GEN:
                F[X_ROUND] = rnd_no   # (a placement restriction may read it)
                if rnd_no == 1:
                    o_tile, o_holder, o_unheld, o_lacking, amask = (O1_TILE, O1_HOLDER, O1_UNHELD,
                                                                    O1_LACKING, O1_AMASK)
                else:
                    o_tile, o_holder, o_unheld, o_lacking, amask = (O2_TILE, O2_HOLDER, O2_UNHELD,
                                                                    O2_LACKING, O2_AMASK)
                if O_ROUNDS >= 0:   # an opening condition reading the round: this round's tiles
                    if WIDE:   # (where its W words start, as jit_opening.open_round reads them)
                        amask = O_ROUNDS + (rnd_no - 1) * W
                    else:
                        amask = CODE[O_ROUNDS + rnd_no - 1]
                oprog = -1   # or one asked of each hand, by its program (jit_opening_allow)
                if O_ALLOW >= 0:
                    oprog = CODE[O_ALLOW + (0 if rnd_no == 1 else 1)]
                if choice == 9 and prev_leader >= 0:   # lead.later as a formula
                    F[X_LEADER], F[X_LEAD_WINNER] = prev_leader, prev_winner
                    F[X_WINNER_SIDE], F[X_LEAD_LAST] = prev_side, prev_last
                    F[X_LEAD_BLOCKED] = prev_blocked
                    F[X_LAST_PLAYER_WON] = 1 if prev_side >= 0 and SIDE_OF[prev_last] == prev_side \
                        else 0
                    pre = _mod(run(CODE, F_LEAD, F, TAB, TEAMS, SIDES_N, N, deck, stack), N)
                elif choice == 2 and prev_leader >= 0:   # the next seat in the direction of play
                    pre = seat_after(prev_leader, N, RIGHT)
                else:
                    pre = before_deal(choice, N, T, PIPS, rng, prev_leader, prev_winner,
                                      COUNT_FROM_PREV, pool, alive)
            else:
                if choice == 2 and prev_leader >= 0:
                    pre = prev_leader + 1 if prev_leader + 1 < N else 0
                else:
                    pre = before_deal(choice, N, T, PIPS, rng, prev_leader, prev_winner,
                                      COUNT_FROM_PREV, pool, alive)
            redeals = 0
            while True:
                if REC and (nl + LOG_ROUND > LOG.shape[0] or nd + DAT_ROUND > DAT.shape[0]):
                    return m_i - start, first_row, 0, nl0, nd0   # this match: the next call
                if CONT and made == 0:   # the playout's imagined deal (GeneralLoop._deal)
                    at = deck_at(SC, m_i, T)
                    for i in range(T):
                        deck[i] = SC[at + i]
                elif GEN or CONT:
                    have = shuffle_keys(seed, made, T, block, sstate, msg, have)
                    deal_into(block, (made & 3) * T, T, deck, scratch)
                else:   # (the plain lines: the first deals' keys given, first_streams8)
                    have = given_keys(B8[0], lane * GIVEN * T, given, seed, made, T, block,
                                      sstate, msg, have)
                    deal_into(block, (made & 3) * T, T, deck, scratch)
                made += 1
                if WIDE:
                    for s in range(N):
                        jit_bits.clear(hands, s)
                        for i in range(s * HAND, s * HAND + HAND):
                            jit_bits.put(hands, s, deck[_U(i)])
                else:
                    for s in range(N):
                        h = 0
                        for i in range(s * HAND, s * HAND + HAND):
                            h |= 1 << deck[_U(i)]
                        hands[s] = h
                leader = pre
                if CONT and made == 1:
                    leader = SC[C_LEADER]   # the deal's leader, as seen
                if GEN:
                    dealt = DEALT
                    if LEFT_TO and leader >= 0:   # deal.leftover: the tiles the hands leave
                        jit_masks.put_each(hands, receiver(LEFT_TO, leader, N, RIGHT), deck,
                                           DEALT, T)
                        dealt = T
                    # GeneralLoop.run: the lead, the redeal condition, the opening (jit_opening;
                    # WIDE: the opening tile and a seek's as indexes, -1: any)
                    if leader < 0:
                        leader = lead_holder(choice, o_tile, hands, N, DOUBLES_DESC)
                    opener = -1
                    omask = -1
                    free = seek = smask = 0
                    redeal = 0
                    if F_REDEAL >= 0:
                        if WIDE:
                            jit_gen_wide.tallies(hands, N, VALUES, PIPS, TL, TH, ZN, TEAMS,
                                                 INDIVIDUAL, P, V, C, DB, DQ, SP, SV, ST, SD, SQ)
                        else:
                            tallies(hands, N, VALUES, PIPS, DOUBLES_MASK, ZN, TEAMS, INDIVIDUAL,
                                    P, V, C, DB, DQ, SP, SV, ST, SD, SQ)
                        F[X_ROUND] = rnd_no
                        redeal = run(CODE, F_REDEAL, F, TAB, TEAMS, SIDES_N, N, deck, stack)
                    if redeal:
                        leader = -1
                    elif leader >= 0 and oprog >= 0:   # (jit_opening_allow: GeneralLoop._open;
                        opener, omask, free, seek, smask = open_any(   # LF: scratch)
                            oprog, o_unheld, o_lacking, hands, leader, deck, dealt, DRAW_END, N,
                            HEAVY, RIGHT, CODE, F, TAB, TEAMS, SIDES_N, stack, LF, 0, LF, 1)
                    elif leader >= 0:   # (WIDE: the tiles allowed written to FITS[FIT_OPEN])
                        opener, omask, free, seek, smask = open_round(
                            o_tile, o_holder, o_unheld, o_lacking, amask, hands, leader, deck,
                            dealt, DRAW_END, N, DOUBLES_DESC, DOUBLES_MASK, HEAVY, TL, TH, RIGHT,
                            CODE, FITS, FIT_OPEN)
                    elif o_unheld == UNHELD_HEAVIEST:   # the lead's tile is in no hand
                        leader, t = heaviest(hands, N, HEAVY)
                        opener, omask = leader, t if WIDE else 1 << t
                else:   # (jit_opening: engine.general_loop.tile_opening)
                    if leader < 0:
                        leader = lead_holder(choice, REQ_TILE, hands, N, DOUBLES_DESC)
                    opener = -1
                    omask = -1
                    seek = 0
                    sought = -1   # the tile a seek draws to (-1: any double)
                    if leader >= 0:
                        opener, sought, seek = tile_opening(
                            REQ_TILE, OPENER_HOLDER, DRAW_IN_TURN, hands, leader, deck, DEALT,
                            DRAW_END, N, DOUBLES_DESC, TL, TH)
                        if WIDE:   # over the hands' words, the opening tile as an index
                            if not seek:
                                omask = sought
                        elif seek:   # else as a mask (omask, -1: any), and what a seek draws to
                            omask, seek = 0, (1 << sought) if sought >= 0 else DOUBLES_MASK
                        elif sought >= 0:
                            omask = 1 << sought
                if opener >= 0:
                    break
                if CONT:   # a deal thrown in cannot be the round seen (continuation: redeal)
                    bad = done = True
                if REC:   # the deal thrown in (GeneralLoop.run): with no leader, or
                    LOG[nl] = DYN + nj   # the leader's and the boneyard it drew out in vain
                    nl, nj = nl + 1, nj + 1
                    if GEN:
                        nd = (deal_item_words if WIDE else deal_item)(
                            DAT, nd, rnd_no, leader if seek == SEEK_OUT else -1, hands, deck, N, T)
                        if seek == SEEK_OUT:
                            for i in range(DEALT, DRAW_END):
                                LOG[nl] = draw_token(N, T, leader, deck[i])
                                nl += 1
                    elif WIDE:
                        nd = deal_item_words(DAT, nd, rnd_no, -1, hands, deck, N, T)
                    else:
                        nd = deal_item(DAT, nd, rnd_no, -1, hands, deck, N, T)
                redeals += 1
                if redeals > MAX_REDEALS:
                    return m_i - start, row, rnd_no, nl, nd
            if REC:
                LOG[nl] = DYN + nj
                nl, nj = nl + 1, nj + 1
                if WIDE:
                    nd = deal_item_words(DAT, nd, rnd_no, leader, hands, deck, N, T)
                else:
                    nd = deal_item(DAT, nd, rnd_no, leader, hands, deck, N, T)
            if CONT:
                rbase, dbase = nl, nd
            if GEN:
                pos = dealt
            else:
                pos = DEALT
            for s in range(N):
                drawn_by[s] = 0
            if strat_seats:
                know_deal(K)
            passes = choices = seek_turns = 0
            if GEN:
                extra_turns = skips = again = skip = 0
                nq = qk = qn = joined = 0   # a move of several tiles under way: its tiles still
                drawn = 0   # to lay (nq), its row in MV (qk) and tile count (qn), and the tiles
                part = 0    # laid after a move's first (jit_several); the tile being laid is the
                STURNS[:] = 0   # part-th of the move's (its record line); the seats' turns
                reached = pending = 0   # the match won mid-round (IN_PLAY); the duties pending
                cseat, cdrawn = -1, 0   # the seat an event made draw, and how many (owed_draws)
                for s in range(N):   # (a loop: a slice's view would count references)
                    RENEGED[s] = 0
                F[X_REACHED] = 0
                for i in range(SIDES_N):
                    round_play[i] = 0
            p = leader
            if GEN:
                upn = 0   # deal.turn_up: the stock's first tile starts the line (jit_deal); the
                if TURN_UP and dealt < T:   # seat before the leader stands in
                    upn = 1      # as its placer, so the leader's is the first turn of play
                    opener, seek = before(leader, N, RIGHT), 0
                    if REC:   # its line at once, before the round's first declarations, as
                        LOG[nl] = turn_up_token(N, T, deck[dealt])   # the loop writes it
                        nl += 1
                if BLIND:   # the rows as dealt; the opener's front tile opens (blind.py; a
                    rows_of(deck, N, HAND, ROWS, RHEAD, RLEN)   # wide omask: the tile itself)
                    omask, free = (front(ROWS, RHEAD, opener) if WIDE
                                   else 1 << front(ROWS, RHEAD, opener)), 0
                if DECL_START >= 0:   # the leader's declarations once the deal stands; an
                    leader, handed = jit_declare.round_start(   # option's lead:
                        CODE, DECL_START, F, TAB, TEAMS, SIDES_N, N, deck, stack, leader,
                        hands, SIDE_OF, scores, ~(greedy_seats | strat_seats), seed, WS, EVL)
                    if REC:
                        nl, nd, nj = declared_lines(EVL, LOG, DAT, nl, nd, nj, DYN)
                    if handed:   # that seat sets the first tile and leads the round (jit_declare)
                        opener = p = leader
                if WIDE and seek:   # as below, to what smask names (jit_gen_wide.wanted)
                    while True:
                        seek_turns += 1
                        t = deck[pos]
                        pos += 1
                        jit_bits.put(hands, p, t)
                        drawn_by[p] += 1
                        if REC:
                            LOG[nl] = draw_token(N, T, p, t)
                            nl += 1
                        if oprog >= 0:   # the drawer's hand asked again (jit_opening_allow)
                            allowed_of(FITS, FIT_OPEN, hands, p, CODE, oprog, F, TAB, TEAMS,
                                       SIDES_N, N, deck, stack)
                            if jit_bits.has(FITS, FIT_OPEN, t):
                                opener, omask = p, jit_gen_wide.OPEN_SET
                                break
                        elif jit_gen_wide.wanted(t, smask, CODE, amask, TL, TH):
                            opener, omask = p, t
                            if o_tile == ANY:   # the tiles allowed it now holds
                                jit_gen_wide.code_meet(FITS, FIT_OPEN, hands, p, CODE, amask)
                                omask = jit_gen_wide.OPEN_SET
                            break
                        if seek == SEEK_TURNS:
                            p = seat_after(p, N, RIGHT)
                        elif pos >= DRAW_END:
                            opener, omask = heaviest(hands, N, HEAVY)
                            break
                elif not WIDE and seek:   # in turn, or the leader alone (drawn out: the
                    # heaviest tile opens)
                    while True:
                        seek_turns += 1
                        t = deck[pos]
                        pos += 1
                        hands[p] |= 1 << t
                        drawn_by[p] += 1
                        if REC:
                            LOG[nl] = draw_token(N, T, p, t)
                            nl += 1
                        if oprog >= 0:   # the drawer's hand asked again (jit_opening_allow)
                            allowed_of(LF, 0, hands, p, CODE, oprog, F, TAB, TEAMS, SIDES_N, N,
                                       deck, stack)
                            smask = amask = LF[0]
                        if (smask >> t) & 1:
                            opener = p
                            omask = (1 << t) if o_tile != ANY else hands[p] & amask
                            break
                        if seek == SEEK_TURNS:
                            p = seat_after(p, N, RIGHT)
                        elif pos >= DRAW_END:
                            opener, t = heaviest(hands, N, HEAVY)
                            omask = 1 << t
                            break
                p = opener
                if WIDE:   # the tiles it may open with (omask: a tile, -1: any, OPEN_SET: those
                    h = 1  # open_round wrote); h: it holds a tile
                    if omask == jit_gen_wide.OPEN_SET:   # those of its hand (a lead handed
                        if oprog >= 0:                  # on: jit_declare), as below
                            allowed_of(FITS, FIT_OPEN, hands, p, CODE, oprog, F, TAB, TEAMS,
                                       SIDES_N, N, deck, stack)
                        else:
                            jit_gen_wide.code_meet(FITS, FIT_OPEN, hands, p, CODE, amask)
                    elif omask < 0:
                        jit_bits.copy(FITS, FIT_OPEN, hands, p)
                    else:
                        jit_bits.clear(FITS, FIT_OPEN)
                        jit_bits.put(FITS, FIT_OPEN, omask)
                else:
                    h = hands[p]
                    m = h if omask < 0 else ((h & amask) if free else omask)
                    if oprog >= 0 and free and omask >= 0:   # the opener's hand asked
                        allowed_of(LF, 0, hands, p, CODE, oprog, F, TAB, TEAMS, SIDES_N, N, deck,
                                   stack)
                        m = LF[0]
                if not WIDE and SECONDS:   # set.copies: a tile held twice is one move, its
                    m = canonical(m, SECONDS)   # first copy
                if WIDE and SECONDS:   # (over words)
                    canonical_at(FITS, FIT_OPEN, CODE, SECONDS)
                can_draw = free and VOL and pos < DRAW_END and 0 < LIMIT
                if upn:   # the turned-up tile, nobody's choice: the one tile the opening below
                    t = deck[pos]   # takes, by the strategist's path (a lone tile reads no word)
                    pos += 1
                    if WIDE:
                        jit_bits.put(hands, p, t)
                        jit_bits.clear(FITS, FIT_OPEN)
                        jit_bits.put(FITS, FIT_OPEN, t)
                    else:
                        h |= 1 << t
                        m = 1 << t
                    can_draw = False
                if CONT:   # the seen opening tile (a draw before it, or the candidate there:
                    sa = -1   # such positions stay on Python, jit_continuation.follows)
                    if not done:
                        sa, now, bad = scripted(SC, nl - rbase, p, m_i, m, 0, 0, 0, can_draw)
                        if bad or now or sa == DRAW_CODE:
                            sa, bad, done = -1, True, True
            elif WIDE:
                if seek:
                    while True:
                        seek_turns += 1
                        t = deck[pos]
                        pos += 1
                        jit_bits.put(hands, p, t)
                        drawn_by[p] += 1
                        if REC:
                            LOG[nl] = draw_token(N, T, p, t)
                            nl += 1
                        if t == sought if sought >= 0 else TL[t] == TH[t]:
                            opener, omask = p, t
                            break
                        p = p + 1 if p + 1 < N else 0
                p = opener
                if omask < 0:
                    jit_bits.copy(FITS, FIT_OPEN, hands, p)
                else:
                    jit_bits.clear(FITS, FIT_OPEN)
                    jit_bits.put(FITS, FIT_OPEN, omask)
                can_draw = omask < 0 and VOL and pos < DRAW_END and 0 < LIMIT
                if can_draw or jit_bits.several(FITS, FIT_OPEN):
                    choices += 1
                if (strat_seats >> p) & 1:   # the strategist (jit_strategist, over words)
                    a = opening(p, FITS, FIT_OPEN, hands, p, STRAT, TS, ties, seed, N, WS, TW)
                else:
                    if wpos[p] == wend[p]:
                        seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade, wshared,
                                        wfirst, wstates, msg)
                    word = np.int64(WB[wpos[p]])
                    wpos[p] += 1
                    if not (greedy_seats >> p) & 1:   # the uniform pick (engine.general_loop)
                        a = jit_bits.uniform(FITS, FIT_OPEN, FIT_NONE, word)
                    else:
                        a = jit_bits.greedy(FITS, FIT_OPEN, FIT_NONE, word, VALUES, ties)
                t = a >> 2
                jit_bits.take(hands, p, t)
            else:
                if seek:
                    while True:
                        seek_turns += 1
                        t = deck[pos]
                        pos += 1
                        hands[p] |= 1 << t
                        drawn_by[p] += 1
                        if REC:
                            LOG[nl] = draw_token(N, T, p, t)
                            nl += 1
                        if CONT:
                            ev, done, bad = script_event(SC, ev, SEEN_DRAW, p, done, bad)
                        if (1 << t) & seek:
                            opener, omask = p, 1 << t
                            break
                        p = p + 1 if p + 1 < N else 0
                p = opener
                # the opening tile (no builtin bot draws by choice before it)
                h = hands[p]
                m = h if omask < 0 else omask
                can_draw = omask < 0 and VOL and pos < DRAW_END and 0 < LIMIT
                if CONT:   # the script's answers (jit_continue.scripted): draws, then a tile
                    sa, odrawn = -1, 0
                    while not done:
                        sa, now, bad = scripted(SC, ev, p, m_i, m, 0, 0, 0, can_draw)
                        if bad or now:
                            done = True
                            for i in range(SIDES_N):
                                at_candidate[i] = scores[i]
                        if bad:
                            sa = -1
                            break
                        if sa != DRAW_CODE:
                            break
                        sa = -1   # a draw before the opening tile (the loop's, as run draws)
                        t = deck[pos]
                        pos += 1
                        h |= 1 << t
                        hands[p] = h
                        drawn_by[p] += 1
                        odrawn += 1
                        if REC:
                            LOG[nl] = draw_token(N, T, p, t)
                            nl += 1
                        ev, done, bad = script_event(SC, ev, SEEN_DRAW, p, done, bad)
                        m = h if omask < 0 else omask
                        can_draw = omask < 0 and VOL and pos < DRAW_END and odrawn < LIMIT
            if not WIDE:
                if can_draw or m & (m - 1):
                    choices += 1
                # the seat's next word and its pick are written out here and at each turn below:
                # as numba helpers (even inline="always") they made the kernel 30-40% slower
                if CONT and sa >= 0:   # the seen tile, or the candidate
                    a = sa
                elif GEN and LAYOUT and (strat_seats >> p) & 1:   # a shaped board
                    LF[0], LF[1] = m, h   # (jit_strategist_layout)
                    a = open_layout(p, LF, 0, LF, 1, LSH, AFTER, PE2, PM, TL, TH, VALUES, ties,
                                    seed, N, WS, LS)
                elif (strat_seats >> p) & 1 or (GEN and upn):   # the strategist, or the
                    FITS[FIT_OPEN] = m   # turned-up tile
                    a = opening(p, FITS, FIT_OPEN, hands, p, STRAT, TS, ties, seed, N, WS, TW)
                else:
                    if CONT:   # a greedy or random rollout: the playout's one stream's word
                        word = mt_word(wshared)
                    else:
                        if wpos[p] == wend[p]:
                            seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade, wshared,
                                            wfirst, wstates, msg)
                        word = np.int64(WB[wpos[p]])
                        wpos[p] += 1
                    if not (greedy_seats >> p) & 1:   # the uniform pick (engine.general_loop)
                        n_left = popcount(m)
                        k = (word * (n_left + popcount(0))) >> 32
                        if k < n_left:
                            m, end = m, 0
                        else:
                            m, end = 0, 1
                            k -= n_left
                        while k:
                            m &= m - 1
                            k -= 1
                        a = low_index(m) << 2 | end
                    else:
                        a = greedy(m, 0, word, VALUES, ties)
                t = a >> 2
                h ^= 1 << t
                hands[p] = h
            elif GEN:   # over words (jit_bits), as the plain game's opening below
                if can_draw or jit_bits.several(FITS, FIT_OPEN):
                    choices += 1
                if LAYOUT and (strat_seats >> p) & 1:   # a shaped board (jit_strategist_layout)
                    a = open_layout(p, FITS, FIT_OPEN, hands, p, LSH, AFTER, PE2, PM, TL, TH,
                                    VALUES, ties, seed, N, WS, LS)
                elif (strat_seats >> p) & 1 or upn:   # the strategist (jit_strategist, over
                    a = opening(p, FITS, FIT_OPEN, hands, p, STRAT, TS, ties, seed, N, WS,
                                TW)   # words), or the turned-up tile
                else:
                    if wpos[p] == wend[p]:
                        seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade, wshared,
                                        wfirst, wstates, msg)
                    word = np.int64(WB[wpos[p]])
                    wpos[p] += 1
                    if not (greedy_seats >> p) & 1:   # the uniform pick (engine.general_loop)
                        a = jit_bits.uniform(FITS, FIT_OPEN, FIT_NONE, word)
                    else:
                        a = jit_bits.greedy(FITS, FIT_OPEN, FIT_NONE, word, VALUES, ties)
                t = a >> 2
                jit_bits.take(hands, p, t)
                h = jit_bits.nonempty(hands, p)
            L, R = TL[t], TH[t]
            if REC:
                if GEN:
                    if not upn:   # (a tile turned up is written with the deal, above)
                        LOG[nl] = place_token(N, T, p, t, 0)
                        nl += 1
                else:
                    LOG[nl] = place_token(N, T, p, t, 0)
                    nl += 1
            if CONT and not GEN:   # (house rules: their record, seen_lines)
                ev, done, bad = script_event(SC, ev, SEEN_PLACE, p, done, bad)
            if GEN:
                if BLIND and not upn:   # the front tile opened (blind.py)
                    pop_front(ROWS, RHEAD, RLEN, p)
                NE = 2
                U = D = 0
                if SPIN:   # the opening double spins (Board.open_with)
                    need, sval = spin_open(L, R, SPIN)
                if LAYOUT:   # a shaped board's opening tile (Layout.place)
                    clear(LB)
                    place_open(LSH, LB, t, L, R, N)
                    if LISTS:
                        list_facts(LB, F)
            if strat_seats:
                if GEN and upn:   # on the board, led by nobody
                    know_turn_up(K, t)
                else:
                    know_open(K, p, t, L, R)
            if GEN:
                last_p, last_t = p, t
                if SETTLE_BOARD:
                    last_both = 0   # (the opening tile fits no end)
                lt = rt = t   # the tile at each end (a double lies across: end_total)
                ut = dt = -1   # and at the end of a spinner's up and down arms (-1: untouched)
                if EV_PLACE >= 0 and not upn:   # the opening tile's events (jit_events; none
                    # for a turned-up tile)
                    et = end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS)
                    if may_fire(CODE, EV_PLACE, -1 if WIDE else t, L, R, et):   # (WIDE: no
                        event_facts(F, L, R, et, T - pos, 0, 0)   # tile mask, jit_house)
                        F[X_TILE], F[X_OPENING], F[X_BOTH_ENDS] = t, 1, 0
                        F[X_END_LT], F[X_END_RT] = lt, rt
                        if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                            arm_facts(F, U, D, NE, ut, dt, spt)
                        again, skip = fire(CODE, CODE[EV_PLACE + RULES], F, TAB, TEAMS, SIDES_N,
                                           N, deck, stack, SIDE_OF[p], scores, round_play, not h,
                                           EVL)
                        if REC:
                            nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
                        reached = F[X_REACHED]
                        if DUTIES and F[X_FIRED] and h and not reached:
                            pending = lay(CODE, CODE[EV_PLACE + RULES], p, t, N, RIGHT, SIDE_OF,
                                          DUTY, pending, F, BEARERS, EVL)
                            if REC:
                                nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
                        if F[X_OWED] and not reached:   # events.next_draws: the next seat
                            pos, cseat, cdrawn = owed_draws(   # draws now
                                CODE, F, p, N, RIGHT, deck, pos, DRAW_END, hands, drawn_by, EVL,
                                K, strat_seats, L, R, U, D, NE)
                            if REC:
                                nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
                if DECL_PLACE >= 0 and not reached:   # the opener's declarations
                    event_facts(F, L, R, end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS), T - pos,
                                0, 0)
                    F[X_TILE], F[X_OPENING], F[X_BOTH_ENDS] = t, 1, 0
                    F[X_END_LT], F[X_END_RT] = lt, rt
                    if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                        arm_facts(F, U, D, NE, ut, dt, spt)
                    drew = pos
                    pos = jit_declare.after_place(CODE, DECL_PLACE, F, TAB, TEAMS, SIDES_N, N,
                                                  deck, stack, p, hands, SIDE_OF, scores,
                                                  ~(greedy_seats | strat_seats), seed, WS, pos,
                                                  DRAW_END, drawn_by, EVL)
                    if REC:
                        nl, nd, nj = declared_lines(EVL, LOG, DAT, nl, nd, nj, DYN)
                    if pos > drew:   # an option's draws: the strategist reads them as lacks
                        if WIDE:   # (over words, h tells whether the hand holds a tile)
                            h = jit_bits.nonempty(hands, p)
                        else:
                            h = hands[p]
                        if strat_seats:
                            know_lack(K, p, L, R)
                idle = run_passes = turns_taken = 0
                outs = 0   # play.until: side_out: the seats out this round (bits), and how many
                nin = N    # are still in: their passes in a row block the round (jit_side_out)
            npass = 0
            domino = -1
            if GEN:
                if not h:
                    if SIDE_OUT and (jit_gen_wide.side_goes_on if WIDE else goes_on)(
                            SIDE_OF[p], hands, TEAMS):   # out; the round goes on
                        outs, nin = outs | 1 << p, nin - 1
                        if REC:
                            nl, nd, nj = out_line(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
                    else:
                        domino, npass = p, N
            elif WIDE:
                if not jit_bits.nonempty(hands, p):
                    domino, npass = p, N
            else:
                if not h:
                    domino, npass = p, N
            if GEN:
                if reached:   # the opening's points won the match: the round stops unsettled
                    domino, npass = -1, ((everyone ^ outs) if TURNS else N)
            while True:   # the turns, until the round ends
                if GEN:
                    if domino >= 0:
                        break
                    if TURNS:   # GeneralLoop.run's turn order: turns granted, turns skipped
                        # (the seats out, play.until: side_out, are passed over, skips too:
                        # side_out.next_in; all the others passed: blocked)
                        if npass == everyone ^ outs or idle >= IDLE_MAX:
                            break
                        if nq:   # a move of several tiles goes on: no new turn
                            joined += 1
                        elif again:
                            again -= 1
                            extra_turns += 1
                        else:
                            p = next_in(p, N, RIGHT, outs) if outs else seat_after(p, N, RIGHT)
                            while skip > 0 and idle < IDLE_MAX:
                                skip -= 1
                                skips += 1
                                idle += 1
                                if REC:
                                    LOG[nl] = skip_token(N, T, p)
                                    nl += 1
                                p = next_in(p, N, RIGHT, outs) if outs else seat_after(p, N,
                                                                                       RIGHT)
                            if idle >= IDLE_MAX:   # a skip completed two idle turns: blocked
                                break
                        turns_taken += 1
                        if turns_taken > MAX_TURNS:
                            return m_i - start, row, -rnd_no, nl, nd
                    elif npass >= nin:
                        break
                    elif nq:   # a move of several tiles goes on (jit_several): no new turn
                        joined += 1
                    elif RIGHT:   # play.direction: right
                        p = p - 1 if p > 0 else N - 1
                    else:
                        p = p + 1 if p + 1 < N else 0
                    if outs and not TURNS and (outs >> p) & 1:   # a seat out is passed over
                        p = next_in(p, N, RIGHT, outs)   # (jit_side_out; TURNS' above: an
                        # extra turn still owed to a seat that went out is its own, as the
                        # general loop plays it)
                else:
                    if npass >= N:
                        break
                    p = p + 1 if p + 1 < N else 0
                up = _U(p)   # an unsigned index: numba adds no wraparound for it
                if not WIDE:
                    h = hands[up]
                elif GEN:   # (over words, h tells whether the hand holds a tile)
                    h = jit_bits.nonempty(hands, up)
                if GEN:
                    if not nq:   # (a move of several tiles going on keeps its turn's draws)
                        drawn = 0
                        if SEVERAL >= 0:   # a turn begins (several.first_turn)
                            STURNS[up] += 1
                            F[X_FIRST_TURN] = 1 if STURNS[up] == 1 else 0
                    # the draws an event made this seat take just before its turn, which the
                    # strategist reads as its turn's first (strategy.Knowledge: turn_draws)
                    cn = cdrawn if p == cseat else 0
                    cseat = -1
                else:
                    drawn = 0
                while True:
                    if WIDE:
                        fit = (jit_bits.meet(FITS, FIT_L, hands, up, PM, L)
                               | jit_bits.meet(FITS, FIT_R, hands, up, PM, R))
                    else:
                        mL = h & PM[_U(L)]
                        mR = h & PM[_U(R)]
                    if GEN and WIDE:   # a set over 62 tiles: the tiles each end takes, over
                        # words (jit_gen_wide), the ends' rows of FITS in the order (left,
                        # right, up, down), a fit rule's second ways in the next four; h: the
                        # hand holds a tile. The pick and the rest of the turn are below,
                        # both widths'
                        if NE == 4:   # the spinner's arms are open (jit_board)
                            fit |= (jit_bits.meet(FITS, FIT_U, hands, up, PM, U)
                                    | jit_bits.meet(FITS, FIT_D, hands, up, PM, D))
                        if LAYOUT:   # a shaped board: the ends open to p, in order (jit_layout
                            ne, fit_one, lmany = fits(LSH, LB, p, hands, up, PM, PE, FM, FITS,
                                                      FIT_L)   # over words: jit_masks)
                            fit = 1 if fit_one else 0
                        fitting = fit
                        rows = (FIT_L, FIT_R, FIT_U, FIT_D, FIT_2L, FIT_2R, FIT_2U, FIT_2D)
                        ends = (L, R, U, D)
                        if F_RESTRICT >= 0 and fit:   # play.restrictions (allowed_at): the
                            # hand and the playable tiles as words (FIT_OPEN: the opening's
                            # row, free in a turn); on a shaped board every tile that fits an
                            # end open to p is in FIT_L (jit_layout.fits), the line's rows unused
                            jit_masks.put_fact(F, X_HAND, 0, hands, up)
                            jit_bits.clear(FITS, FIT_OPEN)
                            for e in range(1 if LAYOUT else NE):
                                jit_masks.join(FITS, FIT_OPEN, FITS, rows[e])
                            jit_masks.put_fact(F, X_PLAYABLE, 1, FITS, FIT_OPEN)
                            F[X_BONEYARD] = T - pos
                            if LAYOUT:   # on a shaped board (jit_layout, over words: jit_masks)
                                fit_one, lmany = allowed_ends(FM, FK, PE, ne, LB, WAIVE, CODE,
                                                              F_RESTRICT, R_SURE, F, TAB, TEAMS,
                                                              SIDES_N, N, deck, stack, FITS,
                                                              FIT_L)
                                fit = 1 if fit_one else 0
                            else:
                                fit = jit_gen_wide.restrict(FITS, rows, NE, ends, CODE,
                                                            F_RESTRICT, R_SURE, WAIVE, F, TAB,
                                                            TEAMS, SIDES_N, N, deck, stack)
                        if SECONDS:   # set.copies: a tile held twice is one move (jit_copies)
                            for e in range(1 if LAYOUT else NE):
                                canonical_at(FITS, rows[e], CODE, SECONDS)
                            if LAYOUT:   # at each end of a shaped board
                                for k in range(ne):
                                    canonical_at(FM, k, CODE, SECONDS)
                        if BLIND:   # deal.blind: the row's front tile alone (jit_blind); the
                            stuck = jit_blind.front_only(FITS, rows, NE, front(ROWS, RHEAD, up))
                            fit = jit_gen_wide.any_fits(FITS, rows, NE)   # stuck: no tile fits
                        draw_on = EXACTLY > 0 and 0 < drawn < TLIMIT and pos < DRAW_END
                        nm = 0
                        if SEVERAL >= 0 and not nq:   # play.several: the single tiles alone
                            F[X_BONEYARD] = T - pos   # leaves, and the moves (jit_several)
                            if LAYOUT:   # on a shaped board (jit_several_shaped)
                                fit_one, lmany = jit_several_shaped.alone(
                                    p, FM, PE, ne, hands, up, LB, PM, CODE, SEVERAL, F, TAB,
                                    TEAMS, SIDES_N, N, deck, stack, FITS, FIT_L, LS)
                                fit = 1 if fit_one else 0
                                nm = jit_several_shaped.chain(
                                    p, hands, up, ne, PE, LSH, LB, PM, TL, TH, CODE, SEVERAL, RS,
                                    F, TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SLB, SPE, SDS,
                                    TT, SRM, SRK)
                            elif SPIN or FIT or F_RESTRICT >= 0 or SECONDS:   # four ends, a
                                # fit rule, restrictions, two sets (jit_several_arms, its sets
                                # jit_masks' as on a narrow set)
                                fit = jit_several_arms.alone(
                                    FITS, rows, NE, hands, up, L, R, U, D, PM, CODE, SEVERAL, F,
                                    TAB, TEAMS, SIDES_N, N, deck, stack, LS)
                                nm = jit_several_arms.moves(
                                    hands, up, L, R, U, D, NE, need, sval, PM, PIPS, TL, TH, CODE,
                                    SEVERAL, F_RESTRICT, R_SURE, WAIVE, FIT, FIT_AT, VN, T, SPIN,
                                    SECONDS, F, TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SEVD,
                                    SDS, DEADT)
                            else:   # on a line (jit_several, its sets: jit_masks)
                                alone(FITS, FIT_L, FIT_R, hands, up, L, R, PM, CODE, SEVERAL,
                                      F, TAB, TEAMS, SIDES_N, N, deck, stack, LS)
                                fit = (jit_bits.nonempty(FITS, FIT_L)
                                       | jit_bits.nonempty(FITS, FIT_R))
                                nm = moves(hands, up, L, R, PM, PIPS, TL, TH, CODE, SEVERAL, F,
                                           TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SEVD,
                                           SDS, DEADT)
                        fit_any = fit != 0 or nm > 0 or nq > 0
                    elif GEN:
                        mU = mD = 0
                        if NE == 4:   # the spinner's arms are open (jit_board)
                            mU = h & PM[_U(U)]
                            mD = h & PM[_U(D)]
                        if LAYOUT:   # a shaped board: the ends open to p, in order (jit_layout)
                            ne, _, lmany = fits(LSH, LB, p, hands, up, PM, PE, FM, LF, 0)
                            mL = LF[0]
                            mR = 0
                        fitting = mL | mR | mU | mD
                        if F_RESTRICT >= 0 and fitting and LAYOUT:   # on a shaped board
                            F[X_HAND], F[X_PLAYABLE], F[X_BONEYARD] = h, fitting, T - pos
                            _, lmany = allowed_ends(FM, FK, PE, ne, LB, WAIVE, CODE, F_RESTRICT,
                                                    R_SURE, F, TAB, TEAMS, SIDES_N, N, deck,
                                                    stack, LF, 0)
                            mL = LF[0]
                        elif F_RESTRICT >= 0 and fitting:   # play.restrictions (allowed_at)
                            # the tiles allowed whatever else holds; the program for the others
                            kL = mL & CODE[R_SURE + L]
                            kR = mR & CODE[R_SURE + R]
                            kU = mU & CODE[R_SURE + U]
                            kD = mD & CODE[R_SURE + D]
                            if (mL ^ kL) | (mR ^ kR) | (mU ^ kU) | (mD ^ kD):
                                F[X_HAND], F[X_PLAYABLE], F[X_BONEYARD] = h, fitting, T - pos
                                kL |= allowed(mL ^ kL, L, CODE, F_RESTRICT, F, TAB, TEAMS, SIDES_N,
                                              N, deck, stack)
                                kR |= allowed(mR ^ kR, R, CODE, F_RESTRICT, F, TAB, TEAMS, SIDES_N,
                                              N, deck, stack)
                                if NE == 4:
                                    kU |= allowed(mU ^ kU, U, CODE, F_RESTRICT, F, TAB, TEAMS,
                                                  SIDES_N, N, deck, stack)
                                    kD |= allowed(mD ^ kD, D, CODE, F_RESTRICT, F, TAB, TEAMS,
                                                  SIDES_N, N, deck, stack)
                            if kL or kR or kU or kD or not WAIVE:   # if_none_allowed: waive
                                mL, mR, mU, mD = kL, kR, kU, kD     # keeps them all
                        if SECONDS:   # set.copies: a tile held twice is one move (jit_copies)
                            mL, mR = canonical(mL, SECONDS), canonical(mR, SECONDS)
                            mU, mD = canonical(mU, SECONDS), canonical(mD, SECONDS)
                            if LAYOUT:   # at each end of a shaped board
                                for k in range(ne):
                                    FM[k] = canonical(FM[k], SECONDS)
                        if BLIND:   # deal.blind: the row's front tile alone (blind.py); the seat
                            stuck = (mL | mR | mU | mD) == 0   # is stuck if no tile of it fits
                            fb = 1 << front(ROWS, RHEAD, up)
                            mL, mR, mU, mD = mL & fb, mR & fb, mU & fb, mD & fb
                        # mid-way through an exact draw (drawing.exactly): only a draw
                        draw_on = EXACTLY > 0 and 0 < drawn < TLIMIT and pos < DRAW_END
                        nm = 0
                        if SEVERAL >= 0 and not nq:   # play.several: the single tiles alone
                            F[X_BONEYARD] = T - pos   # leaves, and the moves (jit_several)
                            if LAYOUT:   # on a shaped board (jit_several_shaped)
                                _, lmany = jit_several_shaped.alone(
                                    p, FM, PE, ne, hands, up, LB, PM, CODE, SEVERAL, F, TAB,
                                    TEAMS, SIDES_N, N, deck, stack, LF, 0, LS)
                                mL = LF[0]
                                nm = jit_several_shaped.chain(
                                    p, hands, up, ne, PE, LSH, LB, PM, TL, TH, CODE, SEVERAL, RS,
                                    F, TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SLB, SPE, SDS,
                                    TT, SRM, SRK)
                            elif SPIN or FIT or F_RESTRICT >= 0 or SECONDS:   # four ends, a
                                # fit rule, restrictions, two sets (jit_several_arms)
                                # (the narrow sets as rows of FITS, as a set of words is kept)
                                FITS[FIT_L], FITS[FIT_R], FITS[FIT_U], FITS[FIT_D] = (
                                    mL, mR, mU, mD)
                                jit_several_arms.alone(
                                    FITS, (FIT_L, FIT_R, FIT_U, FIT_D), NE, hands, up, L, R, U,
                                    D, PM, CODE, SEVERAL, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                    LS)
                                mL, mR, mU, mD = FITS[FIT_L], FITS[FIT_R], FITS[FIT_U], FITS[FIT_D]
                                nm = jit_several_arms.moves(
                                    hands, up, L, R, U, D, NE, need, sval, PM, PIPS, TL, TH, CODE,
                                    SEVERAL, F_RESTRICT, R_SURE, WAIVE, FIT, FIT_AT, VN, T, SPIN,
                                    SECONDS, F, TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SEVD,
                                    SDS, DEADT)
                            else:   # on a line (jit_several, its sets: jit_masks)
                                FITS[FIT_L], FITS[FIT_R] = mL, mR
                                alone(FITS, FIT_L, FIT_R, hands, up, L, R, PM, CODE, SEVERAL,
                                      F, TAB, TEAMS, SIDES_N, N, deck, stack, LS)
                                mL, mR = FITS[FIT_L], FITS[FIT_R]
                                nm = moves(hands, up, L, R, PM, PIPS, TL, TH, CODE, SEVERAL, F,
                                           TAB, TEAMS, SIDES_N, N, deck, stack, MV, MN, SEVD,
                                           SDS, DEADT)
                        fit_any = (mL | mR | mU | mD) != 0 or nm > 0 or nq > 0
                    elif WIDE:
                        a = -1
                        if fit:
                            can_draw = VOL and pos < DRAW_END and drawn < LIMIT
                            if can_draw or (jit_bits.nonempty(FITS, FIT_L)
                                            and jit_bits.nonempty(FITS, FIT_R)) or (
                                    jit_bits.several(FITS, FIT_L) or jit_bits.several(FITS, FIT_R)):
                                choices += 1
                            if (strat_seats >> p) & 1:   # the strategist: a placement or a draw
                                a = choose(p, FITS, FIT_L, FIT_R, can_draw, hands, up, L, R,
                                           DRAW_END - pos, drawn, K, STRAT, TS, ties, seed, N, WS,
                                           TW, UNSEEN)
                            else:
                                if wpos[up] == wend[up]:
                                    seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade,
                                                    wshared, wfirst, wstates, msg)
                                word = np.int64(WB[_U(wpos[up])])
                                wpos[up] += 1
                                if not (greedy_seats >> p) & 1:   # the uniform pick (general_loop)
                                    a = jit_bits.uniform(FITS, FIT_L, FIT_R, word)
                                else:
                                    a = jit_bits.greedy(FITS, FIT_L, FIT_R, word, VALUES, ties)
                        if a >= 0:
                            t = a >> 2
                            jit_bits.take(hands, up, t)
                            npass = 0
                            if REC:
                                LOG[nl] = place_token(N, T, p, t, 1 + (a & 3))
                                nl += 1
                            if a & 3:
                                R = PIPS[_U(t)] - R
                                if strat_seats:
                                    know_place(K, p, t, R)
                            else:
                                L = PIPS[_U(t)] - L
                                if strat_seats:
                                    know_place(K, p, t, L)
                            if not jit_bits.nonempty(hands, up):
                                domino, npass = p, N
                            break
                        elif fit or (STUCK_DRAW and pos < DRAW_END and drawn < LIMIT):
                            pass   # a draw: the strategist's choice, or stuck
                        else:
                            passes += 1
                            npass += 1
                            if REC:
                                LOG[nl] = pass_token(N, T, p)
                                nl += 1
                            if strat_seats:
                                know_lack(K, p, L, R)
                            break
                    else:
                        a = -1
                        if mL or mR:
                            can_draw = VOL and pos < DRAW_END and drawn < LIMIT
                            if can_draw or (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                                choices += 1
                            if CONT and not done:   # the seen move, or the candidate
                                a, now, bad = scripted(SC, ev, p, m_i, mL, mR, 0, 0, can_draw)
                                if bad or now:
                                    done = True
                                    for i in range(SIDES_N):
                                        at_candidate[i] = scores[i]
                                if bad:   # (the playout is refused: any legal tile goes on)
                                    a = low_index(mL) << 2 if mL else low_index(mR) << 2 | 1
                            elif (strat_seats >> p) & 1:   # the strategist: a placement or a draw
                                FITS[FIT_L], FITS[FIT_R] = mL, mR
                                a = choose(p, FITS, FIT_L, FIT_R, can_draw, hands, up, L, R,
                                           DRAW_END - pos, drawn, K, STRAT, TS, ties, seed, N, WS,
                                           TW, UNSEEN)
                            else:
                                if CONT:   # a greedy or random rollout (as the opening's)
                                    word = mt_word(wshared)
                                else:
                                    if wpos[up] == wend[up]:
                                        seat_words_next(seed, p, N, WB, wpos, wend, wblock,
                                                        wmade, wshared, wfirst, wstates, msg)
                                    word = np.int64(WB[_U(wpos[up])])
                                    wpos[up] += 1
                                if not (greedy_seats >> p) & 1:   # the uniform pick (general_loop)
                                    n_left = popcount(mL)
                                    k = (word * (n_left + popcount(mR))) >> 32
                                    end = 1 if k >= n_left else 0
                                    m = mR if end else mL
                                    k -= n_left if end else 0
                                    while k:
                                        m &= m - 1
                                        k -= 1
                                    a = low_index(m) << 2 | end
                                else:
                                    a = greedy(mL, mR, word, VALUES, ties)
                        if a >= 0:
                            t = a >> 2
                            h ^= 1 << t
                            hands[up] = h
                            npass = 0
                            if REC:
                                LOG[nl] = place_token(N, T, p, t, 1 + (a & 3))
                                nl += 1
                            if CONT:
                                ev, done, bad = script_event(SC, ev, SEEN_PLACE, p, done, bad)
                            if a & 3:
                                R = PIPS[_U(t)] - R
                                if strat_seats:
                                    know_place(K, p, t, R)
                            else:
                                L = PIPS[_U(t)] - L
                                if strat_seats:
                                    know_place(K, p, t, L)
                            if not h:
                                domino, npass = p, N
                            break
                        elif mL or mR or (STUCK_DRAW and pos < DRAW_END and drawn < LIMIT):
                            pass   # a draw: the strategist's choice, or stuck
                        else:
                            passes += 1
                            npass += 1
                            if REC:
                                LOG[nl] = pass_token(N, T, p)
                                nl += 1
                            if CONT:
                                ev, done, bad = script_event(SC, ev, SEEN_PASS, p, done, bad)
                            if strat_seats:
                                know_lack(K, p, L, R)
                            break
                    if GEN:   # the pick, and the placement, pass or draw it makes: one for
                        # both widths (a set over 62 tiles: its hand, PM and the tiles each
                        # end takes as rows of W words, FITS; a narrow one's the locals mL,
                        # mR, mU, mD, read where a set is read)
                        forced = 0 if fit_any else 1   # (a draw event's "forced")
                        a = -1
                        if fit_any and not draw_on:
                            can_draw = VOL and pos < DRAW_END and drawn < TLIMIT
                            # two or more options: two tiles, one tile at two ends, a draw, a
                            # pass at will, two moves of several tiles or one beside a tile
                            if WIDE:   # (over words: the rows of FITS)
                                if LAYOUT:   # two or more options (as the narrow turn counts)
                                    many = (lmany or nm > 1 or (nm > 0 and fit != 0)
                                            or jit_bits.several(FITS, FIT_L) == 1)
                                else:
                                    many = (jit_gen_wide.several_options(FITS, rows, NE, 0) == 1
                                            or nm > 1 or (nm > 0 and fit != 0))
                                if not nq and (can_draw or AT_WILL or many):
                                    choices += 1
                                if FIT:   # the tiles fitting each end two ways (jit_matching)
                                    for e in range(NE):
                                        jit_gen_wide.code_meet(FITS, rows[4 + e], FITS, rows[e],
                                                               CODE, FIT_AT + ends[e] * W)
                            elif not nq and (can_draw or AT_WILL or (mL and mR) or mL & (mL - 1)
                                           or mR & (mR - 1) or nm > 1
                                           or (nm and (mL | mR | mU | mD))
                                           or lmany or (
                                    NE == 4 and (int(mL != 0) + int(mR != 0) + int(mU != 0)
                                                 + int(mD != 0) > 1
                                                 or mU & (mU - 1) or mD & (mD - 1)))):
                                choices += 1
                            if not WIDE and CONT and not done:   # the seen move, or the
                                # candidate; the record so far must be the round seen
                                # (jit_continue)
                                a, now, bad = scripted(SC, nl - rbase, p, m_i, mL, mR, mU, mD,
                                                       can_draw)
                                if now and not bad:
                                    bad = not seen_lines(SC, LOG, DAT, rbase, dbase, N, T, DYN)
                                if bad or now:
                                    done = True
                                    for i in range(SIDES_N):
                                        at_candidate[i] = scores[i]
                                if bad:   # (the playout is refused: any legal tile goes on)
                                    a = (low_index(mL) << 2 if mL else low_index(mR) << 2 | 1
                                         if mR else low_index(mU) << 2 | 2 if mU else
                                         low_index(mD) << 2 | 3 if mD else -1)
                            elif nq:   # the next tile of the move of several tiles under way
                                a = MV[qk, qn - nq]
                                nq -= 1
                                part = qn - nq
                                if LAYOUT:   # its end by id, where it is open now
                                    e = 0    # (several.shaped_code)
                                    while PE[e] != a & 255:
                                        e += 1
                                    a = a >> 8 << 8 | e
                            elif SEVERAL >= 0:   # each bot's pick among tiles and moves
                                if LAYOUT:   # on a shaped board (jit_several_shaped)
                                    a = jit_several_shaped.pick(
                                        kinds[p], p, seed, N, WS, FM, PE, ne, nm, AT_WILL, MV,
                                        MN, hands, up, LSH, LB, AFTER, PE2, PM, TL, TH, VALUES,
                                        TIE, LS)
                                elif SPIN or FIT or F_RESTRICT >= 0 or SECONDS:   # (arms)
                                    if not WIDE:   # (the narrow sets as rows of FITS)
                                        FITS[FIT_L], FITS[FIT_R], FITS[FIT_U], FITS[FIT_D] = (
                                            mL, mR, mU, mD)
                                    a = jit_several_arms.pick(
                                        kinds[p], p, seed, N, WS, FITS,
                                        (FIT_L, FIT_R, FIT_U, FIT_D, FIT_2L, FIT_2R, FIT_2U,
                                         FIT_2D), NE, L, R, U, D, nm, AT_WILL, MV, MN, hands, up,
                                        PM, PIPS, VALUES, CODE, SEVERAL, FIT, FIT_AT, VN, T, TIE,
                                        LS)
                                else:   # on a line (FITS: the tiles alone leaves)
                                    a = pick(kinds[p], p, seed, N, WS, FITS, FIT_L, FIT_R, nm,
                                             AT_WILL, MV, MN, hands, up, L, R, PM, PIPS, VALUES,
                                             CODE, SEVERAL, TIE, LS)
                                if MOVE <= a < FLIP:   # a move: its first tile now (several.start;
                                    # FLIP: a single tile's second way, jit_several_arms)
                                    qk = a - MOVE
                                    qn = MN[qk]
                                    nq, part = qn - 1, 1
                                    a = MV[qk, 0]
                                    if LAYOUT:   # the later tiles' ends by id (they move in PE)
                                        for i in range(1, qn):
                                            MV[qk, i] = MV[qk, i] >> 8 << 8 | PE[MV[qk, i] & 255]
                            elif LAYOUT and (strat_seats >> p) & 1:   # on a shaped board
                                a = choose_layout(p, FM, PE, ne, hands, up, LSH, LB, AFTER, PE2,
                                                  PM, TL, TH, VALUES, ties, seed, N, WS, LS)
                            elif BLIND and (strat_seats >> p) & 1:   # hidden rows: the front tile
                                if not WIDE:   # (the narrow sets as rows of FITS, as below)
                                    FITS[FIT_L], FITS[FIT_R], FITS[FIT_U], FITS[FIT_D] = (
                                        mL, mR, mU, mD)
                                a = choose_blind(p, FITS, (FIT_L, FIT_R, FIT_U, FIT_D), NE,
                                                 (L, R, U, D), K, STRAT, ties, seed, N, WS, UNSEEN)
                            elif (SPIN or FIT or SECONDS) and (strat_seats >> p) & 1:   # every end
                                if not WIDE:   # (the narrow sets are locals: the strategist
                                    # reads them as rows of FITS, as a set of words is kept)
                                    FITS[FIT_L], FITS[FIT_R], FITS[FIT_U], FITS[FIT_D] = (
                                        mL, mR, mU, mD)
                                a = choose_arms(p, FITS, (FIT_L, FIT_R, FIT_U, FIT_D, FIT_2L,
                                                          FIT_2R, FIT_2U, FIT_2D), NE, can_draw,
                                                hands, up, (L, R, U, D), DRAW_END - pos,
                                                drawn + cn, K, STRAT, TS, ties, seed, N, WS, TW,
                                                UNSEEN)
                            elif (strat_seats >> p) & 1:   # the strategist: a placement or a draw
                                if not WIDE:
                                    FITS[FIT_L], FITS[FIT_R] = mL, mR
                                a = choose(p, FITS, FIT_L, FIT_R, can_draw, hands, up, L, R,
                                           DRAW_END - pos, drawn + cn, K, STRAT, TS, ties, seed,
                                           N, WS, TW, UNSEEN)
                            else:
                                if not WIDE and CONT:   # a greedy or random rollout (the
                                    word = mt_word(wshared)   # plain lines')
                                else:
                                    if wpos[up] == wend[up]:
                                        seat_words_next(seed, p, N, WB, wpos, wend, wblock,
                                                        wmade, wshared, wfirst, wstates, msg)
                                    word = np.int64(WB[_U(wpos[up])])
                                    wpos[up] += 1
                                if LAYOUT:   # a shaped board's ends, in order (jit_layout)
                                    a = layout_pick(word, (greedy_seats >> p) & 1, AT_WILL, FM, ne,
                                                    VALUES, ties)
                                elif (greedy_seats >> p) & 1:
                                    a = (jit_gen_wide.greedy_ends(FITS, rows, NE, word, VALUES,
                                                                  ties) if WIDE else
                                         greedy(mL, mR, word, VALUES, ties) if NE == 2 else
                                         greedy_ends(mL, mR, mU, mD, word, VALUES, ties))
                                elif WIDE:   # the uniform pick over words, every end and a fit
                                    # rule's second ways; a pass at will the last option
                                    nfit = jit_gen_wide.options(FITS, rows, NE, FIT)
                                    k = (word * (nfit + AT_WILL)) >> 32
                                    a = -2 if k == nfit else jit_gen_wide.kth_placement(
                                        FITS, rows, NE, FIT, k)
                                elif BOARD and (NE == 4 or FIT):   # four ends, or two ways,
                                    # then a pass at will (jit_matching: -2, the last option)
                                    if FIT:   # (jit_matching: the second ways count too)
                                        a = uniform_pick(word, mL, mR, mU, mD,
                                                         mL & CODE[FIT_AT + L],
                                                         mR & CODE[FIT_AT + R],
                                                         mU & CODE[FIT_AT + U],
                                                         mD & CODE[FIT_AT + D], AT_WILL)
                                    else:
                                        a = uniform_pick(word, mL, mR, mU, mD, 0, 0, 0, 0,
                                                         AT_WILL)
                                else:   # the uniform pick on a line (general_loop)
                                    n_left = popcount(mL)
                                    nfit = n_left + popcount(mR)
                                    k = (word * (nfit + AT_WILL)) >> 32
                                    at_will = k == nfit   # a pass at will: the last option
                                    end = 1 if k >= n_left else 0
                                    m = mR if end else mL
                                    k -= n_left if end else 0
                                    while k:
                                        m &= m - 1
                                        k -= 1
                                    a = low_index(m) << 2 | end
                                    if at_will:
                                        a = -2
                        if a >= 0:
                            prior = run_passes
                            idle = run_passes = 0
                            if LAYOUT:   # on the end the pick names (Layout.place)
                                t = a >> 8
                                e = a & 255
                                w = PIPS[_U(t)] - LB[PE[e]]
                                both = 0   # it fitted two or more of the ends open to p
                                for k in range(ne):
                                    both += (jit_bits.has(PM, LB[PE[k]], t) if WIDE else
                                             PM[_U(LB[PE[k]])] >> t & 1)
                                both = 1 if both > 1 else 0
                                place(LSH, LB, t, TL[t], TH[t], PE[e], p)
                                if LISTS:
                                    list_facts(LB, F)
                            elif WIDE or BOARD:   # a spinner or a fit rule (jit_board,
                                # jit_matching; over words a line too is four ends)
                                flip = 0
                                if FIT:   # the tile's second way round (jit_matching.FLIP)
                                    flip = 1 if a & FLIP else 0
                                    a &= FLIP - 1
                                t = a >> 2
                                e = a & 3
                                v = L if e == 0 else R if e == 1 else U if e == 2 else D
                                # it fitted two or more open ends (the loop's last_both)
                                if WIDE:
                                    both = jit_gen_wide.fits_both(PM, (L, R, U, D), NE, t)
                                else:
                                    both = (PM[_U(L)] >> t & 1) + (PM[_U(R)] >> t & 1)
                                    if NE == 4:
                                        both += (PM[_U(U)] >> t & 1) + (PM[_U(D)] >> t & 1)
                                    both = 1 if both > 1 else 0
                                # the number the tile leaves open there (matching: its tables,
                                # over words the two-way masks' W words each before them)
                                w = (left_open(CODE, FIT_AT + VN * (W - 1) if WIDE else FIT_AT,
                                               VN, T, v, t, flip) if FIT else PIPS[_U(t)] - v)
                                if e == 0:
                                    L, lt = w, t
                                elif e == 1:
                                    R, rt = w, t
                                elif e == 2:
                                    U, ut = w, t
                                else:
                                    D, dt = w, t
                                if SPIN and (need > 0 or (need < 0 and TL[t] == TH[t])):
                                    need, sval, opened = spin_place(need, sval, e, TL[t],
                                                                    TL[t] == TH[t])
                                    if opened:   # both sides played on: the arms open
                                        U = D = sval
                                        NE = 4
                                        spt = double_of(sval, TL, TH)
                            else:   # the line's two ends, as the plain game's
                                t = a >> 2
                                e = a & 3
                                both = (PM[_U(L)] & PM[_U(R)]) >> t & 1   # it fitted both ends
                                if a & 3:
                                    R = w = PIPS[_U(t)] - R
                                    rt = t
                                else:
                                    L = w = PIPS[_U(t)] - L
                                    lt = t
                            if WIDE:
                                jit_bits.take(hands, up, t)
                                h = jit_bits.nonempty(hands, up)
                            else:
                                h ^= 1 << t
                                hands[up] = h
                            if BLIND:   # the front tile placed (blind.py)
                                pop_front(ROWS, RHEAD, RLEN, up)
                                if strat_seats:
                                    know_front(K, p, STRAT, t)
                            npass = 0
                            if REC and LAYOUT:   # the end by its name (jit_record.at_item)
                                if part:   # a tile of a move of several (jit_several_shaped)
                                    nl, nd, nj = at_part_item(LOG, DAT, nl, nd, nj, DYN, p, t,
                                                              LB[NAME + PE[e]], part, qn)
                                else:
                                    nl, nd, nj = at_item(LOG, DAT, nl, nd, nj, DYN, p, t,
                                                         LB[NAME + PE[e]])
                            elif REC:   # (a fit rule's two-way masks over words: W an end)
                                if BOARD and part:   # a tile of a move of several on four
                                    # ends or under a fit rule: its end, the half meeting it
                                    nd, nj = part_way_item(
                                        LOG, DAT, nl, nd, nj, DYN, p, t, e,
                                        1 + flip if FIT and (
                                            jit_gen_wide.code_has(CODE, FIT_AT + v * W, t)
                                            if WIDE else CODE[FIT_AT + v] >> t & 1) else 0,
                                        part, qn)
                                elif BOARD and (e > 1 or (FIT and (
                                        jit_gen_wide.code_has(CODE, FIT_AT + v * W, t)
                                        if WIDE else CODE[FIT_AT + v] >> t & 1))):
                                    if FIT and (jit_gen_wide.code_has(CODE, FIT_AT + v * W, t)
                                                if WIDE else CODE[FIT_AT + v] >> t & 1):
                                        # meets: the half against v
                                        LOG[nl] = meets_token(N, T, p, t, e, flip)
                                    else:   # a spinner's up or down arm
                                        LOG[nl] = arm_token(N, T, p, t, e)
                                elif part:   # a tile of a move of several (jit_several), a line
                                    nd, nj = part_item(LOG, DAT, nl, nd, nj, DYN, p, t, e, part,
                                                       qn)
                                else:
                                    LOG[nl] = place_token(N, T, p, t, 1 + e)
                                nl += 1
                            part = 0
                            last_p, last_t = p, t
                            if SETTLE_BOARD:
                                last_both = both
                            if strat_seats:
                                know_place(K, p, t, w)
                            if EV_PLACE >= 0:   # the placement's events (jit_events)
                                et = (layout_total(LB) if LAYOUT else
                                      end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS) if NE == 2
                                      else arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS,
                                                      ACROSS))
                                if pending:   # the duties pending: met by this? (jit_duties)
                                    event_facts(F, L, R, et, T - pos, prior, drawn)
                                    F[X_TILE], F[X_OPENING], F[X_BOTH_ENDS] = t, 0, both
                                    F[X_END_LT], F[X_END_RT] = lt, rt
                                    if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                                        arm_facts(F, U, D, NE, ut, dt, spt)
                                    pending = met_by(CODE, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                                     p, SIDE_OF[p], DUTY, pending, EVL)
                                    if REC:
                                        nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN,
                                                                 p, N, T)
                                # (the tiles it may fire after: one int64 mask, so over words
                                # any tile may, -1)
                                if may_fire(CODE, EV_PLACE, -1 if WIDE else t, L, R, et):
                                    event_facts(F, L, R, et, T - pos, prior, drawn)
                                    F[X_TILE], F[X_OPENING], F[X_BOTH_ENDS] = t, 0, both
                                    F[X_END_LT], F[X_END_RT] = lt, rt
                                    if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                                        arm_facts(F, U, D, NE, ut, dt, spt)
                                    more, skipped = fire(CODE, CODE[EV_PLACE + RULES], F, TAB,
                                                         TEAMS, SIDES_N, N, deck, stack,
                                                         SIDE_OF[p], scores, round_play,
                                                         (LAPSE_AGAIN if nq and SEV_CHAIN
                                                          else 0) if h
                                                         else 1, EVL)
                                    if REC:
                                        nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN,
                                                                 p, N, T)
                                    again += more
                                    skip += skipped
                                    if F[X_REACHED]:   # the match is won (match.ends_in_play)
                                        reached = 1
                                        npass = (everyone ^ outs) if TURNS else N
                                        break
                                    if DUTIES and F[X_FIRED] and h:
                                        pending = lay(CODE, CODE[EV_PLACE + RULES], p, t, N,
                                                      RIGHT, SIDE_OF, DUTY, pending, F, BEARERS,
                                                      EVL)
                                        if REC:
                                            nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj,
                                                                     DYN, p, N, T)
                                    if F[X_OWED]:   # events.next_draws: the next seat draws
                                        pos, cseat, cdrawn = owed_draws(
                                            CODE, F, p, N, RIGHT, deck, pos, DRAW_END, hands,
                                            drawn_by, EVL, K, strat_seats, L, R, U, D, NE)
                                        if REC:
                                            nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj,
                                                                     DYN, p, N, T)
                            if DECL_PLACE >= 0:   # the placer's declarations (jit_declare)
                                et = (layout_total(LB) if LAYOUT else
                                      end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS) if NE == 2
                                      else arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS,
                                                      ACROSS))
                                event_facts(F, L, R, et, T - pos, prior, drawn)
                                F[X_TILE], F[X_OPENING], F[X_BOTH_ENDS] = t, 0, both
                                F[X_END_LT], F[X_END_RT] = lt, rt
                                if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                                    arm_facts(F, U, D, NE, ut, dt, spt)
                                drew = pos
                                pos = jit_declare.after_place(
                                    CODE, DECL_PLACE, F, TAB, TEAMS, SIDES_N, N, deck, stack, p,
                                    hands, SIDE_OF, scores, ~(greedy_seats | strat_seats), seed,
                                    WS, pos, DRAW_END, drawn_by, EVL)
                                if REC:
                                    nl, nd, nj = declared_lines(EVL, LOG, DAT, nl, nd, nj, DYN)
                                if pos > drew:   # an option's draws (the strategist: lacks)
                                    h = jit_bits.nonempty(hands, up) if WIDE else hands[up]
                                    if strat_seats:
                                        know_lack(K, p, L, R)
                                        if NE == 4:
                                            know_lack(K, p, U, D)
                            if not h:
                                if SIDE_OUT and (jit_gen_wide.side_goes_on(SIDE_OF[p], hands,
                                                                           TEAMS) if WIDE
                                                 else goes_on(SIDE_OF[p], hands, TEAMS)):   # out
                                    outs, nin = outs | 1 << p, nin - 1
                                    if REC:
                                        nl, nd, nj = out_line(EVL, LOG, DAT, nl, nd, nj, DYN, p,
                                                              N, T)
                                else:
                                    domino, npass = p, N
                            break
                        elif a == -2:   # a pass at will (play.passing): no sign of being stuck
                            passes += 1
                            if SHOWDOWN >= 0:   # it could place: found out at the showdown
                                RENEGED[up] += 1
                            if REC:
                                LOG[nl] = pass_token(N, T, p)
                                nl += 1
                            idle += 1
                            run_passes += 1
                            if LAYOUT and passed(LSH, LB, p):   # a train opened (markers)
                                npass, idle = 0, 1
                            if strat_seats:   # read as any pass: lacking every open end
                                know_lack(K, p, L, R)
                                if NE == 4:
                                    know_lack(K, p, U, D)
                            if EV_PASS >= 0:   # the pass's events (jit_events.pass_events)
                                if LAYOUT:   # a shaped board's total (jit_layout.end_total)
                                    skipped, won, nl, nd, nj = pass_fire(
                                        CODE, EV_PASS, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                        SIDE_OF[p], scores, round_play, EVL, L, R, lt, rt,
                                        layout_total(LB), T - pos, run_passes, drawn, LOG, DAT,
                                        (nl, nd, nj), DYN, p, T)
                                else:
                                    skipped, won, nl, nd, nj = pass_events(
                                        CODE, EV_PASS, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                        SIDE_OF[p], scores, round_play, EVL, (L, R, U, D),
                                        (lt, rt, ut, dt, spt), NE, TL, TH, PIPS, ACROSS,
                                        T - pos, run_passes, drawn, LOG, DAT, (nl, nd, nj), DYN,
                                        p, T)
                                skip += skipped
                                if won:   # the match is won (match.ends_in_play)
                                    reached = 1
                                    npass = (everyone ^ outs) if TURNS else N
                            break
                        elif (fit_any and not draw_on) or (
                                (STUCK_DRAW != 0 or draw_on) and pos < DRAW_END and drawn < TLIMIT
                                and not (PASS_FORBIDDEN and fitting)):   # if_none_allowed: pass
                            # a draw: the strategist's choice, or stuck (may pass at will; no
                            # draw when the restrictions forbid every fitting tile)
                            if AT_WILL and not draw_on and not fit_any:
                                choices += 1
                        else:
                            passes += 1
                            shown = -1   # (deal.blind: the front tile the pass shows)
                            if BLIND:   # the front tile to the back (blind.py): stuck only
                                # when no tile of the row fits, and no turn of a row is idle
                                shown = front(ROWS, RHEAD, up)
                                to_back(ROWS, RHEAD, RLEN, up)
                                if stuck:
                                    npass |= 1 << p
                                idle -= 1
                            elif TURNS:
                                npass |= 1 << p
                            else:
                                npass += 1
                            idle += 1
                            run_passes += 1
                            if REC:
                                LOG[nl] = (shown_token(N, T, p, shown) if shown >= 0 else
                                           pass_token(N, T, p))
                                nl += 1
                            if LAYOUT and passed(LSH, LB, p):   # a train opened (markers): the
                                npass, idle = (1 << p) if TURNS else 1, 1   # seats that passed
                            if strat_seats:                                # may play on it
                                know_lack(K, p, L, R)
                                if shown >= 0:   # a hidden row's front tile, shown
                                    know_shown(K, p, STRAT, shown)
                                if NE == 4:   # a spinner's arms: it lacks those too
                                    know_lack(K, p, U, D)
                            if EV_PASS >= 0:   # the pass's events (jit_events.pass_events)
                                if LAYOUT:   # a shaped board's total (jit_layout.end_total)
                                    skipped, won, nl, nd, nj = pass_fire(
                                        CODE, EV_PASS, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                        SIDE_OF[p], scores, round_play, EVL, L, R, lt, rt,
                                        layout_total(LB), T - pos, run_passes, drawn, LOG, DAT,
                                        (nl, nd, nj), DYN, p, T)
                                else:
                                    skipped, won, nl, nd, nj = pass_events(
                                        CODE, EV_PASS, F, TAB, TEAMS, SIDES_N, N, deck, stack,
                                        SIDE_OF[p], scores, round_play, EVL, (L, R, U, D),
                                        (lt, rt, ut, dt, spt), NE, TL, TH, PIPS, ACROSS,
                                        T - pos, run_passes, drawn, LOG, DAT, (nl, nd, nj), DYN,
                                        p, T)
                                skip += skipped
                                if won:   # the match is won (match.ends_in_play)
                                    reached = 1
                                    npass = (everyone ^ outs) if TURNS else N
                            break
                    if strat_seats:
                        know_lack(K, p, L, R)
                        if GEN:
                            if NE == 4:   # a spinner's arms: it lacks those too
                                know_lack(K, p, U, D)
                    t = deck[_U(pos)]
                    pos += 1
                    if WIDE:
                        jit_bits.put(hands, up, t)
                        if GEN:
                            h = 1
                    else:
                        h |= 1 << t
                        hands[up] = h
                    if REC:
                        LOG[nl] = draw_token(N, T, p, t)
                        nl += 1
                    if CONT and not GEN:
                        ev, done, bad = script_event(SC, ev, SEEN_DRAW, p, done, bad)
                    drawn += 1
                    drawn_by[up] += 1
                    npass = 0
                    if GEN:
                        prior = run_passes
                        idle = run_passes = 0
                        if EV_DRAW >= 0:   # the draw's events (jit_events)
                            et = (layout_total(LB) if LAYOUT else
                                  end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS) if NE == 2 else
                                  arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS, ACROSS))
                            if may_fire(CODE, EV_DRAW, -1 if WIDE else t, L, R, et):
                                event_facts(F, L, R, et, T - pos, prior, drawn)
                                F[X_TILE], F[X_FORCED] = t, forced
                                F[X_END_LT], F[X_END_RT] = lt, rt
                                if SPIN:   # a spinner's four ends (jit_events.arm_facts)
                                    arm_facts(F, U, D, NE, ut, dt, spt)
                                more, skipped = fire(CODE, CODE[EV_DRAW + RULES], F, TAB, TEAMS,
                                                     SIDES_N, N, deck, stack, SIDE_OF[p], scores,
                                                     round_play, False, EVL)
                                if REC:
                                    nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p,
                                                             N, T)
                                again += more
                                skip += skipped
                                if F[X_REACHED]:   # the match is won (match.ends_in_play)
                                    reached = 1
                                    npass = (everyone ^ outs) if TURNS else N
                                    break
                        if ENDS_TURN and not (EXACTLY and pos < DRAW_END and drawn < TLIMIT):
                            break   # a draw that ends the turn (drawing.ends_turn)
                if GEN:
                    if pending and domino < 0 and not reached:   # the turn is over: duties unmet
                        drew = pos
                        pending, pos = (jit_duties.failed_words if WIDE else failed)(
                            CODE, p, seat_after(p, N, RIGHT), DUTY, pending, F, SIDE_OF, scores,
                            round_play, deck, pos, DRAW_END, hands, drawn_by, EVL)
                        if REC:
                            nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
                        if strat_seats and pos > drew:   # the record's draws: the strategist
                            know_lack(K, p, L, R)        # reads them as lacking the ends
            if CONT and not done:   # the round ended before the position
                bad = done = True
            if GEN:
                # -- settlement (GeneralLoop._settle; jit_settle)
                if WIDE:
                    jit_gen_wide.tallies(hands, N, VALUES, PIPS, TL, TH, drawn_by, TEAMS,
                                         INDIVIDUAL, P, V, C, DB, DQ, SP, SV, ST, SD, SQ)
                else:
                    tallies(hands, N, VALUES, PIPS, DOUBLES_MASK, drawn_by, TEAMS, INDIVIDUAL,
                            P, V, C, DB, DQ, SP, SV, ST, SD, SQ)
                held = 0
                for s in range(N):
                    held += C[s]
                for i in range(SIDES_N):
                    points[i] = 0
                tied = 0
                wside = wseat = -1
                F[X_BLOCKED] = 1 if domino < 0 else 0
                F[X_ROUND] = rnd_no
                F[X_LAST_TILE], F[X_LAST_PLAYER] = last_t, last_p
                F[X_PASSES], F[X_POS], F[X_BONEYARD] = passes, pos, T - pos
                F[X_DRAWN] = pos - dealt - upn
                if SETTLE_BOARD:   # the board as the round left it, in the facts its events
                    # read (jit_events.event_facts, arm_facts; jit_layout.list_facts), and
                    # the last placement's both_ends (no settlement formula reads the turn's
                    # passes in a row or draws: 0)
                    event_facts(F, L, R, layout_total(LB) if LAYOUT else
                                end_total(L, R, lt, rt, TL, TH, PIPS, ACROSS) if NE == 2 else
                                arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS, ACROSS),
                                T - pos, 0, 0)
                    F[X_BOTH_ENDS] = last_both
                    if SPIN:
                        arm_facts(F, U, D, NE, ut, dt, spt)
                    if LAYOUT:
                        list_facts(LB, F)
                if SHOWDOWN >= 0 and not reached:   # the hands shown: penalties first
                    jit_declare.penalties(CODE, SHOWDOWN, RENEGED, F, TAB, TEAMS, SIDES_N, N,
                                          deck, stack, SIDE_OF, scores, EVL)
                    if REC:
                        nl, nd, nj = declared_lines(EVL, LOG, DAT, nl, nd, nj, DYN)
                if domino >= 0 and DOMINOER:
                    wseat = domino
                    wside = SIDE_OF[domino]
                    lowest[0] = wside
                    nlow = 1
                else:
                    if RANK_HOW == LOWEST_HAND:
                        hand_rank(V, TEAMS, RK)
                    elif F_RANK >= 0:
                        for si in range(SIDES_N):
                            F[X_SIDE] = si
                            RK[si] = run(CODE, F_RANK, F, TAB, TEAMS, SIDES_N, N, deck, stack)
                    else:
                        for si in range(SIDES_N):
                            RK[si] = SV[si]
                    nlow = best_sides(RK, SIDES_N, RANK_HOW, LAST_TWO, TIE_CODE, last_p,
                                      seat_after(last_p, N, RIGHT), SIDE_OF, lowest)
                    if nlow == 1:
                        wside = lowest[0]
                        wseat = winner_seat(wside, domino, SIDE_OF, TEAMS, V)
                    else:
                        tied = 1
                if wside >= 0 or TIE_CODE == EACH_TIED:
                    for k in range(nlow):
                        w = lowest[k]
                        F[X_WINNER] = w
                        points[w] = run(CODE, F_DOMINO if domino >= 0 else F_BLOCKED, F, TAB,
                                        TEAMS, SIDES_N, N, deck, stack)
                if F_EVERY_SIDE >= 0:
                    F[X_WSIDE] = wside
                    for si in range(SIDES_N):
                        F[X_SIDE] = si
                        points[si] += run(CODE, F_EVERY_SIDE, F, TAB, TEAMS, SIDES_N, N, deck,
                                          stack)
            else:
                # -- settlement (engine.scoring.Settler)
                held = 0
                for s in range(N):
                    if WIDE:
                        P[s] = jit_bits.value_sum(hands, s, VALUES)
                        C[s] = jit_bits.count(hands, s)
                    else:
                        v = 0
                        h = hands[s]
                        while h:
                            b = h & -h
                            h ^= b
                            v += VALUES[_U(low_index(b))]
                        P[s] = v
                        C[s] = popcount(hands[s])
                    held += C[s]
                if INDIVIDUAL:
                    for s in range(N):
                        SP[s] = P[s]
                        ST[s] = C[s]
                        SD[s] = drawn_by[s]
                else:
                    for i in range(SIDES_N):
                        SP[i] = ST[i] = SD[i] = 0
                        for j in range(TEAM_N):
                            s = TEAMS[i, j]
                            SP[i] += P[s]
                            ST[i] += C[s]
                            SD[i] += drawn_by[s]
                for i in range(SIDES_N):
                    points[i] = 0
                tied = 0
                wside = wseat = -1
                if domino >= 0:
                    wseat = domino
                    wside = w = SIDE_OF[domino]
                    points[w] = DOMINO
                else:
                    nlow = 0
                    if INDIVIDUAL or LOWEST_SIDE:
                        low = SP[0]
                        for i in range(1, SIDES_N):
                            low = min(low, SP[i])
                        for i in range(SIDES_N):
                            if SP[i] == low:
                                lowest[nlow] = i
                                nlow += 1
                    else:
                        low = P[0]
                        for s in range(1, N):
                            low = min(low, P[s])
                        for i in range(SIDES_N):
                            for j in range(TEAM_N):
                                if P[TEAMS[i, j]] == low:
                                    lowest[nlow] = i
                                    nlow += 1
                                    break
                    if nlow == 1:
                        wside = w = lowest[0]
                        if INDIVIDUAL:
                            wseat = w
                        else:
                            best = 1 << 62
                            for j in range(TEAM_N):
                                s = TEAMS[w, j]
                                if P[s] < best:
                                    best = P[s]
                                    wseat = s
                        points[w] = BLOCKED
                    else:
                        tied = 1
                        if TIE_EACH:
                            for k in range(nlow):
                                w = lowest[k]
                                points[w] = BLOCKED
            if DRAW_COST:
                paid = 0
                for s in range(N):
                    if drawn_by[s]:
                        points[SIDE_OF[s]] -= DRAW_COST * drawn_by[s]
                        paid += DRAW_COST * drawn_by[s]
                if COST_TO_WINNER and wside >= 0:
                    points[wside] += paid
            if GEN:
                if reached:   # play-time points won the match: the round is not settled
                    for i in range(SIDES_N):
                        points[i] = 0
                    wside = wseat = -1
                    tied = 0
                    F[X_BLOCKED] = 0   # (the variables' after_round reads it)
                counted(points, scores, MIN_START, EXACT, TARGET)
                if wside >= 0:
                    rounds_won[wside] += 1
            top = -(1 << 62)
            for i in range(SIDES_N):
                scores[i] += points[i]
                if scores[i] > top:
                    top = scores[i]
            if GEN:
                placements = pos - held - upn   # (a turned-up tile: nobody's)
                draws = pos - dealt - upn
            else:
                placements = pos - held
                draws = pos - DEALT
            round_out[row, R_ROUND] = rnd_no
            round_out[row, R_LEADER] = leader
            round_out[row, R_RESULT] = 0 if domino >= 0 else 1
            round_out[row, R_WINNER] = wside
            round_out[row, R_WINNER_SEAT] = wseat
            round_out[row, R_TIED_BLOCK] = tied
            round_out[row, R_TURNS] = (placements + passes + seek_turns - 1 if seek
                                 else placements + passes)
            round_out[row, R_PLACEMENTS] = placements
            round_out[row, R_DRAWS] = draws
            round_out[row, R_PASSES] = passes
            round_out[row, R_DECISIONS] = placements + draws + passes
            if GEN:
                round_out[row, R_TURNS] -= joined   # a move of several tiles: one turn, one
                round_out[row, R_DECISIONS] -= joined   # decision (jit_several)
            round_out[row, R_CHOICE_POINTS] = choices
            round_out[row, R_REDEALS] = redeals
            for i in range(SIDES_N):
                round_out[row, R_POINTS + i] = points[i]
                round_out[row, R_POINTS + SIDES_N + i] = scores[i]
            if GEN:
                round_out[row, R_EXTRA_TURNS] = extra_turns
                round_out[row, R_SKIPS] = skips
                if reached:
                    round_out[row, R_RESULT] = 2   # target: won mid-round (jit_kernel._RESULTS)
                for i in range(SIDES_N):
                    round_out[row, R_POINTS + 2 * SIDES_N + i] = round_play[i]
            else:
                round_out[row, R_EXTRA_TURNS] = round_out[row, R_SKIPS] = 0
                for i in range(SIDES_N):
                    round_out[row, R_POINTS + 2 * SIDES_N + i] = 0
            row += 1
            prev_leader, prev_winner = leader, wseat
            if GEN:
                if NV:   # the variables' after_round, all from the values the round played with
                    F[X_WSIDE] = wside
                    F[X_ROUND_WON] = 1 if wside >= 0 else 0
                    for v in range(NV):
                        at = CODE[1 + v]
                        VNEW[v] = F[X_VARS + v] if at < 0 else run(CODE, at, F, TAB, TEAMS,
                                                                       SIDES_N, N, deck, stack)
                    for v in range(NV):
                        F[X_VARS + v] = VNEW[v]
                prev_side, prev_last, prev_blocked = wside, last_p, 1 if domino < 0 else 0
                over_i, match_win = match_over(END_CODE, LOWEST_WINS, TARGET, PLAY_ON, rnd_no,
                                               scores, rounds_won, SIDES_N)
                if over_i:
                    over = True
                elif F_DRAW_IF >= 0:
                    F[X_ROUND] = rnd_no
                    if run(CODE, F_DRAW_IF, F, TAB, TEAMS, SIDES_N, N, deck, stack):
                        over = True
                        match_win = -1
            else:
                if top >= TARGET:
                    count = 0
                    for i in range(SIDES_N):
                        if scores[i] == top:
                            count += 1
                            match_win = i
                    if count == 1:
                        over = True
                    elif not PLAY_ON:
                        over = True
                        match_win = -1
                    else:
                        match_win = -1
            if REC:   # the round's end: the hands' values as the record's pips
                LOG[nl] = DYN + nj
                nl, nj = nl + 1, nj + 1
                nd = round_end_item(DAT, nd, rnd_no, round_out[row - 1, R_RESULT], wside, V,
                                    points, scores, N, SIDES_N)   # (2: target, GEN's)
                if GEN:
                    for v in range(NV):   # the variables, as the next round plays them
                        DAT[nd + v] = F[X_VARS + v]
                    nd += NV
                    if EVN:   # the points scored during play (play_points)
                        for i in range(SIDES_N):
                            DAT[nd + i] = round_play[i]
                        nd += SIDES_N
        if GEN:
            if over and F_FINAL >= 0:   # match.final: each side's final score, from the scores
                F[X_ROUND], F[X_MATCH_WIN] = rnd_no, match_win   # as they stand
                for si in range(SIDES_N):
                    F[X_SIDE] = si
                    fin[si] = run(CODE, F_FINAL, F, TAB, TEAMS, SIDES_N, N, deck, stack)
                for si in range(SIDES_N):
                    scores[si] = fin[si]
            for si in range(SIDES_N):
                match_out[m_i - start, M_SCORES + si] = scores[si]
            vsum = 0   # the variables as the match ended (compare's variables_final)
            for v in range(NV):
                vsum += F[X_VARS + v]
            match_out[m_i - start, M_SCORES + SIDES_N] = vsum
            for c in range(COUNTED_N):
                match_out[m_i - start, M_SCORES + SIDES_N + 1 + c] = F[X_VARIABLE_SETS + c]
        match_out[m_i - start, M_WINNER] = match_win
        match_out[m_i - start, M_CAPPED] = capped
        match_out[m_i - start, M_ROUNDS] = row - first_row
        match_out[m_i - start, M_FIRST_ROW] = first_row
        if CONT:   # a playout's outcome (jit_continuation): scores at the end, at the candidate
            for i in range(SIDES_N):
                match_out[m_i - start, M_SCORES + i] = scores[i]
                match_out[m_i - start, M_SCORES + SIDES_N + i] = at_candidate[i]
            match_out[m_i - start, M_SCORES + 2 * SIDES_N] = bad
        if REC:
            LOG[nl] = DYN + nj
            nl, nj = nl + 1, nj + 1
            nd = match_end_item(DAT, nd, match_win, scores, SIDES_N)
        m_i += 1
    return m_i - start, row, 0, nl, nd
