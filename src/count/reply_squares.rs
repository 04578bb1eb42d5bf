//! The squares the replier's moves depend on, and the sorting of a depth-2 node's moves by
//! which of them a move touches.
//!
//! At a depth-2 node the side to move (the *mover*) makes each child and the other side (the
//! *replier*) has its moves counted there. What a quiet move of the mover touches decides how
//! much of that count must be done again:
//! - **untouched**: from on [`Untouched::from`] and to on [`Untouched::to`]
//!   of its piece. Every legal move of the replier is as it was,
//!   so the replier has exactly as many moves as on the parent's board with the turn passed:
//!   one count of that serves all such children, and none is made.
//! - **pins known**: a plain move or capture from off [`ReplySquares::leave`] to off
//!   [`ReplySquares::arrive`] for its piece, or another move changing no square of
//!   [`ReplySquares::lines`]. The child gives no check and the replier's pins are those of
//!   the parent: only the parts of the count whose squares it touches are redone.
//! - everything else is made and its own masks decide (see `depth2`).
//!
//! What the replier's moves read:
//! - its sliders' rays (a square on one that empties or fills changes it), but for a ray's
//!   last square on the edge: a piece of the mover's arriving there or leaving turns a quiet
//!   move into a capture or back, one move either way,
//! - its pawns' push and capture squares (emptiness and victims),
//! - its king's lines: where a slider of the line's kind arriving checks or pins (up to the
//!   first piece, through a first piece of the replier's to the second), the pin lines (a
//!   piece arriving breaks the pin), the mover's pieces whose leaving discovers a check or a
//!   pin, and the squares a knight or pawn checks it from,
//! - the squares its king may step or castle to and castle across, everything that sees them
//!   (attackers arriving, leaving, or blocked), and the castling paths that must be empty.
//!
//! Knights' moves do not depend on a quiet move elsewhere: a target that empties or fills with
//! an enemy piece is one move either way. A capture changes them only on a knight's square or
//! one a knight attacks.

use crate::base::attacks::{self, between, shift};
use crate::base::board::Board;
use crate::base::castling::CastlingGeometry;
use crate::base::geometry::{
    KING_SIDE_PATH, QUEEN_SIDE_KING_SQUARES, QUEEN_SIDE_PATH, back_rank_base, double_push_rank,
    pawn_push, seventh_rank,
};
use crate::base::status::StatusFlags;
use crate::base::types::{BitIter, Color, Piece};
use crate::generator::checks_and_pins::AttackReach;
use crate::generator::movegen::Sink;
use crate::slider::Lookup;

/// The squares a quiet move of the mover must stay off (both its from and its to square) to
/// leave the replier's moves alone, by what depends on them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReplySquares {
    /// The lines through the replier's king: a move whose squares are all off these gives
    /// no check and keeps the replier's pins (castles, promotions and en passant are tested
    /// against them; plain moves against `leave` and `arrive`, which are narrower).
    pub(crate) lines: u64,
    /// The mover's pieces whose leaving can discover a check or make or break a pin.
    pub(crate) leave: u64,
    /// By the moving piece's kind ([`Piece`] index), the squares where its arrival, quiet or
    /// a capture, can check or make or break a pin.
    pub(crate) arrive: [u64; 6],
    /// The replier's slider rays and squares by kind: the diagonal rays of its bishops and
    /// queens, then the straight rays of its rooks and queens, without the rays' empty or
    /// mover-held last squares on the edge. A child that changes only one kind leaves the
    /// other kind's moves as they are.
    pub(crate) slider_kinds: [u64; 2],
    /// The replier's pawn push and capture squares.
    pub(crate) pawns: u64,
    /// The replier's knights and the squares they attack: a capture elsewhere leaves their
    /// moves as they are.
    pub(crate) knights: u64,
    /// The squares the replier's king may step or castle to or across, what sees them, and
    /// the castling paths; of the mover's own squares, only those whose piece's leaving
    /// changes what attacks them, and its pawns about to promote.
    pub(crate) king: u64,
    /// Where the mover's knights and sliders must stand to attack the king's squares among
    /// those (its free neighbours and castling squares).
    pub(crate) king_reach: AttackReach,
    /// The replier's slider moves while none of its sliders is pinned (each slider's rays
    /// up to its first piece, not onto its own), diagonal then straight: read by the passed
    /// count, so its lookups are not done twice.
    pub(crate) slider_moves: [u64; 2],
}

