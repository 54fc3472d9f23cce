"""The Python kernel's match, as real Python: every rule a switch, specialised per ruleset.

``play`` is the match loop's match (``engine.general_loop``) with each rule behind a
switch (an upper-case name tested by ``if``) and each number a name. ``generate``
specialises it by its syntax tree for one ruleset and player count: the switches and
numbers become constants, the branches they rule out are cut (``specialise_loop``'s
folding, the one the general loop's kernel uses), the pieces other writers make from a
ruleset's checked formula trees (events, redeal, opening masks, settlement formulas:
``kernel.events``, ``kernel.opening``, ``kernel.formulas``) are spliced in where
``splice(NAME)`` or their name stands, and a few calls are unrolled for the player
count (``dealt_hands``, ``ints``). What is left is one function with no test on a rule
the ruleset does not use, no ``yield`` (every seat decides in the kernel: the builtin
``random`` pick inlined, or a fast policy called) and no record keeping unless asked
for. Records come as event dicts (``REC``) or, for a record file, as its JSON Lines text
(``TXT``): the frequent events are then strings made once per game (``PLACE_TXT``...) by
the record encoder itself.

This module is never run as it stands: it is the source the kernels are made of, so
ruff, coverage's static view and a reader see it as code. The names below give each
switch, number and table the kernel reads a value of its type; the real values are a
ruleset's (``generate._switches`` and ``generate._namespace``). The kernel must play
every match exactly as the loop does: ``tests/test_kernel.py`` plays every ruleset
through both and compares records and statistics.
"""

from __future__ import annotations

from typing import Any

# -- switches (generate._switches' flags): True where the ruleset uses the rule ----------
REC = TXT = UNI = VOL = LIMITED = STUCK_DRAW = OPEN_ANY = GEN_OPEN = False
REDEAL_IF = REDEAL_INLINE = OPEN_MASK = LEAD_FORMULA = SEEKS = DEAL_DEPENDENT = False
LATER_ROTATE = LEAD_FALLBACK = LEAD_RANDOM = TWO_CHUNKS = SPINNER = VIEW = False
EVENTS = EV_PLACE = EV_DRAW = EV_PASS = RESTRICT = RESTRICT_PASS = RESTRICT_INLINE = False
INLINE_SETTLE = GEN = DRAWN_BY = INDIVIDUAL = LOWEST_SIDE = TIE_EACH = False
COST_TO_WINNER = FINAL = BOTH = FIRE = DRAWN = PRIOR_PASSES = LAST = AGAIN = False
TURNS = CHAIN = False
# -- numbers (generate._switches' numbers): checked literals, never a ruleset's text -----
N = SIDE_COUNT = DEALT = T = DRAW_END = DRAW_LIMIT = DRAW_COST = TARGET = 0
MAX_REDEALS = KEY_BYTES = EVERYONE = IDLE_MAX = MAX_TURNS = HAND_SIZE = 0
PLAY_ON = RIGHT = READS_BOARD = NARROW_SOME = False
FORBIDDABLE = 0
# -- expressions written by the kernel's writers from checked trees, spliced by name ----
DOMINO: Any = 0            # the domino formula (kernel.formulas.emit)
BLOCKED: Any = 0           # the blocked formula
AMASK: Any = 0             # the round's opening allow mask (kernel.opening.allow_masks)
REDEAL_TEST: Any = False   # the redeal formula's test (kernel.opening.redeal_source)
MATCH_DUE: Any = True      # when the written match end is asked (kernel.settle.match_due)
RESTRICT_KEY: Any = ()     # what restricted masks depend on (generate._restriction_key)
# -- the namespace (generate._namespace): tables and the helpers shared with the loop ---
CORE: Any = None
TL = TH = PM = PIPS = DBL = BIT = FULL = LO = HI = ()
PLACE_TXT = DRAW_TXT = PASS_TXT = ARM_TXT = SKIP_TXT = END_NAMES = ()
TEAMS = SIDE_OF = SEATS = RESTRICTED = NAME = TS = FIRST_OP = LATER_OP = None
FIRST_LEADER = LATER_LEADER = COUNT_FROM = FIRST_OPEN = LATER_OPEN = None
words = shake = HashStream = match_start = match_start_text = deal_event = None
deal_text = opening = too_many_redeals = before_deal = highest_double_holder = None
holder = holder_tile = round_holder_tile = narrow = restrict = round_too_long = None
SETTLE = MATCH_OVER = VALUE_OF = bit_count = settle = match_winner = None
new = setattr_ = MatchResult = check_scores = RoundStats = RoundEnd = None
board_of = spinner_board_of = NEXT = None


