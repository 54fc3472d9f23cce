"""Rich renderables for the table: tiles, the line, hands, players, events, round and match ends.

Pure functions from values (Observation, record events, Timeline snapshots) to
rich objects; nothing here reads input or knows a variant. Colour is only ever a
second cue: a playable tile is also starred, the open ends are also arrowed, so
the table reads the same with ``NO_COLOR`` or a dumb terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..engine.actions import Action
from ..engine.mechanisms.layout import arm_words, train_name
from ..engine.tiles import Tile

RECENT = 6  # how many of the others' latest actions the table lists


@dataclass(frozen=True)
class Seating:
    """Who sits where: ``kinds[seat]`` is ``you``, ``human``, a bot's name, or ``""``."""

    teams: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...]

    @property
    def players(self) -> int:
        return len(self.kinds)

    @property
    def partnerships(self) -> bool:
        return any(len(t) > 1 for t in self.teams)

    def seat(self, seat: int) -> str:
        kind = self.kinds[seat] if seat < len(self.kinds) else ""
        return f"Seat {seat} ({kind})" if kind else f"Seat {seat}"

    def side_of(self, seat: int) -> int:
        return next(i for i, team in enumerate(self.teams) if seat in team)

    def side(self, index: int) -> str:
        team = self.teams[index]
        if len(team) == 1:
            return self.seat(team[0])
        return f"Side {index} (seats {' and '.join(map(str, team))})"


# -- tiles and the line ----------------------------------------------------------------

def hand_order(tiles: Iterable[Tile]) -> list[Tile]:
    """Highest first, as a player holds them: 6-6 6-4 5-5 ... 0-0."""
    return sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)


def hand_text(tiles: Iterable[Tile], playable: set[Tile] = frozenset()) -> Text:  # type: ignore[assignment]
    """Tiles in hand order; a playable one is bold green and starred."""
    out = Text()
    for i, tile in enumerate(hand_order(tiles)):
        if i:
            out.append("  ")
        if tile in playable:
            out.append(f"{tile}*", style="bold green")
        else:
            out.append(str(tile))
    return out if len(out) else Text("(no tiles)", style="dim")


def _blocks(line: Sequence[tuple[int, int]]) -> list[tuple[str, str, str]]:
    """Each placed tile as three rows; a double stands crosswise (one half above the other)."""
    out = []
    for a, b in line:
        if a == b:
            d = str(a)
            out.append((f"┌{d}┐", f"│{'─' * len(d)}│", f"└{d}┘"))
        else:
            mid = f" {a}-{b} "       # in line order: the half at the left is written first
            out.append((" " * len(mid), mid, " " * len(mid)))
    return out


def line_view(line: Sequence[tuple[int, int]], width: int = 100) -> Text:
    """The line of play in rows of three, wrapped to ``width``, both open ends marked."""
    if not line:
        return Text("(no tile placed yet)", style="dim")
    left, right = line[0][0], line[-1][1]
    head, tail = f"left {left} ◀ ", f" ▶ {right} right"
    blocks = _blocks(line)
    rows: list[list[tuple[str, str, str]]] = [[]]
    used = len(head)
    for block in blocks:
        if rows[-1] and used + len(block[0]) + len(tail) > width:
            rows.append([])
            used = len(head)
        rows[-1].append(block)
        used += len(block[0])
    out = Text()
    for n, row in enumerate(rows):
        first, last = n == 0, n == len(rows) - 1
        pad = " " * len(head)
        for k in range(3):
            body = "".join(block[k] for block in row)
            if k == 1:
                out.append(head if first else pad, style="bold yellow" if first else "")
                out.append(body)
                if last:
                    out.append(tail, style="bold yellow")
            else:
                out.append((pad + body).rstrip())
            out.append("\n")
    out.rstrip()
    return out


def arms_view(arms: Sequence[Sequence[tuple[int, int]]], ends: Sequence[int]) -> Text:
    """A spinner's up and down arms, from the spinner outwards, each open end marked."""
    out = Text()
    for name, arm, end in zip(("up", "down"), arms, ends, strict=False):
        if len(out):
            out.append("\n")
        pip = arm[0][0] if arm else end
        out.append(f"{name:>4} arm from the spinner {pip}-{pip}: ")
        out.append(" ".join(f"{a}-{b}" for a, b in arm) or "(empty)")   # as on the line
        out.append(f" ▶ {end} {name}", style="bold yellow")
    return out


