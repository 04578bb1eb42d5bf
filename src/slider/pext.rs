//! The PEXT backend: a slider's attack-table index is `pext(occupied, mask)`. Its entries are
//! compiled with BMI2 (and BMI1, POPCNT, AVX2) enabled so the lookups inline as single
//! instructions and a board is copied in 32-byte moves.

use super::SliderBackend;
use crate::attacks::{PEXT_BISHOP, PEXT_ROOK, PextEntry, SLIDER_PEXT};
use crate::board::Board;
use crate::stats::PerftStats;
use crate::status::StatusFlags;
use crate::visitor::Visitor;
use core::arch::x86_64::_pext_u64;

/// The BMI2 backend.
pub(crate) struct Pext;

#[inline(always)]
fn lookup(entry: &PextEntry, occupied: u64) -> u64 {
    // SAFETY: `SliderBackend` is crate-private and the generator calls `B::rook`/`B::bishop`
    // only from code inlined into B's entries; for `Pext` those entries are reached only
    // through `with_resolved`, after `Backend::resolve` detected BMI2.
    let index = unsafe { _pext_u64(occupied, entry.mask) } as usize;
    // SAFETY: the index is below 2^popcount(mask), and build.rs sized each square's block to
    // exactly that (asserted at compile time in the generated tables).
    unsafe { *SLIDER_PEXT.get_unchecked(entry.offset + index) }
}

impl SliderBackend for Pext {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        lookup(&PEXT_ROOK[square & 63], occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        lookup(&PEXT_BISHOP[square & 63], occupied)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    unsafe fn perft<S: StatusFlags>(board: &Board, ep: u8, depth: u32) -> u64 {
        crate::perft::node::<S, Self>(board, ep, depth)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    unsafe fn perft_depth2<S: StatusFlags>(board: &Board, ep: u8) -> u64 {
        crate::depth2::depth2_node::<S, Self>(board, ep)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    unsafe fn perft_stats<S: StatusFlags>(
        board: &Board,
        ep: u8,
        depth: u32,
        stats: &mut PerftStats,
    ) {
        crate::stats::node::<S, Self>(board, ep, depth, stats)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    unsafe fn visit<S: StatusFlags, V: Visitor>(board: &Board, ep: u8, visitor: &mut V) {
        crate::visitor::visit::<S, Self, V>(board, ep, visitor)
    }
}
