"""What the JIT still leaves to the Python engine (issue 21: "the JIT plays every ruleset
the language can express"), surveyed: every ruleset of rulesets/ (builtin and house),
tests/rulesets/house and tests/rulesets/strict, and every YAML snippet of
docs/house-rules.md and the README (each a complete ruleset file, as
tests/test_house_rules_doc.py reads them), at its fewest and most players with each
builtin bot. The refusals are exactly ``REFUSED``, now none: the JIT plays every one of
them; a new refusal must be named there with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

from player_counts import played_counts

from dominorules import api
from dominorules.kernel import jit_kernel

ROOT = Path(__file__).resolve().parent.parent
DOCS = (ROOT / "docs" / "house-rules.md", ROOT / "README.md")
BOTS = ("random", "greedy", "strategist")
# the ruleset (its file, or a snippet's title), the players it is refused at, and why:
# none (the last two, settlement formulas reading the board, play since the kernel keeps
# the board's facts at a round's end: jit_loop's SETTLE_BOARD switch)
REFUSED: dict[str, tuple[tuple[int, ...], str]] = {}


def _rulesets(tmp_path: Path):
    """(label, path) of every ruleset the survey reads."""
    for folder in ("rulesets", "rulesets/house", "tests/rulesets/house", "tests/rulesets/strict"):
        for path in sorted((ROOT / folder).glob("*.yaml")):
            yield str(path.relative_to(ROOT)), str(path)
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for i, snippet in enumerate(re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)):
            path = tmp_path / f"{doc.stem}{i + 1}.yaml"
            path.write_text(snippet, encoding="utf-8")
            yield re.search(r"^title: (.+)$", snippet, re.M)[1], str(path)


def test_the_jit_refuses_exactly_the_named_rulesets_and_says_why(tmp_path):
    refused = {}
    for label, path in _rulesets(tmp_path):
        game = api.load_game(path)
        counts = played_counts(game)
        for players in sorted({counts[0], counts[-1]}):
            for bots in BOTS:
                why = jit_kernel.jit_reason(game, players, bots, need_numba=False)
                if why is not None:
                    refused.setdefault(label, {}).setdefault(why, set()).add(players)
    got = {label: {why: tuple(sorted(n)) for why, n in whys.items()}
           for label, whys in refused.items()}
    assert {label: len(whys) for label, whys in got.items()} == dict.fromkeys(REFUSED, 1)
    for label, (players, words) in REFUSED.items():
        [(why, at)] = got[label].items()
        assert at == players and words in why, (label, why, at)
