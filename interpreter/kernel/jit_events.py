"""Play-time events in numba: ``GeneralLoop._fire`` for the JIT kernel's ``GEN`` lines.

One action's event rules arrive as a block of ``CODE`` (``jit_house.programs``): how
many rules, then per rule where its ``if``, ``points``, ``each_opponent``, ``again``
and ``skip`` programs start (``jit_formula``; -1: the rule has none), where its ``set``
block starts (how many variables, then each one's place and program), where its
duty's (``jit_duties``) and its ``next_draws`` program, then each rule's index in the
ruleset's ``events`` (what its record lines name). The tiles a rule's ``next_draws``
owes are kept in ``F`` (``owed``, then a pair each after the variables) and drawn by
the next seat once the action's rules are done (``pay_draws``, as the loop's
``_pay_draws``). After each rule's points and sets ``fire`` asks whether the
match is won (``match.reached_in_play_piece``, with ``match.ends_in_play``). The kernel writes
the action's facts into ``F`` first (the tile, the open ends and their total, passes
in a row, the turn's draws ...), so one compiled kernel fires every ruleset's events.
The mechanism's rule stays ``engine.mechanisms.events`` and the general loop's
``_fire``; ``tests/test_kernel_jit_house.py`` plays both engines and compares.
"""

from __future__ import annotations

from ..engine.mechanisms.match import reached_in_play_piece as reached_in_play
from .jit import njit
from .jit_formula import CONST, END, FACT, FACT_OP, IS_DOUBLE, MASK, MASK_BITS, STACK, run
from .jit_formula import TAB as ROWS
from .jit_masks import put
from .jit_record import ACTOR, EXTRA, K_RULE_DRAW, K_SCORE, K_SET, event_lines, put_line

# an action's events in CODE: a head (jit_house._may_fire) where its rules start, the
# masks of the tiles, of the ends' totals and per left end of the right ends on which a
# rule may fire; then the rules (``fire``'s block: how many, then each one's programs)
RULES, TILES, TOTALS, ENDS = range(4)
# a rule's programs, in this order, after the block's count; then where its set block and
# its duty block start, and its next_draws program (-1: none)
IF, POINTS, EACH_OPPONENT, AGAIN, SKIP, SET, DUTY_AT, NEXT_DRAWS = range(8)
WIDTH = 8
FIELDS = ("if", "points", "each_opponent", "again", "skip")
# F's places: the variables after the facts; the side acting; what fire reports
VARS = len(FACT)
_SIDE, _TARGET, _IN_PLAY, _REACHED, _FIRED, _SETS, _OWED = (
    FACT["side"], FACT["target"], FACT["in_play"], FACT["reached"], FACT["fired"],
    FACT["variable_sets"], FACT["owed"])


@njit(refcounts=False)   # (asked at every placement: no reference counts)
def may_fire(CODE, at, t, L, R, et):
    """Whether some rule of the action whose head is at ``CODE[at]`` may fire after tile
    ``t`` (-1: none, a pass) left ends ``L``, ``R`` of total ``et``."""
    if t >= 0 and not (CODE[at + TILES] >> t) & 1:
        return False
    # (a total past the mask's 62 bits: its mask is -1, every total may fire)
    return (et >= 62 or (CODE[at + TOTALS] >> et) & 1 == 1) and (
        CODE[at + ENDS + L] >> R) & 1 == 1


_TL, _TH = ROWS["TL"], ROWS["TH"]


@njit(inline="always")
def value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack):
    """Program ``c``'s value: a constant, a fact, a fact's ``is_double`` or a truth tabled
    by one fact (``MASK``) read here, as most events' are (``again: true``, ``if:
    forced``, ``if: tile.is_double``, ``if: end_total % 5 == 0``), any other run by
    ``jit_formula.run``, whose call costs more than such a program."""
    op = CODE[c]
    if op == CONST and CODE[c + 2] == END:
        return CODE[c + 1]
    if op == MASK and CODE[c + 3] == END:
        x = F[CODE[c + 1]]
        return (CODE[c + 2] >> x) & 1 if 0 <= x < MASK_BITS else 0
    if op == FACT_OP:
        if CODE[c + 2] == END:
            return F[CODE[c + 1]]
        if CODE[c + 2] == IS_DOUBLE and CODE[c + 3] == END:
            t = F[CODE[c + 1]]
            return 1 if TAB[_TL, t] == TAB[_TH, t] else 0
    return run(CODE, c, F, TAB, TEAMS, sides, N, deck, stack)


LAPSE_AGAIN = 2   # fire's ends_round for a tile of a chain that goes on
@njit(inline="always")
def fired_at(CODE, count):
    """Where ``fire`` lists the rules laying a duty that fired, in ``F``: after the
    variables and the pairs the ``count`` rules of the action may owe (``jit_loop``'s F
    holds three places a rule of the placement's block)."""
    return VARS + CODE[0] + 2 * count