def shaped_view(line: Sequence[tuple[int, int]], arm_names: Sequence[str],
                arms: Sequence[Sequence[tuple[int, int]]], open_ends: Sequence[tuple[str, int]],
                cover_first: Sequence[str] = (), width: int = 100,
                counted: Sequence[tuple[str, int]] = (), marked: Sequence[str] = (),
                own: str = "") -> Text:
    """A ``board.layout`` board: the line (when its ends are open), then every arm (or
    train) on a line of its own, named as moves name it (``5-5/3``, ``train 2``), from its
    double outwards, its open end arrowed, an arm to be covered first starred, a train
    whose owner's marker is down said so (and ``own``, the viewer's train), one a double
    closed said so; long arms wrap under themselves, so any shape fits ``width``
    columns."""
    if not line and not arm_names:
        return Text("(no tile placed yet)", style="dim")
    values = dict(open_ends)
    out = Text()
    if "left" in values or "right" in values:
        out.append_text(line_view(line, width) if "left" in values else _right_only(line))
    else:
        a, b = line[0]
        out.append(f"centre: {a}-{b}")
    label = max((len(name) for name in arm_names), default=0)
    for name, arm in zip(arm_names, arms, strict=True):
        out.append("\n")
        tiles = [f"{a}-{b}" if a != b else f"[{a}-{b}]" for a, b in arm] or ["(empty)"]
        if name in values:
            star = " * cover first" if name in cover_first else ""
            flag = " (marker: open to all)" if name in marked else ""
            mine = " (yours)" if name == own else ""
            tail, style = f"▶ {values[name]}{star}{flag}{mine}", "bold yellow"
        elif name in dict(counted):   # an attachment: nothing lies on it, ever
            tiles, tail, style = [], f"counts {dict(counted)[name]}, never played on", ""
        else:
            tail, style = "(closed: a double grows from it)", "dim"
        row = f"  {name:<{label}}  "
        pad = " " * len(row)
        used = len(row)
        out.append(row)
        for tile in tiles:
            if used + len(tile) + 1 > width - len(tail) and used > len(pad):
                out.append("\n" + pad)
                used = len(pad)
            out.append(tile + " ")
            used += len(tile) + 1
        out.append(tail, style=style)
    return out


def _right_only(line: Sequence[tuple[int, int]]) -> Text:
    """A line that grows at its right end only: its tiles, then that end."""
    out = Text(" ".join(f"{a}-{b}" if a != b else f"[{a}-{b}]" for a, b in line) + " ")
    out.append(f"▶ {line[-1][1]} right", style="bold yellow")
    return out


# -- events ------------------------------------------------------------------------------

def rule_title(titles: Sequence[str], index: int) -> str:
    """An event rule's title, or its place in ``events`` (from 1) when it has none."""
    title = titles[index] if 0 <= index < len(titles) else ""
    return title or f"event rule {index + 1}"


PLAY_EVENTS = ("draw", "place", "pass", "score", "extra_turn", "skip",   # told as they happen
               "declare", "claim", "penalty", "turn_up", "set", "duty", "duty_met",
               "duty_failed", "out")


