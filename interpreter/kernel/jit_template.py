"""The JIT kernel's arrays by name: each rule's number in ``Q``, each column of a row, each fact.

The kernel is ``jit_loop``: the match loop as real Python, specialised per kernel by its
syntax tree (``specialise_kernel.specialised_module``, from ``jit_kernel.kernel_source``).
What it and ``jit_kernel`` exchange travels as int64 arrays, and this module names every
place in them: the ruleset's numbers and switches in ``Q`` (``PARAMS``, then
``PLAY_PARAMS``, read by the house rules' ``GEN`` lines only), a round's row
(``ROUND_COLUMNS``), a match's (``MATCH_COLUMNS``), the facts a house-rule formula program
reads (``FACTS``, ``PLAY_FACTS``) and its tables (``TABLES``). ``INDEXES`` and
``PLAY_INDEXES`` turn them into the kernel's constants (``Q_N``, ``R_TURNS``, ...), written
into its source as numbers, so no position is written anywhere else.
"""

ROUND_COLUMNS = ("round", "leader", "result", "winner", "winner_seat", "tied_block", "turns",
                 "placements", "draws", "passes", "decisions", "choice_points", "redeals",
                 "extra_turns", "skips")   # then points, scores and play-time points per side
MATCH_COLUMNS = ("winner", "capped", "rounds", "first_row")   # then the final scores per side,
# then (GEN lines) the variables' sum as the match ended and the mechanisms' counters
# (COUNTED: engine.results.MECHANISM_COUNTERS, kept in F as the match is played)
COUNTED = ("variable_sets", "duties_laid", "duties_failed", "duties_met", "leads_handed")

# the integer parameters, by position in the kernel's ``Q`` array
PARAMS = ("N", "SIDES_N", "T", "HAND", "DEALT", "DRAW_END", "LIMIT", "DRAW_COST", "TARGET",
          "VOL", "STUCK_DRAW", "REQ_TILE", "OPENER_HOLDER", "DRAW_IN_TURN", "FIRST_CODE",
          "LATER_CODE", "COUNT_FROM_PREV", "INDIVIDUAL", "LOWEST_SIDE", "TIE_EACH",
          "COST_TO_WINNER", "PLAY_ON", "MAX_REDEALS", "DOUBLES_MASK",
          # the GEN lines' switches (jit_house.params): the settlement, match end, opening
          "DOMINOER", "RANK_HOW", "LAST_TWO", "TIE_CODE", "MIN_START", "EXACT", "END_CODE",
          "LOWEST_WINS", "O1_TILE", "O1_HOLDER", "O1_UNHELD", "O1_LACKING",
          "O1_AMASK", "O2_TILE", "O2_HOLDER", "O2_UNHELD", "O2_LACKING", "O2_AMASK",
          # where each formula's program starts in CODE (jit_formula), -1: none
          "F_DOMINO", "F_BLOCKED", "F_RANK", "F_EVERY_SIDE", "F_DRAW_IF", "F_FINAL", "F_LEAD",
          "F_REDEAL")
# the GEN lines' switches of what acts during play (jit_house.params), after PARAMS in Q:
# read only by the GEN lines, so the plain game's kernel source does not name them
# RIGHT: play goes to the right (play.direction: right); F_RESTRICT: where the placement
# restrictions' program starts in CODE (-1: none), R_SURE: where the tiles they allow
# whatever else holds start (a mask per end number), WAIVE / PASS_FORBIDDEN: their
# if_none_allowed
# EV_PLACE / EV_DRAW / EV_PASS: where the events after each action start in CODE
# (jit_events; -1: none); TURNS: the general loop's turn order (turns granted or skipped,
# passes at will); AT_WILL, ENDS_TURN, EXACTLY, TLIMIT: the turn options
# (engine.mechanisms.turn_options; TLIMIT the turn's most draws)
# SPIN: the first double spins (board.spinner: jit_board); FIT: a fit rule (matching), its
# tables at FIT_AT in CODE (jit_matching.tables), the fitting masks being PM itself
# IN_PLAY: the match may end mid-round (match.ends_in_play: match.py's piece); DUTIES: some event
# lays a duty (jit_duties)
# LEFT_TO: who takes the tiles the hands leave (deal.leftover: leftover.LEFTOVER_CODES, 0
# none); TURN_UP: the stock's first tile starts the line (deal.turn_up: turn_up's piece)
# SIDE_OUT: play goes on after a seat is out until its side is (play.until: side_out's)
# SECONDS: the second copies' mask when every tile is held twice (set.copies: jit_copies)
# BLIND: hidden hands played from the front of a row (deal.blind: blind.py's pieces; with TURNS)
# DECL_START / DECL_PLACE / SHOWDOWN: where the declarations of each moment and the
# showdown start in CODE (jit_declare; -1: none)
# SEVERAL: where play.several's block starts in CODE (jit_several; -1: a tile a move)
# LAYOUT: a shaped board (board.layout: jit_layout, its shape as one number; 0 none)
# O_ROUNDS: where the opening masks of the match's rounds start in CODE, one a round, for
# an opening condition reading the round (-1: O1_AMASK, O2_AMASK)
# O_ALLOW: where the opening conditions asked of each hand start in CODE (the first round's
# program, the later rounds'), for one reading the hand or the round of a match of no fixed
# length (jit_opening_allow; -1: the masks above)
# ACROSS: a double at an end counts both halves in the ends' total (matching.doubles:
# across; in line, one)
# SETTLE_BOARD: a settlement formula reads the board as the round left it (ends, end_total,
# both_ends: jit_house.settle_reads_board): the kernel keeps whether the last placement
# fitted two or more ends and writes the board's facts as events read them before the
# round is scored (a test a round and one a placement for every other ruleset)
PLAY_PARAMS = ("RIGHT", "F_RESTRICT", "R_SURE", "WAIVE", "PASS_FORBIDDEN",
               "EV_PLACE", "EV_DRAW", "EV_PASS", "TURNS", "AT_WILL", "ENDS_TURN", "EXACTLY",
               "TLIMIT", "MAX_TURNS", "SPIN", "FIT", "FIT_AT", "IN_PLAY", "DUTIES", "LEFT_TO",
               "TURN_UP", "SIDE_OUT", "SECONDS", "BLIND", "DECL_START", "DECL_PLACE",
               "SHOWDOWN", "SEVERAL", "LAYOUT", "O_ROUNDS", "O_ALLOW", "ACROSS",
               "SETTLE_BOARD")
