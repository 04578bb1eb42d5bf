//! Perft throughput on the six chessprogramming-wiki positions, in one run: constmove
//! runtime-dispatched (`constmove-auto(<backend it resolved to>)`) and with each backend
//! forced, and the peers cozy-chess (bulk counting through `generate_moves`), shakmaty
//! (`shakmaty::perft`) and chess (`MoveGen::movegen_perft_test`). Every measurement asserts its
//! node count against `tests/data/perft/cpw_perft_results.csv`.
//!
//! `cargo bench -p constmove-benches` measures the portable build; `cargo bench-native` the same at
//! `-C target-cpu=native`, where cozy-chess gets its `pext` feature and chess its BMI2 tables.
//! Filter with e.g. `cargo bench -p constmove-benches --bench perft -- kiwipete`.
//!
//! `broad/` counts a broad sample (issue 36): positions from seeded random games and sparse
//! endings, each at a depth of about 10^7 to 10^8 leaves. They have no published counts, so
//! each is counted once by cozy-chess, an independent generator, before measuring, and every
//! measured count (PEXT, magics) must equal it.

mod common;
// The example's walk, measured as written (its `main` is not used here).
#[allow(dead_code)]
#[path = "../examples/visitor_perft.rs"]
mod visitor_perft;

use common::{fischer, published};
use constmove::{Backend, PerftOptions, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// (name, position id in the CSV, depth): the depths docs/PERFORMANCE.md reports.
const CASES: [(&str, &str, u32); 6] = [
    ("start-d6", "1", 6),
    ("kiwipete-d5", "2", 5),
    ("position3-d7", "3", 7),
    ("position4-d6", "4", 6),
    ("position5-d5", "5", 5),
    ("position6-d5", "6", 5),
];

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

/// Which build of each engine runs, printed once so a saved log says what it measured.
fn print_builds() {
    let auto = Backend::Auto.resolve().expect("auto always resolves");
    let bmi2 = cfg!(target_feature = "bmi2");
    let lookup = |pext: bool| if pext { "PEXT" } else { "magics" };
    eprintln!(
        "constmove: auto resolves to {auto} on this CPU; cozy-chess: {} (pext feature {}); \
         chess: {}; shakmaty: magics",
        lookup(bmi2),
        if bmi2 {
            "on"
        } else {
            "off: needs a BMI2 target"
        },
        lookup(bmi2),
    );
}

fn perft_benches(c: &mut Criterion) {
    print_builds();
    for (name, id, depth) in CASES {
        let row = published(id, depth);
        let (fen, expected) = (row.fen.clone(), row.nodes());
        let position: Position = fen.parse().expect("valid FEN");
        let mut group = c.benchmark_group(format!("perft/{name}"));
        group
            .throughput(Throughput::Elements(expected))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        let auto = Backend::Auto.resolve().expect("auto always resolves");
        group.bench_function(format!("constmove-auto({auto})"), |b| {
            b.iter(|| {
                let nodes = PerftOptions::new()
                    .perft(black_box(&position), depth)
                    .unwrap();
                assert_eq!(nodes, expected, "{name} on auto");
                nodes
            })
        });
        for backend in [Backend::Pext, Backend::Magic] {
            if backend.resolve().is_err() {
                eprintln!("skipping constmove-{backend}: not available on this CPU");
                continue;
            }
            group.bench_function(format!("constmove-{backend}"), |b| {
                b.iter(|| {
                    let nodes = PerftOptions::new()
                        .backend(backend)
                        .perft(black_box(&position), depth)
                        .unwrap();
                    assert_eq!(nodes, expected, "{name} on {backend}");
                    nodes
                })
            });
        }
        group.bench_function("constmove-visitor-perft", |b| {
            b.iter(|| {
                let nodes = black_box(&position).walk(visitor_perft::Perft(depth));
                assert_eq!(nodes, expected, "{name} through examples/visitor_perft.rs");
                nodes
            })
        });
        let cozy: cozy_chess::Board = cozy_chess::Board::from_fen(&fen, false).expect("cozy FEN");
        group.bench_function("cozy-chess", |b| {
            b.iter(|| {
                let nodes = cozy_perft(black_box(&cozy), depth);
                assert_eq!(nodes, expected, "{name} on cozy-chess");
                nodes
            })
        });
        let shakmaty: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("shakmaty FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("shakmaty position");
        group.bench_function("shakmaty", |b| {
            b.iter(|| {
                let nodes = shakmaty::perft(black_box(&shakmaty), depth);
                assert_eq!(nodes, expected, "{name} on shakmaty");
                nodes
            })
        });
        let chess: chess::Board = fen.parse().expect("chess FEN");
        group.bench_function("chess", |b| {
            b.iter(|| {
                let nodes = chess::MoveGen::movegen_perft_test(black_box(&chess), depth as usize);
                assert_eq!(nodes as u64, expected, "{name} on chess");
                nodes
            })
        });
        group.finish();
    }
}

/// Chess960 against standard chess per leaf, at depth 5 on the automatic backend, as leaves
/// per second. Issue 21's yardstick: the first 8 positions of `fischer.epd` (each 8 moves into
/// a game) against the standard start. Beside it, what separates the two: every 16th Chess960
/// start (`Position::chess960_startpos`), and each set again with no castling right, so the cost
/// of castling under each rules set is read apart from the positions' own cost. Counts are
/// asserted against `fischer.epd`, the published start count (no castle fits in 5 plies, so it
/// holds without rights too), or cozy-chess's count of the same position (computed once,
/// before measuring); cozy-chess counts the `fischer.epd` positions too.
fn chess960_benches(c: &mut Criterion) {
    let fischer: Vec<(Position, u64)> = fischer(8, 5)
        .into_iter()
        .map(|(fen, nodes)| (fen.parse().expect("fischer.epd parses"), nodes))
        .collect();
    let starts: Vec<Position> = (0..960)
        .step_by(16)
        .map(|n| Position::chess960_startpos(n).expect("a start below 960"))
        .collect();
    let cozy_board = |position: &Position| {
        let fen = position.shredder_fen().to_string();
        cozy_chess::Board::from_fen(&fen, true).expect("cozy Chess960 FEN")
    };
    // A position's count, as cozy-chess makes it.
    let checked = |position: Position| {
        let nodes = cozy_perft(&cozy_board(&position), 5);
        (position, nodes)
    };
    let starts: Vec<(Position, u64)> = starts.into_iter().map(checked).collect();
    let fischer_bare: Vec<(Position, u64)> = fischer
        .iter()
        .map(|(position, _)| checked(without_castling(position)))
        .collect();
    let starts_bare: Vec<(Position, u64)> = starts
        .iter()
        .map(|(position, _)| checked(without_castling(position)))
        .collect();
    let start = Position::startpos();
    let start_bare = without_castling(&start);
    let start_nodes = published("1", 5).nodes();
    let mut group = c.benchmark_group("chess960/d5");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    let sets = [
        ("constmove-fischer-8", &fischer),
        ("constmove-fischer-8-no-castling", &fischer_bare),
        ("constmove-starts-60", &starts),
        ("constmove-starts-60-no-castling", &starts_bare),
    ];
    for (name, set) in sets {
        group.throughput(Throughput::Elements(set.iter().map(|(_, n)| n).sum()));
        group.bench_function(name, |b| {
            b.iter(|| {
                for (position, nodes) in set {
                    let got = PerftOptions::new().perft(black_box(position), 5).unwrap();
                    assert_eq!(got, *nodes, "{position}");
                }
            })
        });
    }
    let cozy: Vec<(cozy_chess::Board, u64)> = fischer
        .iter()
        .map(|(position, nodes)| (cozy_board(position), *nodes))
        .collect();
    group.throughput(Throughput::Elements(fischer.iter().map(|(_, n)| n).sum()));
    group.bench_function("cozy-chess-fischer-8", |b| {
        b.iter(|| {
            for (board, nodes) in &cozy {
                assert_eq!(cozy_perft(black_box(board), 5), *nodes);
            }
        })
    });
    group.throughput(Throughput::Elements(start_nodes));
    for (name, position) in [
        ("constmove-start", &start),
        ("constmove-start-no-castling", &start_bare),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let got = PerftOptions::new().perft(black_box(position), 5).unwrap();
                assert_eq!(got, start_nodes);
            })
        });
    }
    group.finish();
}

