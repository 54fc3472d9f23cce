"""The match kernel as a template: the match loop's match (``engine.general_loop``), with every
rule a switch.

``generate.specialise`` keeps the lines of the switches a ruleset turns on and drops
the rest, and writes the ruleset's numbers in place of the ``$NAMES``: what is left is
one function with no test on a rule the ruleset does not use, no ``yield`` (every
seat decides in the kernel: the builtin ``random`` pick inlined, or a fast policy
called) and no record keeping unless asked for. Records come as event dicts (``REC``)
or, for a record file, as its JSON Lines text (``TXT``): the frequent events are then
strings made once per game (``PLACE_TXT``...) by the record encoder itself.

Directives, alone on a line (indentation ignored): ``#if EXPR``, ``#elif EXPR``,
``#else``, ``#endif``; ``EXPR`` is Python over the flags. The kernel must play every
match exactly as the loop does: ``tests/test_kernel.py`` plays every ruleset through
both and compares records and statistics.
"""

_TEMPLATE = r'''
def play(seed, uniform, more, policies, start_scores, max_rounds, view=None):
    # the shuffle (engine.streams.shuffler, inlined): deal k sorts the tiles on T words of
    # SHAKE-128(seed), four deals' words per call; hands unrolled over the deck's slots
    shuffle_key = b"%d:shuffle:" % seed
    made = 0
    block = None
#if GEN
    core = CORE     # the general loop's opening, lead and redeal methods, kept per kernel
    scores = list(start_scores) if start_scores else [0] * $SIDES
    rounds_won = [0] * $SIDES
    core.scores, core.rounds_won = scores, rounds_won   # read by its settlement and _final
#else
    scores = list(start_scores) if start_scores else [0] * $SIDES
#endif
    rounds = []
    add_round = rounds.append
#if LEAD_RANDOM
    lead_rng = HashStream(seed, "lead")
#else
    lead_rng = None
#endif
#if TXT
    rec = [match_start_text(seed)]
    add = rec.append
#elif REC
#if VIEW
    rec = view.rec      # what policies bound to the match read: the record, the live hands
    rec.append(match_start(seed))
#else
    rec = [match_start(seed)]
#endif
#endif
#if EVENTS and GEN
#if TXT
    spill = core.rec = []     # the events GeneralLoop._fire records, to write as text
#elif REC
    core.rec = rec
#endif
#endif
    prev_leader = prev_winner = None
    over, match_win, capped = False, None, False
    rnd_no = 0
    while not over:
        rnd_no += 1
        if rnd_no > max_rounds:
            capped = True
            break
#if LATER_ROTATE
#if DEAL_DEPENDENT
        choice = FIRST_LEADER
#endif
        if prev_leader is not None:
            pre = $NEXT_LEADER
        else:
            pre = before_deal(FIRST_LEADER, $N, lead_rng, TS, None, None, COUNT_FROM)
#else
        choice = FIRST_LEADER if rnd_no == 1 else LATER_LEADER
#if LEAD_FORMULA
        if choice == "formula" and prev_leader is not None:
            pre = core._lead_by_formula((prev_leader, prev_winner, prev_side, last_player,
                                         domino is None))
        elif choice == "rotate" and prev_leader is not None:
#else
        if choice == "rotate" and prev_leader is not None:
#endif
            pre = $NEXT_LEADER
        else:
#if LEAD_FORMULA
            pre = before_deal("lot" if choice == "formula" else choice, $N, lead_rng, TS,
                              prev_leader, prev_winner, COUNT_FROM)
#else
            pre = before_deal(choice, $N, lead_rng, TS, prev_leader, prev_winner, COUNT_FROM)
#endif
#endif
#if GEN_OPEN
        op = FIRST_OP if rnd_no == 1 else LATER_OP
#endif
#if OPEN_MASK
        amask = $AMASK          # the tiles the round's opening condition allows
        open_round = FIRST_OPEN if rnd_no == 1 else LATER_OPEN
#endif
        redeals = 0
        while True:
            j = made & 3
            if not j:
                block = words(shake(shuffle_key + (made >> 2).to_bytes(8, "little"))
                              .digest($KEY_BYTES))
            made += 1
            # the keys as a list: sorting on an array's items would make each int twice
            deck = sorted(FULL, key=block[j * $T:j * $T + $T].tolist().__getitem__)
            hands = $HANDS
            leader = pre
#if DEAL_DEPENDENT
            if leader is None:
                if choice == "highest_double":
                    found = highest_double_holder(hands, TS)
                    leader = found[0] if found else None
                else:
#if GEN_OPEN
                    leader = holder(hands, round_holder_tile(op, hands))
#else
                    leader = holder(hands, holder_tile(hands))
#endif
#endif
#if OPEN_ANY
            opener, omask, seek = leader, -1, 0
            break
#else
            opener = seek = None
#if REDEAL_INLINE
            $REDEAL_HEAD
            if $REDEAL_TEST:
                leader = None
            elif leader is not None:
#elif REDEAL_IF
            core.hands = hands
            if core._redeal_asked(rnd_no):
                leader = None
            elif leader is not None:
#else
#if GEN_OPEN
            core.hands = hands
#endif
            if leader is not None:
#endif
#if OPEN_MASK
                opener, omask, free, seek = open_round(amask, hands, leader, deck)
#elif GEN_OPEN
                opener, omask, free, seek = core._open(op, hands, leader, deck, $DEALT,
                                                       $DRAW_END, rnd_no, NEXT)
#else
                opener, omask, seek = opening(hands, leader, deck, $DEALT, $DRAW_END)
#endif
#if LEAD_FALLBACK
            elif op.if_unheld == "heaviest":   # GeneralLoop.run: the opening's fallback
                leader, ht = core._heaviest(hands)   # leads, where the lead names nobody
                opener, omask, free, seek = leader, 1 << ht, False, None
#endif
            if opener is not None:
                break
#if REC and GEN_OPEN
            # GeneralLoop.run: opener None with a seek, the leader draws the boneyard
            # out in vain; the deal is written with its leader, then the draws
            drew_out = seek is not None
#if TXT
            add(deal_text(rnd_no, leader if drew_out else None, hands, deck))
#else
            rec.append(deal_event(rnd_no, leader if drew_out else None, hands, deck))
#endif
            if drew_out:
                for t in deck[$DEALT:$DRAW_END]:
#if TXT
                    add(DRAW_TXT[leader * $T + t])
#else
                    rec.append({"event": "draw", "player": leader, "tile": [TL[t], TH[t]]})
#endif
#elif REC
#if TXT
            add(deal_text(rnd_no, None, hands, deck))
#else
            rec.append(deal_event(rnd_no, None, hands, deck))
#endif
#endif
            redeals += 1
            if redeals > $MAX_REDEALS:
                too_many_redeals(rnd_no)
#endif
#if REC
#if TXT
        add(deal_text(rnd_no, leader, hands, deck))
#else
        rec.append(deal_event(rnd_no, leader, hands, deck))
#endif
#endif
#if VIEW
        view.hands = hands
#endif
        pos = $DEALT
#if DRAWN_BY
        drawn_by = [0] * $N
#endif
        passes = choices = seek_turns = 0
#if EVENTS
        round_play = [0] * $SIDES    # points scored during play
        extra_turns = skips = 0
#if GEN
        core._round_play = round_play
#endif
#endif
        p = leader
#if GEN_OPEN
        core.hands = hands
        if seek is not None:   # GeneralLoop.run's seek: in turn, or the leader alone
            mode, test = seek
            while True:
                seek_turns += 1
                t = deck[pos]
                pos += 1
                hands[p] |= 1 << t
#if DRAWN_BY
                drawn_by[p] += 1
#endif
#if REC
#if TXT
                add(DRAW_TXT[p * $T + t])
#else
                rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
#endif
#endif
#if OPEN_MASK
                if test >> t & 1:      # the seek's mask
                    opener = p
                    omask = (1 << t) if op.tile != "any" else hands[p] & amask
                    break
#else
                if test(p, t):
                    opener = p
                    omask = (1 << t) if op.tile != "any" else core._allowed(op, hands[p], rnd_no)
                    break
#endif
                if mode == "turns":
                    p = $NEXT_SEAT
                elif pos >= $DRAW_END:   # drawn out in vain: the heaviest tile opens
                    opener, ht = core._heaviest(hands)
                    omask = 1 << ht
                    break
#elif SEEKS
        if seek:
            while True:
                seek_turns += 1
                t = deck[pos]
                pos += 1
                hands[p] |= 1 << t
#if DRAWN_BY
                drawn_by[p] += 1
#endif
#if REC
#if TXT
                add(DRAW_TXT[p * $T + t])
#else
                rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
#endif
#endif
                if (1 << t) & seek:
                    opener, omask = p, 1 << t
                    break
                p = $NEXT_SEAT
#endif
        p = opener
#if DRAWN
        drawn = 0
#endif
        while True:
            h = hands[p]
#if OPEN_MASK
            m = h if omask < 0 else (h & amask if free else omask)
#elif GEN_OPEN
            m = h if omask < 0 else (core._allowed(op, h, rnd_no) if free else omask)
#else
            m = h if omask < 0 else omask
#endif
#if VOL and GEN_OPEN
            can_draw = free and $DRAW_OK
            if can_draw or m & (m - 1):
                choices += 1
#elif VOL
            can_draw = omask < 0 and $DRAW_OK
            if can_draw or m & (m - 1):
                choices += 1
#else
            if m & (m - 1):
                choices += 1
#endif
#if UNI
            urnd = uniform[p]
            try:
                k = (urnd() * m.bit_count()) >> 32
            except StopIteration:
                urnd = uniform[p] = more(p)
                k = (urnd() * m.bit_count()) >> 32
            while k:
                m &= m - 1
                k -= 1
            a = ((m & -m).bit_length() - 1) << 2
#else
#if VOL
            a = policies[p](m, 0, can_draw)
#else
            a = policies[p](m, 0, False)
#endif
#endif
#if VOL
            if a == -1:
                t = deck[pos]
                pos += 1
                hands[p] = h | (1 << t)
#if DRAWN
                drawn += 1
#endif
#if DRAWN_BY
                drawn_by[p] += 1
#endif
#if REC
#if TXT
                add(DRAW_TXT[p * $T + t])
#else
                rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
#endif
#endif
                continue
#endif
            t = a >> 2
            h ^= 1 << t
            hands[p] = h
            L, R = TL[t], TH[t]
#if LAST
            last_player, last_tile = p, t
#endif
#if GEN or EVENTS
            last_both, lt, rt, first_t = False, t, t, t
#endif
#if REC
#if TXT
            add(PLACE_TXT[(p * $T + t) * 3])
#else
            rec.append({"event": "place", "player": p, "tile": [L, R], "end": None})
#endif
#endif
            break
#if EVENTS
        again = skip = 0
#if EV_PLACE
        $EV_OPEN_CODE
#endif
#endif
#if SPINNER
        # the first double is a spinner (engine.board.Board, inline): L R U D the ends'
        # values, lt rt ut dt the last tile at each (-1: none on an arm yet), cnt the ends
        # open (4 once both sides of the spinner are played on); spin_need the spinner's
        # sides still to be played on, a bit per end (-1: no double placed yet)
        U = D = 0
        ut = dt = -1
        cnt = 2
        if L == R:
            spin_need, spin_value = 3, L
        else:
            spin_need, spin_value = -1, 0
#include TURN_START
            while True:
                mL = h & PM[L]
                mR = h & PM[R]
#if UNI
                if cnt == 2:   # the spinner not open (yet): the plain loop's pick
                    if mL or mR:
#if BOTH
                        both_m = mL & mR        # the tiles that fit two ends
#endif
                        nL = mL.bit_count()
                        k = nL + mR.bit_count()
#if VOL
                        if k > 1 or $DRAW_OK:
#else
                        if k > 1:
#endif
                            choices += 1
                        try:
                            k = (urnd() * k) >> 32
                        except StopIteration:
                            urnd = uniform[p] = more(p)
                            k = (urnd() * k) >> 32
                        # the end played on, and the spinner's bookkeeping: the first double
                        # placed sets spin_need; both its sides played on open up and down
                        if k < nL:
                            while k:
                                mL &= mL - 1
                                k -= 1
                            t = (mL & -mL).bit_length() - 1
                            L = PIPS[t] - L
                            lt = t
#if REC
                            e = 0
#endif
                            if spin_need < 0:
                                if DBL[t]:
                                    spin_need, spin_value = 1, L
                            elif spin_need & 1:
                                spin_need ^= 1
                                if not spin_need:
                                    U = D = spin_value
                                    cnt = 4
                        else:
                            k -= nL
                            while k:
                                mR &= mR - 1
                                k -= 1
                            t = (mR & -mR).bit_length() - 1
                            R = PIPS[t] - R
                            rt = t
#if REC
                            e = 1
#endif
                            if spin_need < 0:
                                if DBL[t]:
                                    spin_need, spin_value = 2, R
                            elif spin_need & 2:
                                spin_need ^= 2
                                if not spin_need:
                                    U = D = spin_value
                                    cnt = 4
                    else:
                        t = -1
                else:          # four ends open: the spinner's bookkeeping is over
                    mU = h & PM[U]
                    mD = h & PM[D]
                    if mL or mR or mU or mD:
#if BOTH
                        both_m = (mL | mR) & (mU | mD) | mL & mR | mU & mD
#endif
                        nL = mL.bit_count()
                        nR = mR.bit_count()
                        nU = mU.bit_count()
                        k = nL + nR + nU + mD.bit_count()
#if VOL
                        if k > 1 or $DRAW_OK:
#else
                        if k > 1:
#endif
                            choices += 1
                        try:
                            k = (urnd() * k) >> 32
                        except StopIteration:
                            urnd = uniform[p] = more(p)
                            k = (urnd() * k) >> 32
                        if k < nL:
                            while k:
                                mL &= mL - 1
                                k -= 1
                            t = (mL & -mL).bit_length() - 1
                            L = PIPS[t] - L
                            lt = t
#if REC
                            e = 0
#endif
                        elif k < nL + nR:
                            k -= nL
                            while k:
                                mR &= mR - 1
                                k -= 1
                            t = (mR & -mR).bit_length() - 1
                            R = PIPS[t] - R
                            rt = t
#if REC
                            e = 1
#endif
                        elif k < nL + nR + nU:
                            k -= nL + nR
                            while k:
                                mU &= mU - 1
                                k -= 1
                            t = (mU & -mU).bit_length() - 1
                            U = PIPS[t] - U
                            ut = t
#if REC
                            e = 2
#endif
                        else:
                            k -= nL + nR + nU
                            while k:
                                mD &= mD - 1
                                k -= 1
                            t = (mD & -mD).bit_length() - 1
                            D = PIPS[t] - D
                            dt = t
#if REC
                            e = 3
#endif
                    else:
                        t = -1
#else
                if cnt == 2:
                    mU = mD = 0
                else:
                    mU = h & PM[U]
                    mD = h & PM[D]
                t = -1
                if mL or mR or mU or mD:
#if BOTH
                    both_m = (mL | mR) & (mU | mD) | mL & mR | mU & mD
#endif
                    k = mL.bit_count() + mR.bit_count() + mU.bit_count() + mD.bit_count()
#if VOL
                    can_draw = $DRAW_OK
                    if k > 1 or can_draw:
                        choices += 1
                    if cnt == 4:
                        a = policies[p](mL, mR, can_draw, mU, mD)
                    else:
                        a = policies[p](mL, mR, can_draw)
#else
                    if k > 1:
                        choices += 1
                    if cnt == 4:
                        a = policies[p](mL, mR, False, mU, mD)
                    else:
                        a = policies[p](mL, mR, False)
#endif
                    if a < 0:
                        t = -2           # the policy draws
                    else:
                        t, e = a >> 2, a & 3
                        if e == 0:
                            L = PIPS[t] - L
                            lt = t
                        elif e == 1:
                            R = PIPS[t] - R
                            rt = t
                        elif e == 2:
                            U = PIPS[t] - U
                            ut = t
                        else:
                            D = PIPS[t] - D
                            dt = t
                        if spin_need > 0:
                            if spin_need >> e & 1:
                                spin_need &= ~(1 << e)
                                if not spin_need:   # both sides played on: up and down open
                                    U = D = spin_value
                                    cnt = 4
                        elif spin_need < 0 and e < 2 and TL[t] == TH[t]:
                            spin_need, spin_value = 1 << e, TL[t]
#endif
                if t >= 0:
#if LAST
                    last_player, last_tile = p, t
#endif
#if BOTH
                    last_both = (both_m >> t & 1) == 1
#endif
                    h ^= 1 << t
                    hands[p] = h
#if PRIOR_PASSES
#if TURNS
                    prior = run_passes   # passes in a row before this action
#else
                    prior = npass
#endif
#endif
                    npass = 0
#if REC
#if TXT
                    add(PLACE_TXT[(p * $T + t) * 3 + 1 + e] if e < 2
                        else ARM_TXT[(p * $T + t) * 2 + e - 2])
#else
                    rec.append({"event": "place", "player": p, "tile": [TL[t], TH[t]],
                                "end": END_NAMES[e]})
#endif
#endif
#if TURNS
                    idle = run_passes = 0
#endif
#if EVENTS
#if EV_PLACE
                    $EV_PLACE_CODE
#endif
#endif
                    if not h:
                        domino, npass = p, $N
                    break
#if not UNI
                elif t == -2:
#if EV_DRAW
                    forced = False
#else
                    pass
#endif
#endif
#include PASS_OR_DRAW
#else
#include TURN_START
            while True:
                mL = h & PM[L]
                mR = h & PM[R]
#if RESTRICT
                fits = mL | mR
#if RESTRICT_INLINE
                if $RESTRICT_FITS:   # a tile the restrictions could forbid fits
                    mL, mR = narrow(mL, mR, h, L, R, pos, rnd_no)
#else
                if fits:   # narrowed once per position the restrictions tell apart
                    key = $RESTRICT_KEY
                    got = RESTRICTED.get(key)
                    if got is None:
                        got = restrict(key, mL, mR, h, L, R, $T - pos, rnd_no)
                    mL, mR = got
#endif
#endif
                if mL or mR:
#if UNI
                    nL = mL.bit_count()
                    k = nL + mR.bit_count()
#if VOL
                    if k > 1 or $DRAW_OK:
#else
                    if k > 1:
#endif
                        choices += 1
                    try:
                        k = (urnd() * k) >> 32
                    except StopIteration:
                        urnd = uniform[p] = more(p)
                        k = (urnd() * k) >> 32
                    if k < nL:
                        while k:
                            mL &= mL - 1
                            k -= 1
                        b = mL & -mL
                        t = b.bit_length() - 1
#if LAST
                        last_player, last_tile = p, t
#endif
#if GEN or EVENTS
                        lt = t
#if BOTH
                        last_both = ((PM[L] & PM[R]) >> t & 1) == 1
#endif
#endif
                        L = PIPS[t] - L
#if REC
#if TXT
                        end = 1
#else
                        end = "left"
#endif
#endif
                    else:
                        k -= nL
                        while k:
                            mR &= mR - 1
                            k -= 1
                        b = mR & -mR
                        t = b.bit_length() - 1
#if LAST
                        last_player, last_tile = p, t
#endif
#if GEN or EVENTS
                        rt = t
#if BOTH
                        last_both = ((PM[L] & PM[R]) >> t & 1) == 1
#endif
#endif
                        R = PIPS[t] - R
#if REC
#if TXT
                        end = 2
#else
                        end = "right"
#endif
#endif
                    h ^= b
                    hands[p] = h
#if PRIOR_PASSES
#if TURNS
                    prior = run_passes   # passes in a row before this action
#else
                    prior = npass
#endif
#endif
                    npass = 0
#if REC
#if TXT
                    add(PLACE_TXT[(p * $T + t) * 3 + end])
#else
                    rec.append({"event": "place", "player": p, "tile": [TL[t], TH[t]],
                                "end": end})
#endif
#endif
#if TURNS
                    idle = run_passes = 0
#endif
#if EVENTS
#if EV_PLACE
                    $EV_PLACE_CODE
#endif
#endif
                    if not h:
                        domino, npass = p, $N
                    break
#else
#if VOL
                    can_draw = $DRAW_OK
                    if can_draw or (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                        choices += 1
                    a = policies[p](mL, mR, can_draw)
                    if a >= 0:
#else
                    if (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                        choices += 1
                    a = policies[p](mL, mR, False)
                    if a >= 0:
#endif
                        t = a >> 2
                        h ^= 1 << t
                        hands[p] = h
#if PRIOR_PASSES
#if TURNS
                        prior = run_passes   # passes in a row before this action
#else
                        prior = npass
#endif
#endif
                        npass = 0
#if LAST
                        last_player, last_tile = p, t
#endif
#if BOTH
                        last_both = ((PM[L] & PM[R]) >> t & 1) == 1
#endif
                        if a & 3:
#if GEN or EVENTS
                            rt = t
#endif
                            R = PIPS[t] - R
#if REC
#if TXT
                            add(PLACE_TXT[(p * $T + t) * 3 + 2])
#else
                            rec.append({"event": "place", "player": p,
                                        "tile": [TL[t], TH[t]], "end": "right"})
#endif
#endif
                        else:
#if GEN or EVENTS
                            lt = t
#endif
                            L = PIPS[t] - L
#if REC
#if TXT
                            add(PLACE_TXT[(p * $T + t) * 3 + 1])
#else
                            rec.append({"event": "place", "player": p,
                                        "tile": [TL[t], TH[t]], "end": "left"})
#endif
#endif
#if TURNS
                        idle = run_passes = 0
#endif
#if EVENTS
#if EV_PLACE
                        $EV_PLACE_CODE
#endif
#endif
                        if not h:
                            domino, npass = p, $N
                        break
#if EV_DRAW
                    forced = False
#endif
#endif
#include PASS_OR_DRAW
#endif
        # -- settlement
#if GEN
        pips, wside, wseat, tied, points = SETTLE($ROUND_END)
        counts = list(map(bit_count, hands))
#else
#if TWO_CHUNKS
        pips = [LO[h & 16383] + HI[h >> 14] for h in hands]
#else
        pips = list(map(VALUE_OF, hands))
#endif
        counts = list(map(bit_count, hands))
#if INLINE_SETTLE
        P = V = pips
        C = counts
#if DRAWN_BY
        DB = drawn_by
#endif
#if INDIVIDUAL
        SP = SV = P
        ST = C
#if DRAWN_BY
        SD = DB
#endif
#else
        SP = SV = [sum([P[s] for s in team]) for team in TEAMS]
        ST = [sum([C[s] for s in team]) for team in TEAMS]
#if DRAWN_BY
        SD = [sum([DB[s] for s in team]) for team in TEAMS]
#endif
#endif
        points = [0] * $SIDES
        tied = False
        wside = wseat = None
        if domino is not None:
            wseat = domino
            wside = w = SIDE_OF[domino]
            points[w] = $DOMINO
        else:
#if INDIVIDUAL or LOWEST_SIDE
            low = min(SP)
            lowest = ([SP.index(low)] if SP.count(low) == 1
                      else [i for i, v in enumerate(SP) if v == low])
#else
            low = min(P)
            lowest = sorted({SIDE_OF[s] for s in SEATS if P[s] == low})
#endif
            if len(lowest) == 1:
                wside = w = lowest[0]
#if INDIVIDUAL
                wseat = w
#else
                team = TEAMS[w]
                best = min([P[s] for s in team])
                wseat = min([s for s in team if P[s] == best])
#endif
                points[w] = $BLOCKED
            else:
                tied = True
#if TIE_EACH
                for w in lowest:
                    points[w] = $BLOCKED
#endif
#if DRAW_COST
        paid = 0
        for s in SEATS:
            if DB[s]:
                points[SIDE_OF[s]] -= $DRAW_COST * DB[s]
                paid += $DRAW_COST * DB[s]
#if COST_TO_WINNER
        if wside is not None:
            points[wside] += paid
#endif
#endif
#else
        wside, wseat, tied, points = settle(pips, counts, drawn_by, domino, $DRAW_COST)
#endif
#endif
        placements = pos - sum(counts)
        draws = pos - $DEALT
#if INLINE_SETTLE and not DRAW_COST and not TIE_EACH
        if wside is not None:   # the round's one scorer
            scores[wside] += points[wside]
#else
        for i, pts in enumerate(points):
            scores[i] += pts
#endif
        check_scores(scores)
#if GEN
        if wside is not None:
            rounds_won[wside] += 1
#endif
        result = "domino" if domino is not None else "blocked"
#if TXT and EVENTS
        add(f'{{"event":"round_end","round":{rnd_no},"result":"{result}",'
                   f'"winner":{"null" if wside is None else wside},"pips":[$PIPS_INTS],'
                   f'"points":[$POINTS_INTS],"scores":[$SCORES_INTS],'
                   f'"play_points":[$PLAY_INTS]}}')
#elif REC and EVENTS
        rec.append({"event": "round_end", "round": rnd_no, "result": result,
                    "winner": wside, "pips": pips, "points": list(points),
                    "scores": list(scores), "play_points": list(round_play)})
#elif TXT
        add(f'{{"event":"round_end","round":{rnd_no},"result":"{result}",'
                   f'"winner":{"null" if wside is None else wside},"pips":[$PIPS_INTS],'
                   f'"points":[$POINTS_INTS],"scores":[$SCORES_INTS]}}')
#elif REC
        rec.append({"event": "round_end", "round": rnd_no, "result": result,
                    "winner": wside, "pips": pips, "points": list(points),
                    "scores": list(scores)})
#endif
#if SEEKS
        turns = placements + passes + seek_turns - 1 if seek else placements + passes
#else
        turns = placements + passes
#endif
        stats = $ROUND_STATS
        add_round(stats)
        prev_leader, prev_winner = leader, wseat
#if LEAD_FORMULA
        prev_side = wside
#endif
#if GEN
        if $MATCH_DUE:
            over, match_win = MATCH_OVER(rnd_no, scores, rounds_won)
#else
        if max(scores) >= $TARGET:
            over, match_win = match_winner(scores, $TARGET, $PLAY_ON)
#endif
#if GEN and FINAL
    if over:
        core._final(match_win, rnd_no)
#endif
#if TXT
    add(f'{{"event":"match_end","winner":{"null" if match_win is None else match_win},'
               f'"scores":[$SCORES_INTS]}}')
    text = "\n".join(rec) + "\n"
    rec = None
#elif REC
    rec.append({"event": "match_end", "winner": match_win, "scores": list(scores)})
#else
    rec = None
#endif
    result = new(MatchResult)
    setattr_(result, "__dict__", {
        "ruleset": NAME, "players": $N, "seed": seed, "teams": TEAMS,
        "winner": match_win, "scores": tuple(scores), "target": $TARGET,
        "rounds": tuple(rounds), "events": rec, "capped": capped})
#if TXT
    return result, text
#else
    return result
#endif
'''

