"""Game records (``docs/records.md``): write and read JSON Lines, and verify them.

``verify_file`` re-plays every match of a record through the engine under the
ruleset its ``match_start`` names (a builtin name, or the file in ``source``) and
returns the first event the rules do not allow or that is scored wrongly, as a
``Diagnostic`` at that line. Deals are taken from the record (they may come from
another program's shuffle); a leader chosen by lot is taken from it too, every
other leader is checked. A last match that merely stops early gets its own code
(``TRUNCATED``), so ``replay`` can show it while ``verify`` still fails it.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from .diagnostics import Diagnostic, DiagnosticError
from .engine.actions import (
    Action,
    AmbiguousActionError,
    IllegalActionError,
    board_names,
    is_arm,
)
from .engine.game import Deal, Game
from .engine.leaders import RANDOM_CHOOSERS
from .engine.mechanisms.deal import copies_problem
from .engine.state import State
from .engine.tiles import Tile
from .files import check_path, read_bytes
from .record_format import shape_problem
from .record_lines import dumps, encode_events

__all__ = ["TRUNCATED", "dumps", "encode_events", "parse_line", "read_records", "verify_file",
           "write_events", "write_records"]


def write_events(out: IO[str], events: Iterable[dict[str, Any]]) -> None:
    """Append events to an open text file, one line each."""
    out.write(encode_events(events))


def write_records(path: str, events: Iterable[dict[str, Any]]) -> None:
    """Write events (one or more matches) to ``path`` as JSON Lines."""
    with open(path, "w", encoding="utf-8") as out:
        write_events(out, events)


MAX_DIGITS = 1000  # digits a number in a record may have: far beyond any score, and
#                    far below what makes int() slow (Python refuses 4300)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record may hold")


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits is too long "
                         f"(at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    raise ValueError(f"{text} is not a whole number: records hold only whole numbers")


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_int=_number, parse_float=_float)


def parse_line(text: str) -> Any:
    """One record line as JSON: only whole numbers of sane size (no floats, NaN or
    Infinity). Raises ``ValueError`` with a message fit for the user
    (``json.JSONDecodeError`` is one, with ``msg`` and ``colno``) or ``RecursionError``.
    """
    return _DECODER.decode(text)


def read_records(path: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, event) for every non-blank line; a bad line raises ``DiagnosticError``."""
    return list(iter_records(path))