/// The squares a quiet move's from square (`from`) and, by its piece's kind, to square
/// (`to`) may be on and leave the replier's moves as they are: off [`ReplySquares::leave`],
/// [`ReplySquares::arrive`], the sliders' and pawns' squares, and the part of the king's
/// zone that kind changes (its squares, neighbours and castling paths, where that kind
/// attacks them, and where a piece blocks or unblocks a mover's slider toward them).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Untouched {
    /// For the from square.
    pub(crate) from: u64,
    /// For the to square, by the piece's kind ([`Piece`] index).
    pub(crate) to: [u64; 6],
}

/// The squares the moves of pawns `pawns` of `white` or not read: one and two push steps
/// (whatever stands there) and the capture squares.
#[inline(always)]
fn pawn_reads(pawns: u64, white: bool) -> u64 {
    let push = pawn_push(white);
    let single = shift(pawns, push);
    single | shift(single & double_push_rank(white), push) | attacks::pawn_attacks(pawns, white)
}

impl ReplySquares {
    /// Every square on every line: what a sparse depth-2 node, which sorts nothing, passes.
    pub(crate) const EVERYWHERE: ReplySquares = ReplySquares {
        lines: !0,
        leave: !0,
        arrive: [!0; 6],
        slider_kinds: [!0; 2],
        pawns: !0,
        knights: !0,
        king: !0,
        king_reach: AttackReach::EVERYWHERE,
        // Never read: a sparse node counts no passed parts.
        slider_moves: [0; 2],
    };