# a round's turns, to the start of each turn's choice: the plain rotation, or the general
# loop's turn order where events grant or skip turns (npass is who passed since the last
# placement or draw, a bit per seat; idle the turns since then)
_TURN_START = r'''
        npass = 0
        domino = None
        if not h:
            domino, npass = p, $N
#if TURNS
        idle = run_passes = turns_taken = 0
        while domino is None:
            if npass == $EVERYONE or idle >= $IDLE_MAX:
                break
            if again:
                again -= 1
                extra_turns += 1
            else:
                p = $NEXT_SEAT
                while skip > 0 and idle < $IDLE_MAX:
                    skip -= 1
                    skips += 1
                    idle += 1
#if TXT
                    add(SKIP_TXT[p])
#elif REC
                    rec.append({"event": "skip", "player": p})
#endif
                    p = $NEXT_SEAT
                if idle >= $IDLE_MAX:   # a skip completed two idle turns: blocked
                    break
#if AGAIN
            turns_taken += 1
            if turns_taken > $MAX_TURNS:
                round_too_long(rnd_no)
#endif
#else
        while npass < $N:
            p = $NEXT_SEAT
#endif
            h = hands[p]
#if UNI
            urnd = uniform[p]
#endif
#if DRAWN
            drawn = 0
#endif
'''

