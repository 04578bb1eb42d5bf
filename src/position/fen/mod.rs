//! FEN in and out: parsing with a typed [`FenError`] that names the field and the problem
//! (text that is not FEN), validation into a [`PositionError`] (FEN that sets up no legal
//! position) of everything the generator relies on (one king each, castling rights that
//! match the king and rook squares, a real en-passant pawn, the side not to move not in
//! check, the side to move in check from at most two pieces, no pawns on the first or last
//! rank, material some game could have), and `Display` for [`Position`].
//!
//! What is accepted, precisely:
//! - the castling field as X-FEN or Shredder-FEN, each colour on its own: `K`/`Q` name the
//!   outermost rook on that side of the king, a file letter `A`-`H`/`a`-`h` the rook on that
//!   file; letters in any order (`qkQK` is `KQkq`: the set is what matters), each right at
//!   most once; `Display` writes them in the standard order `KQkq`, and
//!   [`Position::shredder_fen`] as file letters. A position whose castling king or rook
//!   stands off standard chess's squares, or whose castling field uses a file letter, is a
//!   Chess960 position (see [`Position::is_chess960`]);
//! - the move counters as plain digits only (`+5` is rejected, as is anything Rust's integer
//!   parsing would take beyond digits);
//! - any two checkers of the side to move, even pairs no move can give (two knights, two
//!   pawns, a pawn and a knight, two pieces on one line): published perft suites test such
//!   positions. Three or more are [`PositionError::ImpossibleCheck`], since no move gives more
//!   than a double check.
//! - each side's material as a game can leave it (peers refuse it too, shakmaty as
//!   `TOO_MUCH_MATERIAL`): at most 16 pieces ([`PositionError::TooManyPieces`]), at most 8 pawns
//!   ([`PositionError::TooManyPawns`]), and no more pieces beyond the starting set (queens beyond
//!   1; rooks, bishops and knights beyond 2) than pawns are missing to have promoted them
//!   ([`PositionError::TooManyPromoted`]). Bishops are counted whatever the colour of their
//!   squares (two bishops on light squares need no promotion here). The bound is what lets
//!   [`crate::MoveList`] hold 256 moves; moves keep within it, since a promotion spends the
//!   pawn it adds a piece for.

mod error;
mod placement;
mod write;

pub use error::{FenError, FenField, PositionError};
pub use write::ShredderFen;

use crate::base::board::Board;
use crate::base::castling::{CastlingGeometry, right_index};
use crate::base::geometry::rook_corner;
use crate::base::types::{Color, Piece, Square};
use crate::generator::checks_and_pins::attacked;
use crate::generator::material::AnyPieces;
use crate::position::castling::CastlingRights;
use crate::position::queries::attackers_on;
use crate::position::{Position, zobrist};
use crate::slider::Portable;
use crate::slider::Resolved;
use placement::{check_board, parse_placement, read_placement};

/// `text` as a number if it is plain ASCII digits: Rust's parsers also take a leading `+`.
fn whole_number<T: core::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl Position {
    /// Parses and validates a FEN. The halfmove clock and fullmove number may be left out
    /// (they default to 0 and 1).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::{FenError, FenField};
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
    /// assert_eq!(
    ///     Position::from_fen("4k3/8/8/8/8/8/8/4K3"),
    ///     Err(FenError::MissingField { field: FenField::SideToMove })
    /// );
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        match fast_fields(fen) {
            Some(fields) => fields.position(),
            None => from_fen_slow(fen),
        }
    }

    /// A position from checked parts, run on `engine`, with counters 0 and 1 and its key
    /// computed. The board's castling squares are made canonical for `castling` (a board
    /// from inside a walk keeps the squares of rights lost on the way).
    pub(crate) fn from_parts(
        board: Board,
        side: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        engine: Resolved,
    ) -> Position {
        let key = zobrist::key_of(&board, side, castling, ep_square);
        Position::with_key(board, side, castling, ep_square, engine, key)
    }

    /// [`Position::from_parts`] with the key already computed.
    fn with_key(
        mut board: Board,
        side: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        engine: Resolved,
        key: u64,
    ) -> Position {
        let geometry = *board.castling();
        if geometry != CastlingGeometry::STANDARD {
            board.set_castling(geometry.canonical(castling.bits()));
        }
        Position {
            key,
            board,
            side,
            castling,
            ep_square,
            halfmove_clock: 0,
            fullmove_number: 1,
            engine,
        }
    }
}