# the facts a house-rule formula program reads, by their place in its F array, and the rows
# of its TAB array: per side, per seat, per tile (jit_formula)
FACTS = ("blocked", "round", "target", "players", "last_tile", "last_player", "passes",
         "drawn", "boneyard", "winner", "side", "wside", "match_win", "leader", "lead_winner",
         "winner_side", "lead_last", "lead_blocked", "last_player_won", "round_won", "pos")
# and after them (GEN lines only) a placement's: the tile, the end's number, the hand and
# the playable tiles as masks; an event's (jit_events): the open ends and their total,
# the action's facts, the tiles at the line's two ends (end_tiles) and a duty's tile; a
# declaration's (jit_declare): the chooser's seat, a claim's number and its worth, a
# seat's passes while able to place; a move of several tiles' (jit_several): the seat's
# first turn of the round, the end its own train; then what no formula reads:
# match.ends_in_play (in_play), set once a batch, and whether an event's points have won
# the match (reached); how many event rules laying a duty fired in the last action
# (fired: listed after the owed pairs, jit_events.fired_at, for jit_duties.lay), how many
# of them make the next player draw (owed: each a pair, its rule and tiles, after the
# variables, for jit_events.pay_draws); a spinner's arms as events read them (their ends,
# how many ends are open, the tiles at the arms' ends: jit_events.arm_facts); a shaped
# board's for a placement restriction (the end's arm, whether no spinner waits, the
# doubles down) and the counters (COUNTED); then the variables (X_VARS); after the
# counters a shaped board's open ends as events read them (``ends``, ``end_tiles``: how
# many, each one's element of ``x -> ...`` a nesting depth, then each end's value and the
# tile lying there, in the order they opened: jit_layout.list_facts, read by
# jit_formula's loops over them)
SHAPED_ENDS = 62               # the most ends a shaped board opens in a round (jit_layout.MAXID)
EACH_DEPTH = 4                 # ``x -> ...`` over them nested at most this deep
PLAY_FACTS = ("tile", "end", "hand", "playable", "end_l", "end_r", "end_total", "opening",
              "both_ends", "forced", "passes_in_row", "drawn_this_turn", "end_lt", "end_rt",
              "duty_tile", "seat", "claimed", "worth", "reneged", "first_turn", "own_train",
              "in_play", "reached", "fired", "owed", "end_u", "end_d", "ends_open", "end_ut",
              "end_dt", "arm", "spinners_complete", "doubles_down", *COUNTED,
              "shaped_n", *(f"each{d}" for d in range(EACH_DEPTH)),
              *(f"shaped_end{k}" for k in range(SHAPED_ENDS)),
              *(f"shaped_tile{k}" for k in range(SHAPED_ENDS)))
TABLES = ("SP", "SV", "ST", "SD", "SQ", "scores", "rounds_won", "P", "V", "C", "DB", "DQ",
          "TL", "TH", "PIPS", "VALUES")
# every index into those arrays by name, from the lists above: Q_DRAW_END is the draw end's
# place in Q, R_TURNS a round row's turns, R_POINTS where its points per side start (then its
# scores), M_FIRST_ROW a match row's first round row. The kernel module and jit_kernel read
# them; no position is written anywhere else.
INDEXES = {**{f"Q_{name}": i for i, name in enumerate(PARAMS)},
           **{f"R_{name.upper()}": i for i, name in enumerate(ROUND_COLUMNS)},
           "R_POINTS": len(ROUND_COLUMNS),
           **{f"M_{name.upper()}": i for i, name in enumerate(MATCH_COLUMNS)},
           "M_SCORES": len(MATCH_COLUMNS),
           **{f"X_{name.upper()}": i for i, name in enumerate(FACTS)},
           **{f"T_{name.upper()}": i for i, name in enumerate(TABLES)}}
PLAY_INDEXES = {**{f"Q_{name}": len(PARAMS) + i for i, name in enumerate(PLAY_PARAMS)},
                **{f"X_{name.upper()}": len(FACTS) + i for i, name in enumerate(PLAY_FACTS)},
                "X_VARS": len(FACTS) + len(PLAY_FACTS), "COUNTED_N": len(COUNTED)}
# lead choosers and followers as codes (``leaders.before_deal``'s words)
LEAD_CODES = {"seat_zero": 0, "lot": 1, "rotate": 2, "same": 3, "winner": 4,
              "draw_highest_tile": 5, "exposed_tiles": 6, "highest_double": 7,
              "opening_tile_holder": 8, "formula": 9}
REQ_ANY, REQ_HIGHEST_DOUBLE = -1, -2
