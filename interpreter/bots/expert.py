"""``expert``: a search player for any ruleset the engine plays.

Determinized Monte Carlo with paired playouts, on top of the strategist. For each of
``playouts`` samples it deals the hidden tiles again, consistently with everything
its seat has seen (``bots.belief``: hand sizes, the boneyard, what passes and draws
revealed), and plays every candidate action out on that same deal with the same
rollout stream through the engine (``engine.continuation``: no rule is written
twice). Rollouts are played by the strategist (``strategist_fast``) at every seat.
The candidates are judged by the round's points margin of the expert's side (its
partners' points are its own) over the best other side, or, once some playout ends
the match, by the share of the match won (a drawn or undecided match counts half,
the margin breaking ties).

The strategist's own pick is the prior: it is played unless the best other candidate
beats it on the same deals by ``trust`` paired standard errors (default 1), and every
16 playouts a challenger whose mean is behind the pick's is dropped, so the playouts
go to the close calls. Why: playout quality matters more than their count in a short
game of hidden tiles. With greedy rollouts the search judged positions as greedy
players would play them on (it never blocks, never keeps a suit), and it lost to
the strategist in plain Draw (45% of 40 matches); strategist rollouts cost 1.6 times
as much and won 60% of 30 on the same deals. The prior guards against the search's
noise: 64 paired playouts cannot tell apart moves a few tenths of a point apart, and
there the strategist's reasons are a better tie-break than a coin. A voluntary draw
needs the same proof as any challenger (without a prior: two standard errors over
the best placement, see ``_clearly_better``).

Why not information-set MCTS: a Draw position offers few actions (rarely more than
five) and a round lasts a few dozen moves, so the tree below the first move is wide
and shallow in information, and an IS-MCTS in Python would spend most of a second's
budget to grow a tree no deeper than the flat search already sees. Flat sampling
with common random numbers (every candidate is played on the same deals and rollout
streams) turns the comparison into a paired one, whose noise is the difference of
the candidates' outcomes, not their sum; it is reproducible from the seed and costs
at most ``playouts`` continuations per candidate. Its known weakness (strategy
fusion: it assumes it will learn the hidden tiles after this move) costs little in
a game whose hidden tiles are mostly revealed by the round's end.

Options: ``playouts`` (strength and time, ``expert:playouts=200``), ``rollout``
(``greedy``, ``random`` or ``strategist``), ``prior`` (``strategist`` or ``none``:
pure search) and ``trust``. Measured with ``bench/bots.py`` (paired deals, seats
swapped), against the strategist: 74% of 420 matches over its ten rulesets, every
ruleset's 95% interval above a half (68% with a placement restriction to 95% with
all-fives scoring), 35 to 80 ms of CPU a move; 39 of 40 against greedy and against
random; numbers by ruleset in the README. Its random stream derives from the match seed and its
seat, like every bot's.

With numba, the playouts of a ruleset the JIT kernel plays run there
(``kernel.jit_continuation``, handed in by ``kernel.engines``), whatever the rollout
bot, house rules too (but for positions their kernel does not follow: ``follows``):
the same deals drawn in the same order, the same outcomes and refusals, so the same
decisions, some ten times as fast (``bench/expert_jit.py``). Greedy and random rollouts
pick by 32-bit words of their shared stream (``_Words``), as those bots pick on a seat's
stream (``engine.streams``), so the JIT's word picks are theirs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..engine.actions import Action
from ..engine.continuation import Inconsistent, Outcome, Round, code_of, continue_round, move_of
from ..engine.game import Game
from ..engine.observation import Observation
from . import belief
from .greedy import GreedyBot
from .random_bot import RandomBot
from .strategist import StrategistBot

DEFAULT_PLAYOUTS = 64
MAX_PLAYOUTS = 100_000
ROLLOUTS = {"greedy": GreedyBot, "random": RandomBot, "strategist": None}
PRIORS = ("strategist", "none")
DEFAULT_TRUST = 1.0   # paired standard errors a candidate must beat the prior's pick by
MAX_TRUST = 10.0
DRAW_TRUST = 2.0      # ... and a voluntary draw the best placement, with no prior
PRUNE_EVERY = 16   # playouts between looks for challengers the prior's pick leaves behind
TRIES = 8   # deals sampled for one playout before it is given up (the engine refused them)


@dataclass(frozen=True)
class Candidate:
    """One action's playouts: the mean of what the expert maximises, and plain shares."""

    action: Action
    playouts: int
    value: float        # what the choice maximises (points margin, or the match won)
    margin: float       # mean points margin over the best other side, from now to the end
    wins: float         # share of playouts won: the round (or the match, near its end)


