//! FEN parsing: one test per [`FenError`] and [`PositionError`] variant (the exact variant,
//! and a message that names the field), the accepted variations (no counters, extra whitespace), `Display`
//! round trips for every position of the data files, and hostile inputs that must be
//! rejected without a panic.

use crate::common;

use common::XorShift;

use constmove::fen::{FenError, FenField, PositionError};
use constmove::{Color, Piece, Position, Square, perft};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Two bare kings, no counters.
const KINGS: &str = "4k3/8/8/8/8/8/8/4K3";

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Asserts that `fen` is rejected with exactly `expected`, and that the message names
/// `field` (its `Display` text) and contains every one of `details`.
#[track_caller]
fn rejects(fen: &str, expected: impl Into<FenError>, field: &str, details: &[&str]) {
    let expected = expected.into();
    let err = match Position::from_fen(fen) {
        Ok(pos) => panic!("{fen:?} was accepted as {pos}"),
        Err(err) => err,
    };
    assert_eq!(err, expected, "wrong error for {fen:?}");
    let message = err.to_string();
    for needle in std::iter::once(&field).chain(details) {
        assert!(
            message.contains(needle),
            "message for {fen:?} lacks {needle:?}: {message:?}"
        );
    }
}

#[test]
fn missing_field() {
    for (fen, field) in [
        ("", FenField::Placement),
        ("   ", FenField::Placement),
        (KINGS, FenField::SideToMove),
        ("4k3/8/8/8/8/8/8/4K3 w", FenField::Castling),
        ("4k3/8/8/8/8/8/8/4K3 w -", FenField::EnPassant),
    ] {
        rejects(
            fen,
            FenError::MissingField { field },
            &field.to_string(),
            &["missing"],
        );
    }
}

#[test]
fn too_many_fields() {
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        FenError::TooManyFields { count: 7 },
        "fields",
        &["7"],
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 2 3 4",
        FenError::TooManyFields { count: 9 },
        "fields",
        &["9", "at most 6"],
    );
}

#[test]
fn rank_count() {
    let placement = FenField::Placement.to_string();
    rejects(
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        FenError::RankCount { found: 7 },
        &placement,
        &["7 ranks"],
    );
    rejects(
        "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1",
        FenError::RankCount { found: 9 },
        &placement,
        &["9 ranks"],
    );
}

#[test]
fn rank_length() {
    let placement = FenField::Placement.to_string();
    rejects(
        "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
        FenError::RankLength { rank: 1, files: 9 },
        &placement,
        &["rank 1", "9 files"],
    );
    rejects(
        "4k3/7/8/8/8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 7, files: 7 },
        &placement,
        &["rank 7", "7 files"],
    );
    rejects(
        "4k3/8/8//8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 5, files: 0 },
        &placement,
        &["rank 5"],
    );
}

#[test]
fn adjacent_digits() {
    let placement = FenField::Placement.to_string();
    for (fen, rank) in [
        ("4k3/8/8/8/8/8/8/44 w - - 0 1", 1),
        ("1111k3/8/8/8/8/8/8/4K3 w - - 0 1", 8),
        ("4k3/8/8/8/8/8/8/4K21 w - - 0 1", 1),
        ("4k3/8/8/17/8/8/8/4K3 w - - 0 1", 5),
    ] {
        rejects(
            fen,
            FenError::AdjacentDigits { rank },
            &placement,
            &[&format!("rank {rank}"), "two digits in a row"],
        );
    }
}

#[test]
fn piece_letter() {
    let placement = FenField::Placement.to_string();
    for (fen, rank, letter) in [
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", 1, 'X'),
        ("4k3/8/8/8/8/8/8/4K3x w - - 0 1", 1, 'x'),
        ("4k3/8/0/8/8/8/8/4K3 w - - 0 1", 6, '0'),
        ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", 7, '9'),
        ("4k3/8/8/8/8/8/8/4K2\u{2656} w - - 0 1", 1, '\u{2656}'),
    ] {
        rejects(
            fen,
            FenError::PieceLetter { rank, letter },
            &placement,
            &[&format!("'{letter}'"), &format!("rank {rank}")],
        );
    }
}

