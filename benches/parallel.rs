//! Parallel and hashed perft of the start position: depth 7 on one and two threads (the
//! speed-up on two cores, docs/PERFORMANCE.md), and depth 7 with two threads and a
//! 256 MiB table. Each measurement asserts its count against
//! `tests/data/perft/cpw_perft_results.csv`. A run takes a few minutes:
//! `cargo bench -p constmove-benches --bench parallel`. The perft 8 and 9 figures come from the CLI (README).

mod common;

use common::published;
use constmove::deep::{HashTable, divide_parallel};
use constmove::{PerftOptions, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;

fn parallel(c: &mut Criterion) {
    let depth = 7;
    let row = published("1", depth);
    let start: Position = row.fen.parse().expect("valid FEN");
    let nodes = row.nodes();
    let mut group = c.benchmark_group("parallel");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .throughput(Throughput::Elements(nodes));
    for threads in [1, 2] {
        group.bench_function(format!("start-d7-threads{threads}"), |b| {
            let options = PerftOptions::new().threads(threads);
            b.iter(|| {
                let counted = divide_parallel(&start, depth, &options, &|_| {}).unwrap();
                assert_eq!(counted.nodes(), Some(nodes));
            });
        });
    }
    group.bench_function("start-d7-threads2-hash256M", |b| {
        b.iter(|| {
            // A fresh table each time: a warm one would answer from the previous iteration.
            let table = HashTable::new(256 << 20).unwrap();
            let options = PerftOptions::new().threads(2).table(&table);
            let counted = divide_parallel(&start, depth, &options, &|_| {}).unwrap();
            assert_eq!(counted.nodes(), Some(nodes));
        });
    });
    group.finish();
}

criterion_group!(benches, parallel);
criterion_main!(benches);
