//! The attack tables baked by `build.rs`: knight and king attacks, `BETWEEN`, pawn attacks
//! (by shifts), and the raw slider tables the two backends in [`crate::slider`] index.

use crate::base::types::BitIter;

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Per-square data of a PEXT slider lookup.
#[cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))] // one backend
pub(crate) struct PextEntry {
    /// Relevant occupancy squares.
    pub(crate) mask: u64,
    /// Start of this square's block in [`SLIDER_PEXT`].
    pub(crate) offset: usize,
}

/// Per-square data of a magic slider lookup.
#[cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))] // one backend
pub(crate) struct MagicEntry {
    /// Relevant occupancy squares.
    pub(crate) mask: u64,
    /// The multiplier found by the build-time search.
    pub(crate) magic: u64,
    /// `64 - popcount(mask)`.
    pub(crate) shift: u32,
    /// Start of this square's block in [`SLIDER_MAGIC`].
    pub(crate) offset: usize,
}

// Every square's block lies inside its table: the lookups' `get_unchecked` rests on this.
const _: () = {
    let mut square = 0;
    while square < 64 {
        let pext = [&PEXT_ROOK[square], &PEXT_BISHOP[square]];
        let magic = [&MAGIC_ROOK[square], &MAGIC_BISHOP[square]];
        let mut kind = 0;
        while kind < 2 {
            let bits = pext[kind].mask.count_ones();
            assert!(pext[kind].offset + (1 << bits) <= SLIDER_TABLE_LEN);
            assert!(magic[kind].offset + (1 << (64 - magic[kind].shift)) <= SLIDER_TABLE_LEN);
            kind += 1;
        }
        square += 1;
    }
};

/// The `u64` values of a table `build.rs` wrote in the target's byte order: evaluated at
/// compile time, and the byte count must be exactly the table's.
const fn table(bytes: &[u8; SLIDER_TABLE_LEN * 8]) -> [u64; SLIDER_TABLE_LEN] {
    let (words, _) = bytes.as_chunks::<8>();
    let mut table = [0; SLIDER_TABLE_LEN];
    let mut i = 0;
    while i < SLIDER_TABLE_LEN {
        table[i] = u64::from_ne_bytes(words[i]);
        i += 1;
    }
    table
}

/// The slider attacks of every square and blocker set, at the PEXT index.
#[cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))] // one backend
pub(crate) static SLIDER_PEXT: [u64; SLIDER_TABLE_LEN] =
    table(include_bytes!(concat!(env!("OUT_DIR"), "/slider_pext.bin")));

/// The slider attacks of every square and blocker set, at the magic index.
#[cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))] // one backend
pub(crate) static SLIDER_MAGIC: [u64; SLIDER_TABLE_LEN] = table(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/slider_magic.bin"
)));

/// Every square but the a-file.
pub(crate) const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
/// Every square but the h-file.
pub(crate) const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// Squares attacked by a knight on `square`.
#[inline(always)]
pub(crate) fn knight(square: usize) -> u64 {
    KNIGHT_ATTACKS[square & 63]
}

/// Squares attacked by a knight on any square of `squares`.
#[inline(always)]
pub(crate) fn knights(squares: u64) -> u64 {
    let mut attacked = 0;
    for square in BitIter(squares) {
        attacked |= knight(square);
    }
    attacked
}

/// Squares attacked by a king on `square`.
#[inline(always)]
pub(crate) fn king(square: usize) -> u64 {
    KING_ATTACKS[square & 63]
}

/// Squares a rook on `square` attacks on an empty board.
#[inline(always)]
pub(crate) fn rook_rays(square: usize) -> u64 {
    ROOK_RAYS[square & 63]
}

/// Squares a bishop on `square` attacks on an empty board.
#[inline(always)]
pub(crate) fn bishop_rays(square: usize) -> u64 {
    BISHOP_RAYS[square & 63]
}