# a turn's end when nothing is placed (a forced draw, or a pass), then the draw itself:
# the same on two ends and with a spinner's four
_PASS_OR_DRAW = r'''
#if STUCK_DRAW and RESTRICT_PASS
                elif $DRAW_OK and not fits:   # fitting tiles all forbidden: a pass
#elif STUCK_DRAW
                elif $DRAW_OK:
#endif
#if STUCK_DRAW and EV_DRAW
                    forced = True
#elif STUCK_DRAW
                    pass
#endif
                else:
                    hands[p] = h       # a draw before the pass changed it
                    passes += 1
#if TURNS
                    npass |= 1 << p
                    idle += 1
                    run_passes += 1
#else
                    npass += 1
#if EV_PASS
                    run_passes = npass
#endif
#endif
#if REC
#if TXT
                    add(PASS_TXT[p])
#else
                    rec.append({"event": "pass", "player": p})
#endif
#endif
#if EV_PASS
                    $EV_PASS_CODE
#endif
                    break
#if PRIOR_PASSES
#if TURNS
                prior = run_passes   # passes in a row before this action
#else
                prior = npass
#endif
#endif
                npass = 0      # a draw: the passes in a row start again
#if TURNS
                idle = run_passes = 0
#endif
#include DRAW_ONE
#if CHAIN
                # stuck: draw on until a tile fits, without going round the turn again
                fit = $FIT
                while not h & fit and $DRAW_OK:
#include DRAW_ONE_MORE
#endif
'''

# one tile drawn, and what each draw records and fires (the chain repeats it)
_DRAW_ONE = r'''
                t = deck[pos]
                pos += 1
                h |= 1 << t
#if VIEW or FIRE
                hands[p] = h
#endif
#if DRAWN
                drawn += 1
#endif
#if DRAWN_BY
                drawn_by[p] += 1
#endif
#if REC
#if TXT
                add(DRAW_TXT[p * $T + t])
#else
                rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
#endif
#endif
#if EV_DRAW
                $EV_DRAW_CODE
#endif
'''


def _indented(snippet: str, by: str) -> str:
    """``snippet`` one level deeper (a loop's body), its ``#if`` lines left at the margin."""
    return "".join(line if line.lstrip().startswith("#") else by + line
                   for line in snippet.lstrip("\n").splitlines(keepends=True))


TEMPLATE = (_TEMPLATE.replace("#include TURN_START\n", _TURN_START.lstrip("\n"))
            .replace("#include PASS_OR_DRAW\n", _PASS_OR_DRAW.lstrip("\n"))
            .replace("#include DRAW_ONE\n", _DRAW_ONE.lstrip("\n"))
            .replace("#include DRAW_ONE_MORE\n", _indented(_DRAW_ONE, "    ")))
