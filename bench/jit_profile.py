"""Where the JIT kernel's time goes: a perf map of its machine code, and what the random
streams cost.

numba's machine code has no symbols ``perf`` can read, so a profile of a simulation
shows one anonymous block. This script loads a ruleset's JIT kernel, writes
``/tmp/perf-PID.map`` (every function compiled into the kernel's ``play_batch``: its
address and size, read from the object code numba keeps in its cache), then plays batches
of matches for a while, so that

    perf record -o p.data python bench/jit_profile.py pagat --players 2
    perf report -i p.data --sort sym

names each function: the match loop (``play_batch``, the deal's sort and the bots' picks
inlined into it), ``keccak_f1600`` and the sponge's absorbing and squeezing
(``kernel/shake.py``), and the pieces a house ruleset calls.

``--cheap-streams`` also measures a prototype, in the same process and interleaved rep by
rep: the same kernel with every SHAKE-128 stream (the deals' shuffle keys, the seats'
words) replaced by xorshift64 words, which costs next to nothing. It plays other deals
and choices, so it is no engine: it bounds what a cheaper stream definition could gain
(issue 21: the JIT's speed is held by its SHAKE-128 streams).

(The kernel itself squeezes eight matches' first streams at once, ``shake.first_streams8``:
what a prototype here once measured.) CPU time of this process, the median of ``--reps``.

Usage: python bench/jit_profile.py [RULESET] [--players N] [--matches M] [--reps R]
                                   [--cheap-streams] [--no-map]
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402
from dominorules.kernel import jit, jit_kernel  # noqa: E402
from dominorules.kernel.seeds import match_seeds  # noqa: E402

# the kernel's stream calls and the xorshift words the prototype puts in their place
_CHEAP = '''
@njit
def cheap_fill(buf, at, n, x):
    for i in range(n):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        buf[at + i] = np.uint32(x & np.uint64(0xFFFFFFFF))
    return x


@njit
def cheap_start(seed, N, WB, wpos, wend, xs):
    xs[0] = cheap_fill(WB, 0, FIRST * N, np.uint64(seed) | np.uint64(1))
    for s in range(N):
        wpos[s] = s * FIRST
        wend[s] = (s + 1) * FIRST


@njit
def cheap_next(p, N, WB, wpos, wend, xs):
    at = FIRST * N + p * CHUNK
    xs[0] = cheap_fill(WB, at, CHUNK, xs[0])
    wpos[p] = at
    wend[p] = at + CHUNK

'''
_SWAPS = (
    ("    rng = np.zeros(1, np.uint64)\n",
     "    rng = np.zeros(1, np.uint64)\n    xs = np.ones(1, np.uint64)\n"),
    ("have = given_keys(B8[0], lane * GIVEN * T, given, seed, made, T, block, sstate, msg, "
     "have)",
     "xs[0] = cheap_fill(block, (made & 3) * T, T, xs[0] ^ np.uint64(seed) | np.uint64(1))"),
    ("first_streams8(seeds, m_i, min(LANES, stop - m_i), N, T, given, more, B8, msg)", "pass"),
    ("seat_words_given(B8, lane, N, more, WB, wpos, wend, wblock, wmade, wshared, wstates)",
     "cheap_start(seed, N, WB, wpos, wend, xs)"),
    ("seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade, wshared, wfirst, wstates, "
     "msg)", "cheap_next(p, N, WB, wpos, wend, xs)"),
    ("@njit\ndef play_batch", _CHEAP + "@njit\ndef play_batch"),
)


def _object_code(dispatcher) -> bytes | None:
    """The ELF object numba's cache holds for ``dispatcher``'s compiled code, or None."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None:
        return None
    base = os.path.join(cache._cache_path, cache._impl.filename_base)
    for path in sorted(glob.glob(base + "*.nbc")):
        raw = Path(path).read_bytes()
        at = raw.find(b"\x7fELF")
        if at >= 0:
            shoff, = struct.unpack_from("<Q", raw, at + 0x28)
            shentsize, shnum = struct.unpack_from("<HH", raw, at + 0x3A)
            return raw[at:at + shoff + shentsize * shnum]
    return None


