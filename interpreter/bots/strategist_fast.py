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


def make_decider(rng, known: Knowledge, tables: _Tables, where: _Seat, draw_end: int
                 ) -> Callable[[tuple, Sequence], int]:  # noqa: C901 - the hot path, one frame
    """``decide(decision, record) -> action code`` for the seat ``where`` describes.

    ``known`` reads the public record (shared by the strategists of one match), ``tables``
    are the tile facts of the game, ``draw_end`` is where the drawable boneyard ends.
    """
    players = where.players
    partners, opponents = where.partners, where.opponents
    blocking = where.blocking
    next_seat = where.next_seat
    next_is_opponent = next_seat in opponents
    LOW, HIGH, PIPS, VALUES = tables.low, tables.high, tables.pips, tables.values
    VM = tables.value_mask
    top1 = tables.top + 1
    random = rng.random
    two_each = 2 * players

    def decide(d: tuple, record: Sequence) -> int:
        phase = d[8]
        if phase == SEEK:
            return DRAW
        m0, m1, m2, m3 = d[12]
        if not (m0 or m1 or m2 or m3):   # the one legal action: a draw, else a pass
            return DRAW if d[6] else PASS
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
        hand = d[1]
        can_draw = d[6]
        left = draw_end - d[10]
        nh = hand.bit_count()
        if len(codes) == 1 and (not can_draw or d[9] or left < two_each or nh > 5):
            return codes[0]   # one placement, and no draw or none it would want
        known.read(record)
        ends = known.ends
        if phase == OPEN or ends is None:
            return _opening(codes, hand, tables, random)
        if nh == 1:   # the last tile: every placement wins the round alike, no draw
            return codes[int(random() * len(codes))] if len(codes) > 1 else codes[0]
        # (the Knowledge's lists are new each round: read after ``read``)
        lacks, led, opened, twice = known.lacks, known.led, known.opened, known.opened_twice
        drawable = left if left > 0 else 0
        shed = W_SHED + W_SHED_BLOCK * (1.0 if drawable == 0 else
                                        (0.5 if drawable <= players else 0.0))
        # may a voluntary draw beat every placement? (``strategist._wants_draw``)
        next_suits = 0
        if (can_draw and not d[9] and drawable >= two_each and nh <= 5
                and next_is_opponent):
            next_suits = (led[next_seat] | twice[next_seat]) & ~lacks[next_seat]
        wants_draw = next_suits != 0
        placed = known.placed
        opp = 0
        for o in opponents:
            opp = (opp | led[o] | twice[o]) & ~lacks[o]
        blocks = [(lacks[o], w) for o, w in blocking]
        suits = partner_lacks = 0
        for p in partners:
            suits = (suits | led[p] | opened[p]) & ~lacks[p]
            partner_lacks |= lacks[p]
        two = len(ends) == 2
        if two:
            end0, end1 = ends
        scores = []
        for code in codes:
            t = code >> 2
            lo, hi = LOW[t], HIGH[t]
            at = code & 3
            if two:   # the common board: the two ends of a line, written out
                if at:
                    v0, v1 = end0, PIPS[t] - end1
                    v_at = v1
                else:
                    v0 = v_at = PIPS[t] - end0
                    v1 = end1
                c = (hand & VM[v0]).bit_count()
                mine = c - (v0 == lo or v0 == hi)
                locked = 1 if mine and not top1 - c - placed[v0] else 0
                if v1 == v0:
                    kept = mine + mine
                    values = 1 << v0
                    fits = VM[v0]
                else:
                    kept = mine
                    c = (hand & VM[v1]).bit_count()
                    mine = c - (v1 == lo or v1 == hi)
                    kept += mine
                    values = 1 << v0 | 1 << v1
                    fits = VM[v0] | VM[v1]
                    if mine and not top1 - c - placed[v1]:
                        locked += 1
            else:
                new = list(ends)
                new[at] = v_at = PIPS[t] - new[at]
                fits = values = locked = kept = 0
                for v in new:
                    c = (hand & VM[v]).bit_count()
                    mine = c - (v == lo or v == hi)
                    kept += mine
                    bit = 1 << v
                    if not values & bit:
                        values |= bit
                        fits |= VM[v]
                        if mine and not top1 - c - placed[v]:
                            locked += 1
            options = W_OPTIONS * (hand & ~(1 << t) & fits).bit_count()
            block = 0.0
            for lk, weight in blocks:
                lacked = values & lk
                if lacked:
                    block += weight * lacked.bit_count()
                    if lacked == values:
                        block += W_SHUTOUT
            if wants_draw and (options or block or not next_suits >> v_at & 1):
                wants_draw = False
            if partners:
                scores.append(options + W_CONTROL * kept + W_LOCK * locked + block
                              + W_PARTNER * (values & suits).bit_count()
                              + -W_PARTNER_LACKS * (values & partner_lacks).bit_count()
                              + -W_OPP_SUIT * (values & opp).bit_count()
                              + (W_DOUBLE if lo == hi else 0.0) + shed * VALUES[t])
            else:
                scores.append(options + W_CONTROL * kept + W_LOCK * locked + block
                              + -W_OPP_SUIT * (values & opp).bit_count()
                              + (W_DOUBLE if lo == hi else 0.0) + shed * VALUES[t])
        if len(codes) > 1:
            floor = max(scores) - 1e-9
            best = [code for s, code in zip(scores, codes, strict=True) if s >= floor]
            if len(best) > 1:   # a tie: the RNG picks, as ``strategist._rank`` does
                best = _tied(codes, scores, floor, random)
            else:
                best = best[0]
        else:
            best = codes[0]
        return DRAW if wants_draw else best

    return decide


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
