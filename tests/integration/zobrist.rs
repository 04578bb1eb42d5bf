//! Zobrist keys against the published Polyglot test keys, and the incremental key kept by
//! `play` against the key of the same position parsed afresh, over random games.

use crate::common;

use common::XorShift;
use constmove::{Color, Piece, Position, Square, zobrist};

/// The Polyglot book format's published keys: (moves from the start, FEN reached, key).
/// The clocks in the FENs are the true ones after the moves (some copies print 0).
const PUBLISHED: [(&str, &str, u64); 9] = [
    (
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b96181691fc9c,
    ),
    (
        "e2e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c9b50fd114196,
    ),
    (
        "e2e4 d7d5",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756b94461c50fb0,
    ),
    (
        "e2e4 d7d5 e4e5",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662fafb965db29d4,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a48b5a8e47ff78,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3",
        0x652a607ca3f242c1,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4",
        0x00fdd303c946bdd9,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4",
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        0x3c8123ea7b067637,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4",
        0x5c3f9b829b279560,
    ),
];

#[test]
fn published_polyglot_keys_from_fen_and_from_play() {
    for (moves, fen, key) in PUBLISHED {
        let parsed: Position = fen.parse().unwrap();
        assert_eq!(parsed.zobrist(), key, "FEN {fen}");
        let mut played = Position::startpos();
        for text in moves.split_whitespace() {
            let mv = played.parse_uci(text).unwrap();
            played.play(mv).unwrap();
        }
        assert_eq!(played.zobrist(), key, "after {moves}");
        assert_eq!(played, parsed, "after {moves}");
    }
}

/// The key computed square by square from the public per-item keys, with Polyglot's
/// en-passant rule written out here (a pawn of the side to move beside the pushed pawn).
fn key_from_scratch(position: &Position) -> u64 {
    let board = position.board();
    let mut key = zobrist::castling_key(position.castling_rights());
    if position.side_to_move() == Color::White {
        key ^= zobrist::white_to_move_key();
    }
    for index in 0..64 {
        let square = Square::new(index).unwrap();
        if let Some((color, piece)) = board.piece_at(square) {
            key ^= zobrist::piece_key(color, piece, square);
        }
    }
    if let Some(ep) = position.ep_square() {
        let us = position.side_to_move();
        let pushed_rank = if us == Color::White { 4 } else { 3 };
        let capturable = [-1i8, 1].iter().any(|step| {
            let file = ep.file() as i8 + step;
            (0..8).contains(&file)
                && board.piece_at(Square::new(pushed_rank * 8 + file as u8).unwrap())
                    == Some((us, Piece::Pawn))
        });
        if capturable {
            key ^= zobrist::en_passant_key(ep.file());
        }
    }
    key
}

#[test]
fn incremental_keys_match_fresh_keys_over_random_games() {
    let mut rng = XorShift(0x2B1D_5EED);
    let mut checked = 0;
    for _ in 0..300 {
        let mut position = Position::startpos();
        for _ in 0..120 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            position.play(mv).unwrap();
            let fresh: Position = position.to_string().parse().unwrap();
            assert_eq!(position.zobrist(), fresh.zobrist(), "{position}");
            assert_eq!(
                position.zobrist(),
                key_from_scratch(&position),
                "{position}"
            );
            assert_eq!(position, fresh, "{position}");
            checked += 1;
        }
    }
    assert!(checked > 10_000, "only {checked} positions reached");
}

#[test]
fn en_passant_follows_polyglot_rule() {
    // b5 stands beside c5: the key includes file c although b5xc6 is illegal (pinned pawn).
    let pinned: Position = "8/8/8/KPp4r/8/8/8/7k w - c6 0 1".parse().unwrap();
    let without: Position = "8/8/8/KPp4r/8/8/8/7k w - - 0 1".parse().unwrap();
    assert_eq!(
        pinned.zobrist() ^ without.zobrist(),
        zobrist::en_passant_key(2)
    );
    assert_eq!(pinned.ep_square().map(|s| s.to_string()), Some("c6".into()));
    // No white pawn beside d5: the square is dropped and the key has no en-passant part.
    let lone: Position = "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1".parse().unwrap();
    let plain: Position = "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(lone.zobrist(), plain.zobrist());
    assert_eq!(lone, plain);
    assert_eq!(lone.to_string(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
}
