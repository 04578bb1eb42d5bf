//! The enumerator: for a board whose status `S` is a type, computes the legal target sets of
//! every piece and hands them, as sets, to a [`Sink`]. The counting sink adds popcounts
//! (bulk counting at the last ply); the visiting sink (in [`crate::generator::visitor`]) splits them into
//! single moves with their child statuses. No branch here asks whose move it is or whether
//! castling or en passant exist: those are consts of `S` (a [`Filter`] may still leave out a
//! castle the status holds: [`Castles`]).
//!
//! Kept as one file over 600 lines: one concept, the enumerator; the per-piece target sets
//! and the filters are the parts `generate_with_masks` combines under one status `S`.

use crate::base::attacks::{self, NOT_FILE_A, NOT_FILE_H, shift};
use crate::base::board::Board;
use crate::base::geometry::{
    KING_SIDE_PATH, QUEEN_SIDE_KING_SQUARES, QUEEN_SIDE_PATH, back_rank_base, double_push_rank,
    en_passant_victim, pawn_captures, pawn_push, promotion_rank,
};
use crate::base::status::StatusFlags;
use crate::base::types::{BitIter, Color, Piece, Square};
use crate::generator::checks_and_pins::{AttackReach, LegalMasks, attacked, king_ban};
use crate::generator::material::{AnyPieces, Material};
use crate::slider::Lookup;
use core::marker::PhantomData;

