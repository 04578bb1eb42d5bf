//! Attack lookups for engines: sliders with an occupancy, leapers, pawns, and the squares
//! between two squares or on the line through them. Sliders use the slider layer's portable
//! lookup, chosen at compile time: PEXT in a build whose target has BMI2 (`-C target-cpu`
//! with BMI2), magics otherwise (a few instructions on every CPU). No call asks the CPU
//! anything, so they fit the hot path of a search.
//!
//! # Examples
//! ```
//! use constmove::{attacks, Bitboard, Color, Position, Square};
//! let pos = Position::startpos();
//! let d1: Square = "d1".parse().unwrap();
//! // The queen is boxed in by her own pieces.
//! let occupied = pos.board().occupied();
//! assert_eq!((attacks::queen(d1, occupied) & !occupied).count(), 0);
//! assert_eq!(attacks::knight("g1".parse().unwrap()).count(), 3);
//! assert_eq!(attacks::pawn(Color::White, "e2".parse().unwrap()).count(), 2);
//! ```

use crate::base::attacks as tables;
use crate::base::types::{Bitboard, Color, Square};
use crate::slider::{Lookup, Portable};

/// The squares a rook on `square` attacks when `occupied` holds the pieces (blockers
/// included: they may be captures).
///
/// # Examples
/// ```
/// use constmove::{attacks, Bitboard, Square};
/// let a1: Square = "a1".parse().unwrap();
/// assert_eq!(attacks::rook(a1, Bitboard(0)).count(), 14);
/// let blocker: Square = "a3".parse().unwrap();
/// assert_eq!(attacks::rook(a1, blocker.bitboard()).count(), 9); // a2, a3, b1-h1
/// ```
#[inline]
pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(Portable::rook(square.index(), occupied.0))
}

/// The squares a bishop on `square` attacks when `occupied` holds the pieces.
///
/// # Examples
/// ```
/// use constmove::{attacks, Bitboard};
/// assert_eq!(attacks::bishop("d4".parse().unwrap(), Bitboard(0)).count(), 13);
/// ```
#[inline]
pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(Portable::bishop(square.index(), occupied.0))
}

/// The squares a queen on `square` attacks when `occupied` holds the pieces.
///
/// # Examples
/// ```
/// use constmove::{attacks, Bitboard};
/// assert_eq!(attacks::queen("d4".parse().unwrap(), Bitboard(0)).count(), 27);
/// ```
#[inline]
pub fn queen(square: Square, occupied: Bitboard) -> Bitboard {
    let (index, occupied) = (square.index(), occupied.0);
    Bitboard(Portable::rook(index, occupied) | Portable::bishop(index, occupied))
}

/// The squares a knight on `square` attacks.
///
/// # Examples
/// ```
/// use constmove::attacks;
/// assert_eq!(attacks::knight("a1".parse().unwrap()).count(), 2);
/// ```
#[inline]
pub fn knight(square: Square) -> Bitboard {
    Bitboard(tables::knight(square.index()))
}

/// The squares a king on `square` attacks.
///
/// # Examples
/// ```
/// use constmove::attacks;
/// assert_eq!(attacks::king("e1".parse().unwrap()).count(), 5);
/// ```
#[inline]
pub fn king(square: Square) -> Bitboard {
    Bitboard(tables::king(square.index()))
}

/// The squares a pawn of `color` on `square` attacks (diagonally forward).
///
/// # Examples
/// ```
/// use constmove::{attacks, Color};
/// let e4 = "e4".parse().unwrap();
/// let hits: Vec<String> = attacks::pawn(Color::Black, e4).into_iter().map(|s| s.to_string()).collect();
/// assert_eq!(hits, ["d3", "f3"]);
/// assert_eq!(attacks::pawn(Color::White, "a2".parse().unwrap()).count(), 1);
/// ```
#[inline]
pub fn pawn(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::pawn_attacks_from(
        square.index(),
        color == Color::White,
    ))
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal;
/// empty otherwise (and for neighbours).
///
/// # Examples
/// ```
/// use constmove::attacks;
/// assert_eq!(attacks::between("a1".parse().unwrap(), "a8".parse().unwrap()).count(), 6);
/// assert!(attacks::between("a1".parse().unwrap(), "b3".parse().unwrap()).is_empty());
/// ```
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::between(a.index(), b.index()))
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b`, both
/// included; empty when they share none (or are the same square). A piece pinned to its
/// king on square `k` by a slider on `s` may move only within `line(k, s)`.
///
/// # Examples
/// ```
/// use constmove::attacks;
/// let line = attacks::line("c3".parse().unwrap(), "e5".parse().unwrap());
/// assert_eq!(line.count(), 8); // a1 to h8
/// assert!(line.contains("h8".parse().unwrap()));
/// assert!(attacks::line("a1".parse().unwrap(), "b3".parse().unwrap()).is_empty());
/// ```
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    let (a, b) = (a.index(), b.index());
    let ends = (1u64 << a) | (1u64 << b);
    let rays = if tables::rook_rays(a) & (1 << b) != 0 {
        tables::rook_rays(a) & tables::rook_rays(b)
    } else if tables::bishop_rays(a) & (1 << b) != 0 {
        tables::bishop_rays(a) & tables::bishop_rays(b)
    } else {
        return Bitboard(0);
    };
    Bitboard(rays | ends)
}
