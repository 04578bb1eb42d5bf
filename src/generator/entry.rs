//! One entry per build of the generator, generic over the operation it runs.
//!
//! A PEXT lookup is one inline instruction only inside a function compiled with BMI2, and one
//! binary must also run on CPUs without it. So every walk of the tree runs inside an *entry*:
//! a `#[target_feature]` function of one backend ([`Engine::enter`]) whose body inlines an
//! [`Operation`] (a perft node, a depth-2 batch, a statistics node, a visitor) together with
//! the whole generator and the backend's lookups. The backend modules know nothing of the
//! operations, and a new operation needs no new entry: it is one more `Operation` impl.
//! Recursion goes from an operation to the entry of the child's operation, so each status
//! and operation is compiled once per backend.

use crate::base::status::StatusFlags;
use crate::generator::dispatch::{StatusOp, dispatch};
#[cfg(target_arch = "x86_64")]
use crate::slider::magic::MagicPopcnt;
#[cfg(target_arch = "x86_64")]
use crate::slider::pext::Pext;
use crate::slider::{Compiled, Lookup, Resolved, magic::Magic};

/// Work compiled into an engine's entry: `run::<B>` is inlined into `B::enter`.
pub(crate) trait Operation {
    /// What the work returns.
    type Output;
    /// Does the work with engine `B`'s lookups.
    ///
    /// # Safety
    /// The CPU supports `B` (it runs inside `B`'s entry, which is reached only after the
    /// CPU was checked).
    unsafe fn run<B: Engine>(self) -> Self::Output;
}

/// A build of the generator: a backend's lookups and the entry compiled with the CPU
/// features they need.
pub(crate) trait Engine: Lookup {
    /// Whether depth-2 nodes count their children in the batch (`count::depth2`). The
    /// fallback for CPUs without POPCNT counts them one by one: it saves the batch's code in
    /// every binary for CPUs that nobody counts deep trees on.
    const BATCH: bool;

    /// Runs `op` compiled with this engine's CPU features.
    ///
    /// # Safety
    /// The CPU supports this engine: the caller runs inside an entry of the same engine, or
    /// got the engine from a [`Resolved`] through [`with_engine`].
    unsafe fn enter<O: Operation>(op: O) -> O::Output;
}

#[cfg(target_arch = "x86_64")]
impl Engine for Pext {
    const BATCH: bool = true;

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    unsafe fn enter<O: Operation>(op: O) -> O::Output {
        // SAFETY: the caller guarantees the CPU supports this engine.
        unsafe { op.run::<Self>() }
    }
}

#[cfg(target_arch = "x86_64")]
impl Engine for MagicPopcnt {
    const BATCH: bool = true;

    #[target_feature(enable = "popcnt")]
    unsafe fn enter<O: Operation>(op: O) -> O::Output {
        // SAFETY: the caller guarantees the CPU supports this engine.
        unsafe { op.run::<Self>() }
    }
}

impl Engine for Magic {
    // On x86-64 this is the fallback for CPUs without POPCNT; elsewhere it is the engine.
    const BATCH: bool = !cfg!(target_arch = "x86_64");

    unsafe fn enter<O: Operation>(op: O) -> O::Output {
        // SAFETY: this engine needs no optional CPU feature.
        unsafe { op.run::<Self>() }
    }
}

/// Work that picks its engine at run time: `run::<B>` runs (outside any entry) with the
/// engine a [`Resolved`] names.
pub(crate) trait EngineOp {
    /// What the work returns.
    type Output;
    /// Does the work on engine `B`.
    ///
    /// # Safety
    /// The CPU supports `B`.
    unsafe fn run<B: Engine>(self) -> Self::Output;
}

/// Runs `op` on the engine `resolved` names.
pub(crate) fn with_engine<O: EngineOp>(resolved: Resolved, op: O) -> O::Output {
    match resolved.compiled() {
        // SAFETY: `Resolved::new` chose Pext only after `resolve` checked that the CPU runs
        // BMI2, BMI1, POPCNT and AVX2.
        #[cfg(target_arch = "x86_64")]
        Compiled::Pext => unsafe { op.run::<Pext>() },
        // SAFETY: `Resolved::new` chose it only after checking that the CPU has POPCNT, the
        // one feature it adds.
        #[cfg(target_arch = "x86_64")]
        Compiled::MagicPopcnt => unsafe { op.run::<MagicPopcnt>() },
        // SAFETY: the magic engine uses no optional CPU feature.
        Compiled::Magic => unsafe { op.run::<Magic>() },
    }
}

/// Work at the root of a walk: `run::<S, B>` runs (outside any entry) with the status type
/// a runtime index names and the engine a [`Resolved`] names, and usually enters `B` with
/// an [`Operation`] for `S`.
pub(crate) trait RootOp {
    /// What the work returns.
    type Output;
    /// Does the work for status `S` on engine `B`.
    ///
    /// # Safety
    /// The CPU supports `B`.
    unsafe fn run<S: StatusFlags, B: Engine>(self) -> Self::Output;
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
    unsafe fn run<B: Engine>(self) -> O::Output {
        dispatch(
            self.status,
            RootStatus::<O, B> {
                op: self.op,
                engine: core::marker::PhantomData,
            },
        )
    }
}

/// [`at_root`] once engine and status are known.
struct RootStatus<O, B> {
    op: O,
    engine: core::marker::PhantomData<B>,
}

impl<O: RootOp, B: Engine> StatusOp for RootStatus<O, B> {
    type Output = O::Output;
    fn run<S: StatusFlags>(self) -> O::Output {
        // SAFETY: a RootStatus<O, B> is built only by `Root::run::<B>`, which `with_engine`
        // calls only for an engine the CPU supports.
        unsafe { self.op.run::<S, B>() }
    }
}
