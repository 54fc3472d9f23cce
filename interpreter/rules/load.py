"""Resolve a ruleset reference, follow its ``extends`` chain and merge it into one document.

Mappings merge deeply, scalars and lists replace. Every merged value keeps the
mark of the file that wrote it, so a later error in an inherited value points
into that file. ``name``, ``extends``, ``examples``, ``description`` and
``source`` belong to the file itself and are never inherited (a parent's examples
need not hold under changed rules, and its description and sources tell the
parent's rules, not the ones this file changes).
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, did_you_mean
from ..files import NOT_FOUND, check_path, read_bytes
from .marked_yaml import Document, FieldPath, Mark, parse_yaml
from .resources import builtin_name_of, builtin_paths

# a file's own, never inherited
_OWN_KEYS = ("name", "extends", "examples", "description", "source")
MAX_EXTENDS = 32  # files in one extends chain: deeper is a mistake, and each costs a read


@dataclass
class Merged:
    """The merged document of a chain: data, marks, and the files top (the ref) first."""

    file: str
    builtin_name: str | None
    data: dict[str, Any]
    marks: dict[FieldPath, Mark]
    chain: list[str]


def looks_like_path(ref: str) -> bool:
    """A ref naming a file rather than a builtin: a YAML suffix or an explicit directory."""
    if ref.endswith((".yaml", ".yml")) or ref.startswith((".", "/", "~")):
        return True
    return os.sep in ref and not ref.startswith("house/")


def resolve_ref(ref: str) -> tuple[str, str | None] | Diagnostic:
    """A builtin name or a path -> (file to read, builtin name or None), or why not.

    A ref that is neither gets the code ``files.NOT_FOUND`` (a usage error on the
    command line); a path that exists but cannot be read says why (``files``).
    """
    builtins = builtin_paths()
    if ref in builtins:
        return str(builtins[ref]), ref
    problem = check_path(ref, "ruleset")
    if problem is None:
        path = Path(os.path.expanduser(ref))
        return str(path), builtin_name_of(path)
    if problem.code != NOT_FOUND or looks_like_path(ref):
        if problem.code == NOT_FOUND:
            return Diagnostic(NOT_FOUND, f"no such file: {ref}", file=ref,
                              hint="check the path (relative paths start from the current "
                                   "folder)")
        return problem
    close = difflib.get_close_matches(ref, sorted(builtins), n=1, cutoff=0.6)
    if not close:   # a house rule typed without its folder: house/block for block
        close = [n for n in sorted(builtins) if n.rpartition("/")[2] == ref][:1]
    hint = (f"did you mean '{close[0]}'? (`dominorules list` shows them all)" if close
            else "`dominorules list` shows every builtin name; a file's path ends in .yaml")
    return Diagnostic(NOT_FOUND, f"no builtin ruleset or file named '{ref}'", file=ref,
                      hint=hint)


def read_text(file: str) -> str | Diagnostic:
    """A file's text, or a diagnostic saying why it cannot be read as a YAML text file."""
    raw = read_bytes(file, "ruleset")
    if isinstance(raw, Diagnostic):
        return raw
    if b"\0" in raw:
        return Diagnostic("file", f"{file} is a binary file, not YAML text", file=file,
                          hint="name a ruleset's .yaml file, or a builtin name "
                          "(`dominorules list`)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Diagnostic("file", f"{file} is not UTF-8 text (bad byte at offset {exc.start})",
                          file=file, hint="save the file as UTF-8")


def read_document(file: str) -> tuple[Document | None, list[Diagnostic]]:
    """Read and parse one file (no extends)."""
    text = read_text(file)
    if isinstance(text, Diagnostic):
        return None, [text]
    return parse_yaml(text, file)


def _display(file: str) -> str:
    return builtin_name_of(Path(file)) or os.path.basename(file)


def _resolve_parent(ref: Any, child: str, mark: Mark | None, chain: list[str]
                    ) -> str | Diagnostic:
    where: dict[str, Any] = {"file": child, "path": "extends"}
    if mark:
        where.update(line=mark.line, column=mark.column)
    if not isinstance(ref, str) or not ref:
        return Diagnostic("extends", "extends must be a builtin name or a relative path "
                          "such as ./base.yaml", **where,
                          hint="write one builtin name or one path, e.g. extends: "
                          "./base.yaml (`dominorules list` shows the builtin names)")
    shown = " -> ".join([*chain, ref])
    if looks_like_path(ref):
        target = os.path.normpath(os.path.join(os.path.dirname(child), os.path.expanduser(ref)))
        problem = check_path(target, "ruleset")
        if problem is not None and problem.code == NOT_FOUND:
            return Diagnostic("extends", f"extends a missing file: {shown}", **where,
                              hint=f"no file at {target} (paths are relative to {child})")
        if problem is not None:
            return Diagnostic("extends", f"extends {ref}: {problem.message}", **where,
                              hint=problem.hint or "name a readable .yaml file")
        return target
    builtins = builtin_paths()
    if ref not in builtins:
        return Diagnostic("extends", f"extends a missing builtin ruleset: {shown}", **where,
                          hint=did_you_mean(ref, builtins))
    return str(builtins[ref])