/// Receives legal target sets from [`generate`]. `from`/`to` are square indices; pawn sets
/// come as destination sets with `delta = to - from`.
pub(crate) trait Sink {
    /// The generator hands each slider kind to [`Sink::piece`] from one call site (see
    /// [`PieceVisit::ONE_SITE_A_KIND`]): for sinks whose `piece` is too large to copy.
    const ONE_SITE_A_KIND: bool = true;
    /// King steps from `from` to each square of `targets`.
    fn king<S: StatusFlags>(&mut self, board: &Board, from: usize, targets: u64);
    /// Castling by the king on `king_from`, written as the move `king_from` → `target`: the
    /// king's destination, or the rook's square in Chess960 rules
    /// ([`crate::base::castling::CastlingGeometry::castle_target`]).
    fn castle<S: StatusFlags>(&mut self, board: &Board, king_from: usize, target: usize);
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
    const ONE_SITE_A_KIND: bool = false;
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

/// The side to move's (status `S`) king moves: its steps (the free neighbours of its king
/// that the opponent does not attack once the king has left `without_king`'s occupancy), and
/// whether it may castle king side and queen side (the right, not `in_check`, the squares
/// between king and rook empty, and none the king crosses or lands on attacked; only on the
/// sides `castles` names, king side then queen side). `pin_hv` is the side's rank-and-file
/// pin mask: a Chess960 castling rook pinned to its king shields it, and cannot leave.
/// `reach` must cover every square whose safety this tests.
#[inline(always)]
pub(crate) fn king_moves<S: StatusFlags, B: Lookup, M: Material>(
    board: &Board,
    in_check: bool,
    without_king: u64,
    pin_hv: u64,
    reach: &AttackReach,
    castles: [bool; 2],
) -> KingMoves {
    king_moves_within::<S, B, M>(board, in_check, without_king, pin_hv, reach, !0, castles)
}

/// [`king_moves`] of the steps onto `step_to` only: the squares left out are never tested
/// for safety.
#[inline(always)]
pub(crate) fn king_moves_within<S: StatusFlags, B: Lookup, M: Material>(
    board: &Board,
    in_check: bool,
    without_king: u64,
    pin_hv: u64,
    reach: &AttackReach,
    step_to: u64,
    castles: [bool; 2],
) -> KingMoves {
    let us = Color::from_white(S::WHITE);
    let king = board.bits(us, Piece::King).trailing_zeros() as usize;
    let candidates = attacks::king(king) & !board.color_bits(us) & step_to;
    let castling = board.castling();
    // Castling is left out in check, and on a side not asked for.
    let (k_asked, q_asked) = (castles[0] && !in_check, castles[1] && !in_check);
    // Castling needs the right, no check and the squares between king and rook empty; then
    // the squares the king crosses and lands on must be safe (b need only be empty).
    let (king_side_squares, queen_side_squares, king_side, queen_side) =
        if (S::OUR_K || S::OUR_Q) && castling.is_nonstandard() {
            // Chess960 squares, read from the board. A standard corner rook cannot be pinned
            // to its king (it would shield the king from a slider beyond it), so only this
            // path asks. Inline: a call here would cost every generator a register save.
            // The back rank as a byte, as the geometry keeps its masks.
            let base = back_rank_base(S::WHITE);
            let occupied = (without_king >> base) as u8;
            let pinned = (pin_hv >> base) as u8;
            let king_side = S::OUR_K && k_asked && castling.path_open(us, true, occupied, pinned);
            let queen_side = S::OUR_Q && q_asked && castling.path_open(us, false, occupied, pinned);
            // Selected by masks, not branches: which castle is open is data.
            (
                castling.safe(us, true) & 0u64.wrapping_sub(u64::from(king_side)),
                castling.safe(us, false) & 0u64.wrapping_sub(u64::from(queen_side)),
                king_side,
                queen_side,
            )
        } else {
            let base = back_rank_base(S::WHITE);
            let king_side = S::OUR_K && k_asked && without_king & (KING_SIDE_PATH << base) == 0;
            let queen_side = S::OUR_Q && q_asked && without_king & (QUEEN_SIDE_PATH << base) == 0;
            (
                if king_side { KING_SIDE_PATH << base } else { 0 },
                if queen_side {
                    QUEEN_SIDE_KING_SQUARES << base
                } else {
                    0
                },
                king_side,
                queen_side,
            )
        };
    // The squares whose safety matters. One alone (a boxed-in king that cannot castle, the
    // common case with many pieces) is tested by itself; more share one king-ban set of all
    // enemy attacks, castling squares included.
    let tested = candidates | king_side_squares | queen_side_squares;
    let attacked_squares = if tested & tested.wrapping_sub(1) == 0 {
        let attacked_one = tested != 0
            && attacked::<B, M>(board, !us, tested.trailing_zeros() as usize, without_king);
        if attacked_one { tested } else { 0 }
    } else {
        king_ban::<B, M>(board, !us, without_king, reach)
    };
    KingMoves {
        steps: candidates & !attacked_squares,
        king_side: king_side && king_side_squares & attacked_squares == 0,
        queen_side: queen_side && queen_side_squares & attacked_squares == 0,
    }
}

/// What [`king_moves`] finds.
#[derive(Clone, Copy)]
pub(crate) struct KingMoves {
    /// The squares the king may step to.
    pub(crate) steps: u64,
    /// Castling king side is legal.
    pub(crate) king_side: bool,
    /// Castling queen side is legal.
    pub(crate) queen_side: bool,
}

impl KingMoves {
    /// The number of king moves, castling included.
    #[inline(always)]
    pub(crate) fn count(&self) -> u64 {
        u64::from(self.steps.count_ones()) + u64::from(self.king_side) + u64::from(self.queen_side)
    }
}

/// Hands each knight of `us` that may move with its targets in `movable` (not our own,
/// inside the checkmask) to `visit(from, targets)`; a pinned knight cannot move at all.
#[inline(always)]
pub(crate) fn knight_moves<M: Material>(
    board: &Board,
    us: Color,
    movable: u64,
    masks: &LegalMasks,
    visit: impl FnMut(usize, u64),
) {
    knight_moves_from::<M>(board, us, !0, movable, masks, visit);
}

/// [`knight_moves`] of the knights on `origins` only.
#[inline(always)]
pub(crate) fn knight_moves_from<M: Material>(
    board: &Board,
    us: Color,
    origins: u64,
    movable: u64,
    masks: &LegalMasks,
    mut visit: impl FnMut(usize, u64),
) {
    for from in BitIter(M::knights(board, us) & origins & !(masks.pin_hv | masks.pin_diag)) {
        visit(from, attacks::knight(from) & movable);
    }
}

/// Hands each slider of `us` on `origins` with its legal targets to `visit(piece, from,
/// targets)`: `movable` (not our own, inside the checkmask) on the piece's rays, and a pinned
/// slider's only along its pin line (a pinned knight cannot move at all; that is the
/// caller's).
#[inline(always)]
pub(crate) fn slider_moves_from<B: Lookup, M: Material, V: PieceVisit>(
    board: &Board,
    us: Color,
    origins: u64,
    movable: u64,
    masks: &LegalMasks,
    mut visit: V,
) {
    let occupied = board.occupied_bits();
    let LegalMasks {
        pin_hv, pin_diag, ..
    } = *masks;
    let pinned = pin_hv | pin_diag;
    let bishops = M::bishops(board, us) & origins;
    let rooks = M::rooks(board, us) & origins;
    let queens = M::queens(board, us) & origins;
    if V::ONE_SITE_A_KIND {
        // A pinned slider joins its kind's loop, its targets cut to its pin line (a piece
        // stands on one pin line at most): each kind has one call site, so the visit is
        // inlined once for it.
        let line = |pins: u64, from: usize| if pins >> from & 1 != 0 { pins } else { !0 };
        for from in BitIter(bishops & !pin_hv) {
            let targets = B::bishop(from, occupied) & movable & line(pin_diag, from);
            visit.visit(Piece::Bishop, from, targets);
        }
        for from in BitIter(rooks & !pin_diag) {
            let targets = B::rook(from, occupied) & movable & line(pin_hv, from);
            visit.visit(Piece::Rook, from, targets);
        }
        for from in BitIter(queens) {
            // Unpinned: every ray; pinned: the rays along its pin line only.
            let (straight, diagonal) = if pinned >> from & 1 == 0 {
                (!0, !0)
            } else if pin_hv >> from & 1 != 0 {
                (pin_hv, 0)
            } else {
                (0, pin_diag)
            };
            let targets = ((B::rook(from, occupied) & straight)
                | (B::bishop(from, occupied) & diagonal))
                & movable;
            visit.visit(Piece::Queen, from, targets);
        }
        return;
    }
    for from in BitIter(bishops & !pinned) {
        visit.visit(Piece::Bishop, from, B::bishop(from, occupied) & movable);
    }
    for from in BitIter(rooks & !pinned) {
        visit.visit(Piece::Rook, from, B::rook(from, occupied) & movable);
    }
    for from in BitIter(queens & !pinned) {
        let targets = (B::rook(from, occupied) | B::bishop(from, occupied)) & movable;
        visit.visit(Piece::Queen, from, targets);
    }
    if (bishops | rooks | queens) & pinned != 0 {
        for from in BitIter((bishops | queens) & pin_diag) {
            let piece = if queens & 1 << from != 0 {
                Piece::Queen
            } else {
                Piece::Bishop
            };
            visit.visit(piece, from, B::bishop(from, occupied) & movable & pin_diag);
        }
        for from in BitIter((rooks | queens) & pin_hv) {
            let piece = if queens & 1 << from != 0 {
                Piece::Queen
            } else {
                Piece::Rook
            };
            visit.visit(piece, from, B::rook(from, occupied) & movable & pin_hv);
        }
    }
}

/// Receives each slider's legal targets from [`slider_moves_from`]: a closure, or a sink's
/// [`Sink::piece`] ([`SinkPieces`]).
pub(crate) trait PieceVisit {
    /// Visit each kind from one call site (pinned sliders in their kind's loop), at a few
    /// instructions a slider: for visits too large to inline at five sites.
    const ONE_SITE_A_KIND: bool = false;
    /// `piece` on `from` may move to each square of `targets`.
    fn visit(&mut self, piece: Piece, from: usize, targets: u64);
}

impl<F: FnMut(Piece, usize, u64)> PieceVisit for F {
    #[inline(always)]
    fn visit(&mut self, piece: Piece, from: usize, targets: u64) {
        self(piece, from, targets);
    }
}

/// Hands the sliders' targets to a sink (status `S`) forced inline: as a closure the
/// visiting sinks' slider code was left out of line, without the engine's CPU features.
struct SinkPieces<'a, S, K> {
    board: &'a Board,
    sink: &'a mut K,
    status: PhantomData<S>,
}

