//! Property tests (proptest) of the invariants every position must keep, over positions from
//! random play (standard and Chess960 starts) and random legal placements: every generated
//! move is legal by a check written here, the incremental Zobrist key equals the key of the
//! position read afresh, FEN and SAN round-trip, `legal_moves` has perft 1's count on every
//! backend, and `is_legal` says yes to exactly the moves `legal_moves` lists.
//!
//! The seed is fixed, so a run is reproducible; `PROPTEST_RNG_SEED=N` picks another and
//! `PROPTEST_CASES=N` runs more cases than the default [`CASES`] per property, e.g.
//! `PROPTEST_CASES=5000 cargo test --release --test integration properties`.

use crate::common::{self, attackers};
use constmove::{Board, Color, Move, MoveKind, PerftOptions, Piece, Position, Square};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::collections::HashSet;

/// Cases per property in the default run (a few seconds for all of them).
const CASES: u32 = 256;

/// The default configuration: fixed seed, no regression files written into the source tree
/// (the seed reproduces a failure). proptest's environment variables override both.
fn config() -> Config {
    Config {
        cases: CASES,
        rng_seed: RngSeed::Fixed(0x00C0_4577_4D0E),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Where random play starts: the wiki's six positions (castling, en passant and promotion
/// close at hand); Chess960 starts are added by number.
const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// A start (one of [`STARTS`], or Chess960 start `number - STARTS.len()`), then one move per
/// choice (the choice modulo the number of legal moves), stopping at mate or stalemate. Each
/// position's key is checked against the key of its FEN read afresh on the way.
fn play_out(start: u32, choices: &[u16]) -> Position {
    let mut position = match STARTS.get(start as usize) {
        Some(fen) => Position::from_fen(fen).unwrap(),
        None => Position::chess960_startpos(start - STARTS.len() as u32).unwrap(),
    };
    for &choice in choices {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position
            .play(moves[usize::from(choice) % moves.len()])
            .unwrap();
        assert_eq!(position.zobrist(), fresh(&position).zobrist(), "{position}");
    }
    position
}

/// `position` written as FEN and read back, with its Chess960 rules kept.
fn fresh(position: &Position) -> Position {
    let again = Position::from_fen(&position.to_string())
        .unwrap_or_else(|err| panic!("{position}: its own FEN is rejected: {err}"));
    if position.is_chess960() {
        again.into_chess960()
    } else {
        again
    }
}

/// Positions from random play: up to 80 plies from a start, half the time a Chess960 one.
fn played() -> impl Strategy<Value = Position> {
    let start = prop_oneof![
        0..STARTS.len() as u32,
        STARTS.len() as u32..STARTS.len() as u32 + 960
    ];
    (start, prop::collection::vec(any::<u16>(), 0..80))
        .prop_map(|(start, choices)| play_out(start, &choices))
}

/// A random placement: two kings and up to 14 other pieces (no pawn on the first or last
/// rank), either side to move, no castling or en passant; kept when the side not to move is
/// not in check (by the attack walk written here) and the FEN is accepted.
fn placed() -> impl Strategy<Value = Position> {
    let piece = (0u8..64, any::<bool>(), 0usize..5);
    (
        0u8..64,
        0u8..64,
        any::<bool>(),
        prop::collection::vec(piece, 0..15),
    )
        .prop_filter_map(
            "kings adjacent, side not to move in check, or FEN rejected",
            |(white_king, black_king, white_to_move, pieces)| {
                let mut board = [None; 64];
                board[usize::from(white_king)] = Some('K');
                if board[usize::from(black_king)].is_some() {
                    return None;
                }
                board[usize::from(black_king)] = Some('k');
                for (square, white, kind) in pieces {
                    let letter = ['P', 'N', 'B', 'R', 'Q'][kind];
                    let back_rank = matches!(square / 8, 0 | 7);
                    if board[usize::from(square)].is_none() && !(letter == 'P' && back_rank) {
                        let letter = if white {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        };
                        board[usize::from(square)] = Some(letter);
                    }
                }
                let fen = placement_fen(&board, white_to_move);
                let position = Position::from_fen(&fen).ok()?;
                let them = !position.side_to_move();
                let their_king = king_square(position.board(), them);
                attackers(position.board(), their_king, !them)
                    .is_empty()
                    .then_some(position)
            },
        )
}

/// The FEN of a board given square by square (a1 first), without castling or en passant.
fn placement_fen(board: &[Option<char>; 64], white_to_move: bool) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(letter) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if white_to_move {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

/// Random play or a random placement, two to one.
fn position() -> impl Strategy<Value = Position> {
    prop_oneof![2 => played(), 1 => placed()]
}

/// The square of `color`'s king (exactly one, which the FEN check guarantees).
fn king_square(board: &Board, color: Color) -> Square {
    (0..64)
        .filter_map(Square::new)
        .find(|&square| board.piece_at(square) == Some((color, Piece::King)))
        .expect("a king")
}

/// Every move a position could be asked about: from each square of the side to move's
/// pieces to every square, of every kind. Legal or not, `is_legal` must answer.
fn candidates(position: &Position) -> Vec<Move> {
    let us = position.side_to_move();
    let kinds = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::Promotion(Piece::Queen),
        MoveKind::Promotion(Piece::Rook),
        MoveKind::Promotion(Piece::Bishop),
        MoveKind::Promotion(Piece::Knight),
    ];
    let squares: Vec<Square> = (0..64).filter_map(Square::new).collect();
    let mut moves = Vec::new();
    for &from in &squares {
        if position
            .board()
            .piece_at(from)
            .is_some_and(|(color, _)| color == us)
        {
            for &to in &squares {
                moves.extend(kinds.iter().map(|&kind| Move::new(from, to, kind)));
            }
        }
    }
    moves
}

proptest! {
    #![proptest_config(config())]

    /// Each listed move is made without error, moves a piece of the side to move, and
    /// leaves that side's king unattacked by the attack walk written in `common`.
    #[test]
    fn generated_moves_are_legal(position in position()) {
        let us = position.side_to_move();
        for &mv in position.legal_moves().iter() {
            let mover = position.board().piece_at(mv.from());
            prop_assert_eq!(mover.map(|(color, _)| color), Some(us), "{} {}", position, mv);
            let mut child = position.clone();
            prop_assert!(child.play(mv).is_ok(), "{} {}", position, mv);
            let king = king_square(child.board(), us);
            let checkers = attackers(child.board(), king, !us);
            prop_assert!(checkers.is_empty(), "{} {}: king on {} attacked from {:?}", position, mv, king, checkers);
            prop_assert_eq!(child.side_to_move(), !us);
        }
    }

    /// After each move, the key `play` keeps equals the key of the child read from its FEN.
    #[test]
    fn incremental_key_equals_fresh_key(position in position()) {
        for &mv in position.legal_moves().iter() {
            let mut child = position.clone();
            child.play(mv).unwrap();
            prop_assert_eq!(child.zobrist(), fresh(&child).zobrist(), "{} {}", position, mv);
        }
    }

    /// Written as FEN and read back, a position is the same position, and writes the same FEN.
    #[test]
    fn fen_round_trips(position in position()) {
        let again = fresh(&position);
        prop_assert_eq!(again.to_string(), position.to_string());
        prop_assert_eq!(again, position);
    }

    /// Each legal move's SAN parses back to that move.
    #[test]
    fn san_round_trips(position in position()) {
        for &mv in position.legal_moves().iter() {
            let san = position.san(mv);
            prop_assert_eq!(position.parse_san(&san), Ok(mv), "{} {} written {}", position, mv, san);
        }
    }

    /// `legal_moves` has as many moves as perft 1 counts on every backend this CPU runs, and
    /// perft 2 is the sum of the children's move counts.
    #[test]
    fn legal_moves_count_is_perft_1(position in position()) {
        let moves = position.legal_moves();
        let below: u64 = moves
            .iter()
            .map(|&mv| {
                let mut child = position.clone();
                child.play(mv).unwrap();
                child.legal_moves().len() as u64
            })
            .sum();
        for backend in common::backends() {
            prop_assert_eq!(PerftOptions::new().backend(backend).perft(&position, 1), Ok(moves.len() as u64), "{} {}", position, backend);
            prop_assert_eq!(PerftOptions::new().backend(backend).perft(&position, 2), Ok(below), "{} {}", position, backend);
        }
        prop_assert_eq!(PerftOptions::new().perft(&position, 1), Ok(moves.len() as u64));
    }

    /// `is_legal` is true for exactly the moves `legal_moves` lists, among every move from a
    /// square of the side to move, of every kind.
    #[test]
    fn is_legal_agrees_with_legal_moves(position in position()) {
        let legal: HashSet<Move> = position.legal_moves().iter().copied().collect();
        let candidates = candidates(&position);
        for &mv in &candidates {
            prop_assert_eq!(position.is_legal(mv), legal.contains(&mv), "{} {:?}", position, mv);
        }
        // The candidates cover every legal move, so none was left unasked.
        prop_assert_eq!(candidates.iter().filter(|mv| legal.contains(mv)).count(), legal.len());
    }
}