/// `position` with its castling rights taken away (FEN field 3 set to `-`).
fn without_castling(position: &Position) -> Position {
    let fen = position.to_string();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[2] = "-";
    fields
        .join(" ")
        .parse()
        .expect("a FEN without castling rights parses")
}

/// The seed of the broad sample's random games: fixed, so every run counts the same positions.
const BROAD_SEED: u64 = 0x36c0_ffee_2026;

/// Random games in the broad sample.
const BROAD_GAMES: usize = 12;

/// Sparse endings in the broad sample (published nowhere; their counts come from cozy-chess
/// like the games'): rook, knight against bishop, pawns only, rook and knight against rook.
const ENDINGS: [&str; 4] = [
    "8/5pk1/6p1/7p/R7/6PP/r4PK1/8 w - - 0 1",
    "8/4kp2/3bp1p1/8/3N4/4PP2/5KPP/8 w - - 0 1",
    "8/pp3k2/2p3p1/5p1p/5P1P/2P3P1/PP3K2/8 w - - 0 1",
    "3r4/5k2/2n2pp1/7p/7P/5NP1/2R2PK1/8 b - - 0 1",
];

/// A position is counted one ply deeper while the estimate of that depth's leaves stays under
/// this.
const BROAD_MAX_LEAVES: u64 = 120_000_000;

