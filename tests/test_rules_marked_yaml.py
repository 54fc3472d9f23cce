"""Safe YAML with marks, and positions inside expressions for every quoting style."""

from __future__ import annotations

import pytest

from dominorules.rules.exprpos import locate
from dominorules.rules.marked_yaml import Mark, dotted, parse_yaml


def test_marks_for_keys_and_values():
    doc, problems = parse_yaml("title: X\ndeal:\n  hand_size: '7'\nlist: [1, 2]\n", "f.yaml")
    assert problems == []
    assert doc.data == {"title": "X", "deal": {"hand_size": "7"}, "list": [1, 2]}
    m = doc.marks[("deal", "hand_size")]
    assert (m.file, m.line, m.column, m.key_line, m.key_column) == ("f.yaml", 3, 14, 3, 3)
    assert (m.raw, m.style) == ("'7'", "'")
    assert (doc.marks[("list", 1)].line, doc.marks[("list", 1)].column) == (4, 11)


def test_duplicate_keys_all_reported_with_the_first_line_in_the_hint():
    doc, problems = parse_yaml("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", "f.yaml")
    assert [(d.line, d.column, d.message, d.hint) for d in problems] == [
        (4, 3, "duplicate key 'c'", "'c' is already set on line 3; keep only one"),
        (5, 1, "duplicate key 'a'", "'a' is already set on line 1; keep only one"),
    ]
    assert doc.data == {"a": 1, "b": {"c": 1}}


@pytest.mark.parametrize("text, tag", [
    ("x: !!python/object:os.system {}\n", "!!python/object:os.system"),
    ("x: !!python/name:os.system ''\n", "!!python/name:os.system"),
    ("x: !custom 3\n", "!custom"),
    ("x: !!set {a, b}\n", "!!set"),
    ("x: !!binary aGVsbG8=\n", "!!binary"),
])
def test_object_tags_are_refused_with_position(text, tag):
    _, problems = parse_yaml(text, "f.yaml")
    assert [(d.code, d.line, d.column, d.message) for d in problems] == [
        ("yaml", 1, 4, f"YAML tag '{tag}' is not allowed")]


def test_syntax_error_has_the_parsers_position():
    doc, [d] = parse_yaml("a: 'open\nb: 2\n", "f.yaml")
    assert doc is None
    # a quote left open is shown where it opens, not at the end of the file it runs to
    assert (d.code, d.line, d.column) == ("yaml", 1, 4)
    assert d.message == "found unexpected end of stream (while scanning a quoted scalar)"
    assert d.hint == "a quoted value is not closed: end it with the quote it starts with"
    _, [d] = parse_yaml("a:\n  b: 1\n c: 2\n", "f.yaml")
    assert (d.line, d.column) == (3, 2)


def test_plain_scalars_and_a_bare_date():
    doc, problems = parse_yaml("a: 0x10\nb: true\nc: null\nd: 2024-01-02\ne: 1.5\n", "f.yaml")
    assert problems == []
    assert doc.data == {"a": 16, "b": True, "c": None, "d": "2024-01-02", "e": 1.5}


def test_non_mapping_root_and_empty_file():
    assert [d.message for d in parse_yaml("[1, 2]\n", "f")[1]] == [
        "a ruleset must be a mapping of keys to values"]
    assert [d.message for d in parse_yaml("# only a comment\n", "f")[1]] == ["the file is empty"]


def test_dotted_paths():
    assert dotted(("scoring", "blocked", "points")) == "scoring.blocked.points"
    assert dotted(("examples", 2, "hands", 0)) == "examples[2].hands[0]"
    assert dotted(()) == ""


def _where(text: str, path: tuple, offset: int) -> tuple[int, int]:
    doc, problems = parse_yaml(text, "f.yaml")
    assert problems == []
    value = doc.data
    for part in path:
        value = value[part]
    return locate(doc.marks[path], value, offset)


@pytest.mark.parametrize("text, offset, expected", [
    ("x: 7 if players else 6\n", 5, (1, 9)),                      # plain
    ("x: '7 if players else 6'\n", 5, (1, 10)),                   # single-quoted
    ('x: "7 if players else 6"\n', 5, (1, 10)),                   # double-quoted
    ("x: 'it''s players'\n", 5, (1, 11)),                         # '' escape before it
    ('x: "a \\"b\\" players"\n', 8, (1, 15)),                     # \" escapes before it
    ("x: |\n  1 +\n  players\n", 4, (3, 3)),                      # literal block
    ("x: >-\n  1 +\n  players\n", 4, (3, 3)),                     # folded block
    ("x: 1 +\n   players\n", 4, (2, 4)),                          # folded plain
    ("x: '1 +\n   players'\n", 4, (2, 4)),                        # folded single-quoted
    ("x: 1 + 2\n", 5, (1, 9)),                                    # just past the end
])
def test_positions_inside_expressions(text, offset, expected):
    assert _where(text, ("x",), offset) == expected


def test_unalignable_text_falls_back_to_the_value_start():
    m = Mark("f", 4, 9, 4, 3, raw='"\\x41"', style='"')
    assert locate(m, "A", 0) == (4, 9)


def test_alias_loops_and_alias_bombs_are_refused():
    _, [d] = parse_yaml("a: &x [1, *x]\n", "f.yaml")
    assert (d.line, d.column, d.message) == (1, 4, "an alias refers to itself")
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n"
        for i in range(8))
    _, problems = parse_yaml(bomb, "f.yaml")
    assert [d.message for d in problems] == ["an alias expands too far"]


def test_deep_nesting_is_a_diagnostic():
    _, [d] = parse_yaml("a: " + "[" * 5000 + "]" * 5000 + "\n", "f.yaml")
    assert d.message == "the file is nested too deeply"


def test_merge_keys_are_refused():
    doc, [d] = parse_yaml("a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n", "f.yaml")
    assert (d.line, d.column, d.message, d.hint) == (
        3, 3, "YAML merge keys (<<) are not supported",
        "use 'extends' to start from another ruleset")
    assert doc.data == {"a": {"b": 1}, "c": {"d": 2}}
