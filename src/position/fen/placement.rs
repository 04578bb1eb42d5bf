//! The placement field: read into a board in one branch-free pass (with its pieces' Zobrist
//! key), or rank by rank to name what is wrong; then what stands on it checked.

use super::{FenError, PositionError};
use crate::base::attacks::POLYGLOT_KEYS;
use crate::base::board::Board;
use crate::base::types::{Color, Piece, Square};

pub(super) fn parse_placement(placement: &str) -> Result<Board, FenError> {
    let board = match read_placement(placement.as_bytes()) {
        Some((board, _, end)) if end == placement.len() => board,
        _ => slow_placement(placement)?,
    };
    check_board(&board)?;
    Ok(board)
}

/// One king of each colour, no pawn on a back rank, material some game could have.
pub(super) fn check_board(board: &Board) -> Result<(), PositionError> {
    for color in [Color::White, Color::Black] {
        let count = board.bits(color, Piece::King).count_ones();
        if count != 1 {
            return Err(PositionError::KingCount { color, count });
        }
    }
    let pawns = board.bits(Color::White, Piece::Pawn) | board.bits(Color::Black, Piece::Pawn);
    let back_ranks = 0xFF00_0000_0000_00FF;
    if let Some(square) = crate::base::types::Bitboard(pawns & back_ranks)
        .into_iter()
        .next()
    {
        return Err(PositionError::PawnOnBackRank { square });
    }
    check_material(board)
}

/// What a placement byte is, for [`read_placement`]: bits 0-3 the piece's Polyglot kind
/// (black pawn 0, white pawn 1, … white king 11) or [`NO_PIECE`], bits 4-7 how many squares
/// it fills, bits 8-10 flags, bits 16-25 the kind's first key (64 × kind), bit 31 a piece.
const PLACEMENT_BYTES: [u32; 256] = {
    let mut table = [BAD | NO_PIECE; 256];
    let mut digit = 1;
    while digit <= 8 {
        table[(b'0' + digit) as usize] = DIGIT | NO_PIECE | (digit as u32) << 4;
        digit += 1;
    }
    table[b'/' as usize] = SLASH | NO_PIECE;
    let letters = *b"pnbrqk";
    let mut i = 0;
    while i < 6 {
        let black = 2 * i as u32;
        table[letters[i] as usize] = piece_code(black);
        table[letters[i].to_ascii_uppercase() as usize] = piece_code(black + 1);
        i += 1;
    }
    table
};
/// The [`PLACEMENT_BYTES`] entry of a piece of Polyglot kind `kind`.
const fn piece_code(kind: u32) -> u32 {
    PIECE | kind | 1 << 4 | (64 * kind) << 16
}
/// The kind of a byte that is not a piece: a thirteenth, unused, set of bits.
const NO_PIECE: u32 = 12;
const DIGIT: u32 = 1 << 8;
const SLASH: u32 = 1 << 9;
const BAD: u32 = 1 << 10;
const PIECE: u32 = 1 << 31;

/// The board of a well-formed placement at the start of `fen`, its pieces' Zobrist key and
/// where it ends (at the end or the first space), in one pass with no branch a byte (which
/// byte comes next is what a predictor cannot guess). `None` if the placement is not
/// well-formed: [`slow_placement`] names what is wrong (its checks decide which error
/// comes first).
#[inline]
pub(super) fn read_placement(fen: &[u8]) -> Option<(Board, u64, usize)> {
    // Indexed by Polyglot kind; the rest take what is not a piece (16: no bounds check).
    let mut bits = [0u64; 16];
    let mut key = 0u64;
    let keys = &POLYGLOT_KEYS[..768];
    // Squares in reading order: a8 = 0, h8 = 7, a7 = 8, h1 = 63.
    let mut at: u32 = 0;
    // Where slashes stood: exactly at 8, 16, ... 56 when each rank fills eight squares.
    let mut slashes = 0u64;
    let mut previous = 0u32;
    let mut bad = 0u32;
    let mut len = fen.len();
    for (i, &byte) in fen.iter().enumerate() {
        if byte == b' ' {
            len = i;
            break;
        }
        let code = PLACEMENT_BYTES[byte as usize];
        let square = (at ^ 56) & 63;
        bits[(code & 15) as usize] |= 1 << square;
        // Every byte XORs a key, so no branch guards the load: a piece its own, anything
        // else key 0, taken out again after the loop when their number is odd.
        let on_square = (code >> 31).wrapping_neg() & square;
        key ^= keys[(code >> 16 & 1023) as usize + on_square as usize];
        // Two digits in a row, or two slashes (the only way two share a square).
        bad |= code & BAD | code & previous & (DIGIT | SLASH);
        slashes |= u64::from(code >> 9 & 1) << (at & 63);
        previous = code;
        at += code >> 4 & 15;
    }
    if bad != 0 || at != 64 || slashes != 0x0101_0101_0101_0100 {
        return None;
    }
    let pieces = bits[..12]
        .iter()
        .map(|b| b.count_ones() as usize)
        .sum::<usize>();
    if (len - pieces) % 2 == 1 {
        key ^= keys[0];
    }
    let mut board = Board::empty();
    for (i, piece) in Piece::ALL.into_iter().enumerate() {
        board.toggle(Color::Black, piece, bits[2 * i]);
        board.toggle(Color::White, piece, bits[2 * i + 1]);
    }
    Some((board, key, len))
}

/// The placement read rank by rank, with the error for whatever is wrong with it.
#[cold]
fn slow_placement(placement: &str) -> Result<Board, FenError> {
    let ranks = placement.split('/').count();
    if ranks != 8 {
        return Err(FenError::RankCount { found: ranks });
    }
    let mut board = Board::empty();
    for (row, text) in placement.split('/').enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0usize;
        let mut after_digit = false;
        for letter in text.chars() {
            if let Some(skip) = letter.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if after_digit {
                    return Err(FenError::AdjacentDigits { rank: rank + 1 });
                }
                after_digit = true;
                file += skip as usize;
                continue;
            }
            after_digit = false;
            let piece =
                Piece::from_char(letter.to_ascii_lowercase()).ok_or(FenError::PieceLetter {
                    rank: rank + 1,
                    letter,
                })?;
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if let Some(square) = Square::from_file_rank(file as u8, rank) {
                board.put(square, color, piece);
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                files: file,
            });
        }
    }
    Ok(board)
}

/// Each side's material as a game can leave it (see the module docs): at most 16 pieces, at
/// most 8 pawns, and no more pieces beyond the starting set than pawns are missing.
fn check_material(board: &Board) -> Result<(), PositionError> {
    for color in [Color::White, Color::Black] {
        let count = board.color_bits(color).count_ones();
        if count > 16 {
            return Err(PositionError::TooManyPieces { color, count });
        }
        let pawns = board.bits(color, Piece::Pawn).count_ones();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let beyond =
            |piece, start: u32| board.bits(color, piece).count_ones().saturating_sub(start);
        let promoted = beyond(Piece::Queen, 1)
            + beyond(Piece::Rook, 2)
            + beyond(Piece::Bishop, 2)
            + beyond(Piece::Knight, 2);
        if promoted > 8 - pawns {
            return Err(PositionError::TooManyPromoted {
                color,
                promoted,
                pawns,
            });
        }
    }
    Ok(())
}
