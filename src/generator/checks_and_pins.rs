//! Where legality comes from: the checkmask, the pin masks `pin_hv` and `pin_diag`, and the
//! king-ban test. With these, every move the generator emits is legal; nothing is made and
//! taken back to find out.

use crate::base::attacks::{self, between};
use crate::base::board::Board;
use crate::base::types::{BitIter, Color, Piece};
use crate::generator::material::Material;
use crate::slider::Lookup;

/// The masks that make the side to move's non-king moves legal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LegalMasks {
    /// Squares a non-king move must land on: everything when not in check, else the checker
    /// and the squares between it and the king.
    pub(crate) checkmask: u64,
    /// Lines (king exclusive, pinner inclusive) of rank/file pins.
    pub(crate) pin_hv: u64,
    /// Lines of diagonal pins.
    pub(crate) pin_diag: u64,
    /// Pieces giving check.
    pub(crate) checkers: u64,
}

impl LegalMasks {
    /// Computes the masks for `us`, whose king stands on `king`.
    ///
    /// Sliders are found by looking from the king through our own pieces only (their pieces
    /// stop the ray): a "sniper" with nothing between is a checker, with exactly one of our
    /// pieces between it pins that piece.
    #[inline(always)]
    pub(crate) fn compute<B: Lookup, M: Material>(
        board: &Board,
        us: Color,
        king: usize,
    ) -> LegalMasks {
        let them = !us;
        let theirs = board.color_bits(them);
        let ours = board.color_bits(us);
        let their_queens = M::queens(board, them);

        let mut checkers = (attacks::pawn_attacks_from(king, us == Color::White)
            & board.bits(them, Piece::Pawn))
            | (attacks::knight(king) & M::knights(board, them));
        let mut checkmask = checkers;
        let mut pin_hv = 0;
        let mut pin_diag = 0;

        // Most positions have no enemy slider on the king's lines at all: skip the lookups.
        let their_hv = M::rooks(board, them) | their_queens;
        let on_lines = attacks::rook_rays(king) & their_hv;
        if !M::KNIGHTS && !M::DIAGONALS {
            // Kings, rooks and pawns (a rook or two a side): each rook on the king's lines is
            // tested by its `between` line, which the scan reads anyway, without a lookup.
            for sniper in BitIter(on_lines) {
                let line = between(king, sniper);
                let blockers = line & ours;
                // Behind a piece of its own side it neither checks nor pins.
                if line & theirs == 0 {
                    if blockers == 0 {
                        checkmask |= line | 1 << sniper;
                        checkers |= 1 << sniper;
                    } else if blockers & (blockers - 1) == 0 {
                        pin_hv |= line | 1 << sniper;
                    }
                }
            }
        } else if on_lines != 0 {
            let snipers = B::rook(king, theirs) & their_hv;
            pin_hv = scan_snipers(king, snipers, ours, &mut checkmask, &mut checkers);
        }
        let their_diag = M::bishops(board, them) | their_queens;
        if attacks::bishop_rays(king) & their_diag != 0 {
            let snipers = B::bishop(king, theirs) & their_diag;
            pin_diag = scan_snipers(king, snipers, ours, &mut checkmask, &mut checkers);
        }
        if checkers == 0 {
            checkmask = !0;
        }
        LegalMasks {
            checkmask,
            pin_hv,
            pin_diag,
            checkers,
        }
    }

    /// In double check only the king may move.
    #[inline(always)]
    pub(crate) fn double_check(&self) -> bool {
        self.checkers & self.checkers.wrapping_sub(1) != 0
    }
}

/// Sorts the enemy sliders that see the king through our pieces only: nothing between means
/// check (its line joins the checkmask), exactly one of our pieces between means a pin (its
/// line is returned).
#[inline(always)]
fn scan_snipers(
    king: usize,
    snipers: u64,
    ours: u64,
    checkmask: &mut u64,
    checkers: &mut u64,
) -> u64 {
    let mut pins = 0;
    for sniper in BitIter(snipers) {
        let line = between(king, sniper);
        let blockers = line & ours;
        if blockers == 0 {
            *checkmask |= line | 1 << sniper;
            *checkers |= 1 << sniper;
        } else if blockers & (blockers - 1) == 0 {
            pins |= line | 1 << sniper;
        }
    }
    pins
}

