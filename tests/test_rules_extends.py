"""``extends``: deep merge of mappings, replacement of scalars and lists, chains, positions."""

from __future__ import annotations

import textwrap
from pathlib import Path

from dominorules.rules import check_ruleset, load_ruleset
from dominorules.rules.load import load_merged


def _errors(path) -> list:
    """check_ruleset's errors (its note that more checks run later left out)."""
    return [d for d in check_ruleset(str(path)) if d.severity == "error"]

BASE = """\
title: Base
description: the base
players: {min: 2, max: 3}
deal: {hand_size: 7}
drawing: {reserve: 2, voluntary: forbidden}
scoring:
  domino: "sum(opponents.value)"
  blocked: {winner: lowest_side, tie: each}
match: {target: 100}
examples:
  - title: "base example"
    kind: points
    players: 2
    result: domino
    hands: ["", "1-2"]
    expect_points: [3, 0]
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_mappings_merge_deeply_scalars_and_lists_replace(tmp_path):
    _write(tmp_path, "base/base.yaml", BASE)
    child = _write(tmp_path, "child.yaml", """\
        extends: ./base/base.yaml
        title: Child
        players: {min: 3}
        scoring:
          blocked: {tie: nothing}
        """)
    rs = load_ruleset(str(child))
    d = rs.data
    # title is inherited; description and source describe only the file that writes them
    assert d["title"] == "Child" and d["description"] == ""
    assert d["players"] == {"min": 3, "max": 3, "sides": "individual"}
    assert d["drawing"]["reserve"] == 2 and d["drawing"]["voluntary"] == "forbidden"
    assert d["scoring"]["blocked"] == {"winner": "lowest_side", "tie": "nothing",
                                       "points": "sum(opponents.value) - winner.value"}
    assert rs.name == "child"
    assert rs.chain == (str(child), str(tmp_path / "base" / "base.yaml"))
    # examples, like name and extends, belong to the file that writes them
    assert d["examples"] == [] and rs.examples == ()


def test_a_list_replaces_the_parents_list(tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    child = _write(tmp_path, "child.yaml", """\
        extends: ./base.yaml
        examples:
          - {title: "mine", kind: legal, players: 2, hands: ["1-2", ""], expect_legal: ["1-2"]}
        """)
    assert [e.title for e in load_ruleset(str(child)).examples] == ["mine"]


def test_chain_of_three_and_a_builtin_parent(tmp_path):
    _write(tmp_path, "a.yaml", "extends: pagat\ntitle: A\ndrawing: {reserve: 0}\n")
    _write(tmp_path, "sub/b.yaml", "extends: ../a.yaml\nmatch: {target: 50}\n")
    c = _write(tmp_path, "sub/c.yaml", "extends: ./b.yaml\nname: mine\n")
    rs = load_ruleset(str(c))
    assert rs.name == "mine" and rs.rules.title == "A"
    assert rs.rules.reserve == 0 and rs.rules.target(2, 2, False) == 50
    assert rs.rules.hand_size(4) == 6  # from pagat
    assert [Path(p).name for p in rs.chain] == ["c.yaml", "b.yaml", "a.yaml", "pagat.yaml"]


def test_marks_point_into_the_file_that_wrote_each_value(tmp_path):
    base = _write(tmp_path, "base.yaml", BASE)
    child = _write(tmp_path, "child.yaml", "extends: ./base.yaml\ndeal: {hand_size: 8}\n")
    merged, problems = load_merged(str(child))
    assert problems == []
    assert (merged.marks[("deal", "hand_size")].file, merged.marks[("deal", "hand_size")].line) \
        == (str(child), 2)
    reserve = merged.marks[("drawing", "reserve")]
    assert (reserve.file, reserve.line, reserve.column) == (str(base), 5, 20)


def test_replacing_a_list_drops_the_parents_marks(tmp_path):
    _write(tmp_path, "base.yaml", BASE + "set: {max_pip: 6}\n")
    child = _write(tmp_path, "child.yaml", "extends: ./base.yaml\nexamples: []\n")
    merged, _ = load_merged(str(child))
    assert not [p for p in merged.marks if p[:1] == ("examples",) and len(p) > 1]


def test_an_inherited_error_is_reported_in_the_parent(tmp_path):
    base = _write(tmp_path, "base.yaml", BASE.replace("tie: each", "tie: all"))
    child = _write(tmp_path, "child.yaml", "extends: ./base.yaml\ntitle: Child\n")
    [d] = _errors(child)
    assert (d.file, d.line, d.column, d.path) == (str(base), 8, 39, "scoring.blocked.tie")


def test_a_child_can_fix_its_parents_error(tmp_path):
    _write(tmp_path, "base.yaml", BASE.replace("tie: each", "tie: all"))
    child = _write(tmp_path, "child.yaml",
                   "extends: ./base.yaml\nscoring: {blocked: {tie: each}}\n")
    assert check_ruleset(str(child)) == []


def test_self_cycle_and_missing_parent(tmp_path):
    me = _write(tmp_path, "me.yaml", "title: Me\nextends: ./me.yaml\n")
    [d] = check_ruleset(str(me))
    assert (d.code, d.message, d.line, d.column) == (
        "extends", "extends cycle: me.yaml -> me.yaml", 2, 10)
    orphan = _write(tmp_path, "orphan.yaml", "extends: ./gone/base.yaml\n")
    [d] = check_ruleset(str(orphan))
    assert d.message == "extends a missing file: orphan.yaml -> ./gone/base.yaml"
    assert d.hint == (f"no file at {tmp_path / 'gone' / 'base.yaml'} "
                      f"(paths are relative to {orphan})")


def test_a_file_without_description_or_source_says_what_it_changes(tmp_path):
    """Not the parent's description and sources as its own: what it changes, and whose."""
    from dominorules.rules.describe import render_sheet, rule_sheet

    short = _write(tmp_path, "short.yaml", """\
        title: Short Dutch
        extends: dutch
        deal:
          hand_size: "8 - players"
        match:
          target: 50
        """)
    sheet = rule_sheet(load_ruleset(str(short)))
    assert sheet.description == "As dutch, but with a different hand size and target."
    assert sheet.source == "" and sheet.based_on == "dutch"
    text = render_sheet(sheet, "text")
    assert text.splitlines()[:3] == ["Short Dutch (short)",
                                     "As dutch, but with a different hand size and target.",
                                     "Based on dutch."]
    assert "Source:" not in text
    same = _write(tmp_path, "same.yaml", "extends: ./short.yaml\n")
    assert rule_sheet(load_ruleset(str(same))).description == "The same rules as short.yaml."


def test_a_file_with_its_own_description_keeps_it():
    from dominorules.rules.describe import rule_sheet

    sheet = rule_sheet(load_ruleset("house/draw-one"))
    assert sheet.description.startswith("As pagat, but only a stuck player draws")
    assert sheet.based_on == "pagat" and sheet.source.startswith("seed 004")