def event_text(event: dict[str, Any], seating: Seating, show_drawn: bool = True,
               rule_titles: Sequence[str] = ()) -> str:
    """One record event as a sentence (a drawn tile only when known and ``show_drawn``);
    ``rule_titles`` name the ruleset's event rules in ``score`` events."""
    kind = event.get("event")
    who = seating.seat(event["player"]) if "player" in event else ""
    if kind == "match_start":
        return (f"A match of {event.get('ruleset')} for {event.get('players')} players "
                f"(seed {event.get('seed')})")
    if kind == "deal":
        if event.get("leader") is None:
            return f"Round {event['round']} dealt, but nobody can open: the tiles are dealt again"
        text = f"Round {event['round']} dealt; {seating.seat(event['leader'])} leads"
        sizes = [len(h) for h in event.get("hands", ())]
        if sizes and max(sizes) > min(sizes):   # deal.leftover: one seat holds the rest
            seat = sizes.index(max(sizes))
            left = max(sizes) - min(sizes)
            text += (f"; {seating.seat(seat)} takes the "
                     + (f"{left} tiles" if left > 1 else "tile") + " left over")
        return text
    if kind == "draw":
        tile = event.get("tile")
        return f"{who} draws {Tile.of(tile)}" if tile and show_drawn else f"{who} draws a tile"
    if kind == "place":
        tile = Tile.of(event["tile"])
        if event.get("end") is None:
            return f"{who} opens with {tile}"
        if "/" in event["end"] or event["end"] not in ("left", "right", "up", "down"):
            # a board.layout arm (5-5/3) or train (train 2, or a shared train's name)
            part = event.get("part")   # a run on one train (play.several move: chain)
            run = f" (tile {part[0]} of {part[1]} in a run)" if part else ""
            return f"{who} plays {tile} on {arm_words(event['end'])}{run}"
        arm = " arm" if event["end"] in ("up", "down") else ""
        meets = event.get("meets")   # a fit rule's tile that could lie either way round
        way = f", the {meets} against it" if meets is not None else ""
        part = event.get("part")   # a move of several tiles (play.several)
        if part:
            way += f" (tile {part[0]} of {part[1]} at once)"
        return f"{who} plays {tile} on the {event['end']}{arm}{way}"
    if kind == "pass":
        if "tile" in event:   # deal.blind: the front tile, shown and put back
            return (f"{who} turns up {Tile.of(event['tile'])}, which does not fit: it goes "
                    "to the back of the row")
        return f"{who} passes"
    if kind == "turn_up":   # deal.turn_up
        return f"{Tile.of(event['tile'])} is turned up from the stock to start the line"
    if kind == "score":
        return (f"{seating.side(event['side'])} scores {event['points']} "
                f"({rule_title(rule_titles, event['rule'])})")
    if kind == "extra_turn":
        return f"{who} plays again"
    if kind == "skip":
        return f"{who} is skipped"
    if kind == "out":   # play.until: side_out
        rest = [s for s in seating.teams[seating.side_of(event["player"])]
                if s != event["player"]]
        until = (f"{seating.seat(rest[0])} is out too" if len(rest) == 1
                 else "the rest of the side is out")
        return f"{who} is out; play goes on until {until}"
    if kind in ("declare", "claim", "penalty"):
        return declaration_text(event, who, seating)
    if kind in ("set", "duty", "duty_met", "duty_failed"):   # events[].set and duty
        return _effect_text(event, who, seating, rule_titles)
    if kind == "round_end":
        return round_result_text(event, seating)
    if kind == "match_end":
        return match_result_text(event, seating)
    return str(event)


def declaration_text(event: dict[str, Any], who: str, seating: Seating) -> str:
    """A declaration, a claim or a showdown's penalty as a sentence."""
    kind = event["event"]
    gains = ", ".join(f"{seating.side(i)} {p:+d}" for i, p in enumerate(event["points"])
                      if p) if "points" in event else ""
    if kind == "declare":
        return f"{who} declares {event['option']}"
    if kind == "claim":
        said = (f"{who} claims {event['claimed']}" if event["claimed"] else
                f"{who} claims nothing")
        return f"{said} (worth {event['worth']}): {gains or 'no points'}"
    passes = event["passes"]
    return (f"{who} passed {passes} time{'s' * (passes != 1)} while able to place: "
            f"{gains or 'no points'}")


def declaration_prompt(obs) -> Text:
    """At a declaration: what is asked, in the rule's words."""
    decl = next((d for d in obs.rules.declarations if d.name == obs.declaration), None)
    if decl is None:
        return Text("")
    said = f"{decl.title or decl.name}: {decl.explain}" if decl.explain else (
        decl.title or decl.name)
    return Text(f"Declare now · {said}", style="bold")


def _effect_text(event: dict[str, Any], who: str, seating: Seating,
                 rule_titles: Sequence[str]) -> str:
    """A variable set or a duty laid, met or failed, as a sentence."""
    kind, why = event["event"], rule_title(rule_titles, event["rule"])
    if kind == "set":
        return f"{event['variable']} is now {event['value']} ({why})"
    if kind == "duty":
        return f"{who} must meet a duty: {why} (laid by {Tile.of(event['tile'])})"
    if kind == "duty_met":
        return f"{who} meets the duty ({why})"
    later = event.get("next")
    then = (f"; {seating.seat(later)} bears it now" if later is not None else "; it lapses")
    return f"{who} fails the duty ({why}){then}"


def draws_text(who: str, count: int) -> str:
    """Several hidden draws of one turn as one sentence: "Seat 1 draws 3 tiles"."""
    return f"{who} draws a tile" if count == 1 else f"{who} draws {count} tiles"


def round_result_text(event: dict[str, Any], seating: Seating, by: int | None = None) -> str:
    """The round's outcome; ``by`` names the seat that dominoed when it is known."""
    rnd, winner = event["round"], event.get("winner")
    blocked = event.get("result") == "blocked"
    if event.get("result") == "target":   # match.ends_in_play
        return f"Round {rnd} stops: the target is reached during play; the round is not scored"
    if winner is None:
        return (f"Round {rnd} is blocked and the lowest hands tie: nobody scores" if blocked
                else f"Round {rnd} ends: nobody scores")
    points = event["points"][winner]
    if blocked:
        return f"Round {rnd} is blocked: {seating.side(winner)} wins it and scores {points}"
    if by is not None and seating.side_of(by) == winner and seating.partnerships:
        return f"Round {rnd}: {seating.seat(by)} dominoes; {seating.side(winner)} scores {points}"
    return f"Round {rnd}: {seating.side(winner)} dominoes and scores {points}"


