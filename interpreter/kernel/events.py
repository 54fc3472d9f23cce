"""A ruleset's play-time events as kernel source: the general loop's ``_fire``, written out.

The Python kernel (``python_kernel.play``) fires the events of one action where it
happens (``splice("EV_PLACE_CODE")``...): ``event_code`` writes them for that place as
straight Python over the kernel's locals. A formula reading only cheap facts (the tile, the open
ends, passes, draws, the boneyard ...) becomes one expression; an action whose formulas
read a seat or a side (``player``, ``side``, ``sides``, ``opponents``: tallies of every
hand) calls ``GeneralLoop._fire`` itself with its ``EventFacts``, so every ruleset keeps
one meaning whichever engine plays it.

The code's locals (``python_kernel.play``'s): ``p`` the actor, ``t`` the tile placed or drawn,
``L``/``R`` the open ends, ``lt``/``rt`` the tiles at them, ``first_t`` the opening tile,
``pos``, ``drawn``, ``forced``, ``last_both``, ``run_passes``, ``rnd_no``, ``scores``,
``round_play``, ``again``, ``skip``, and ``rec``/``add`` when recording.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..expr import ast
from ..expr.emit import SourceEmitter
from ..expr.runtime import floordiv, mod
from .formulas import Unsupported

# where an action happens: its facts as the kernel's locals
PLACE_OPEN, PLACE, DRAW, PASS = "place_open", "place", "draw", "pass"

_ONE_TILE = "PIPS[first_t]"      # a lone tile counts all its pips
# ENDW[t]: 2 for a double (both halves count), else 1; ENDW[-1] is 0
_TWO_ENDS = "L * ENDW[lt] + R * ENDW[rt]"
# with a spinner: its up and down arms (``U``/``D``, the last tiles on them ``ut``/``dt``,
# -1 while none) count once a tile lies on them
_FOUR_ENDS = f"{_TWO_ENDS} + U * ENDW[ut] + D * ENDW[dt]"


def _end_total(site: str, spinner: bool = False) -> str:
    ends = _FOUR_ENDS if spinner else _TWO_ENDS
    if site == PLACE_OPEN:
        return _ONE_TILE
    if site == PLACE:
        return ends
    return f"({_ONE_TILE} if lt == rt else {ends})"   # lt == rt: only the opening tile


def _facts(site: str, players: int, target: int, tile_count: int,
           spinner: bool = False) -> dict[str, str]:
    """Each cheap fact of an action at ``site`` as a source expression (``spinner``: the
    kernel keeps four ends, ``cnt`` of them open; the opening has two)."""
    facts = {
        "ends": ("((L, R) if cnt == 2 else (L, R, U, D))" if spinner and site != PLACE_OPEN
                 else "(L, R)"),
        "end_total": "et", "boneyard": f"({tile_count} - pos)",
        "players": str(players), "round": "rnd_no", "target": str(target),
        "drawn_this_turn": "drawn",
        # the passes in a row just before the action (``prior``: kept by the kernel)
        "passes_in_row": {PASS: "run_passes", PLACE_OPEN: "0"}.get(site, "prior"),
    }
    if site != PASS:
        facts["tile"] = "(TL[t], TH[t])"
    if site in (PLACE_OPEN, PLACE):
        facts["opening"] = "True" if site == PLACE_OPEN else "False"
        facts["both_ends"] = "False" if site == PLACE_OPEN else "last_both"
    if site == DRAW:
        facts["forced"] = "forced"
    return facts


_OVER_ENDS = {"min": "(L if L < R else R)", "max": "(R if L < R else L)", "sum": "(L + R)",
              "count": "2"}


class _Emitter(SourceEmitter):
    """``expr.emit``'s emitter with the facts read from the kernel's locals and the tile's
    attributes from its tables."""

    def __init__(self, facts: dict[str, str], index_of: Callable[[int, int], int],
                 two_ends: bool = True) -> None:
        super().__init__()
        self.facts = facts
        self.index_of = index_of
        self.two_ends = two_ends      # ``ends`` is always (L, R): folds over it written out
        self.read: set[str] = set()

    def emit(self, node: ast.Node) -> str:
        match node:
            case ast.Index():
                raise Unsupported("an index")   # xs[i]: GeneralLoop._fire reads it
            case ast.Name(name=name):
                if name not in self.facts:
                    raise Unsupported(name)
                self.read.add(name)
                return self.facts[name]
            case ast.Attribute(obj=ast.Name(name="tile"), attr=attr) if "tile" in self.facts:
                self.read.add("tile")
                return {"low": "TL[t]", "high": "TH[t]", "pips": "PIPS[t]",
                        "is_double": "DBL[t]"}[attr]
            case ast.Binary(op=op, left=left, right=right) if op in ("==", "!="):
                pair = _tile_test(left, right) or _tile_test(right, left)
                if pair is not None and "tile" in self.facts:
                    self.read.add("tile")
                    return f"(t {op} {self.index_of(*pair)})"
            case ast.Binary(op=op, left=left, right=ast.Int(value=v)) if op in ("//", "%") \
                    and int(v) != 0:   # a divisor that is never 0: Python's own operator
                return f"({self.emit(left)} {op} {int(v)})"
            case ast.Call(func=func, args=[ast.Name(name="ends")]) \
                    if func in _OVER_ENDS and self.two_ends:
                self.read.add("ends")
                return _OVER_ENDS[func]      # two ends: no tuple made
        return super().emit(node)


def _tile_test(a: ast.Node, b: ast.Node) -> tuple[int, int] | None:
    """(low, high) when ``a`` is the fact ``tile`` and ``b`` a tile written out."""
    if isinstance(a, ast.Name) and a.name == "tile" and isinstance(b, ast.Tile):
        return int(b.low), int(b.high)
    return None


class EventCode(NamedTuple):
    """The code firing one site's events, and the facts it reads there (None: the general
    loop's ``_fire`` is called, which may read any), so the kernel keeps only those."""

    source: str
    reads: frozenset[str] | None


