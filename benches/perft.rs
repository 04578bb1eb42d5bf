//! Perft throughput on the six chessprogramming-wiki positions, on both constmove backends
//! and on cozy-chess (bulk counting through `generate_moves`) as the reference peer, in one
//! run. Each measurement asserts its node count against `../shared/perft/cpw_perft_results.csv`.
//!
//! `cargo bench --bench perft` measures the portable build; cozy-chess's PEXT build needs a
//! BMI2 target, so compare at equal flags with
//! `RUSTFLAGS="-C target-cpu=native" cargo bench --bench perft`.
//! Filter with e.g. `cargo bench --bench perft -- kiwipete`.

use constmove::{Backend, Position, perft_with};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// (name, position id in the CSV, depth): the depths of the speed target.
const CASES: [(&str, &str, u32); 6] = [
    ("start-d6", "1", 6),
    ("kiwipete-d5", "2", 5),
    ("position3-d7", "3", 7),
    ("position4-d6", "4", 6),
    ("position5-d5", "5", 5),
    ("position6-d5", "6", 5),
];

/// The FEN and published node count of `position` at `depth`.
fn published(position: &str, depth: u32) -> (String, u64) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/perft/cpw_perft_results.csv"
    );
    let csv = std::fs::read_to_string(path).expect("read ../shared/perft/cpw_perft_results.csv");
    csv.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|cells| cells[0] == position && cells[2] == depth.to_string())
        .map(|cells| (cells[1].to_string(), cells[3].parse().expect("node count")))
        .unwrap_or_else(|| panic!("position {position} depth {depth} is not in {path}"))
}

/// cozy-chess perft with bulk counting at the last ply.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn perft_benches(c: &mut Criterion) {
    for (name, id, depth) in CASES {
        let (fen, expected) = published(id, depth);
        let position: Position = fen.parse().expect("valid FEN");
        let mut group = c.benchmark_group(format!("perft/{name}"));
        group
            .throughput(Throughput::Elements(expected))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        for backend in [Backend::Pext, Backend::Magic] {
            if backend.resolve().is_err() {
                eprintln!("skipping constmove-{backend}: not available on this CPU");
                continue;
            }
            group.bench_function(format!("constmove-{backend}"), |b| {
                b.iter(|| {
                    let nodes = perft_with(black_box(&position), depth, backend).unwrap();
                    assert_eq!(nodes, expected, "{name} on {backend}");
                    nodes
                })
            });
        }
        let cozy: cozy_chess::Board = cozy_chess::Board::from_fen(&fen, false).expect("cozy FEN");
        group.bench_function("cozy-chess", |b| {
            b.iter(|| {
                let nodes = cozy_perft(black_box(&cozy), depth);
                assert_eq!(nodes, expected, "{name} on cozy-chess");
                nodes
            })
        });
        group.finish();
    }
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
