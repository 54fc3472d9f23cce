"""``--vary FIELD=VALUES``: parse it, check it against the schema, and write the variants.

A variant is a small YAML file that ``extends`` the original ruleset and sets only the
varied fields, so it is loaded, checked and compiled like any house rule (workers load
it by path, as they load every ruleset). Every problem with a ``--vary`` itself (a
path not in the schema, a value of the wrong type, a formula that does not parse, an
empty range) is found here, before anything runs; a combination that cannot be played
(an impossible deal) is the sweep's to list.

>>> v = parse_vary("match.target=31,61..81:10")
>>> v.path, v.values
('match.target', (31, 61, 71, 81))
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..diagnostics import Diagnostic, DiagnosticError, did_you_mean
from ..expr import ExprError, compile_expression

NOT_RULES = ("name", "title", "description", "source", "extends", "examples")
RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?::(\d+))?$")
MAX_RANGE_VALUES = 100_000   # values one range may hold (tune zooms inside it)
MAX_VALUE_CHARS = 1000       # a value as typed: a formula's limit, a number's digits


@dataclass(frozen=True)
class Vary:
    """One varied field: its dotted schema path and the values to try, in order.

    ``span`` keeps a range as written (low, high, step) so ``tune`` can search inside it.
    """

    path: str
    values: tuple[Any, ...]
    span: tuple[int, int, int | None] | None = None


def usage(message: str, hint: str = "") -> DiagnosticError:
    return DiagnosticError([Diagnostic("vary", message, hint=hint)])


def split_values(text: str) -> list[str]:
    """Comma-separated items, commas inside brackets, parentheses or quotes kept.

    >>> split_values('5,"max(1, 2)",[6|6]')
    ['5', '"max(1, 2)"', '[6|6]']
    """
    items, depth, quote, cur = [], 0, "", []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    items.append("".join(cur).strip())
    return items


def scalar(text: str) -> Any:
    """A value as typed: an integer, null, true/false, or text (a formula, a choice, a tile)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    low = text.lower()
    if low in ("null", "none", "~"):
        return None
    if low in ("true", "false"):
        return low == "true"
    return text


def parse_vary(text: str) -> Vary:
    """``FIELD=V1,V2,LOW..HIGH[:STEP]`` -> a Vary (values not yet checked against the schema)."""
    if "=" not in text:
        raise usage(f"--vary {text}: expected FIELD=VALUES",
                    "e.g. --vary match.target=31,61,101 or --vary deal.hand_size=5..7")
    path, _, rest = text.partition("=")
    path = path.strip()
    values: list[Any] = []
    span = None
    items = split_values(rest)
    for item in items:
        if item == "":
            raise usage(f"--vary {path}: an empty value in '{rest}'",
                        "separate values by single commas")
        if len(item) > MAX_VALUE_CHARS:
            raise usage(f"--vary {path}: a value of {len(item)} characters",
                        f"a value (a number, a formula) has at most {MAX_VALUE_CHARS}")
        m = RANGE.match(item)
        if not m:
            values.append(scalar(item))
            continue
        lo, hi, step = int(m[1]), int(m[2]), int(m[3]) if m[3] else None
        if hi < lo or step == 0:
            raise usage(f"--vary {path}: the range {item} is empty",
                        "write LOW..HIGH with LOW <= HIGH (and a step of at least 1)")
        count = (hi - lo) // (step or 1) + 1
        if count > MAX_RANGE_VALUES:
            raise usage(f"--vary {path}: the range {item[:60]} holds {count:.3g} values, "
                        f"more than {MAX_RANGE_VALUES:,}", "give a step: LOW..HIGH:STEP")
        values.extend(range(lo, hi + 1, step or 1))
        if len(items) == 1:
            span = (lo, hi, step)
    return Vary(path, tuple(values), span)


# --- the schema ---------------------------------------------------------------------