def load_chain(file: str) -> tuple[list[Document], list[Diagnostic]]:
    """The file and its ancestors, top first, and the problems met.

    A broken link (unreadable file, YAML syntax error, missing parent, cycle)
    returns no documents: there is no whole chain to merge.
    """
    docs: list[Document] = []
    seen: list[str] = []
    problems: list[Diagnostic] = []
    current = file
    while True:
        doc, found = read_document(current)
        problems += found
        if doc is None:
            return [], problems
        docs.append(doc)
        seen.append(os.path.realpath(current))
        ref = doc.data.get("extends")
        if ref is None:
            return docs, problems
        if len(docs) >= MAX_EXTENDS:
            m = doc.marks.get(("extends",))
            return [], [*problems, Diagnostic(
                "extends", f"the extends chain is longer than {MAX_EXTENDS} files",
                file=current, path="extends", line=m.line if m else 0,
                column=m.column if m else 0,
                hint=f"a ruleset may extend at most {MAX_EXTENDS - 1} others in a row; "
                     f"it starts at {_display(file)}")]
        chain = [_display(d.file) for d in docs]
        parent = _resolve_parent(ref, current, doc.marks.get(("extends",)), chain)
        if isinstance(parent, Diagnostic):
            return [], [*problems, parent]
        if os.path.realpath(parent) in seen:
            m = doc.marks.get(("extends",))
            shown = " -> ".join([*chain, _display(parent)])
            return [], [*problems, Diagnostic(
                "extends", f"extends cycle: {shown}", file=current, path="extends",
                line=m.line if m else 0, column=m.column if m else 0,
                hint="a ruleset cannot extend itself, directly or through others")]
        current = parent


Index = dict[FieldPath, set[FieldPath]]  # a prefix -> every marked path under it (itself included)


def _index(marks: dict[FieldPath, Mark]) -> Index:
    """Every path under each prefix, so a subtree's marks are found without a scan
    (a scan per key made a file of thousands of keys take seconds)."""
    index: Index = {}
    for path in marks:
        _add(index, path)
    return index


def _add(index: Index, path: FieldPath) -> None:
    for i in range(1, len(path) + 1):
        index.setdefault(path[:i], set()).add(path)


def _merge(base: dict[str, Any], marks: dict[FieldPath, Mark], index: Index, over: dict[str, Any],
           over_marks: dict[FieldPath, Mark], over_index: Index, path: FieldPath) -> None:
    for key, value in over.items():
        here = path + (key,)
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            marks[here] = over_marks[here]
            _merge(base[key], marks, index, value, over_marks, over_index, here)
            continue
        for p in index.pop(here, ()):  # the base's subtree here is replaced
            marks.pop(p, None)
        base[key] = _copy(value)
        for p in over_index.get(here, ()):
            marks[p] = over_marks[p]
            _add(index, p)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def merge_chain(docs: list[Document]) -> tuple[dict[str, Any], dict[FieldPath, Mark]]:
    """Merge ancestors first, the top file last; the top file's own keys are kept as written."""
    data: dict[str, Any] = {}
    marks: dict[FieldPath, Mark] = {}
    index: Index = {}
    for depth, doc in enumerate(reversed(docs)):
        own = depth == len(docs) - 1
        body = {k: v for k, v in doc.data.items() if own or k not in _OWN_KEYS}
        _merge(data, marks, index, body, doc.marks, _index(doc.marks), ())
    marks[()] = docs[0].marks[()]
    return data, marks


def load_merged(ref: str) -> tuple[Merged | None, list[Diagnostic]]:
    """Resolve ``ref``, read its extends chain and merge it.

    Returns (None, problems) when the chain cannot be built; otherwise the merged
    document and the problems found inside its files (duplicate keys, bad tags).
    """
    resolved = resolve_ref(ref)
    if isinstance(resolved, Diagnostic):
        return None, [resolved]
    file, builtin_name = resolved
    docs, problems = load_chain(file)
    if not docs:
        return None, problems
    # Only problems inside values (duplicate keys, tags) remain: merge what was read,
    # so the later stages can report the file's other problems too.
    data, marks = merge_chain(docs)
    return Merged(file, builtin_name, data, marks, [d.file for d in docs]), problems


def chain_files(ref: str) -> list[str]:
    """The files a run of ``ref`` reads: its own and every file it extends (``ref`` itself
    when the chain cannot be read: the run says why). No output may name one."""
    merged, _ = load_merged(ref)
    return merged.chain if merged is not None else [ref]
