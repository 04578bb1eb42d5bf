//! The magic backend: a slider's attack-table index is `((occupied & mask) * magic) >> shift`,
//! with magics found by the build-time search. Runs on every CPU.

use super::SliderBackend;
use crate::attacks::{MAGIC_BISHOP, MAGIC_ROOK, MagicEntry, SLIDER_MAGIC};
use crate::board::Board;
use crate::stats::PerftStats;
use crate::status::StatusFlags;
use crate::visitor::Visitor;

/// The portable backend.
pub(crate) struct Magic;

#[inline(always)]
fn lookup(entry: &MagicEntry, occupied: u64) -> u64 {
    let index = ((occupied & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    // SAFETY: the index is below 2^(64 - shift), and build.rs sized each square's block to
    // exactly that (asserted at compile time in the generated tables).
    unsafe { *SLIDER_MAGIC.get_unchecked(entry.offset + index) }
}

impl SliderBackend for Magic {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        lookup(&MAGIC_ROOK[square & 63], occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        lookup(&MAGIC_BISHOP[square & 63], occupied)
    }

    unsafe fn perft<S: StatusFlags>(board: &Board, ep: u8, depth: u32) -> u64 {
        crate::perft::node::<S, Self>(board, ep, depth)
    }

    unsafe fn perft_depth2<S: StatusFlags>(board: &Board, ep: u8) -> u64 {
        crate::depth2::depth2_node::<S, Self>(board, ep)
    }

    unsafe fn perft_stats<S: StatusFlags>(
        board: &Board,
        ep: u8,
        depth: u32,
        stats: &mut PerftStats,
    ) {
        crate::stats::node::<S, Self>(board, ep, depth, stats)
    }

    unsafe fn visit<S: StatusFlags, V: Visitor>(board: &Board, ep: u8, visitor: &mut V) {
        crate::visitor::visit::<S, Self, V>(board, ep, visitor)
    }
}

/// The magic backend compiled with POPCNT (every x86-64 CPU since 2008, including the AMD
/// ones whose PEXT is slow): bulk counting without the software popcount.
#[cfg(target_arch = "x86_64")]
pub(crate) struct MagicPopcnt;

#[cfg(target_arch = "x86_64")]
impl SliderBackend for MagicPopcnt {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        Magic::rook(square, occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        Magic::bishop(square, occupied)
    }

    #[target_feature(enable = "popcnt")]
    unsafe fn perft<S: StatusFlags>(board: &Board, ep: u8, depth: u32) -> u64 {
        crate::perft::node::<S, Self>(board, ep, depth)
    }

    #[target_feature(enable = "popcnt")]
    unsafe fn perft_depth2<S: StatusFlags>(board: &Board, ep: u8) -> u64 {
        crate::depth2::depth2_node::<S, Self>(board, ep)
    }

    #[target_feature(enable = "popcnt")]
    unsafe fn perft_stats<S: StatusFlags>(
        board: &Board,
        ep: u8,
        depth: u32,
        stats: &mut PerftStats,
    ) {
        crate::stats::node::<S, Self>(board, ep, depth, stats)
    }

    #[target_feature(enable = "popcnt")]
    unsafe fn visit<S: StatusFlags, V: Visitor>(board: &Board, ep: u8, visitor: &mut V) {
        crate::visitor::visit::<S, Self, V>(board, ep, visitor)
    }
}
