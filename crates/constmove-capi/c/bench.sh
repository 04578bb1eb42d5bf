#!/usr/bin/env bash
# Perft through the C ABI against the CLI, one thread each, interleaved (CLI, C, CLI, C...)
# so that load from other processes hits both alike: ROUNDS rounds of the wiki's six
# positions, and the ratio of the summed times (C ABI speed / CLI speed).
# Usage: crates/constmove-capi/c/bench.sh [ROUNDS] (run from the repository root).
set -euo pipefail
rounds=${1:-5}
cargo build --release -p constmove-capi -p constmove-cli >/dev/null 2>&1
cc -std=c11 -O2 -Wall -Werror -Iinclude crates/constmove-capi/c/bench.c \
    target/release/libconstmove_capi.a -lpthread -ldl -lm -o target/release/capi-bench
positions=(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|7"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|6"
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|8"
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6"
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|6"
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|6"
)
cli_total=0 c_total=0
for ((round = 1; round <= rounds; round++)); do
    for entry in "${positions[@]}"; do
        fen=${entry%|*} depth=${entry#*|}
        cli=$(target/release/constmove perft "$depth" --fen "$fen" --threads 1 2>/dev/null)
        c=$(target/release/capi-bench "$fen" "$depth")
        cli_nodes=$(awk '$1 == "nodes" { print $2 }' <<<"$cli")
        c_nodes=$(awk '$1 == "nodes" { print $2 }' <<<"$c")
        if [ "$cli_nodes" != "$c_nodes" ]; then
            echo "bench: counts differ on $fen: CLI $cli_nodes, C $c_nodes" >&2
            exit 1
        fi
        cli_total=$(awk -v a="$cli_total" -v b="$(awk '$1 == "seconds" { print $2 }' <<<"$cli")" 'BEGIN { print a + b }')
        c_total=$(awk -v a="$c_total" -v b="$(awk '$1 == "seconds" { print $2 }' <<<"$c")" 'BEGIN { print a + b }')
    done
    echo "round $round: CLI $cli_total s, C ABI $c_total s (cumulative)"
done
awk -v a="$cli_total" -v b="$c_total" 'BEGIN { printf "C ABI speed / CLI speed: %.3f\n", a / b }'