    /// The reply squares of `board`, whose status `S` names the mover (see the module docs),
    /// and the squares off which a quiet move is untouched.
    #[inline(always)]
    pub(crate) fn compute<S: StatusFlags, B: Lookup>(
        board: &Board,
        rights: [bool; 2],
    ) -> (ReplySquares, Untouched) {
        // The replier's rights: those its status holds that it has (king side, queen side).
        let (their_k, their_q) = (S::THEIR_K && rights[0], S::THEIR_Q && rights[1]);
        let replier_white = !S::WHITE;
        let replier = Color::from_white(replier_white);
        let occupied = board.occupied_bits();
        let own = board.color_bits(replier);

        // Lines from the king up to its first piece, and through a first piece of its own up
        // to the second: a slider of their kind arriving there checks or pins (past the
        // mover's first piece nothing can). Knights and pawns check from nearby.
        let king_bit = board.bits(replier, Piece::King);
        let king = king_bit.trailing_zeros() as usize;
        let ortho = B::rook(king, occupied & !(B::rook(king, occupied) & own));
        let diag = B::bishop(king, occupied & !(B::bishop(king, occupied) & own));
        let knight_checks = attacks::knight(king);
        let pawn_checks = attacks::pawn_attacks_from(king, replier_white);
        // The mover's sliders on the king's lines: the one mover's piece between such a slider
        // and the king with at most one of the replier's can discover a check or a pin by
        // leaving; with none between, the slider pins (or checks) and its line is the pin.
        let theirs = occupied & !own;
        let their_queens = board.bits(!replier, Piece::Queen);
        let aligned = ((board.bits(!replier, Piece::Bishop) | their_queens)
            & attacks::bishop_rays(king))
            | ((board.bits(!replier, Piece::Rook) | their_queens) & attacks::rook_rays(king));
        let (mut leave, mut pin) = (0, 0);
        for slider in BitIter(aligned) {
            let line = between(king, slider);
            let (mine, others) = (line & own, line & theirs);
            if mine & mine.wrapping_sub(1) == 0 {
                if others == 0 {
                    leave |= 1 << slider;
                    pin |= line;
                } else if others & others.wrapping_sub(1) == 0 {
                    leave |= others;
                }
            }
        }
        let lines = ortho | diag | knight_checks | pawn_checks | leave | pin;
        // A piece arriving on a pin line breaks the pin. Elsewhere a capture leaves as many
        // pieces on the line, so, as a quiet arrival, it checks or pins only along lines of
        // its kind (which hold the replier's pieces on them).
        let common = pin;
        let arrive = [
            common | pawn_checks,
            common | knight_checks,
            common | diag,
            common | ortho,
            common | diag | ortho,
            common,
        ];

        // Slider rays: a square on one that empties or fills lengthens or cuts it.
        let queens = board.bits(replier, Piece::Queen);
        let bishops = board.bits(replier, Piece::Bishop) | queens;
        let rooks = board.bits(replier, Piece::Rook) | queens;
        // The sliders' own squares: a capture there takes a slider's moves away.
        let mut slider_kinds = [bishops, rooks];
        let mut slider_moves = [0; 2];
        // Those on the king's lines may be pinned: a move that changes their rays is made.
        for from in BitIter(bishops) {
            let rays = B::bishop(from, occupied);
            slider_kinds[0] |= rays;
            slider_moves[0] += u64::from((rays & !own).count_ones());
        }
        // A ray's last square on the edge counts one move whoever holds it but the replier.
        // A diagonal ray meets the edge only there, so one mask serves all of them.
        slider_kinds[0] &= !(EDGES & !own);
        for from in BitIter(rooks) {
            let rays = B::rook(from, occupied);
            slider_kinds[1] |= without_straight_ends(rays, from, own);
            slider_moves[1] += u64::from((rays & !own).count_ones());
        }
        let sliders = slider_kinds[0] | slider_kinds[1];
        // Pawns: their squares (captured there), push squares (one and two steps) and
        // capture squares.
        let pawns = board.bits(replier, Piece::Pawn);
        let pawn_squares = pawns | pawn_reads(pawns, replier_white);
        // Knights: their squares (taken there) and what they attack (a capture there gives
        // one a target).
        let knights = board.bits(replier, Piece::Knight);
        let knight_squares = knights | attacks::knights(knights);
        // Where the king may go: those squares, castling paths with no piece of the
        // replier's own on them (a quiet move cannot clear one that has), and all that sees
        // them.
        let mut king_squares = attacks::king(king) & !own;
        let mut king_zone = 0;
        let castling = board.castling();
        if (their_k || their_q) && castling.is_nonstandard() {
            let (zone, squares) = chess960_king_squares(castling, own, replier, [their_k, their_q]);
            king_zone |= zone;
            king_squares |= squares;
        } else {
            let base = back_rank_base(replier_white);
            let king_path = KING_SIDE_PATH << base;
            if their_k && own & king_path == 0 {
                king_zone |= king_path;
                king_squares |= king_path;
            }
            let queen_path = QUEEN_SIDE_PATH << base;
            if their_q && own & queen_path == 0 {
                king_zone |= queen_path;
                king_squares |= QUEEN_SIDE_KING_SQUARES << base;
            }
        }
        let without_king = occupied ^ king_bit;
        // All neighbours: a capture beside the king frees a square for it.
        king_zone |= king_squares | attacks::king(king);
        // A child adds to these only the square of a neighbour it captures (a capture on a
        // castling path leaves the capturer there, so castling stays shut).
        let mut king_reach = AttackReach::NOWHERE;
        // The paths, the king's squares and neighbours: any piece arriving or leaving there
        // may change the king's moves.
        let near = king_zone;
        let (mut orthogonal, mut diagonal) = (0, 0);
        for square in BitIter(king_squares) {
            let (rook, bishop) = (
                B::rook(square, without_king),
                B::bishop(square, without_king),
            );
            orthogonal |= rook;
            diagonal |= bishop;
            king_zone |= rook | bishop | attacks::knight(square) | attacks::king(square);
            king_reach.add(square);
        }
        // With one square or none to go to, the king's whole zone: the finer sets cost
        // more than the moves they leave untouched.
        let (king_leave, king_arrive) = if king_squares & king_squares.wrapping_sub(1) == 0 {
            (king_zone, [king_zone; 6])
        } else {
            // A square both a mover's slider and a king's square see may block or open that
            // slider's attack on it.
            let mover = !replier;
            let (their_rooks, their_bishops) = (
                board.bits(mover, Piece::Rook) | their_queens,
                board.bits(mover, Piece::Bishop) | their_queens,
            );
            let mut block = near;
            for from in BitIter(their_rooks & king_reach.orthogonal) {
                block |= B::rook(from, without_king) & orthogonal;
            }
            for from in BitIter(their_bishops & king_reach.diagonal) {
                block |= B::bishop(from, without_king) & diagonal;
            }
            let pawn_steps = attacks::pawn_attacks(king_squares, replier_white);
            let king_steps = attacks::king_area(king_squares);
            let king_arrive = [
                block | pawn_steps,
                block | king_reach.knight,
                block | diagonal,
                block | orthogonal,
                block | diagonal | orthogonal,
                block | king_steps,
            ];
            let king_leave = block
                | (pawn_steps & board.bits(mover, Piece::Pawn))
                | (king_reach.knight & board.bits(mover, Piece::Knight))
                | (diagonal & their_bishops)
                | (orthogonal & their_rooks)
                | (king_steps & board.bits(mover, Piece::King));
            (king_leave, king_arrive)
        };
        let promoting = board.bits(!replier, Piece::Pawn) & seventh_rank(!replier_white);
        let squares = ReplySquares {
            lines,
            leave,
            arrive,
            slider_kinds,
            pawns: pawn_squares,
            knights: knight_squares,
            // A piece of the mover's leaving changes the king's moves only from the
            // narrower set: with the mover's other squares taken out, one test a child
            // files it. A promoting pawn's square stays: the new piece may see through it.
            king: king_zone & (king_leave | !theirs | promoting),
            king_reach,
            slider_moves,
        };
        // Off the king's part for the moving piece's kind, the lines and the sliders' and
        // pawns' squares, a quiet move leaves every replier move as it is.
        let parts = sliders | pawn_squares;
        let untouched = Untouched {
            from: !(leave | parts | king_leave),
            to: core::array::from_fn(|kind| !(arrive[kind] | parts | king_arrive[kind])),
        };
        (squares, untouched)
    }
}

