//! The fixed squares of standard chess that move generation, counting and the position all
//! need: pawn directions and ranks, the castling paths and rook corners of standard chess
//! (a position's own castling squares are in `base::castling`) and where the pawn taken en
//! passant stands. Colours are plain arguments: callers pass
//! constants and the `const fn`s fold away.

use crate::base::types::{Color, Square};

/// Rank 3 from the mover's side: single pushes landing here may push again.
pub(crate) const fn double_push_rank(white: bool) -> u64 {
    if white { 0xFF << 16 } else { 0xFF << 40 }
}

/// The mover's last rank.
pub(crate) const fn promotion_rank(white: bool) -> u64 {
    if white { 0xFF << 56 } else { 0xFF }
}

/// The rank from which the mover's pawns promote with their next move.
pub(crate) const fn seventh_rank(white: bool) -> u64 {
    if white { 0xFF << 48 } else { 0xFF << 8 }
}

/// The mover's back rank, where its king and rooks start (square index of a1 or a8).
pub(crate) const fn back_rank_base(white: bool) -> usize {
    if white { 0 } else { 56 }
}

/// The squares between king and rook that must be empty to castle king side (f, g) and queen
/// side (b, c, d), on the first rank; shifted by [`back_rank_base`] for either side.
pub(crate) const KING_SIDE_PATH: u64 = 0b0110_0000;
/// See [`KING_SIDE_PATH`].
pub(crate) const QUEEN_SIDE_PATH: u64 = 0b0000_1110;
/// The queen-side squares the king crosses or lands on (c, d): b need only be empty.
pub(crate) const QUEEN_SIDE_KING_SQUARES: u64 = 0b0000_1100;

/// The single-push delta of `white`'s pawns.
pub(crate) const fn pawn_push(white: bool) -> i8 {
    if white { 8 } else { -8 }
}

/// The capture deltas of `white`'s pawns: toward the a-file (white +7, black -9) and toward
/// the h-file (white +9, black -7).
pub(crate) const fn pawn_captures(white: bool) -> (i8, i8) {
    if white { (7, 9) } else { (-9, -7) }
}

/// The corner square of `color`'s rook on the king side (`kingside`) or the queen side.
#[inline(always)]
pub(crate) const fn rook_corner(color: Color, kingside: bool) -> Square {
    let base = match color {
        Color::White => 0,
        Color::Black => 56,
    };
    Square::from_index(base + if kingside { 7 } else { 0 })
}

/// The square of the pawn that an en-passant capture by `mover` onto `to` removes.
#[inline(always)]
pub(crate) const fn en_passant_victim(mover: Color, to: Square) -> Square {
    // Wrapping: a nonsense `to` (not on rank 6/3) must give some square, not a panic.
    match mover {
        Color::White => Square::from_index((to.index() as u32).wrapping_sub(8)),
        Color::Black => Square::from_index(to.index() as u32 + 8),
    }
}