#[test]
fn side_to_move() {
    for side in ["x", "W", "B", "white", "-", "wb"] {
        rejects(
            &format!("{KINGS} {side} - - 0 1"),
            FenError::SideToMove,
            &FenField::SideToMove.to_string(),
            &[],
        );
    }
}

#[test]
fn castling_letter() {
    let castling = FenField::Castling.to_string();
    for (rights, letter) in [
        ("KX", 'X'),
        ("KK", 'K'),
        ("-K", '-'),
        ("K-", '-'),
        ("--", '-'),
        ("E", 'E'),  // the king's own file
        ("Ke", 'e'), // idem
        ("\u{e9}", '\u{e9}'),
    ] {
        rejects(
            &format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1"),
            FenError::CastlingLetter { letter },
            &castling,
            &[&format!("'{letter}'")],
        );
    }
}

#[test]
fn castling_mismatch() {
    let castling = FenField::Castling.to_string();
    for (fen, right, square, missing, detail) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            'K',
            "h1",
            Piece::Rook,
            "white rook on h1",
        ),
        (
            // A file letter names the rook's square exactly.
            "4k3/8/8/8/8/8/8/R3K3 w B - 0 1",
            'B',
            "b1",
            Piece::Rook,
            "white rook on b1",
        ),
        (
            "r3k3/8/8/8/8/8/8/4K3 w qk - 0 1",
            'k',
            "h8",
            Piece::Rook,
            "black rook on h8",
        ),
        (
            // A black rook on a1 does not give White a queen-side right.
            "4k3/8/8/8/8/8/8/r3K3 w Q - 0 1",
            'Q',
            "a1",
            Piece::Rook,
            "white rook on a1",
        ),
        (
            // `q` is the outermost rook on the king's queen side: there is none.
            "4kr1r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            'q',
            "a8",
            Piece::Rook,
            "black rook on a8",
        ),
    ] {
        rejects(
            fen,
            PositionError::CastlingMismatch {
                right,
                square: sq(square),
                missing,
            },
            &castling,
            &[&format!("'{right}'"), square, detail],
        );
    }
}

#[test]
fn castling_king_off_its_back_rank() {
    let castling = FenField::Castling.to_string();
    for (fen, right, king) in [
        ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", 'K', "e2"),
        ("r7/4k3/8/8/8/8/8/4K3 w a - 0 1", 'a', "e7"),
    ] {
        rejects(
            fen,
            PositionError::CastlingKing {
                right,
                king: sq(king),
            },
            &castling,
            &[&format!("'{right}'"), "back rank", king],
        );
    }
}

#[test]
fn castling_two_rights_on_one_side() {
    let castling = FenField::Castling.to_string();
    for (fen, first, second) in [
        ("4k3/8/8/8/8/8/8/4K1RR w KG - 0 1", 'K', 'G'),
        ("4k3/8/8/8/8/8/8/4K1RR w HK - 0 1", 'H', 'K'),
        ("r1r1k3/8/8/8/8/8/8/4K3 w ca - 0 1", 'c', 'a'),
    ] {
        rejects(
            fen,
            PositionError::CastlingSameSide { first, second },
            &castling,
            &[&format!("'{first}'"), &format!("'{second}'"), "one side"],
        );
    }
}

/// Chess960 castling is read, X-FEN or Shredder-FEN, each colour on its own: the position is
/// a Chess960 one, and both FEN forms write it back so that it reads as the same position.
#[test]
fn chess960_castling_is_read_and_written_back() {
    // (FEN, its X-FEN, its Shredder-FEN castling field)
    for (fen, xfen, shredder) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w A - 0 1", "A", "A"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w Hh - 0 1", "Hh", "Hh"),
        ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "K", "H"),
        ("r4k1r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "KQkq", "HAha"),
        // Inner rooks need their file in X-FEN too; double Chess960 (other back ranks).
        ("1r2k1rr/8/8/8/8/8/8/RR1K3R w Bg - 0 1", "Bg", "Bg"),
        ("rk4r1/8/8/8/8/8/8/2R2KR1 w KQkq - 0 1", "KQkq", "GCga"),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "KQkq",
            "HFhf",
        ),
    ] {
        let position = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(position.is_chess960(), "{fen}");
        let fields = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let written = position.to_string();
        let shredder_written = position.shredder_fen().to_string();
        assert_eq!(fields(&written)[2], xfen, "{fen}: X-FEN");
        assert_eq!(
            fields(&shredder_written)[2],
            shredder,
            "{fen}: Shredder-FEN"
        );
        for text in [written, shredder_written] {
            let again = Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(again, position, "{fen} written as {text}");
            assert!(again.is_chess960(), "{text}");
        }
    }
    // Standard squares in standard letters stay standard chess.
    assert!(
        !Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .unwrap()
            .is_chess960()
    );
}

