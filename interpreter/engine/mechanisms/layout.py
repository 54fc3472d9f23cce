"""Board shapes: the one rule of where a tile may go, for every layout a ruleset names.

``board.layout`` (``docs/house-rules.md``, "Board shapes") describes a shape with a few
named choices (``Shape``): whether the line grows at both ends or at one, which doubles
spin, how many arms a spinning double opens, whether the line goes on through it, when
its arms open, and whether they must all be covered before a tile goes anywhere else.
``Layout`` is the board of one round under that shape. The match loop
(``engine.general_loop``) and the rulebook (``engine.rulebook``, ``verify --strict``)
both place tiles through it, so the rule is written once, here.

Ends have names. The line through the opening tile has ``left`` and ``right`` (only
``right`` on a one-end line); an arm opened by a spinning double is named by the double
and its number, ``5-5/3`` ("arm 3 of the 5-5"), and keeps that name as tiles are added
to it. Ends are listed in the order they opened.

Boards of several lines (``trains``): the opening double is a station from which every
seat's own train grows (``train 0`` for seat 0, ...), and, with ``shared_train`` (a name), one
train anyone may play on, by that name. A seat plays on its own train, the shared one,
and (``markers``) any train whose owner has put their marker down: a seat that passes
unable to play puts it down on its own train, and takes it up when it next plays there.
``answer_doubles``: a double laid at an end must be covered before a tile goes anywhere
else, whoever owns that end.

>>> mt = Shape(trains=True, shared_train="shared", markers=True, answer_doubles=True)
>>> b = Layout(mt, seats=2); b.place((12, 12), None); [n for n, _ in b.playable(0)]
['train 0', 'shared']
>>> b.passed(1)   # a train newly opened
True
>>> [n for n, _ in b.playable(0)]
['train 0', 'train 1', 'shared']
>>> b.place((12, 5), "train 1", seat=0); b.place((5, 5), "train 1", seat=0); b.playable(1)
[('train 1', 5)]

>>> cf = Shape(spins="every_double", sides=3, opening_sides=6, through=False,
...            arms_open="at_once", answer_first=True)
>>> b = Layout(cf); b.place((9, 9), None); b.open_ends()[:3], len(b.playable())
(['9-9/1', '9-9/2', '9-9/3'], 6)
>>> b.place((9, 4), "9-9/1"); b.ends["9-9/1"].value, len(b.playable())
(4, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .matching import Tile, fits, is_double, left_open

SPINS = ("none", "first_double", "every_double")


@dataclass(frozen=True)
class Shape:
    """A ruleset's board shape (``board.layout``), as compiled into ``Rules.layout``."""

    ends: int = 2                    # the line grows at 2 ends, or at 1 (its right end)
    spins: str | Tile = "none"       # which doubles spin: one of SPINS, or one tile
    sides: int = 2                   # arms a spinning double opens
    opening_sides: int = 0           # arms of a spinning opening double off the line
                                     # (through False); 0: ``sides``
    through: bool = True             # the line goes on through a spinning double
    arms_open: str = "after_sides"   # its arms open once its sides along the line are
                                     # covered, or at once ("at_once")
    answer_first: bool = False       # every open arm of a spinning double must be covered
                                     # before a tile goes on any other end
    dead_arms: bool = False          # its arms never take a tile, but each counts the
                                     # double's value in end totals once open
    trains: bool = False             # the opening double is a station: each seat's own
                                     # train grows from it (not with spins)
    shared_train: str = ""           # and one train anyone may play on, by the name the
                                     # ruleset gives it; "": none
    markers: bool = False            # a seat that passes unable to play opens its train to
                                     # the others until it plays on it again
    answer_doubles: bool = False     # a double laid at an end is covered before a tile goes
                                     # on any other end

    def spins_tile(self, tile: Tile, spun: list[Tile]) -> bool:
        """Whether ``tile`` spins when placed, the doubles ``spun`` having spun this round.
        With every tile twice (``set.copies: 2``) a double spins once a round: its arms
        are named by its value (``arm_name``), so the second copy lies as any double."""
        if not is_double(tile) or tile in spun:
            return False
        if self.spins == "every_double":
            return True
        if self.spins == "first_double":
            return not spun
        return self.spins != "none" and tuple(sorted(self.spins)) == tuple(sorted(tile))


