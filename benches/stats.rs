//! `perft_stats` against plain bulk-counting `perft` on the six chessprogramming-wiki
//! positions, same backend, same run: the ratio of their times is the cost of the
//! statistics (docs/PERFORMANCE.md holds it to at most 3x). Every measurement asserts its counts
//! against `tests/data/perft/cpw_perft_results.csv` (nodes, and for `perft_stats` every
//! published statistic).
//!
//! `cargo bench -p constmove-benches --bench stats`; filter with e.g. `cargo bench -p constmove-benches --bench stats -- kiwipete`.

mod common;

use common::published;
use constmove::{Backend, PerftOptions, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// (name, position id in the CSV, depth).
const CASES: [(&str, &str, u32); 6] = [
    ("start-d5", "1", 5),
    ("kiwipete-d4", "2", 4),
    ("position3-d6", "3", 6),
    ("position4-d5", "4", 5),
    ("position5-d4", "5", 4),
    ("position6-d4", "6", 4),
];

fn stats_benches(c: &mut Criterion) {
    for (name, id, depth) in CASES {
        let row = published(id, depth);
        let (fen, cells, nodes) = (&row.fen, &row.cells, row.nodes());
        let position: Position = fen.parse().expect("valid FEN");
        let mut group = c.benchmark_group(format!("stats/{name}"));
        group
            .throughput(Throughput::Elements(nodes))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for backend in [Backend::Pext, Backend::Magic] {
            if backend.resolve().is_err() {
                eprintln!("skipping {backend}: not available on this CPU");
                continue;
            }
            group.bench_function(format!("perft-{backend}"), |b| {
                b.iter(|| {
                    let got = PerftOptions::new()
                        .backend(backend)
                        .perft(black_box(&position), depth)
                        .unwrap();
                    assert_eq!(got, nodes, "{name} on {backend}");
                    got
                })
            });
            group.bench_function(format!("perft_stats-{backend}"), |b| {
                b.iter(|| {
                    let stats = PerftOptions::new()
                        .backend(backend)
                        .perft_stats(black_box(&position), depth)
                        .unwrap();
                    for (cell, (field, got)) in cells.iter().zip(stats.fields()) {
                        if let Some(expected) = cell {
                            assert_eq!(got, *expected, "{name} {field} on {backend}");
                        }
                    }
                    stats
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, stats_benches);
criterion_main!(benches);