impl<S: StatusFlags, K: Sink> PieceVisit for SinkPieces<'_, S, K> {
    const ONE_SITE_A_KIND: bool = K::ONE_SITE_A_KIND;
    #[inline(always)]
    fn visit(&mut self, piece: Piece, from: usize, targets: u64) {
        self.sink.piece::<S>(self.board, piece, from, targets);
    }
}

/// The side to move's legal pawn moves as destination sets (en passant aside).
#[derive(Clone, Copy)]
pub(crate) struct PawnMoves {
    /// Single pushes, promotions included.
    single: u64,
    /// Double pushes.
    double: u64,
    /// Captures toward the a-file, promotions included.
    west: u64,
    /// Captures toward the h-file, promotions included.
    east: u64,
}

impl PawnMoves {
    /// The pawn moves of `board`'s side to move (status `S`) under `masks`.
    #[inline(always)]
    pub(crate) fn compute<S: StatusFlags>(board: &Board, masks: &LegalMasks) -> PawnMoves {
        PawnMoves::compute_from::<S>(board, !0, masks)
    }

    /// [`PawnMoves::compute`] of the pawns on `origins` only.
    #[inline(always)]
    pub(crate) fn compute_from<S: StatusFlags>(
        board: &Board,
        origins: u64,
        masks: &LegalMasks,
    ) -> PawnMoves {
        let us = Color::from_white(S::WHITE);
        let pawns = board.bits(us, Piece::Pawn) & origins;
        PawnSteps::of::<S>(pawns, masks).moves::<S>(board, masks.checkmask)
    }