#[test]
fn en_passant_syntax() {
    for ep in [
        "e9",
        "i3",
        "E3",
        "e",
        "3e",
        "e33",
        "x",
        "\u{e9}3",
        "e\u{301}3",
    ] {
        rejects(
            &format!("4k3/8/8/8/4P3/8/8/4K3 b - {ep} 0 1"),
            FenError::EnPassantSyntax,
            &FenField::EnPassant.to_string(),
            &[],
        );
    }
}

#[test]
fn en_passant_rank() {
    let field = FenField::EnPassant.to_string();
    // A real double push, but the square named is on the wrong rank for the side to move.
    rejects(
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        PositionError::EnPassantRank { square: sq("e3") },
        &field,
        &["e3"],
    );
    rejects(
        "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1",
        PositionError::EnPassantRank { square: sq("e4") },
        &field,
        &["e4"],
    );
}

#[test]
fn en_passant_no_pawn() {
    let field = FenField::EnPassant.to_string();
    for (fen, square) in [
        // No pawn in front of the square.
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "e6"),
        // A pawn of the side to move, not of the side that just moved.
        ("4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", "e6"),
        // The square itself is occupied.
        ("4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", "e6"),
        // The square the pawn came from is occupied.
        ("4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1", "e6"),
        ("4k3/8/8/8/3P4/8/8/4K3 b - e3 0 1", "e3"),
    ] {
        rejects(
            fen,
            PositionError::EnPassantNoPawn { square: sq(square) },
            &field,
            &[square],
        );
    }
}

#[test]
fn king_count() {
    for (fen, color, count, detail) in [
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            Color::White,
            0,
            "0 white kings",
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            Color::Black,
            0,
            "0 black kings",
        ),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            Color::White,
            2,
            "2 white kings",
        ),
        (
            "k1k1k3/8/8/8/8/8/8/4K3 w - - 0 1",
            Color::Black,
            3,
            "3 black kings",
        ),
    ] {
        rejects(
            fen,
            PositionError::KingCount { color, count },
            &FenField::Placement.to_string(),
            &[detail],
        );
    }
}

#[test]
fn opponent_in_check() {
    rejects(
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        PositionError::OpponentInCheck {
            color: Color::Black,
        },
        "check",
        &["black king"],
    );
    rejects(
        "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
        PositionError::OpponentInCheck {
            color: Color::White,
        },
        "check",
        &["white king"],
    );
    // Kings side by side: whoever is not to move is in check.
    rejects(
        "8/8/8/8/8/8/8/3kK3 w - - 0 1",
        PositionError::OpponentInCheck {
            color: Color::Black,
        },
        "check",
        &["black king"],
    );
}

#[test]
fn pawn_on_back_rank() {
    let placement = FenField::Placement.to_string();
    for (fen, square) in [
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "h8"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "a1"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8"),
    ] {
        rejects(
            fen,
            PositionError::PawnOnBackRank { square: sq(square) },
            &placement,
            &[&format!("pawn on {square}")],
        );
    }
}

#[test]
fn too_many_pieces() {
    let placement = FenField::Placement.to_string();
    for (fen, color, count, detail) in [
        // The start position with a seventeenth piece, a knight on e3 or e6.
        (
            "rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Color::White,
            17,
            "17 white pieces",
        ),
        (
            "rnbqkbnr/pppppppp/4n3/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Color::Black,
            17,
            "17 black pieces",
        ),
        // shakmaty's constructed 270-move position: 27 queens, rooks and bishops.
        (
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            Color::White,
            28,
            "28 white pieces",
        ),
    ] {
        rejects(
            fen,
            PositionError::TooManyPieces { color, count },
            &placement,
            &[detail, "at most 16"],
        );
    }
}