@njit(refcounts=False)   # (jit.njit: an event's cost was mostly numba's reference counts)
def fire(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, mine, scores, play, ends_round,
         EVL):
    """Fire the rules of the block at ``CODE[at]`` (the head's ``RULES``) for an action of
    side ``mine``: points to ``scores`` and ``play`` at once (a later rule reads them),
    variables set in ``F``, and return (turns granted, seats skipped). ``ends_round``:
    the action is a domino, so a turn it would grant and the draws it would make lapse;
    ``LAPSE_AGAIN`` (2): a tile of a chain that goes on (``several.again_lapses``), so a
    turn it would grant lapses, the draws not.
    In ``F``: ``fired``, how many rules laying a duty fired, each one's place in the
    block after the owed pairs (``fired_at``: ``jit_duties.lay``, however many rules the
    action has); ``owed``, the rules whose ``next_draws`` asked for tiles, each (rule,
    tiles) after the variables (``pay_draws``); ``reached`` once the match is won, the
    action's other effects lapsing (``match.ends_in_play``). ``EVL``: where the record's
    ``score``, ``set`` and ``extra_turn`` lines are gathered, in the general loop's order
    (``jit_record.event_lines``); empty, no record."""
    more = 0
    skipped = 0
    F[_SIDE] = mine   # (an event's side.score)
    F[_FIRED] = 0
    F[_OWED] = 0
    rec = EVL.shape[0] > 0
    count = CODE[at]
    for k in range(count):
        base = at + 1 + WIDTH * k
        c = CODE[base + IF]
        if c >= 0 and value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) == 0:
            continue
        c = CODE[base + POINTS]
        pts = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
        c = CODE[base + EACH_OPPONENT]
        opp = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
        for s in range(sides):
            gain = pts if s == mine else opp
            if gain:
                scores[s] += gain
                play[s] += gain
                if rec:
                    put_line(EVL, K_SCORE, ACTOR, s, gain, CODE[at + 1 + WIDTH * count + k])
        c = CODE[base + SET]
        if c >= 0:   # every value from those before any is set (events.set_values)
            n = CODE[c]
            for j in range(n):   # (kept at the stack's top: the programs leave it room)
                stack[STACK - 1 - j] = value(CODE, CODE[c + 2 + 2 * j], F, TAB, TEAMS,
                                             sides, N, deck, stack)
            for j in range(n):
                F[VARS + CODE[c + 1 + 2 * j]] = stack[STACK - 1 - j]
                if rec:
                    put_line(EVL, K_SET, ACTOR, CODE[c + 1 + 2 * j], stack[STACK - 1 - j],
                             CODE[at + 1 + WIDTH * count + k])
            F[_SETS] += n
        if F[_IN_PLAY] and reached_in_play(scores, sides, F[_TARGET]) >= 0:
            F[_REACHED] = 1
            return more, skipped
        if CODE[base + DUTY_AT] >= 0:   # its duty, laid once the rules are done
            F[fired_at(CODE, count) + F[_FIRED]] = k
            F[_FIRED] += 1
        c = CODE[base + AGAIN]
        if c >= 0 and not ends_round and value(CODE, c, F, TAB, TEAMS, sides, N, deck,
                                               stack) != 0:
            more += 1
            if rec:
                put_line(EVL, EXTRA, ACTOR, 0, 0, 0)
        c = CODE[base + SKIP]
        if c >= 0:
            n = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack)
            if n > 0:
                skipped += n
        c = CODE[base + NEXT_DRAWS]
        if c >= 0 and ends_round != 1:   # owed, drawn once the rules are done (pay_draws)
            n = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack)
            if n > 0:
                o = VARS + CODE[0] + 2 * F[_OWED]   # (CODE[0]: how many variables)
                F[o] = CODE[at + 1 + WIDTH * count + k]
                F[o + 1] = n
                F[_OWED] += 1
    return more, skipped


@njit
def pay_draws(CODE, F, victim, deck, pos, draw_end, hands, drawn_by, EVL):
    """The tiles the rules that fired owe (``fire``'s ``owed``), drawn now by ``victim``,
    the seat after the actor, rule by rule in the order they fired, each no more than the
    boneyard holds above its reserve (``events.tiles_taken``, ``GeneralLoop._pay_draws``),
    a ``draw`` line each in ``EVL``; the deck position after them."""
    o = VARS + CODE[0]
    for j in range(F[_OWED]):
        rule = F[o + 2 * j]
        for _ in range(max(0, min(F[o + 2 * j + 1], draw_end - pos))):
            t = deck[pos]
            put(hands, victim, t)   # (a hand of words too: jit_masks)
            put_line(EVL, K_RULE_DRAW, victim, t, rule, 0)
            pos += 1
            drawn_by[victim] += 1
    F[_OWED] = 0
    return pos