def write_perf_map(dispatcher) -> str:
    """Write ``/tmp/perf-PID.map`` naming every function compiled into ``dispatcher``
    (start, size, name: perf's format); what was done, in a sentence."""
    obj = _object_code(dispatcher)
    if obj is None:
        return "no perf map: numba's cache holds no object code for the kernel"
    library = dispatcher.overloads[dispatcher.signatures[0]].library
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
    try:
        listed = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                                text=True, check=False).stdout
    except OSError as exc:
        return f"no perf map: nm cannot run ({exc})"
    finally:
        os.unlink(f.name)
    lines = []
    for line in listed.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            address = library.get_pointer_to_function(parts[3])
            if address:
                lines.append(f"{address:x} {int(parts[1], 16):x} {parts[3]}")
    path = f"/tmp/perf-{os.getpid()}.map"
    Path(path).write_text("\n".join(lines) + "\n")
    return f"{path}: {len(lines)} functions"


def _compiled(source: str, name: str):
    """``source`` as a module compiled from a file of its own (numba reads it there)."""
    path = Path(tempfile.mkdtemp(prefix="dominorules-" + name + "-")) / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cheap_module(source: str):
    """The kernel module of ``source`` with its SHAKE-128 streams swapped for xorshift
    words (``_SWAPS``), compiled; None when the source lacks a line to swap."""
    for old, new in _SWAPS:
        if old not in source:
            return None
        source = source.replace(old, new, 1)
    return _compiled(source, "cheap_kernel")


def rate(kernel, module, seeds, kinds) -> float:
    """Rounds per CPU-second of ``module``'s play_batch over ``seeds``."""
    kernel.module = module
    t0 = time.process_time()
    _, rows = kernel.run(seeds, kinds)
    return len(rows) / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default="pagat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--matches", type=int, default=20000, help="matches a rep")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--cheap-streams", action="store_true",
                    help="also the prototype with xorshift words for SHAKE-128's")
    ap.add_argument("--no-map", action="store_true", help="write no perf map")
    args = ap.parse_args(argv)
    if not jit.available():
        print("the JIT is off (numba missing or DOMINORULES_NO_JIT set)", file=sys.stderr)
        return 1
    game = api.load_game(args.ruleset)
    kernel = jit_kernel.kernel(game, args.players)
    kinds = jit_kernel.bot_kinds("random", args.players)
    seeds = match_seeds(1000, 0, args.matches)
    kernel.run(seeds[:50], kinds)   # loaded (or compiled) before any timing
    if not args.no_map:
        print(write_perf_map(kernel.module.play_batch), file=sys.stderr)
    modules = {"shake": kernel.module}
    if args.cheap_streams:
        cheap = cheap_module(jit_kernel.kernel_source(game))
        if cheap is None:
            print("no prototype: the kernel's stream calls are not the plain lines'",
                  file=sys.stderr)
        else:
            kernel.module = cheap
            kernel.run(seeds[:50], kinds)   # compiled once, in memory
            modules["xorshift"] = cheap
    rates: dict[str, list[float]] = {name: [] for name in modules}
    for _ in range(args.reps):
        for name, module in modules.items():
            rates[name].append(rate(kernel, module, seeds, kinds))
    kernel.module = modules["shake"]
    base = statistics.median(rates["shake"])
    for name, got in rates.items():
        median = statistics.median(got)
        print(f"{args.ruleset} {args.players}p streams={name:8} {median:>11,.0f} rounds/s "
              f"{1e6 / median:.3f} us a round (best {1e6 / max(got):.3f})"
              + (f", {median / base:.2f}x the kernel" if name != "shake" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