def match_result_text(event: dict[str, Any], seating: Seating) -> str:
    scores = event["scores"]
    winner = event.get("winner")
    table = ", ".join(f"{seating.side(i)} {s}" for i, s in enumerate(scores))
    if winner is None:
        return f"The match is drawn: {table}"
    return f"{seating.side(winner)} wins the match: {table}"


def recent_others(history: Sequence[dict[str, Any]], seat: int, seating: Seating,
                  limit: int = RECENT, rule_titles: Sequence[str] = ()) -> list[str]:
    """The others' actions since ``seat`` last acted in this round (at most ``limit``), a
    player's draws in a row told as one ("Seat 1 draws 3 tiles")."""
    since: list[dict[str, Any]] = []
    for event in reversed(history):
        kind = event.get("event")
        if kind in ("deal", "round_end", "match_start") or event.get("player") == seat:
            break
        if kind in PLAY_EVENTS:
            since.append(event)
    out: list[str] = []
    run = 0
    for i, event in enumerate(reversed(since)):
        nxt = since[-i - 2] if i + 1 < len(since) else None
        if event["event"] == "draw":
            run += 1
            if nxt and nxt["event"] == "draw" and nxt["player"] == event["player"]:
                continue
            out.append(draws_text(seating.seat(event["player"]), run))
            run = 0
        else:
            out.append(event_text(event, seating, show_drawn=False, rule_titles=rule_titles))
    return out[-limit:]


# -- the table ---------------------------------------------------------------------------

def players_table(seating: Seating, hand_sizes: Sequence[int], scores: Sequence[int],
                  to_play: int | None, viewer: int | None = None) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name in ("", "player", "side", "tiles", "score"):
        table.add_column(name, justify="right" if name in ("tiles", "score") else "left")
    for seat in range(seating.players):
        side = seating.side_of(seat)
        marker = "▶" if seat == to_play else ""
        name = seating.seat(seat)
        if viewer is not None and "you" not in name:   # hot-seat: whose screen this is
            if seat == viewer:
                name += " - you"
            elif seating.partnerships and side == seating.side_of(viewer):
                name += " - your partner"
        table.add_row(marker, name, str(side), str(hand_sizes[seat]), str(scores[side]))
    return table


SHOWN_RUNS = 8   # moves of several tiles listed by number; the rest are typed


def actions_text(legal: Sequence[Action]) -> Text:
    """The legal moves, numbered. Past ``SHOWN_RUNS`` moves of several tiles (a long
    hand's first-turn runs, play.several move: chain, number hundreds) the rest are
    counted, not listed: each may still be typed, or picked by its number."""
    out = Text()
    runs = 0
    for i, action in enumerate(legal, 1):
        if action.kind == "several":
            runs += 1
            if runs > SHOWN_RUNS:
                continue
        if i > 1:
            out.append("   ")
        out.append(f"{i}) ", style="bold")
        out.append(str(action))
    if runs > SHOWN_RUNS:
        out.append(f"   ... and {runs - SHOWN_RUNS} more moves of several tiles: type one, "
                   "its tiles joined by +")
    return out


def _goal(obs) -> str:
    """What the match's target counts, after the round number: points to reach, the
    round count of a fixed-length match (``match.end: rounds``), or rounds to win."""
    if obs.rules.match_end == "rounds":
        return f" of {obs.target}"
    return f" · {match_goal(obs.rules.match_end, obs.target)}"


def match_goal(match_end: str, target: int) -> str:
    """The match's goal in words (``match.end``): a target of points, a number of rounds
    played, or rounds to win; the match's opening line and the status line say it alike."""
    if match_end == "rounds":
        return f"{target} round{'s' * (target != 1)}"
    if match_end == "rounds_won":
        return f"{target} round{'s' * (target != 1)} won wins"
    return f"target {target}"