_END_L, _END_R, _END_TOTAL = FACT["end_l"], FACT["end_r"], FACT["end_total"]
_BONEYARD, _PASSES, _DRAWN = FACT["boneyard"], FACT["passes_in_row"], FACT["drawn_this_turn"]
_END_LT, _END_RT = FACT["end_lt"], FACT["end_rt"]
_END_U, _END_D, _ENDS_OPEN = FACT["end_u"], FACT["end_d"], FACT["ends_open"]
_END_UT, _END_DT = FACT["end_ut"], FACT["end_dt"]


@njit
def end_total(L, R, lt, rt, TL, TH, PIPS, across):
    """The open ends counted as the all-fives games count them (``Board.end_total``): a
    lone tile (``lt == rt``, the opening's) by its pips, a double lying across an end by
    both halves (``across``: ``matching.doubles``; a double in line by one)."""
    if lt == rt:
        return PIPS[lt]
    x2 = 2 if across else 1
    return L * (x2 if TL[lt] == TH[lt] else 1) + R * (x2 if TL[rt] == TH[rt] else 1)


@njit(refcounts=False)   # (asked at every placement: no reference counts)
def arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS, across):
    """``end_total`` once a spinner's arms are open (``Board.end_total`` with four ends):
    the line's two ends as there, and an arm only once a tile lies on it (``ut``, ``dt``:
    the tile at the end of the up and down arms, -1 while untouched), a double there by
    both halves (``across``)."""
    total = end_total(L, R, lt, rt, TL, TH, PIPS, across)
    x2 = 2 if across else 1
    if ut >= 0:
        total += U * (x2 if TL[ut] == TH[ut] else 1)
    if dt >= 0:
        total += D * (x2 if TL[dt] == TH[dt] else 1)
    return total


@njit
def arm_facts(F, U, D, NE, ut, dt, st):
    """A spinner's ends as events read them beside the line's (``ends`` and ``end_tiles``
    of two ends or four: ``jit_formula.Spun``): the arms' ends ``U``, ``D``, how many
    ends are open (``NE``), the tiles at the arms' ends (``ut``, ``dt``; -1, an arm
    nobody played on, shows the spinner ``st``: ``events.table_names``)."""
    F[_END_U] = U
    F[_END_D] = D
    F[_ENDS_OPEN] = NE
    F[_END_UT] = ut if ut >= 0 else st
    F[_END_DT] = dt if dt >= 0 else st


@njit
def event_facts(F, L, R, et, boneyard, passes_in_row, drawn):
    """The facts every action's events may read, into ``F`` (``et``: ``end_total``)."""
    F[_END_L] = L
    F[_END_R] = R
    F[_END_TOTAL] = et
    F[_BONEYARD] = boneyard
    F[_PASSES] = passes_in_row
    F[_DRAWN] = drawn


@njit(refcounts=False)
def pass_events(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, mine, scores, play, EVL,
                ends, tiles, NE, TL, TH, PIPS, across, boneyard, passes_in_row, drawn, LOG,
                DAT, logged, DYN, p, T):
    """The events after a pass (the block at ``CODE[at]``, ``EV_PASS``), for both of the
    kernel's passes, stuck or at will: the ends' total (``ends``: L, R, U, D; ``tiles``:
    the tiles at them, lt, rt, ut, dt, and the spinner st; ``NE`` of them open;
    ``across``: how a double there counts), ``may_fire``, the facts (a spinner's arms as
    events read them: ``arm_facts``), ``fire`` (a pass grants no turn) and, with a record,
    its lines (``logged``: the log's counts nl, nd, nj). Returns (seats skipped, 1 once the
    match is won, nl, nd, nj)."""
    L, R, U, D = ends
    lt, rt, ut, dt, st = tiles
    et = (end_total(L, R, lt, rt, TL, TH, PIPS, across) if NE == 2 else
          arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS, across))
    arm_facts(F, U, D, NE, ut, dt, st)   # (slots of their own: event_facts leaves them)
    return pass_fire(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, mine, scores, play, EVL,
                     L, R, lt, rt, et, boneyard, passes_in_row, drawn, LOG, DAT, logged, DYN,
                     p, T)


@njit(refcounts=False)
def pass_fire(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, mine, scores, play, EVL, L, R,
              lt, rt, et, boneyard, passes_in_row, drawn, LOG, DAT, logged, DYN, p, T):
    """``pass_events`` once the ends' total ``et`` is known (a shaped board's is
    ``jit_layout.end_total``): ``may_fire``, the facts, ``fire`` and the record's lines."""
    nl, nd, nj = logged
    if not may_fire(CODE, at, -1, L, R, et):
        return 0, 0, nl, nd, nj
    event_facts(F, L, R, et, boneyard, passes_in_row, drawn)
    F[_END_LT], F[_END_RT] = lt, rt
    skipped = fire(CODE, CODE[at + RULES], F, TAB, TEAMS, sides, N, deck, stack, mine,
                   scores, play, False, EVL)[1]
    if EVL.shape[0] > 0:   # a record (jit_record.event_lines)
        nl, nd, nj = event_lines(EVL, LOG, DAT, nl, nd, nj, DYN, p, N, T)
    return skipped, 1 if F[_REACHED] else 0, nl, nd, nj
