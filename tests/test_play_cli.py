"""``dominorules play`` and ``replay`` driven in a pseudo-terminal (pexpect), as a person would.

A scripted human answers every prompt; the screen is read back as text (``TERM=dumb``,
``NO_COLOR``, a 200-column terminal) except in the hot-seat test, which needs a real
terminal type to see the screen being cleared.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from children import default_sigint

from dominorules import api
from dominorules.play.hint import strongest_bot

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
ENV = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200", "LINES": "50"}
PROMPT = r"Seat (\d+) > "
CLEAR = "\x1b[2J\x1b[3J\x1b[H"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, env: dict | None = None) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, [CLI, *args], cwd=str(ROOT), env=env or ENV,
                          dimensions=(50, 200), encoding="utf-8", timeout=30,
                          preexec_fn=default_sigint)
    child.delaybeforesend = None
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def read_record(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def verify(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CLI, "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def first_legal(obs, legal):
    """The scripted human: always the first listed move (what typing ``1`` picks)."""
    return legal[0]


# -- whole matches ------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset, players, seed", [
    ("pagat", 3, 1), ("hoyle", 2, 2), ("dutch", 2, 3), ("mexican", 4, 4), ("vietnamese", 2, 5),
])
def test_a_scripted_human_plays_each_variant_to_the_end(tmp_path, ruleset, players, seed):
    trace = tmp_path / "match.jsonl"
    child = spawn("play", ruleset, "--players", str(players), "--seed", str(seed), "--fast",
                  "--trace", str(trace))
    child.logfile_read = seen = io.StringIO()
    moves = 0
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        assert child.match.group(1) == "0"
        child.sendline("1")
        moves += 1
    child.close()
    assert child.exitstatus == 0
    screen = seen.getvalue().replace("\r\n", "\n")
    events = read_record(trace)
    bot = strongest_bot()
    teams = events[0]["teams"]
    partners = next(t for t in teams if 0 in t)
    names = ["Seat 0 (you)"] + [f"Seat {s} ({bot}, your partner)" if s in partners else
                                f"Seat {s} ({bot})" for s in range(1, players)]
    sides = [names[t[0]] if len(t) == 1 else f"Side {i} (seats {' and '.join(map(str, t))})"
             for i, t in enumerate(teams)]
    last_placer = None
    for event in events:  # every round's end is told, every hand revealed with its pips
        if event["event"] == "place":
            last_placer = event["player"]
        if event["event"] != "round_end":
            continue
        r, w = event["round"], event["winner"]
        if w is None:
            told = f"Round {r} is blocked and the lowest hands tie: nobody scores"
        elif event["result"] == "blocked":
            told = f"Round {r} is blocked: {sides[w]} wins it and scores {event['points'][w]}"
        elif len(teams[w]) > 1:
            told = (f"Round {r}: {names[last_placer]} dominoes; {sides[w]} scores "
                    f"{event['points'][w]}")
        else:
            told = f"Round {r}: {sides[w]} dominoes and scores {event['points'][w]}"
        at = screen.index(told + "\n")
        reveal = screen[at:].split("\n")[2:2 + players]
        assert [re.split(r"\s{2,}", row.strip())[0] for row in reveal] == names
        assert [int(row.split()[-1]) for row in reveal] == event["pips"]
    end = events[-1]
    assert end["event"] == "match_end"
    scores = ", ".join(f"{side} {score}" for side, score in zip(sides, end["scores"], strict=True))
    if end["winner"] is None:
        assert f"The match is drawn: {scores}" in screen
    else:
        assert f"{sides[end['winner']]} wins the match: {scores}" in screen
    # the record is the one the engine makes for the same choices, and it verifies
    same = api.play_match(ruleset, players, seed=seed,
                          bots=[first_legal] + [bot] * (players - 1), trace=True)
    assert events == same.events
    assert moves == sum(1 for _ in _human_decisions(ruleset, players, seed, bot))
    checked = verify(trace)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _human_decisions(ruleset: str, players: int, seed: int, bot: str):
    """Replays the match to count the decisions seat 0 was asked for."""
    game = api.load_game(ruleset)
    state = game.new_match(players, seed=seed)
    bots = api.make_bots([first_legal] + [bot] * (players - 1), players, seed)
    while not state.is_terminal:
        seat = state.current_player
        if seat == 0:
            yield seat
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions()))


# -- input at the table -------------------------------------------------------------------

SEAT_ZERO = """\
name: dutch-seat-zero
description: Dutch with seat 0 leading every round, so a test knows who opens.
extends: dutch
lead:
  first: seat_zero
  later: seat_zero
