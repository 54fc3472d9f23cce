"""Rulesets as data: YAML -> checked, compiled ``engine.Rules``.

The pipeline, one module a stage: ``marked_yaml`` (safe YAML with line marks),
``load`` (refs, ``extends``, deep merge), ``schema`` (JSON Schema, defaults),
``compile`` (formulas and named choices -> ``Rules``), ``checks`` (cross-field
sense). Every problem is a ``Diagnostic``; all of a file's problems are gathered.

>>> rs = load_ruleset("house/same-leader")
>>> rs.rules.hand_size(4), check_player_count(rs, 5).message
(6, 'house/same-leader allows 2 to 4 players, not 5')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, DiagnosticError
from .examples import Example, examples_of
from .resources import BuiltinInfo, builtin_files, builtin_paths

if TYPE_CHECKING:
    from ..engine.game_rules import Rules

# The stages are imported when a ruleset is first loaded, not with this package: `list`
# reads only the files' descriptions, and should not pay for the schema validator, the
# formula parser or the engine.

__all__ = ["BuiltinInfo", "Ruleset", "builtin_rulesets", "check_player_count",
           "check_ruleset", "load_ruleset", "rule_warnings"]


@dataclass(frozen=True)
class Ruleset:
    """A loaded ruleset: its name, file, merged data (defaults filled in), extends chain, Rules."""

    name: str
    path: str
    data: dict[str, Any]
    chain: tuple[str, ...]
    rules: Rules
    examples: tuple[Example, ...] = ()   # the file's own rule examples (never inherited)

    def parent(self) -> Ruleset | None:
        """The ruleset this one extends, loaded (None when it extends nothing): what the
        rule sheet compares it with to say what it changes."""
        return load_ruleset(self.chain[1]) if len(self.chain) > 1 else None


def _load(ref: str, run_examples: bool = False) -> tuple[Ruleset | None, list[Diagnostic]]:
    from . import schema
    from .compile import compile_expressions
    from .load import load_merged

    merged, read_problems = load_merged(ref)
    if merged is None:
        return None, read_problems
    # A value the reader refused (bad tag) is None now: its schema error would repeat it.
    refused = {d.path for d in read_problems}
    if run_examples or read_problems or not _all_builtin(merged.chain):
        problems = [d for d in schema.validate(merged.data, merged.marks)
                    if d.path not in refused]
    else:
        problems = []   # builtin files ship checked (`validate` and the tests check them)
    pruned = None if read_problems or not problems else schema.without_faults(
        merged.data, _parent_data(merged))
    if pruned is not None:   # every other check runs on the rest of the file
        _, more = _checked(merged, pruned, run_examples)
        return None, sorted(problems + more, key=Diagnostic.sort_key)
    if problems or read_problems:
        # Still check the formulas the schema found no fault with: report all at once.
        _, more = compile_expressions(merged.data, merged.marks,
                                      skip={d.path for d in problems} | refused)
        later = Diagnostic("checks", "the deal, match and example checks run once the "
                           "problems above are fixed", file=merged.file, severity="note")
        return None, sorted(read_problems + problems + more, key=Diagnostic.sort_key) + [later]
    return _checked(merged, merged.data, run_examples)


def _parent_data(merged: Any) -> dict[str, Any] | None:
    """The merged data of the ruleset ``merged`` extends (None: it extends none, or that
    cannot be read): what a faulty value falls back to while the rest is checked."""
    from .load import load_merged

    if len(merged.chain) < 2:
        return None
    parent, problems = load_merged(merged.chain[1])
    return None if parent is None or problems else parent.data


def _checked(merged: Any, raw: dict[str, Any], run_examples: bool
             ) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Compile a ruleset the schema accepts (``raw``: its merged data) and run every
    load-time check on it (its examples too when asked)."""
    from . import schema
    from .checks import semantic_checks
    from .compile import build_rules, compile_expressions, partial_rules

    data = schema.fill_defaults(raw)
    name = data.get("name") or merged.builtin_name or os.path.splitext(
        os.path.basename(merged.file))[0]
    data["name"] = name
    trees: dict = {}
    fns, problems = compile_expressions(data, merged.marks, trees=trees)
    rules = None if problems else build_rules(name, data, merged.marks, fns, trees)
    problems += semantic_checks(data, merged.marks, rules,
                                None if rules is not None else partial_rules(data, fns))
    examples = examples_of(data, merged.marks)
    if run_examples and rules is not None and not problems:
        from .verify import example_diagnostics

        problems += example_diagnostics(rules, examples, merged.marks)
    if problems or rules is None:
        return None, sorted(problems, key=Diagnostic.sort_key)
    return Ruleset(name, merged.file, data, tuple(merged.chain), rules, examples), []