/// Whether `them` attacks `square` when the board's occupancy is `occupied`. The king-ban
/// test: the caller passes the occupancy without the moving king, so a slider's ray is not
/// blocked by the king it checks.
#[inline(always)]
pub(crate) fn attacked<B: Lookup, M: Material>(
    board: &Board,
    them: Color,
    square: usize,
    occupied: u64,
) -> bool {
    let queens = M::queens(board, them);
    let leapers = (attacks::pawn_attacks_from(square, them == Color::Black)
        & board.bits(them, Piece::Pawn))
        | (attacks::knight(square) & M::knights(board, them))
        | (attacks::king(square) & board.bits(them, Piece::King));
    let sliders = (B::bishop(square, occupied) & (M::bishops(board, them) | queens))
        | (B::rook(square, occupied) & (M::rooks(board, them) | queens));
    leapers | sliders != 0
}

/// Every square `them` attacks with `occupied` as the occupancy, at least on the squares
/// whose `reach` is given: the king-ban set, when the caller passes the occupancy without
/// the king that must not step into it.
#[inline(always)]
pub(crate) fn king_ban<B: Lookup, M: Material>(
    board: &Board,
    them: Color,
    occupied: u64,
    reach: &AttackReach,
) -> u64 {
    let queens = M::queens(board, them);
    let mut ban = attacks::pawn_attacks(board.bits(them, Piece::Pawn), them == Color::White)
        | attacks::king(board.bits(them, Piece::King).trailing_zeros() as usize);
    for square in BitIter(M::knights(board, them) & reach.knight) {
        ban |= attacks::knight(square);
    }
    for square in BitIter((M::bishops(board, them) | queens) & reach.diagonal) {
        ban |= B::bishop(square, occupied);
    }
    for square in BitIter((M::rooks(board, them) | queens) & reach.orthogonal) {
        ban |= B::rook(square, occupied);
    }
    ban
}

/// Where a knight, a diagonal slider and an orthogonal slider must stand to attack any of
/// some squares, whatever the occupancy: [`king_ban`] skips the pieces outside, as they
/// cannot change whether those squares are attacked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackReach {
    /// The knight squares of the squares.
    pub(crate) knight: u64,
    /// Their diagonals on an empty board.
    pub(crate) diagonal: u64,
    /// Their ranks and files.
    pub(crate) orthogonal: u64,
}

impl AttackReach {
    /// The reach of every square: no piece is skipped.
    pub(crate) const EVERYWHERE: AttackReach = AttackReach {
        knight: !0,
        diagonal: !0,
        orthogonal: !0,
    };

    /// The reach of no square.
    pub(crate) const NOWHERE: AttackReach = AttackReach {
        knight: 0,
        diagonal: 0,
        orthogonal: 0,
    };

    /// Widens the reach to `square` as well.
    #[inline(always)]
    pub(crate) fn add(&mut self, square: usize) {
        self.knight |= attacks::knight(square);
        self.diagonal |= attacks::bishop_rays(square);
        self.orthogonal |= attacks::rook_rays(square);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::material::AnyPieces;
    use crate::position::Position;
    use crate::slider::magic::Magic;

    /// Skipping the pieces outside a square's reach never changes whether it is attacked.
    #[test]
    fn king_ban_within_reach_agrees_on_the_reached_squares() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            // Double check (knight f6, queen a2); the rook on h2 and the rest attack around.
            "1q4b1/3n4/1r3N2/3k4/8/2B5/Q6R/4K2n b - - 0 1",
        ] {
            let position: Position = fen.parse().unwrap();
            let board = position.board();
            for them in [Color::White, Color::Black] {
                let occupied = board.occupied_bits();
                let all =
                    king_ban::<Magic, AnyPieces>(board, them, occupied, &AttackReach::EVERYWHERE);
                for square in 0..64 {
                    let mut reach = AttackReach::NOWHERE;
                    reach.add(square);
                    let near = king_ban::<Magic, AnyPieces>(board, them, occupied, &reach);
                    assert_eq!(near >> square & 1, all >> square & 1, "{fen}: {square}");
                    // Only the pieces in reach were looked at: some other square may differ.
                    assert_eq!(near & !all, 0, "{fen}: {square}");
                }
            }
        }
    }
}
