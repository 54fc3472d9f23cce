"""docs/house-rules.md: every YAML snippet of the cookbook loads and its examples hold.

A user copies these snippets as they stand, so each one must be a complete ruleset file
that ``validate`` accepts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from player_counts import played_counts

from dominorules import api, records
from dominorules.rules import check_ruleset, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "house-rules.md"
SNIPPETS = re.findall(r"^```yaml\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_cookbook_holds_twenty_rules_and_the_readme_points_to_it():
    assert len(SNIPPETS) >= 20
    assert "docs/house-rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_every_snippet_is_a_valid_ruleset(index, tmp_path):
    path = tmp_path / f"snippet{index + 1}.yaml"
    path.write_text(SNIPPETS[index], encoding="utf-8")
    assert check_ruleset(str(path)) == []
    ruleset = load_ruleset(str(path))
    assert ruleset.data.get("extends"), "a snippet states only what differs from a builtin"
    assert ruleset.data["title"] == re.search(r"^title: (.+)$", SNIPPETS[index], re.M)[1]


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_every_snippet_plays_a_match_that_verify_accepts(index, tmp_path):
    path = tmp_path / f"snippet{index + 1}.yaml"
    path.write_text(SNIPPETS[index], encoding="utf-8")
    game = api.load_game(str(path))
    for players in played_counts(game):   # its fewest, 4 and most (tests/player_counts.py)
        record = tmp_path / f"{players}.jsonl"
        records.write_records(str(record), api.play_match(game, players, 1, trace=True).events)
        assert records.verify_file(str(record)) == []


def test_docs_variants_lists_every_house_rule():
    text = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    missing = [p.stem for p in (ROOT / "rulesets" / "house").glob("*.yaml")
               if f"`house/{p.stem}`" not in text]
    assert missing == []
