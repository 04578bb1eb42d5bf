#!/usr/bin/env python3
"""Callgrind costs by inline frame: where the instructions of inlined code go.

    benches/inline_profile.py CALLGRIND_OUT BINARY PATTERN... [--event N]

PATTERN is a source file, alone or with a line or an inclusive range of lines:
`reply_squares.rs`, `depth2.rs:402`, `depth2.rs:350-359`.

CALLGRIND_OUT must come from `valgrind --tool=callgrind --dump-instr=yes` on BINARY built
with line tables (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -p
constmove-cli --target-dir target/lines`). Each instruction's own cost is given to every
source line of its inline chain (`addr2line -i`), so a line that calls inlined code gets the
cost of everything inlined there. For each PATTERN it prints the cost of the instructions
whose chain holds a matching line. `--event N` picks the Nth event of the file (0 `Ir`; with
`--branch-sim=yes`, 2 is `Bcm`, the simulated conditional mispredicts).
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
    """Each address's inline chain as (file, line) pairs, innermost first."""
    # On stdin: a large profile's addresses would overflow a command line.
    out = subprocess.run(
        ["addr2line", "-i", "-a", "-e", binary],
        input="\n".join(hex(a) for a in addresses),
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
            # `path:line`, perhaps followed by ` (discriminator N)`; `??:0` when unknown.
            path, _, number = line.split(" ")[0].rpartition(":")
            chains[current].append((path, int(number) if number.isdigit() else 0))
    return chains


def matcher(pattern):
    """Whether a (file, line) pair matches PATTERN: the file by its name or a path ending,
    and the line, if given, exactly or within the range."""
    name, _, lines = pattern.partition(":")
    first, _, last = lines.partition("-")
    low = int(first) if first else 0
    high = int(last) if last else (low if first else float("inf"))

    def matches(frame):
        path, line = frame
        return (path == name or path.endswith("/" + name)) and low <= line <= high

    return matches


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
        matches = matcher(pattern)
        part = sum(c for a, c in cost.items() if any(map(matches, chains.get(a, []))))
        print(f"{pattern}: {part:,} ({100 * part / max(total, 1):.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
