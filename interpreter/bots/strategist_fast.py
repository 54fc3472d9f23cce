"""The strategist's simulation path: the same choice as ``StrategistBot.choose``, made fast.

``choose`` and ``explain`` (``bots.strategist``) score every legal action into a ``Scored``
with its named terms, which is what a reason is built from. A simulation only needs the
winner, so this module computes the same sums straight into floats: no Observation, no
``Action``, no ``Scored``, no context object, no sort. Forced moves and lone placements
that no draw could beat are answered before anything is read, and the tables a decision
needs are looked up once per match. The scoring here must stay the reference's, term for
term and in the same order of additions (a float summed in another order may differ in
its last bit and break a tie another way): the pinned records
(``tests/test_strategist_pinned.py``) and the test that plays both paths hold them to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.actions import DRAW, PASS
from ..engine.plain_loop import OPEN, SEEK
from .strategist import (
    O_DOUBLE,
    O_OTHER,
    O_SUIT,
    O_VALUE,
    W_CONTROL,
    W_DOUBLE,
    W_LOCK,
    W_OPP_SUIT,
    W_OPTIONS,
    W_PARTNER,
    W_PARTNER_LACKS,
    W_SHED,
    W_SHED_BLOCK,
    W_SHUTOUT,
    Knowledge,
    _Seat,
    _Tables,
)


def make_decider(rng, known: Knowledge, tables: _Tables, where: _Seat, draw_end: int,
                 reserve: int) -> Callable[[tuple, Sequence], int]:
    """``decide(decision, record) -> action code`` for the seat ``where`` describes, with
    ``decide.bind(loop) -> policy``: the same choices as a policy of the loop (see below).

    ``known`` reads the public record (shared by the strategists of one match), ``tables``
    are the tile facts of the game, ``draw_end`` is where the drawable boneyard ends and
    ``reserve`` how many tiles stay in it.
    """
    seat = where.me
    players = where.players
    two_each = 2 * players
    random = rng.random
    read = known.read
    rank = _ranker(random, known, tables, where)

    def decide(d: tuple, record: Sequence) -> int:
        phase = d[8]
        if phase == SEEK:
            return DRAW
        m0, m1, m2, m3 = d[12]
        if not (m0 or m1 or m2 or m3):   # the one legal action: a draw, else a pass
            return DRAW if d[6] else PASS
        codes = _codes(m0, m1, m2, m3)
        hand = d[1]
        can_draw = d[6]
        left = draw_end - d[10]
        if len(codes) == 1 and (not can_draw or d[9] or left < two_each
                                or hand.bit_count() > 5):
            return codes[0]   # one placement, and no draw or none it would want
        read(record)
        if phase == OPEN or known.ends is None:
            return _opening(codes, hand, tables, random)
        return rank(codes, hand, can_draw, d[9], left)

    def bind(loop) -> Callable[..., int]:
        """The same choices as a policy of ``loop`` (``policy(mL, mR, can_draw[, mU, mD])``,
        see ``engine.plain_loop``), which the loop never asks for a forced move: what a
        decision tuple holds besides the masks comes from the loop's live hands and the
        record (the tiles drawn since the deal, and in this turn)."""
        record = loop.rec

        def policy(m0: int, m1: int, can_draw: bool, m2: int = 0, m3: int = 0) -> int:
            codes = _codes(m0, m1, m2, m3)
            hand = loop.hands[seat]
            if len(codes) == 1 and (not can_draw or hand.bit_count() > 5):
                return codes[0]
            read(record)
            if known.ends is None:   # the opening (the loop passes its tiles as m0)
                return _opening(codes, hand, tables, random)
            left = known.boneyard - reserve - known.draws
            drawn = known.turn_draws if known.drawer == seat else 0
            if len(codes) == 1 and (drawn or left < two_each):
                return codes[0]
            return rank(codes, hand, can_draw, drawn, left)

        return policy

    decide.bind = bind
    return decide


def _codes(m0: int, m1: int, m2: int, m3: int) -> list[int]:
    """The legal placements as action codes (tile index << 2 | end), in legal order."""
    codes = []
    while m0:
        low = m0 & -m0
        m0 ^= low
        codes.append((low.bit_length() - 1) << 2)
    while m1:
        low = m1 & -m1
        m1 ^= low
        codes.append((low.bit_length() - 1) << 2 | 1)
    while m2:
        low = m2 & -m2
        m2 ^= low
        codes.append((low.bit_length() - 1) << 2 | 2)
    while m3:
        low = m3 & -m3
        m3 ^= low
        codes.append((low.bit_length() - 1) << 2 | 3)
    return codes


def _ranker(random, known: Knowledge, tables: _Tables, where: _Seat
            ) -> Callable[[list, int, bool, int, int], int]:  # noqa: C901 - the hot path
    """``rank(codes, hand, can_draw, drawn, left) -> code``: the best placement once the
    line is open (``strategist._score_place``), or a draw when ``strategist._wants_draw``
    would; ``known`` has read the record up to this decision.

    The terms are the reference's, found with less work: a placed tile always shows the
    new end's value (so it is one of the tiles fitting there: ``options`` is that count
    less one), and what the unchanged end is worth is counted once per decision.
    """
    players = where.players
    partners, opponents = where.partners, where.opponents
    blocking = tuple(where.blocking)
    next_seat = where.next_seat
    next_is_opponent = next_seat in opponents
    PIPS, VALUES, VM = tables.pips, tables.values, tables.value_mask
    DOUBLE = tuple(W_DOUBLE if lo == hi else 0.0 for lo, hi in zip(tables.low, tables.high,
                                                                     strict=True))
    top1 = tables.top + 1
    two_each = 2 * players

    def rank(codes: list, hand: int, can_draw: bool, drawn: int, left: int) -> int:
        if hand & (hand - 1) == 0:   # the last tile: every placement wins alike, no draw
            return codes[int(random() * len(codes))] if len(codes) > 1 else codes[0]
        # (the Knowledge's lists are new each round: read after ``read``)
        lacks, led, opened, twice = known.lacks, known.led, known.opened, known.opened_twice
        placed = known.placed
        drawable = left if left > 0 else 0
        shed = W_SHED + W_SHED_BLOCK * (1.0 if drawable == 0 else
                                        (0.5 if drawable <= players else 0.0))
        # may a voluntary draw beat every placement? (``strategist._wants_draw``)
        next_suits = 0
        if (can_draw and not drawn and drawable >= two_each and next_is_opponent
                and hand.bit_count() <= 5):
            next_suits = (led[next_seat] | twice[next_seat]) & ~lacks[next_seat]
        wants_draw = next_suits != 0
        opp = 0
        for o in opponents:
            opp = (opp | led[o] | twice[o]) & ~lacks[o]
        suits = partner_lacks = 0
        for p in partners:
            suits = (suits | led[p] | opened[p]) & ~lacks[p]
            partner_lacks |= lacks[p]
        ends = known.ends
        two = len(ends) == 2
        if two:   # the common board, a line: each end's own facts once
            e0, e1 = ends
            m0, m1 = VM[e0], VM[e1]
            c0, c1 = (hand & m0).bit_count(), (hand & m1).bit_count()
            seen0, seen1 = top1 - placed[e0], top1 - placed[e1]
        scores = []
        for code in codes:
            t = code >> 2
            if two:
                if code & 3:   # placed on the right: the left end stays
                    keep, mk, ck, sk = e0, m0, c0, seen0
                    v = PIPS[t] - e1
                else:
                    keep, mk, ck, sk = e1, m1, c1, seen1
                    v = PIPS[t] - e0
                # my tiles left showing each end value (the placed tile no longer counts);
                # an end value is locked when only I still hold it (none unseen)
                mine = ck - (mk >> t & 1)
                if v == keep:
                    kept = mine + mine
                    values = 1 << v
                    fits = mk
                    locked = 1 if mine and sk == ck else 0
                else:
                    vm = VM[v]
                    c = (hand & vm).bit_count()
                    kept = mine + c - 1
                    values = 1 << keep | 1 << v
                    fits = mk | vm
                    locked = (1 if mine and sk == ck else 0) + (
                        1 if c > 1 and top1 - placed[v] == c else 0)
            else:
                new = list(ends)
                new[code & 3] = v = PIPS[t] - new[code & 3]
                fits = values = locked = kept = 0
                for e in new:
                    c = (hand & VM[e]).bit_count()
                    mine = c - (VM[e] >> t & 1)
                    kept += mine
                    bit = 1 << e
                    if not values & bit:
                        values |= bit
                        fits |= VM[e]
                        if mine and not top1 - c - placed[e]:
                            locked += 1
            # my other tiles that fit an end next turn (the placed one shows the new end)
            options = W_OPTIONS * ((hand & fits).bit_count() - 1)
            block = 0.0
            for o, weight in blocking:
                lacked = values & lacks[o]
                if lacked:
                    block += weight * lacked.bit_count()
                    if lacked == values:
                        block += W_SHUTOUT
            if wants_draw and (options or block or not next_suits >> v & 1):
                wants_draw = False
            if partners:
                scores.append(options + W_CONTROL * kept + W_LOCK * locked + block
                              + W_PARTNER * (values & suits).bit_count()
                              + -W_PARTNER_LACKS * (values & partner_lacks).bit_count()
                              + -W_OPP_SUIT * (values & opp).bit_count()
                              + DOUBLE[t] + shed * VALUES[t])
            else:
                scores.append(options + W_CONTROL * kept + W_LOCK * locked + block
                              + -W_OPP_SUIT * (values & opp).bit_count()
                              + DOUBLE[t] + shed * VALUES[t])
        if len(codes) == 1:
            best = codes[0]
        else:
            top = max(scores)
            floor = top - 1e-9
            tied = 0
            for s in scores:
                if s >= floor:
                    tied += 1
            if tied == 1:
                best = codes[scores.index(top)]
            else:   # a tie: the RNG picks, as ``strategist._rank`` does
                best = _tied(codes, scores, floor, random)
        return DRAW if wants_draw else best

    return rank


def _opening(codes: list[int], hand: int, tables: _Tables, random) -> int:
    """The opening tile (``strategist._score_opening``): the strongest suit, its double."""
    LOW, HIGH, VALUES, VM = tables.low, tables.high, tables.values, tables.value_mask
    scores = []
    for code in codes:
        t = code >> 2
        low, high = LOW[t], HIGH[t]
        c_low, c_high = (hand & VM[low]).bit_count(), (hand & VM[high]).bit_count()
        strong, other = (c_high, c_low) if c_high >= c_low else (c_low, c_high)
        if low == high:
            scores.append(O_SUIT * strong + O_DOUBLE + 0.0 + O_VALUE * VALUES[t])
        else:
            scores.append(O_SUIT * strong + 0.0 + O_OTHER * other + O_VALUE * VALUES[t])
    return _pick(codes, scores, random)


def _pick(codes: list[int], scores: list[float], random) -> int:
    """The best code; on a tie (within 1e-9) the RNG picks among the tied ones."""
    if len(codes) == 1:
        return codes[0]
    floor = max(scores) - 1e-9
    top = [code for s, code in zip(scores, codes, strict=True) if s >= floor]
    return top[0] if len(top) == 1 else _tied(codes, scores, floor, random)


def _tied(codes: list[int], scores: list[float], floor: float, random) -> int:
    """The RNG's pick among the codes scoring at least ``floor``, ranked best first and
    in legal order, as ``strategist._rank`` ranks them (a stable sort)."""
    top = [(s, code) for s, code in zip(scores, codes, strict=True) if s >= floor]
    top.sort(key=_first, reverse=True)
    return top[int(random() * len(top))][1]


def _first(pair: tuple) -> float:
    return pair[0]
