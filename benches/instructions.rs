//! Instruction counts (callgrind, through iai-callgrind) for the CI regression gate: perft of
//! the six chessprogramming-wiki positions at depths of 0.2–5 M leaves on each backend, forced
//! rather than detected, `Position::from_fen` plus one dispatched perft ply alone, the walk of
//! `examples/visitor_perft.rs`, and the engine path (`legal_moves` + `play_unchecked`).
//!
//! Needs valgrind and `iai-callgrind-runner` at the library's exact version, so it is not part
//! of plain `cargo bench`: run `.ci/instructions-gate` (builds at a fixed `-C target-cpu`,
//! compares with `benches/instruction-budgets.toml`) or `cargo bench -p instruction-gate --bench instructions`.
//! Setup (reading the CSV, parsing the FEN) is outside the counted function.

// The benchmark macros emit public items of their own that carry no docs.
#![expect(
    missing_docs,
    reason = "iai-callgrind macros generate undocumented public items"
)]

mod common;
// The example's walk, counted as written (its `main` is not used here).
#[allow(dead_code)]
#[path = "../examples/visitor_perft.rs"]
mod visitor_perft;

use common::{make_every_move, published};
use constmove::{Backend, PerftOptions, Position};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

/// One perft measurement: the position, depth, forced backend and the published count.
struct Case {
    position: Position,
    depth: u32,
    backend: Backend,
    expected: u64,
}

/// Setup for [`perft`]: loads the case (not counted).
fn case(id: &str, depth: u32, backend: Backend) -> Case {
    let row = published(id, depth);
    let (fen, expected) = (row.fen.clone(), row.nodes());
    // A forced backend the CPU (as valgrind reports it) lacks must fail loudly, not be skipped.
    backend.resolve().expect("the gate forces both backends");
    Case {
        position: fen.parse().expect("valid FEN"),
        depth,
        backend,
        expected,
    }
}

// Perft on a forced backend; the count is checked so a wrong tree never passes as fast.
// (Plain comments: the benchmark attribute rejects doc attributes.)
#[library_benchmark]
#[bench::start_d5_pext(args = ("1", 5, Backend::Pext), setup = case)]
#[bench::start_d5_magic(args = ("1", 5, Backend::Magic), setup = case)]
#[bench::kiwipete_d4_pext(args = ("2", 4, Backend::Pext), setup = case)]
#[bench::kiwipete_d4_magic(args = ("2", 4, Backend::Magic), setup = case)]
#[bench::position3_d5_pext(args = ("3", 5, Backend::Pext), setup = case)]
#[bench::position3_d5_magic(args = ("3", 5, Backend::Magic), setup = case)]
#[bench::position4_d4_pext(args = ("4", 4, Backend::Pext), setup = case)]
#[bench::position4_d4_magic(args = ("4", 4, Backend::Magic), setup = case)]
#[bench::position5_d4_pext(args = ("5", 4, Backend::Pext), setup = case)]
#[bench::position5_d4_magic(args = ("5", 4, Backend::Magic), setup = case)]
#[bench::position6_d4_pext(args = ("6", 4, Backend::Pext), setup = case)]
#[bench::position6_d4_magic(args = ("6", 4, Backend::Magic), setup = case)]
fn perft(case: Case) -> u64 {
    let nodes = PerftOptions::new()
        .backend(case.backend)
        .perft(black_box(&case.position), case.depth)
        .unwrap();
    assert_eq!(nodes, case.expected);
    nodes
}

/// Setup for [`fen_and_dispatch`]: the FEN text only, so parsing is what gets counted.
fn fen(id: &str, backend: Backend) -> (String, Backend) {
    backend.resolve().expect("the gate forces both backends");
    (published(id, 1).fen, backend)
}

// `Position::from_fen` and one dispatched perft ply: the fixed cost of every call.
#[library_benchmark]
#[bench::kiwipete_pext(args = ("2", Backend::Pext), setup = fen)]
#[bench::kiwipete_magic(args = ("2", Backend::Magic), setup = fen)]
fn fen_and_dispatch(input: (String, Backend)) -> u64 {
    let (text, backend) = input;
    let position = Position::from_fen(black_box(&text)).expect("valid FEN");
    PerftOptions::new()
        .backend(backend)
        .perft(&position, 1)
        .unwrap()
}

// examples/visitor_perft.rs: the public walk, bulk-counting at the last ply.
#[library_benchmark]
#[bench::kiwipete_d4_pext(args = ("2", 4, Backend::Pext), setup = case)]
#[bench::kiwipete_d4_magic(args = ("2", 4, Backend::Magic), setup = case)]
fn walk_perft(case: Case) -> u64 {
    let nodes = black_box(&case.position)
        .walk_with(visitor_perft::Perft(case.depth), case.backend)
        .unwrap();
    assert_eq!(nodes, case.expected);
    nodes
}

// The engine path on a position pinned to the forced backend.
#[library_benchmark]
#[bench::kiwipete_d3_pext(args = ("2", 3, Backend::Pext), setup = case)]
#[bench::kiwipete_d3_magic(args = ("2", 3, Backend::Magic), setup = case)]
fn engine(case: Case) -> u64 {
    let position = case.position.clone().with_backend(case.backend).unwrap();
    let nodes = make_every_move(black_box(&position), case.depth);
    assert_eq!(nodes, case.expected);
    nodes
}

library_benchmark_group!(
    name = counts;
    benchmarks = perft, fen_and_dispatch, walk_perft, engine
);
main!(library_benchmark_groups = counts);
