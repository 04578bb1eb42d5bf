#!/usr/bin/env python3
"""Paired wall-time A/B of two constmove CLIs, for hosts whose speed drifts from second to second.

    benches/wall_paired.py PAIRS BIN_A BIN_B [--pos start,kiwi,...] [--broad]

Each pair runs A and B back to back, in ABBA order, so both see the host in the same state;
the figure is the median over the pairs of A's time over B's (above 1: B faster), with a 95%
bootstrap interval. Times are the CLI's own (`--json`), without process start and exit. Best-of-N timing (`benches/wall_ab.py`) cannot read a 2% change where
the host's speed drifts by 2x between runs seconds apart; pairs a fraction of a second apart
can (identical copies: 1.002 [0.991, 1.019] on Kiwipete d5 with 40 pairs on the Intel Xeon
of session 51). The positions run 0.05-1 s each: the wiki six, game 0 and a rook ending;
`--broad` adds the broad sample (benches/broad.txt) at its bench depth.
"""
import json
import pathlib
import random
import statistics
import subprocess
import sys

POSITIONS = [
    ("start", 6, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwi", 5, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("pos3", 7, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("pos4", 6, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("pos5", 5, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("pos6", 5, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("game0", 6, "4r3/5k1p/7b/pN1p1pp1/1n1P4/2R1nKPP/Pr2rP2/7R w - - 7 38"),
    ("end0", 6, "8/5pk1/6p1/7p/R7/6PP/r4PK1/8 w - - 0 1"),
]


def broad():
    """The broad sample's positions at the criterion group's depths."""
    path = pathlib.Path(__file__).with_name("broad.txt")
    rows = [line.split("|") for line in path.read_text().splitlines() if line and line[0] != "#"]
    return [(f"broad{i}", int(depth), fen) for i, (fen, depth, _) in enumerate(rows)]


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
        positions = positions + broad()
    if "--pos" in args:
        at = args.index("--pos")
        wanted = args[at + 1].split(",")
        del args[at:at + 2]
        positions = [p for p in positions if p[0] in wanted]
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
        boots = sorted(statistics.median(random.choices(ratios, k=pairs)) for _ in range(2000))
        print(f"{name:8} d{depth} A {statistics.median(times_a):.3f} s  B "
              f"{statistics.median(times_b):.3f} s  B's speed {statistics.median(ratios):.4f} "
              f"[{boots[50]:.4f}, {boots[1949]:.4f}]", flush=True)


if __name__ == "__main__":
    main()
