"""The compiled kernel (``kernel.generate``): one truth with the match loop.

Every builtin ruleset the kernel covers (house rules that act at a round's end or the
match's included), at its smallest and largest player count,
with the inlined ``random`` pick and with policies (``greedy``, a mixed table), with
and without records: the kernel and the match loop give the same records and the same
statistics for the same seeds. And the kernel really is specialised: a switch the
ruleset does not use leaves no trace in its source.
"""

from __future__ import annotations

import pytest

from dominorules import api
from dominorules.engine.game import Game
from dominorules.kernel.generate import covers, kernel_for, kernel_source, specialise
from dominorules.rules import builtin_rulesets, load_ruleset

ALL = [b.name for b in builtin_rulesets()]
PLAIN = [name for name in ALL if covers(api.load_game(name))]


def test_the_template_covers_all_but_the_spinner():
    assert {"pagat", "hoyle", "dutch", "mexican", "vietnamese"} <= set(PLAIN)
    # house rules at a round's end or the match's: the kernel plays them, the general
    # loop's own methods settle them
    assert {"house/low-score-wins", "house/first-to-three", "house/exact-target",
            "house/shutout-pays-double", "house/last-two-block", "house/play-to-the-right",
            "house/four-doubles-redeal", "house/blocker-leads", "house/heaviest-opens",
            "house/double-opening", "house/first-round-highest-double"} <= set(PLAIN)
    # play-time events and placement restrictions: fired and narrowed inline
    assert {"house/all-fives", "house/equal-ends-bonus", "house/doubles-play-again",
            "house/pay-per-forced-draw", "house/double-blank-skips",
            "house/double-blank-last"} <= set(PLAIN)
    assert not covers(api.load_game("house/spinner"))


@pytest.mark.parametrize("name", ALL)
def test_the_kernel_plays_every_ruleset_exactly_like_the_loop(name):
    game = api.load_game(name)
    r = game.rules
    for players in sorted({r.min_players, r.max_players}):
        try:
            game.check_players(players)
        except Exception:
            continue
        for bots in ("random", "greedy", (["greedy", "random"] * 4)[:players]):
            for trace in (True, False):
                for i in range(3):
                    seed = api.match_seed(11, i)
                    a = api.play_match(game, players, seed, bots, trace=trace)
                    b = api.play_match(game, players, seed, bots, trace=trace, engine="loop")
                    assert a == b, (players, bots, trace, seed)
                    assert a.events == b.events


def test_the_kernel_keeps_start_scores_and_the_round_cap():
    game = api.load_game("pagat")
    a = api.play_match(game, 3, 5, start_scores=[50, 0, 10], max_rounds=2, trace=True)
    b = api.play_match(game, 3, 5, start_scores=[50, 0, 10], max_rounds=2, trace=True,
                       engine="loop")
    assert a == b and a.events == b.events
    assert a.rounds[0].scores[0] >= 50


def test_a_switch_the_ruleset_does_not_use_leaves_no_code():
    game = api.load_game("pagat")
    quiet = kernel_source(game, 3, record=False)
    assert "rec.append" not in quiet and "policies[p]" not in quiet and "yield" not in quiet
    assert "rec.append" in kernel_source(game, 3, record=True)
    assert "policies[p]" in kernel_source(game, 3, uniform=False)
    # numbers are folded in: pagat's 3-player deal, boneyard end and target
    assert "pos = 21" in quiet and "pos < 26" in quiet and ">= 61" in quiet


def test_identical_sources_share_one_compiled_kernel():
    rules = load_ruleset("pagat").rules
    a, b = Game(rules), Game(rules)
    ka, kb = kernel_for(a, 3), kernel_for(b, 3)
    assert ka is not kb and ka.__code__ is kb.__code__
    assert kernel_for(a, 3) is ka


def test_the_template_language():
    text = "a\n#if X\nb $N\n#elif Y\nc\n#else\nd\n#endif\ne $NN\n"
    assert specialise(text, {"X": False, "Y": True}, {"N": 1, "NN": 22}) == "a\nc\ne 22\n"
    assert specialise(text, {"X": False, "Y": False}, {"N": 1, "NN": 2}) == "a\nd\ne 2\n"
    with pytest.raises(ValueError, match=r"\$NN"):
        specialise(text, {"X": True, "Y": False}, {"N": 1})
    with pytest.raises(ValueError, match="without #endif"):
        specialise("#if X\na\n", {"X": True}, {})


