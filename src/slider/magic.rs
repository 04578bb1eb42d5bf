//! The magic backend: a slider's attack-table index is `((occupied & mask) * magic) >> shift`,
//! with magics found by the build-time search. Runs on every CPU.

// Unused but for tests in the builds that leave this backend out (`pext-only`, `magic-only`).
#![cfg_attr(any(feature = "pext-only", feature = "magic-only"), allow(dead_code))]

use super::Lookup;
#[cfg(any(engine_magic, engine_magic_popcnt))]
use super::{Build, Compiled, Cpu};
use crate::base::attacks::{MAGIC_BISHOP, MAGIC_ROOK, MagicEntry, SLIDER_MAGIC};

/// The portable backend.
pub(crate) struct Magic;

#[inline(always)]
fn lookup(entry: &MagicEntry, occupied: u64) -> u64 {
    let index = ((occupied & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    // SAFETY: the index is below 2^(64 - shift), and build.rs sized each square's block to
    // exactly that (asserted at compile time in the generated tables).
    unsafe { *SLIDER_MAGIC.get_unchecked(entry.offset + index) }
}

impl Lookup for Magic {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        lookup(&MAGIC_ROOK[square & 63], occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        lookup(&MAGIC_BISHOP[square & 63], occupied)
    }
}

#[cfg(engine_magic)]
impl Build for Magic {
    #[inline(always)]
    fn cpu_runs() -> bool {
        true
    }

    #[inline(always)]
    fn compiled(cpu: Cpu<Self>) -> Compiled {
        Compiled::Magic(cpu)
    }

    #[inline(always)]
    #[allow(unreachable_patterns)] // the only engine of some builds
    fn proof(compiled: Compiled) -> Option<Cpu<Self>> {
        match compiled {
            Compiled::Magic(cpu) => Some(cpu),
            _ => None,
        }
    }
}

/// The magic backend compiled with POPCNT (every x86-64 CPU since 2008, including the AMD
/// ones whose PEXT is slow): bulk counting without the software popcount. Only for targets
/// without POPCNT, where the plain magic engine lacks it.
#[cfg(engine_magic_popcnt)]
pub(crate) struct MagicPopcnt;

#[cfg(engine_magic_popcnt)]
impl Lookup for MagicPopcnt {
    #[inline(always)]
    fn rook(square: usize, occupied: u64) -> u64 {
        Magic::rook(square, occupied)
    }

    #[inline(always)]
    fn bishop(square: usize, occupied: u64) -> u64 {
        Magic::bishop(square, occupied)
    }
}

#[cfg(engine_magic_popcnt)]
impl Build for MagicPopcnt {
    #[inline(always)]
    fn cpu_runs() -> bool {
        super::popcnt_is_supported()
    }

    #[inline(always)]
    fn compiled(cpu: Cpu<Self>) -> Compiled {
        Compiled::MagicPopcnt(cpu)
    }

    #[inline(always)]
    fn proof(compiled: Compiled) -> Option<Cpu<Self>> {
        match compiled {
            Compiled::MagicPopcnt(cpu) => Some(cpu),
            _ => None,
        }
    }
}
