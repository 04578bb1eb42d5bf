#!/usr/bin/env python3
"""Callgrind costs by inline frame: where the instructions of inlined code go.

    benches/inline_profile.py CALLGRIND_OUT BINARY PATTERN... [--event N]

CALLGRIND_OUT must come from `valgrind --tool=callgrind --dump-instr=yes` on BINARY built
with line tables (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -p
constmove-cli --target-dir target/lines`). Each instruction's own cost is given to every
source line of its inline chain (`addr2line -i`), so a line that calls inlined code gets the
cost of everything inlined there. For each PATTERN (`depth2.rs:402`, or `reply_squares.rs`
for a whole file) it prints the cost of the instructions whose chain has a matching
`file:line`. `--event N` picks the Nth event of the file (0 `Ir`; with `--branch-sim=yes`,
2 is `Bcm`, the simulated conditional mispredicts). Lines whose number starts with a
pattern's also match (`depth2.rs:40` matches 400-409): pass whole line numbers to avoid it.
"""
import collections
import subprocess
import sys


def own_costs(path, event):
    """Each instruction address's own cost (calls' inclusive costs left out)."""
    cost = collections.Counter()
    last, call_line = 0, False
    with open(path) as lines:
        for line in lines:
            if line.startswith("calls="):
                # The next line is the call's inclusive cost: not this address's own.
                call_line = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            fields = line.split()
            position = fields[0]
            if position.startswith("0x"):
                address = int(position, 16)
            elif position[0] in "+-":
                address = last + int(position)
            elif position == "*":
                address = last
            else:
                continue
            last = address
            if call_line:
                call_line = False
                continue
            # Positions are `instr line`, then one column per event.
            if len(fields) > 2 + event:
                cost[address] += int(fields[2 + event])
    return cost


def inline_chains(binary, addresses):
    """Each address's inline chain as `file:line` strings, innermost first."""
    out = subprocess.run(
        ["addr2line", "-i", "-a", "-e", binary] + [hex(a) for a in addresses],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    chains, current = {}, None
    for line in out.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
            chains[current] = []
        elif current is not None:
            chains[current].append(line.split(" ")[0].split("/src/")[-1])
    return chains


def main(argv):
    event = 0
    if "--event" in argv:
        i = argv.index("--event")
        event = int(argv[i + 1])
        del argv[i : i + 2]
    if len(argv) < 3:
        sys.exit(__doc__)
    path, binary, patterns = argv[0], argv[1], argv[2:]
    cost = own_costs(path, event)
    chains = inline_chains(binary, sorted(cost))
    total = sum(cost.values())
    print(f"total {total:,}")
    for pattern in patterns:
        part = sum(c for a, c in cost.items() if any(pattern in f for f in chains.get(a, [])))
        print(f"{pattern}: {part:,} ({100 * part / max(total, 1):.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
