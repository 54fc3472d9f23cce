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

``--batched-deals G`` measures a second prototype, which keeps every word: the deals of
groups 0 .. G-1 (four deals a group) of eight matches at a time are squeezed together,
their eight sponges permuted at once as vectors (``bench/keccak.py``'s ``make_x8``),
later groups as the kernel squeezes them; its rows are checked equal to the kernel's
before it is timed. CPU time of this process, the median of ``--reps``.

Usage: python bench/jit_profile.py [RULESET] [--players N] [--matches M] [--reps R]
                                   [--cheap-streams] [--batched-deals G] [--no-map]
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
    ("have = shuffle_keys(seed, made, T, block, sstate, msg, have)",
     "xs[0] = cheap_fill(block, (made & 3) * T, T, xs[0] ^ np.uint64(seed) | np.uint64(1))"),
    ("seat_words_start(seed, N, WB, wpos, wend, wblock, wshared, wfirst, msg)",
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


# the deals' keys of eight matches squeezed together (the same words as shuffle_keys)
_BATCHED = '''
from dominorules.kernel.shake import RATE_LANES, _PAD_FIRST, _PAD_LAST, _SHUFFLE
from dominorules.kernel.shake import bytes_into, decimal_into


@njit
def absorbed(seed, j, one, msg):
    at = bytes_into(_SHUFFLE, msg, decimal_into(seed, msg, 0))
    for k in range(8):
        msg[at + k] = (j >> (8 * k)) & 0xFF
    length = at + 8
    for i in range(25):
        one[i] = 0
    for p in range(length):
        one[p >> 3] ^= np.uint64(msg[p]) << np.uint64((p & 7) << 3)
    one[length >> 3] ^= _PAD_FIRST << np.uint64((length & 7) << 3)
    one[RATE_LANES - 1] ^= _PAD_LAST


@njit
def eight_deals(seeds, m0, count, T, G, keys8, states8, one, msg):
    W = 4 * T
    for g in range(G):
        for lane in range(8):
            absorbed(seeds[m0 + (lane if lane < count else 0)], g, one, msg)
            for i in range(25):
                states8[i, lane] = one[i]
        permute8(states8)
        produced = 0
        while True:
            take = min(2 * RATE_LANES, W - produced)
            for lane in range(count):
                at = (lane * G + g) * W + produced
                for i in range(take):
                    v = states8[i >> 1, lane]
                    keys8[at + i] = (v >> np.uint64(32)) if i & 1 else v & np.uint64(0xFFFFFFFF)
            produced += take
            if produced >= W:
                break
            permute8(states8)

'''


def batched_source(source: str, groups: int) -> str | None:
    """The kernel's source with deal groups 0 .. ``groups - 1`` read from keys squeezed
    eight matches at a time; None when the source lacks a line to change."""
    deal = ("                have = shuffle_keys(seed, made, T, block, sstate, msg, have)\n"
            "                deal_into(block, (made & 3) * T, T, deck, scratch)\n")
    swaps = (
        ("@njit\ndef play_batch", _BATCHED + "@njit\ndef play_batch"),
        ("    rng = np.zeros(1, np.uint64)\n",
         f"    rng = np.zeros(1, np.uint64)\n    G8 = {groups}\n"
         "    keys8 = np.empty(8 * G8 * 4 * T, np.uint32)\n"
         "    states8 = np.empty((25, 8), np.uint64)\n"
         "    one = np.empty(25, np.uint64)\n    first8 = start\n"),
        ("        seed = seeds[m_i]\n",
         "        seed = seeds[m_i]\n"
         "        if m_i == start or m_i - first8 >= 8:\n"
         "            first8 = m_i\n"
         "            eight_deals(seeds, m_i, min(8, stop - m_i), T, G8, keys8, states8, one,"
         " msg)\n"),
        (deal, "                if made < 4 * G8:\n"
               "                    deal_into(keys8, ((m_i - first8) * G8 * 4 + made) * T, T,"
               " deck, scratch)\n"
               "                else:\n"
               + "".join("    " + line + "\n" for line in deal.splitlines())),
    )
    for old, new in swaps:
        if old not in source:
            return None
        source = source.replace(old, new, 1)
    return source


def _compiled(source: str, name: str, extra: dict | None = None):
    """``source`` as a module compiled from a file of its own (numba reads it there)."""
    path = Path(tempfile.mkdtemp(prefix="dominorules-" + name + "-")) / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(extra or {})
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
    ap.add_argument("--batched-deals", type=int, default=0, metavar="G",
                    help="also the prototype squeezing deal groups 0..G-1 of eight matches "
                    "at once (the same words)")
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
    if args.batched_deals > 0:
        source = batched_source(jit_kernel.kernel_source(game), args.batched_deals)
        if source is None:
            print("no batched prototype: the kernel's deal is not the plain lines'",
                  file=sys.stderr)
        else:
            from keccak import make_x8  # bench/keccak.py, beside this file

            batched = _compiled(source, "batched_kernel", {"permute8": make_x8()[0]})
            kernel.module = modules["shake"]
            _, want = kernel.run(seeds, kinds)
            kernel.module = batched
            _, got = kernel.run(seeds, kinds)
            if want.shape != got.shape or not (want == got).all():
                print("the batched prototype played other rounds", file=sys.stderr)
                return 1
            modules["batched"] = batched
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