#[test]
fn too_many_pawns() {
    let placement = FenField::Placement.to_string();
    for (fen, color, count, detail) in [
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            Color::White,
            9,
            "9 white pawns",
        ),
        (
            "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
            Color::Black,
            9,
            "9 black pawns",
        ),
    ] {
        rejects(
            fen,
            PositionError::TooManyPawns { color, count },
            &placement,
            &[detail, "at most 8"],
        );
    }
}

#[test]
fn too_many_promoted() {
    let placement = FenField::Placement.to_string();
    for (fen, color, promoted, pawns, detail) in [
        // All eight pawns and a second queen.
        (
            "4k3/8/8/8/8/8/PPPPPPPP/2QQK3 w - - 0 1",
            Color::White,
            1,
            8,
            "1 white pieces beyond",
        ),
        // Seven pawns, a third rook and a third bishop: two promotions for one missing pawn.
        (
            "rbb1k1rr/1ppppppp/8/8/8/b7/8/4K3 w - - 0 1",
            Color::Black,
            2,
            7,
            "at most 1 can have promoted",
        ),
        // No pawns and ten queens: nine promotions, eight pawns.
        (
            "7k/6p1/8/8/8/8/QQQQQQQ1/QQQK4 w - - 0 1",
            Color::White,
            9,
            0,
            "9 white pieces beyond",
        ),
        // Third knights and third bishops count as queens do.
        (
            "4k3/8/8/8/8/NNN5/PPPPPPPP/4K3 w - - 0 1",
            Color::White,
            1,
            8,
            "with 8 pawns left at most 0",
        ),
    ] {
        rejects(
            fen,
            PositionError::TooManyPromoted {
                color,
                promoted,
                pawns,
            },
            &placement,
            &[detail],
        );
    }
}

/// Material at the limits is accepted: sixteen pieces, eight promotions with no pawns left
/// (the 218-move position, and nine queens), promotions that fit the missing pawns, and
/// three bishops on one square colour (their colours are not examined).
#[test]
fn material_at_the_limits_is_accepted() {
    for fen in [
        constmove::fen::STARTPOS_FEN,
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        "r3k1rr/1ppppppp/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/1PPPPPPP/2QQK3 w - - 0 1",
        "4k3/8/8/8/8/8/PPPPPPP1/B1B1K1B1 w - - 0 1",
        "7k/6p1/8/8/8/8/QQQQQQQ1/QQK5 w - - 0 1",
    ] {
        assert!(Position::from_fen(fen).is_ok(), "{fen} rejected");
    }
}

#[test]
fn halfmove_clock() {
    for clock in ["x", "-1", "1.5", "+-3", "+5", "99999999999999999999"] {
        rejects(
            &format!("{KINGS} w - - {clock} 1"),
            FenError::HalfmoveClock,
            &FenField::HalfmoveClock.to_string(),
            &[],
        );
    }
}

#[test]
fn fullmove_number() {
    for number in ["0", "x", "-1", "1.0", "+1", "99999999999999999999"] {
        rejects(
            &format!("{KINGS} w - - 0 {number}"),
            FenError::FullmoveNumber,
            &FenField::FullmoveNumber.to_string(),
            &[],
        );
    }
}

#[test]
fn byte_order_mark_is_named() {
    // Invisible when quoted as itself: the message must say what it is.
    let err = Position::from_fen(&format!("\u{feff}{}", constmove::fen::STARTPOS_FEN)).unwrap_err();
    assert_eq!(
        err,
        FenError::PieceLetter {
            rank: 8,
            letter: '\u{feff}'
        }
    );
    let message = err.to_string();
    assert!(
        message.contains("byte-order mark") && message.contains("U+FEFF"),
        "{message:?}"
    );
}

