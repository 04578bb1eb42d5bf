//! Where each castle's king and rook start and which squares it needs, for standard chess
//! and Chess960 alike: [`CastlingGeometry`]. It rides in the board's padding, so copy-make
//! hands it to every node of a walk without an argument, and standard chess reads the same
//! constant values it always did.

use crate::base::types::{Color, Square};

/// The index of a right, in the order of the rights' bits: White king side, White queen
/// side, Black king side, Black queen side.
#[inline(always)]
pub(crate) const fn right_index(color: Color, kingside: bool) -> usize {
    2 * color as usize + if kingside { 0 } else { 1 }
}

/// The king's and the rook's files after a castle to that side (the same in Chess960).
pub(crate) const fn destination_files(kingside: bool) -> (u8, u8) {
    if kingside { (6, 5) } else { (2, 3) }
}

/// The files from `a` to `b`, both included, as a back-rank mask.
const fn span(a: u8, b: u8) -> u8 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    // Bits low..=high: all bits up to high, minus those below low.
    ((0xFFu16 >> (7 - high)) as u8) & (0xFFu8 << low)
}

/// Some held right's king or rook is not on its standard square.
const NONSTANDARD: u8 = 1;
/// Chess960 rules: castles are written king-takes-rook, FEN castling with file letters
/// where `KQkq` would be ambiguous.
const CHESS960: u8 = 2;

/// The squares of the four castles: per right, the rook's start file, the back-rank files
/// that must be empty apart from that king and rook, and the files the king passes over or
/// lands on (its start excluded: that one is "not in check"); per colour, the king's start
/// file. Destinations are standard chess's in Chess960 too (king g/c, rook f/d). 16 bytes, the
/// padding of [`crate::Board`].
///
/// Canonical form: the entries of rights not held are the standard ones, so two boards with
/// the same pieces and rights compare equal. [`CastlingGeometry::canonical`] restores it
/// after a right is lost.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct CastlingGeometry {
    rook_file: [u8; 4],
    block: [u8; 4],
    safe: [u8; 4],
    king_file: [u8; 2],
    flags: u8,
    spare: u8,
}

static_assertions::assert_eq_size!(CastlingGeometry, [u8; 16]);

impl Default for CastlingGeometry {
    fn default() -> CastlingGeometry {
        CastlingGeometry::STANDARD
    }
}

impl CastlingGeometry {
    /// Standard chess: kings on e1/e8, rooks in the corners.
    pub(crate) const STANDARD: CastlingGeometry = {
        let mut geometry = CastlingGeometry {
            rook_file: [0; 4],
            block: [0; 4],
            safe: [0; 4],
            king_file: [4, 4],
            flags: 0,
            spare: 0,
        };
        let mut index = 0;
        while index < 4 {
            let kingside = index & 1 == 0;
            geometry = geometry.with_entry(index, 4, if kingside { 7 } else { 0 });
            index += 1;
        }
        geometry
    };

    /// This geometry with right `index`'s king on `king_file` and rook on `rook_file`.
    const fn with_entry(mut self, index: usize, king_file: u8, rook_file: u8) -> Self {
        let (king_to, rook_to) = destination_files(index & 1 == 0);
        let king_path = span(king_file, king_to);
        let rook_path = span(rook_file, rook_to);
        let movers = 1 << king_file | 1 << rook_file;
        self.rook_file[index] = rook_file;
        self.block[index] = (king_path | rook_path) & !movers;
        self.safe[index] = king_path & !(1 << king_file);
        self.king_file[index / 2] = king_file;
        self
    }

    /// This geometry with `color`'s castle to the `kingside` (or queen side) made by its king
    /// on `king_file` and the rook on `rook_file` (both on its back rank).
    pub(crate) const fn with_right(
        self,
        color: Color,
        kingside: bool,
        king_file: u8,
        rook_file: u8,
    ) -> Self {
        self.with_entry(right_index(color, kingside), king_file, rook_file)
    }

    /// The same squares under Chess960 rules (`chess960`) or standard ones.
    pub(crate) const fn with_chess960(mut self, chess960: bool) -> Self {
        self.flags = if chess960 {
            self.flags | CHESS960
        } else {
            self.flags & !CHESS960
        };
        self
    }

