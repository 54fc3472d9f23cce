"""The match loop (``engine.general_loop``): each house-rule mechanism on a constructed
deal with exact legal moves, events and scores. Its records of the five variants are
pinned in ``test_records_pinned.py`` (the first edition's, byte for byte), and
``test_kernel.py`` plays every builtin ruleset through it and the kernel."""

from __future__ import annotations

import textwrap

import pytest
from scenarios import legal, play

from dominorules import api
from dominorules.engine.actions import AmbiguousActionError, IllegalActionError
from dominorules.rules import load_ruleset


@pytest.fixture
def house(tmp_path):
    """``house(yaml_text)`` -> the path of a ruleset file extending pagat with that text."""
    def write(text: str, base: str = "pagat") -> str:
        path = tmp_path / "house.yaml"
        path.write_text(f"title: A house rule\nextends: {base}\n" + textwrap.dedent(text))
        return str(path)
    return write


def start(path: str, hands: list[str], boneyard: str = "", leader: int = 0, seed: int = 0,
          scores=None, more=()):
    game = api.load_game(path)
    deals = [api.Deal.of(hands, boneyard, leader), *more]
    return game.new_match(len(hands), seed, deals=deals, start_scores=scores)


def events(state, *kinds: str) -> list[dict]:
    return [e for e in state.record if e["event"] in kinds]


# -- the spinner ------------------------------------------------------------------------------
def test_a_spinner_opens_up_and_down_once_both_sides_are_played(house):
    path = house("board:\n  spinner: first_double\n")
    state = start(path, ["5-5 5-1 4-4", "5-2 3-5 6-6 0-0"], "6-0 6-1 6-2 6-3")
    play(state, "5-5")
    assert legal(state) == ["5-2 left", "5-3 left", "5-2 right", "5-3 right", "draw"]
    play(state, "5-2 left", "5-1 right")
    # both sides of the spinner are played on: up and down show 5 too
    assert state.observation(1).ends == (2, 1, 5, 5)
    assert legal(state) == ["5-3 up", "5-3 down", "draw"]
    play(state, "5-3 up")
    assert events(state, "place")[-1]["end"] == "up"
    assert state.observation(0).ends == (2, 1, 3, 5)
    assert state.observation(0).arms == (((5, 3),), ())


def test_why_not_reads_every_end_of_a_spinner(house):
    """"Why not" asks the decision's masks at all four ends: a tile playable only up is
    named when the player tries to pass, and a tile that fits none lists the four ends."""
    path = house("board:\n  spinner: first_double\n")
    state = start(path, ["5-5 5-1 4-4", "5-2 3-5 6-6 0-0"], "6-0 6-1 6-2 6-3")
    play(state, "5-5", "5-2 left", "5-1 right")
    with pytest.raises(IllegalActionError, match=r"^you hold a playable tile \(5-3\)"):
        play(state, "pass")
    with pytest.raises(IllegalActionError, match=r"^6-6 matches no open end \(2, 1, 5, 5\)$"):
        play(state, "6-6")
    with pytest.raises(IllegalActionError, match=r"^5-3 does not match the left end \(2\)$"):
        play(state, "5-3 left")
    with pytest.raises(AmbiguousActionError,
                       match=r"^5-3 fits both ends: write 5-3 up or 5-3 down$"):
        state.parse_action("3-5")


def test_without_a_spinner_up_is_not_an_end(house):
    state = start(house("events: []\n"), ["5-5 5-1", "5-2 1-0"], "6-0")
    play(state, "5-5")
    with pytest.raises(IllegalActionError):
        play(state, "5-2 up")


# -- play-time events -------------------------------------------------------------------------
FIVES = """
events:
  - title: Fives at the ends
    after: place
    if: "end_total % 5 == 0"
    points: end_total
"""


def test_all_fives_scores_the_open_ends_as_they_are_made(house):
    state = start(house(FIVES), ["5-5 5-0 6-6", "5-2 4-3 6-5"], "0-0 1-1")
    play(state, "5-5")                      # a lone double counts both halves: 10
    play(state, "5-2 right")                # 5 + 5 (the double) + 2 = 12: nothing
    play(state, "5-0 left")                 # 0 + 2 = 2: nothing
    assert [(e["player"], e["side"], e["points"], e["rule"]) for e in events(state, "score")] \
        == [(0, 0, 10, 0)]
    assert state.scores == (10, 0)


