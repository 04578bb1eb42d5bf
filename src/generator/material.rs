//! Which kinds of piece a subtree can hold, as a type. Endgames often have no knights, or no
//! bishops and queens, on the board: a counter compiled for that reads no such bitboard and
//! runs no knight loop, bishop loop or diagonal pin test. [`Material`] answers "where are
//! `color`'s knights?" with a constant empty set when the kind is absent; the generator asks
//! it instead of the board, so the absent kinds compile away.

use crate::base::board::Board;
use crate::base::geometry::seventh_rank;
use crate::base::types::{Color, Piece};

/// The kinds of piece a board may hold: the generator (`movegen`, `checks_and_pins`) reads
/// knights, bishops and queens only through here, so an absent kind's set is the constant 0
/// and every lookup fed by it folds away.
pub(crate) trait Material {
    /// Knights may be on the board.
    const KNIGHTS: bool;
    /// Bishops or queens may be on the board.
    const DIAGONALS: bool;
    /// Rooks may be on the board.
    const ROOKS: bool;

    /// `color`'s knights (none when `KNIGHTS` is false).
    #[inline(always)]
    fn knights(board: &Board, color: Color) -> u64 {
        if Self::KNIGHTS {
            board.bits(color, Piece::Knight)
        } else {
            0
        }
    }

    /// `color`'s bishops (none when `DIAGONALS` is false).
    #[inline(always)]
    fn bishops(board: &Board, color: Color) -> u64 {
        if Self::DIAGONALS {
            board.bits(color, Piece::Bishop)
        } else {
            0
        }
    }

    /// `color`'s rooks (none when `ROOKS` is false).
    #[inline(always)]
    fn rooks(board: &Board, color: Color) -> u64 {
        if Self::ROOKS {
            board.bits(color, Piece::Rook)
        } else {
            0
        }
    }

    /// `color`'s queens (none when `DIAGONALS` is false).
    #[inline(always)]
    fn queens(board: &Board, color: Color) -> u64 {
        if Self::DIAGONALS {
            board.bits(color, Piece::Queen)
        } else {
            0
        }
    }
}

/// A board that may hold knights (`KNIGHTS`), bishops or queens (`DIAGONALS`) and rooks
/// (`ROOKS`). Pawns and kings are always read. `Pieces<true, true>` is every board.
pub(crate) struct Pieces<const KNIGHTS: bool, const DIAGONALS: bool, const ROOKS: bool = true>;

impl<const K: bool, const D: bool, const R: bool> Material for Pieces<K, D, R> {
    const KNIGHTS: bool = K;
    const DIAGONALS: bool = D;
    const ROOKS: bool = R;
}

/// Any board: every kind of piece may be present.
pub(crate) type AnyPieces = Pieces<true, true>;

impl Pieces<true, true> {
    /// Calls `op` with the narrowest material type that holds `board` and every board one move
    /// of `mover` away, of three: kings and pawns only; kings, rooks and pawns; every kind. A
    /// pawn of the mover one step from its last rank could bring any kind back by promotion,
    /// so then nothing is narrowed. No knight-only or diagonal-only types: the depth-2 batch
    /// counts only boards without those in full (with a knight, bishop or queen it sorts), so
    /// they would be code that never runs.
    #[inline(always)]
    pub(crate) fn narrowest<Op: MaterialOp>(board: &Board, mover: Color, op: Op) -> Op::Output {
        let both = |piece| board.bits(Color::White, piece) | board.bits(Color::Black, piece);
        let white = mover == Color::White;
        let seventh = seventh_rank(white);
        let may_promote = board.bits(mover, Piece::Pawn) & seventh != 0;
        let minors = both(Piece::Knight) | both(Piece::Bishop) | both(Piece::Queen);
        if may_promote || minors != 0 {
            op.run::<Pieces<true, true>>()
        } else if both(Piece::Rook) != 0 {
            op.run::<Pieces<false, false>>()
        } else {
            op.run::<Pieces<false, false, false>>()
        }
    }
}

/// Work that runs with a material type chosen at run time by [`Pieces::narrowest`].
pub(crate) trait MaterialOp {
    /// What the work returns.
    type Output;
    /// Does the work for boards that `M` describes.
    fn run<M: Material>(self) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    struct Kinds;
    impl MaterialOp for Kinds {
        type Output = (bool, bool, bool);
        fn run<M: Material>(self) -> (bool, bool, bool) {
            (M::KNIGHTS, M::DIAGONALS, M::ROOKS)
        }
    }

    fn kinds(fen: &str) -> (bool, bool, bool) {
        let position: Position = fen.parse().unwrap();
        let mover = position.side_to_move();
        Pieces::narrowest(position.board(), mover, Kinds)
    }

    #[test]
    fn narrows_to_the_kinds_on_the_board() {
        assert_eq!(
            kinds("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            (false, false, true)
        );
        // Kings and pawns only.
        assert_eq!(
            kinds("8/pp3k2/2p3p1/5p1p/5P1P/2P3P1/PP3K2/8 w - - 0 1"),
            (false, false, false)
        );
        // Any knight, bishop or queen: every kind.
        assert_eq!(kinds("8/8/4k3/8/8/3N4/4K3/8 w - - 0 1"), (true, true, true));
        assert_eq!(kinds("8/8/4k3/8/8/3q4/4K3/8 w - - 0 1"), (true, true, true));
        assert_eq!(
            kinds("8/8/4k3/8/8/3b4/4KN2/8 w - - 0 1"),
            (true, true, true)
        );
    }

    #[test]
    fn a_pawn_that_may_promote_keeps_every_kind() {
        // White's pawn on the seventh may promote to anything; Black's on its second may not
        // move when White is to move.
        assert_eq!(kinds("8/4P3/4k3/8/8/8/4K3/8 w - - 0 1"), (true, true, true));
        assert_eq!(
            kinds("8/8/4k3/8/8/8/4K1p1/8 w - - 0 1"),
            (false, false, false)
        );
        assert_eq!(kinds("8/8/4k3/8/8/8/4K1p1/8 b - - 0 1"), (true, true, true));
    }
}