def event_code(events: tuple, trees: tuple, kind_of: tuple[int, ...], site: str, record: str,
               players: int, target: int, tile_count: int,
               index_of: Callable[[int, int], int], *, spinner: bool, max_pip: int
               ) -> EventCode:
    """The source firing the events ``kind_of`` (indices into ``events``) at ``site``.

    ``record``: "" (none), "rec" (event dicts) or "txt" (record lines). ``again`` and
    ``skip`` are added to the kernel's locals; points go to ``scores`` and
    ``round_play`` at once, each recorded as the loop records it. ``spinner``: the
    kernel's board has up to four ends (``U``, ``D``, ``cnt``, ``ut``, ``dt``); ``max_pip``
    the set's, which bounds the ends' total (each end a double's two halves at most).
    """
    try:
        return _inline(events, trees, kind_of, site, record, players, target, tile_count,
                       index_of, spinner, 2 * max_pip * (4 if spinner else 2))
    except Unsupported:
        return EventCode(_fallback(kind_of, site, record, tile_count, players, target,
                                   spinner), None)


def _inline(events, trees, kind_of, site, record, players, target, tile_count, index_of,
            spinner=False, top=96) -> EventCode:
    emitter = _Emitter(_facts(site, players, target, tile_count, spinner), index_of,
                       two_ends=not spinner or site == PLACE_OPEN)
    body: list[str] = []
    for i in kind_of:
        tree = (trees[i] if trees else None) or {}
        ev = events[i]
        for key, formula in (("if", ev.condition), ("points", ev.points),
                             ("each_opponent", ev.each_opponent), ("again", ev.again),
                             ("skip", ev.skip)):
            if formula is not None and tree.get(key) is None:
                raise Unsupported(f"event {i}: {key} has no tree")
        lines: list[str] = []
        table = _by_end_total(tree, emitter, top)
        if table is not None:    # the points looked up, the condition folded in
            emitter.read.add("end_total")
            body += [f"_k = {table}[et]", "if _k:", "    _s = SIDE_OF[p]",
                     *_score("    ", i, record)]
            continue
        pts = emitter.emit(tree["points"]) if "points" in tree else None
        opp = emitter.emit(tree["each_opponent"]) if "each_opponent" in tree else None
        if pts is not None and opp is not None:
            lines += [f"_pts = {pts}", f"_opp = {opp}", "_mine = SIDE_OF[p]",
                      "for _s in SIDES:", "    _k = _pts if _s == _mine else _opp",
                      "    if _k:", *_score("        ", i, record)]
        elif pts is not None:
            lines += [f"_k = {pts}", "if _k:", "    _s = SIDE_OF[p]", *_score("    ", i, record)]
        elif opp is not None:
            lines += [f"_k = {opp}", "if _k:", "    for _s in OPP[SIDE_OF[p]]:",
                      *_score("        ", i, record)]
        if "again" in tree:
            grant = [] if site == PASS else ["    again += 1"]   # the loop's pass ignores it
            then = grant + _extra_turn("    ", record)
            # a placement emptying the hand ends the round: the turn it grants lapses
            test = emitter.emit(tree["again"])
            test = f"h and ({test})" if site in (PLACE_OPEN, PLACE) else test
            lines += [f"if {test}:", *(then or ["    pass"])]
        if "skip" in tree:
            lines += [f"skip += checked_skip(max(0, int({emitter.emit(tree['skip'])})))"]
        if "if" in tree:
            lines = [f"if {emitter.emit(tree['if'])}:", *("    " + x for x in lines or ["pass"])]
        body += lines
    if "end_total" in emitter.read:
        body.insert(0, f"et = {_end_total(site, spinner)}")
    return EventCode("\n".join(body or ["pass"]), frozenset(emitter.read))


