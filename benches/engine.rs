//! The engine path, in one run against the peers: list the legal moves of every node and
//! make each one (perft without bulk counting), on the six chessprogramming-wiki positions.
//! constmove runs it twice: `legal_moves` + `play_unchecked` on a `Position` (what an engine
//! that keeps positions writes), and a public [`Walk`] that makes every child through
//! `Generator::children` (what an engine built on the recursive visitor writes). Peers:
//! cozy-chess `generate_moves` + `play_unchecked`, shakmaty `legal_moves` + `play_unchecked`,
//! chess `MoveGen::new_legal` + `make_move_new`. Every count is asserted against
//! `tests/data/perft/cpw_perft_results.csv`.
//!
//! `engine/generation` times one position's legal moves against its noisy moves (captures,
//! en passant, promotions: a quiescence search's) on 2,000 positions from fixed-seed random
//! play, through the list, the closure and the walk, with cozy-chess (target squares masked
//! to the opponent's pieces) and shakmaty (`capture_moves`) beside them.
//!
//! `engine/alphabeta/*` and `engine/quiescence/*` (issue 38) time a search on the six
//! positions: alpha-beta to depth 4, and depth 1 with a captures-only quiescence search,
//! material only, one total move order for every library, taken by the same pick-next
//! selection (see `search/mod.rs`), so the trees are identical. Every library's node count
//! and score must equal constmove's list search, and the alpha-beta score plain minimax's
//! (checked once before measuring).
//!
//! `cargo bench-native --bench engine` (cozy-chess with its pext feature).

mod common;
mod search;

use common::{ChildrenWalk, make_every_move, published, random_play};
use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Move, MoveKind, MoveMask, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Position as _;
use std::hint::black_box;
use std::marker::PhantomData;
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

/// constmove through the public walk: every child is made, leaves counted one by one.
struct MakeAll<G> {
    depth: u32,
    nodes: u64,
    engine: PhantomData<G>,
}

impl<G: Generator> Children for MakeAll<G> {
    #[inline(always)]
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
        if self.depth == 0 {
            self.nodes += 1;
        } else {
            self.depth -= 1;
            G::children(child, self);
            self.depth += 1;
        }
    }
}

/// [`MakeAll`] from the root, `depth` ≥ 1 plies.
struct MakeAllWalk(u32);

impl Walk for MakeAllWalk {
    type Output = u64;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
        let mut make = MakeAll::<G> {
            depth: self.0 - 1,
            nodes: 0,
            engine: PhantomData,
        };
        G::children(root, &mut make);
        make.nodes
    }
}

fn cozy(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy(&child, depth - 1);
        }
        false
    });
    nodes
}

fn shakmaty(position: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in position.legal_moves() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        nodes += shakmaty(&child, depth - 1);
    }
    nodes
}

fn chess(board: &chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    chess::MoveGen::new_legal(board)
        .map(|mv| chess(&board.make_move_new(mv), depth - 1))
        .sum()
}

