"""Who leads a round: every chooser of ``rules.LEAD_CHOOSERS`` and follower of ``LEAD_FOLLOWERS``.

Choosers that need no deal run before it (``lot``, ``seat_zero``, ``draw_highest_tile``,
``exposed_tiles`` and the followers); ``highest_double`` and ``opening_tile_holder``
read the dealt hands. Lots use the match's lead stream (anything with ``random()``),
never the shuffle's.
"""

from __future__ import annotations

from .tiles import TileSet

DEAL_DEPENDENT = ("highest_double", "opening_tile_holder")
RANDOM_CHOOSERS = ("lot", "draw_highest_tile", "exposed_tiles")

_NAME_KEYS = {"lead": 0x2545F4914F6CDD1D}


class HashStream:
    """The match's lead stream (lots for the lead): SplitMix64 started from (seed, name).
    Free to create, where seeding a Mersenne Twister costs ~5 us.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int, name: str):
        # distinct seeds give distinct starting states; the finalizer below mixes them
        self._state = (seed * 0xD1342543DE82EF95 + _NAME_KEYS.get(name, 1)) & 0xFFFFFFFFFFFFFFFF

    def random(self) -> float:
        self._state = z = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return ((z ^ (z >> 31)) >> 11) / 9007199254740992.0  # 2**53


def before_deal(choice: str, players: int, rng, tiles: TileSet,
                prev_leader: int | None, prev_winner: int | None,
                count_from: str) -> int | None:
    """The leader, when ``choice`` does not depend on the deal; None when it does."""
    if choice == "seat_zero":
        return 0
    if choice == "lot":
        return int(rng.random() * players)
    if choice == "rotate":
        return 0 if prev_leader is None else (prev_leader + 1) % players
    if choice == "same":
        return 0 if prev_leader is None else prev_leader
    if choice == "winner":
        if prev_winner is not None:
            return prev_winner
        return 0 if prev_leader is None else prev_leader
    if choice == "draw_highest_tile":
        return _draw_highest(players, rng, tiles)
    if choice == "exposed_tiles":
        shown = sample(rng, tiles.tile_count, players)
        number = sum(tiles.pips[t] for t in shown) % players  # 0-based count
        start = prev_leader if (count_from == "previous_leader" and prev_leader is not None) else 0
        return (start + number) % players
    return None


def sample(rng, count: int, k: int) -> list[int]:
    """``k`` distinct tile indices out of ``count`` (a partial Fisher-Yates on ``rng.random``)."""
    pool = list(range(count))
    for i in range(k):
        j = i + int(rng.random() * (count - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def _draw_highest(players: int, rng, tiles: TileSet) -> int:
    """Each draws a tile from a full set; highest pips leads; the tied draw again."""
    contenders = list(range(players))
    while len(contenders) > 1:
        drawn = sample(rng, tiles.tile_count, len(contenders))
        best = max(tiles.pips[t] for t in drawn)
        contenders = [s for s, t in zip(contenders, drawn, strict=True) if tiles.pips[t] == best]
    return contenders[0]


def highest_double_holder(hands: list[int], tiles: TileSet) -> tuple[int, int] | None:
    """(seat, tile index) of the highest double dealt, or None when nobody holds a double."""
    for d in tiles.doubles_desc:
        bit = 1 << d
        for seat, h in enumerate(hands):
            if h & bit:
                return seat, d
    return None


def holder(hands: list[int], tile: int) -> int | None:
    """The seat holding tile index ``tile``, or None."""
    bit = 1 << tile
    for seat, h in enumerate(hands):
        if h & bit:
            return seat
    return None
