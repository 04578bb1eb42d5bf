//! Parallel and hashed perft of the start position: depth 7 on one and two threads (the
//! issue's target is a 1.85x speed-up on two cores), and depth 7 with two threads and a
//! 256 MiB table. Each measurement asserts its count against
//! `../shared/perft/cpw_perft_results.csv`. A run takes a few minutes:
//! `cargo bench --bench parallel`. The perft 8 and 9 figures come from the CLI (README).

use constmove::{HashTable, ParallelOptions, Position, divide_parallel};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;

/// The published count of the start position at `depth`.
fn published(depth: u32) -> u64 {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/perft/cpw_perft_results.csv"
    );
    let csv = std::fs::read_to_string(path).expect("read ../shared/perft/cpw_perft_results.csv");
    csv.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|cells| cells[0] == "1" && cells[2] == depth.to_string())
        .map(|cells| cells[3].parse().expect("node count"))
        .unwrap_or_else(|| panic!("start position depth {depth} is not in {path}"))
}

fn parallel(c: &mut Criterion) {
    let start = Position::startpos();
    let depth = 7;
    let nodes = published(depth);
    let mut group = c.benchmark_group("parallel");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .throughput(Throughput::Elements(nodes));
    for threads in [1, 2] {
        group.bench_function(format!("start-d7-threads{threads}"), |b| {
            let options = ParallelOptions::new(threads);
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
            let options = ParallelOptions::new(2).table(&table);
            let counted = divide_parallel(&start, depth, &options, &|_| {}).unwrap();
            assert_eq!(counted.nodes(), Some(nodes));
        });
    });
    group.finish();
}

criterion_group!(benches, parallel);
criterion_main!(benches);
