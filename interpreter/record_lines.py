"""Record events as JSON Lines text, fast, and byte for byte as ``json.dumps`` writes them.

The format (``docs/records.md``) is ``json.dumps(event, separators=(",", ":"))``: compact,
keys in the event's order, every non-ASCII character escaped. Writing records used to
cost four times the match itself, nearly all of it in ``json.dumps`` building a new
encoder for every event. Here one encoder is made once: with the ``fast`` extra
(``orjson``) a match's events are encoded in C at a tenth of the cost; without it the
commonest events are written from templates and the rest by the standard library's C
encoder, called directly. orjson writes the same bytes for what
the engine records (ints, ASCII strings, lists, None); a match whose text holds anything
it would write differently (a non-ASCII or DEL character, which ``json`` escapes, or an
integer beyond 64 bits, which orjson refuses) is encoded by the standard library
instead, so the bytes never depend on what is installed (a test compares both). Records
hold no floats (the reader refuses them), the one value the two would write differently.

>>> encode_events([{"event": "pass", "player": 1}, {"event": "draw", "player": 0,
...                "tile": [2, 5]}])
'{"event":"pass","player":1}\\n{"event":"draw","player":0,"tile":[2,5]}\\n'
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

try:  # the optional `fast` extra
    import orjson
except ImportError:  # pragma: no cover - depends on what is installed
    orjson = None

SEPARATORS = (",", ":")
_ENCODER = json.JSONEncoder(separators=SEPARATORS)


def _standard_encoder():
    """``json.dumps(event, separators=SEPARATORS)`` without its per-call set-up: the C
    encoder ``json`` itself builds, made once (the pure-Python one where C is missing)."""
    from json.encoder import c_make_encoder, encode_basestring_ascii

    if c_make_encoder is None:  # pragma: no cover - CPython always has it
        return _ENCODER.encode
    # the arguments JSONEncoder.iterencode passes for these settings (no markers: records
    # hold no cycles; the default refuses anything that is not JSON, as json.dumps does)
    c_encode = c_make_encoder(None, _ENCODER.default, encode_basestring_ascii, None,
                              SEPARATORS[1], SEPARATORS[0], False, False, True)
    return lambda event: "".join(c_encode(event, 0))


_encode_any = _standard_encoder()

# The three events of nearly every line, written from templates once their shape is
# checked (the keys in this order, ints that are ints, a known end); anything else goes
# to json's encoder. A third faster than the encoder alone, byte for byte the same.
_PLACE, _DRAW, _PASS = ("event", "player", "tile", "end"), ("event", "player", "tile"), \
    ("event", "player")
_ENDS = {None: "null", "left": '"left"', "right": '"right"', "up": '"up"', "down": '"down"'}


def dumps_standard(event: dict[str, Any]) -> str:
    """``json.dumps(event, separators=SEPARATORS)``, without orjson."""
    keys = tuple(event)
    if keys == _PLACE:
        p, t, end = event["player"], event["tile"], event["end"]
        if (event["event"] == "place" and type(p) is int and type(t) is list and len(t) == 2
                and type(t[0]) is int and type(t[1]) is int and end in _ENDS):
            return f'{{"event":"place","player":{p},"tile":[{t[0]},{t[1]}],"end":{_ENDS[end]}}}'
    elif keys == _DRAW:
        p, t = event["player"], event["tile"]
        if (event["event"] == "draw" and type(p) is int and type(t) is list and len(t) == 2
                and type(t[0]) is int and type(t[1]) is int):
            return f'{{"event":"draw","player":{p},"tile":[{t[0]},{t[1]}]}}'
    elif keys == _PASS:
        p = event["player"]
        if event["event"] == "pass" and type(p) is int:
            return f'{{"event":"pass","player":{p}}}'
    return _encode_any(event)


def dumps(event: dict[str, Any]) -> str:
    """One event as one compact JSON line (no newline)."""
    return dumps_standard(event)


def encode_standard(events: Iterable[dict[str, Any]]) -> str:
    """Events as JSON Lines (a newline after each) through the standard library only."""
    lines = list(map(dumps_standard, events))
    return "\n".join(lines) + "\n" if lines else ""


def _encode_orjson(events: Iterable[dict[str, Any]]) -> str:
    events = events if isinstance(events, list) else list(events)
    if not events:
        return ""
    try:
        data = b"\n".join(map(orjson.dumps, events))
    except TypeError:  # an integer beyond 64 bits (orjson.JSONEncodeError is a TypeError)
        return encode_standard(events)
    if not data.isascii() or b"\x7f" in data:  # json escapes these, orjson does not
        return encode_standard(events)
    return data.decode("ascii") + "\n"


_ENCODE = _encode_orjson if orjson is not None else encode_standard
BACKEND = "orjson" if orjson is not None else "json"   # which encoder encode_events uses


def encode_events(events: Iterable[dict[str, Any]]) -> str:
    """Events as JSON Lines text, a newline after each, by the fastest encoder installed."""
    return _ENCODE(events)