fn engine_benches(c: &mut Criterion) {
    for (name, id, depth) in CASES {
        let row = published(id, depth);
        let (fen, expected) = (row.fen.clone(), row.nodes());
        let mut group = c.benchmark_group(format!("engine/{name}"));
        group
            .throughput(Throughput::Elements(expected))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        let position: Position = fen.parse().expect("valid FEN");
        group.bench_function("constmove-play", |b| {
            b.iter(|| {
                let nodes = make_every_move(black_box(&position), depth);
                assert_eq!(nodes, expected, "{name} through legal_moves");
                nodes
            })
        });
        group.bench_function("constmove-walk", |b| {
            b.iter(|| {
                let nodes = black_box(&position).walk(MakeAllWalk(depth));
                assert_eq!(nodes, expected, "{name} through walk");
                nodes
            })
        });
        let board = cozy_chess::Board::from_fen(&fen, false).expect("cozy FEN");
        group.bench_function("cozy-chess", |b| {
            b.iter(|| {
                let nodes = cozy(black_box(&board), depth);
                assert_eq!(nodes, expected, "{name} on cozy-chess");
                nodes
            })
        });
        let chess_position: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("shakmaty FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("shakmaty position");
        group.bench_function("shakmaty", |b| {
            b.iter(|| {
                let nodes = shakmaty(black_box(&chess_position), depth);
                assert_eq!(nodes, expected, "{name} on shakmaty");
                nodes
            })
        });
        let board: chess::Board = fen.parse().expect("chess FEN");
        group.bench_function("chess", |b| {
            b.iter(|| {
                let nodes = chess(black_box(&board), depth);
                assert_eq!(nodes, expected, "{name} on chess");
                nodes
            })
        });
        group.finish();
    }
}

fn generation_benches(c: &mut Criterion) {
    let positions = random_play(2_000);
    // The counts each measurement must reach, read off the full lists.
    let (mut full, mut noisy, mut captures, mut en_passant) = (0, 0, 0, 0);
    for position in &positions {
        let theirs = position.board().color(!position.side_to_move());
        for mv in &position.legal_moves() {
            let capture = theirs.contains(mv.to());
            full += 1;
            captures += u64::from(capture);
            en_passant += u64::from(mv.kind() == MoveKind::EnPassant);
            noisy += u64::from(
                capture || matches!(mv.kind(), MoveKind::EnPassant | MoveKind::Promotion(_)),
            );
        }
    }
    let mut group = c.benchmark_group("engine/generation");
    group
        .throughput(Throughput::Elements(positions.len() as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, mask, expected) in [
        ("full", MoveMask::ALL, full),
        ("noisy", MoveMask::NOISY, noisy),
    ] {
        group.bench_function(format!("constmove-list-{name}"), |b| {
            b.iter(|| {
                let moves: u64 = black_box(&positions)
                    .iter()
                    .map(|position| position.legal_moves_masked(mask).len() as u64)
                    .sum();
                assert_eq!(moves, expected, "{name} through legal_moves_masked");
                moves
            })
        });
        group.bench_function(format!("constmove-each-{name}"), |b| {
            b.iter(|| {
                let mut moves = 0u64;
                for position in black_box(&positions) {
                    position.for_each_legal_masked(mask, |_| moves += 1);
                }
                assert_eq!(moves, expected, "{name} through for_each_legal_masked");
                moves
            })
        });
        group.bench_function(format!("constmove-walk-{name}"), |b| {
            b.iter(|| {
                let moves: u64 = black_box(&positions)
                    .iter()
                    .map(|position| position.walk(ChildrenWalk(mask)))
                    .sum();
                assert_eq!(moves, expected, "{name} through children_masked");
                moves
            })
        });
    }
    let boards: Vec<cozy_chess::Board> = positions
        .iter()
        .map(|position| {
            cozy_chess::Board::from_fen(&position.to_string(), false).expect("cozy FEN")
        })
        .collect();
    for (name, expected) in [("full", full), ("captures", captures)] {
        group.bench_function(format!("cozy-chess-{name}"), |b| {
            b.iter(|| {
                let mut moves = 0u64;
                for board in black_box(&boards) {
                    let theirs = board.colors(!board.side_to_move());
                    board.generate_moves(|mut piece_moves| {
                        if name == "captures" {
                            piece_moves.to &= theirs;
                        }
                        moves += piece_moves.len() as u64;
                        false
                    });
                }
                assert_eq!(moves, expected, "{name} on cozy-chess");
                moves
            })
        });
    }
    let chess_positions: Vec<shakmaty::Chess> = positions
        .iter()
        .map(|position| {
            position
                .to_string()
                .parse::<shakmaty::fen::Fen>()
                .expect("shakmaty FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("shakmaty position")
        })
        .collect();
    group.bench_function("shakmaty-full", |b| {
        b.iter(|| {
            let moves: u64 = black_box(&chess_positions)
                .iter()
                .map(|position| position.legal_moves().len() as u64)
                .sum();
            assert_eq!(moves, full, "full on shakmaty");
            moves
        })
    });
    group.bench_function("shakmaty-captures", |b| {
        b.iter(|| {
            let moves: u64 = black_box(&chess_positions)
                .iter()
                .map(|position| position.capture_moves().len() as u64)
                .sum();
            assert_eq!(moves, captures + en_passant, "captures on shakmaty");
            moves
        })
    });
    group.finish();
}

/// The six positions of the search groups (the wiki's FENs, read from the CSV).
const SEARCH_CASES: [(&str, &str); 6] = [
    ("start", "1"),
    ("kiwipete", "2"),
    ("position3", "3"),
    ("position4", "4"),
    ("position5", "5"),
    ("position6", "6"),
];

fn search_benches(c: &mut Criterion) {
    for (group_name, depth, quiesce) in [("alphabeta", 4, false), ("quiescence", 1, true)] {
        for (name, id) in SEARCH_CASES {
            let fen = published(id, 1).fen;
            let position: Position = fen.parse().expect("valid FEN");
            let board = cozy_chess::Board::from_fen(&fen, false).expect("cozy FEN");
            let chess_position: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("shakmaty FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("shakmaty position");
            // The tree every library must walk: the list search's, checked by minimax.
            let expected = search::constmove_list(&position, depth, quiesce);
            if !quiesce {
                assert_eq!(
                    expected.score,
                    search::minimax(&position, depth),
                    "{name}: alpha-beta against minimax"
                );
            }
            let mut group = c.benchmark_group(format!("engine/{group_name}/{name}"));
            group
                .throughput(Throughput::Elements(expected.nodes))
                .sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2));
            group.bench_function("constmove-list", |b| {
                b.iter(|| {
                    let found = search::constmove_list(black_box(&position), depth, quiesce);
                    assert_eq!(found, expected, "{name} through legal_moves");
                    found
                })
            });
            group.bench_function("constmove-walk", |b| {
                b.iter(|| {
                    let found = black_box(&position).walk(search::WalkSearch { depth, quiesce });
                    assert_eq!(found, expected, "{name} through walk");
                    found
                })
            });
            group.bench_function("cozy-chess", |b| {
                b.iter(|| {
                    let found = search::cozy_chess(black_box(&board), depth, quiesce);
                    assert_eq!(found, expected, "{name} on cozy-chess");
                    found
                })
            });
            group.bench_function("shakmaty", |b| {
                b.iter(|| {
                    let found = search::shakmaty(black_box(&chess_position), depth, quiesce);
                    assert_eq!(found, expected, "{name} on shakmaty");
                    found
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, search_benches, engine_benches, generation_benches);
criterion_main!(benches);
