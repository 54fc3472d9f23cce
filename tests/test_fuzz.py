"""Fuzz: random bytes and random mutations of good rulesets and records, through
``validate`` and ``verify``. Whatever comes in, the answer is an exit code (0, 1 or 2)
and readable lines, never a traceback. Bounded: a few dozen examples each.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from dominorules import api

ROOT = Path(__file__).resolve().parent.parent
RULESET = (ROOT / "rulesets" / "house" / "pay-per-draw.yaml").read_text(encoding="utf-8") + \
    'deal:\n  hand_size: "7 if players <= 3 else 6"\nmatch:\n  target: 61\n'
RECORD = [json.dumps(e, separators=(",", ":"))
          for e in api.play_match("pagat", 2, 5, trace=True).events]

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@st.composite
def mutated(draw, text: str) -> bytes:
    """``text`` with a few random cuts, insertions, swaps of lines and replaced bytes."""
    data = bytearray(text.encode())
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["cut", "insert", "lines", "byte", "number"]))
        if kind == "cut":
            del data[i:i + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[i:i] = draw(st.binary(max_size=20) | st.text(max_size=20).map(str.encode))
        elif kind == "lines":
            lines = data.split(b"\n")
            j, k = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[j], lines[k] = lines[k], lines[j]
            data = bytearray(b"\n".join(lines))
        elif kind == "number":
            data[i:i] = str(draw(st.sampled_from([10 ** 40, -1, 0, 2 ** 63, 1.5]))).encode()
        elif data:
            data[min(i, len(data) - 1)] = draw(st.integers(0, 255))
    return bytes(data)


def _check(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output


@FUZZ
@given(st.binary(max_size=300) | mutated(RULESET))
def test_validate_survives_any_bytes(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    path.write_bytes(content)
    _check(["validate", str(path)])


@FUZZ
@given(st.binary(max_size=300) | mutated("\n".join(RECORD) + "\n"))
def test_verify_survives_any_bytes(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "r.jsonl"
    path.write_bytes(content)
    _check(["verify", str(path)])


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@FUZZ
@given(st.integers(0, len(RECORD) - 1), st.integers(0, 9), JSON)
def test_verify_survives_any_value_in_any_field(tmp_path_factory, line, which, value):
    events = [json.loads(e) for e in RECORD]
    keys = [k for k in events[line] if k != "event"]
    events[line][keys[which % len(keys)]] = value
    path = tmp_path_factory.mktemp("fuzz") / "r.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    _check(["verify", str(path)])
