//! One entry per build of the generator, generic over the operation it runs.
//!
//! A PEXT lookup is one inline instruction only inside a function compiled with BMI2, and one
//! binary must also run on CPUs without it. So every walk of the tree runs inside an *entry*:
//! a `#[target_feature]` function of one backend ([`Engine::enter`]) whose body inlines an
//! [`Operation`] (a perft node, a depth-2 batch, a statistics node, a visitor) together with
//! the whole generator and the backend's lookups. The backend modules know nothing of the
//! operations, and a new operation needs no new entry: it is one more `Operation` impl.
//! Recursion goes from an operation to the entry of the child's operation, so each status
//! and operation is compiled once per engine: three in a build for any x86-64 CPU, fewer
//! for a target with POPCNT or under `pext-only`/`magic-only` (see `slider`).
//!
//! Entering needs a [`Cpu`] proof that the CPU has the engine's features: [`Cpu::check`]
//! makes it, a [`Resolved`] holds it, and every walk hands it down, so the calls into
//! `#[target_feature]` code in [`Engine::enter`] are this crate's `unsafe` for the CPU, with
//! one more: the AVX-512 lanes of sparse batches (`count::depth2::lanes_first`), asked of
//! the CPU's cached facts where they run.

use crate::base::status::StatusFlags;
use crate::generator::dispatch::{StatusOp, dispatch};
#[cfg(engine_magic)]
use crate::slider::magic::Magic;
#[cfg(engine_magic_popcnt)]
use crate::slider::magic::MagicPopcnt;
#[cfg(engine_pext)]
use crate::slider::pext::Pext;
use crate::slider::{Build, Compiled, Cpu, Resolved};

/// Work compiled into an engine's entry: `run::<B>` is inlined into `B::enter`.
pub(crate) trait Operation {
    /// What the work returns.
    type Output;
    /// Does the work with engine `B`'s lookups, inside `B`'s entry; `cpu` is the proof that
    /// let it in, for the entries it enters in turn.
    fn run<B: Engine>(self, cpu: Cpu<B>) -> Self::Output;
}

/// A build of the generator: a backend's lookups and the entry compiled with the CPU
/// features they need.
pub(crate) trait Engine: Build {
    /// Whether depth-2 nodes count their children in the batch (`count::depth2`). The
    /// fallback for CPUs without POPCNT counts them one by one: it saves the batch's code in
    /// every binary for CPUs that nobody counts deep trees on.
    const BATCH: bool;

    /// Whether code inside the entry may use 256-bit vectors (AVX2): loops that test many
    /// values at once pay only then.
    const WIDE_VECTORS: bool;

    /// Runs `op` compiled with this engine's CPU features, which `cpu` proves this CPU has.
    fn enter<O: Operation>(cpu: Cpu<Self>, op: O) -> O::Output;
}

#[cfg(engine_pext)]
impl Engine for Pext {
    const BATCH: bool = true;
    const WIDE_VECTORS: bool = true;

    #[inline(always)]
    fn enter<O: Operation>(cpu: Cpu<Self>, op: O) -> O::Output {
        // SAFETY: a `Cpu<Pext>` exists only if `Cpu::check` saw CPUID report BMI1, BMI2,
        // POPCNT, AVX2 and the OS saving YMM state: every feature `pext_entry` enables.
        unsafe { pext_entry(cpu, op) }
    }
}

/// The PEXT engine's entry.
#[cfg(engine_pext)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn pext_entry<O: Operation>(cpu: Cpu<Pext>, op: O) -> O::Output {
    op.run(cpu)
}

#[cfg(engine_magic_popcnt)]
impl Engine for MagicPopcnt {
    const BATCH: bool = true;
    const WIDE_VECTORS: bool = cfg!(target_feature = "avx2");

    #[inline(always)]
    fn enter<O: Operation>(cpu: Cpu<Self>, op: O) -> O::Output {
        // SAFETY: a `Cpu<MagicPopcnt>` exists only if `Cpu::check` saw CPUID report POPCNT,
        // the one feature `magic_popcnt_entry` enables.
        unsafe { magic_popcnt_entry(cpu, op) }
    }
}

/// The entry of the magic engine with POPCNT.
#[cfg(engine_magic_popcnt)]
#[target_feature(enable = "popcnt")]
fn magic_popcnt_entry<O: Operation>(cpu: Cpu<MagicPopcnt>, op: O) -> O::Output {
    op.run(cpu)
}

#[cfg(engine_magic)]
impl Engine for Magic {
    // Where `MagicPopcnt` is compiled this is the fallback for CPUs without POPCNT; elsewhere
    // it is the magic engine (with POPCNT if the target has it, or the only engine).
    const BATCH: bool = !cfg!(engine_magic_popcnt);
    const WIDE_VECTORS: bool = cfg!(target_feature = "avx2");

    fn enter<O: Operation>(cpu: Cpu<Self>, op: O) -> O::Output {
        op.run(cpu)
    }
}

/// Work that picks its engine at run time: `run::<B>` runs (outside any entry) with the
/// engine a [`Resolved`] names.
pub(crate) trait EngineOp {
    /// What the work returns.
    type Output;
    /// Does the work on engine `B`, which `cpu` proves this CPU runs.
    fn run<B: Engine>(self, cpu: Cpu<B>) -> Self::Output;
}

/// Runs `op` on the engine `resolved` names, with the proof `resolved` holds.
pub(crate) fn with_engine<O: EngineOp>(resolved: Resolved, op: O) -> O::Output {
    match resolved.compiled() {
        #[cfg(engine_pext)]
        Compiled::Pext(cpu) => op.run(cpu),
        #[cfg(engine_magic_popcnt)]
        Compiled::MagicPopcnt(cpu) => op.run(cpu),
        #[cfg(engine_magic)]
        Compiled::Magic(cpu) => op.run(cpu),
    }
}

/// Work at the root of a walk: `run::<S, B>` runs (outside any entry) with the status type
/// a runtime index names and the engine a [`Resolved`] names, and usually enters `B` with
/// an [`Operation`] for `S`.
pub(crate) trait RootOp {
    /// What the work returns.
    type Output;
    /// Does the work for status `S` on engine `B`, which `cpu` proves this CPU runs.
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> Self::Output;
}

/// Runs `op` with the status whose index is `status` (see [`dispatch`]) on the engine
/// `resolved` names.
pub(crate) fn at_root<O: RootOp>(resolved: Resolved, status: u8, op: O) -> O::Output {
    with_engine(resolved, Root { status, op })
}

/// [`at_root`] once the engine is known: dispatches on the status.
struct Root<O> {
    status: u8,
    op: O,
}

impl<O: RootOp> EngineOp for Root<O> {
    type Output = O::Output;
    fn run<B: Engine>(self, cpu: Cpu<B>) -> O::Output {
        dispatch(self.status, RootStatus { op: self.op, cpu })
    }
}

/// [`at_root`] once engine and status are known.
struct RootStatus<O, B> {
    op: O,
    cpu: Cpu<B>,
}

impl<O: RootOp, B: Engine> StatusOp for RootStatus<O, B> {
    type Output = O::Output;
    fn run<S: StatusFlags>(self) -> O::Output {
        self.op.run::<S, B>(self.cpu)
    }
}
