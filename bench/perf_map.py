"""Where a JIT kernel's time goes: Linux ``perf`` samples with the kernel's functions named.

numba's machine code lives in anonymous memory, so ``perf report`` shows its samples as
bare addresses. This plays one ruleset's matches on the JIT (random bots, records off,
as ``bench/run.py`` times them) after writing ``/tmp/perf-<pid>.map``, the file ``perf``
reads a JIT's symbols from: every function of every library numba loaded from its cache
(the kernel, and the pieces it calls that the compiler kept apart: ``shake.keccak_f1600``,
``jit_events.fire``, ``jit_formula.run`` ...), their addresses from the object code numba
loads (``nm`` lists it). What numba or LLVM inlined counts as its caller's.

Usage (a warm cache: a cold one compiles first, for minutes)::

    perf record -F 4000 --delay 8000 -o /tmp/perf.data \\
        python bench/perf_map.py house/all-fives --players 3 --seconds 10
    perf report -i /tmp/perf.data --sort sym

Two addresses ``perf`` leaves unnamed, 16 bytes apart, are numba's reference counts
(``NRT_incref``/``NRT_decref``, compiled when numba starts, not cached). Samples within a
function: ``perf script -F ip``, less its address in the map, is an offset in the object
code this writes to ``/tmp/perf-<pid>-<n>.o`` (``objdump -d`` it).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from numba.core import codegen  # noqa: E402

from dominorules import api  # noqa: E402
from dominorules.kernel import engines  # noqa: E402
from dominorules.kernel.seeds import match_seeds  # noqa: E402

_LOADED: list[tuple[object, bytes]] = []   # (library, its object code), as numba loads them
_unserialize = codegen.CPUCodeLibrary._unserialize.__func__


def _keep(cls, codegen_, state):
    """numba's own loading of a cached library, its object code kept for ``write_map``."""
    library = _unserialize(cls, codegen_, state)
    if state[1] == "object":
        _LOADED.append((library, state[2][0]))
    return library


codegen.CPUCodeLibrary._unserialize = classmethod(_keep)


def _name(mangled: str) -> str:
    """``_ZN<n>name<n>name...`` as ``name.name``: the module and function, no types."""
    parts, i = [], 3 if mangled.startswith("_ZN") else len(mangled)
    while i < len(mangled) and mangled[i].isdigit():
        n = int(re.match(r"\d+", mangled[i:]).group())
        i += len(str(n))
        parts.append(mangled[i:i + n])
        i += n
    return ".".join(parts) or mangled


def write_map() -> int:
    """``/tmp/perf-<pid>.map`` for every library loaded so far; how many functions it names."""
    lines = []
    for k, (library, code) in enumerate(_LOADED):
        path = f"/tmp/perf-{os.getpid()}-{k}.o"
        Path(path).write_bytes(code)
        listed = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True,
                                text=True, check=True).stdout
        symbols = [s for s in (line.split() for line in listed.splitlines())
                   if len(s) == 4 and s[2] in "tTW"]
        base = None   # where the library's code starts: one exported function's address
        for offset, _, kind, name in symbols:
            address = library.get_pointer_to_function(name) if kind == "T" else 0
            if address:
                base = address - int(offset, 16)
                break
        if base is not None:
            lines += [f"{base + int(offset, 16):x} {int(size, 16):x} {_name(name)}"
                      for offset, size, _, name in symbols]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds of play")
    args = ap.parse_args(argv)
    game = api.load_game(args.ruleset)
    engines.jit_results(game, args.players, [api.match_seed(998, i) for i in range(20)],
                        "random")   # the kernel loaded (or compiled) and run once
    print(f"{write_map()} functions named in /tmp/perf-{os.getpid()}.map", file=sys.stderr)
    seeds = match_seeds(1000, 0, 4096)
    rounds, t0 = 0, time.process_time()
    while time.process_time() - t0 < args.seconds:
        for _, _, rows in engines.jit_batches(game, args.players, seeds, "random"):
            rounds += len(rows)
    print(f"{rounds / (time.process_time() - t0):,.0f} rounds/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
