//! The PEXT backend: a slider's attack-table index is `pext(occupied, mask)`. Its lookups are
//! single instructions only inside code compiled with BMI2 (the PEXT entry in `generator::entry`).

use super::Lookup;
use crate::base::attacks::{PEXT_BISHOP, PEXT_ROOK, PextEntry, SLIDER_PEXT};
use core::arch::x86_64::_pext_u64;

/// The BMI2 backend.
pub(crate) struct Pext;

#[inline(always)]
fn lookup(entry: &PextEntry, occupied: u64) -> u64 {
    // SAFETY: `Lookup` is crate-private and the generator calls `Pext::rook`/`Pext::bishop`
    // only from code inlined into the PEXT entry, which is reached only through
    // `gen::entry::with_engine`, after `Backend::resolve` detected BMI2.
    let index = unsafe { _pext_u64(occupied, entry.mask) } as usize;
    // SAFETY: the index is below 2^popcount(mask), and build.rs sized each square's block to
    // exactly that (asserted at compile time in the generated tables).
    unsafe { *SLIDER_PEXT.get_unchecked(entry.offset + index) }
}

impl Lookup for Pext {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        lookup(&PEXT_ROOK[square & 63], occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        lookup(&PEXT_BISHOP[square & 63], occupied)
    }
}