/// The board's edge: a diagonal ray ends there.
const EDGES: u64 = 0xFF81_8181_8181_81FF;

/// By square, all but where its straight rays meet the edge (the ends of its rank and file):
/// one load a rook instead of two shifts.
static OFF_STRAIGHT_ENDS: [u64; 64] = {
    let mut off = [0; 64];
    let mut square = 0;
    while square < 64 {
        off[square] = !(0x81 << (square & 56) | 0x0100_0000_0000_0001 << (square & 7));
        square += 1;
    }
    off
};

/// Of the straight `rays` from `square`, all but their empty or mover-held ends on the edge
/// (`own` holds the replier's pieces, which still count).
#[inline(always)]
fn without_straight_ends(rays: u64, square: usize, own: u64) -> u64 {
    rays & (OFF_STRAIGHT_ENDS[square & 63] | own)
}

/// The castling part of [`ReplySquares::king`] on the Chess960 squares of `castling`, for
/// the `replier`'s rights `held` (king side, queen side) and pieces `own`: the paths that
/// must be empty (when no piece of its own stands on one) and the king's squares among them.
/// The castling rook's pin is on `lines` already: they run past the first piece to the second.
#[inline(always)]
fn chess960_king_squares(
    castling: &CastlingGeometry,
    own: u64,
    replier: Color,
    held: [bool; 2],
) -> (u64, u64) {
    let (mut zone, mut squares) = (0, 0);
    for (held, kingside) in [(held[0], true), (held[1], false)] {
        let path = castling.block(replier, kingside);
        if held && own & path == 0 {
            zone |= path;
            squares |= castling.safe(replier, kingside);
        }
    }
    (zone, squares)
}