    /// Whether some move reaches the last rank (rare: worth a test before masking).
    #[inline(always)]
    fn may_promote<S: StatusFlags>(&self) -> bool {
        (self.single | self.west | self.east) & promotion_rank(S::WHITE) != 0
    }

    /// The number of moves, four per promotion.
    #[inline(always)]
    pub(crate) fn count<S: StatusFlags>(&self) -> u64 {
        // Pushes land on empty squares and captures on occupied ones, and a square reached by
        // a double push cannot be reached by a single one (its pawn would block the double).
        let quiet = u64::from((self.single | self.double).count_ones());
        let captures = u64::from(self.west.count_ones() + self.east.count_ones());
        let promotions = (self.single | self.west | self.east) & promotion_rank(S::WHITE);
        let extra = if promotions != 0 {
            core::hint::cold_path();
            let west_east = (self.west & promotion_rank(S::WHITE)).count_ones()
                + (self.east & promotion_rank(S::WHITE)).count_ones();
            3 * u64::from((self.single & promotion_rank(S::WHITE)).count_ones() + west_east)
        } else {
            0
        };
        quiet + captures + extra
    }
}

/// Where pawns may step and take under their pins, whatever stands there: the part of
/// [`PawnMoves`] that the rest of the board does not change.
#[derive(Clone, Copy)]
pub(crate) struct PawnSteps {
    /// The pawns.
    pub(crate) pawns: u64,
    /// One step ahead of each pawn that may push.
    pushed: u64,
    /// Toward the a-file, of each pawn that may take so.
    west_hits: u64,
    /// Toward the h-file.
    east_hits: u64,
}