/// xorshift64: enough randomness to pick moves, with no crate for it.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The position after a random game of 20 to 120 plies from the start, each move picked
/// uniformly among the legal ones; a game that ends sooner is played again with the next
/// numbers.
fn random_game(state: &mut u64) -> Position {
    'game: loop {
        let plies = 20 + xorshift(state) % 101;
        let mut position = Position::startpos();
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                continue 'game;
            }
            let mv = moves[(xorshift(state) % moves.len() as u64) as usize];
            position.play(mv).expect("a legal move plays");
        }
        if !position.legal_moves().is_empty() {
            return position;
        }
    }
}

/// The broad sample: each position with its depth and its leaf count by cozy-chess.
fn broad_sample() -> Vec<(String, Position, u32, u64)> {
    let mut state = BROAD_SEED;
    let games = (0..BROAD_GAMES).map(|game| (format!("game-{game}"), random_game(&mut state)));
    let endings = ENDINGS.iter().enumerate().map(|(n, fen)| {
        let position: Position = fen.parse().expect("an ending's FEN parses");
        (format!("ending-{n}"), position)
    });
    games
        .chain(endings)
        .map(|(name, position)| {
            // Deeper while the last ply's branching factor says the next depth stays under
            // the limit: never counts the depth that would pass it.
            let (mut depth, mut before, mut leaves) =
                (1, 1, PerftOptions::new().perft(&position, 1).unwrap());
            while leaves * leaves / before <= BROAD_MAX_LEAVES {
                depth += 1;
                before = leaves;
                leaves = PerftOptions::new().perft(&position, depth).unwrap();
            }
            let fen = position.to_string();
            let cozy = cozy_chess::Board::from_fen(&fen, false).expect("cozy FEN");
            let nodes = cozy_perft(&cozy, depth);
            eprintln!("broad {name}: {fen} depth {depth}: {nodes} leaves (cozy-chess)");
            (name, position, depth, nodes)
        })
        .collect()
}

/// The broad sample, as one figure per set (the games, the endings) and backend: leaves per
/// second over its positions, every count asserted against cozy-chess's.
fn broad_benches(c: &mut Criterion) {
    let sample = broad_sample();
    let mut group = c.benchmark_group("broad");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    let sets = [
        ("games", &sample[..BROAD_GAMES]),
        ("endings", &sample[BROAD_GAMES..]),
    ];
    let auto = Backend::Auto.resolve().expect("auto always resolves");
    eprintln!("broad: auto resolves to {auto}");
    for (set_name, set) in sets {
        group.throughput(Throughput::Elements(set.iter().map(|row| row.3).sum()));
        for backend in [Backend::Pext, Backend::Magic] {
            if backend.resolve().is_err() {
                eprintln!("skipping constmove-{backend}: not available on this CPU");
                continue;
            }
            group.bench_function(format!("{set_name}/constmove-{backend}"), |b| {
                b.iter(|| {
                    for (name, position, depth, nodes) in set {
                        let got = PerftOptions::new()
                            .backend(backend)
                            .perft(black_box(position), *depth)
                            .unwrap();
                        assert_eq!(got, *nodes, "{name} on {backend} against cozy-chess");
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, perft_benches, chess960_benches, broad_benches);
criterion_main!(benches);