/// Takes the generator's target sets at a depth-2 node: counts the untouched moves and passes
/// the others on to `inner`.
pub(crate) struct SkipUntouched<K, const PIN: bool = false> {
    /// Where the moves to make go.
    pub(crate) inner: K,
    /// The from squares off the node's reply squares ([`Untouched::from`]), once per
    /// node rather than once per target set.
    pub(crate) off_from: u64,
    /// The to squares off them, by the moving piece's kind ([`Untouched::to`]).
    pub(crate) off_to: [u64; 6],
    /// The node's empty squares: only quiet moves can be untouched.
    pub(crate) empty: u64,
    /// Untouched moves found so far.
    pub(crate) untouched: u64,
    /// Whether to sort at all (sparse depth-2 nodes pass every move on).
    pub(crate) active: bool,
    /// If `PIN`: the square of a mover's rook that pins a replier pawn to its king, and the
    /// squares it may go to untouched (see [`SkipUntouched::sparse`]); else unused.
    pub(crate) pinner: u64,
    /// The pinner's untouched to squares.
    pub(crate) pinner_to: u64,
}

impl<K: Sink> SkipUntouched<K, true> {
    /// The splitter of a sparse node `board` (kings, rooks and pawns only, no castling right,
    /// no en passant; status `S` names the mover), passing the moves it cannot prove
    /// untouched on to `inner`. Its squares are narrower than [`ReplySquares::compute`]'s
    /// rays: a quiet move is untouched off the king's rank and file (up to their second
    /// piece), the replier's pieces, what its pawns and rooks read, and what attacks its
    /// king's steps; and a rook pinning a replier pawn to that king may move along the pin's
    /// line.
    #[inline(always)]
    pub(crate) fn sparse<S: StatusFlags, B: Lookup>(inner: K, board: &Board) -> Self {
        let replier_white = !S::WHITE;
        let replier = Color::from_white(replier_white);
        let mover = !replier;
        let occupied = board.occupied_bits();
        let own = board.color_bits(replier);
        let king_bit = board.bits(replier, Piece::King);
        let king = king_bit.trailing_zeros() as usize;
        let zone = attacks::king(king);
        let steps = zone & !own;
        // Checks and pins come only along the king's rank and file, or from a pawn (below),
        // and only up to the second piece: past two pieces nothing a move does reaches it.
        // A piece arriving on or leaving a step changes only what attacks the steps.
        let first = B::rook(king, occupied);
        let lines = B::rook(king, occupied & !first);
        let mut common = own;
        // The pawns' push squares (both of a double push) and capture squares.
        let pawns = board.bits(replier, Piece::Pawn);
        common |= pawn_reads(pawns, replier_white);
        // The rooks' rays, up to and with the first piece, but their ends on the edge.
        for rook in BitIter(board.bits(replier, Piece::Rook)) {
            common |= without_straight_ends(B::rook(rook, occupied), rook, own);
        }
        // Where a mover's pawn or king attacks a step; a pawn arriving may also check.
        let pawn_steps = attacks::pawn_attacks(steps, replier_white);
        let pawn_checks = attacks::pawn_attacks_from(king, replier_white);
        let king_steps = attacks::king_area(steps);
        let mut leaving = (pawn_steps & board.bits(mover, Piece::Pawn))
            | (king_steps & board.bits(mover, Piece::King));
        // What a rook sees from the king's steps (the king out of the way, as in its ban):
        // the mover's rooks there attack a step, and a square both they and a step see may
        // block or open one's attack on the other.
        let rooks = board.bits(mover, Piece::Rook);
        let through = occupied ^ king_bit;
        let mut seen = 0;
        let (mut pinner, mut pinner_to) = (0, 0);
        if rooks != 0 {
            for step in BitIter(steps) {
                seen |= B::rook(step, through);
            }
            for rook in BitIter(rooks) {
                common |= B::rook(rook, through) & seen;
            }
            leaving |= seen & rooks;
            // A mover's rook that pins a replier pawn (the only piece between it and the
            // king) keeps the pin wherever it goes on the pin's line beyond the pawn: only
            // the line's length changes, which a pawn pinned there never reads (a rank pin
            // holds it still, a file pin lets it push on the file short of the rook). Its
            // other moves, and every other piece on the line, still touch.
            for rook in BitIter(rooks & attacks::rook_rays(king)) {
                let blockers = between(king, rook) & occupied;
                if blockers != 0 && blockers & (blockers - 1) == 0 && blockers & pawns != 0 {
                    let pawn = blockers.trailing_zeros() as usize;
                    let segment = between(pawn, rook) | 1 << rook;
                    let rest = common | (lines & !segment);
                    if (1 << rook) & (rest | leaving) == 0 {
                        pinner = 1 << rook;
                        // The king's rays hold only the rook's moves along the pin: its
                        // other line runs parallel to the king's.
                        pinner_to =
                            B::rook(rook, occupied) & attacks::rook_rays(king) & !(rest | seen);
                    }
                    break;
                }
            }
        }
        common |= lines;
        let leave = common | leaving;
        // No knights, bishops or queens on the board: their moves are never untouched.
        let mut off_to = [0; 6];
        off_to[Piece::Pawn as usize] = !(common | pawn_steps | pawn_checks);
        off_to[Piece::King as usize] = !(common | king_steps);
        off_to[Piece::Rook as usize] = !(common | seen);
        SkipUntouched {
            inner,
            off_from: !leave,
            off_to,
            empty: !occupied,
            untouched: 0,
            active: true,
            pinner,
            pinner_to,
        }
    }
}