impl PawnSteps {
    /// The steps of `pawns` of the side to move (status `S`) under the pins of `masks`.
    #[inline(always)]
    pub(crate) fn of<S: StatusFlags>(pawns: u64, masks: &LegalMasks) -> PawnSteps {
        let white = S::WHITE;
        let LegalMasks {
            pin_hv, pin_diag, ..
        } = *masks;
        let push = pawn_push(white);
        let (west, east) = pawn_captures(white);
        let (pushed, west_hits, east_hits) = if pawns & (pin_hv | pin_diag) == 0 {
            (
                shift(pawns, push),
                shift(pawns & NOT_FILE_A, west),
                shift(pawns & NOT_FILE_H, east),
            )
        } else {
            // One pinned along a file may still push, one pinned on a diagonal may still
            // capture along it, and neither may leave its line.
            let pushers = pawns & !pin_diag;
            let pushed = shift(pushers & !pin_hv, push) | (shift(pushers & pin_hv, push) & pin_hv);
            let capturers = pawns & !pin_hv;
            let free = capturers & !pin_diag;
            let pinned = capturers & pin_diag;
            let capture = |files: u64, delta: i8| {
                shift(free & files, delta) | (shift(pinned & files, delta) & pin_diag)
            };
            (pushed, capture(NOT_FILE_A, west), capture(NOT_FILE_H, east))
        };
        PawnSteps {
            pawns,
            pushed,
            west_hits,
            east_hits,
        }
    }

    /// The moves these steps give on `board` (status `S`), inside `checkmask`.
    #[inline(always)]
    pub(crate) fn moves<S: StatusFlags>(&self, board: &Board, checkmask: u64) -> PawnMoves {
        let white = S::WHITE;
        let occupied = board.occupied_bits();
        let single = self.pushed & !occupied;
        let victims = board.color_bits(Color::from_white(!white)) & checkmask;
        PawnMoves {
            double: shift(single & double_push_rank(white), pawn_push(white))
                & !occupied
                & checkmask,
            single: single & checkmask,
            west: self.west_hits & victims,
            east: self.east_hits & victims,
        }
    }
}

/// Which of a position's legal moves the generator produces. [`All`] is every move, folded
/// away at compile time; [`Masked`] narrows the origins and, separately for noisy moves
/// (captures, en passant, promotions) and quiet ones, the destinations, and the generator
/// skips the pieces and the king squares no wanted move can come from or go to.
pub(crate) trait Filter: Copy {
    /// Every move passes (but the castles [`Filter::castles`] leaves out): the masks are
    /// never read.
    const FULL: bool;
    /// The squares moves may start from (by default every square, as a full filter has).
    #[inline(always)]
    fn origins(&self) -> u64 {
        !0
    }
    /// The squares noisy moves may land on (an en-passant capture: the square it lands on).
    #[inline(always)]
    fn noisy_to(&self) -> u64 {
        !0
    }
    /// The squares quiet moves may land on (castling: the square [`Sink::castle`] names).
    #[inline(always)]
    fn quiet_to(&self) -> u64 {
        !0
    }
    /// Whether the king-side and queen-side castles may be generated, where the status holds
    /// the right: a status may stand for several sets of rights (see [`Castles`]).
    #[inline(always)]
    fn castles(&self) -> [bool; 2] {
        [true, true]
    }
}

/// Every legal move, castling only on the sides named: the side to move's rights known at
/// run time, under a status that holds both.
#[derive(Clone, Copy)]
pub(crate) struct Castles(pub(crate) [bool; 2]);

impl Filter for Castles {
    const FULL: bool = true;
    #[inline(always)]
    fn castles(&self) -> [bool; 2] {
        self.0
    }
}

/// Every legal move.
#[derive(Clone, Copy)]
pub(crate) struct All;

impl Filter for All {
    const FULL: bool = true;
}

/// The legal moves from `origins` to `noisy_to` (noisy moves) or `quiet_to` (quiet ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Masked {
    /// See [`Filter::origins`].
    pub(crate) origins: u64,
    /// See [`Filter::noisy_to`].
    pub(crate) noisy_to: u64,
    /// See [`Filter::quiet_to`].
    pub(crate) quiet_to: u64,
}