/// A FEN's fields, split, with the placement read into a board (its form checked, not yet
/// what stands on it).
struct Fields<'a> {
    board: Board,
    /// The pieces' part of the Zobrist key, when the one-pass reader computed it.
    placement_key: Option<u64>,
    side: Color,
    castling: &'a str,
    ep: &'a str,
    halfmove: Option<&'a str>,
    fullmove: Option<&'a str>,
}

impl Fields<'_> {
    /// The position, after the checks that follow the placement's, in `from_fen_slow`'s
    /// order (so both readers give one FEN one error).
    fn position(self) -> Result<Position, FenError> {
        let side = self.side;
        let (castling, geometry) = parse_castling(self.castling, &self.board)?;
        let mut board = self.board;
        board.set_castling(geometry);
        let ep_square = parse_ep(self.ep, &board, side)?;
        let halfmove_clock = match self.halfmove {
            None => 0,
            Some(text) => whole_number(text).ok_or(FenError::HalfmoveClock)?,
        };
        let fullmove_number = match self.fullmove {
            None => 1,
            Some(text) => match whole_number(text) {
                Some(n) if n > 0 => n,
                _ => return Err(FenError::FullmoveNumber),
            },
        };

        let opponent = !side;
        let king = board.bits(opponent, Piece::King).trailing_zeros() as usize;
        if attacked::<Portable, AnyPieces>(&board, side, king, board.occupied_bits()) {
            return Err(PositionError::OpponentInCheck { color: opponent }.into());
        }
        let our_king = board.bits(side, Piece::King).trailing_zeros() as usize;
        let checkers = attackers_on(&board, our_king, !side, board.occupied_bits());
        // The generator copes with any double check, even one no move can give, but no
        // sequence of moves reaches a triple check. (Two bits cleared, not a count: the
        // x86-64 baseline has no POPCNT.)
        let beyond_one = checkers & checkers.wrapping_sub(1);
        if beyond_one & beyond_one.wrapping_sub(1) != 0 {
            return Err(PositionError::ImpossibleCheck {
                color: side,
                checkers: checkers.count_ones(),
            }
            .into());
        }
        // Keep the square only when a pawn could take, as `play` records it and Polyglot
        // hashes it: one position, one value, one key.
        let ep_square = ep_square.filter(|square| {
            let pushed = crate::base::geometry::en_passant_victim(side, *square);
            crate::base::attacks::beside(board.bits(side, Piece::Pawn)) & pushed.bit() != 0
        });
        let position = match self.placement_key {
            Some(pieces) => {
                let mut key = pieces
                    ^ zobrist::castling_key(castling)
                    ^ zobrist::en_passant_square_key(ep_square);
                if side == Color::White {
                    key ^= zobrist::white_to_move_key();
                }
                debug_assert_eq!(key, zobrist::key_of(&board, side, castling, ep_square));
                Position::with_key(board, side, castling, ep_square, Resolved::auto(), key)
            }
            None => Position::from_parts(board, side, castling, ep_square, Resolved::auto()),
        };
        let mut position = position;
        position.halfmove_clock = halfmove_clock;
        position.fullmove_number = fullmove_number;
        Ok(position)
    }
}

/// Any FEN, split at runs of ASCII whitespace: what [`fast_fields`] leaves, and the error of
/// every FEN that is not one.
#[cold]
#[inline(never)]
fn from_fen_slow(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let mut next = |field| fields.next().ok_or(FenError::MissingField { field });
    // The board first: for a truncated FEN like "8/8/8" its error is the useful one.
    let board = parse_placement(next(FenField::Placement)?)?;
    let side = next(FenField::SideToMove)?;
    let castling = next(FenField::Castling)?;
    let ep = next(FenField::EnPassant)?;
    let halfmove = fields.next();
    let fullmove = fields.next();
    let extra = fields.count();
    if extra > 0 {
        return Err(FenError::TooManyFields { count: 6 + extra });
    }
    let side = match side {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(FenError::SideToMove),
    };
    Fields {
        board,
        placement_key: None,
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    }
    .position()
}

