//! The enumerator: for a board whose status `S` is a type, computes the legal target sets of
//! every piece and hands them, as sets, to a [`Sink`]. The counting sink adds popcounts
//! (bulk counting at the last ply); the visiting sink (in [`crate::visitor`]) splits them into
//! single moves with their child statuses. No branch here asks whose move it is or whether
//! castling or en passant exist: those are consts of `S`.

use crate::attacks::{self, NOT_FILE_A, NOT_FILE_H, shift};
use crate::board::{Board, en_passant_victim};
use crate::checks_and_pins::{BitIter, LegalMasks, attacked, king_ban};
use crate::slider::SliderBackend;
use crate::status::StatusFlags;
use crate::types::{Color, Piece, Square};

/// Receives legal target sets from [`generate`]. `from`/`to` are square indices; pawn sets
/// come as destination sets with `delta = to - from`.
pub(crate) trait Sink {
    /// King steps from `from` to each square of `targets`.
    fn king<S: StatusFlags>(&mut self, board: &Board, from: usize, targets: u64);
    /// Castling with the king going `king_from` → `king_to`.
    fn castle<S: StatusFlags>(&mut self, board: &Board, king_from: usize, king_to: usize);
    /// Moves of a knight, bishop, rook or queen from `from`.
    fn piece<S: StatusFlags>(&mut self, board: &Board, piece: Piece, from: usize, targets: u64);
    /// Single pawn pushes that do not promote.
    fn pawn_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8);
    /// Double pawn pushes.
    fn pawn_double_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8);
    /// Pawn captures that do not promote.
    fn pawn_captures<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8);
    /// Pushes or captures onto the last rank, four moves each.
    fn promotions<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8);
    /// One en-passant capture.
    fn en_passant<S: StatusFlags>(&mut self, board: &Board, from: usize, to: usize);
}

/// Counts moves: bulk counting at the last ply builds no child board.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn king<S: StatusFlags>(&mut self, _: &Board, _: usize, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn castle<S: StatusFlags>(&mut self, _: &Board, _: usize, _: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn piece<S: StatusFlags>(&mut self, _: &Board, _: Piece, _: usize, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_pushes<S: StatusFlags>(&mut self, _: &Board, targets: u64, _: i8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_double_pushes<S: StatusFlags>(&mut self, _: &Board, targets: u64, _: i8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_captures<S: StatusFlags>(&mut self, _: &Board, targets: u64, _: i8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions<S: StatusFlags>(&mut self, _: &Board, targets: u64, _: i8) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn en_passant<S: StatusFlags>(&mut self, _: &Board, _: usize, _: usize) {
        self.0 += 1;
    }
}

/// Rank 3 from the mover's side: single pushes landing here may push again.
const fn double_push_rank(white: bool) -> u64 {
    if white { 0xFF << 16 } else { 0xFF << 40 }
}

/// The mover's last rank.
const fn promotion_rank(white: bool) -> u64 {
    if white { 0xFF << 56 } else { 0xFF }
}

/// The mover's back rank, where its king and rooks start (square index of a1 or a8).
const fn back_rank_base(white: bool) -> usize {
    if white { 0 } else { 56 }
}

/// Push and capture destinations (before emptiness, checkmask and victims are applied) when
/// some pawn is pinned: one pinned along a file may still push, one pinned on a diagonal may
/// still capture along it, and neither may leave its line.
#[inline(always)]
fn pinned_pawn_moves(
    pawns: u64,
    push: i8,
    west: i8,
    east: i8,
    pin_hv: u64,
    pin_diag: u64,
) -> (u64, u64, u64) {
    let pushers = pawns & !pin_diag;
    let pushed = shift(pushers & !pin_hv, push) | (shift(pushers & pin_hv, push) & pin_hv);
    let capturers = pawns & !pin_hv;
    let free = capturers & !pin_diag;
    let pinned = capturers & pin_diag;
    let capture = |files: u64, delta: i8| {
        shift(free & files, delta) | (shift(pinned & files, delta) & pin_diag)
    };
    (pushed, capture(NOT_FILE_A, west), capture(NOT_FILE_H, east))
}