impl<K: Sink, const PIN: bool> SkipUntouched<K, PIN> {
    /// Counts the untouched targets of a `piece` on `from` and returns the others.
    #[inline(always)]
    fn split_from(&mut self, piece: Piece, from: usize, targets: u64) -> u64 {
        if !self.active {
            return targets;
        }
        // All ones when `from` is off the squares, else zero: no branch.
        let mut off = ((self.off_from >> from) & 1).wrapping_neg() & self.off_to[piece as usize];
        // Only a rook pins: the test folds away for every other kind.
        if PIN && piece as usize == Piece::Rook as usize {
            off |= ((self.pinner >> from) & 1).wrapping_neg() & self.pinner_to;
        }
        self.skip(targets, targets & self.empty & off)
    }

    /// Counts the untouched pushes `targets` (from squares `to - delta`) and returns the
    /// others.
    #[inline(always)]
    fn split_pushes(&mut self, targets: u64, delta: i8) -> u64 {
        if !self.active {
            return targets;
        }
        // A push's from square is on the board: the zeros `shift` brings in never matter.
        let off = self.off_to[Piece::Pawn as usize] & shift(self.off_from, delta);
        self.skip(targets, targets & off)
    }

    #[inline(always)]
    fn skip(&mut self, targets: u64, untouched: u64) -> u64 {
        self.untouched += u64::from(untouched.count_ones());
        targets & !untouched
    }
}

impl<K: Sink, const PIN: bool> Sink for SkipUntouched<K, PIN> {
    #[inline(always)]
    fn king<S: StatusFlags>(&mut self, board: &Board, from: usize, targets: u64) {
        let targets = self.split_from(Piece::King, from, targets);
        self.inner.king::<S>(board, from, targets);
    }
    #[inline(always)]
    fn castle<S: StatusFlags>(&mut self, board: &Board, king_from: usize, target: usize) {
        self.inner.castle::<S>(board, king_from, target);
    }
    #[inline(always)]
    fn piece<S: StatusFlags>(&mut self, board: &Board, piece: Piece, from: usize, targets: u64) {
        let targets = self.split_from(piece, from, targets);
        self.inner.piece::<S>(board, piece, from, targets);
    }
    #[inline(always)]
    fn pawn_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        let targets = self.split_pushes(targets, delta);
        self.inner.pawn_pushes::<S>(board, targets, delta);
    }
    #[inline(always)]
    fn pawn_double_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        // A pawn of the replier beside the arrival square may take en passant: that child's
        // status differs, so it is never untouched.
        let their_pawns = board.bits(Color::from_white(!S::WHITE), Piece::Pawn);
        let en_passant = targets & attacks::beside(their_pawns);
        let others = self.split_pushes(targets & !en_passant, delta);
        self.inner
            .pawn_double_pushes::<S>(board, others | en_passant, delta);
    }
    #[inline(always)]
    fn pawn_captures<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        self.inner.pawn_captures::<S>(board, targets, delta);
    }
    #[inline(always)]
    fn promotions<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        self.inner.promotions::<S>(board, targets, delta);
    }
    #[inline(always)]
    fn en_passant<S: StatusFlags>(&mut self, board: &Board, from: usize, to: usize) {
        self.inner.en_passant::<S>(board, from, to);
    }
}