impl Filter for Masked {
    const FULL: bool = false;
    #[inline(always)]
    fn origins(&self) -> u64 {
        self.origins
    }
    #[inline(always)]
    fn noisy_to(&self) -> u64 {
        self.noisy_to
    }
    #[inline(always)]
    fn quiet_to(&self) -> u64 {
        self.quiet_to
    }
}

/// Generates every legal move of `board` (status `S`, en-passant target square `ep`, read
/// only when `S::EP`) into `sink`.
#[inline(always)]
pub(crate) fn generate<S: StatusFlags, B: Lookup, M: Material, K: Sink>(
    board: &Board,
    ep: u8,
    sink: &mut K,
) {
    generate_filtered::<S, B, M, K, All>(board, ep, All, sink);
}

/// [`generate`] of the moves `filter` lets through.
#[inline(always)]
pub(crate) fn generate_filtered<S: StatusFlags, B: Lookup, M: Material, K: Sink, F: Filter>(
    board: &Board,
    ep: u8,
    filter: F,
    sink: &mut K,
) {
    let us = Color::from_white(S::WHITE);
    let king = board.bits(us, Piece::King).trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B, M>(board, us, king);
    let reach = &AttackReach::EVERYWHERE;
    generate_with_masks::<S, B, M, K, F>(board, ep, &masks, reach, filter, sink);
}

/// [`generate_filtered`] when the side to move's legality masks are known already, and
/// where the opponent's pieces can attack its king's squares (`king_reach`, see
/// [`king_moves`]).
#[inline(always)]
pub(crate) fn generate_with_masks<S: StatusFlags, B: Lookup, M: Material, K: Sink, F: Filter>(
    board: &Board,
    ep: u8,
    masks: &LegalMasks,
    king_reach: &AttackReach,
    filter: F,
    sink: &mut K,
) {
    let masks = *masks;
    let white = S::WHITE;
    let us = Color::from_white(white);
    let them = !us;
    let ours = board.color_bits(us);
    let occupied = board.occupied_bits();
    let king_bit = board.bits(us, Piece::King);
    let king = king_bit.trailing_zeros() as usize;
    let origins = filter.origins();
    // Where a piece or king move may land: captures on their pieces, quiet moves on empty
    // squares (everything not ours when all moves are wanted).
    let landing = if F::FULL {
        !ours
    } else {
        (board.color_bits(them) & filter.noisy_to()) | (!occupied & filter.quiet_to())
    };

    let without_king = occupied ^ king_bit;
    let king_origin = F::FULL || origins & king_bit != 0;
    let king_to = if king_origin { landing } else { 0 };
    // Castling is quiet; its target square is checked once it is found legal.
    let castles = F::FULL || (king_origin && (S::OUR_K || S::OUR_Q) && filter.quiet_to() != 0);
    let king_wanted = F::FULL || castles || attacks::king(king) & king_to != 0;
    if masks.double_check() {
        if king_wanted {
            let steps = king_moves_within::<S, B, M>(
                board,
                true,
                without_king,
                0,
                king_reach,
                king_to,
                [false; 2],
            )
            .steps;
            sink.king::<S>(board, king, steps);
        }
        return;
    }
    let in_check = masks.checkers != 0;
    if king_wanted {
        let king_moves = king_moves_within::<S, B, M>(
            board,
            in_check,
            without_king,
            masks.pin_hv,
            king_reach,
            king_to,
            filter.castles().map(|side| side && castles),
        );
        sink.king::<S>(board, king, king_moves.steps);
        let castle_to = |kingside: bool| board.castling().castle_target(us, kingside).index();
        if king_moves.king_side && (F::FULL || filter.quiet_to() & 1 << castle_to(true) != 0) {
            sink.castle::<S>(board, king, castle_to(true));
        }
        if king_moves.queen_side && (F::FULL || filter.quiet_to() & 1 << castle_to(false) != 0) {
            sink.castle::<S>(board, king, castle_to(false));
        }
    }

    let movable = landing & masks.checkmask;
    // A narrow filter often leaves no piece a target: skip the loops and their lookups.
    if F::FULL || movable != 0 {
        knight_moves_from::<M>(board, us, origins, movable, &masks, |from, targets| {
            sink.piece::<S>(board, Piece::Knight, from, targets)
        });
        let pieces = SinkPieces::<S, K> {
            board,
            sink: &mut *sink,
            status: PhantomData,
        };
        slider_moves_from::<B, M, _>(board, us, origins, movable, &masks, pieces);
    }

    let pawns_wanted = F::FULL || board.bits(us, Piece::Pawn) & origins != 0;
    if pawns_wanted {
        let pawn = PawnMoves::compute_from::<S>(board, origins, &masks);
        let PawnMoves {
            mut single,
            mut double,
            mut west,
            mut east,
        } = pawn;
        if !F::FULL {
            // Pushes are quiet unless they promote; captures and promotions are noisy.
            let promotion = promotion_rank(white);
            let (noisy, quiet) = (filter.noisy_to(), filter.quiet_to());
            single &= (quiet & !promotion) | (noisy & promotion);
            double &= quiet;
            west &= noisy;
            east &= noisy;
        }
        let pawn = PawnMoves {
            single,
            double,
            west,
            east,
        };
        let push = pawn_push(white);
        let (west_delta, east_delta) = pawn_captures(white);
        sink.pawn_double_pushes::<S>(board, double, 2 * push);
        if pawn.may_promote::<S>() {
            core::hint::cold_path();
            let promotion = promotion_rank(white);
            sink.pawn_pushes::<S>(board, single & !promotion, push);
            sink.pawn_captures::<S>(board, west & !promotion, west_delta);
            sink.pawn_captures::<S>(board, east & !promotion, east_delta);
            sink.promotions::<S>(board, single & promotion, push);
            sink.promotions::<S>(board, west & promotion, west_delta);
            sink.promotions::<S>(board, east & promotion, east_delta);
        } else {
            // Nothing reaches the last rank: no masking needed.
            sink.pawn_pushes::<S>(board, single, push);
            sink.pawn_captures::<S>(board, west, west_delta);
            sink.pawn_captures::<S>(board, east, east_delta);
        }
    }

    if S::EP && (F::FULL || filter.noisy_to() & 1 << (ep & 63) != 0) {
        generate_ep::<S, B, M>(board, ep, &masks, origins, |from, to| {
            sink.en_passant::<S>(board, from, to)
        });
    }
}