"""


def test_illegal_moves_are_explained_in_the_rules_terms_and_asked_again(tmp_path):
    ruleset = tmp_path / "dutch-seat-zero.yaml"
    ruleset.write_text(SEAT_ZERO)
    child = spawn("play", str(ruleset), "--seed", "4", "--fast")
    child.expect(PROMPT)
    assert "Round 1 dealt; Seat 0 (you) leads" in child.before
    hand = re.search(r"Your hand: (.*)", child.before).group(1).split()
    moves = re.findall(r"\d+\) (\S+)", re.search(r"Moves: (.*)", child.before).group(1))
    # any tile may open and Dutch forbids voluntary draws: the moves are the 7 tiles, lowest first
    assert len(hand) == 7 and all(t.endswith("*") for t in hand)
    assert sorted(t.rstrip("*") for t in hand) == sorted(moves) and len(moves) == 7
    for typed, answer in [
        ("pass", f"✗ you hold a playable tile ({moves[0]}), so you may not pass"),
        ("draw", "✗ voluntary draws are not allowed: you must open"),
        ("9-9", "✗ you do not hold 9-9"),
        ("blah", "✗ 'blah' is not a move or a command: type a move (its number, 6-4 left, "
                 "draw, pass) or a command: hint, rules, ? (help), quit"),
        ("99", "✗ there is no move 99: type a number from 1 to 7"),
        (f"{moves[-1]} left",
         f"✗ the opening tile is placed without an end: write just {moves[-1]}"),
    ]:
        child.sendline(typed)
        child.expect(PROMPT)
        assert child.before.strip().splitlines() == [typed, answer]
    child.sendline(moves[-1])
    child.expect(PROMPT)
    assert f"Seat 0 (you) opens with {moves[-1]}" in child.before
    child.sendeof()
    assert finish(child) == 0


def test_help_hint_and_rules_at_the_table():
    child = spawn("play", "pagat", "--seed", "7", "--fast")
    child.expect(PROMPT)
    moves = re.search(r"Moves: (.*)", child.before).group(1).strip()
    listed = re.findall(r"\d+\) ([^ ]+(?: left| right)?)", moves)
    child.sendline("?")
    child.expect(PROMPT)
    assert "hint                   ask the strongest bot for a move, and why" in child.before
    child.sendline("hint")
    child.expect(PROMPT)
    hint = re.search(rf"Hint: {strongest_bot()} would play (.+?): (.+)", child.before)
    assert hint and hint.group(1) in listed and hint.group(2).strip()
    child.sendline("rules")
    child.expect(PROMPT)
    assert "Pagat's representative individual Draw" in child.before
    assert "Players and sides" in child.before
    child.sendeof()
    assert finish(child) == 0


def test_quit_asks_first_and_keeps_the_record(tmp_path):
    trace = tmp_path / "left.jsonl"
    child = spawn("play", "pagat", "--seed", "11", "--fast", "--trace", str(trace))
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact(f"Leave this match? The record so far is kept in {trace}. [y/N] ")
    child.sendline("n")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact(f"Leave this match? The record so far is kept in {trace}. [y/N] ")
    child.sendline("y")
    child.expect_exact("You left the match.")
    assert finish(child) == 0
    kinds = [e["event"] for e in read_record(trace)]
    assert kinds[:2] == ["match_start", "deal"]
    assert "place" in kinds and "match_end" not in kinds


def test_end_of_input_and_ctrl_c_leave_cleanly_with_the_record_so_far(tmp_path):
    trace = tmp_path / "eof.jsonl"
    child = spawn("play", "hoyle", "--seed", "3", "--fast", "--trace", str(trace))
    child.expect(PROMPT)
    child.sendeof()
    child.expect_exact("End of input: the match is left unfinished.")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    assert [e["event"] for e in read_record(trace)][:2] == ["match_start", "deal"]

    child = spawn("play", "hoyle", "--seed", "3", "--fast", "--trace", str(trace), "--force")
    child.expect(PROMPT)
    child.sendintr()
    child.expect_exact("Interrupted: the match is left unfinished.")
    assert finish(child) == 130
    assert "Traceback" not in child.before
    assert [e["event"] for e in read_record(trace)][:2] == ["match_start", "deal"]


def test_bad_settings_are_one_line_and_exit_2():
    child = spawn("play", "pagat", "--humans", "5")
    assert finish(child) == 2
    assert child.before.strip().splitlines() == [
        "error: there is no seat 5: pagat seats at most 4 players (seats 0 to 3)",
        "  hint: give --humans seats from 0 to 3"]
    child = spawn("play", "pagat", "--bots", "strategst")
    assert finish(child) == 2
    assert child.before.strip().splitlines() == [
        "error: unknown bot 'strategst'",
        "  hint: did you mean 'strategist'? (or name your own as module:object)"]


# -- hot-seat -----------------------------------------------------------------------------

def test_hot_seat_hides_each_hand_until_its_player_presses_enter(tmp_path):
    trace = tmp_path / "hot.jsonl"
    env = {**ENV, "TERM": "xterm"}
    child = spawn("play", "pagat", "--humans", "0,1", "--seed", "6", "--fast",
                  "--trace", str(trace), env=env)
    dealt: dict[int, list] = {}
    owner = None
    turns = 0
    while turns < 12:
        i = child.expect([r"Seat (\d): press Enter to show your hand ", PROMPT, pexpect.EOF])
        if i == 2:
            break
        seat = int(child.match.group(1))
        shown = ANSI.sub("", child.before.rpartition(CLEAR)[2])
        if i == 0:
            # a new player: the screen was wiped, and nothing since shows a hand
            assert seat != owner
            assert CLEAR in child.before if owner is not None else "Your hand" not in child.before
            assert "Your hand" not in shown
            assert f"Seat {seat} (human) to play: everyone else, look away." in shown
            child.sendline("")
            owner = seat
            continue
        assert seat == owner
        if not dealt:
            deal = next(e for e in read_record(trace) if e["event"] == "deal")
            dealt = {s: sorted(map(tuple, h)) for s, h in enumerate(deal["hands"])}
        hand = re.search(r"Your hand: (.*)", shown).group(1).replace("*", "").split()
        if turns == 0:  # the first hand shown is the one dealt to that seat, and only it
            assert sorted(tuple(sorted(map(int, t.split("-")))) for t in hand) == dealt[seat]
        child.sendline("1")
        turns += 1
    assert turns == 12
    child.sendintr()
    assert finish(child) == 130


# -- replay -------------------------------------------------------------------------------

def test_replay_steps_through_a_played_match_with_every_hand(tmp_path):
    trace = tmp_path / "game.jsonl"
    child = spawn("play", "mexican", "--seed", "2", "--fast", "--trace", str(trace))
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        child.sendline("1")
    child.close()
    events = read_record(trace)
    total = len(events)
    deal = events[1]
    child = spawn("replay", str(trace))
    child.expect("replay > ")
    assert f"Event 1 of {total}" in child.before
    child.sendline("")
    child.expect("replay > ")
    assert f"Event 2 of {total} · round 1 · boneyard 0 tiles" in child.before
    for hand in deal["hands"]:  # every hand is visible
        tiles = sorted(hand, key=lambda t: (t[1], t[0]), reverse=True)
        assert "  ".join(f"{b}-{a}" for a, b in tiles) in child.before
    child.sendline("b")
    child.expect("replay > ")
    assert f"Event 1 of {total}" in child.before
    child.sendline(str(total))
    child.expect("replay > ")
    assert f"Event {total} of {total}" in child.before and "wins the match" in child.before
    child.sendline("")
    child.expect_exact("End of the record.")
    assert finish(child) == 0


def test_replay_refuses_a_record_the_engine_finds_illegal(tmp_path):
    result = api.play_match("pagat", 2, seed=3, bots="random", trace=True)
    events = result.events
    # the first placement after the opening becomes a pass: illegal, the tile was playable
    k = next(i for i, e in enumerate(events) if e["event"] == "place" and e["end"] is not None)
    events[k] = {"event": "pass", "player": events[k]["player"]}
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    child = spawn("replay", str(path))
    assert finish(child) == 1
    assert f"{path}:{k + 1}" in child.before
    assert "replay >" not in child.before


def _quit_after_one_move(trace: Path) -> None:
    child = spawn("play", "pagat", "--seed", "11", "--fast", "--trace", str(trace))
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact("[y/N] ")
    child.sendline("y")
    assert finish(child) == 0


def test_a_record_of_a_quit_match_fails_verify_but_replays_to_where_it_stops(tmp_path):
    trace = tmp_path / "left.jsonl"
    _quit_after_one_move(trace)
    total = len(read_record(trace))
    checked = verify(trace)
    assert checked.returncode == 1
    assert checked.stderr == (
        f"{trace}:{total}: the record ends before the match is over\n"
        "  hint: the last match stops before it ends (left at the table, or the file cut "
        f"short): `dominorules replay {trace}` shows it up to there\n")
    child = spawn("replay", str(trace))
    child.expect("replay > ")
    child.sendline(str(total))
    child.expect("replay > ")
    assert f"Event {total} of {total}" in child.before
    assert "The record stops before the match ends." in child.before
    child.sendline("")
    child.expect_exact("End of the record. The record stops before the match ends.")
    assert finish(child) == 0
    assert "Traceback" not in child.before


def test_replay_still_refuses_an_illegal_event_in_a_record_that_stops_early(tmp_path):
    trace = tmp_path / "left.jsonl"
    _quit_after_one_move(trace)
    events = read_record(trace)
    k = next(i for i, e in enumerate(events) if e["event"] == "place")
    events[k] = {**events[k], "player": 1 - events[k]["player"]}  # the wrong seat moves
    trace.write_text("".join(json.dumps(e) + "\n" for e in events))
    child = spawn("replay", str(trace))
    assert finish(child) == 1
    assert f"{trace}:{k + 1}: error: it is player {1 - events[k]['player']}'s turn" \
        in child.before
    assert "replay >" not in child.before