@pytest.mark.parametrize("name", PLAIN)
def test_a_record_file_written_by_the_kernel_is_the_encoders_bytes(name):
    """simulate --trace has the kernel write the record's text as it plays: the same bytes
    as encoding the loop's events."""
    from functools import partial

    from dominorules.engine.streams import seat_first, seat_rest
    from dominorules.record_lines import encode_events

    game = api.load_game(name)
    players = game.rules.max_players
    play = kernel_for(game, players, record="text")
    for i in range(4):
        seed = api.match_seed(4, i)
        result, text = play(seed, seat_first(seed, players), partial(seat_rest, seed), None,
                            None, 1000)
        loop = api.play_match(game, players, seed, trace=True, engine="loop")
        assert text == encode_events(loop.events)
        assert result == loop


@pytest.mark.parametrize("text", [
    'lead:\n  later: "last_player if last_player_won else last_player + 1"\n',
    'lead:\n  later: "(leader + 2) % players"\nplay:\n  direction: right\n',
    'deal:\n  redeal_if: "max(seats.doubles) >= 3"\n',
    'play:\n  direction: right\nscoring:\n  blocked:\n    among: last_two\n',
])
def test_the_kernel_plays_lead_formulas_redeals_and_direction_like_the_loop(tmp_path, text):
    path = tmp_path / "house.yaml"
    path.write_text("title: A house rule\nextends: pagat\n" + text)
    game = api.load_game(str(path))
    assert covers(game)
    for players in (2, 3, 4):
        for i in range(6):
            seed = api.match_seed(21, i)
            a = api.play_match(game, players, seed, trace=True)
            b = api.play_match(game, players, seed, trace=True, engine="loop")
            assert a == b and a.events == b.events, (players, seed)


def test_house_rules_that_act_during_play_get_the_general_loop_specialised():
    """Their kernel is GeneralLoop.run's own source with the ruleset's switches folded:
    no yield, and no code for a mechanism the ruleset does not use."""
    from dominorules.kernel.specialise_loop import general_kernel

    spinner = general_kernel(api.load_game("house/spinner"), 3, False).source
    fives = general_kernel(api.load_game("house/all-fives"), 3, False).source
    recorded = general_kernel(api.load_game("house/all-fives"), 3, True).source
    for text in (spinner, fives, recorded):
        assert "yield" not in text and "pols[p] is None" not in text
    assert "board.place(e" in spinner and "board.place(e" not in fives   # the spinner only
    assert "fire(ev_place" not in spinner and "fire(ev_place" in fives
    assert "_restrict(" not in fives and "count == 2" not in fives
    assert "rec.append" not in fives and "rec.append" in recorded


def test_an_unknown_engine_is_refused_in_one_message():
    from dominorules.diagnostics import UsageError

    with pytest.raises(UsageError) as info:
        api.play_match("pagat", 3, 1, engine="turbo")
    assert info.value.diagnostics[0].message == "unknown engine 'turbo'"
    assert "python, loop, jit, auto" in info.value.diagnostics[0].hint


def test_a_record_file_of_a_ruleset_file_names_its_source(tmp_path):
    """match_start's text is written around the seed once per game: with a ruleset file it
    carries the file's path after the seed, as the encoder writes it."""
    from functools import partial

    from dominorules.engine.streams import seat_first, seat_rest
    from dominorules.record_lines import encode_events

    path = tmp_path / "mine.yaml"
    path.write_text("title: Mine\nextends: pagat\n")
    game = api.load_game(str(path))
    for seed in (0, 5, 2 ** 47 + 5):
        _, text = kernel_for(game, 3, record="text")(
            seed, seat_first(seed, 3), partial(seat_rest, seed), None, None, 1000)
        loop = api.play_match(game, 3, seed, trace=True, engine="loop")
        assert text == encode_events(loop.events)
        assert '"source":' in text.splitlines()[0]