/// Hands each legal en-passant capture (`from`, `to`) of `board` (status `S`, en-passant
/// target square `ep`) to `visit`, the side to move's masks computed here: for nodes that
/// take these captures apart from the rest of their moves.
#[inline(always)]
pub(crate) fn en_passant_captures<S: StatusFlags, B: Lookup>(
    board: &Board,
    ep: u8,
    mut visit: impl FnMut(Square, Square),
) {
    let us = Color::from_white(S::WHITE);
    let king = board.bits(us, Piece::King).trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B, AnyPieces>(board, us, king);
    generate_ep::<S, B, AnyPieces>(board, ep, &masks, !0, |from, to| {
        visit(
            Square::from_index(from as u32),
            Square::from_index(to as u32),
        )
    });
}

/// The number of legal en-passant captures onto `ep` of the side to move (of `S`, whose
/// en passant the caller knows of apart) with its legality masks `masks`.
#[inline(always)]
pub(crate) fn en_passant_count<S: StatusFlags, B: Lookup, M: Material>(
    board: &Board,
    ep: u8,
    masks: &LegalMasks,
) -> u64 {
    let mut captures = 0;
    generate_ep::<S, B, M>(board, ep, masks, !0, |_, _| captures += 1);
    captures
}

/// Hands each legal en-passant capture (`from`, `to`) of the pawns on `origins` to `visit`;
/// `ep` is the target square of a double push just made (`S` gives only the side to move:
/// [`en_passant_count`] passes a status without en passant).
#[inline(always)]
fn generate_ep<S: StatusFlags, B: Lookup, M: Material>(
    board: &Board,
    ep: u8,
    masks: &LegalMasks,
    origins: u64,
    mut visit: impl FnMut(usize, usize),
) {
    let white = S::WHITE;
    let us = Color::from_white(white);
    let them = !us;
    let occupied = board.occupied_bits();
    let king = board.bits(us, Piece::King).trailing_zeros() as usize;
    let pawns = board.bits(us, Piece::Pawn) & origins;
    let checkmask = masks.checkmask;
    let to = ep as usize & 63;
    let to_bit = 1u64 << to;
    let victim_bit = en_passant_victim(us, Square::from_index(to as u32)).bit();
    // Our pawns that attack the target square are those a pawn of theirs there would.
    let ep_capturers = attacks::pawn_attacks_from(to, !white) & pawns;
    // The capture must resolve a check (block it, or take the checking pawn). Pins and the
    // rank attack uncovered when both pawns leave are found by looking again from the king.
    if ep_capturers != 0 && checkmask & (to_bit | victim_bit) != 0 {
        let their_queens = M::queens(board, them);
        let their_hv = M::rooks(board, them) | their_queens;
        let their_diag = M::bishops(board, them) | their_queens;
        for from in BitIter(ep_capturers) {
            let after = occupied ^ (1 << from) ^ victim_bit ^ to_bit;
            if B::rook(king, after) & their_hv == 0 && B::bishop(king, after) & their_diag == 0 {
                visit(from, to);
            }
        }
    }
}