def _by_end_total(tree: dict, emitter: _Emitter, top: int) -> str | None:
    """An event scoring by the open ends' total alone (the Fives family's ``if`` and
    ``points``; constants such as ``players`` aside) as a tuple literal of its points for
    every total from 0 to ``top``; None when it reads anything else, does more than
    score, or fails on some total (then the formula runs as written, and fails only
    where it is reached)."""
    if "points" not in tree or not set(tree) <= {"if", "points"}:
        return None
    probe = _Emitter(emitter.facts, emitter.index_of, emitter.two_ends)
    points = probe.emit(tree["points"])
    test = probe.emit(tree["if"]) if "if" in tree else "True"
    constant = {name for name, code in emitter.facts.items() if code.isdigit()}  # players..
    if "end_total" not in probe.read or not probe.read <= constant | {"end_total"}:
        return None
    helpers = {"__builtins__": {}, "_floordiv": floordiv, "_mod": mod}
    try:
        out = [eval(f"({points}) if ({test}) else 0", helpers, {"et": et})  # noqa: S307
               for et in range(top + 1)]
    except Exception:   # noqa: BLE001 - a formula failing at some total: not tabulated
        return None
    if not all(type(v) is int for v in out):
        return None
    return "(" + ", ".join(map(str, out)) + ",)"


def _score(indent: str, rule: int, record: str) -> list[str]:
    lines = ["scores[_s] += checked_points(_k)", "round_play[_s] += _k"]
    if record == "rec":
        lines.append('rec.append({"event": "score", "player": p, "side": _s, "points": _k, '
                     f'"rule": {rule}}})')
    elif record == "txt":
        lines.append('add(f\'{{"event":"score","player":{p},"side":{_s},"points":{_k},'
                     f'"rule":{rule}}}}}\')')
    return [indent + x for x in lines]


def _extra_turn(indent: str, record: str) -> list[str]:
    if record == "rec":
        return [indent + 'rec.append({"event": "extra_turn", "player": p})']
    if record == "txt":
        return [indent + "add(AGAIN_TXT[p])"]
    return []


def _fallback(kind_of, site, record, tile_count, players, target, spinner=False) -> str:
    """The events through ``GeneralLoop._fire`` (``core``), every cheap fact handed over."""
    facts = _facts(site, players, target, tile_count, spinner)
    facts["end_total"] = _end_total(site, spinner)
    env = "{" + ", ".join(f'"{k}": {v}' for k, v in facts.items()) + "}"
    table = f"EV_{'PLACE' if site in (PLACE_OPEN, PLACE) else site.upper()}"
    lapse = ", not h" if site in (PLACE_OPEN, PLACE) else ""   # a domino: granted turns lapse
    call = f"core._fire({table}, p, core._event_facts(p, pos, drawn_by, {env}){lapse})"
    lines = [f"_more, _skipped = {call}"]
    if record == "txt":
        lines += ["for _e in spill:", "    add(dumps(_e))", "spill.clear()"]
    if site != PASS:
        lines.append("again += _more")
    lines.append("skip += _skipped")
    return "\n".join(lines)


def fallback_tables(events: tuple) -> dict[str, tuple]:
    """``EV_PLACE``/``EV_DRAW``/``EV_PASS``: the (index, event) pairs ``_fire`` takes."""
    return {f"EV_{kind.upper()}": tuple((i, e) for i, e in enumerate(events) if e.after == kind)
            for kind in ("place", "draw", "pass")}


