//! Instruction counts (callgrind, through iai-callgrind) for the CI regression gate: perft of
//! the six chessprogramming-wiki positions at depths of 0.2–5 M leaves on each backend, forced
//! rather than detected, `Position::from_fen` plus one dispatched perft ply alone, the walk of
//! `examples/visitor_perft.rs`, the engine path (`legal_moves` + `play_unchecked`), and
//! full against noisy generation on positions from random play (list and walk).
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

use common::{ChildrenWalk, make_every_move, published, random_play};
use constmove::{Backend, MoveMask, PerftOptions, Position};
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

/// Setup for [`generation`]: 500 positions from random play on the forced backend, the mask
/// and the number of moves it must give (read off the full lists).
fn generation_case(mask: MoveMask, backend: Backend) -> (Vec<Position>, MoveMask, u64) {
    backend.resolve().expect("the gate forces both backends");
    let positions: Vec<Position> = random_play(500)
        .into_iter()
        .map(|position| position.with_backend(backend).unwrap())
        .collect();
    let expected = positions
        .iter()
        .map(|position| {
            position
                .legal_moves()
                .iter()
                .filter(|&&mv| mask.allows(position, mv))
                .count() as u64
        })
        .sum();
    (positions, mask, expected)
}

// One list of every legal move, or of the noisy ones, per position.
#[library_benchmark]
#[bench::full_pext(args = (MoveMask::ALL, Backend::Pext), setup = generation_case)]
#[bench::noisy_pext(args = (MoveMask::NOISY, Backend::Pext), setup = generation_case)]
#[bench::full_magic(args = (MoveMask::ALL, Backend::Magic), setup = generation_case)]
#[bench::noisy_magic(args = (MoveMask::NOISY, Backend::Magic), setup = generation_case)]
fn generation_list(case: (Vec<Position>, MoveMask, u64)) -> u64 {
    let (positions, mask, expected) = case;
    let moves = black_box(&positions)
        .iter()
        .map(|position| position.legal_moves_masked(mask).len() as u64)
        .sum();
    assert_eq!(moves, expected);
    moves
}

// The same through the walk: each child made by `Generator::children_masked`.
#[library_benchmark]
#[bench::full_pext(args = (MoveMask::ALL, Backend::Pext), setup = generation_case)]
#[bench::noisy_pext(args = (MoveMask::NOISY, Backend::Pext), setup = generation_case)]
fn generation_walk(case: (Vec<Position>, MoveMask, u64)) -> u64 {
    let (positions, mask, expected) = case;
    let moves = black_box(&positions)
        .iter()
        .map(|position| position.walk(ChildrenWalk(mask)))
        .sum();
    assert_eq!(moves, expected);
    moves
}

library_benchmark_group!(
    name = counts;
    benchmarks = perft, fen_and_dispatch, walk_perft, engine, generation_list, generation_walk
);
main!(library_benchmark_groups = counts);