/// Generates every legal move of `board` (status `S`, en-passant target square `ep`, read
/// only when `S::EP`) into `sink`.
#[inline(always)]
pub(crate) fn generate<S: StatusFlags, B: SliderBackend, K: Sink>(
    board: &Board,
    ep: u8,
    sink: &mut K,
) {
    let white = S::WHITE;
    let us = Color::from_white(white);
    let them = !us;
    let ours = board.color_bits(us);
    let theirs = board.color_bits(them);
    let occupied = board.occupied_bits();
    let king_bit = board.bits(us, Piece::King);
    let king = king_bit.trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B>(board, us, king);

    // King steps. A boxed-in king (the common case with many pieces) has at most one free
    // square: test it alone. Otherwise build the king-ban set of all enemy attacks.
    let without_king = occupied ^ king_bit;
    let candidates = attacks::king(king) & !ours;
    let king_targets = if candidates & candidates.wrapping_sub(1) == 0 {
        let attacked_one = candidates != 0
            && attacked::<B>(
                board,
                them,
                candidates.trailing_zeros() as usize,
                without_king,
            );
        if attacked_one { 0 } else { candidates }
    } else {
        candidates & !king_ban::<B>(board, them, without_king)
    };
    sink.king::<S>(board, king, king_targets);
    if masks.double_check() {
        return;
    }
    let in_check = masks.checkers != 0;

    let base = back_rank_base(white);
    if S::OUR_K
        && !in_check
        && occupied & (0b0110_0000 << base) == 0
        && !attacked::<B>(board, them, base + 5, without_king)
        && !attacked::<B>(board, them, base + 6, without_king)
    {
        sink.castle::<S>(board, base + 4, base + 6);
    }
    if S::OUR_Q
        && !in_check
        && occupied & (0b0000_1110 << base) == 0
        && !attacked::<B>(board, them, base + 3, without_king)
        && !attacked::<B>(board, them, base + 2, without_king)
    {
        sink.castle::<S>(board, base + 4, base + 2);
    }

    let LegalMasks {
        checkmask,
        pin_hv,
        pin_diag,
        ..
    } = masks;
    let movable = !ours & checkmask;
    let pinned = pin_hv | pin_diag;

    for from in BitIter(board.bits(us, Piece::Knight) & !pinned) {
        sink.piece::<S>(board, Piece::Knight, from, attacks::knight(from) & movable);
    }

    let bishops = board.bits(us, Piece::Bishop);
    let rooks = board.bits(us, Piece::Rook);
    let queens = board.bits(us, Piece::Queen);
    for from in BitIter(bishops & !pinned) {
        sink.piece::<S>(
            board,
            Piece::Bishop,
            from,
            B::bishop(from, occupied) & movable,
        );
    }
    for from in BitIter(rooks & !pinned) {
        sink.piece::<S>(board, Piece::Rook, from, B::rook(from, occupied) & movable);
    }
    for from in BitIter(queens & !pinned) {
        let targets = (B::rook(from, occupied) | B::bishop(from, occupied)) & movable;
        sink.piece::<S>(board, Piece::Queen, from, targets);
    }
    // Pinned sliders move along their pin line only (a knight pinned cannot move at all).
    if (bishops | rooks | queens) & pinned != 0 {
        for from in BitIter((bishops | queens) & pin_diag) {
            let piece = if queens & 1 << from != 0 {
                Piece::Queen
            } else {
                Piece::Bishop
            };
            let targets = B::bishop(from, occupied) & movable & pin_diag;
            sink.piece::<S>(board, piece, from, targets);
        }
        for from in BitIter((rooks | queens) & pin_hv) {
            let piece = if queens & 1 << from != 0 {
                Piece::Queen
            } else {
                Piece::Rook
            };
            let targets = B::rook(from, occupied) & movable & pin_hv;
            sink.piece::<S>(board, piece, from, targets);
        }
    }

    // Pawns, as whole sets.
    let pawns = board.bits(us, Piece::Pawn);
    let push: i8 = if white { 8 } else { -8 };
    let promotion = promotion_rank(white);
    // One test spares the promotion sets in the many positions with no pawn on the 7th.
    let may_promote = shift(pawns, push) & promotion != 0;

    // Toward the a-file (white +7, black -9) and toward the h-file (white +9, black -7).
    let west: i8 = if white { 7 } else { -9 };
    let east: i8 = if white { 9 } else { -7 };
    let (pushed, west_hits, east_hits) = if pawns & pinned == 0 {
        (
            shift(pawns, push),
            shift(pawns & NOT_FILE_A, west),
            shift(pawns & NOT_FILE_H, east),
        )
    } else {
        pinned_pawn_moves(pawns, push, west, east, pin_hv, pin_diag)
    };
    let single = pushed & !occupied;
    let double = shift(single & double_push_rank(white), push) & !occupied & checkmask;
    let single = single & checkmask;
    sink.pawn_double_pushes::<S>(board, double, 2 * push);
    let victims = theirs & checkmask;
    let west_hits = west_hits & victims;
    let east_hits = east_hits & victims;
    if may_promote {
        core::hint::cold_path();
        sink.pawn_pushes::<S>(board, single & !promotion, push);
        sink.pawn_captures::<S>(board, west_hits & !promotion, west);
        sink.pawn_captures::<S>(board, east_hits & !promotion, east);
        sink.promotions::<S>(board, single & promotion, push);
        sink.promotions::<S>(board, west_hits & promotion, west);
        sink.promotions::<S>(board, east_hits & promotion, east);
    } else {
        // No pawn on the 7th: nothing reaches the last rank, no masking needed.
        sink.pawn_pushes::<S>(board, single, push);
        sink.pawn_captures::<S>(board, west_hits, west);
        sink.pawn_captures::<S>(board, east_hits, east);
    }

    if S::EP {
        let to = ep as usize & 63;
        let to_bit = 1u64 << to;
        let victim_bit = en_passant_victim(us, Square::from_index(to as u32)).bit();
        // Our pawns that attack the target square are those a pawn of theirs there would.
        let ep_capturers = attacks::pawn_attacks_from(to, !white) & pawns;
        // The capture must resolve a check (block it, or take the checking pawn). Pins and the
        // rank attack uncovered when both pawns leave are found by looking again from the king.
        if ep_capturers != 0 && checkmask & (to_bit | victim_bit) != 0 {
            let their_queens = board.bits(them, Piece::Queen);
            let their_hv = board.bits(them, Piece::Rook) | their_queens;
            let their_diag = board.bits(them, Piece::Bishop) | their_queens;
            for from in BitIter(ep_capturers) {
                let after = occupied ^ (1 << from) ^ victim_bit ^ to_bit;
                if B::rook(king, after) & their_hv == 0 && B::bishop(king, after) & their_diag == 0
                {
                    sink.en_passant::<S>(board, from, to);
                }
            }
        }
    }
}