def test_a_double_plays_again_and_a_skip_passes_over_a_seat(house):
    path = house("""
    events:
      - after: place
        if: tile.is_double
        again: true
      - after: place
        if: "tile == [1|1]"
        skip: 1
    """)
    state = start(path, ["6-6 6-1 1-1", "6-2 0-0", "2-2 3-3"], "4-4 0-1 0-2 0-3 0-4 0-5 0-6")
    play(state, "6-6")
    assert events(state, "extra_turn") == [{"event": "extra_turn", "player": 0}]
    assert state.current_player == 0           # the double: seat 0 again
    play(state, "6-1 right", "6-2 left")
    play(state, "2-2 left")                    # seat 2's double: seat 2 again
    assert state.current_player == 2
    play(state, "draw")                        # 4-4, no fit: draws on
    # seat 2 draws 0-1 .. ; instead check the skip on seat 0's 1-1 below in a fresh match
    state = start(path, ["1-1 5-5", "1-2 3-3", "1-3 4-4"], "0-1 0-2 0-3 0-4 0-5 0-6")
    play(state, "1-1")                          # a double (again) and [1|1] (skip 1)
    assert state.current_player == 0
    play(state, "draw")                         # 0-1 fits: seat 0 may now place it
    play(state, "0-1 left")
    assert events(state, "skip") == [{"event": "skip", "player": 1}]
    assert state.current_player == 2


def test_a_forced_draw_pays_each_opponent(house):
    path = house("""
    events:
      - after: draw
        if: forced
        points: "-count(opponents)"
        each_opponent: 1
    """)
    state = start(path, ["6-6 0-0", "1-2 1-3", "5-5 4-4"], "0-1 6-5")
    play(state, "6-6", "draw")                  # seat 1 holds no six: forced, pays 1 each
    assert state.scores == (1, -2, 1)
    play(state, "draw")                         # 6-5 fits now... no: 0-1 then 6-5
    assert state.scores == (2, -4, 2)


def test_a_voluntary_draw_is_not_forced(house):
    path = house("""
    events:
      - after: draw
        if: forced
        points: -5
    """)
    state = start(path, ["6-6 0-0", "6-2 1-3"], "0-1 6-5")
    play(state, "6-6", "draw")                  # seat 1 holds 6-2 but draws anyway
    assert state.scores == (0, 0)


# -- legality ---------------------------------------------------------------------------------
MUST_DOUBLE = """
play:
  restrictions:
    - allow: "tile.is_double or not any(playable.is_double)"
      explain: "you hold a playable double, so you must play one"
"""


def test_a_restriction_narrows_the_legal_placements_and_explains_itself(house):
    state = start(house(MUST_DOUBLE), ["6-4 0-0", "6-6 6-2 4-4 1-2"], "0-1 0-2 0-3 0-4")
    play(state, "6-4")
    assert legal(state) == ["4-4 left", "6-6 right", "draw"]
    with pytest.raises(IllegalActionError, match="you hold a playable double, so you must "
                                                 "play one"):
        play(state, "6-2 right")


def test_a_player_whose_every_fitting_tile_is_forbidden_counts_as_stuck(house):
    path = house("""
    play:
      restrictions:
        - allow: "tile != [0|0] or count(playable) == 1"
          explain: "the [0|0] goes last"
    """)
    state = start(path, ["0-5 3-3", "0-0 0-1 6-6"], "2-2 4-4")
    play(state, "0-5")
    assert legal(state) == ["1-0 left", "draw"]   # [0|0] waits while 0-1 is playable
    with pytest.raises(IllegalActionError, match=r"the \[0\|0\] goes last"):
        play(state, "0-0 left")
    play(state, "1-0 left")
    assert legal(state) == ["draw"]                # seat 0: 3-3 fits neither 1 nor 5


# -- direction --------------------------------------------------------------------------------
def test_play_goes_to_the_right(house):
    state = start(house("play:\n  direction: right\n"), ["6-6 1-1", "6-1 2-2", "6-2 3-3"],
                  "0-1 0-2")
    play(state, "6-6")
    assert state.current_player == 2


# -- settlement -------------------------------------------------------------------------------
def test_a_domino_made_with_a_double_scores_ten_more(house):
    path = house("""
    drawing:
      when_stuck: pass
      voluntary: forbidden
    scoring:
      domino: "sum(opponents.pips) + (10 if last_tile.is_double else 0)"
    """)
    state = start(path, ["6-6 6-3 3-3", "6-5 1-2"], "0-0 0-1")
    play(state, "6-6", "6-5 left", "6-3 right", "pass", "3-3 right")
    end = events(state, "round_end")[0]
    assert end["result"] == "domino" and end["points"] == [3 + 10, 0]


def test_blocked_every_other_player_is_charged_their_own_pips(house):
    path = house("""
    drawing:
      when_stuck: pass
      voluntary: forbidden
    scoring:
      blocked:
        points: 0
      every_side: "0 if side.won or not blocked else -side.pips"
    """)
    state = start(path, ["6-6 1-2", "0-3 0-4", "5-5 0-1"], "")
    play(state, "6-6", "pass", "pass", "pass")
    end = events(state, "round_end")[0]
    assert end["result"] == "blocked" and end["winner"] == 0
    assert end["points"] == [0, -7, -11]


# -- the match --------------------------------------------------------------------------------
def test_the_match_is_the_first_to_win_two_rounds(house):
    path = house("match:\n  end: rounds_won\n  target: 2\n")
    game = api.load_game(path)
    result = api.play_match(game, 3, seed=4, bots="random")
    wins = [r.winner for r in result.rounds]
    assert wins.count(result.winner) == 2
    assert all(wins[:-1].count(s) < 2 for s in range(3))