def table_view(obs, seating: Seating, legal: Sequence[Action], width: int = 100) -> Group:
    """What the player to act sees: status, players, the line, recent actions, hand, moves."""
    playable = {a.tile for a in legal if a.kind == "place"}
    playable |= {p.tile for a in legal if a.kind == "several" for p in a.parts}
    status = Text(f"Round {obs.round}{_goal(obs)} · boneyard {obs.boneyard} "
                  f"tile{'s' * (obs.boneyard != 1)}, {obs.drawable} may be drawn · "
                  f"{seating.seat(obs.to_play)} to play")
    parts: list[Any] = [Text(""), status,
                        players_table(seating, obs.hand_sizes, obs.scores, obs.to_play, obs.seat),
                        Text("")]
    if obs.rules.layout is not None:
        parts.append(shaped_view(obs.line, obs.arm_names, obs.arms,
                                 tuple(zip(obs.end_names, obs.ends or (), strict=True)),
                                 obs.cover_first, width, obs.counted, obs.marked,
                                 train_name(obs.seat)))
    else:
        parts.append(line_view(obs.line, width))
    if obs.ends and len(obs.ends) == 4 and obs.rules.layout is None:
        parts.append(arms_view(obs.arms, obs.ends[2:]))
    titles = tuple(rule.title for rule in obs.rules.events)
    recent = recent_others(obs.history, obs.seat, seating, rule_titles=titles)
    if recent:
        parts.append(Text("Since your last turn: " + "; ".join(recent), style="italic"))
    if obs.drawn_this_turn:
        parts.append(Text(f"You have drawn {obs.drawn_this_turn} this turn."))
    hand = Text().append("Your hand: ", style="bold")
    if obs.rules.blind:   # deal.blind: face down even to you; the moves name the front tile
        size = obs.hand_sizes[obs.seat]
        hand.append(f"{size} tile{'s' * (size != 1)} face down in a row; you turn up the "
                    "front one")
    else:
        hand.append_text(hand_text(obs.hand, playable))
    if obs.phase == "declare":
        parts.append(declaration_prompt(obs))
    parts += [hand, Text("Moves: ").append_text(actions_text(legal))]
    return Group(*parts)


def round_end_view(snapshot, event: dict[str, Any], seating: Seating) -> Group:
    """Every hand revealed, its pips, the round's points and the running scores."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name in ("player", "hand", "pips"):
        table.add_column(name, justify="right" if name == "pips" else "left")
    for seat in range(seating.players):
        table.add_row(seating.seat(seat), hand_text(snapshot.hands[seat]),
                      str(event["pips"][seat]))
    points = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name in ("side", "points", "score"):
        points.add_column(name, justify="left" if name == "side" else "right")
    for i in range(len(seating.teams)):
        points.add_row(seating.side(i), str(event["points"][i]), str(event["scores"][i]))
    empty = [s for s in range(seating.players) if not snapshot.hands[s]]
    by = empty[0] if event.get("result") == "domino" and len(empty) == 1 else None
    parts: list[Any] = [Text(""), Text(round_result_text(event, seating, by), style="bold"),
                        table, points]
    if event.get("variables"):   # the ruleset's variables, as the next round plays them
        parts.append(Text(variables_text(event["variables"])))
    return Group(*parts)


def variables_text(values: dict[str, int]) -> str:
    """The variables a round's end sets for the next round: "Next round: stake 2"."""
    return "Next round: " + ", ".join(f"{name} {value}" for name, value in values.items())


def snapshot_view(snap, seating: Seating, step: int, total: int, width: int = 100,
                  rule_titles: Sequence[str] = ()) -> Group:
    """A replayed position: the event just played, every hand, the line, the scores."""
    head = Text(f"Event {step} of {total} · round {snap.round} · boneyard {snap.boneyard} "
                f"tile{'s' * (snap.boneyard != 1)}", style="bold")
    said = Text(event_text(snap.event, seating, rule_titles=rule_titles))
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name in ("", "player", "side", "hand", "score"):
        table.add_column(name, justify="right" if name == "score" else "left")
    acted = snap.event.get("player")
    for seat in range(seating.players):
        side = seating.side_of(seat)
        table.add_row("▶" if seat == acted else "", seating.seat(seat), str(side),
                      hand_text(snap.hands[seat]),
                      str(snap.scores[side]) if side < len(snap.scores) else "")
    if snap.open_ends or snap.arm_names:   # a board.layout board
        board = shaped_view(snap.line, snap.arm_names, snap.arms, snap.open_ends,
                            snap.cover_first, width, snap.counted, snap.marked)
    else:
        board = line_view(snap.line, width)
    parts: list[Any] = [Text(""), head, said, table, Text(""), board]
    ends = snap.ends
    if ends and len(ends) == 4 and not snap.open_ends:
        parts.append(arms_view(snap.arms, ends[2:]))
    if snap.event.get("event") == "round_end":
        parts.append(round_end_view(snap, snap.event, seating))
    return Group(*parts)
