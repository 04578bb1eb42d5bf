//! Tools of every walk that makes children: the status a count of moves needs
//! ([`Counted`]), copy-make of each child ([`MakeChildren`]) for a [`Descend`], and the
//! colour that moved into a status ([`mover`]).

use crate::base::board::Board;
use crate::base::chess_move::{Move, MoveKind};
use crate::base::status::{ClearTheirK, ClearTheirQ, StatusFlags};
use crate::base::types::{Color, Piece, Square};
use crate::generator::visitor::Visitor;

/// The status a count of legal moves needs: `S` without the opponent's castling rights,
/// which change only the children's statuses, never how many moves there are. Counting
/// entries are compiled for the 16 such statuses, not all 64.
pub(crate) type Counted<S> = ClearTheirQ<ClearTheirK<S>>;

/// What to do with each child: `make` turns a copy of the parent into the child.
pub(crate) trait Descend {
    /// Handles the child of `parent` that `make` produces by `mv`, whose status is `C` and
    /// en-passant square `ep`. Walks that ignore `mv` pay nothing: it is inlined away.
    fn descend<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
        ep: u8,
    );

    /// [`Descend::descend`] for a plain move, capture or double push of a `piece`: walks
    /// that sort moves by the moving piece override it.
    #[inline(always)]
    fn descend_piece<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
        ep: u8,
        _piece: Piece,
    ) {
        self.descend::<C>(parent, make, mv, ep);
    }

    /// [`Descend::descend`] for a castle: walks that treat castles apart override it.
    #[inline(always)]
    fn descend_castle<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
    ) {
        self.descend::<C>(parent, make, mv, 0);
    }
}

/// The colour that made the move leading to status `C`.
#[inline(always)]
pub(crate) fn mover<C: StatusFlags>() -> Color {
    Color::from_white(!C::WHITE)
}

/// Builds each child board by copy-make and hands it on.
pub(crate) struct MakeChildren<D>(pub(crate) D);

impl<D: Descend> MakeChildren<D> {
    #[inline(always)]
    fn piece_move<C: StatusFlags>(
        &mut self,
        board: &Board,
        piece: Piece,
        from: Square,
        to: Square,
    ) {
        let make = |child: &mut Board| child.apply_move(mover::<C>(), piece, from, to);
        let mv = Move::new(from, to, MoveKind::Normal);
        self.0.descend_piece::<C>(board, make, mv, 0, piece);
    }
}

impl<D: Descend> Visitor for MakeChildren<D> {
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::King, from, to);
    }
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let make = |child: &mut Board| {
            child.apply_castle(mover::<C>(), from, to);
        };
        let mv = Move::new(from, to, MoveKind::Castle);
        self.0.descend_castle::<C>(board, make, mv);
    }
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let ep = ((from.index() + to.index()) / 2) as u8;
        let make = |child: &mut Board| child.apply_move(mover::<C>(), Piece::Pawn, from, to);
        let mv = Move::new(from, to, MoveKind::DoublePush);
        self.0.descend_piece::<C>(board, make, mv, ep, Piece::Pawn);
    }
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let make = |child: &mut Board| child.apply_en_passant(mover::<C>(), from, to);
        let mv = Move::new(from, to, MoveKind::EnPassant);
        self.0.descend::<C>(board, make, mv, 0);
    }
    #[inline(always)]
    fn promotion<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square, piece: Piece) {
        let make = |child: &mut Board| child.apply_promotion(mover::<C>(), from, to, piece);
        let mv = Move::new(from, to, MoveKind::Promotion(piece));
        self.0.descend::<C>(board, make, mv, 0);
    }
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Knight, from, to);
    }
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Bishop, from, to);
    }
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Rook, from, to);
    }
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Queen, from, to);
    }
}