def test_low_score_wins(house):
    path = house("""
    scoring:
      domino: 0
      blocked:
        points: 0
      every_side: side.pips
    match:
      winner: lowest
      target: 100
    """)
    result = api.play_match(api.load_game(path), 3, seed=3, bots="random")
    assert max(result.scores) >= 100
    assert result.winner == result.scores.index(min(result.scores))
    for r in result.rounds:
        assert all(p >= 0 for p in r.points)


def test_a_fixed_number_of_rounds_and_a_final_formula(house):
    path = house("""
    match:
      end: rounds
      target: 3
      final: "side.score * 2 if side.won else side.score"
    """)
    result = api.play_match(api.load_game(path), 2, seed=1, bots="random", trace=True)
    assert len(result.rounds) == 3
    raw = result.rounds[-1].scores
    if result.winner is not None:
        assert result.scores[result.winner] == 2 * raw[result.winner]


def test_exact_target_scores_nothing_for_an_overshoot(house):
    path = house("match:\n  exact: true\n  target: 10\n")
    result = api.play_match(api.load_game(path), 2, seed=5, bots="random")
    assert max(result.scores) == 10
    for r in result.rounds:
        assert max(r.scores) <= 10


def test_redeal_when_a_hand_holds_four_doubles(house):
    path = house("deal:\n  redeal_if: \"max(seats.doubles) >= 4\"\n")
    four = api.Deal.of(["0-0 1-1 2-2 3-3 0-1 0-2 0-3", "4-4 5-5 6-6 0-4 0-5 0-6 1-2"], leader=0)
    fine = api.Deal.of(["0-0 1-1 2-2 4-3 0-1 0-2 0-3", "3-3 5-5 6-6 0-4 0-5 0-6 1-2"], leader=0)
    state = api.load_game(path).new_match(2, 0, deals=[four, fine])
    deals = events(state, "deal")
    assert [d["leader"] for d in deals] == [None, 0]


def test_the_lead_formula_picks_the_seat_after_the_last_player(house):
    path = house('lead:\n  later: "(last_player + 1) % players"\n')
    result = api.play_match(api.load_game(path), 3, seed=2, bots="random", trace=True)
    places = [e for e in result.events if e["event"] in ("place", "round_end")]
    last = None
    leaders = [r.leader for r in result.rounds]
    for e in places:
        if e["event"] == "place":
            last = e["player"]
        else:
            break
    assert leaders[1] == (last + 1) % 3


# -- opening ----------------------------------------------------------------------------------
def test_the_opening_must_be_a_double_and_a_leader_without_one_passes_it_on(house):
    path = house("""
    opening:
      allow: tile.is_double
      explain: the round must open with a double
      if_lacking: pass_on
    """)
    state = start(path, ["6-4 1-2", "5-3 0-1", "2-2 3-4"], "0-0 1-1")
    assert state.current_player == 2
    assert legal(state) == ["2-2", "draw"]
    with pytest.raises(IllegalActionError, match="the round must open with a double"):
        play(state, "3-4")


def test_a_player_whose_every_fitting_tile_is_forbidden_may_be_made_to_pass(house):
    path = house("""
    play:
      restrictions:
        - allow: "tile != [0|0] or count(hand) == 1"
          explain: "the [0|0] goes last"
      if_none_allowed: pass
    """)
    state = start(path, ["0-5 3-3", "0-0 6-6"], "2-2 4-4")
    play(state, "0-5")
    assert legal(state) == ["pass"]     # 0-0 fits but is forbidden: no draw, a pass
    play(state, "pass")
    assert events(state, "pass") == [{"event": "pass", "player": 1}]


def test_the_rule_sheet_says_a_forbidden_hand_passes(house):
    from dominorules.rules.describe import rule_sheet
    path = house("""
    play:
      restrictions:
        - allow: "tile != [0|0]"
          explain: "never the [0|0]"
      if_none_allowed: pass
    """)
    assert rule_sheet(load_ruleset(path)).rule("play.if_none_allowed").text == (
        "A player whose playable tiles the placement rules all forbid passes, without drawing.")


def test_pips_are_pips_and_value_follows_the_tile_values(house):
    """dutch counts [0|0] as 13: a hand's value says so, its pips do not."""
    from dominorules.rules.verify import check_examples
    by_value = api.load_game("dutch")
    by_pips = api.load_game(house('scoring:\n  domino: "sum(opponents.pips)"\n', base="dutch"))
    assert not by_value.rules.general and by_pips.rules.general
    hands = [[], api.Deal.of(["0-0 2-1"]).hands[0]]
    from dominorules.engine import positions
    data = {"hands": ["", "0-0 2-1"], "result": "domino"}
    assert positions.points(by_pips, data, hands) == [3, 0]        # 0 + 3 pips
    assert positions.points(by_value, data, hands) == [16, 0]      # 13 + 3
    dutch = load_ruleset("dutch")
    assert dutch.examples and check_examples(dutch.rules, dutch.examples) == []
