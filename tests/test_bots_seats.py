"""One bot per seat: every command and the Python API seat their bots through
``bots.seats``, so the same mistake reads the same and exits 2 everywhere."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli import main
from dominorules import api
from dominorules.bots.seats import seat_bots, split_names
from dominorules.diagnostics import UsageError


def test_one_name_fills_every_seat_and_a_list_gives_one_per_seat():
    assert seat_bots(("greedy",), 3) == ("greedy", "greedy", "greedy")
    assert seat_bots(("random", "greedy"), 2) == ("random", "greedy")
    assert seat_bots(("greedy",), [1, 3]) == ("greedy", "greedy")
    assert split_names(" random , strategist ") == ("random", "strategist")
    assert split_names("") == ()


@pytest.mark.parametrize("call, message", [
    (lambda: seat_bots(("random",) * 3, 2), "3 bots for 2 players"),
    (lambda: seat_bots(("random",) * 2, [2]), "2 bots for 1 bot seat (2)"),
    (lambda: seat_bots(("nosuch",), 2), "unknown bot 'nosuch'"),
    (lambda: split_names("random,,greedy"), "empty bot name in 'random,,greedy'"),
    (lambda: api.make_bots(["random", "greedy"], 3, 1), "2 bots for 3 players"),
])
def test_each_mistake_is_a_usage_error_with_one_message(call, message):
    with pytest.raises(UsageError) as err:
        call()
    assert [d.message for d in err.value.diagnostics] == [message]
    assert err.value.diagnostics[0].code == "bot"


SWEEP = ["sweep", "pagat", "--vary", "match.target=50,100"]
TUNE = ["tune", "pagat", "--vary", "match.target=50,100", "--goal", "turns_per_match ~ 100"]
COMMANDS = {
    "simulate": ["simulate", "pagat"],
    "compare": ["compare", "pagat", "dutch", "--players", "2"],
    "sweep": SWEEP,
    "tune": TUNE,
    "play": ["play", "pagat", "--humans", ""],   # every seat a bot, as in the others
}
MISTAKES = {
    "3 bots for 2 players": "random,greedy,random",
    "empty bot name in 'random,,greedy'": "random,,greedy",
    "unknown bot 'nosuch'": "nosuch",
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("message", MISTAKES)
def test_every_command_tells_a_bot_mistake_the_same_way(command, message):
    result = CliRunner().invoke(main, [*COMMANDS[command], "--bots", MISTAKES[message]],
                                input="")
    assert result.exit_code == 2, result.output
    first, hint = result.output.splitlines()
    assert first == f"error: {message}"
    assert hint.startswith("  hint: ")


@pytest.mark.parametrize("command", ["compare", "sweep", "tune"])
def test_an_unknown_skill_bot_is_refused_before_any_match(command):
    result = CliRunner().invoke(main, [*COMMANDS[command], "--skill-bots", "nosuch,random"])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == "error: unknown bot 'nosuch'"
