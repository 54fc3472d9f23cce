"""Bots: the exact random policy, greedy, plug-ins by ``module:object``, and no peeking."""

from __future__ import annotations

import gc
import random
import types

import pytest
from rules_factory import make_game, play, start

from dominorules import api
from dominorules.bots import REGISTRY, make_bot, resolve
from dominorules.bots.greedy import GreedyBot
from dominorules.bots.random_bot import RandomBot
from dominorules.diagnostics import DiagnosticError
from dominorules.engine.actions import Action
from dominorules.engine.general_loop import GeneralLoop
from dominorules.engine.state import State


class Fixed(random.Random):
    def __init__(self, *values):
        super().__init__(0)
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


def position():
    """Seat 1 to act with placements 6-4 left, 6-4 right (both ends show 6) and draw."""
    state = start(make_game(), ["6-6 1-2", "3-4 5-5"], "4-6 0-0", leader=0)
    play(state, "6-6", "draw")
    return state


@pytest.mark.parametrize("r, expected", [(0.0, "6-4 left"), (0.49, "6-4 left"),
                                         (0.5, "6-4 right"), (0.99, "6-4 right")])
def test_random_picks_index_int_r_times_n_among_placements(r, expected):
    state = position()
    assert [str(a) for a in state.legal_actions()] == ["6-4 left", "6-4 right", "draw"]
    bot = RandomBot(1, Fixed(r))
    assert str(bot.choose(state.observation(1), state.legal_actions())) == expected
    policy = RandomBot(1, Fixed(r)).policy(state.game)
    d = state.decision()
    code = policy(d.left_mask, d.right_mask, d.can_draw)
    assert code == (state.game.tileset.index[Action.parse("6-4").tile] << 2
                    | (0 if expected.endswith("left") else 1))


def test_random_draws_only_without_a_placement_and_passes_only_when_it_must():
    rng = Fixed()                                 # would fail if a float were asked for
    bot = RandomBot(0, rng)
    assert bot.choose(None, [Action.draw()]) == Action.draw()
    assert bot.choose(None, [Action.pass_()]) == Action.pass_()
    events = api.play_match(api.load_game("pagat"), 2, 8, trace=True).events
    hands = ends = None
    for e in events:
        if e["event"] == "deal":
            hands, ends = [set(map(tuple, h)) for h in e["hands"]], None
        elif e["event"] in ("draw", "pass") and ends is not None:
            held = hands[e["player"]]
            assert not any(ends[0] in t or ends[1] in t for t in held), e
            if e["event"] == "draw":
                held.add(tuple(e["tile"]))
        elif e["event"] == "place":
            t = tuple(e["tile"])
            hands[e["player"]].discard(t)
            if ends is None:
                ends = list(t)
            else:
                i = 0 if e["end"] == "left" else 1
                ends[i] = t[0] + t[1] - ends[i]


def test_greedy_places_the_most_valuable_tile_ties_broken_by_its_rng():
    state = start(make_game(), ["6-6 1-2", "6-5 6-1 6-4"], "0-0", leader=0)
    play(state, "6-6")
    legal = state.legal_actions()
    assert str(GreedyBot(1, Fixed(0.0)).choose(state.observation(1), legal)) == "6-5 left"
    assert str(GreedyBot(1, Fixed(0.9)).choose(state.observation(1), legal)) == "6-5 right"


def test_builtin_names_and_the_lazily_imported_strategist():
    assert set(REGISTRY) >= {"random", "greedy", "strategist"}
    assert resolve("random") is RandomBot
    assert REGISTRY["strategist"] == "dominorules.bots.strategist:StrategistBot"


def test_plug_ins_by_module_object(tmp_path, monkeypatch):
    (tmp_path / "mybots.py").write_text(
        "class First:\n"
        "    def __init__(self, seat, rng):\n"
        "        self.seat = seat\n"
        "    def choose(self, obs, legal):\n"
        "        return legal[0]\n"
        "def last(obs, legal):\n"
        "    return legal[-1]\n"
        "NOT_A_BOT = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("mybots:First", 2, random.Random(1))
    assert bot.seat == 2
    result = api.play_match("pagat", 2, 1, bots=["mybots:First", "mybots:last"])
    assert result.rounds
    by_path = make_bot(f"{tmp_path / 'mybots.py'}:last", 0, random.Random(1))
    assert by_path.choose(None, [Action.draw(), Action.pass_()]) == Action.pass_()


@pytest.mark.parametrize("spec, message", [
    ("randon", "unknown bot 'randon'"),
    ("nosuchmodule_xyz:Bot", "bot 'nosuchmodule_xyz:Bot': cannot import nosuchmodule_xyz"),
    ("random_bot_missing:", "bad bot 'random_bot_missing:': write it as module:object"),
    ("dominorules.bots.random_bot:Nope",
     "bot 'dominorules.bots.random_bot:Nope': module dominorules.bots.random_bot has no 'Nope'"),
    ("dominorules.bots.random_bot:__doc__",
     "bot 'dominorules.bots.random_bot:__doc__': __doc__ is neither a class nor a function"),
])
def test_bad_bot_specs_fail_with_one_clear_message(spec, message):
    with pytest.raises(DiagnosticError) as err:
        make_bot(spec, 0, random.Random(1))
    assert err.value.diagnostics[0].message.startswith(message)
    if spec == "randon":
        assert err.value.diagnostics[0].hint.startswith("did you mean 'random'?")


def test_a_bot_choosing_an_illegal_action_is_named():
    with pytest.raises(DiagnosticError, match=r"\(seat 0\) returned 'pass', which is not "
                       r"one of the legal actions \(.*\): you hold a playable tile"):
        api.play_match("pagat", 2, 1, bots=[lambda obs, legal: Action.pass_(), "random"])


def _reachable(root, limit=20000):
    seen, todo = {id(root)}, [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        yield obj
        if isinstance(obj, (types.FunctionType, types.ModuleType, type)):
            continue                      # the rules' compiled formulas, classes
        for ref in gc.get_referents(obj):
            if id(ref) not in seen:
                seen.add(id(ref))
                todo.append(ref)


def test_an_observation_cannot_reach_the_state_or_hidden_tiles():
    state = position()
    obs = state.observation(0)
    for obj in _reachable(obs):
        assert not isinstance(obj, (State, GeneralLoop, types.GeneratorType)), type(obj)
    assert obs.hand_sizes == (1, 3) and [str(t) for t in obs.hand] == ["2-1"]
    # seat 1 drew 4-6: seat 0's history shows the draw without the tile
    assert {"event": "draw", "player": 1} in obs.history
    assert {"event": "draw", "player": 1, "tile": [4, 6]} in state.observation(1).history
    assert all("hands" not in e for e in obs.history)
