//! The magic backend: a slider's attack-table index is `((occupied & mask) * magic) >> shift`,
//! with magics found by the build-time search. Runs on every CPU.

use super::{Build, Compiled, Cpu, Lookup};
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
    #[cfg_attr(not(target_arch = "x86_64"), allow(unreachable_patterns))]
    fn proof(compiled: Compiled) -> Option<Cpu<Self>> {
        match compiled {
            Compiled::Magic(cpu) => Some(cpu),
            _ => None,
        }
    }
}

/// The magic backend compiled with POPCNT (every x86-64 CPU since 2008, including the AMD
/// ones whose PEXT is slow): bulk counting without the software popcount.
#[cfg(target_arch = "x86_64")]
pub(crate) struct MagicPopcnt;

#[cfg(target_arch = "x86_64")]
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

#[cfg(target_arch = "x86_64")]
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
