#!/usr/bin/env python3
"""Paired wall-time A/B of two constmove CLIs, for hosts whose speed drifts from second to second.

    benches/wall_paired.py PAIRS BIN_A BIN_B [--pos start,kiwipete,...] [--broad] [--deeper]

Each pair runs A and B back to back, in ABBA order, so both see the host in the same state;
the figure is the median over the pairs of A's time over B's (above 1: B faster), with a 95%
bootstrap interval. Times are the CLI's own (`--json`), without process start and exit.
Best-of-N timing (`benches/wall_ab.py`) cannot read a 2% change where the host's speed drifts
by 2x between runs seconds apart; pairs a fraction of a second apart can (identical copies:
1.002 [0.991, 1.019] on Kiwipete d5 with 40 pairs on the Intel Xeon of session 51). The
positions run 0.05-1 s each: the wiki six, game 0 and a rook ending; `--broad` adds the broad
sample (benches/broad.txt) at its criterion depths. `--deeper` runs every position but
position 4 and game 0 (already 0.2-0.3 s) one ply deeper, 0.2-2.4 s a run on a Zen 5: where
runs of 0.03 s spread by 5% or more, it narrowed the intervals to 1-3% (session 58).
"""
import json
import random
import statistics
import subprocess
import sys

import per_leaf

# Bootstrap resamples of the pairs' ratios: the interval is their 2.5th and 97.5th percentiles.
RESAMPLES = 2000

# The wiki six at their per-leaf depths plus one ply (position 5 at its own: one ply more
# runs 3 s), game 0 and a rook ending.
DEEPER = {"start": 1, "kiwipete": 1, "pos3": 1, "pos4": 1, "pos5": 0, "pos6": 1}
# Positions whose runs are long enough at their depth: `--deeper` leaves them there.
LONG = {"pos4", "game0"}

POSITIONS = [(name, depth + DEEPER[name], fen) for name, depth, fen in per_leaf.WIKI] + [
    ("game0", 6, "4r3/5k1p/7b/pN1p1pp1/1n1P4/2R1nKPP/Pr2rP2/7R w - - 7 38"),
    ("end0", 6, "8/5pk1/6p1/7p/R7/6PP/r4PK1/8 w - - 0 1"),
]


def seconds(binary, depth, fen):
    """The CLI's own time for the count (process start and exit left out)."""
    run = subprocess.run([binary, "perft", str(depth), "--fen", fen, "--threads", "1",
                          "--backend", "pext", "--json"], capture_output=True, text=True,
                         check=True)
    return json.loads(run.stdout)["seconds"]


def main():
    args = sys.argv[1:]
    positions = POSITIONS
    if "--broad" in args:
        args.remove("--broad")
        positions = positions + [(n, d + 1, f) for n, d, f in per_leaf.broad()]
    if "--deeper" in args:
        args.remove("--deeper")
        positions = [(n, d + (n not in LONG), f) for n, d, f in positions]
    if "--pos" in args:
        at = args.index("--pos")
        wanted = args[at + 1].split(",")
        del args[at:at + 2]
        positions = [p for p in positions if p[0] in wanted]
    if len(args) != 3:
        sys.exit(__doc__)
    pairs, a, b = int(args[0]), args[1], args[2]
    for name, depth, fen in positions:
        ratios, times_a, times_b = [], [], []
        for i in range(pairs):
            if i % 2 == 0:
                x = seconds(a, depth, fen)
                y = seconds(b, depth, fen)
            else:
                y = seconds(b, depth, fen)
                x = seconds(a, depth, fen)
            ratios.append(x / y)
            times_a.append(x)
            times_b.append(y)
        boots = sorted(
            statistics.median(random.choices(ratios, k=pairs)) for _ in range(RESAMPLES)
        )
        low, high = boots[RESAMPLES // 40], boots[RESAMPLES - 1 - RESAMPLES // 40]
        print(f"{name:8} d{depth} A {statistics.median(times_a):.3f} s  B "
              f"{statistics.median(times_b):.3f} s  B's speed {statistics.median(ratios):.4f} "
              f"[{low:.4f}, {high:.4f}]", flush=True)


if __name__ == "__main__":
    main()