def rule_warnings(ref: str) -> list[Diagnostic]:
    """Warnings for a valid ruleset: where two of its rules decide the same thing, which
    one wins, at that rule's file:line:col and naming the other's (``precedence``); a
    required opening tile its leader rarely holds (``opener_warnings``); an event formula
    that can never apply (``never_apply``)."""
    from . import schema
    from .checks import several_warnings, side_out_warnings
    from .load import load_merged
    from .never_apply import never_apply_warnings
    from .precedence import opener_warnings, precedence_warnings

    merged, _ = load_merged(ref)
    if merged is None:
        return []
    data = schema.fill_defaults(merged.data)
    return (precedence_warnings(data, merged.marks)
            + opener_warnings(data, merged.marks, merged.file)
            + several_warnings(data, merged.marks)
            + side_out_warnings(data, merged.marks)
            + never_apply_warnings(data, merged.marks))


def merged_ruleset(ref: str) -> tuple[dict | None, dict]:
    """A valid ruleset's merged data with its defaults, and the marks of its fields (for
    warnings that judge it by playing, ``dominorules.exercise``); (None, {}) when its
    files cannot be read."""
    from . import schema
    from .load import load_merged

    merged, _ = load_merged(ref)
    if merged is None:
        return None, {}
    return schema.fill_defaults(merged.data), merged.marks


def _all_builtin(chain: list[str]) -> bool:
    """Every file of an ``extends`` chain is one of the builtin rulesets."""
    builtin = {os.path.realpath(p) for p in builtin_paths().values()}
    return all(os.path.realpath(f) in builtin for f in chain)


def load_ruleset(ref: str) -> Ruleset:
    """Load a builtin name or a YAML path; raises ``DiagnosticError`` with every problem."""
    ruleset, problems = _load(ref)
    if ruleset is None:
        raise DiagnosticError(problems)
    return ruleset


def check_ruleset(ref: str) -> list[Diagnostic]:
    """Every problem of a ruleset (empty when it is valid), its rule examples run too."""
    return _load(ref, run_examples=True)[1]


def builtin_rulesets() -> list[BuiltinInfo]:
    """Every builtin ruleset, variants first then house rules, each with a one-line
    description: its own, else what it changes from the ruleset it extends, else its
    title (only those without one of their own are loaded)."""
    out = []
    for info in builtin_files():
        if not info.description:
            from .describe import changes_line

            try:
                ruleset = load_ruleset(info.name)
            except DiagnosticError:
                out.append(info)      # `validate` tells what is wrong with it
                continue
            line = changes_line(ruleset) or str(ruleset.data.get("title", ""))
            info = BuiltinInfo(info.name, info.path, line)
        out.append(info)
    return out


def check_player_count(ruleset: Ruleset, n: int) -> Diagnostic | None:
    """A diagnostic when ``n`` players cannot play ``ruleset``, else None."""
    low, high = ruleset.rules.min_players, ruleset.rules.max_players
    if low <= n <= high:
        return None
    allowed = f"exactly {low}" if low == high else f"{low} to {high}"
    return Diagnostic("players", f"{ruleset.name} allows {allowed} players, not {n}",
                      file=ruleset.path, path="players",
                      hint=f"choose a player count from {low} to {high}" if low != high
                      else f"play with {low} players")
