"""The field kinds: which names each formula field offers, and what it must produce.

A ruleset field names its kind (``x-formula`` in the schema); the checker allows
exactly the names of that kind, so "an unknown fact" errors list what the field offers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import BOOL, INT, PLAYER, SIDE, TILE, Type, list_of


@dataclass(frozen=True)
class FieldSpec:
    """One field kind: its names with their types, its result type, one line of help."""

    names: dict[str, Type]
    result: Type
    description: str


# What a finished round offers its settlement formulas, beyond the sides and seats.
ROUND_FACTS: dict[str, Type] = {
    "blocked": BOOL,            # the round ended blocked (else somebody went out)
    "round": INT,               # its number, from 1
    "target": INT,              # the match target
    "last_tile": TILE,          # the last tile placed
    "last_player": PLAYER,      # who placed it
    "both_ends": BOOL,          # it matched two or more open ends
    "ends": list_of(INT),       # the open end values at the end of the round
    "end_total": INT,           # the ends counted as all-fives games count them
    "boneyard": INT,            # tiles left in the boneyard
    "boneyard_pips": INT,       # their pips
    "boneyard_value": INT,      # their values (by tile_value)
    "passes": INT,              # passes this round
    "drawn": INT,               # tiles drawn this round
}
_TABLE = {"sides": list_of(SIDE), "seats": list_of(PLAYER), "players": INT}

# What every play-time event offers, whatever action fired it.
EVENT_FACTS: dict[str, Type] = {
    "player": PLAYER, "side": SIDE, "opponents": list_of(SIDE), "sides": list_of(SIDE),
    "players": INT, "ends": list_of(INT), "end_total": INT, "boneyard": INT, "round": INT,
    "target": INT, "passes_in_row": INT, "drawn_this_turn": INT,
    # the actor's hand after the action, and whether the tile at each open end (in the
    # order of ``ends``) is a double: read element by element (count(hand, t -> ...))
    "hand": list_of(TILE), "end_doubles": list_of(BOOL),
    # the table (engine.mechanisms.table): every tile down in the order placed, the line
    # through the opening tile from left to right, and the tile lying at each open end
    "board": list_of(TILE), "line": list_of(TILE), "end_tiles": list_of(TILE),
}

# The lists whose order is defined, so formulas may index them (``line[0]``, ``ends[-1]``):
# the board's in placement, line or end order, the sides and seats in index order, a
# round's points and scores by side. A hand or the playable tiles are sets: no index.
ORDERED = frozenset({"ends", "end_doubles", "end_tiles", "line", "board", "sides", "seats",
                     "opponents", "points", "scores"})

FIELDS: dict[str, FieldSpec] = {
    "hand_size": FieldSpec(
        {"players": INT, "max_pip": INT, "tile_count": INT}, INT,
        "tiles dealt to each player"),
    "tile_value": FieldSpec(
        {"tile": TILE}, INT,
        "what one tile left in a hand counts"),
    "set_keep": FieldSpec(
        {"tile": TILE, "max_pip": INT}, BOOL,
        "whether a tile of the double-max_pip set stays in the set"),
    "scoring": FieldSpec(
        {"winner": SIDE, "opponents": list_of(SIDE), **_TABLE, **ROUND_FACTS}, INT,
        "points the scoring side wins for a round"),
    "side_points": FieldSpec(
        {"side": SIDE, **_TABLE, **ROUND_FACTS}, INT,
        "points every side gets for a round (its own pips charged, bonuses)"),
    "rank": FieldSpec(
        {"side": SIDE, **_TABLE, **ROUND_FACTS}, INT,
        "what a blocked round compares between sides"),
    "draw_cost": FieldSpec(
        {"players": INT}, INT,
        "points one drawn tile costs"),
    "target": FieldSpec(
        {"players": INT, "partnerships": BOOL, "side_count": INT}, INT,
        "the match target (points, rounds, or rounds won)"),
    "event_place": FieldSpec(
        {**EVENT_FACTS, "tile": TILE, "opening": BOOL, "both_ends": BOOL}, INT,
        "a rule fired after a placement"),
    "event_draw": FieldSpec(
        {**EVENT_FACTS, "tile": TILE, "forced": BOOL}, INT,
        "a rule fired after a draw"),
    "event_pass": FieldSpec(
        dict(EVENT_FACTS), INT,
        "a rule fired after a pass"),
    "placement": FieldSpec(
        {"tile": TILE, "hand": list_of(TILE), "playable": list_of(TILE), "ends": list_of(INT),
         "end": INT, "boneyard": INT, "round": INT, "players": INT,
         # a board.layout board only (rules.checks): what the placement rules may ask of it
         "arm": INT, "spinners_complete": BOOL, "doubles_down": INT}, BOOL,
        "whether a placement is allowed"),
    "several": FieldSpec(
        {"tile": TILE, "hand": list_of(TILE), "playable": list_of(TILE), "ends": list_of(INT),
         "end": INT, "boneyard": INT, "round": INT, "players": INT,
         # the turn and the end, for a move of several tiles (engine.mechanisms.several)
         "first_turn": BOOL, "own_train": BOOL}, BOOL,
        "whether a tile may be part of a move of several tiles (or go down alone)"),
    "fit": FieldSpec(
        {"end": INT, "half": INT, "other": INT, "tile": TILE, "max_pip": INT}, BOOL,
        "whether a tile may go on an end with one of its halves against it"),
    "wild": FieldSpec(
        {"tile": TILE, "max_pip": INT}, BOOL,
        "whether a tile is wild (fits any open end)"),
    "opening": FieldSpec(
        {"tile": TILE, "hand": list_of(TILE), "round": INT, "players": INT, "max_pip": INT},
        BOOL, "whether a tile may open the round"),
    "lead": FieldSpec(
        {"players": INT, "leader": INT, "winner": INT, "winner_side": INT, "last_player": INT,
         "blocked": BOOL, "last_player_won": BOOL,
         # the last round's seats and sides as it ended (hands left, scores after it)
         "seats": list_of(PLAYER), "sides": list_of(SIDE)}, INT,
        "the seat that leads the next round"),
    "redeal": FieldSpec(
        {"seats": list_of(PLAYER), "players": INT, "round": INT}, BOOL,
        "whether the dealt hands are thrown in and dealt again"),
    "match_draw": FieldSpec(
        {"sides": list_of(SIDE), "round": INT, "players": INT, "target": INT}, BOOL,
        "whether an undecided match ends drawn"),
    "variable": FieldSpec(
        {"blocked": BOOL, "round": INT, "players": INT, "target": INT, "won": BOOL,
         "winner_side": INT, "points": list_of(INT), "scores": list_of(INT)}, INT,
        "a variable's value for the next round"),
    # declarations (engine.mechanisms.declarations): an option's values and bot preference
    "declare": FieldSpec(
        {"players": INT, "round": INT, "target": INT, "scores": list_of(INT),
         "hand": list_of(TILE), "seat": INT}, INT,
        "a value an option of a declaration sets, or how good it looks"),
    "claim": FieldSpec(
        {**EVENT_FACTS, "tile": TILE, "opening": BOOL, "both_ends": BOOL, "claimed": INT,
         "worth": INT}, INT,
        "points a claim earns, or pays each opponent"),
    "showdown": FieldSpec(
        {"player": PLAYER, "passes": INT, "players": INT, "round": INT, "target": INT}, INT,
        "points a seat that passed while able to place pays, or each opponent gains"),
    "final": FieldSpec(
        {"side": SIDE, "sides": list_of(SIDE), "players": INT, "target": INT, "round": INT},
        INT, "each side's final score"),
}

# A duty's ``met`` (events[].duty.met): the names of the bearer's placement, and the tile
# whose placement laid the duty (engine.mechanisms.duties).
FIELDS["duty_met"] = FieldSpec(
    {**FIELDS["event_place"].names, "duty_tile": TILE}, BOOL,
    "whether a placement by the duty's bearer meets it")

# The kinds whose formulas also read a ruleset's variables by name (``variables:``).
READS_VARIABLES = frozenset({
    "scoring", "side_points", "rank", "event_place", "event_draw", "event_pass",
    "event_place_condition", "event_draw_condition", "event_pass_condition", "lead",
    "match_draw", "final", "variable", "declare", "claim", "showdown", "duty_met"})

# An event's ``if`` and ``again`` are conditions over the same names.
for _after in ("place", "draw", "pass"):
    _spec = FIELDS[f"event_{_after}"]
    FIELDS[f"event_{_after}_condition"] = FieldSpec(_spec.names, BOOL, _spec.description)
