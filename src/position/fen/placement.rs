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
        let kings = board.bits(color, Piece::King);
        // One bit set, tested without counting (the x86-64 baseline has no POPCNT).
        if kings == 0 || kings & (kings - 1) != 0 {
            let count = kings.count_ones();
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

/// What a placement byte is, for [`read_placement`]: bits 0-3 the slot of `bits` it marks
/// (a piece's Polyglot kind: black pawn 0, white pawn 1, … white king 11; [`DIGIT_SLOT`],
/// [`SLASH_SLOT`] or [`BAD_SLOT`]), bits 8-9 the flags that two in a row make wrong, bits
/// 28-31 how many squares it fills (a shift alone reads them).
const PLACEMENT_BYTES: [u32; 256] = {
    let mut table = [BAD_SLOT; 256];
    let mut digit = 1;
    while digit <= 8 {
        table[(b'0' + digit) as usize] = DIGIT | DIGIT_SLOT | (digit as u32) << SQUARES;
        digit += 1;
    }
    table[b'/' as usize] = SLASH | SLASH_SLOT;
    let letters = *b"pnbrqk";
    let mut i = 0;
    while i < 6 {
        let black = 2 * i as u32;
        table[letters[i] as usize] = black | 1 << SQUARES;
        table[letters[i].to_ascii_uppercase() as usize] = (black + 1) | 1 << SQUARES;
        i += 1;
    }
    table
};
/// The Polyglot piece keys by [`read_placement`]'s slot and square in reading order (a8 = 0),
/// zero for the slots that are not pieces: each byte XORs one in, so the key needs no loop
/// over each kind's squares (whose exits a predictor cannot guess).
static READING_KEYS: [u64; 16 * 64] = {
    let mut keys = [0; 16 * 64];
    let mut i = 0;
    while i < 12 * 64 {
        // Reading order to a bitboard's square: the rank flips (a8: 0 to 56).
        keys[i] = POLYGLOT_KEYS[(i & !63) | ((i & 63) ^ 56)];
        i += 1;
    }
    keys
};
/// The slots of `bits` in [`read_placement`] that are not pieces: where digits start (not
/// read), where slashes stand, and where bytes that have no place in a placement stand.
const DIGIT_SLOT: u32 = 12;
const SLASH_SLOT: u32 = 13;
const BAD_SLOT: u32 = 14;
const DIGIT: u32 = 1 << 8;
const SLASH: u32 = 1 << 9;
/// The shift of a byte's square count in its code.
const SQUARES: u32 = 28;

/// The board of a well-formed placement at the start of `fen`, its pieces' Zobrist key and
/// where it ends (at the end or the first space), in one pass with no branch a byte (which
/// byte comes next is what a predictor cannot guess). `None` if the placement is not
/// well-formed: [`slow_placement`] names what is wrong (its checks decide which error
/// comes first).
#[inline]
pub(super) fn read_placement(fen: &[u8]) -> Option<(Board, u64, usize)> {
    // Indexed by slot, squares in reading order (a8 = 0, h8 = 7, a7 = 8, h1 = 63): a byte
    // swap at the end turns them into bitboards. Each byte is one store and one key XOR,
    // whatever it is.
    let mut bits = [0u64; 16];
    let mut at: u32 = 0;
    // Flags of every two bytes in a row: two digits, or two slashes (the only way two
    // slashes share a square).
    let mut pairs = 0u32;
    let mut previous = 0u32;
    let mut len = 0;
    let mut key = 0;
    while let Some(&byte) = fen.get(len) {
        if byte == b' ' {
            break;
        }
        let code = PLACEMENT_BYTES[byte as usize];
        bits[(code & 15) as usize] |= 1 << (at & 63);
        key ^= READING_KEYS[((code & 15) << 6 | (at & 63)) as usize];
        pairs |= code & previous;
        previous = code;
        at += code >> SQUARES;
        len += 1;
    }
    // Slashes exactly at 8, 16, ... 56 when each rank fills eight squares.
    let slashes = 0x0101_0101_0101_0100;
    if pairs & (DIGIT | SLASH) != 0
        || at != 64
        || bits[SLASH_SLOT as usize] != slashes
        || bits[BAD_SLOT as usize] != 0
    {
        return None;
    }
    let mut board = Board::empty();
    for (i, piece) in Piece::ALL.into_iter().enumerate() {
        board.toggle(Color::Black, piece, bits[2 * i].swap_bytes());
        board.toggle(Color::White, piece, bits[2 * i + 1].swap_bytes());
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
        if within_starting_set(board, color) {
            continue;
        }
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

/// Whether `color` has no more of each piece than the starting set (one king, checked
/// before): then none of [`check_material`]'s errors can apply. Most positions are so, and
/// the test counts only the pawns.
fn within_starting_set(board: &Board, color: Color) -> bool {
    let at_most_one = |bits: u64| bits & bits.wrapping_sub(1) == 0;
    let at_most_two =
        |piece| at_most_one(board.bits(color, piece) & board.bits(color, piece).wrapping_sub(1));
    board.bits(color, Piece::Pawn).count_ones() <= 8
        && at_most_one(board.bits(color, Piece::Queen))
        && at_most_two(Piece::Rook)
        && at_most_two(Piece::Bishop)
        && at_most_two(Piece::Knight)
}