class _PlacementEmitter(_Emitter):
    """A placement restriction over the kernel's masks: ``hand`` and ``playable`` are tile
    sets (``h``, ``playable``), read only by ``count`` and ``any``/``all`` of ``is_double``."""

    _SETS = {"hand": "h", "playable": "playable"}

    def emit(self, node: ast.Node) -> str:
        match node:
            case ast.Name(name=name) if name in self._SETS:
                raise Unsupported(name)       # a set of tiles as such: the loop's lists
            case ast.Call(func="count", args=[ast.Name(name=name)]) if name in self._SETS:
                return f"{self._SETS[name]}.bit_count()"
            case ast.Call(func=func, args=[ast.Attribute(obj=ast.Name(name=name),
                                                          attr="is_double")]) \
                    if name in self._SETS and func in ("any", "all"):
                mask = self._SETS[name]
                return (f"(({mask} & DMASK) != 0)" if func == "any"
                        else f"(({mask} & ~DMASK) == 0)")
        return super().emit(node)


def narrow_source(allows: tuple, waive: bool, players: int, tile_count: int,
                  index_of: Callable[[int, int], int]) -> str:
    """``narrow(mL, mR, h, L, R, pos, rnd_no)``: each end's fitting tiles that every
    restriction (checked trees ``allows``) accepts, as one function; ``Unsupported`` when a
    formula reads the hand or the playable tiles other than by count or doubles."""
    facts = {"tile": "(TL[t], TH[t])", "end": "end", "ends": "(L, R)",
             "boneyard": f"({tile_count} - pos)", "round": "rnd_no", "players": str(players)}
    emitter = _PlacementEmitter(facts, index_of)
    if any(tree is None for tree in allows):
        raise Unsupported("a restriction without a tree")
    test = " and ".join(emitter.emit(tree) for tree in allows)
    lines = ["def narrow(mL, mR, h, L, R, pos, rnd_no):", "    playable = mL | mR", "    out = []",
             "    for end, m in ((L, mL), (R, mR)):", "        keep = 0", "        while m:",
             "            low = m & -m", "            m ^= low",
             "            t = low.bit_length() - 1", f"            if {test}:",
             "                keep |= low", "        out.append(keep)"]
    if waive:
        lines += ["    if not (out[0] or out[1]):", "        return mL, mR"]
    lines += ["    return out[0], out[1]"]
    return "\n".join(lines)


def forbiddable_mask(allows: tuple, index_of: Callable[[int, int], int],
                     doubles_mask: int) -> int | None:
    """The tiles the restrictions (checked trees ``allows``) could ever forbid, as a mask, or
    None when that cannot be read off them: ``tile != [0|0] or ...`` allows every tile but
    [0|0] without evaluating the rest, so a turn where [0|0] does not fit needs no
    narrowing (``narrow`` would keep every fitting tile, and evaluate nothing that could
    fail). Only tests on the tile itself are read; all else counts as "any tile"."""
    if any(tree is None for tree in allows):
        return None
    out = 0
    for tree in allows:       # the restrictions are and-ed
        mask = _forbiddable(tree, index_of, doubles_mask)
        if mask is None:
            return None
        out |= mask
    return out


def _forbiddable(node: ast.Node, index_of: Callable[[int, int], int],
                 doubles_mask: int) -> int | None:
    """Outside the mask the formula is True, found without evaluating anything that could
    fail; None: unknown (every tile)."""
    match node:
        case ast.Binary(op="!=", left=left, right=right):
            pair = _tile_test(left, right) or _tile_test(right, left)
            return None if pair is None else 1 << index_of(*pair)
        case ast.Unary(op="not", operand=ast.Binary(op="==", left=left, right=right)):
            pair = _tile_test(left, right) or _tile_test(right, left)
            return None if pair is None else 1 << index_of(*pair)
        case ast.Unary(op="not", operand=ast.Attribute(obj=ast.Name(name="tile"),
                                                       attr="is_double")):
            return doubles_mask
        case ast.Binary(op="or", left=left, right=right):
            # the left side is evaluated for every tile: it must be known; the right side
            # only where the left is False, so an unknown right leaves the left's mask
            first = _forbiddable(left, index_of, doubles_mask)
            if first is None:
                return None
            second = _forbiddable(right, index_of, doubles_mask)
            return first if second is None else first & second
        case ast.Binary(op="and", left=left, right=right):
            first = _forbiddable(left, index_of, doubles_mask)
            second = _forbiddable(right, index_of, doubles_mask)
            return None if first is None or second is None else first | second
    return None
