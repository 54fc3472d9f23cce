"""Which voluntary choices the bots of a run actually make, counted in sample matches.

A rule about a choice a bot never makes (forbidding voluntary draws, when ``random``
draws only when it must) cannot change that bot's matches: the explorer's table then
shows ``+0 ±0`` everywhere and a reader takes the rule for one that changes nothing.
This module plays a few matches of each ruleset with the run's bots, step by step,
and counts at every decision whether a voluntary choice was offered (a draw beside a
placement; a pass beside a placement or a draw) and whether it was taken. The note
comes from those counts alone, never from rule names: a ruleset that offers a choice
the other does not, bots that took it in neither, and a builtin bot that does take it
(found the same way) to suggest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_MATCHES = 6
MOST_DECISIONS = 20_000          # per sample: a probe never takes long
# builtin bots tried, in this order, for one that makes the choice
CANDIDATES = ("drawer", "strategist", "greedy", "random")
# each choice: what the record calls the action, and the words a player uses for it
CHOICES = {"draw": "drew while holding a playable tile (a voluntary draw)",
           "pass": "passed while able to play or draw (a voluntary pass)"}


@dataclass(frozen=True)
class Use:
    """Per choice: decisions where it was offered, and how often it was taken."""

    offered: dict[str, int]
    taken: dict[str, int]


def _voluntary(kind: str, kinds: set[str]) -> bool:
    """True when ``kind`` is legal beside something else a bot could do instead."""
    if kind == "draw":
        return "draw" in kinds and "place" in kinds
    return "pass" in kinds and len(kinds) > 1


def count_use(ref: str, players: int, bots: Sequence[str], seed: int,
              matches: int = SAMPLE_MATCHES) -> Use:
    """Play ``matches`` matches of ``ref`` (seeds of the run), counting each choice."""
    from .. import api

    game = api.load_game(ref)
    offered = dict.fromkeys(CHOICES, 0)
    taken = dict.fromkeys(CHOICES, 0)
    decisions = 0
    for i in range(matches):
        seed_i = api.match_seed(seed, i)
        state = game.new_match(players, seed_i, record=True)
        seats = api.make_bots(list(bots) if len(bots) == players else bots[0], players, seed_i)
        while not state.is_terminal and decisions < MOST_DECISIONS:
            seat = state.current_player
            legal = state.legal_actions()
            action = seats[seat].choose(state.observation(seat), legal)
            kinds = {a.kind for a in legal}
            for kind in CHOICES:
                if _voluntary(kind, kinds):
                    offered[kind] += 1
                    taken[kind] += action.kind == kind
            state.apply(action)
            decisions += 1
    return Use(offered, taken)


def unused_choice_notes(refs: Sequence[str], labels: Sequence[str], players: int,
                        bots: Sequence[str], seed: int,
                        matches: int = SAMPLE_MATCHES) -> list[str]:
    """One line per choice that some ruleset offers and another does not while the bots
    took it in none of them: the rules about it cannot show in these matches."""
    try:
        uses = [count_use(ref, players, bots, seed, matches) for ref in refs]
    except Exception:  # noqa: BLE001 - a note is never worth failing a finished run for
        return []
    notes = []
    for kind, words in CHOICES.items():
        offering = [k for k, u in enumerate(uses) if u.offered[kind]]
        if not offering or len(offering) == len(uses):
            continue            # every ruleset, or none, offers it: no rule about it differs
        if any(u.taken[kind] for u in uses):
            continue
        allow = ", ".join(labels[k] for k in offering)
        others = ", ".join(labels[k] for k in range(len(uses)) if k not in offering)
        who = ",".join(dict.fromkeys(bots))
        better = next((c for c in CANDIDATES if c not in bots and _takes(
            c, refs[offering[0]], players, seed, matches, kind)), None)
        hint = (f" To measure it, play bots that do: --bots {better}." if better
                else " No builtin bot makes that choice.")
        notes.append(f"Note: the bots ({who}) never {words} in {matches} sample matches of "
                     f"each: {allow} allows it, {others} does not, and these matches cannot "
                     f"show what that changes in play.{hint}")
    return notes


def _takes(bot: str, ref: str, players: int, seed: int, matches: int, kind: str) -> bool:
    """Whether the builtin ``bot`` takes the choice ``kind`` in sample matches of ``ref``."""
    try:
        return count_use(ref, players, (bot,), seed, matches).taken[kind] > 0
    except Exception:  # noqa: BLE001 - a bot that cannot play this ruleset is no suggestion
        return False


@dataclass(frozen=True)
class Declared:
    """What a ruleset's declarations did in sample matches (``declarations``,
    ``showdown``): options taken, claims by outcome, the points they moved."""

    options: dict[str, int]      # "declaration option" -> times taken
    claims: dict[str, int]       # right, missed (nothing claimed of a count), wrong
    claim_points: int            # points the claims gave the claimers' sides
    taken_points: int            # points they gave the other sides
    penalties: int               # seats found out at the showdown
    penalty_points: int          # points those penalties moved (lost and gained)
    penalty_draws: int = 0       # tiles drawn for an option's draw (a call not made)


def count_declarations(ref: str, players: int, bots: Sequence[str], seed: int,
                       matches: int = SAMPLE_MATCHES) -> Declared | None:
    """Play ``matches`` recorded matches of ``ref`` with the run's bots and count what its
    declarations did; None for a ruleset without declarations or a showdown."""
    from .. import api

    game = api.load_game(ref)
    if not game.rules.declarations and game.rules.showdown is None:
        return None
    options: dict[str, int] = {}
    claims = dict.fromkeys(("right", "missed", "wrong"), 0)
    gained = taken = shown = moved = drawn = 0
    named = {d.name for d in game.rules.declarations}   # a draw naming one: its penalty
    for i in range(matches):
        seed_i = api.match_seed(seed, i)
        seats = list(bots) if len(bots) == players else [bots[0]] * players
        for e in api.play_match(game, players, seed_i, bots=seats, trace=True).events:
            kind = e["event"]
            if kind == "declare":
                key = f"{e['declaration']} {e['option']}"
                options[key] = options.get(key, 0) + 1
            elif kind == "claim":
                mine = e["points"][game.side_of(players)[e["player"]]]
                gained += mine
                taken += sum(e["points"]) - mine
                claims["right" if e["claimed"] == e["worth"] else
                       "missed" if e["claimed"] == 0 else "wrong"] += 1
            elif kind == "penalty":
                shown += 1
                moved += sum(abs(p) for p in e["points"])
            elif kind == "draw" and e.get("rule") in named:
                drawn += 1
    return Declared(options, claims, gained, taken, shown, moved, drawn)


def declaration_notes(refs: Sequence[str], labels: Sequence[str], players: int,
                      bots: Sequence[str], seed: int, matches: int = SAMPLE_MATCHES
                      ) -> list[str]:
    """One line per ruleset with declarations: what the bots declared and claimed, and the
    penalties paid, in ``matches`` sample matches (compare's report)."""
    notes = []
    who = ",".join(dict.fromkeys(bots))
    for ref, label in zip(refs, labels, strict=True):
        try:
            got = count_declarations(ref, players, bots, seed, matches)
        except Exception:  # noqa: BLE001 - a note is never worth failing a finished run for
            continue
        if got is None:
            continue
        said = []
        if got.options:
            said.append("declared " + ", ".join(f"{k} {n}x" for k, n in got.options.items()))
        if sum(got.claims.values()):
            c = got.claims
            said.append(f"claims {c['right']} right, {c['missed']} missed, {c['wrong']} wrong "
                        f"({got.claim_points} points to the claimers, {got.taken_points} "
                        "to their opponents)")
        if got.penalties:
            said.append(f"{got.penalties} penalties at the showdown ({got.penalty_points} "
                        "points moved)")
        if got.penalty_draws:
            said.append(f"{got.penalty_draws} tiles drawn as penalties")
        notes.append(f"Declarations in {matches} sample matches of {label} (bots {who}): "
                     + ("; ".join(said) or "none taken") + ".")
    return notes
