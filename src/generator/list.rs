//! The sink behind `Position::legal_moves`: each target set's moves are written straight
//! into a fixed array with the length in a register, in the order the visitor paths give
//! them (no visitor call, no bounds check a move).

use crate::base::attacks;
use crate::base::board::Board;
use crate::base::chess_move::{Move, MoveKind};
use crate::base::status::StatusFlags;
use crate::base::types::{BitIter, Color, Piece, Square};
use crate::generator::material::AnyPieces;
use crate::generator::movegen::{Filter, Sink, generate_filtered};
use crate::slider::Lookup;

/// Room in the array the moves are written to; a move beyond it is dropped.
pub(crate) const ROOM: usize = 256;

/// The most moves one `ListSink::each` call writes: a queen's 27 (promotions go through the
/// checked `push`).
const MOST_AT_ONCE: usize = 32;

/// Writes the legal moves of `board` (status `S`, which must leave out the opponent's
/// castling rights, en-passant square `ep`) that `filter` lets through into `moves`, and
/// returns how many. Moves onto the opponent's castling rooks of the rights `held` (king
/// side, queen side, as bitboards) come last in their group, as the full statuses put them.
#[inline(always)]
pub(crate) fn write_moves<S: StatusFlags, B: Lookup, F: Filter>(
    board: &Board,
    ep: u8,
    filter: F,
    held: [u64; 2],
    moves: &mut [Move; ROOM],
) -> usize {
    let mut sink = ListSink {
        moves,
        len: 0,
        held,
    };
    generate_filtered::<S, B, AnyPieces, _, F>(board, ep, filter, &mut sink);
    sink.len
}

/// Turns target sets into moves in an array.
struct ListSink<'a> {
    moves: &'a mut [Move; ROOM],
    len: usize,
    held: [u64; 2],
}

/// The move from square index `from` to `to` of `kind`.
#[inline(always)]
fn move_of(from: usize, to: usize, kind: MoveKind) -> Move {
    Move::new(
        Square::from_index(from as u32),
        Square::from_index(to as u32),
        kind,
    )
}

/// The code of the move from `to - delta` to `to` of `kind`, as `add + to * 65` (wrapping).
#[inline(always)]
const fn pawn_add(delta: i8, kind: u16) -> u16 {
    (kind << 12).wrapping_sub(delta as i16 as u16)
}

impl ListSink<'_> {
    /// Writes one move a square of `targets`, in square order, its code `add + to * mul`
    /// (64 for a piece's moves, `add` holding its square and kind; 65 for a pawn's, see
    /// [`pawn_add`]).
    #[inline(always)]
    fn each(&mut self, targets: u64, add: u16, mul: u16) {
        // The room is checked once a non-empty set, not once a move.
        if targets == 0 {
            return;
        }
        if self.len > ROOM - MOST_AT_ONCE {
            self.each_near_full(targets, add, mul);
            return;
        }
        let mut len = self.len;
        for to in BitIter(targets) {
            // At most 256 - 32 + 32: `len as u8` is the index itself, checked by its type.
            self.moves[usize::from(len as u8)] = Move(add.wrapping_add(to as u16 * mul));
            len += 1;
        }
        self.len = len;
    }

    /// [`ListSink::each`] near the end of the room (no known position gets here).
    #[cold]
    #[inline(never)]
    fn each_near_full(&mut self, targets: u64, add: u16, mul: u16) {
        for to in BitIter(targets) {
            self.push(Move(add.wrapping_add(to as u16 * mul)));
        }
    }

    /// Appends one move, dropped beyond the room.
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// The moves of the king or a piece on `from`: those onto the held castling rooks last.
    #[inline(always)]
    fn moves_from(&mut self, from: usize, targets: u64) {
        let corners = self.held[0] | self.held[1];
        let add = from as u16 | MoveKind::NORMAL << 12;
        self.each(targets & !corners, add, 64);
        // One test for both rooks: taking one is rare.
        if targets & corners != 0 {
            self.each(targets & self.held[0], add, 64);
            self.each(targets & self.held[1], add, 64);
        }
    }

    /// The four promotions onto each of `targets` of the pawn `delta` behind.
    #[inline(always)]
    fn promote_onto(&mut self, targets: u64, delta: i8) {
        for to in BitIter(targets) {
            let from = (to as isize - delta as isize) as usize;
            for piece in Piece::PROMOTIONS {
                self.push(move_of(from, to, MoveKind::Promotion(piece)));
            }
        }
    }
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn king<S: StatusFlags>(&mut self, _: &Board, from: usize, targets: u64) {
        self.moves_from(from, targets);
    }

    #[inline(always)]
    fn castle<S: StatusFlags>(&mut self, _: &Board, king_from: usize, target: usize) {
        self.push(move_of(king_from, target, MoveKind::Castle));
    }

    #[inline(always)]
    fn piece<S: StatusFlags>(&mut self, _: &Board, _: Piece, from: usize, targets: u64) {
        self.moves_from(from, targets);
    }

    #[inline(always)]
    fn pawn_pushes<S: StatusFlags>(&mut self, _: &Board, targets: u64, delta: i8) {
        self.each(targets, pawn_add(delta, MoveKind::NORMAL), 65);
    }

    #[inline(always)]
    fn pawn_double_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        // The visitor's order: those the opponent can take en passant first.
        let their_pawns = board.bits(Color::from_white(!S::WHITE), Piece::Pawn);
        let beside = attacks::beside(their_pawns);
        let add = pawn_add(delta, MoveKind::DOUBLE_PUSH);
        self.each(targets & beside, add, 65);
        self.each(targets & !beside, add, 65);
    }

    #[inline(always)]
    fn pawn_captures<S: StatusFlags>(&mut self, _: &Board, targets: u64, delta: i8) {
        self.each(targets, pawn_add(delta, MoveKind::NORMAL), 65);
    }

    #[inline(always)]
    fn promotions<S: StatusFlags>(&mut self, _: &Board, targets: u64, delta: i8) {
        let corners = self.held[0] | self.held[1];
        self.promote_onto(targets & !corners, delta);
        self.promote_onto(targets & self.held[0], delta);
        self.promote_onto(targets & self.held[1], delta);
    }

    #[inline(always)]
    fn en_passant<S: StatusFlags>(&mut self, _: &Board, from: usize, to: usize) {
        self.push(move_of(from, to, MoveKind::EnPassant));
    }
}
