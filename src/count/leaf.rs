//! The bulk count of one board's legal moves ([`count`], and its entry for the 16
//! [`Counted`] statuses), which every walk below an interior node shares.

use crate::base::board::Board;
use crate::base::status::StatusFlags;
use crate::generator::children::Counted;
use crate::generator::dispatch::{StatusOp, dispatch};
use crate::generator::entry::{Engine, Operation};
use crate::generator::material::{AnyPieces, Material};
use crate::generator::movegen::{Counter, generate};
use crate::slider::Cpu;
use core::marker::PhantomData;

/// The number of legal moves of a board (status `S`), run inside an engine's entry.
pub(crate) struct LeafCount<'a, S> {
    board: &'a Board,
    ep: u8,
    status: PhantomData<S>,
}

impl<S: StatusFlags> Operation for LeafCount<'_, S> {
    type Output = u64;
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) -> u64 {
        count::<S, B, AnyPieces>(self.board, self.ep)
    }
}

/// The number of legal moves of `board` (status `S`) through the counting entry of its
/// [`Counted`] status.
#[inline(always)]
pub(crate) fn count_entry<S: StatusFlags, B: Engine>(cpu: Cpu<B>, board: &Board, ep: u8) -> u64 {
    B::enter(
        cpu,
        LeafCount::<Counted<S>> {
            board,
            ep,
            status: PhantomData,
        },
    )
}

/// [`count_entry`] of a board whose status index (see `dispatch`) is known only at run time:
/// out of line, one jump for the rare children a depth-2 node counts at once under rights it
/// holds only at run time.
#[inline(never)]
pub(crate) fn count_at<B: Engine>(cpu: Cpu<B>, board: &Board, status: u8, ep: u8) -> u64 {
    dispatch(status, CountAt { cpu, board, ep })
}

/// [`count_at`] once the status is known.
struct CountAt<'a, B> {
    cpu: Cpu<B>,
    board: &'a Board,
    ep: u8,
}

impl<B: Engine> StatusOp for CountAt<'_, B> {
    type Output = u64;
    #[inline(always)]
    fn run<S: StatusFlags>(self) -> u64 {
        count_entry::<S, B>(self.cpu, self.board, self.ep)
    }
}

/// The number of legal moves: the popcounts of the generator's target sets.
#[inline(always)]
pub(crate) fn count<S: StatusFlags, B: Engine, M: Material>(board: &Board, ep: u8) -> u64 {
    let mut counter = Counter(0);
    generate::<S, B, M, _>(board, ep, &mut counter);
    counter.0
}