/// Whether the side to move (status `S`, en-passant square `ep`) has a legal move, stopping
/// at the first: the cheap sets first (pawns, knights, then sliders one by one), the king
/// and its safety tests only when no other piece can move, en passant last.
#[inline(always)]
pub(crate) fn has_legal_move<S: StatusFlags, B: Lookup, M: Material>(
    board: &Board,
    ep: u8,
) -> bool {
    let us = Color::from_white(S::WHITE);
    let king_bit = board.bits(us, Piece::King);
    let king = king_bit.trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B, M>(board, us, king);
    let LegalMasks {
        checkmask,
        pin_hv,
        pin_diag,
        checkers,
    } = masks;
    let occupied = board.occupied_bits();
    let without_king = occupied ^ king_bit;
    if !masks.double_check() {
        let pawn = PawnMoves::compute::<S>(board, &masks);
        if pawn.single | pawn.double | pawn.west | pawn.east != 0 {
            return true;
        }
        let movable = !board.color_bits(us) & checkmask;
        let pinned = pin_hv | pin_diag;
        for from in BitIter(M::knights(board, us) & !pinned) {
            if attacks::knight(from) & movable != 0 {
                return true;
            }
        }
        let queens = M::queens(board, us);
        let diagonal = M::bishops(board, us) | queens;
        let straight = M::rooks(board, us) | queens;
        for from in BitIter(diagonal & !pinned) {
            if B::bishop(from, occupied) & movable != 0 {
                return true;
            }
        }
        for from in BitIter(straight & !pinned) {
            if B::rook(from, occupied) & movable != 0 {
                return true;
            }
        }
        // A pinned slider moves along its pin line only.
        for from in BitIter(diagonal & pin_diag) {
            if B::bishop(from, occupied) & movable & pin_diag != 0 {
                return true;
            }
        }
        for from in BitIter(straight & pin_hv) {
            if B::rook(from, occupied) & movable & pin_hv != 0 {
                return true;
            }
        }
    }
    let double_check = masks.double_check();
    let king_moves = king_moves_within::<S, B, M>(
        board,
        checkers != 0,
        without_king,
        if double_check { 0 } else { pin_hv },
        &AttackReach::EVERYWHERE,
        !0,
        [!double_check; 2],
    );
    if king_moves.count() != 0 {
        return true;
    }
    if S::EP && !double_check {
        let mut any = false;
        generate_ep::<S, B, M>(board, ep, &masks, !0, |_, _| any = true);
        return any;
    }
    false
}