    /// The canonical form for the rights in `rights` (bits as `CastlingRights::bits`): the
    /// other rights' entries standard, and the flag of non-standard squares recomputed. With
    /// no right left the rules no longer differ, so it is standard chess's.
    pub(crate) const fn canonical(self, rights: u8) -> Self {
        if rights & 0b1111 == 0 {
            return CastlingGeometry::STANDARD;
        }
        let mut geometry = CastlingGeometry::STANDARD.with_chess960(self.flags & CHESS960 != 0);
        let mut index = 0;
        while index < 4 {
            if rights & 1 << index != 0 {
                let king_file = self.king_file[index / 2];
                let rook_file = self.rook_file[index];
                geometry = geometry.with_entry(index, king_file, rook_file);
                let standard_rook = if index & 1 == 0 { 7 } else { 0 };
                if king_file != 4 || rook_file != standard_rook {
                    geometry.flags |= NONSTANDARD;
                }
            }
            index += 1;
        }
        geometry
    }

    /// Whether some right held is castled from other squares than standard chess's.
    #[inline(always)]
    pub(crate) const fn is_nonstandard(&self) -> bool {
        self.flags & NONSTANDARD != 0
    }

    /// Whether Chess960 rules apply (castles written king-takes-rook).
    #[inline(always)]
    pub(crate) const fn is_chess960(&self) -> bool {
        self.flags & CHESS960 != 0
    }

    /// The start square of `color`'s rook for the castle to the `kingside` or queen side.
    #[inline(always)]
    pub(crate) const fn rook_square(&self, color: Color, kingside: bool) -> Square {
        let file = self.rook_file[right_index(color, kingside)];
        Square::from_index(back_rank(color) + file as u32)
    }

    /// The start file of `color`'s king (e unless a right says otherwise).
    #[inline(always)]
    pub(crate) const fn king_file(&self, color: Color) -> u8 {
        self.king_file[color as usize]
    }

    /// What `color`'s castle to the `kingside` (or queen side) is written as: the king's
    /// destination in standard rules, the castling rook's square in Chess960 rules.
    #[inline(always)]
    pub(crate) const fn castle_target(&self, color: Color, kingside: bool) -> Square {
        if self.is_chess960() {
            self.rook_square(color, kingside)
        } else {
            Square::from_index(back_rank(color) + destination_files(kingside).0 as u32)
        }
    }

    /// The squares of `color`'s castle written `king_from` → `target`: the king's destination
    /// in standard rules, the rook's square in Chess960 rules; the side is where `target`
    /// lies from the king either way.
    #[inline(always)]
    pub(crate) const fn castle_squares(
        &self,
        color: Color,
        king_from: Square,
        target: Square,
    ) -> CastleSquares {
        let kingside = target.file() > king_from.file();
        let (king_to, rook_to) = destination_files(kingside);
        let base = back_rank(color);
        CastleSquares {
            king_to: Square::from_index(base + king_to as u32),
            rook_from: self.rook_square(color, kingside),
            rook_to: Square::from_index(base + rook_to as u32),
        }
    }

    /// The rights (bits as `CastlingRights::bits`) a move `from` → `to` ends: a right whose
    /// rook leaves or is taken, both of a side's rights when its king moves (a right held
    /// means the king is on its start square).
    pub(crate) const fn rights_lost(&self, from: Square, to: Square) -> u8 {
        let mut lost = 0;
        let mut index = 0;
        while index < 4 {
            let color = if index < 2 {
                Color::White
            } else {
                Color::Black
            };
            let rook = back_rank(color) + self.rook_file[index] as u32;
            let king = back_rank(color) + self.king_file[index / 2] as u32;
            let (from, to) = (from.index() as u32, to.index() as u32);
            if from == rook || to == rook || from == king {
                lost |= 1 << index;
            }
            index += 1;
        }
        lost
    }

    /// The squares on `color`'s back rank that must be empty but for the king and the rook.
    #[inline(always)]
    pub(crate) const fn block(&self, color: Color, kingside: bool) -> u64 {
        (self.block[right_index(color, kingside)] as u64) << back_rank(color)
    }

    /// Whether `color`'s castle to the `kingside` (or queen side) has its way clear, given its
    /// back rank as one bit per file: `occupied` (everything but the king) and `pinned` (the
    /// rank-and-file pin mask). The squares between must be empty and the rook not pinned
    /// where that is not caught by the path and the king's safe squares.
    #[inline(always)]
    pub(crate) const fn path_open(
        &self,
        color: Color,
        kingside: bool,
        occupied: u8,
        pinned: u8,
    ) -> bool {
        let index = right_index(color, kingside);
        // A pinned rook matters only on b, pinned from a: b empties and a sees c, where the
        // king lands. Any other pinned rook leaves its pinner on the path or seeing a square
        // the king crosses or lands on, and a pin line through b is that case or one of those.
        let b_pin = if kingside { 0 } else { 0b10 };
        (occupied & self.block[index]) | (pinned & b_pin) == 0
    }