@dataclass(frozen=True)
class Analysis:
    """Every candidate of one decision, best first."""

    candidates: tuple[Candidate, ...]
    objective: str      # "round points" or "the match"
    playouts: int       # the deals sampled that the engine accepted

    @property
    def best(self) -> Action:
        return self.candidates[0].action


def option_error(message: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(
        "bot", message,
        hint="write it like expert:playouts=200 or expert:rollout=greedy:prior=none")])


def parse_options(text: str) -> dict:
    """``playouts=200:rollout=random`` -> keyword arguments, or one readable error."""
    out: dict = {}
    for part in filter(None, text.split(":")):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not value:
            raise option_error(f"expert option '{part}' needs a value (key=value)")
        if key == "playouts":
            if not value.isdigit() or not 1 <= int(value) <= MAX_PLAYOUTS:
                raise option_error(f"expert playouts must be a whole number from 1 to "
                                   f"{MAX_PLAYOUTS:,}, not '{value}'")
            out[key] = int(value)
        elif key == "rollout":
            if value not in ROLLOUTS:
                raise option_error(f"expert rollout must be one of {', '.join(ROLLOUTS)}, "
                                   f"not '{value}'")
            out[key] = value
        elif key == "prior":
            if value not in PRIORS:
                raise option_error(f"expert prior must be one of {', '.join(PRIORS)}, "
                                   f"not '{value}'")
            out[key] = value
        elif key == "trust":
            try:
                trust = float(value)
            except ValueError:
                trust = -1.0
            if not 0.0 <= trust <= MAX_TRUST:
                raise option_error(f"expert trust must be a number from 0 to {MAX_TRUST:g}, "
                                   f"not '{value}'")
            out[key] = trust
        else:
            raise option_error(f"expert has no option '{key}' "
                               f"(options: playouts, rollout, prior, trust)")
    return out