/// The fields of a FEN as FENs are usually written: one space between fields and none
/// around them, four to six fields, a well-formed placement (read in one branch-free pass,
/// its key with it) and `w` or `b`. `None` for anything else: [`from_fen_slow`] reads it.
#[inline]
fn fast_fields(fen: &str) -> Option<Fields<'_>> {
    let (board, key, end) = read_placement(fen.as_bytes())?;
    let (side, rest) = match fen.as_bytes().get(end..end + 3)? {
        b" w " => (Color::White, &fen[end + 3..]),
        b" b " => (Color::Black, &fen[end + 3..]),
        _ => return None,
    };
    let (castling, rest) = next_field(rest)?;
    let (ep, rest) = next_field(rest?)?;
    let (halfmove, fullmove) = match rest {
        None => (None, None),
        Some(rest) => match next_field(rest)? {
            (halfmove, None) => (Some(halfmove), None),
            (halfmove, Some(rest)) => match next_field(rest)? {
                (fullmove, None) => (Some(halfmove), Some(fullmove)),
                (_, Some(_)) => return None,
            },
        },
    };
    check_board(&board).ok()?;
    Some(Fields {
        board,
        placement_key: Some(key),
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    })
}

/// The field at the start of `text` (printable ASCII, not empty) and what follows its one
/// space, or `None` after the last field; `None` in all for any other spacing.
#[inline]
fn next_field(text: &str) -> Option<(&str, Option<&str>)> {
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .position(|byte| !byte.is_ascii_graphic())
        .unwrap_or(bytes.len());
    if end == 0 {
        return None;
    }
    match bytes.get(end) {
        None => Some((text, None)),
        // An ASCII byte: a boundary of the text's characters.
        Some(b' ') => Some((&text[..end], Some(&text[end + 1..]))),
        Some(_) => None,
    }
}

/// The rights of a castling field of `KQkq` letters, each at most once, whose kings and rooks
/// stand on standard chess's squares (a rook in the corner is the outermost one X-FEN means):
/// the common case, read without building any squares. `None` for anything else.
fn standard_castling(text: &str, board: &Board) -> Option<CastlingRights> {
    let mut rights = CastlingRights::NONE;
    for byte in text.bytes() {
        let (color, kingside) = match byte {
            b'K' => (Color::White, true),
            b'Q' => (Color::White, false),
            b'k' => (Color::Black, true),
            b'q' => (Color::Black, false),
            _ => return None,
        };
        let rook = rook_corner(color, kingside);
        let king = Square::from_index(rook.index() as u32 & !7 | 4);
        let standard = board.bits(color, Piece::King) & king.bit() != 0
            && board.bits(color, Piece::Rook) & rook.bit() != 0;
        if !standard || rights.has(color, kingside) {
            return None;
        }
        rights = rights.with(color, kingside);
    }
    Some(rights)
}

/// The rights and where their kings and rooks stand. Each colour's letters are read on
/// their own, so each side may have its own Chess960 back rank: `K`/`Q` name the outermost
/// rook on that side of the king (X-FEN), a file letter the rook on that file (Shredder-FEN
/// and X-FEN's inner rooks). The squares are Chess960's if any differ from standard
/// chess's, or if a file letter is used.
fn parse_castling(
    text: &str,
    board: &Board,
) -> Result<(CastlingRights, CastlingGeometry), FenError> {
    let mut rights = CastlingRights::NONE;
    let mut geometry = CastlingGeometry::STANDARD;
    // The letter that gave each right, for the same-side error.
    let mut given = [' '; 4];
    let mut file_letters = false;
    if text == "-" {
        return Ok((rights, geometry));
    }
    if let Some(rights) = standard_castling(text, board) {
        return Ok((rights, geometry));
    }
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank: u64 = match color {
            Color::White => 0xFF,
            Color::Black => 0xFF << 56,
        };
        let base = rank.trailing_zeros();
        let king = Square::from_index(board.bits(color, Piece::King).trailing_zeros() & 63);
        let (kingside, rook_file) = match letter.to_ascii_lowercase() {
            side @ ('k' | 'q') => {
                let kingside = side == 'k';
                if rank & king.bit() == 0 {
                    return Err(PositionError::CastlingKing {
                        right: letter,
                        king,
                    }
                    .into());
                }
                let king_file = king.file() as u32;
                let rooks = (board.bits(color, Piece::Rook) >> base) as u8 as u32;
                // The outermost rook on that side of the king.
                let beyond = if kingside {
                    rooks & !((2 << king_file) - 1)
                } else {
                    rooks & ((1 << king_file) - 1)
                };
                if beyond == 0 {
                    return Err(PositionError::CastlingMismatch {
                        right: letter,
                        square: rook_corner(color, kingside),
                        missing: Piece::Rook,
                    }
                    .into());
                }
                let file = if kingside {
                    31 - beyond.leading_zeros()
                } else {
                    beyond.trailing_zeros()
                };
                (kingside, file as u8)
            }
            file @ 'a'..='h' => {
                file_letters = true;
                let file = file as u8 - b'a';
                if rank & king.bit() == 0 {
                    return Err(PositionError::CastlingKing {
                        right: letter,
                        king,
                    }
                    .into());
                }
                if file == king.file() {
                    return Err(FenError::CastlingLetter { letter });
                }
                let square = Square::from_index(base + u32::from(file));
                if board.bits(color, Piece::Rook) & square.bit() == 0 {
                    return Err(PositionError::CastlingMismatch {
                        right: letter,
                        square,
                        missing: Piece::Rook,
                    }
                    .into());
                }
                (file > king.file(), file)
            }
            _ => return Err(FenError::CastlingLetter { letter }),
        };
        let index = right_index(color, kingside);
        if rights.has(color, kingside) {
            if given[index] == letter {
                return Err(FenError::CastlingLetter { letter });
            }
            return Err(PositionError::CastlingSameSide {
                first: given[index],
                second: letter,
            }
            .into());
        }
        given[index] = letter;
        rights = rights.with(color, kingside);
        geometry = geometry.with_right(color, kingside, king.file(), rook_file);
    }
    // Here a letter named an inner or off-corner rook or a file: `standard_castling` took
    // the rest.
    let geometry = geometry.canonical(rights.bits());
    let chess960 = file_letters || geometry.is_nonstandard();
    Ok((rights, geometry.with_chess960(chess960)))
}

