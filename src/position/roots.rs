//! The root operations behind [`Position::legal_moves`], [`Position::has_legal_moves`] and
//! [`Position::visit`]: each runs once the engine and status are known, inside the engine's
//! entry.

use super::Position;
use crate::base::board::Board;
use crate::base::chess_move::Move;
use crate::base::status::StatusFlags;
use crate::generator::children::Counted;
use crate::generator::entry::{Engine, Operation, RootOp};
use crate::generator::list::{ROOM, write_moves};
use crate::generator::material::AnyPieces;
use crate::generator::movegen::{Filter, has_legal_move};
use crate::generator::visitor::{VisitOp, Visitor};
use crate::slider::Cpu;
use core::marker::PhantomData;

/// [`Position::has_legal_moves`] once the engine and status are known, for the status
/// without the opponent's rights (they change no move's existence).
pub(super) struct AnyMoveRoot<'a> {
    pub(super) position: &'a Position,
}

impl RootOp for AnyMoveRoot<'_> {
    type Output = bool;
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> bool {
        let op = AnyMoveOp::<Counted<S>> {
            board: &self.position.board,
            ep: self.position.ep_index(),
            status: PhantomData,
        };
        B::enter(cpu, op)
    }
}

/// Asks the generator for a first legal move inside an engine's entry.
pub(super) struct AnyMoveOp<'a, S> {
    board: &'a Board,
    ep: u8,
    status: PhantomData<S>,
}

impl<S: StatusFlags> Operation for AnyMoveOp<'_, S> {
    type Output = bool;
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) -> bool {
        has_legal_move::<S, B, AnyPieces>(self.board, self.ep)
    }
}

/// [`Position::visit`] once the engine and status are known.
pub(super) struct VisitRoot<'a, V, F> {
    pub(super) position: &'a Position,
    pub(super) visitor: &'a mut V,
    pub(super) filter: F,
}

impl<V: Visitor, F: Filter> RootOp for VisitRoot<'_, V, F> {
    type Output = ();
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) {
        let op = VisitOp::<S, V, F> {
            board: &self.position.board,
            ep: self.position.ep_index(),
            visitor: self.visitor,
            filter: self.filter,
            status: PhantomData,
        };
        B::enter(cpu, op)
    }
}

/// [`Position::legal_moves`] once the engine and status are known: the entry is compiled
/// for the 16 [`Counted`] statuses only (the opponent's rights change only the children's
/// statuses, which a list does not keep).
pub(super) struct ListMoves<'a, F> {
    pub(super) position: &'a Position,
    pub(super) moves: &'a mut [Move; ROOM],
    pub(super) filter: F,
}

impl<F: Filter> RootOp for ListMoves<'_, F> {
    type Output = usize;
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> usize {
        let (king_side, queen_side) = self.position.their_castling_rooks();
        let op = ListOp::<Counted<S>, F> {
            board: &self.position.board,
            ep: self.position.ep_index(),
            moves: self.moves,
            filter: self.filter,
            held: [king_side, queen_side],
            status: PhantomData,
        };
        B::enter(cpu, op)
    }
}

/// [`ListMoves`] inside the engine's entry: the generator with the opponent's castling
/// rooks split off at run time (`held`), so the list comes in the other paths' order.
pub(super) struct ListOp<'a, S, F> {
    board: &'a Board,
    ep: u8,
    moves: &'a mut [Move; ROOM],
    filter: F,
    held: [u64; 2],
    status: PhantomData<S>,
}

impl<S: StatusFlags, F: Filter> Operation for ListOp<'_, S, F> {
    type Output = usize;
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) -> usize {
        write_moves::<S, B, F>(self.board, self.ep, self.filter, self.held, self.moves)
    }
}
