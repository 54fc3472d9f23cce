"""``Rules``: everything the engine needs to play one ruleset, as plain values and callables.

This is the contract between ``dominorules.rules`` (which turns YAML into it, once
per ruleset) and the engine (which runs tight code over it). It knows nothing of
YAML, schemas or the expression language: formulas arrive already compiled to
Python callables, named choices as plain strings (the ``*_CHOICES`` tuples below
list them; the schema's enums are the same words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .mechanisms.layout import Shape
from .mechanisms.matching import FitRule

# Who leads a round. The first round may use any "chooser"; later rounds may also
# use the "followers" (rotate / same / winner), which need a previous round.
LEAD_CHOOSERS = (
    "lot",                  # uniform random seat (the match's RNG)
    "seat_zero",            # seat 0
    "highest_double",       # holder of the highest double dealt; nobody holds one: redeal
    "opening_tile_holder",  # holder of the required opening tile (opening.tile is a tile)
    "draw_highest_tile",    # each draws a tile from a shuffled full set; highest pips leads,
                            # ties draw again among the tied (tiles returned)
    "exposed_tiles",        # each exposes a random tile; (total % players) + 1 is the leader's
                            # 1-based number counted from LEAD_COUNT_FROM
)
LEAD_FOLLOWERS = (
    "rotate",   # one seat clockwise from the previous round's leader
    "same",     # the previous round's leader again
    "winner",   # the seat that won the previous round (domino, or lowest hand when blocked);
                # no winner (tied block): the previous leader again
)
LEAD_COUNT_FROM = ("seat_zero", "previous_leader")

OPENING_TILES = ("any", "highest_double")  # or a specific tile, given as (low, high)
OPENERS = ("leader", "holder")             # who opens when a specific tile is required
IF_UNHELD = ("redeal", "draw_in_turn", "heaviest")  # required tile in no hand
# a player with no placement: draws (if allowed) or passes
STUCK_CHOICES = ("draw", "pass")
BLOCKED_WINNERS = ("lowest_hand", "lowest_side", "lowest", "highest")  # the last two: by rank
# tie: nobody scores / each tied side scores / the tied side of the last placer / of the next
BLOCKED_TIES = ("nothing", "each", "last_player", "next_player")
DRAW_COST_TO = ("nobody", "round_winner")  # a drawn tile's cost: simply lost, or paid to the winner
# tie for highest at/over target: drawn match / another round
MATCH_TIES = ("draw", "play_on")

# -- house-rule mechanisms (all optional: their defaults are the plain game) --------------
SPINNERS = ("none", "first_double")
DIRECTIONS = ("left", "right")            # left: seat s+1 acts after seat s
# every fitting tile forbidden: as if stuck / pass without drawing / the rules lifted
IF_NONE_ALLOWED = ("stuck", "pass", "waive")
EVENT_TRIGGERS = ("place", "draw", "pass")
IF_LACKING = ("redeal", "draw", "pass_on")  # the leader holds no allowed opening tile
DOMINO_WINNERS = ("dominoer", "as_blocked")
BLOCKED_AMONG = ("all", "last_two")
MATCH_ENDS = ("points", "rounds", "rounds_won")
MATCH_WINNERS = ("highest", "lowest")
PASSING = ("forced", "at_will")           # a pass only with nothing else allowed / at any turn

Formula = Callable[[Mapping[str, Any]], Any]   # a compiled formula: env -> value


@dataclass(frozen=True)
class Restriction:
    """A placement rule: ``allow(env)`` must hold; ``explain`` says why when it does not."""

    allow: Formula
    explain: str
    text: str = ""             # the formula as written (for the rule sheet)
    reads: frozenset[str] | None = None   # the names the formula reads (None: unknown, all)
    tree: Any = field(default=None, compare=False)   # its checked tree, for the kernel


@dataclass(frozen=True)
class DutyRule:
    """An event's duty (``events[].duty``, ``engine.mechanisms.duties``): what a placement
    by its bearer must satisfy (``met``, kind ``duty_met``), what failing it costs
    (``fail_points`` to the bearer's side, ``fail_draws`` tiles drawn), and whether it then
    passes to the next seat (``passes_on``) or lapses; ``on``: who it is laid on
    (``engine.mechanisms.duties.bearers``)."""

    met: Formula
    fail_points: int = 0
    fail_draws: int = 0
    passes_on: bool = True
    on: str = "next"


@dataclass(frozen=True)
class PlayEvent:
    """A play-time rule: after ``after`` (place, draw or pass), when ``condition`` holds,
    ``points`` to the actor's side, ``each_opponent`` to every other side, ``again``
    another turn for the actor, ``skip`` following players lose their turn,
    ``next_draws`` tiles the next seat draws (``engine.mechanisms.events``).
    A None formula is its default (true, 0, 0, false, 0, 0)."""

    after: str
    title: str = ""
    condition: Formula | None = None
    points: Formula | None = None
    each_opponent: Formula | None = None
    again: Formula | None = None
    skip: Formula | None = None
    next_draws: Formula | None = None   # tiles the next seat draws at once (after place only)
    # variables the event sets (``set: {name: formula}``), each from the values before it
    sets: tuple[tuple[str, Formula], ...] = ()
    duty: DutyRule | None = None        # laid on duty.on's seats (after place only)


@dataclass(frozen=True)
class Opening:
    """How a round opens: the required tile, who opens it, what if nobody can, and an
    optional ``allow`` condition on the opening tile."""

    tile: str | tuple[int, int] = "any"
    opener: str = "leader"
    if_unheld: str = "redeal"
    allow: Formula | None = None
    explain: str = ""
    if_lacking: str = "redeal"
    # ``allow``'s checked syntax tree, for the kernel that writes the opening as masks
    allow_tree: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class SeatTally:
    """One seat at the end of a round, as the scoring formulas see it."""

    seat: int
    pips: int    # pips in hand (both halves of every tile)
    tiles: int   # tiles left in hand
    drawn: int   # tiles drawn this round
    value: int | None = None   # hand value by the ruleset's tile values; None: the pips

    def __post_init__(self) -> None:
        if self.value is None:
            object.__setattr__(self, "value", self.pips)


@dataclass(frozen=True)
class SideTally:
    """One side (a team, or a single seat in individual play) at the end of a round."""

    index: int
    players: tuple[SeatTally, ...]
    pips: int    # sum of its players' pips
    tiles: int
    drawn: int
    value: int | None = None   # sum of its players' hand values; None: the pips

    def __post_init__(self) -> None:
        if self.value is None:
            object.__setattr__(self, "value", self.pips)


@dataclass(frozen=True)
class ScoreContext:
    """What the domino and blocked-round formulas may read.

    ``winner`` is the scoring side, ``opponents`` every other side, ``sides`` all
    sides in index order, ``seats`` all seats in seat order, ``players`` their count.
    """

    winner: SideTally
    opponents: tuple[SideTally, ...]
    sides: tuple[SideTally, ...]
    seats: tuple[SeatTally, ...]
    players: int


@dataclass(frozen=True)
class Variable:
    """A named number the match keeps from round to round (``variables:``): it starts at
    ``initial`` and, after every round's settlement, becomes ``after_round`` (kind
    ``variable``); formulas read it by its name (``engine.mechanisms.variables``)."""

    name: str
    initial: int
    after_round: Formula | None = None     # None: it keeps its value
    text: str = ""                         # the after_round formula as written (rule sheet)
    tree: Any = field(default=None, compare=False)   # after_round's checked tree (the JIT)


DECLARE_MOMENTS = ("round_start", "after_place")   # when a declaration is asked


@dataclass(frozen=True)
class DeclareOption:
    """One named option of a declaration: the variables it sets (name, formula of kind
    ``declare``), how good it looks to the bots with a fixed policy (``value``), and at
    round_start the seat it hands the first tile to (``lead``, kind ``declare``)."""

    name: str
    sets: tuple[tuple[str, Formula], ...] = ()
    value: Formula | None = None
    description: str = ""
    lead: Formula | None = None
    draw: int = 0                # after_place: tiles the chooser draws at once (a penalty)


@dataclass(frozen=True)
class Declaration:
    """A choice the ruleset offers a seat at a named moment (``declarations:``; the rule
    is ``engine.mechanisms.declarations``): named ``options``, or points ``claims`` after
    a placement whose true ``worth`` decides what the claim earns (``score``) and what
    every other side takes (``each_opponent``, kind ``claim``)."""

    name: str
    when: str                                   # one of DECLARE_MOMENTS
    title: str = ""
    explain: str = ""                           # the rule in words (play, rule sheet)
    options: tuple[DeclareOption, ...] = ()
    claims: tuple[int, ...] = ()
    worth: Formula | None = None                # kind event_place
    score: Formula | None = None                # kind claim; None: worth if right, else 0
    each_opponent: Formula | None = None        # kind claim; None: 0
    due: Formula | None = None                  # kind event_place_condition; None: always


@dataclass(frozen=True)
class Showdown:
    """Hands shown at a round's end (``showdown:``): a seat that passed while it could
    place pays ``penalty`` and every other side gains ``each_opponent`` (kind
    ``showdown``, per seat, reading ``passes``: its passes while able to place)."""

    penalty: Formula | None = None
    each_opponent: Formula | None = None
    explain: str = ""


@dataclass(frozen=True)
class Rules:
    """A compiled ruleset. Built once; read-only; cheap to pickle except the callables."""

    name: str
    title: str
    description: str
    source: str
    # equipment and seats
    max_pip: int                                  # a double-N set
    min_players: int
    max_players: int
    partnerships: bool                            # two sides, seats alternating (0,2,.. vs 1,3,..)
    # deal
    hand_size: Callable[[int], int]               # players -> tiles each
    reserve: int                                  # boneyard tiles that are never drawn
    # leader and opening
    first_leader: str                             # one of LEAD_CHOOSERS
    later_leader: str                             # one of LEAD_CHOOSERS + LEAD_FOLLOWERS
    lead_count_from: str                          # for exposed_tiles
    opening_tile: str | tuple[int, int]           # "any", "highest_double" or (low, high)
    opener: str                                   # one of OPENERS
    if_unheld: str                                # one of IF_UNHELD
    # a turn
    voluntary_draw: bool                          # may draw while holding a playable tile
    when_stuck: str                               # one of STUCK_CHOICES
    draw_limit: int | None                        # most tiles drawn in one turn; None: no limit
    draw_cost: Callable[[int], int]               # players -> points one drawn tile costs
    draw_cost_to: str                             # one of DRAW_COST_TO
    # scoring
    tile_value: Callable[[int, int], int]         # (low, high) -> value of that tile in a hand
    domino_points: Callable[[ScoreContext], int]  # points for the dominoer's side
    blocked_winner: str                           # one of BLOCKED_WINNERS
    blocked_tie: str                              # one of BLOCKED_TIES
    blocked_points: Callable[[ScoreContext], int] # points for the blocked round's winning side
    # match
    target: Callable[[int, int, bool], int]       # (players, sides, partnerships) -> target
    match_tie: str                                # one of MATCH_TIES
    # -- house-rule mechanisms: defaults are the plain game ------------------------------
    removed_tiles: tuple[tuple[int, int], ...] = ()   # taken out of the set (set.without,
                                                  # set.keep), in the set's order
    copies: int = 1                               # set.copies: each tile of the set this
                                                  # many times (two sets shuffled together)
    spinner: str = "none"                         # one of SPINNERS
    fit: FitRule | None = None                    # how a tile fits an end; None: the same
                                                  # number (mechanisms.matching)
    doubles: str = "across"                       # a double at an end counts both halves
                                                  # (across) or one (in_line) in end_total
    layout: Shape | None = None                   # board.layout: a board of any shape
                                                  # (engine.mechanisms.layout); None: the
                                                  # line and its spinner as ``spinner`` says
    direction: str = "left"                       # one of DIRECTIONS
    restrictions: tuple[Restriction, ...] = ()    # placements must meet every one
    if_none_allowed: str = "stuck"                # one of IF_NONE_ALLOWED
    # what a turn may hold (engine.mechanisms.turn_options): a draw that ends the turn,
    # drawing exactly N tiles, passing at will
    draw_ends_turn: bool = False
    draw_exactly: int | None = None               # None: one tile at a time, as draw_limit allows
    passing: str = "forced"                       # one of PASSING
    several: Any = None                           # play.several: moves of several tiles
                                                  # (mechanisms.several.SeveralRule); None: one
    play_until: str = "first_out"                 # play.until: first_out, or side_out (the
                                                  # round goes on until a side is out:
                                                  # mechanisms.side_out)
    events: tuple[PlayEvent, ...] = ()
    opening_allow: Formula | None = None          # later rounds (round 1: first_opening)
    opening_explain: str = ""
    if_lacking: str = "redeal"                    # one of IF_LACKING
    first_opening: Opening | None = None          # round 1's opening, when it differs
    later_leader_formula: Formula | None = None   # lead.later as a formula (kind ``lead``)
    redeal_if: Formula | None = None              # kind ``redeal``
    turn_up: bool = False                         # deal.turn_up: the stock's first tile
                                                  # starts the line (mechanisms.turn_up)
    leftover: str = "boneyard"                    # deal.leftover: who gets the tiles the
                                                  # hands leave (mechanisms.leftover)
    blind: bool = False                           # deal.blind: hidden hands in a row,
                                                  # played from the front (mechanisms.blind)
    domino_winner: str = "dominoer"               # one of DOMINO_WINNERS
    blocked_rank: Formula | None = None           # kind ``rank``; lowest/highest compare it
    blocked_among: str = "all"                    # one of BLOCKED_AMONG
    every_side: Formula | None = None             # kind ``side_points``
    # the domino / blocked formulas as env -> int, for the general settlement
    domino_formula: Formula | None = None
    blocked_formula: Formula | None = None
    match_end: str = "points"                     # one of MATCH_ENDS
    match_winner: str = "highest"                 # one of MATCH_WINNERS
    exact_target: bool = False
    minimum_to_start: int = 0
    draw_if: Formula | None = None                # kind ``match_draw``
    final: Formula | None = None                  # kind ``final``
    variables: tuple[Variable, ...] = ()          # named numbers kept from round to round
    declarations: tuple[Declaration, ...] = ()    # choices offered at named moments
    showdown: Showdown | None = None              # hands shown at a round's end
    lead_reads_seats: bool = False                # the lead formula reads the last round's
                                                  # seats or sides (kind ``lead``)
    reads_table: bool = False                     # an event or declaration reads board,
                                                  # line or end_tiles
                                                  # (engine.mechanisms.table): the loop keeps
                                                  # the table's tiles
    ends_in_play: bool = False                    # the match ends when play-time points
                                                  # reach the target, mid-round
    general: bool = False                         # uses any of the above (or round facts in
                                                  # its formulas): the general match loop runs it
    play_only: bool = False                       # general only by what acts during play
                                                  # (events, restrictions, the spinner, the
                                                  # direction): the round's end, deal,
                                                  # opening are the plain game's
    # the domino / blocked formulas' checked syntax trees (an ``expr.ast`` node; an integer
    # written as such is an ``Int``), for the kernels that emit them as code; None: unknown
    domino_tree: Any = field(default=None, compare=False)
    blocked_tree: Any = field(default=None, compare=False)
    # the same for the settlement's other formulas and the drawn-match condition
    blocked_rank_tree: Any = field(default=None, compare=False)
    every_side_tree: Any = field(default=None, compare=False)
    draw_if_tree: Any = field(default=None, compare=False)
    # ``match.final``'s and ``lead.later``'s (as a formula) trees, for the JIT kernel
    final_tree: Any = field(default=None, compare=False)
    later_leader_tree: Any = field(default=None, compare=False)
    # the opening condition's and the redeal condition's trees (kernel.opening)
    opening_allow_tree: Any = field(default=None, compare=False)
    redeal_if_tree: Any = field(default=None, compare=False)
    # per event, its formulas' checked trees by key (if, points, each_opponent, again, skip;
    # a constant written as such is an ``Int``/``Bool``; None: not known), for the kernel
    event_trees: Any = field(default=None, compare=False)
    # per declaration, its formulas' checked trees by the path under it ("worth", "due",
    # ("options", k, "value"), ("options", k, "set", name)...), and the showdown's by key
    # (penalty, each_opponent), for kernel.jit_declare; None: not known
    declaration_trees: Any = field(default=None, compare=False)
    showdown_trees: Any = field(default=None, compare=False)
    # play.several's tiles and alone conditions' checked trees by key, for the JIT kernel
    several_trees: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Rules made in Python may give the round's points only as functions of a
        # ScoreContext: the match loop's settlement reads them as formulas over its names
        for formula, points in (("domino_formula", self.domino_points),
                                ("blocked_formula", self.blocked_points)):
            if getattr(self, formula) is None:
                object.__setattr__(self, formula, _over_names(points))


def _over_names(points: Callable[[ScoreContext], int]) -> Formula:
    """A ``ScoreContext`` function as a formula over the settlement's names."""
    def formula(env: Mapping[str, Any]) -> int:
        return points(ScoreContext(env["winner"], env["opponents"], env["sides"], env["seats"],
                                   env["players"]))
    return formula