#[test]
fn triple_check_is_impossible() {
    // Rook, knight and bishop check the white king; a move gives at most two checks.
    for (fen, checkers) in [
        ("4r2k/8/8/8/1b6/3n4/8/4K3 w - - 0 1", 3),
        ("4r2k/8/8/8/1b6/3n4/5p2/4K3 w - - 0 1", 4),
    ] {
        rejects(
            fen,
            PositionError::ImpossibleCheck {
                color: Color::White,
                checkers,
            },
            &FenField::Placement.to_string(),
            &["white king", &format!("check from {checkers} pieces")],
        );
    }
}

#[test]
fn double_checks_of_published_suites_are_accepted() {
    // Some no move can give (two pawns, two knights, pawn and knight, two checkers on one
    // line), but perft suites test them, so they are counted rather than rejected.
    for fen in [
        "1rrrrrk1/1PPPPPPP/8/8/8/8/8/6K1 b - -",
        "2b5/1nbn4/n3n3/1kn5/n3n3/1n1n4/5RQ1/2KQ1R2 w - -",
        "1q4k1/3r1Ppp/5NP1/pP6/8/1Q6/3B4/2K2R2 b - -",
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
        "5R2/2P5/8/4k3/8/3rK2r/8/8 w - -",
        "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - -",
    ] {
        assert!(Position::from_fen(fen).is_ok(), "{fen}");
    }
}

#[test]
fn counters_are_optional() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
    assert_eq!(pos.to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 17").unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (17, 1));
    assert_eq!(pos.to_string(), "4k3/8/8/8/8/8/8/4K3 b - - 17 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 3 42").unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (3, 42));
}

#[test]
fn extra_whitespace_is_accepted() {
    let start = Position::startpos();
    for fen in [
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq   -  0   1  ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        "\r\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\r\n",
    ] {
        assert_eq!(Position::from_fen(fen), Ok(start.clone()), "{fen:?}");
    }
}

#[test]
fn castling_letters_in_any_order() {
    let canonical = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    for rights in ["qkQK", "kqKQ", "QKqk"] {
        let fen = format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1");
        assert_eq!(Position::from_fen(&fen), Ok(canonical.clone()), "{fen}");
    }
}

/// Parses `fen`, writes it back, and checks the first four fields are unchanged, the
/// counters are the given ones (or the defaults `0 1`), and the output parses to an equal
/// position. Returns a description of any failure.
fn round_trip(fen: &str) -> Result<(), String> {
    let pos = Position::from_fen(fen).map_err(|err| format!("{fen:?} rejected: {err}"))?;
    let written = pos.to_string();
    let input: Vec<&str> = fen.split_whitespace().collect();
    let output: Vec<&str> = written.split_whitespace().collect();
    let mut expected_output = input.clone();
    expected_output.truncate(6);
    if expected_output.len() < 5 {
        expected_output.push("0");
    }
    if expected_output.len() < 6 {
        expected_output.push("1");
    }
    if output[..4] != input[..4] || output != expected_output {
        return Err(format!("{fen:?} written back as {written:?}"));
    }
    match Position::from_fen(&written) {
        Ok(again) if again == pos => Ok(()),
        Ok(again) => Err(format!("{written:?} parses to a different {again:?}")),
        Err(err) => Err(format!("{written:?} (from {fen:?}) rejected: {err}")),
    }
}

#[test]
fn display_round_trips_every_data_file_position() {
    let mut fens: Vec<String> = Vec::new();
    for (name, parse) in [
        ("perftsuite.epd", common::parse_epd as fn(&str, &str) -> _),
        ("perftsuite_extras.epd", common::parse_epd),
        ("tricky_positions.csv", common::parse_tricky_csv),
        ("marcelk_perft_random.perft.gz", common::parse_perft_blocks),
    ] {
        fens.extend(common::load(name, parse).into_iter().map(|e| e.fen));
    }
    assert!(fens.len() > 126 + 3 + 27 + 6_000);
    let failures: Vec<String> = fens
        .iter()
        .filter_map(|fen| round_trip(fen).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} FENs do not round-trip:\n{}",
        failures.len(),
        fens.len(),
        failures.join("\n")
    );
}