/// Squares strictly between `a` and `b` on a shared line, else empty.
#[inline(always)]
pub(crate) fn between(a: usize, b: usize) -> u64 {
    BETWEEN[a & 63][b & 63]
}

/// Squares a pawn of colour `white` standing on `square` attacks.
#[inline(always)]
pub(crate) fn pawn_attacks_from(square: usize, white: bool) -> u64 {
    PAWN_ATTACKS[!white as usize][square & 63]
}

/// Squares attacked by `white`'s pawns standing on `pawns`.
#[inline(always)]
pub(crate) const fn pawn_attacks(pawns: u64, white: bool) -> u64 {
    if white {
        ((pawns & NOT_FILE_A) << 7) | ((pawns & NOT_FILE_H) << 9)
    } else {
        ((pawns & NOT_FILE_A) >> 9) | ((pawns & NOT_FILE_H) >> 7)
    }
}

/// The squares directly beside (same rank, adjacent file) some square of `pieces`: where a
/// double-pushed pawn can be taken en passant by a pawn of `pieces`.
#[inline(always)]
pub(crate) const fn beside(pieces: u64) -> u64 {
    ((pieces & NOT_FILE_A) >> 1) | ((pieces & NOT_FILE_H) << 1)
}

/// The squares of `squares` and every square a king on one of them steps to.
#[inline(always)]
pub(crate) const fn king_area(squares: u64) -> u64 {
    let row = squares | beside(squares);
    row | row << 8 | row >> 8
}

/// Shifts a bitboard by a signed square delta (`+8` is one rank up).
#[inline(always)]
pub(crate) const fn shift(bits: u64, delta: i8) -> u64 {
    if delta >= 0 {
        bits << delta
    } else {
        bits >> -delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use constmove_tables as math;

    /// Every baked table entry against the slow ray walk, for a spread of occupancies.
    #[test]
    fn baked_tables_match_the_ray_walk() {
        let mut rng = math::XorShift::new(7);
        for square in 0..64u8 {
            assert_eq!(
                knight(square as usize),
                math::leaper_attacks(square, &math::KNIGHT_JUMPS)
            );
            assert_eq!(
                king(square as usize),
                math::leaper_attacks(square, &math::KING_STEPS)
            );
            for other in 0..64u8 {
                assert_eq!(
                    between(square as usize, other as usize),
                    math::between(square, other)
                );
            }
            for white in [true, false] {
                assert_eq!(
                    pawn_attacks_from(square as usize, white),
                    pawn_attacks(1 << square, white)
                );
            }
            assert_eq!(
                rook_rays(square as usize),
                math::slider_attacks(square, 0, &math::ROOK_DIRECTIONS)
            );
            assert_eq!(
                bishop_rays(square as usize),
                math::slider_attacks(square, 0, &math::BISHOP_DIRECTIONS)
            );
            for (pext, magic, dirs) in [
                (&PEXT_ROOK, &MAGIC_ROOK, &math::ROOK_DIRECTIONS),
                (&PEXT_BISHOP, &MAGIC_BISHOP, &math::BISHOP_DIRECTIONS),
            ] {
                let p = &pext[square as usize];
                let m = &magic[square as usize];
                assert!(p.offset + (1 << p.mask.count_ones()) <= SLIDER_TABLE_LEN);
                assert!(m.offset + (1 << (64 - m.shift)) <= SLIDER_TABLE_LEN);
                for _ in 0..200 {
                    let occupied = rng.next_u64() & rng.next_u64();
                    let expected = math::slider_attacks(square, occupied, dirs);
                    let pext_index = math::pext(occupied, p.mask) as usize;
                    assert_eq!(SLIDER_PEXT[p.offset + pext_index], expected);
                    let magic_index =
                        ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
                    assert_eq!(SLIDER_MAGIC[m.offset + magic_index], expected);
                }
            }
        }
    }
}
