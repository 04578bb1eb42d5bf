#!/usr/bin/env python3
"""Callgrind instructions per leaf of a constmove CLI, and their change between builds.

    benches/per_leaf.py measure BIN OUT [--only wiki|broad]
    benches/per_leaf.py compare BASE.txt OTHER.txt...

`measure` runs `BIN perft D --fen F --threads 1 --backend pext` under callgrind for the six
wiki positions and the broad sample (benches/broad.txt, one ply under the criterion
`broad/` group's depths), subtracts the same command at depth 2 (the command's own setup
and its split into work units, which a depth-1 run does not make) and writes one line per
position: name, depth, instructions, depth-2 instructions, leaves, per leaf. `compare`
prints per-leaf figures and the change of each other file against the first, per position
and summed per class (games, endings). Instruction counts do not move with the machine's
load, so two builds compare on a busy machine; wall time still needs `benches/wall_ab.py`,
since layout can move it without moving instructions.
"""
import pathlib
import re
import subprocess
import sys

WIKI = [
    ("start", 5, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwipete", 4, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("pos3", 6, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("pos4", 5, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("pos5", 5, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("pos6", 4, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
]
GAMES = 12
# The setup run's depth: the CLI splits every count of depth 2 to 7 into the same units (on
# one thread, the root moves), so this run holds the split's cost and almost no counting.
SETUP_DEPTH = 2


def broad():
    """The broad sample: `FEN|bench depth|leaves` lines, counted one ply shallower."""
    path = pathlib.Path(__file__).with_name("broad.txt")
    rows = [line.split("|") for line in path.read_text().splitlines() if line and line[0] != "#"]
    return [(f"broad{i}", int(depth) - 1, fen) for i, (fen, depth, _) in enumerate(rows)]


def instructions(binary, depth, fen):
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "perft",
         str(depth), "--fen", fen, "--threads", "1", "--backend", "pext"],
        capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def leaves(binary, depth, fen):
    run = subprocess.run([binary, "perft", str(depth), "--fen", fen, "--threads", "1",
                          "--backend", "pext"], capture_output=True, text=True, check=True)
    return int(re.search(r"^nodes (\d+)", run.stdout, re.M).group(1))


def measure(binary, out, only):
    positions = (WIKI if only != "broad" else []) + (broad() if only != "wiki" else [])
    with open(out, "w") as file:
        for name, depth, fen in positions:
            full = instructions(binary, depth, fen)
            setup = instructions(binary, SETUP_DEPTH, fen)
            n = leaves(binary, depth, fen)
            line = f"{name} d{depth} {full} {setup} {n} {(full - setup) / n:.4f}"
            print(line, flush=True)
            file.write(line + "\n")


def load(path):
    rows = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 6:
            rows[p[0]] = (int(p[2]) - int(p[3]), int(p[4]))
    return rows


def compare(base, others):
    classes = [(name, [name]) for name, _, _ in WIKI]
    classes += [("games", [f"broad{i}" for i in range(GAMES)]),
                ("endings", [f"broad{i}" for i in range(GAMES, GAMES + 4)])]
    classes += [(f"broad{i}", [f"broad{i}"]) for i in range(GAMES + 4)]
    a, bs = load(base), [load(f) for f in others]

    def per_leaf(rows, keys):
        return sum(rows[k][0] for k in keys) / sum(rows[k][1] for k in keys)

    for name, keys in classes:
        if not all(k in a for k in keys):
            continue
        x = per_leaf(a, keys)
        line = f"{name:9s} {x:8.4f}"
        for b in bs:
            if all(k in b for k in keys):
                y = per_leaf(b, keys)
                line += f"  {y:8.4f} {100 * (y / x - 1):+6.2f}%"
        print(line)


def main(args):
    if len(args) >= 3 and args[0] == "measure":
        only = args[args.index("--only") + 1] if "--only" in args else None
        measure(args[1], args[2], only)
    elif len(args) >= 3 and args[0] == "compare":
        compare(args[1], args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