def _leaves(node: dict[str, Any], prefix: str = "") -> dict[str, dict[str, Any]]:
    """Every dotted path the schema describes, to its sub-schema."""
    out: dict[str, dict[str, Any]] = {}
    for key, sub in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        if not prefix and key in NOT_RULES:
            continue
        out[path] = sub
        out.update(_leaves(sub, path + "."))
    return out


def schema_fields() -> dict[str, dict[str, Any]]:
    from ..rules.schema import ruleset_schema

    return _leaves(ruleset_schema())


def check_vary(vary: Vary) -> None:
    """Raise a usage error unless the path is a rule in the schema and every value fits it."""
    fields = schema_fields()
    sub = fields.get(vary.path)
    if sub is None:
        raise usage(f"--vary {vary.path}: no such rule in the ruleset schema",
                    did_you_mean(vary.path, fields))
    if "properties" in sub:
        inner = [p for p in fields if p.startswith(vary.path + ".")
                 and "properties" not in fields[p]]
        raise usage(f"--vary {vary.path}: is a group of rules; vary one of its fields",
                    "e.g. " + ", ".join(inner[:6]))
    from ..rules.schema import formula_kind, inlined, strict_validator

    validator = strict_validator()(inlined(sub))
    kind = formula_kind(sub)
    for value in vary.values:
        error = next(iter(validator.iter_errors(value)), None)
        if error is not None:
            words = sub.get("enum") or next((b["enum"] for b in sub.get("anyOf", ())
                                             if "enum" in b), None)
            if words:   # a choice: name the words (YAML reads yes/true as a boolean)
                raise usage(f"--vary {vary.path}: {value!r} is not one of its choices: "
                            + ", ".join(map(str, words)), sub.get("description", ""))
            raise usage(f"--vary {vary.path}: {value!r} does not fit: {error.message}",
                        sub.get("description", ""))
        if kind and isinstance(value, str):
            try:
                compile_expression(value, kind)
            except ExprError as exc:
                first = exc.problems[0]
                raise usage(f"--vary {vary.path}: {value!r} is not a formula here: "
                            f"{first.message}", first.hint or "see docs/language.md") from None


def check_distinct(varies: list[Vary]) -> None:
    paths = [v.path for v in varies]
    dup = next((p for p in paths if paths.count(p) > 1), None)
    if dup:
        raise usage(f"--vary {dup} is given twice", "give all its values in one --vary")


# --- variants as files --------------------------------------------------------------


def nested(overrides: dict[str, Any]) -> dict[str, Any]:
    """{'match.target': 61} -> {'match': {'target': 61}}."""
    out: dict[str, Any] = {}
    for path, value in overrides.items():
        node = out
        *parents, last = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def label(overrides: dict[str, Any]) -> str:
    """What a report calls a variant: ``match.target=61 deal.hand_size=6``."""
    return " ".join(f"{p}={_text(v)}" for p, v in overrides.items())


def _text(value: Any) -> str:
    return "null" if value is None else str(value).lower() if isinstance(value, bool) \
        else str(value)


def variant_text(extends: str, overrides: dict[str, Any], title: str) -> str:
    """The YAML of a ruleset that extends ``extends`` and sets ``overrides``."""
    body = {"title": title, "extends": extends, **nested(overrides)}
    return yaml.safe_dump(body, sort_keys=False, allow_unicode=True)


def write_variant(base_ref: str, overrides: dict[str, Any], directory: str, index: int) -> str:
    """Write a variant of ``base_ref`` (a builtin name or absolute path) into ``directory``."""
    path = os.path.join(directory, f"variant-{index:03d}.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(variant_text(base_ref, overrides, label(overrides)))
    return path


def extends_from(base_ref: str, out_path: str) -> str:
    """How a file at ``out_path`` names ``base_ref`` in ``extends``: builtins by name,
    files relative to the new file's folder (as ``extends`` reads them)."""
    from ..rules.load import looks_like_path

    if not (looks_like_path(base_ref) or os.path.isfile(base_ref)):
        return base_ref
    rel = os.path.relpath(os.path.abspath(base_ref), os.path.dirname(os.path.abspath(out_path)))
    return rel if rel.startswith(".") else f"./{rel}"
