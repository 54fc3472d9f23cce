"""``drawer``: greedy's placements, but a voluntary draw when no placement leaves it a
tile to follow with; and the explorer's note, from counted choices, when the bots of a
run never take a choice one ruleset offers."""

from __future__ import annotations

import random

from scenarios import deal, play

from dominorules import api
from dominorules.bots.drawer import DrawerBot, leaves_follow_up
from dominorules.engine.actions import Action
from dominorules.explore.choices import count_use, unused_choice_notes

# pagat, 2 players, seat 0 leads and opens 6-6 (its most valuable tile). Seat 1 then
# holds only 6-5 that fits, and after it nothing else would fit (ends 6 and 5).
HANDS = ["6-6 0-0 1-1 2-2 3-3 4-4 5-5", "6-5 1-0 2-0 3-0 4-0 2-1 3-1"]


def choose(state, rng_value: float = 0.0):
    seat = state.current_player
    bot = DrawerBot(seat, random.Random(0))
    bot.rng.random = lambda: rng_value
    return bot.choose(state.observation(seat), state.legal_actions())


def test_it_opens_with_its_most_valuable_tile_as_greedy_does():
    state = deal("pagat", HANDS, "5-4", leader=0)
    assert choose(state) == Action.place("6-6")


def test_with_no_placement_leaving_a_follow_up_it_draws_then_places():
    state = deal("pagat", HANDS, "5-4 6-0", leader=0)
    play(state, "6-6")
    obs = state.observation(1)
    assert [str(a) for a in state.legal_actions()] == ["6-5 left", "6-5 right", "draw"]
    assert not any(leaves_follow_up(obs, a) for a in state.legal_actions()[:2])
    assert choose(state) == Action("draw")
    play(state, "draw")                     # 5-4 drawn: 6-5 now leaves it 5-4 to follow
    assert choose(state) == Action.place("6-5", "left")


def test_it_never_draws_where_the_rules_forbid_a_voluntary_draw():
    state = deal("dutch", HANDS, "5-4 6-0", leader=0)
    play(state, "6-6")
    assert [str(a) for a in state.legal_actions()] == ["6-5 left", "6-5 right"]
    assert choose(state).kind == "place"


def test_one_voluntary_draw_a_turn_and_only_early_in_the_round():
    # the first tiles drawn never give it a 5 or a 6 to follow 6-5 with
    state = deal("pagat", HANDS, "4-1 3-2 4-2", leader=0)
    play(state, "6-6")
    assert choose(state) == Action("draw")
    play(state, "draw")
    assert state.observation(1).drawn_this_turn == 1
    assert choose(state).kind == "place"         # once a turn: now it places
    # with 4 tiles in hand it never draws by choice: a tile drawn late costs most
    late = deal("pagat", ["6-6 0-0 1-1 2-2 3-3 4-4 5-5", "6-5 1-0 2-0 3-0"], "4-1", leader=0)
    play(late, "6-6")
    assert [str(a) for a in late.legal_actions()] == ["6-5 left", "6-5 right", "draw"]
    assert choose(late).kind == "place"


def test_it_is_a_builtin_bot_by_name():
    result = api.play_match("pagat", 3, seed=5, bots="drawer")
    assert sum(r.draws for r in result.rounds) > 0


def test_the_voluntary_draws_the_bots_took_are_counted_from_matches():
    random_use = count_use("pagat", 3, ("random",), seed=1, matches=3)
    assert random_use.offered["draw"] > 0 and random_use.taken["draw"] == 0
    drawer_use = count_use("pagat", 3, ("drawer",), seed=1, matches=3)
    assert drawer_use.taken["draw"] > 0
    assert count_use("dutch", 3, ("drawer",), seed=1, matches=3).offered["draw"] == 0


def test_the_note_comes_from_the_counts_and_suggests_a_bot_that_takes_the_choice():
    (note,) = unused_choice_notes(["pagat", "dutch"], ["pagat", "dutch"], 3, ("random",),
                                  seed=1, matches=3)
    assert note == ("Note: the bots (random) never drew while holding a playable tile (a "
                    "voluntary draw) in 3 sample matches of each: pagat allows it, dutch "
                    "does not, and these matches cannot show what that changes in play. "
                    "To measure it, play bots that do: --bots drawer.")
    # bots that take voluntary draws: nothing to say
    assert unused_choice_notes(["pagat", "dutch"], ["pagat", "dutch"], 3, ("drawer",),
                               seed=1, matches=3) == []
    # both rulesets allow voluntary draws: no rule about them differs
    assert unused_choice_notes(["pagat", "hoyle"], ["pagat", "hoyle"], 2, ("random",),
                               seed=1, matches=3) == []


def test_compare_and_sweep_say_so_in_one_line():
    from click.testing import CliRunner

    from dominorules.cli import main

    fast = ["--players", "3", "--matches", "6", "--no-skill", "--workers", "1"]
    out = CliRunner().invoke(main, ["compare", "pagat", "dutch", *fast])
    paragraphs = [" ".join(p.split()) for p in out.stdout.split("\n\n")]
    notes = [p for p in paragraphs if p.startswith("Note: ")]
    assert len(notes) == 1 and "never drew while holding a playable tile" in notes[0]
    assert notes[0].endswith("--bots drawer.")
    swept = CliRunner().invoke(main, ["sweep", "pagat", "--vary",
                                      "drawing.voluntary=allowed,forbidden", *fast, "--json"])
    (note,) = __import__("json").loads(swept.stdout)["notes"]
    assert "drawing.voluntary=allowed allows it, drawing.voluntary=forbidden does not" in note
    drawer = CliRunner().invoke(main, ["compare", "pagat", "dutch", *fast, "--bots", "drawer"])
    assert "Note: " not in drawer.stdout
