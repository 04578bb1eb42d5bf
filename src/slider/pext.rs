//! The PEXT backend: a slider's attack-table index is `pext(occupied, mask)`. Its lookups are
//! single instructions only inside code compiled with BMI2 (the PEXT entry in `generator::entry`).

// Unused but for tests in the builds that leave this backend out (`pext-only`, `magic-only`).
#![cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))]

use super::Lookup;
#[cfg(engine_pext)]
use super::{Build, Compiled, Cpu};
use crate::base::attacks::{PEXT_BISHOP, PEXT_ROOK, PextEntry, SLIDER_PEXT};
use core::arch::x86_64::_pext_u64;

/// The BMI2 backend.
pub(crate) struct Pext;

#[inline(always)]
fn lookup(entry: &PextEntry, occupied: u64) -> u64 {
    // SAFETY: `pext` needs BMI2: `Pext`'s lookups are inlined only into `pext_entry` (BMI2
    // enabled; entered only with a `Cpu<Pext>`) or built for a BMI2 target (`Portable`).
    // The index is below 2^popcount(mask), and build.rs sized each square's block to exactly
    // that (asserted at compile time in `attacks`).
    unsafe { *SLIDER_PEXT.get_unchecked(entry.offset + _pext_u64(occupied, entry.mask) as usize) }
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

#[cfg(engine_pext)]
impl Build for Pext {
    #[inline(always)]
    fn cpu_runs() -> bool {
        super::pext_is_supported()
    }

    #[inline(always)]
    fn compiled(cpu: Cpu<Self>) -> Compiled {
        Compiled::Pext(cpu)
    }

    #[inline(always)]
    #[allow(unreachable_patterns)] // the only engine of `pext-only` builds
    fn proof(compiled: Compiled) -> Option<Cpu<Self>> {
        match compiled {
            Compiled::Pext(cpu) => Some(cpu),
            _ => None,
        }
    }
}