class ExpertBot:
    """Samples the hidden tiles, plays each candidate out through the engine, picks the best."""

    name = "expert"
    parse_options = staticmethod(parse_options)

    def __init__(self, seat: int, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS,
                 rollout: str = "strategist", prior: str = "strategist",
                 trust: float = DEFAULT_TRUST):
        self.seat = seat
        self.rng = rng
        self.playouts = playouts
        self.rollout = rollout
        self.trust = trust
        # the prior reads the Observation only; its ties are broken from the sampler's seed
        self._prior = StrategistBot(seat, random.Random()) if prior == "strategist" else None
        self._game: Game | None = None

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if obs.rules.declarations or obs.rules.showdown is not None:
            return self._declaring(obs, legal)[0]
        if (obs.rules.layout is not None or obs.rules.several is not None
                or obs.rules.turn_up or obs.rules.blind or obs.rules.copies > 1):
            return self._shaped(obs, legal)[0]
        if obs.rules.play_until != "first_out":
            return self._playing_on(obs, legal)[0]
        return self.analyse(obs, legal).best

    def explain(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """The choice and its numbers, for ``play``'s hint."""
        if len(legal) == 1:
            return legal[0], "it is the only legal move"
        if obs.rules.declarations or obs.rules.showdown is not None:
            return self._declaring(obs, legal)
        if (obs.rules.layout is not None or obs.rules.several is not None
                or obs.rules.turn_up or obs.rules.blind or obs.rules.copies > 1):
            return self._shaped(obs, legal)
        if obs.rules.play_until != "first_out":
            return self._playing_on(obs, legal)
        analysis = self.analyse(obs, legal)
        return analysis.best, describe(analysis)

    def _declaring(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """Declarations or a showdown: the playouts' continuation replays placements, draws
        and passes only, so the expert chooses as the strategist does, and says so."""
        action, why = StrategistBot(self.seat, self.rng).explain(obs, legal)
        return action, why + "; the expert's playouts do not replay declarations"

    def _playing_on(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """``play.until: side_out``: the playouts' continuation ends a round at the first
        player out, so the expert chooses as the strategist does, and says so."""
        action, why = StrategistBot(self.seat, self.rng).explain(obs, legal)
        return action, why + ("; the expert's playouts end at the first player out, not "
                              "when a whole side is out (play.until)")

    def _shaped(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """A ``board.layout`` board, a tile turned up from the stock (``deal.turn_up``) or
        hidden rows (``deal.blind``) or every tile twice (``set.copies``):
        the playouts' continuation replays a line and a spinner opened from a hand only, so
        the expert chooses as the strategist does there, and says so."""
        action, why = StrategistBot(self.seat, self.rng).explain(obs, legal)
        if obs.rules.several is not None:   # play.several: moves of several tiles
            return action, why + "; the expert's playouts do not follow moves of several tiles"
        if obs.rules.blind or obs.rules.copies > 1:   # the sampled deals know neither
            return action, why + ("; the expert's playouts do not follow hidden rows or "
                                  "two sets, so it plays as the strategist does")
        if obs.rules.layout is None:   # deal.turn_up: the sampled deals know no turned-up tile
            return action, why + ("; the expert's playouts do not follow a tile turned up "
                                  "from the stock (deal.turn_up)")
        return action, why + "; the expert's playouts do not follow board.layout boards"

    def analyse(self, obs: Observation, legal: Sequence[Action]) -> Analysis:
        """Every legal action's playouts (at least two actions; a pass is never a choice)."""
        game = self._game_of(obs)
        sampler = random.Random(int(self.rng.random() * 2 ** 32))
        stream = random.Random() if self.rollout == "strategist" else _Words()
        after = _rollout(self.rollout, game, obs.players, stream)
        seen = belief.read(game, obs)
        position = _position(game, obs, seen)
        actions = [a for a in legal if a.kind != "pass"]
        incumbent = None
        if self._prior is not None:
            self._prior.rng.seed(int(sampler.random() * 2 ** 32))
            pick = self._prior.choose(obs, legal)
            incumbent = next((k for k, a in enumerate(actions) if a == pick), None)
        codes = [code_of(game, a) for a in actions]
        results: list[list[Outcome]] = [[] for _ in actions]
        live = list(range(len(actions)))
        accepted = 0
        fast = self._on_jit(game, obs, position)
        batch = _Batch(fast, game, obs, seen, sampler, position, codes) if fast else None
        for done in range(self.playouts):
            if incumbent is not None and done and done % PRUNE_EVERY == 0:
                live = _close_calls(obs, results, live, incumbent)
                if len(live) == 1:
                    break
            # the playouts still due before the next look at the close calls
            due = min(self.playouts, (done // PRUNE_EVERY + 1) * PRUNE_EVERY) - done
            for _ in range(TRIES):
                if batch is not None:   # the same deals and streams, played by the JIT
                    found = batch.next(live, due)
                    if found is None:
                        continue
                    outcomes = [found[k] for k in live]
                else:
                    deal = belief.sample(game, obs, seen, sampler).deal
                    seed = int(sampler.random() * 2 ** 32)
                    outcomes = []
                    try:
                        for k in live:
                            stream.seed(seed)
                            outcomes.append(continue_round(game, position, deal, codes[k],
                                                           after, seed=seed))
                    except Inconsistent:
                        continue
                for k, out in zip(live, outcomes, strict=True):
                    results[k].append(out)
                accepted += 1
                break
        return _judge(obs, actions, results, accepted, incumbent, self.trust)

    def _on_jit(self, game: Game, obs: Observation, position: Round):
        """The JIT's continuations of this ruleset (``kernel.jit_continuation``) when they
        play this search exactly as ``continue_round`` would: numba installed and on, a
        ruleset the JIT plays, a position its playouts follow (``follows``); else None (the
        python engine)."""
        if not _jit_playouts:
            return None
        kernel = _jit_playouts[0](game, obs.players, position.start_scores, self.rollout)
        return kernel if kernel is not None and kernel.follows(position) else None

    def _game_of(self, obs: Observation) -> Game:
        if self._game is None or self._game.rules is not obs.rules:
            self._game = Game(obs.rules)
        return self._game


# the JIT's continuations for the playouts: a function (game, players, start scores,
# rollout) -> its kernel, or None where they stay on Python; the kernel layer, above this
# one, installs it (``kernel.engines.expert_playouts``); without it every playout is Python's
_jit_playouts: list[Callable[..., Any]] = []


def use_jit_playouts(provider: Callable[..., Any]) -> None:
    """Play the playouts through ``provider``'s continuations where it gives one
    (``kernel.engines`` calls it on import): the same outcomes, faster."""
    _jit_playouts[:] = [provider]


class _Batch:
    """The sampler's deals and seeds in the order the python path draws them, played by
    the JIT some at a time (all the live candidates of each), handed out one by one:
    ``next`` gives a deal's outcome per candidate, or None for a deal the engine refused
    (``Inconsistent``), exactly as the loop of ``ExpertBot.analyse`` would meet them."""

    def __init__(self, kernel, game: Game, obs: Observation, seen: belief.Seen,
                 sampler: random.Random, position: Round, codes: list[int]):
        self.kernel, self.game, self.obs, self.seen = kernel, game, obs, seen
        self.sampler, self.position, self.codes = sampler, position, codes
        self.queue: list[dict[int, Outcome] | None] = []
        self.known = belief.deck_known(game, obs, seen)

    def next(self, live: list[int], due: int) -> dict[int, Outcome] | None:
        if not self.queue:
            self._fill(live, due)
        return self.queue.pop(0)

    def _fill(self, live: list[int], count: int) -> None:
        """``count`` more deals, each played with every live candidate in one JIT call."""
        decks, seeds = [], []
        for _ in range(count):
            decks.append(belief.sample_deck(self.game, self.obs, self.seen, self.sampler,
                                            self.known))
            seeds.append(int(self.sampler.random() * 2 ** 32))
        outs = self.kernel.play(self.position, [d for d in decks for _ in live],
                                [self.codes[k] for _ in decks for k in live],
                                [s for s in seeds for _ in live])
        n = len(live)
        for i in range(count):
            row = outs[i * n:(i + 1) * n]
            self.queue.append(None if None in row else dict(zip(live, row, strict=True)))


class _Words(random.Random):
    """The greedy and random rollouts' shared stream: ``random()`` is a 32-bit word of the
    Twister over 2**32 and ``next32`` the word, as on a seat's stream (``engine.streams``),
    so ``int(random() * n) == (next32() * n) >> 32``: the bots pick by words, as the JIT's
    continuations pick them (``kernel.jit_continue.mt_word``: ``getrandbits(32)``)."""

    def random(self) -> float:
        return self.getrandbits(32) * _SCALE

    def next32(self) -> int:
        return self.getrandbits(32)


_SCALE = 1.0 / 2 ** 32


def _rollout(name: str, game: Game, players: int, stream: random.Random):
    """The rollout policies: a fast policy per seat, or the strategist's bound to the match
    (each seat reading its view of it: ``engine.observation.SeatView``)."""
    if name == "strategist":
        def bound(view) -> list:
            shared: dict = {}
            return [StrategistBot(s, stream).decider(game, players, shared).bind(view.seat(s))
                    for s in range(players)]
        return bound
    bot = ROLLOUTS[name]
    return [bot(s, stream).policy(game) for s in range(players)]


def _position(game: Game, obs: Observation, seen: belief.Seen) -> Round:
    """The round under way as ``obs`` shows it, for ``engine.continuation``."""
    deal = obs.history[seen.dealt]
    start = list(obs.scores)
    for e in seen.events:
        if e["event"] == "score":
            start[e["side"]] -= e["points"]
    won = [0] * len(obs.teams)
    values: dict = {}
    for e in obs.history[:seen.dealt]:
        if e["event"] == "round_end":
            values = e.get("variables") or values   # the variables the round plays with
            if e["winner"] is not None:
                won[e["winner"]] += 1
    return Round(obs.players, deal["round"], deal["leader"], tuple(start), tuple(won),
                 tuple(move_of(game, e) for e in seen.events), obs.seat,
                 tuple(values.items()))


def _close_calls(obs: Observation, results: list[list[Outcome]], live: list[int],
                 incumbent: int) -> list[int]:
    """The candidates still worth playouts: the prior's pick, and those whose mean so far
    beats it on the same deals (a challenger behind it would need the rest of the
    playouts to reverse a deficit and then clear ``trust`` standard errors)."""
    utility = _utilities(obs, results)
    mine = utility[incumbent]
    keep = []
    for k in live:
        if k == incumbent or sum(utility[k]) > sum(mine[:len(utility[k])]):
            keep.append(k)
    return keep


def _utilities(obs: Observation, results: list[list[Outcome]]) -> list[list[float]]:
    """Per candidate, per playout: what the choice maximises (as ``_judge``)."""
    return [u for _, _, _, u in _scored(obs, results)]


def _scored(obs: Observation, results: list[list[Outcome]]):
    """Per candidate: (points margins, round shares, match shares, utility) per playout;
    the utility is the match won (margins breaking ties) once a playout ends the match."""
    sign = 1 if obs.rules.match_winner == "highest" else -1
    me = obs.side
    near_end = any(out.decided for outs in results for out in outs)
    scored = []
    for outs in results:
        margins, round_wins, match = [], [], []
        for out in outs:
            gain = [sign * (after - before) for after, before in zip(out.scores, out.before,
                                                                     strict=True)]
            best_other = max(g for s, g in enumerate(gain) if s != me)
            margins.append(gain[me] - best_other)
            round_wins.append(1.0 if gain[me] > best_other else 0.5 if gain[me] == best_other
                              else 0.0)
            match.append(0.5 if not out.decided or out.winner is None
                         else float(out.winner == me))
        utility = ([m + g * 1e-9 for m, g in zip(match, margins, strict=True)] if near_end
                   else margins)
        scored.append((margins, round_wins, match, utility))
    return scored


def _judge(obs: Observation, actions: list[Action], results: list[list[Outcome]],
           accepted: int, incumbent: int | None = None, trust: float = DEFAULT_TRUST
           ) -> Analysis:
    """The candidates ranked by the outcome that matters now; the prior's pick
    (``incumbent``) stays first unless the best mean beats it by ``trust`` paired
    standard errors."""
    near_end = any(out.decided for outs in results for out in outs)
    ranked = []
    utility: list[list[float]] = []    # per candidate, per playout: what the choice maximises
    for k, (action, (margins, round_wins, match, used)) in enumerate(
            zip(actions, _scored(obs, results), strict=True)):
        count = len(used)
        margin = sum(margins) / count if count else 0.0
        wins = sum(match if near_end else round_wins) / count if count else 0.0
        value = sum(used) / count if count else 0.0
        utility.append(used)
        ranked.append((-value, k, Candidate(action, count, value, margin, wins)))
    ranked.sort(key=lambda r: (r[0], r[1]))   # ties: the first legal action
    if incumbent is not None:
        top = ranked[0][1]
        if top != incumbent and not _clearly_better(utility[top], utility[incumbent], trust):
            at = next(i for i, r in enumerate(ranked) if r[1] == incumbent)
            ranked.insert(0, ranked.pop(at))
    elif ranked[0][2].action.kind == "draw" and len(ranked) > 1:
        draw, place = ranked[0][1], ranked[1][1]
        if not _clearly_better(utility[draw], utility[place], DRAW_TRUST):
            ranked[0], ranked[1] = ranked[1], ranked[0]
    return Analysis(tuple(c for _, _, c in ranked), "the match" if near_end else "round points",
                    accepted)


def _clearly_better(a: list[float], b: list[float], z: float) -> bool:
    """``a`` beats ``b`` on the same deals by more than ``z`` paired standard errors.

    Asked of a voluntary draw against the best placement: rollouts by simple policies
    overrate a draw (a bigger hand gives them options they squander less), so the expert
    draws by choice only when the playouts leave no doubt. Measured in plain Draw
    against the strategist on the same 24 deals: at 24 playouts, drawing
    on a quarter of its choices,
    it won 29% of them, never drawing by choice 46%; at 64 playouts with this test, 62%.
    """
    n = min(len(a), len(b))     # a candidate pruned early: the deals both were played on
    if n < 2:
        return False
    d = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean > z * (var / n) ** 0.5


def describe(analysis: Analysis) -> str:
    """The numbers behind a choice, in a sentence."""
    best, *rest = analysis.candidates
    what = "the match" if analysis.objective == "the match" else "the round"
    text = (f"it wins {what} in {best.wins:.0%} of {best.playouts} playouts "
            f"(points margin {best.margin:+.1f})")
    if rest:
        runner = rest[0]
        text += (f", against {runner.wins:.0%} for the next best, {runner.action} "
                 f"({runner.margin:+.1f})")
        if runner.value > best.value:
            text += "; the strategist's choice, which the playouts do not clearly beat"
    return text