    /// The squares the king passes over or lands on, its start excluded.
    #[inline(always)]
    pub(crate) const fn safe(&self, color: Color, kingside: bool) -> u64 {
        (self.safe[right_index(color, kingside)] as u64) << back_rank(color)
    }
}

/// Where a castle's king and rook go: from [`CastlingGeometry::castle_squares`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct CastleSquares {
    /// The king's destination (g or c).
    pub(crate) king_to: Square,
    /// The rook's start square.
    pub(crate) rook_from: Square,
    /// The rook's destination (f or d).
    pub(crate) rook_to: Square,
}

/// The index of the a-file square of `color`'s back rank.
const fn back_rank(color: Color) -> u32 {
    match color {
        Color::White => 0,
        Color::Black => 56,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::geometry::{KING_SIDE_PATH, QUEEN_SIDE_KING_SQUARES, QUEEN_SIDE_PATH};

    #[test]
    fn standard_squares_are_the_fixed_paths() {
        let geometry = CastlingGeometry::STANDARD;
        for color in [Color::White, Color::Black] {
            let shift = back_rank(color);
            assert_eq!(geometry.block(color, true), KING_SIDE_PATH << shift);
            assert_eq!(geometry.safe(color, true), KING_SIDE_PATH << shift);
            assert_eq!(geometry.block(color, false), QUEEN_SIDE_PATH << shift);
            assert_eq!(
                geometry.safe(color, false),
                QUEEN_SIDE_KING_SQUARES << shift
            );
            assert_eq!(geometry.king_file(color), 4);
        }
        assert_eq!(geometry.rook_square(Color::Black, false).to_string(), "a8");
        assert!(!geometry.is_nonstandard() && !geometry.is_chess960());
        assert_eq!(geometry.canonical(0b1111), geometry);
    }

    #[test]
    fn castle_squares_from_either_notation() {
        let square = |name: &str| name.parse::<Square>().unwrap();
        let standard = CastlingGeometry::STANDARD;
        let queen_side = standard.castle_squares(Color::Black, square("e8"), square("c8"));
        assert_eq!(
            queen_side,
            CastleSquares {
                king_to: square("c8"),
                rook_from: square("a8"),
                rook_to: square("d8"),
            }
        );
        // King f1 and rook g1 swap; king-takes-rook names g1.
        let swap = standard.with_right(Color::White, true, 5, 6);
        let squares = swap.castle_squares(Color::White, square("f1"), square("g1"));
        assert_eq!(
            (squares.king_to, squares.rook_from, squares.rook_to),
            (square("g1"), square("g1"), square("f1"))
        );
        assert_eq!(swap.rights_lost(square("g1"), square("g3")), 0b0001);
        assert_eq!(swap.rights_lost(square("f1"), square("f2")), 0b0011);
        assert_eq!(swap.rights_lost(square("a3"), square("a1")), 0b0010);
        assert_eq!(swap.rights_lost(square("b2"), square("b3")), 0);
    }

    #[test]
    fn chess960_paths_leave_out_king_and_rook() {
        // King b1, rooks a1 and c1. Queen side: the king goes to c1 (the other rook's
        // square) and the rook from a1 over b1 to d1, so c1 and d1 must be empty apart from
        // those two pieces, and only c1 must be safe.
        let geometry = CastlingGeometry::STANDARD
            .with_right(Color::White, false, 1, 0)
            .with_right(Color::White, true, 1, 2)
            .canonical(0b0011);
        assert!(geometry.is_nonstandard());
        assert_eq!(geometry.block(Color::White, false), 0b1100);
        assert_eq!(geometry.safe(Color::White, false), 0b0100);
        // King side with the rook on c1: king b1 to g1 over c1..g1, rook c1 to f1.
        assert_eq!(geometry.block(Color::White, true), 0b0111_1000);
        assert_eq!(geometry.safe(Color::White, true), 0b0111_1100);
        // A king that does not move (g1, rook h1) needs no safe square but its own.
        let still = CastlingGeometry::STANDARD.with_right(Color::Black, true, 6, 7);
        assert_eq!(still.safe(Color::Black, true), 0);
        assert_eq!(still.block(Color::Black, true), 1 << (56 + 5));
        // Dropping the rights drops the squares.
        assert_eq!(geometry.canonical(0), CastlingGeometry::STANDARD);
    }
}
