"""One formula environment (engine.mechanisms.environment): each builder offers every
name its formula kind may read (``expr.fields``), so a name added to a kind and
forgotten here fails at once, and the match-wide names reach every kind through one
function. The loop and the rulebook both build through it: every builtin ruleset's
records (tests/test_records_pinned.py) and ``verify --strict`` (tests/test_rulebook.py)
hold the two readers to each other.
"""

from __future__ import annotations

from types import SimpleNamespace

from dominorules.engine.mechanisms import environment as env
from dominorules.expr.fields import FIELDS, READS_VARIABLES, ROUND_FACTS

MATCH = SimpleNamespace(players=3, round=4, target=61, scores=[5, 0, 9],
                        values={"stake": 2, "run": 0})
SIDE = SimpleNamespace(index=0)
SIDES = (SIDE, SimpleNamespace(index=1), SimpleNamespace(index=2))
# what each reader adds itself: the board's facts from its own board, a tile asked about
BOARD = {"ends", "end_total", "boneyard", "boneyard_pips", "boneyard_value"}


def _offers(kind: str, names: set[str], added: set[str] = frozenset()) -> None:
    wanted = set(FIELDS[kind].names)
    assert wanted <= names | added, (kind, sorted(wanted - names - added))
    if kind in READS_VARIABLES:
        assert set(MATCH.values) <= names, kind


def test_the_match_wide_names_and_the_variables():
    assert env.match_names(MATCH) == {"players": 3, "round": 4, "target": 61,
                                      "stake": 2, "run": 0}
    assert env.match_names(MATCH, 7)["round"] == 7   # a round the reader names


def test_each_builder_offers_its_kinds_names():
    settled = env.settlement_names(MATCH, 4, blocked=True, last_tile=(0, 1), last_player=None,
                                   both_ends=False, passes=2, drawn=3, seats=())
    assert set(ROUND_FACTS) - BOARD <= set(settled)
    for kind in ("scoring", "side_points", "rank"):
        _offers(kind, set(settled) | set(env.scorer_names(SIDES, 1)), BOARD | {"sides", "side"})
    _offers("lead", set(env.lead_names(MATCH, leader=0, winner_seat=None, winner_side=None,
                                       last_player=2, last_side=2, blocked=True)))
    _offers("match_draw", set(env.sides_names(MATCH, SIDES)))
    _offers("final", set(env.sides_names(MATCH, SIDES)), {"side"})
    _offers("showdown", set(env.showdown_names(MATCH, None)), {"passes"})
    _offers("declare", set(env.option_names(MATCH, [(1, 2), (0, 0)], 1)))
    _offers("redeal", set(env.redeal_names(MATCH, ())))
    _offers("opening", set(env.opening_names(MATCH, [(1, 2)], 6)), {"tile"})
    actor = set(env.actor_names(None, SIDES, 1))
    assert {"player", "side", "sides", "opponents"} == actor


def test_the_lead_names_say_nobody_as_minus_one():
    names = env.lead_names(MATCH, leader=1, winner_seat=None, winner_side=None,
                           last_player=None, last_side=None, blocked=True)
    assert (names["winner"], names["winner_side"], names["last_player"]) == (-1, -1, -1)
    assert names["last_player_won"] is False
    won = env.lead_names(MATCH, leader=1, winner_seat=2, winner_side=2, last_player=2,
                         last_side=2, blocked=False)
    assert won["last_player_won"] is True and won["winner"] == 2


def test_the_scorer_and_the_actor_see_the_other_sides_as_opponents():
    assert [s.index for s in env.scorer_names(SIDES, 1)["opponents"]] == [0, 2]
    names = env.actor_names("p", SIDES, 2)
    assert names["side"] is SIDES[2] and [s.index for s in names["opponents"]] == [0, 1]
