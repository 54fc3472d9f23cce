"""Read one YAML file safely into plain data plus a position for every key and value.

We compose PyYAML's node tree (never construct arbitrary objects) so that each
value keeps the line and column where it was written: schema errors, expression
errors and semantic checks all point back into the file. Duplicate keys and any
tag outside plain JSON-like data (``!!python/object`` ...) are errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..diagnostics import Diagnostic

FieldPath = tuple[Any, ...]  # a field path: mapping keys and list indices

MAX_NODES = 20_000  # values in one file: a ruleset holds a few hundred; aliases can expand
#                     a small file exponentially ("billion laughs")

# libyaml's parser when PyYAML was built with it (ten times faster, the same marks)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR = "tag:yaml.org,2002:str"
_SCALAR_TAGS = {
    _STR,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


@dataclass(frozen=True)
class Mark:
    """Where one value (and the key naming it) was written.

    Lines and columns are 1-based. ``raw`` is the value's source text exactly as
    written (quotes, escapes, folding included) and ``style`` its YAML scalar
    style (None for plain, ``'``, ``"``, ``|``, ``>``), so a position inside an
    expression can be mapped back to the file.
    """

    file: str
    line: int
    column: int
    key_line: int
    key_column: int
    raw: str = ""
    style: str | None = None


@dataclass
class Document:
    """One file's data with the mark of every path in it (the root's path is ``()``)."""

    file: str
    data: Any
    marks: dict[FieldPath, Mark]


def _diag(file: str, node_or_mark: Any, message: str, code: str = "yaml", hint: str = "",
          path: FieldPath = ()) -> Diagnostic:
    m = getattr(node_or_mark, "start_mark", node_or_mark)
    return Diagnostic(code, message, file=file, line=m.line + 1, column=m.column + 1,
                      path=dotted(path), hint=hint)


def dotted(path: FieldPath) -> str:
    """``('scoring', 'blocked', 'points')`` -> ``scoring.blocked.points``; indices as ``[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


class _Reader:
    """Walks a composed node tree into plain values, recording marks and problems."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.marks: dict[FieldPath, Mark] = {}
        self.problems: list[Diagnostic] = []
        self._constructor = SafeConstructor()
        self._open: set[int] = set()  # nodes being read: an alias to one of them is a loop
        self._seen: set[int] = set()  # nodes read once: meeting one again is an alias
        self._count = 0
        self.too_big: Diagnostic | None = None  # the node limit, hit: the data is cut short

    def mark(self, path: FieldPath, node: Node, key: Node | None) -> None:
        k = key if key is not None else node
        raw = self.text[node.start_mark.index:node.end_mark.index] if isinstance(
            node, ScalarNode) else ""
        self.marks[path] = Mark(self.file, node.start_mark.line + 1, node.start_mark.column + 1,
                                k.start_mark.line + 1, k.start_mark.column + 1, raw,
                                getattr(node, "style", None) or None)  # libyaml: "" for plain

    def value(self, node: Node, path: FieldPath, key: Node | None = None) -> Any:
        self.mark(path, node, key)
        self._count += 1
        if id(node) in self._open:
            self.problems.append(_diag(self.file, key or node, "an alias refers to itself",
                                       path=path, hint="write the value out instead"))
            return None
        aliased = id(node) in self._seen
        self._seen.add(id(node))
        if self._count > MAX_NODES:
            if self.too_big is None:
                if aliased or len(self._seen) < self._count:
                    message, hint = "an alias expands too far", "write the value out instead"
                else:
                    message = f"the file holds more than {MAX_NODES:,} values"
                    hint = "a ruleset needs a few hundred; split examples into smaller files"
                self.too_big = _diag(self.file, key or node, message, path=path, hint=hint)
            return None
        if not isinstance(node, MappingNode | SequenceNode):
            return self.scalar(node, path)
        self._open.add(id(node))
        try:
            if isinstance(node, MappingNode):
                return self.mapping(node, path)
            if node.tag != _SEQ:
                self.bad_tag(node, path)
            return [self.value(item, path + (i,)) for i, item in enumerate(node.value)]
        finally:
            self._open.discard(id(node))

    def mapping(self, node: MappingNode, path: FieldPath) -> dict[str, Any] | None:
        if node.tag != _MAP:
            self.bad_tag(node, path)
            return None
        out: dict[str, Any] = {}
        seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                self.problems.append(_diag(self.file, key_node,
                                           "a key must be a plain word, not a list or mapping",
                                           path=path))
                continue
            key = key_node.value
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.problems.append(_diag(self.file, key_node, "YAML merge keys (<<) are not "
                                           "supported", path=path,
                                           hint="use 'extends' to start from another ruleset"))
                continue
            if key in seen:
                first = seen[key].start_mark
                self.problems.append(_diag(
                    self.file, key_node, f"duplicate key '{key}'", path=path + (key,),
                    hint=f"'{key}' is already set on line {first.line + 1}; keep only one"))
                continue
            seen[key] = key_node
            out[key] = self.value(value_node, path + (key,), key_node)
        return out

    def scalar(self, node: ScalarNode, path: FieldPath) -> Any:
        tag = node.tag
        if tag == "tag:yaml.org,2002:timestamp" and not node.style:  # plain (libyaml: "")
            return node.value  # a bare date is just text here
        if tag not in _SCALAR_TAGS:
            self.bad_tag(node, path)
            return None
        try:
            return SafeConstructor.yaml_constructors[tag](self._constructor, node)
        except (yaml.YAMLError, ValueError) as exc:
            self.problems.append(_diag(self.file, node, f"bad {_short_tag(tag)} value: {exc}",
                                       path=path))
            return None

    def bad_tag(self, node: Node, path: FieldPath) -> None:
        self.problems.append(_diag(
            self.file, node, f"YAML tag '{_short_tag(node.tag)}' is not allowed",
            path=path, hint="rulesets are plain data: mappings, lists, text, numbers, "
                            "true/false and null"))


_DEEP = "a ruleset nests a few levels at most: write nested lists and mappings flatter"


def _yaml_hint(message: str, text: str, line: int) -> str:
    """What fixes a YAML syntax error, from PyYAML's words and the line it marks: a tab
    indenting, a quote left open, a colon inside a plain value; else where to look."""
    lines = text.splitlines()
    marked = lines[line - 1] if 0 < line <= len(lines) else ""
    if "\t" in marked[:len(marked) - len(marked.lstrip())] or (
            "cannot start any token" in message and "\t" in marked):
        return "YAML indents with spaces, not tabs: replace the tab with spaces"
    if "while scanning a quoted scalar" in message:
        return "a quoted value is not closed: end it with the quote it starts with"
    if "mapping values are not allowed" in message:
        above = [t for t in lines[:max(0, line - 1)] if t.strip()]
        indent = len(marked) - len(marked.lstrip())
        if above and indent > len(above[-1]) - len(above[-1].lstrip()) and \
                not above[-1].rstrip().endswith(":"):
            return ("this line is indented more than the one above: the keys of one "
                    "mapping start in the same column")
        return "a value holding ': ' needs quotes, e.g. title: \"Draw: the plain game\""
    if "did not find expected key" in message or "expected <block end>" in message:
        return ("this line is indented unlike the lines around it: the keys of one mapping "
                "start in the same column")
    return "check indentation, colons and quotes near here"


def parse_yaml(text: str, file: str) -> tuple[Document | None, list[Diagnostic]]:
    """Parse one YAML text; returns the document (None if unreadable) and every problem."""
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if exc.context == "while scanning a quoted scalar" and exc.context_mark:
            mark = exc.context_mark   # the quote left open, not the end of the file
        message = exc.problem or "YAML syntax error"
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context})"
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        if "nesting depth" in message:   # PyYAML 6.0.4 stops deep nesting itself
            return None, [Diagnostic("yaml", "the file is nested too deeply", file=file,
                                     line=line, column=col, hint=_DEEP)]
        return None, [Diagnostic("yaml", message, file=file, line=line, column=col,
                                 hint=_yaml_hint(message, text, line))]
    except yaml.YAMLError as exc:  # unmarked: rare (e.g. a bad character in the stream)
        return None, [Diagnostic("yaml", str(exc), file=file,
                                 hint="check the file for characters YAML cannot hold")]
    except RecursionError:
        return None, [Diagnostic("yaml", "the file is nested too deeply", file=file,
                                 hint=_DEEP)]
    if root is None:
        return None, [Diagnostic("yaml", "the file is empty", file=file, line=1, column=1,
                                 hint="a ruleset is a mapping such as 'title: ...'")]
    if not isinstance(root, MappingNode) or root.tag != _MAP:
        reader = _Reader(file, text)
        if root.tag not in (_MAP, _SEQ) and root.tag not in _SCALAR_TAGS:
            reader.bad_tag(root, ())
            return None, reader.problems
        return None, [_diag(file, root, "a ruleset must be a mapping of keys to values",
                            hint="start with a line such as 'title: My rules'")]
    reader = _Reader(file, text)
    try:
        data = reader.value(root, ())
    except RecursionError:
        return None, [Diagnostic("yaml", "the file is nested too deeply", file=file,
                                 hint=_DEEP)]
    if reader.too_big:  # the data is cut short: any other error would only follow from that
        return None, [reader.too_big]
    return Document(file, data, reader.marks), reader.problems