def splice(name: str) -> None:
    """Where a writer's statements go (``generate``: the events of an action, the redeal
    formula's head); specialised, the call is replaced by them, or by nothing."""


def dealt_hands(deck: list[int]) -> list[int]:
    """Each seat's dealt hand, a bitmask of ``HAND_SIZE`` tiles from the deck's front;
    specialised, one ``|`` of the deck's slots per seat (no loop)."""
    return [sum(BIT[t] for t in deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(N)]


def ints(values: list[int], count: int) -> str:
    """``values`` as a record writes a list of ints (inside an f-string); specialised, one
    ``{values[i]}`` per item, for the ``count`` there are."""
    return ",".join(map(str, values[:count]))


def play(seed, uniform, more, policies, start_scores, max_rounds, view=None):  # noqa: C901
    # -- play's helpers: a block the kernel needs in several places, written once and
    # inlined where it is called (specialise_kernel), so the kernel pays no call for it.
    # Inlined, a parameter is the argument itself (a name the helper sets is the
    # caller's); the names play owns that a helper sets are its nonlocal ones.
    def next_seat(s):
        """The seat after ``s`` in the direction of play."""
        return (s - 1 if s else N - 1) if RIGHT else s + 1 if s + 1 < N else 0

    def can_draw_now():
        """Whether ``p`` may draw now: the boneyard not down to what stays, and the turn's
        draws under the limit."""
        return pos < DRAW_END and (not LIMITED or drawn < DRAW_LIMIT)

    def uniform_of(count):
        """``k``: the random pick's index among ``count`` options; the turn counted as a
        choice where there are two or more (or a draw is open to it)."""
        nonlocal choices
        if count > 1 or VOL and can_draw_now():
            choices += 1
        uniform_k(count)

    def uniform_k(count):
        """``k``: the builtin random pick's index below ``count``, from the seat's stream
        (a new stream from ``more`` when it runs out)."""
        nonlocal k, urnd
        try:
            k = (urnd() * count) >> 32
        except StopIteration:
            urnd = uniform[p] = more(p)
            k = (urnd() * count) >> 32

    def kth(m):
        """``t`` (and its bit ``b``): the ``k``-th lowest tile of the mask ``m`` (inlined,
        the caller's mask is worked down to it: not read after)."""
        nonlocal k, b, t
        while k:
            m &= m - 1
            k -= 1
        b = m & -m
        t = b.bit_length() - 1

    def drew():
        """``p`` draws ``t``, the boneyard's next tile: counted, and recorded."""
        nonlocal t, pos, drawn
        t = deck[pos]
        pos += 1
        if DRAWN:
            drawn += 1
        if DRAWN_BY:
            drawn_by[p] += 1
        wrote_draw(p)

    def wrote_draw(seat):
        """The record of ``seat`` drawing ``t``."""
        if TXT:
            add(DRAW_TXT[seat * T + t])
        elif REC:
            rec.append({"event": "draw", "player": seat, "tile": [TL[t], TH[t]]})

    def moved(side, side_tile, code):
        """``t`` played on the end ``side`` (the last tile there ``side_tile``, ``code`` the
        end in the record: 0 to 3, left right up down): inlined, it sets the caller's."""
        nonlocal e
        side = PIPS[t] - side
        if GEN or EVENTS or SPINNER:   # read by events, the loop's settlement, the board
            side_tile = t  # noqa: F841 - the caller's, inlined
        if REC:
            e = code

    def noted(both):
        """What the settlement and events read of the last placement: who placed ``t``,
        and whether it fitted both ends (``both``: the tiles that did)."""
        nonlocal last_player, last_tile, last_both
        if LAST:
            last_player, last_tile = p, t
        if BOTH:
            last_both = (both >> t & 1) == 1

    def spun(bit, value):
        """The spinner's bookkeeping once an end (``bit``: 1 left, 2 right) is played on
        with ``t`` (``value``: a double's pips): the first double placed is the spinner
        (``spin_need``: its sides still to be played on); both played on, up and down
        open (``cnt`` 4) and the bookkeeping is over (``spin_need`` 0)."""
        nonlocal spin_need, spin_value, U, D, cnt
        if spin_need < 0:
            if DBL[t]:
                spin_need, spin_value = bit, value
        elif spin_need & bit:
            spin_need ^= bit
            if not spin_need:
                U = D = spin_value
                cnt = 4

    def placed():
        """``t`` (bit ``b``) placed at end ``e`` by ``p``: out of the hand, the passes in a
        row over, the record and the place's events; an emptied hand dominoes."""
        nonlocal h, prior, npass, idle, run_passes, domino
        h ^= b
        hands[p] = h
        if PRIOR_PASSES:
            prior = run_passes if TURNS else npass   # passes in a row before
        npass = 0
        if TXT:
            if SPINNER:
                add(PLACE_TXT[(p * T + t) * 3 + 1 + e] if e < 2
                    else ARM_TXT[(p * T + t) * 2 + e - 2])
            else:
                add(PLACE_TXT[(p * T + t) * 3 + 1 + e])
        elif REC:
            rec.append({"event": "place", "player": p, "tile": [TL[t], TH[t]],
                        "end": END_NAMES[e]})
        if TURNS:
            idle = run_passes = 0
        if EV_PLACE:
            splice("EV_PLACE_CODE")
        if not h:
            domino, npass = p, N

    # the shuffle (engine.streams.shuffler, inlined): deal k sorts the tiles on T words of
    # SHAKE-128(seed), four deals' words per call; hands unrolled over the deck's slots
    shuffle_key = b"%d:shuffle:" % seed
    made = 0
    block = None
    if GEN:
        core = CORE   # the general loop's opening, lead and redeal methods, kept per kernel
    scores = list(start_scores) if start_scores else [0] * SIDE_COUNT
    if GEN:
        rounds_won = [0] * SIDE_COUNT
        core.scores, core.rounds_won = scores, rounds_won   # read by its settlement, _final
    rounds = []
    add_round = rounds.append
    lead_rng = HashStream(seed, "lead") if LEAD_RANDOM else None
    if TXT:
        rec = [match_start_text(seed)]
        add = rec.append
    elif REC and VIEW:
        rec = view.rec      # what policies bound to the match read: the record, the hands
        rec.append(match_start(seed))
    elif REC:
        rec = [match_start(seed)]
    if EVENTS and GEN and TXT:
        spill = core.rec = []  # noqa: F841 - the events GeneralLoop._fire records, to write as text
    elif EVENTS and GEN and REC:
        core.rec = rec
    prev_leader = prev_winner = None
    if LEAD_FORMULA:   # what the lead formula reads of the round before
        prev_side = last_player = domino = None
    over, match_win, capped = False, None, False
    rnd_no = 0
    while not over:
        rnd_no += 1
        if rnd_no > max_rounds:
            capped = True
            break
        if LATER_ROTATE:
            if DEAL_DEPENDENT:
                choice = FIRST_LEADER
            if prev_leader is not None:
                pre = next_seat(prev_leader)
            else:
                pre = before_deal(FIRST_LEADER, N, lead_rng, TS, None, None, COUNT_FROM)
        else:
            choice = FIRST_LEADER if rnd_no == 1 else LATER_LEADER
            if LEAD_FORMULA and choice == "formula" and prev_leader is not None:
                pre = core._lead_by_formula((prev_leader, prev_winner, prev_side, last_player,
                                             domino is None))
            elif choice == "rotate" and prev_leader is not None:
                pre = next_seat(prev_leader)
            elif LEAD_FORMULA:
                pre = before_deal("lot" if choice == "formula" else choice, N, lead_rng, TS,
                                  prev_leader, prev_winner, COUNT_FROM)
            else:
                pre = before_deal(choice, N, lead_rng, TS, prev_leader, prev_winner,
                                  COUNT_FROM)
        if GEN_OPEN:
            op = FIRST_OP if rnd_no == 1 else LATER_OP
        if OPEN_MASK:
            amask = AMASK          # the tiles the round's opening condition allows
            open_round = FIRST_OPEN if rnd_no == 1 else LATER_OPEN
        redeals = 0
        while True:
            j = made & 3
            if not j:
                block = words(shake(shuffle_key + (made >> 2).to_bytes(8, "little"))
                              .digest(KEY_BYTES))
            made += 1
            # the keys as a list: sorting on an array's items would make each int twice
            deck = sorted(FULL, key=block[j * T:j * T + T].tolist().__getitem__)
            hands = dealt_hands(deck)
            leader = pre
            if DEAL_DEPENDENT and leader is None:
                if choice == "highest_double":
                    found = highest_double_holder(hands, TS)
                    leader = found[0] if found else None
                elif GEN_OPEN:
                    leader = holder(hands, round_holder_tile(op, hands))
                else:
                    leader = holder(hands, holder_tile(hands))
            if OPEN_ANY:
                opener, omask, seek = leader, -1, 0
                break
            opener = seek = None
            if REDEAL_INLINE:
                splice("REDEAL_HEAD")
            elif REDEAL_IF or GEN_OPEN:
                core.hands = hands
            if REDEAL_IF and (REDEAL_TEST if REDEAL_INLINE else core._redeal_asked(rnd_no)):
                leader = None
            elif leader is not None:
                if OPEN_MASK:
                    opener, omask, free, seek = open_round(amask, hands, leader, deck)
                elif GEN_OPEN:
                    opener, omask, free, seek = core._open(op, hands, leader, deck, DEALT,
                                                           DRAW_END, rnd_no, NEXT)
                else:
                    opener, omask, seek = opening(hands, leader, deck, DEALT, DRAW_END)
            elif LEAD_FALLBACK and op.if_unheld == "heaviest":   # GeneralLoop.run: the
                leader, ht = core._heaviest(hands)   # opening's fallback leads, where the
                opener, omask, free, seek = leader, 1 << ht, False, None   # lead names nobody
            if opener is not None:
                break
            if REC and GEN_OPEN:
                # GeneralLoop.run: opener None with a seek, the leader draws the boneyard
                # out in vain; the deal is written with its leader, then the draws
                drew_out = seek is not None
                if TXT:
                    add(deal_text(rnd_no, leader if drew_out else None, hands, deck))
                else:
                    rec.append(deal_event(rnd_no, leader if drew_out else None, hands, deck))
                if drew_out:
                    for t in deck[DEALT:DRAW_END]:  # noqa: B007 - wrote_draw reads t
                        wrote_draw(leader)
            elif TXT:
                add(deal_text(rnd_no, None, hands, deck))
            elif REC:
                rec.append(deal_event(rnd_no, None, hands, deck))
            redeals += 1
            if redeals > MAX_REDEALS:
                too_many_redeals(rnd_no)
        if TXT:
            add(deal_text(rnd_no, leader, hands, deck))
        elif REC:
            rec.append(deal_event(rnd_no, leader, hands, deck))
        if VIEW:
            view.hands = hands
        pos = DEALT
        if DRAWN_BY:
            drawn_by = [0] * N
        passes = choices = seek_turns = 0
        if EVENTS:
            round_play = [0] * SIDE_COUNT    # points scored during play
            extra_turns = skips = 0
            if GEN:
                core._round_play = round_play
        p = leader
        if GEN_OPEN:
            core.hands = hands
        if (GEN_OPEN and seek is not None) or (SEEKS and not GEN_OPEN and seek):
            # GeneralLoop.run's seek: in turn, or the leader alone (GEN_OPEN); else the
            # required tile sought in turn
            if GEN_OPEN:
                mode, test = seek
            while True:
                seek_turns += 1
                t = deck[pos]
                pos += 1
                hands[p] |= 1 << t
                if DRAWN_BY:
                    drawn_by[p] += 1
                wrote_draw(p)
                if not GEN_OPEN:   # the required tile, sought in turn
                    if (1 << t) & seek:
                        opener, omask = p, 1 << t
                        break
                    p = next_seat(p)
                else:
                    if OPEN_MASK:
                        if test >> t & 1:      # the seek's mask
                            opener = p
                            omask = (1 << t) if op.tile != "any" else hands[p] & amask
                            break
                    elif test(p, t):
                        opener = p
                        omask = ((1 << t) if op.tile != "any"
                                 else core._allowed(op, hands[p], rnd_no))
                        break
                    if mode == "turns":
                        p = next_seat(p)
                    elif pos >= DRAW_END:   # drawn out in vain: the heaviest tile opens
                        opener, ht = core._heaviest(hands)
                        omask = 1 << ht
                        break
        p = opener
        if DRAWN:
            drawn = 0
        while True:
            h = hands[p]
            if OPEN_MASK:
                m = h if omask < 0 else (h & amask if free else omask)
            elif GEN_OPEN:
                m = h if omask < 0 else (core._allowed(op, h, rnd_no) if free else omask)
            else:
                m = h if omask < 0 else omask
            if VOL:
                can_draw = (free if GEN_OPEN else omask < 0) and can_draw_now()
                if can_draw or m & (m - 1):
                    choices += 1
            elif m & (m - 1):
                choices += 1
            if UNI:
                urnd = uniform[p]
                uniform_k(m.bit_count())
                kth(m)
            else:
                a = policies[p](m, 0, can_draw if VOL else False)
                if VOL and a == -1:
                    drew()
                    hands[p] = h | (1 << t)
                    continue
                t = a >> 2
            h ^= 1 << t
            hands[p] = h
            L, R = TL[t], TH[t]
            if LAST:
                last_player, last_tile = p, t
            if GEN or EVENTS:
                last_both, lt, rt, first_t = False, t, t, t
            if TXT:
                add(PLACE_TXT[(p * T + t) * 3])
            elif REC:
                rec.append({"event": "place", "player": p, "tile": [L, R], "end": None})
            break
        if EVENTS:
            again = skip = 0
            if EV_PLACE:
                splice("EV_OPEN_CODE")
        if SPINNER:
            # the first double is a spinner (engine.board.Board, inline): L R U D the ends'
            # values, lt rt ut dt the last tile at each (-1: none on an arm yet), cnt the
            # ends open (4 once both sides of the spinner are played on); spin_need the
            # spinner's sides still to be played on, a bit per end (-1: no double yet)
            U = D = 0
            ut = dt = -1
            cnt = 2
            if L == R:
                spin_need, spin_value = 3, L
            else:
                spin_need, spin_value = -1, 0
        # -- a round's turns: the plain rotation, or the general loop's turn order where
        # events grant or skip turns (npass is who passed since the last placement or
        # draw, a bit per seat; idle the turns since then)
        npass = 0
        domino = None
        if not h:
            domino, npass = p, N
        if TURNS:
            idle = run_passes = turns_taken = 0
        while domino is None if TURNS else npass < N:
            if TURNS:
                if npass == EVERYONE or idle >= IDLE_MAX:
                    break
                if again:
                    again -= 1
                    extra_turns += 1
                else:
                    p = next_seat(p)
                    while skip > 0 and idle < IDLE_MAX:
                        skip -= 1
                        skips += 1
                        idle += 1
                        if TXT:
                            add(SKIP_TXT[p])
                        elif REC:
                            rec.append({"event": "skip", "player": p})
                        p = next_seat(p)
                    if idle >= IDLE_MAX:   # a skip completed two idle turns: blocked
                        break
                if AGAIN:
                    turns_taken += 1
                    if turns_taken > MAX_TURNS:
                        round_too_long(rnd_no)
            else:
                p = next_seat(p)
            h = hands[p]
            if UNI:
                urnd = uniform[p]
            if DRAWN:
                drawn = 0
            while True:
                mL = h & PM[L]
                mR = h & PM[R]
                if SPINNER and UNI:
                    if cnt == 2:   # the spinner not open (yet): the plain loop's pick
                        if mL or mR:
                            if BOTH:
                                both_m = mL & mR        # the tiles that fit two ends
                            nL = mL.bit_count()
                            k = nL + mR.bit_count()
                            uniform_of(k)
                            # the end played on, and the spinner's bookkeeping
                            if k < nL:
                                kth(mL)
                                moved(L, lt, 0)
                                spun(1, TL[t])
                            else:
                                k -= nL
                                kth(mR)
                                moved(R, rt, 1)
                                spun(2, TL[t])
                        else:
                            t = -1
                    else:          # four ends open: the spinner's bookkeeping is over
                        mU = h & PM[U]
                        mD = h & PM[D]
                        if mL or mR or mU or mD:
                            if BOTH:
                                both_m = (mL | mR) & (mU | mD) | mL & mR | mU & mD
                            nL = mL.bit_count()
                            nR = mR.bit_count()
                            nU = mU.bit_count()
                            k = nL + nR + nU + mD.bit_count()
                            uniform_of(k)
                            if k < nL:
                                kth(mL)
                                moved(L, lt, 0)
                            elif k < nL + nR:
                                k -= nL
                                kth(mR)
                                moved(R, rt, 1)
                            elif k < nL + nR + nU:
                                k -= nL + nR
                                kth(mU)
                                moved(U, ut, 2)
                            else:
                                k -= nL + nR + nU
                                kth(mD)
                                moved(D, dt, 3)
                        else:
                            t = -1
                elif SPINNER:
                    if cnt == 2:
                        mU = mD = 0
                    else:
                        mU = h & PM[U]
                        mD = h & PM[D]
                    t = -1
                    if mL or mR or mU or mD:
                        if BOTH:
                            both_m = (mL | mR) & (mU | mD) | mL & mR | mU & mD
                        k = mL.bit_count() + mR.bit_count() + mU.bit_count() + mD.bit_count()
                        if VOL:
                            can_draw = can_draw_now()
                            if k > 1 or can_draw:
                                choices += 1
                        elif k > 1:
                            choices += 1
                        if cnt == 4:
                            a = policies[p](mL, mR, can_draw if VOL else False, mU, mD)
                        else:
                            a = policies[p](mL, mR, can_draw if VOL else False)
                        if a < 0:
                            t = -2           # the policy draws
                        else:
                            t, e = a >> 2, a & 3
                            b = 1 << t
                            if e == 0:
                                moved(L, lt, 0)
                            elif e == 1:
                                moved(R, rt, 1)
                            elif e == 2:
                                moved(U, ut, 2)
                            else:
                                moved(D, dt, 3)
                            spun(1 << e, TL[t])   # (up, down: spin_need is 0 by then)
                elif RESTRICT:
                    fits = mL | mR
                    if RESTRICT_INLINE:
                        if fits & FORBIDDABLE if NARROW_SOME else fits:
                            # a tile the restrictions could forbid fits
                            mL, mR = narrow(mL, mR, h, L, R, pos, rnd_no)
                    elif fits:   # narrowed once per position the restrictions tell apart
                        key = RESTRICT_KEY
                        got = RESTRICTED.get(key)
                        if got is None:
                            got = restrict(key, mL, mR, h, L, R, T - pos, rnd_no)
                        mL, mR = got
                if SPINNER and t >= 0:
                    noted(both_m)
                    placed()
                    break
                elif SPINNER and not UNI and t == -2:
                    if EV_DRAW:
                        forced = False
                elif not SPINNER and (mL or mR):
                    if UNI:
                        nL = mL.bit_count()
                        k = nL + mR.bit_count()
                        uniform_of(k)
                        if k < nL:
                            kth(mL)
                            noted(PM[L] & PM[R])
                            moved(L, lt, 0)
                        else:
                            k -= nL
                            kth(mR)
                            noted(PM[L] & PM[R])
                            moved(R, rt, 1)
                        placed()
                        break
                    if VOL:
                        can_draw = can_draw_now()
                        if can_draw or (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                            choices += 1
                    elif (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                        choices += 1
                    a = policies[p](mL, mR, can_draw if VOL else False)
                    if a >= 0:
                        t = a >> 2
                        b = 1 << t
                        noted(PM[L] & PM[R])
                        if a & 3:
                            moved(R, rt, 1)
                        else:
                            moved(L, lt, 0)
                        placed()
                        break
                    if EV_DRAW:
                        forced = False
                # -- nothing placed: a forced draw, or a pass (two ends and four alike)
                elif STUCK_DRAW and can_draw_now() and not (RESTRICT_PASS and fits):
                    # a draw (where restrictions forbid every tile that fits: a pass)
                    if EV_DRAW:   # read by the draw's events
                        forced = True  # noqa: F841
                else:
                    hands[p] = h       # a draw before the pass changed it
                    passes += 1
                    if TURNS:
                        npass |= 1 << p
                        idle += 1
                        run_passes += 1
                    else:
                        npass += 1
                        if EV_PASS:
                            run_passes = npass
                    if TXT:
                        add(PASS_TXT[p])
                    elif REC:
                        rec.append({"event": "pass", "player": p})
                    if EV_PASS:
                        splice("EV_PASS_CODE")
                    break
                if PRIOR_PASSES:   # passes in a row before this draw (its events read it)
                    prior = run_passes if TURNS else npass  # noqa: F841
                npass = 0      # a draw: the passes in a row start again
                if TURNS:
                    idle = run_passes = 0
                if CHAIN:
                    # stuck: draw on until a tile fits, without going round the turn again
                    fit = (((PM[L] | PM[R] | PM[U] | PM[D]) if cnt == 4 else PM[L] | PM[R])
                           if SPINNER else PM[L] | PM[R])
                while True:   # one tile drawn (specialised: no loop), or a stuck chain
                    drew()
                    h |= 1 << t
                    if VIEW or FIRE:
                        hands[p] = h
                    if EV_DRAW:
                        splice("EV_DRAW_CODE")
                    if not CHAIN or h & fit or not can_draw_now():
                        break
        # -- settlement
        if GEN:
            pips, wside, wseat, tied, points = SETTLE(RoundEnd(
                hands=hands, drawn_by=drawn_by, domino=domino, last_player=last_player,
                last_tile=last_tile, last_both=last_both,
                board=((spinner_board_of(L, R, U, D, lt, rt, ut, dt, cnt, first_t,
                                         pos - sum(map(bit_count, hands)))
                        if SPINNER else board_of(L, R, lt, rt, first_t,
                                                 pos - sum(map(bit_count, hands))))
                       if READS_BOARD else None),
                deck=deck, pos=pos, passes=passes, rnd=rnd_no, scores=scores,
                rounds_won=rounds_won))
            counts = list(map(bit_count, hands))
        else:
            if TWO_CHUNKS:
                pips = [LO[h & 16383] + HI[h >> 14] for h in hands]
            else:
                pips = list(map(VALUE_OF, hands))
            counts = list(map(bit_count, hands))
        if INLINE_SETTLE:
            # the names the formulas read (kernel.formulas): per seat, per side
            P = V = pips  # noqa: F841 - read by the formulas spliced in
            C = counts  # noqa: F841
            if DRAWN_BY:
                DB = drawn_by
            if INDIVIDUAL:
                SP = SV = P  # noqa: F841
                ST = C  # noqa: F841
                if DRAWN_BY:
                    SD = DB  # noqa: F841
            else:
                SP = SV = [sum([P[s] for s in team]) for team in TEAMS]  # noqa: F841
                ST = [sum([C[s] for s in team]) for team in TEAMS]  # noqa: F841
                if DRAWN_BY:
                    SD = [sum([DB[s] for s in team]) for team in TEAMS]  # noqa: F841
            points = [0] * SIDE_COUNT
            tied = False
            wside = wseat = None
            if domino is not None:
                wseat = domino
                wside = w = SIDE_OF[domino]
                points[w] = DOMINO
            else:
                if INDIVIDUAL or LOWEST_SIDE:
                    low = min(SP)
                    lowest = ([SP.index(low)] if SP.count(low) == 1
                              else [i for i, v in enumerate(SP) if v == low])
                else:
                    low = min(P)
                    lowest = sorted({SIDE_OF[s] for s in SEATS if P[s] == low})
                if len(lowest) == 1:
                    wside = w = lowest[0]
                    if INDIVIDUAL:
                        wseat = w
                    else:
                        team = TEAMS[w]
                        best = min([P[s] for s in team])
                        wseat = min([s for s in team if P[s] == best])
                    points[w] = BLOCKED
                else:
                    tied = True
                    if TIE_EACH:
                        for w in lowest:
                            points[w] = BLOCKED
            if DRAW_COST:
                paid = 0
                for s in SEATS:
                    if DB[s]:
                        points[SIDE_OF[s]] -= DRAW_COST * DB[s]
                        paid += DRAW_COST * DB[s]
                if COST_TO_WINNER and wside is not None:
                    points[wside] += paid
        elif not GEN:
            wside, wseat, tied, points = settle(pips, counts, drawn_by, domino, DRAW_COST)
        placements = pos - sum(counts)
        draws = pos - DEALT
        if INLINE_SETTLE and not DRAW_COST and not TIE_EACH:
            if wside is not None:   # the round's one scorer
                scores[wside] += points[wside]
        else:
            for i, pts in enumerate(points):
                scores[i] += pts
        check_scores(scores)
        if GEN and wside is not None:
            rounds_won[wside] += 1
        result = "domino" if domino is not None else "blocked"
        if TXT and EVENTS:
            add(f'{{"event":"round_end","round":{rnd_no},"result":"{result}",'
                f'"winner":{"null" if wside is None else wside},"pips":[{ints(pips, N)}],'
                f'"points":[{ints(points, SIDE_COUNT)}],'
                f'"scores":[{ints(scores, SIDE_COUNT)}],'
                f'"play_points":[{ints(round_play, SIDE_COUNT)}]}}')
        elif REC and EVENTS:
            rec.append({"event": "round_end", "round": rnd_no, "result": result,
                        "winner": wside, "pips": pips, "points": list(points),
                        "scores": list(scores), "play_points": list(round_play)})
        elif TXT:
            add(f'{{"event":"round_end","round":{rnd_no},"result":"{result}",'
                f'"winner":{"null" if wside is None else wside},"pips":[{ints(pips, N)}],'
                f'"points":[{ints(points, SIDE_COUNT)}],'
                f'"scores":[{ints(scores, SIDE_COUNT)}]}}')
        elif REC:
            rec.append({"event": "round_end", "round": rnd_no, "result": result,
                        "winner": wside, "pips": pips, "points": list(points),
                        "scores": list(scores)})
        if SEEKS:
            turns = placements + passes + seek_turns - 1 if seek else placements + passes
        else:
            turns = placements + passes
        # by name; made in one step once specialised (engine.results.one_step_source)
        stats = RoundStats(
            round=rnd_no, leader=leader, result=result, winner=wside, winner_seat=wseat,
            tied_block=tied, points=tuple(points), scores=tuple(scores), turns=turns,
            placements=placements, draws=draws, passes=passes,
            decisions=placements + draws + passes, choice_points=choices, redeals=redeals,
            play_points=tuple(round_play) if EVENTS else (),
            extra_turns=extra_turns if EVENTS else 0, skips=skips if EVENTS else 0)
        add_round(stats)
        prev_leader, prev_winner = leader, wseat
        if LEAD_FORMULA:
            prev_side = wside
        if GEN:
            if MATCH_DUE:
                over, match_win = MATCH_OVER(rnd_no, scores, rounds_won)
        elif max(scores) >= TARGET:
            over, match_win = match_winner(scores, TARGET, PLAY_ON)
    if GEN and FINAL and over:
        core._final(match_win, rnd_no)
    if TXT:
        add(f'{{"event":"match_end","winner":{"null" if match_win is None else match_win},'
            f'"scores":[{ints(scores, SIDE_COUNT)}]}}')
        text = "\n".join(rec) + "\n"
        rec = None
    elif REC:
        rec.append({"event": "match_end", "winner": match_win, "scores": list(scores)})
    else:
        rec = None
    result = new(MatchResult)
    setattr_(result, "__dict__", {
        "ruleset": NAME, "players": N, "seed": seed, "teams": TEAMS,
        "winner": match_win, "scores": tuple(scores), "target": TARGET,
        "rounds": tuple(rounds), "events": rec, "capped": capped})
    if TXT:
        return result, text
    return result