fn parse_ep(text: &str, board: &Board, side: Color) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let square: Square = text.parse().map_err(|_| FenError::EnPassantSyntax)?;
    // (rank of the square, direction towards the pawn that moved)
    let (rank, toward_pawn): (u8, i32) = match side {
        Color::White => (5, -8),
        Color::Black => (2, 8),
    };
    if square.rank() != rank {
        return Err(PositionError::EnPassantRank { square }.into());
    }
    let pawn = Square::from_index((square.index() as i32 + toward_pawn) as u32);
    let origin = Square::from_index((square.index() as i32 - toward_pawn) as u32);
    let pawn_there = board.bits(!side, Piece::Pawn) & pawn.bit() != 0;
    let path_empty = board.occupied_bits() & (square.bit() | origin.bit()) == 0;
    if !pawn_there || !path_empty {
        return Err(PositionError::EnPassantNoPawn { square }.into());
    }
    Ok(Some(square))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The one-pass reader gives every FEN the slow reader's position or error: well-formed
    /// FENs (which it must take itself) and each of them with one byte changed, removed or
    /// doubled (which it mostly leaves to the slow reader).
    #[test]
    fn fast_and_slow_readers_agree() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1r3k2/8/8/8/8/8/8/R4KR1 w GAb - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 17",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // Promoted pieces (material beyond the starting set) and a triple check.
            "QQQ1k3/1N6/8/8/8/8/8/RR2K1NN b - - 0 60",
            "4k3/8/3N1N2/8/4R3/8/8/4K3 b - - 0 1",
        ];
        let replacements = b"/ 12789pPkKqQ-wb\t\nx";
        let mut fast = 0;
        let mut checked = 0;
        for fen in fens {
            let fields = fast_fields(fen).expect("a well-formed FEN takes the fast path");
            assert_eq!(fields.position(), from_fen_slow(fen), "{fen}");
            let bytes = fen.as_bytes();
            let mut variants: Vec<Vec<u8>> = Vec::new();
            for i in 0..bytes.len() {
                for &r in replacements {
                    let mut v = bytes.to_vec();
                    v[i] = r;
                    variants.push(v);
                }
                let mut removed = bytes.to_vec();
                removed.remove(i);
                variants.push(removed);
                let mut doubled = bytes.to_vec();
                doubled.insert(i, bytes[i]);
                variants.push(doubled);
            }
            for variant in variants {
                let text = String::from_utf8(variant).expect("ASCII");
                let slow = from_fen_slow(&text);
                if let Some(fields) = fast_fields(&text) {
                    fast += 1;
                    assert_eq!(fields.position(), slow, "{text:?}");
                }
                assert_eq!(Position::from_fen(&text), slow, "{text:?}");
                checked += 1;
            }
        }
        assert!(fast > 1000 && checked > 5000, "{fast} fast of {checked}");
    }
}