def iter_records(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``read_records`` one line at a time: a record of 100 MB is never held as events."""
    raw = read_bytes(path, "record")
    if isinstance(raw, Diagnostic):
        raise DiagnosticError([raw])
    for number, line in enumerate(io.BytesIO(raw), 1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise DiagnosticError([Diagnostic("record", f"{path} is a binary file, not a "
                                              "JSON Lines game record", file=path)]) from None
        if not text.strip():
            continue
        try:
            event = parse_line(text)
        except json.JSONDecodeError as exc:
            raise DiagnosticError([Diagnostic(
                "record", f"not JSON: {exc.msg}", file=path, line=number,
                column=exc.colno)]) from None
        except ValueError as exc:
            raise DiagnosticError([Diagnostic(
                "record", f"not a record line: {exc}", file=path, line=number)]) from None
        except RecursionError:
            raise DiagnosticError([Diagnostic(
                "record", "not a record line: nested too deeply", file=path,
                line=number)]) from None
        problem = shape_problem(event)
        if problem:
            raise DiagnosticError([Diagnostic("record", problem, file=path, line=number)])
        yield number, event


# the code of the one problem that is not a wrong event: the last match stops early
# (a game quit, or ended by EOF or Ctrl-C). ``verify`` fails on it; ``replay`` shows
# such a record up to where it stops.
TRUNCATED = "record-truncated"


class RecordMismatch(Exception):
    """A record that does not hold at ``line``: ``message`` says what is wrong, ``code`` is
    the diagnostic's (``record``, or ``TRUNCATED``). ``verify_file`` turns it into its one
    diagnostic; ``check_file_strict`` (``verify --strict``) turns it into the rulebook's."""

    def __init__(self, line: int, message: str, code: str = "record"):
        super().__init__(message)
        self.line = line
        self.message = message
        self.code = code


def verify_file(path: str, load_game=None) -> list[Diagnostic]:
    """The first problem of a record file, or ``[]`` when every match in it is right."""
    if load_game is None:
        from .api import load_game
    games: dict[str, Game] = {}  # each ruleset the record names is loaded once

    def load_once(ref: str, load=load_game) -> Game:
        if ref not in games:
            games[ref] = load(ref)
        return games[ref]

    try:
        before = None   # one match is held at a time, and the next is read to know the last
        for match in _matches(iter_records(path)):
            if before is not None:
                _verify_match(before, path, load_once, last=False)
            before = match
        if before is None:
            return [with_record_hint(Diagnostic("record", "the record holds no events",
                                                file=path), path)]
        _verify_match(before, path, load_once, last=True)
    except DiagnosticError as exc:
        return [with_record_hint(d, path) for d in exc.diagnostics]
    except RecordMismatch as exc:
        return [with_record_hint(Diagnostic(exc.code, exc.message, file=path, line=exc.line),
                                 path)]
    return []


def with_record_hint(d: Diagnostic, path: str) -> Diagnostic:
    """``d`` with a hint saying what would make the record readable, when it has none: a
    ruleset given where a record goes, a last line cut short, a quit match, an edited line."""
    if d.hint or d.file != path:
        return d
    if d.message == "the record holds no events" or "not a JSON Lines" in d.message or \
            d.message.startswith(("not JSON", "not a record line")) and \
            path.endswith((".yaml", ".yml")):
        if path.endswith((".yaml", ".yml")):
            hint = (f"{path} looks like a ruleset: `dominorules validate {path}` checks one; "
                    "verify and replay read a game record")
        else:
            hint = ("give a game record as --trace writes one "
                    "(dominorules simulate RULESET --matches 1 --trace game.jsonl)")
    elif d.message.startswith(("not JSON", "not a record line")):
        hint = ("the last line is cut short: the file was truncated while it was written"
                if _last_line_cut(path, d.line) else
                "each line of a record is one JSON object, as --trace writes it: was this "
                "line edited?")
    elif d.code == TRUNCATED:
        hint = ("the last match stops before it ends (left at the table, or the file cut "
                f"short): `dominorules replay {path}` shows it up to there")
    elif d.code == "record" and d.line:
        hint = ("this line does not follow from the lines before it: the record was edited, "
                "or written by another version (docs/records.md tells each event's fields)")
    else:
        return d
    return dataclasses.replace(d, hint=hint)


def _last_line_cut(path: str, line: int) -> bool:
    """Whether ``line`` is the file's last and ends without a line break (written half)."""
    raw = read_bytes(path, "record")
    if isinstance(raw, Diagnostic) or raw.endswith(b"\n"):
        return False
    return raw.count(b"\n") + 1 == line


def check_file_strict(path: str) -> list[Diagnostic]:
    """The rulebook's reading of a record file (``verify --strict``): the first place it
    disagrees with the rules as documented (``engine.rulebook``), or ``[]``. Each match's
    ruleset is loaded through ``ruleset_for``, the same gate as ``verify_file``."""
    from .engine.rulebook import Disagreement, check_matches
    from .rules import load_ruleset

    try:
        lines = read_records(path)
    except DiagnosticError as exc:
        return exc.diagnostics
    loaded: dict[str, Any] = {}

    def load(ref: str) -> Any:
        if ref not in loaded:
            loaded[ref] = load_ruleset(ref).rules
        return loaded[ref]

    def rules_for(line: int, start: dict[str, Any]) -> Any:
        try:
            return ruleset_for(line, start, load, path)
        except RecordMismatch as exc:
            raise Disagreement(exc.line, exc.message) from None

    return check_matches(lines, path, rules_for)


def _matches(events: Iterable[tuple[int, dict]]) -> Iterator[list[tuple[int, dict]]]:
    current: list[tuple[int, dict]] = []
    for line, e in events:
        if e["event"] == "match_start" and current:
            yield current
            current = []
        if not current and e["event"] != "match_start":
            raise RecordMismatch(line, f"a match must begin with match_start, not {e['event']}")
        current.append((line, e))
    if current:
        yield current


def ruleset_for(line: int, start: dict, load_game, record_path: str = "") -> Game:
    """The game a ``match_start`` names (what ``load_game`` returns for its ruleset: a
    builtin's name or a file's path), opening only what a record may point at; raises
    ``RecordMismatch`` at ``line`` when it names nothing that may be opened or loaded.

    A record may name a builtin ruleset (``ruleset``), or a YAML file (``source``,
    ending ``.yaml`` or ``.yml``; relative to the record's folder unless absolute),
    read through the same gate as any ruleset. Nothing else is opened: a ``ruleset``
    that is a path, or a ``source`` that is not a YAML file, is refused.
    """
    if load_game is None:
        from .api import load_game
    from .rules.resources import builtin_paths

    ruleset_file = start.get("source")  # the field a record names a YAML file by
    name = start["ruleset"]
    if ruleset_file is not None:
        if not isinstance(ruleset_file, str) or not ruleset_file.endswith((".yaml", ".yml")):
            raise RecordMismatch(line, f"source {str(ruleset_file)[:80]!r} is not a .yaml or .yml "
                            "ruleset file; a record may point only at one")
        full = os.path.join(os.path.dirname(record_path), os.path.expanduser(ruleset_file))
        problem = check_path(full, "ruleset")
        if problem is not None:   # never the builtin of the same name: it may differ
            raise RecordMismatch(line, f"ruleset {name[:80]!r}: {problem.message} (the record "
                                "was played with that file: put it back, or correct its source)")
        ref = full
    elif name in builtin_paths():
        ref = name
    else:
        raise RecordMismatch(line, f"ruleset {name[:80]!r}: no builtin ruleset has this name, and "
                        "the record names no source file")
    try:
        return load_game(ref)
    except DiagnosticError as exc:
        first = exc.diagnostics[0].message if exc.diagnostics else "cannot load it"
        raise RecordMismatch(line, f"ruleset {ref[:80]!r}: {first}") from None


def _tiles(line: int, items: Any) -> list[Tile]:
    try:
        return [Tile.of(t) for t in items]
    except (TypeError, ValueError):
        raise RecordMismatch(line, f"bad tiles {items!r}: write each as [low, high]") from None


def _deals(game: Game, players: int, match: list[tuple[int, dict]]) -> list[Deal]:
    ts = game.tileset
    rules = game.rules
    deals = []
    for line, e in match:
        if e["event"] != "deal":
            continue
        hands = [_tiles(line, h) for h in e["hands"]]
        boneyard = _tiles(line, e["boneyard"])
        if len(hands) != players:
            raise RecordMismatch(line, f"{len(hands)} hands dealt for {players} players")
        size = game.hand_size(players)
        if rules.leftover != "boneyard" and e["leader"] is not None:   # one seat holds the rest
            _leftover_held(line, game, players, e["leader"], hands)
            size = -1
        for seat, hand in enumerate(hands):
            if size >= 0 and len(hand) != size:
                raise RecordMismatch(line, f"seat {seat} is dealt {len(hand)} tiles; the rules "
                                f"deal {size}")
        every = [t for h in hands for t in h] + boneyard
        wrong = [t for t in every if not ts.holds(t)]
        if wrong:
            raise RecordMismatch(line, ts.missing(str(wrong[0]), wrong[0]))
        if ts.copies > 1:   # set.copies: each name as often as the sets hold it
            if sorted(every) != sorted(ts.tiles):
                raise RecordMismatch(line, copies_problem(
                    [(t.low, t.high) for t in every], ts.copies, ts.tile_count))
        elif len(set(every)) != len(every) or len(every) != ts.tile_count:
            raise RecordMismatch(line, f"the deal must hold each of the {ts.tile_count} tiles "
                            f"once; it holds {len(set(every))} different tiles in "
                            f"{len(every)}")
        choice = rules.first_leader if e["round"] == 1 else rules.later_leader
        leader = e["leader"] if choice in RANDOM_CHOOSERS else None
        if leader is not None and not (isinstance(leader, int) and 0 <= leader < players):
            raise RecordMismatch(line, f"leader {leader!r} is not a seat")
        deals.append(Deal(tuple(map(tuple, hands)), tuple(boneyard), leader))
    return deals


def _leftover_held(line: int, game: Game, players: int, leader: Any, hands: list) -> None:
    """``deal.leftover``: the seat it names from the deal's leader holds the tiles left
    over (``engine.mechanisms.leftover``)."""
    from .engine.mechanisms import leftover

    if not (isinstance(leader, int) and 0 <= leader < players):
        return   # the replay says what is wrong with the leader
    step = 1 if game.rules.direction == "left" else -1
    seat = leftover.receiver(game.rules.leftover, leader, lambda s: (s + step) % players,
                             players)
    want = leftover.sizes(game.hand_size(players), players, game.tileset.tile_count, seat)
    if [len(h) for h in hands] != want:
        raise RecordMismatch(line, f"the tiles left over go to seat {seat} (deal.leftover: "
                             f"{game.rules.leftover}, leader {leader}): the hands should "
                             f"hold {want} tiles, not {[len(h) for h in hands]}")


def _verify_match(match: list[tuple[int, dict]], path: str, load_game,
                  last: bool = True) -> None:
    line0, start = match[0]
    game = ruleset_for(line0, start, load_game, path)
    players = start["players"]
    try:
        game.check_players(players)
    except DiagnosticError as exc:
        raise RecordMismatch(line0, exc.diagnostics[0].message) from None
    teams = [list(t) for t in game.teams(players)]
    if start["teams"] != teams:
        raise RecordMismatch(line0, f"teams should be {teams}, not {start['teams']}")
    state = State(game, players, start["seed"], deals=_deals(game, players, match))
    names = board_names(game.rules.layout)   # a shared train's name, if any
    produced = state.record
    done = 1  # engine events already matched (match_start)
    last_line = line0
    for i, (line, e) in enumerate(match[1:], 1):
        last_line = line
        kind = e["event"]
        # a seat's choice (an event's draw, with a rule, and a several-tile move's tiles
        # after its first: produced)
        if (kind in ("draw", "place", "pass", "declare", "claim") and "rule" not in e
                and _part(line, e) < 2):
            if done < len(produced):
                raise RecordMismatch(line, f"expected {_describe(produced[done])} here, not {kind}")
            if state.is_terminal:
                raise RecordMismatch(line, f"the match is over; {kind} is not allowed")
            player = e["player"]
            if player != state.current_player:
                raise RecordMismatch(line, f"it is player {state.current_player}'s turn, "
                                f"not player {player}'s")
            action = _action(line, e, names)
            if "part" in e:   # the first tile of a move of several (play.several): the whole move
                action = _several_move(match, i, action, names, state.legal_actions)
            try:
                state.apply(action)
            except (IllegalActionError, AmbiguousActionError) as exc:
                raise RecordMismatch(line, f"player {player} may not {_verb(action)}: {exc}") \
                    from None
            done = _compare(line, e, produced, done)
        else:
            if done >= len(produced):
                if state.is_terminal:
                    raise RecordMismatch(line, f"the match is over; {kind} is not allowed")
                raise RecordMismatch(line, f"{kind} comes too early: player "
                                f"{state.current_player} is still to act")
            done = _compare(line, e, produced, done)
    if not state.is_terminal or done < len(produced):
        raise RecordMismatch(last_line, "the record ends before the match is over",
                        TRUNCATED if last else "record")


def _part(line: int, e: dict) -> int:
    """Which tile of its move a placement is (``part: [i, n]``, play.several); 1 without."""
    part = e.get("part")
    if part is None or e["event"] != "place":
        return 1
    if not (isinstance(part, list) and len(part) == 2
            and all(isinstance(k, int) and not isinstance(k, bool) for k in part)
            and 1 <= part[0] <= part[1] and part[1] >= 2):
        raise RecordMismatch(line, f"part {part!r} must be [i, n]: the i-th of a move's n "
                             "tiles, n at least 2")
    return part[0]


def _several_move(match: list[tuple[int, dict]], i: int, first: Action,
                  names: tuple[str, ...] = (), legal: Any = None) -> Action:
    """The move of several tiles whose first placement is ``match[i]``: its parts are the
    next placements by the same player (a rule's draws and scores may come between). A
    move cut short by a match won during play (``match.ends_in_play``: a ``round_end``
    with ``result: target`` follows its last tile laid) is the first of the moves
    ``legal()`` offers that starts with the tiles laid: the rest were never laid, so any
    of them replays the same."""
    line, e = match[i]
    n = e["part"][1]
    if e["part"][0] != 1:
        raise RecordMismatch(line, f"part {e['part']} comes before the move's first tile")
    parts = [first]
    for later_line, later in match[i + 1:]:
        if len(parts) == n:
            break
        if later["event"] == "place":
            if later.get("part") != [len(parts) + 1, n] or later["player"] != e["player"]:
                raise RecordMismatch(later_line, f"tile {len(parts) + 1} of player "
                                     f"{e['player']}'s move of {n} tiles comes next "
                                     f"(part [{len(parts) + 1}, {n}])")
            parts.append(_action(later_line, later, names))
        elif later["event"] in ("draw", "pass") and "rule" not in later:
            break
        elif later["event"] == "round_end" and later.get("result") == "target" and legal:
            cut = [a for a in legal() if a.kind == "several" and len(a.parts) == n
                   and a.parts[:len(parts)] == tuple(parts)]
            if cut:   # won mid-move: the move's later tiles lapse
                return cut[0]
            break
    if len(parts) < n:
        raise RecordMismatch(line, f"the record holds {len(parts)} of this move's {n} tiles")
    return Action.several(parts)


def _action(line: int, e: dict, names: tuple[str, ...] = ()) -> Action:
    """A seat's choice in the record as an Action; ``names``: the board's own end names
    (``actions.board_names``)."""
    kind = e["event"]
    if kind == "place":
        tile = _tiles(line, [e["tile"]])[0]
        if e["end"] not in ("left", "right", "up", "down", None) and not is_arm(e["end"], names):
            raise RecordMismatch(line, f"end {e['end']!r} must be left, right, up, down, an "
                                 "arm such as 5-5/3 (a shaped board), a train (train 2, or the "
                                 "shared train's name) or null")
        meets = e.get("meets")
        if meets is not None and (not isinstance(meets, int) or isinstance(meets, bool)
                                  or meets not in (tile.low, tile.high)):
            raise RecordMismatch(line, f"meets {meets!r} must be a half of {tile}")
        return Action.place(tile, e["end"], meets)
    if kind == "declare":
        return Action("declare", option=str(e.get("option")))
    if kind == "claim":
        claimed = e.get("claimed")
        if not isinstance(claimed, int) or isinstance(claimed, bool) or claimed < 0:
            raise RecordMismatch(line, f"claimed {claimed!r} must be a number of points")
        return Action("claim", option=str(claimed))
    return Action(kind)


def _verb(action: Action) -> str:
    if action.kind == "several":
        return f"lay {action}"
    if action.kind == "place":
        where = f" at the {action.end} end" if action.end else " as the opening tile"
        return f"place {action.tile}{where}"
    return action.kind


def _describe(event: dict) -> str:
    kind = event["event"]
    if kind == "round_end":
        return f"round_end ({event['result']})"
    if kind == "deal":
        return f"a deal for round {event['round']}"
    return kind


_FIELDS = {
    "deal": ("round", "leader"),
    "draw": ("player", "tile", "rule"),   # rule: only on a draw an event made
    "place": ("player", "tile", "end", "meets", "part"),
    "pass": ("player", "tile"),   # tile: deal.blind's front tile put back
    "round_end": ("round", "result", "winner", "pips", "points", "scores", "play_points",
                  "variables"),
    "score": ("player", "side", "points", "rule"),
    "set": ("player", "variable", "value", "rule"),   # a variable an event set
    "duty": ("player", "rule", "tile"),                # a duty laid, met, failed
    "duty_met": ("player", "rule"),
    "duty_failed": ("player", "rule", "next"),
    "extra_turn": ("player",),
    "skip": ("player",),
    "turn_up": ("tile",),
    "out": ("player",),
    "match_end": ("winner", "scores"),
    # declarations (engine.mechanisms.declarations)
    "declare": ("player", "declaration", "option"),
    "claim": ("player", "declaration", "claimed", "worth", "points"),
    "penalty": ("player", "passes", "points"),
}


def _compare(line: int, got: dict, produced: list[dict], done: int) -> int:
    want = produced[done]
    kind = got["event"]
    if want["event"] != kind:
        raise RecordMismatch(line, f"expected {_describe(want)} here, not {kind}")
    for field in _FIELDS[kind]:
        a, b = got.get(field), want.get(field)
        if field == "tile" and a is not None:
            a = _sorted_tile(a)
        if a != b:
            raise RecordMismatch(line, _field_message(kind, field, a, b, want))
    return done + 1


def _sorted_tile(value: Any) -> Any:
    """A recorded tile as [low, high] to compare with the engine's; anything else as is."""
    try:
        return sorted(value) if isinstance(value, list) else value
    except TypeError:  # [0, "a"]: not a tile, so it cannot match
        return value


def _field_message(kind: str, field: str, got: Any, want: Any, event: dict) -> str:
    if kind == "draw" and field == "tile":
        return (f"player {event['player']} draws {got} but the boneyard's first tile "
                f"is {want}")
    if kind == "deal" and field == "leader":
        if want is None:
            return f"round {event['round']}: nobody can open this deal, so it is redealt " \
                   "(leader null)"
        if got is None:
            return f"round {event['round']}: this deal can be opened (seat {want} leads); " \
                   "it is not redealt"
        return f"round {event['round']}: the leader is seat {want}, not {got}"
    where = f"round {event['round']}: " if "round" in event else ""
    return f"{where}{kind} {field} should be {want}, not {got}"