@dataclass
class End:
    """One open end: the value it shows, whether the tile lying there is a double, whether
    it is an arm (``arm``: counted in end totals only once ``covered``) and the double it
    grows from (None: the line)."""

    value: int
    double: bool
    covered: bool = False
    arm: bool = False
    root: Tile | None = None


def tile_text(tile: Tile) -> str:
    """A tile as the players write it, high half first: ``5-3``."""
    return f"{max(tile)}-{min(tile)}"


def arm_name(root: Tile, k: int) -> str:
    """The name of arm ``k`` (from 1) of the spinning double ``root``: ``5-5/3``."""
    return f"{tile_text(root)}/{k}"


def train_name(seat: int) -> str:
    """The name of seat ``seat``'s own train: ``train 2``."""
    return f"train {seat}"


def arm_words(name: str) -> str:
    """An end's name in words: ``arm 3 of the 5-5``, ``the left end``, ``train 2``."""
    if "/" in name:
        root, k = name.split("/")
        return f"arm {k} of the {root}"
    if name.startswith("train "):
        return f"seat {name[6:]}'s train"
    if name in ("left", "right", "up", "down"):
        return f"the {name} end"
    return f"the {name} train"   # the shared train, by the name its ruleset gives it


@dataclass
class Layout:
    """The tiles down in one round under a ``Shape``, and what they leave open."""

    shape: Shape = field(default_factory=Shape)
    tiles: list[Tile] = field(default_factory=list)
    ends: dict[str, End] = field(default_factory=dict)       # open ends, in opening order
    waiting: dict[Tile, set[str]] = field(default_factory=dict)  # spinner -> its bare sides
    answer: list[str] = field(default_factory=list)          # arms to cover before others
    spun: list[Tile] = field(default_factory=list)           # the doubles that spun
    dead: dict[str, int] = field(default_factory=dict)       # arms that only count (dead_arms)
    seats: int = 0                                           # players: one train each (trains)
    owner: dict[str, int] = field(default_factory=dict)      # a train's name -> its seat
    marked: set[int] = field(default_factory=set)            # seats whose marker is down

    @property
    def empty(self) -> bool:
        return not self.tiles

    def copy(self) -> Layout:
        """An independent copy, to lay tiles on ahead of a move (``play.several``, bots)."""
        return Layout(self.shape, list(self.tiles),
                      {name: End(e.value, e.double, e.covered, e.arm, e.root)
                       for name, e in self.ends.items()},
                      {t: set(sides) for t, sides in self.waiting.items()}, list(self.answer),
                      list(self.spun), dict(self.dead), self.seats, dict(self.owner),
                      set(self.marked))

    @classmethod
    def replay(cls, shape: Shape, seats: int, events: list) -> Layout:
        """The board the public events of a round leave (``place``, ``turn_up`` and ``pass``
        lines, as the record writes them, from the round's ``deal`` on): what a bot reads
        of a shaped board, laid by the same ``place`` and ``passed`` the engines use (a
        tile turned up from the stock, ``deal.turn_up``, opens it, placed by nobody)."""
        board = cls(shape, seats=seats)
        for e in events:
            if e.get("event") == "place":
                board.place(tuple(e["tile"]), e.get("end"), seat=e.get("player"))
            elif e.get("event") == "turn_up":
                board.place(tuple(e["tile"]), None)
            elif e.get("event") == "pass":
                board.passed(e["player"])
        return board

    def own_train(self, name: str, seat: int) -> bool:
        """Whether the end ``name`` is ``seat``'s own train (``own_train``, trains)."""
        return self.owner.get(name) == seat

    def open_ends(self) -> list[str]:
        """Every open end's name, in the order they opened."""
        return list(self.ends)

    def values(self) -> list[int]:
        """Every open end's value (``ends`` in formulas)."""
        return [end.value for end in self.ends.values()]

    def ends_tuple(self) -> tuple[int, ...]:
        return tuple(end.value for end in self.ends.values())

    def playable(self, seat: int | None = None) -> list[tuple[str, int]]:
        """(name, value) of the ends a tile may go on now: the ends waiting to be covered
        (a spinning double's arms under ``answer_first``, a double under
        ``answer_doubles``), else every open end ``seat`` may play on (None: any seat)."""
        if self.answer:
            return [(name, self.ends[name].value) for name in self.answer]
        if not self.owner or seat is None:
            return [(name, end.value) for name, end in self.ends.items()]
        return [(name, end.value) for name, end in self.ends.items() if self.open_to(name, seat)]

    def open_to(self, name: str, seat: int) -> bool:
        """Whether ``seat`` may play on the end ``name``: it is nobody's (the shared train,
        an arm), the seat's own train, or a train whose owner's marker is down."""
        owner = self.owner.get(name)
        return owner is None or owner == seat or owner in self.marked

    def ends_fitting(self, tile: Tile, seat: int | None = None) -> list[str]:
        """The ends ``tile`` may be placed on now (by ``seat``)."""
        return [name for name, value in self.playable(seat) if fits(tile, value)]

    def ways(self, tile: Tile, at: str, seat: int | None = None) -> tuple[tuple[int, int], ...]:
        """Each way ``tile`` may go on end ``at`` now, as ``Board.ways`` gives them: (half
        against it, number left open); one way at most, by the same number."""
        for name, value in self.playable(seat):
            if name == at and fits(tile, value):
                return ((value, tile[0] + tile[1] - value),)
        return ()

    def why_not(self, tile: Tile, at: str, seat: int | None = None) -> str | None:
        """Why ``tile`` may not go on end ``at`` (by ``seat``), in the rule's words; None
        when it may."""
        if at == "left" and self.shape.ends == 1 and self.tiles:
            return "the line grows at its right end only"
        if at not in self.ends:
            open_now = ", ".join(self.open_ends()) or "none"
            return f"{at} is not an open end (open: {open_now})"
        if self.answer and at not in self.answer:
            end = self.ends[self.answer[0]]
            if not end.arm or self.owner:   # a double laid at an end (answer_doubles)
                return (f"the double on {arm_words(self.answer[0])} must be covered before a "
                        "tile goes anywhere else")
            root = end.root
            spinner = tile_text(root) if root else "a double"
            return (f"every arm of the {spinner} must be covered before a tile goes "
                    f"anywhere else ({', '.join(self.answer)} still open)")
        if seat is not None and self.owner and not self.answer and not self.open_to(at, seat):
            return (f"{at} is seat {self.owner[at]}'s own train: others may play on it only "
                    "while its owner's marker is down")
        if not fits(tile, self.ends[at].value):
            return (f"{tile_text(tile)} does not match {arm_words(at)}, which shows "
                    f"{self.ends[at].value}")
        return None

    def end_total(self) -> int:
        """The ends counted as all-fives games count them: a lone tile its pips, a double
        at an end both halves, an arm nothing until a tile lies on it."""
        if len(self.tiles) == 1:
            return sum(self.tiles[0])
        return sum(end.value * (2 if end.double else 1) for end in self.ends.values()
                   if end.covered or not end.arm) + sum(self.dead.values())

    # -- formula names: what placement rules may ask of the board ---------------------------
    def doubles_down(self) -> int:
        """How many doubles lie on the board."""
        return sum(1 for t in self.tiles if is_double(t))

    def spinners_complete(self) -> bool:
        """Whether no spinning double waits for a side or an arm to be covered."""
        return not self.waiting and not self.answer

    def arm_of(self, name: str) -> int:
        """Which arm an end is: 0 the line, k arm k of its double."""
        return int(name.split("/")[1]) if "/" in name else 0

    def facts(self, here: list[tuple[str, int]]) -> tuple[list[int], bool, int]:
        """What a placement rule may read of the board, for the ends ``here``: each one's
        ``arm``, ``spinners_complete`` and ``doubles_down`` (``docs/language.md``)."""
        return [self.arm_of(name) for name, _ in here], self.spinners_complete(), \
            self.doubles_down()

    # -- placing ------------------------------------------------------------------------------
    def passed(self, seat: int) -> bool:
        """``seat`` passed: with ``markers``, its marker goes down on its own train, which
        the others may then play on. True when it was not down already: a train opened,
        so the seats that passed before may play now (the round is not blocked yet)."""
        if not self.shape.markers or seat in self.marked:
            return False
        self.marked.add(seat)
        return True

    def place(self, tile: Tile, at: str | None, meets: int | None = None,
              seat: int | None = None) -> None:
        """Lay ``tile``: as the opening tile (``at`` None) or on the open end ``at``, by
        ``seat`` (its own train: its marker comes up; None: nobody's marker moves).
        ``meets``, the line's half against the end under a fit rule, never comes here:
        validate refuses board.layout with matching."""
        shape = self.shape
        double = is_double(tile)
        spins = shape.spins_tile(tile, self.spun)
        self.tiles.append(tile)
        if at is None and shape.trains:   # the station: every train starts from it
            value = max(tile)
            names = [train_name(s) for s in range(self.seats)]
            self.owner = {name: s for s, name in enumerate(names)}
            if shape.shared_train:
                names.append(shape.shared_train)
            self.ends = {name: End(value, double, arm=True, root=tile) for name in names}
            return
        if at is None:
            low, high = min(tile), max(tile)
            if spins and not shape.through:
                self._open_arms(tile, shape.opening_sides or shape.sides)
                return
            self.ends = ({"left": End(low, double), "right": End(high, double)}
                         if shape.ends == 2 else {"right": End(high, double)})
            if spins:
                self._spin(tile, set(self.ends))
            return
        end = self.ends[at]
        value = left_open(tile, end.value)
        if at in self.answer:
            self.answer.remove(at)
        if seat is not None and self.owner.get(at) == seat:
            self.marked.discard(seat)   # its owner plays on it again: the marker comes up
        for spinner, bare in list(self.waiting.items()):
            if at in bare:
                bare.discard(at)
                if not bare:
                    del self.waiting[spinner]
                    self._open_arms(spinner, shape.sides)
        if spins and not shape.through:   # the double ends this end; its arms grow from it
            del self.ends[at]
            self._open_arms(tile, shape.sides)
            return
        self.ends[at] = End(value, double, covered=True, arm=end.arm, root=end.root)
        if double and shape.answer_doubles:   # the double waits to be covered
            self.answer.append(at)
        if spins:
            self._spin(tile, {at})

    def _spin(self, tile: Tile, sides: set[str]) -> None:
        """A spinning double laid in the line: its arms wait for ``sides`` to be covered,
        or open at once."""
        if self.shape.arms_open == "at_once":
            self._open_arms(tile, self.shape.sides)
        else:
            self.spun.append(tile)
            self.waiting[tile] = sides

    def _open_arms(self, tile: Tile, count: int) -> None:
        if tile not in self.spun:
            self.spun.append(tile)
        names = [arm_name(tile, k) for k in range(1, count + 1)]
        if self.shape.dead_arms:   # attachments: never played on, counted in end totals
            self.dead.update((name, tile[0]) for name in names)
            return
        for name in names:
            self.ends[name] = End(tile[0], True, arm=True, root=tile)
        if self.shape.answer_first:
            self.answer.extend(names)