/// At most the first 100 characters of `input`, for messages.
fn shorten(input: &str) -> String {
    input.chars().take(100).collect()
}

/// Parses `input`, catching a panic; the `Ok` positions are also written back, re-parsed
/// and asked for their moves (none of which may panic).
fn parse_without_panic(input: &str) -> Result<Result<Position, FenError>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let parsed = Position::from_fen(input);
        if let Ok(pos) = &parsed {
            assert_eq!(Position::from_fen(&pos.to_string()).as_ref(), Ok(pos));
            let _ = pos.legal_moves();
            let _ = perft(pos, 2);
        }
        parsed
    }))
    .map_err(|_| format!("panicked on {:?}", shorten(input)))
}

#[test]
fn hostile_inputs_are_rejected_without_panic() {
    let pool = b"!#/8kKqQ -w\x7f~";
    let long_garbage: String = (0..200_000usize)
        .map(|i| char::from(pool[(i * 7919) % pool.len()]))
        .collect();
    let inputs: Vec<String> = [
        "",
        "8/8/8",
        "8/8/8 w - -",
        "/",
        "////////",
        "//////// w - -",
        "8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8 w - -",
        "88888888/8/8/8/8/8/8/8 w - -",
        "k7/8/8/8/8/8/8/11111111K w - -",
        "kkkkkkkk/kkkkkkkk/8/8/8/8/KKKKKKKK/KKKKKKKK w - -",
        "\u{2654}\u{2655}\u{2656}/8/8/8/8/8/8/8 w - -",
        "4k3/8/8/8/8/8/8/4K3 \u{1F600} - -",
        "4k3/8/8/8/8/8/8/4K3 w \u{1F600} -",
        "4k3/8/8/8/8/8/8/4K3 w - \u{1F600}",
        "4k3/8/8/8/8/8/8/4K3 w - - \u{1F600} 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 \u{1F600}",
        "\u{feff}4k3/8/8/8/8/8/8/4K3 w - -",
        "4k3/8/8/8/8/8/8/4K3\u{a0}w - -",
        "4k3/8/8/8/8/8/8/4K\u{ff13} w - -",
        "\0\0\0\0",
        "4k3/8/8/8/8/8/8/4K3 w - a0",
        "4k3/8/8/8/8/8/8/4K3 w - h9",
        "4k3/8/8/8/8/8/8/4K3 b - a3",
        "4k3/8/8/8/8/8/8/4K3 w - h6",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain([
        long_garbage.clone(),
        "x".repeat(100_000),
        "/".repeat(100_000),
        "8/".repeat(50_000),
        "9".repeat(100_000) + " w - -",
        format!("{KINGS} w - - 0 1 {}", "1 ".repeat(50_000)),
        format!("{KINGS} w {} -", "K".repeat(10_000)),
        "\u{10FFFF}".repeat(10_000),
    ])
    .collect();
    let mut failures = Vec::new();
    for input in &inputs {
        match parse_without_panic(input) {
            Err(panic) => failures.push(panic),
            Ok(Ok(pos)) => failures.push(format!("{:?} accepted as {pos}", shorten(input))),
            Ok(Err(_)) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Valid FENs mutated by random character insertions, deletions and replacements: the
/// parser returns, never panics, and whatever it accepts writes back, re-parses, and
/// generates moves without panicking.
#[test]
fn mutated_fens_never_panic() {
    let seeds = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK0123456789/ -wbKQkqabcdefgh\t\u{e9}\u{2656}\u{1F600}"
        .chars()
        .collect();
    let mut rng = XorShift(0x5EED_F00D_CAFE_BABE);
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..20_000 {
        let mut chars: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() + 1);
            let letter = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 => chars.insert(at, letter),
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ if at < chars.len() => chars[at] = letter,
                _ => chars.push(letter),
            }
        }
        let input: String = chars.into_iter().collect();
        match parse_without_panic(&input) {
            Err(panic) => failures.push(panic),
            Ok(Ok(_)) => accepted += 1,
            Ok(Err(_)) => rejected += 1,
        }
    }
    println!("mutated FENs: {accepted} accepted, {rejected} rejected");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(accepted > 100 && rejected > 100);
}
