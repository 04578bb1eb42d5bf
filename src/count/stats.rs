//! Full perft statistics: [`PerftStats`] (captures, en passant, castles, promotions, checks,
//! discovered and double checks, checkmates at the leaves) and the recursion that counts
//! them. The last ply works on the generator's target *sets*, as bulk counting does: the
//! squares from which each piece kind would check the enemy king, and our pieces whose
//! departure uncovers one of our sliders, are computed once per leaf-parent, so a quiet
//! non-checking move costs a few popcounts. A checked king's free square is looked for on
//! the parent and the move; only a king without one has its child made, to ask whether any
//! other reply is legal. The four promotions to one square share one look from the king, and
//! a castle needs one along the back rank; en passant, which changes more than one square's
//! worth of lines, makes its child and looks again from the king.
//!
//! Kept as one file over 600 lines: one concept, the statistics sink, whose per-leaf-parent
//! sets (checking squares, discoverers, the king's free squares) every part of the file
//! reads.

use crate::base::attacks::{self, between, shift};
use crate::base::board::Board;
use crate::base::status::{Flip, FlipSetEp, StatusFlags};
use crate::base::types::{BitIter, Color, Piece, Square};
use crate::count::leaf::count_entry;
use crate::count::perft::{ChildAction, ChildMove, run_interior};
use crate::generator::children::Counted;
use crate::generator::dispatch::{StatusOp, dispatch};
use crate::generator::entry::{Engine, Operation};
use crate::generator::material::AnyPieces;
use crate::generator::movegen::{Sink, generate};
use crate::slider::Cpu;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign};

/// Perft with statistics of the leaf moves (the moves of the last ply), as the
/// chessprogramming wiki's "Perft Results" tables define them.
///
/// - `nodes`: leaves, as [`crate::perft`] counts them.
/// - `captures`: leaf moves that capture, en passant included.
/// - `en_passant`: en-passant captures.
/// - `castles`: castling moves.
/// - `promotions`: promotions, each of the four pieces counted (under-promotions included).
/// - `checks`: leaf moves after which the side to move is in check, checkmates included.
/// - `discovered_checks`: *single* checks given by a piece other than the one that moved
///   (for castling the rook, for a promotion the new piece counts as the one that moved).
///   A discovered check that is also a direct check is a double check, counted only there.
/// - `double_checks`: checks by two pieces at once.
/// - `checkmates`: checks after which the side to move has no legal move.
///
/// At depth 0 the position itself is the one leaf and no move was made: `nodes` is 1 and
/// every move statistic 0.
///
/// Two published cells of the wiki differ from these counts (Kiwipete depth 5 double
/// checks, start position depth 8 discovered checks): docs/PERFT-STATISTICS.md says why.
///
/// # Examples
/// ```
/// use constmove::{perft_stats, PerftStats, Position};
/// let stats = perft_stats(&Position::startpos(), 4);
/// assert_eq!(stats.nodes, 197_281);
/// assert_eq!(stats.captures, 1_576);
/// assert_eq!(stats.checks, 469);
/// assert_eq!(stats.checkmates, 8);
/// let twice = stats + stats;
/// assert_eq!(twice.checks, 938);
/// assert_eq!(perft_stats(&Position::startpos(), 0), PerftStats { nodes: 1, ..PerftStats::default() });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PerftStats {
    /// Leaves of the move tree.
    pub nodes: u64,
    /// Leaf moves that capture (en passant included).
    pub captures: u64,
    /// En-passant captures.
    pub en_passant: u64,
    /// Castling moves.
    pub castles: u64,
    /// Promotions, each promoted piece counted.
    pub promotions: u64,
    /// Checking moves (mates included).
    pub checks: u64,
    /// Single checks by a piece other than the moved one.
    pub discovered_checks: u64,
    /// Checks by two pieces.
    pub double_checks: u64,
    /// Checkmates.
    pub checkmates: u64,
}

impl PerftStats {
    /// The statistics as `(name, value)` pairs in the wiki's column order; the names are
    /// `snake_case` field names (what `constmove perft --stats --json` writes).
    ///
    /// # Examples
    /// ```
    /// use constmove::{perft_stats, Position};
    /// let fields = perft_stats(&Position::startpos(), 3).fields();
    /// assert_eq!(fields[0], ("nodes", 8_902));
    /// assert_eq!(fields[1], ("captures", 34));
    /// assert_eq!(fields[5], ("checks", 12));
    /// ```
    pub const fn fields(&self) -> [(&'static str, u64); 9] {
        [
            ("nodes", self.nodes),
            ("captures", self.captures),
            ("en_passant", self.en_passant),
            ("castles", self.castles),
            ("promotions", self.promotions),
            ("checks", self.checks),
            ("discovered_checks", self.discovered_checks),
            ("double_checks", self.double_checks),
            ("checkmates", self.checkmates),
        ]
    }
}

impl PerftStats {
    /// The statistics from their values in [`PerftStats::fields`] order.
    #[cfg(feature = "std")]
    pub(crate) const fn from_values(values: [u64; 9]) -> PerftStats {
        let [
            nodes,
            captures,
            en_passant,
            castles,
            promotions,
            checks,
            discovered,
            double,
            mates,
        ] = values;
        PerftStats {
            nodes,
            captures,
            en_passant,
            castles,
            promotions,
            checks,
            discovered_checks: discovered,
            double_checks: double,
            checkmates: mates,
        }
    }
}

impl AddAssign for PerftStats {
    fn add_assign(&mut self, other: PerftStats) {
        self.nodes += other.nodes;
        self.captures += other.captures;
        self.en_passant += other.en_passant;
        self.castles += other.castles;
        self.promotions += other.promotions;
        self.checks += other.checks;
        self.discovered_checks += other.discovered_checks;
        self.double_checks += other.double_checks;
        self.checkmates += other.checkmates;
    }
}

impl Add for PerftStats {
    type Output = PerftStats;
    fn add(mut self, other: PerftStats) -> PerftStats {
        self += other;
        self
    }
}

/// Adds the leaf statistics of a board's moves (status `S`) to `stats`, inside an engine's
/// entry.
struct StatsLeaf<'a, S> {
    board: &'a Board,
    ep: u8,
    stats: &'a mut PerftStats,
    status: PhantomData<S>,
}

impl<S: StatusFlags> Operation for StatsLeaf<'_, S> {
    type Output = ();
    #[inline(always)]
    fn run<B: Engine>(self, cpu: Cpu<B>) {
        let mut sink = StatsSink::<B>::new::<S>(cpu, self.board);
        generate::<S, B, AnyPieces, _>(self.board, self.ep, &mut sink);
        *self.stats += sink.stats;
    }
}

/// Adds the [`PerftStats`] of `board` (status `S`) to `depth >= 1` to `stats` through the
/// entries of engine `B`.
#[inline(always)]
pub(crate) fn stats_entry<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    depth: u32,
    stats: &mut PerftStats,
) {
    if depth <= 1 {
        // The leaf statistics read no castling right of the opponent (its checks are
        // answered without castling): the 16 `Counted` statuses serve all 64.
        B::enter(
            cpu,
            StatsLeaf::<Counted<S>> {
                board,
                ep,
                stats,
                status: PhantomData,
            },
        )
    } else {
        let mut children = StatsChildren::<B> {
            child_depth: depth - 1,
            stats,
            cpu,
        };
        run_interior::<S, B>(cpu, board, ep, &mut children)
    }
}

/// Adds each child's statistics to `child_depth`, for an interior node.
struct StatsChildren<'a, B> {
    child_depth: u32,
    stats: &'a mut PerftStats,
    cpu: Cpu<B>,
}

impl<B: Engine> ChildAction for StatsChildren<'_, B> {
    fn child(&mut self, _: &Board, child: &Board, _: ChildMove, status: u8, ep: u8) {
        let at = StatsAt::<B> {
            board: child,
            ep,
            depth: self.child_depth,
            stats: self.stats,
            cpu: self.cpu,
        };
        dispatch(status, at);
    }
}

/// [`stats_entry`] once a child's status is known.
struct StatsAt<'a, B> {
    board: &'a Board,
    ep: u8,
    depth: u32,
    stats: &'a mut PerftStats,
    cpu: Cpu<B>,
}

impl<B: Engine> StatusOp for StatsAt<'_, B> {
    type Output = ();
    #[inline(always)]
    fn run<S: StatusFlags>(self) {
        stats_entry::<S, B>(self.cpu, self.board, self.ep, self.depth, self.stats)
    }
}

/// The squares strictly between the enemy king `king` and the far ends of the line through
/// `blocker` (a rook line if `hv`, else a diagonal): a blocker that stays on it still
/// blocks. Two empty-board rays from squares on one line meet exactly on that line.
#[inline(always)]
fn line_through(king: usize, blocker: usize, hv: bool) -> u64 {
    if hv {
        attacks::rook_rays(king) & attacks::rook_rays(blocker)
    } else {
        attacks::bishop_rays(king) & attacks::bishop_rays(blocker)
    }
}

/// Counts the leaf moves of one position from the generator's target sets.
struct StatsSink<B> {
    stats: PerftStats,
    /// The enemy king's square.
    king: usize,
    /// The enemy's pieces: a target among them is a capture.
    theirs: u64,
    /// Squares from which our pawn, knight, bishop, rook attacks the enemy king (sliders
    /// with the occupancy before the move: a slider's own departure can open its line to
    /// the king only if it already checked, which a legal position rules out).
    pawn_checks: u64,
    knight_checks: u64,
    bishop_checks: u64,
    rook_checks: u64,
    /// Our pieces that alone stand between one of our rooks/queens (`hv`) or
    /// bishops/queens (`diag`) and the enemy king: moving off that line checks.
    blockers_hv: u64,
    blockers_diag: u64,
    /// The proof that let the leaf into B's entry, for the mate tests' counts.
    cpu: Cpu<B>,
}

impl<B: Engine> StatsSink<B> {
    /// The per-position tables for side to move `S::WHITE`.
    #[inline(always)]
    fn new<S: StatusFlags>(cpu: Cpu<B>, board: &Board) -> StatsSink<B> {
        let us = Color::from_white(S::WHITE);
        let them = !us;
        let occupied = board.occupied_bits();
        let ours = board.color_bits(us);
        let theirs = board.color_bits(them);
        let king = board.bits(them, Piece::King).trailing_zeros() as usize;
        let queens = board.bits(us, Piece::Queen);
        let straight = board.bits(us, Piece::Rook) | queens;
        let diagonal = board.bits(us, Piece::Bishop) | queens;
        let blockers = |hv: bool, sliders: u64| {
            let mut found = 0;
            let rays = if hv {
                attacks::rook_rays(king)
            } else {
                attacks::bishop_rays(king)
            };
            // Most positions have none of our sliders on the king's lines: skip the lookup.
            if rays & sliders != 0 {
                // Seen from the king through our pieces, stopped by theirs.
                let seen = if hv {
                    B::rook(king, theirs)
                } else {
                    B::bishop(king, theirs)
                };
                for sniper in BitIter(seen & sliders) {
                    let line = between(king, sniper) & occupied;
                    if line & line.wrapping_sub(1) == 0 {
                        found |= line & ours;
                    }
                }
            }
            found
        };
        StatsSink {
            stats: PerftStats::default(),
            king,
            theirs,
            // Where a pawn of theirs on the king's square would attack.
            pawn_checks: attacks::pawn_attacks_from(king, !S::WHITE),
            knight_checks: attacks::knight(king),
            // Looked up only for pieces we have: endgames often lack one kind of slider.
            bishop_checks: if diagonal != 0 {
                B::bishop(king, occupied)
            } else {
                0
            },
            rook_checks: if straight != 0 {
                B::rook(king, occupied)
            } else {
                0
            },
            blockers_hv: blockers(true, straight),
            blockers_diag: blockers(false, diagonal),
            cpu,
        }
    }

    /// The moves from `from` to `targets` that uncover a check: all that leave the line
    /// when `from` is a blocker, else none.
    #[inline(always)]
    fn uncovered(&self, from: usize, targets: u64) -> u64 {
        let from_bit = 1u64 << from;
        if (self.blockers_hv | self.blockers_diag) & from_bit == 0 {
            return 0;
        }
        let hv = self.blockers_hv & from_bit != 0;
        targets & !line_through(self.king, from, hv)
    }

    /// [`StatsSink::uncovered`] for a set of pawn destinations `targets`, each reached
    /// from `to - delta`.
    #[inline(always)]
    fn pawns_uncovered(&self, targets: u64, delta: i8) -> u64 {
        let froms = shift(targets, -delta) & (self.blockers_hv | self.blockers_diag);
        let mut found = 0;
        for from in BitIter(froms) {
            let to = (from as isize + delta as isize) as usize;
            found |= self.uncovered(from, 1 << to);
        }
        found
    }

    /// Tallies the checking moves of `piece` among its targets: `direct` (the moved piece
    /// checks) and `uncovered` (a slider behind it checks), each from `from(to)` on `board`,
    /// into a child of status `C` and en-passant square `ep(to)`, and looks for a legal reply.
    #[inline(always)]
    fn checks<C: StatusFlags>(
        &mut self,
        board: &Board,
        piece: Piece,
        direct: u64,
        uncovered: u64,
        from: impl Fn(usize) -> usize,
        ep: impl Fn(usize) -> u8,
    ) {
        let checks = direct | uncovered;
        if checks == 0 {
            return;
        }
        self.stats.checks += u64::from(checks.count_ones());
        self.stats.double_checks += u64::from((direct & uncovered).count_ones());
        self.stats.discovered_checks += u64::from((uncovered & !direct).count_ones());
        let us = Color::from_white(!C::WHITE);
        let before = CheckingSide::of(board, us, self.king);
        for to in BitIter(checks) {
            // The king's escape is read off the parent and the move; the child is made
            // only when there is none.
            let after = before.after_move(piece, from(to), to);
            if !self.king_escapes::<C>(&after) {
                let child = board.after_move(us, piece, sq(from(to)), sq(to));
                self.count_mate::<C>(&child, ep(to));
            }
        }
    }

    /// Counts a checkmate if the side to move in `child` (in check) has no legal move.
    #[inline(always)]
    fn mate_test<C: StatusFlags>(&mut self, child: &Board, ep: u8) {
        let after = CheckingSide::of(child, Color::from_white(!C::WHITE), self.king);
        if !self.king_escapes::<C>(&after) {
            self.count_mate::<C>(child, ep);
        }
    }

    /// Counts a checkmate if the side to move in `child`, in check and with no square for
    /// its king, has no legal move either. Out of line: most checks leave the king a square.
    #[cold]
    #[inline(never)]
    fn count_mate<C: StatusFlags>(&mut self, child: &Board, ep: u8) {
        // The bulk-counting entry at depth 1 counts the replies; castling rights in `C`
        // do not matter, as nobody castles out of check.
        let replies = count_entry::<C, B>(self.cpu, child, ep);
        self.stats.checkmates += u64::from(replies == 0);
    }

    /// Whether the checked king (its side to move is `C::WHITE`) has a square to step to
    /// that no piece of the checking side (`after`) attacks once the king has left its own
    /// square. Pawns, knights and the king rule out squares in bulk first: slider lookups,
    /// the dear part, are left for the squares they leave.
    #[inline(always)]
    fn king_escapes<C: StatusFlags>(&self, after: &CheckingSide) -> bool {
        let squares = attacks::king(self.king) & !after.defenders;
        let leapers = attacks::pawn_attacks(after.pawns, !C::WHITE)
            | attacks::king(after.king_square as usize)
            | attacks::knights(after.knights);
        let occupied = after.occupied & !(1u64 << self.king);
        BitIter(squares & !leapers).any(|to| {
            (after.diagonal == 0 || B::bishop(to, occupied) & after.diagonal == 0)
                && (after.straight == 0 || B::rook(to, occupied) & after.straight == 0)
        })
    }

    /// Looks again from the king after an en-passant capture, which changes more than one
    /// line; `moved` is the square of the piece that moved there.
    #[inline(always)]
    fn classify<C: StatusFlags>(&mut self, child: &Board, moved: usize) {
        let us = Color::from_white(!C::WHITE);
        let occupied = child.occupied_bits();
        let queens = child.bits(us, Piece::Queen);
        let checkers = (self.pawn_checks & child.bits(us, Piece::Pawn))
            | (self.knight_checks & child.bits(us, Piece::Knight))
            | (B::bishop(self.king, occupied) & (child.bits(us, Piece::Bishop) | queens))
            | (B::rook(self.king, occupied) & (child.bits(us, Piece::Rook) | queens));
        if self.tally_check(checkers, 1 << moved) {
            self.mate_test::<C>(child, 0);
        }
    }

    /// Counts a move whose checkers are `checkers` (none: no check), the moved piece standing
    /// on `moved`, as a check, double check or discovered check; whether it checks.
    #[inline(always)]
    fn tally_check(&mut self, checkers: u64, moved: u64) -> bool {
        if checkers == 0 {
            return false;
        }
        self.stats.checks += 1;
        if checkers & checkers.wrapping_sub(1) != 0 {
            self.stats.double_checks += 1;
        } else if checkers != moved {
            self.stats.discovered_checks += 1;
        }
        true
    }

    /// Non-castling, non-promoting moves of `piece` from `from` to `targets`.
    #[inline(always)]
    fn moves<S: StatusFlags>(&mut self, board: &Board, piece: Piece, from: usize, targets: u64) {
        let direct = match piece {
            Piece::Knight => self.knight_checks,
            Piece::Bishop => self.bishop_checks,
            Piece::Rook => self.rook_checks,
            Piece::Queen => self.bishop_checks | self.rook_checks,
            Piece::Pawn | Piece::King => 0,
        } & targets;
        let uncovered = self.uncovered(from, targets);
        self.stats.nodes += u64::from(targets.count_ones());
        self.stats.captures += u64::from((targets & self.theirs).count_ones());
        if direct | uncovered != 0 {
            self.piece_checks::<S>(board, piece, from, direct, uncovered);
        }
    }

    /// The checking moves of one piece, out of line: the common path (no check) stays small
    /// enough for the generator's per-piece loops to inline it.
    #[cold]
    #[inline(never)]
    fn piece_checks<S: StatusFlags>(
        &mut self,
        board: &Board,
        piece: Piece,
        from: usize,
        direct: u64,
        uncovered: u64,
    ) {
        self.checks::<Flip<S>>(board, piece, direct, uncovered, |_| from, |_| 0);
    }

    /// Pawn moves (not promotions) to `targets`, each from `to - delta`, into status `C`.
    #[inline(always)]
    fn pawn_moves<C: StatusFlags>(
        &mut self,
        board: &Board,
        targets: u64,
        delta: i8,
        ep: impl Fn(usize) -> u8,
    ) {
        let direct = targets & self.pawn_checks;
        let uncovered = self.pawns_uncovered(targets, delta);
        self.stats.nodes += u64::from(targets.count_ones());
        if direct | uncovered != 0 {
            self.pawn_checks_made::<C>(board, delta, direct, uncovered, ep);
        }
    }

    /// The checking pawn moves, out of line (see [`StatsSink::piece_checks`]).
    #[cold]
    #[inline(never)]
    fn pawn_checks_made<C: StatusFlags>(
        &mut self,
        board: &Board,
        delta: i8,
        direct: u64,
        uncovered: u64,
        ep: impl Fn(usize) -> u8,
    ) {
        let from = |to: usize| (to as isize - delta as isize) as usize;
        self.checks::<C>(board, Piece::Pawn, direct, uncovered, from, ep);
    }
}

/// The checking side's pieces as a checked king's escape test reads them.
#[derive(Clone, Copy)]
struct CheckingSide {
    /// Every piece on the board, the checked king included.
    occupied: u64,
    pawns: u64,
    knights: u64,
    /// Bishops and queens.
    diagonal: u64,
    /// Rooks and queens.
    straight: u64,
    king_square: u32,
    /// The checked side's pieces: its king cannot step onto them.
    defenders: u64,
}

impl CheckingSide {
    /// The pieces of `us` on `board`; `king` is the other side's king.
    #[inline(always)]
    fn of(board: &Board, us: Color, king: usize) -> CheckingSide {
        let queens = board.bits(us, Piece::Queen);
        debug_assert!(board.bits(!us, Piece::King) == 1 << king);
        CheckingSide {
            occupied: board.occupied_bits(),
            pawns: board.bits(us, Piece::Pawn),
            knights: board.bits(us, Piece::Knight),
            diagonal: board.bits(us, Piece::Bishop) | queens,
            straight: board.bits(us, Piece::Rook) | queens,
            king_square: board.bits(us, Piece::King).trailing_zeros(),
            defenders: board.color_bits(!us),
        }
    }

    /// The same after our `piece` went from `from` to `to`, taking what stood there (a plain
    /// move: not castling, en passant or a promotion).
    #[inline(always)]
    fn after_move(&self, piece: Piece, from: usize, to: usize) -> CheckingSide {
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let moved = from_bit | to_bit;
        let mut after = *self;
        after.occupied = (self.occupied & !from_bit) | to_bit;
        after.defenders &= !to_bit;
        match piece {
            Piece::Pawn => after.pawns ^= moved,
            Piece::Knight => after.knights ^= moved,
            Piece::Bishop => after.diagonal ^= moved,
            Piece::Rook => after.straight ^= moved,
            Piece::Queen => {
                after.diagonal ^= moved;
                after.straight ^= moved;
            }
            Piece::King => after.king_square = to as u32,
        }
        after
    }
}

#[inline(always)]
fn sq(index: usize) -> Square {
    Square::from_index(index as u32)
}

impl<B: Engine> Sink for StatsSink<B> {
    #[inline(always)]
    fn king<S: StatusFlags>(&mut self, board: &Board, from: usize, targets: u64) {
        self.moves::<S>(board, Piece::King, from, targets);
    }

    #[inline(always)]
    fn castle<S: StatusFlags>(&mut self, board: &Board, king_from: usize, target: usize) {
        core::hint::cold_path();
        self.stats.nodes += 1;
        self.stats.castles += 1;
        let us = Color::from_white(S::WHITE);
        let squares = board
            .castling()
            .castle_squares(us, sq(king_from), sq(target));
        // Only a rook line can check after castling: the castling rook from its new square,
        // or one of ours through a square king or rook left. Those squares are on the back
        // rank, so a diagonal through them to the enemy king ends there (nothing of ours
        // behind), and nothing checked before the move.
        let left = (1u64 << king_from) | squares.rook_from.bit();
        let arrived = squares.king_to.bit() | squares.rook_to.bit();
        let occupied = (board.occupied_bits() & !left) | arrived;
        let straight = (board.bits(us, Piece::Rook) & !squares.rook_from.bit())
            | squares.rook_to.bit()
            | board.bits(us, Piece::Queen);
        let checkers = B::rook(self.king, occupied) & straight;
        if self.tally_check(checkers, squares.rook_to.bit()) {
            let child = board.after_castle(us, sq(king_from), sq(target));
            self.mate_test::<Flip<S>>(&child, 0);
        }
    }

    #[inline(always)]
    fn piece<S: StatusFlags>(&mut self, board: &Board, piece: Piece, from: usize, targets: u64) {
        self.moves::<S>(board, piece, from, targets);
    }

    #[inline(always)]
    fn pawn_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        self.pawn_moves::<Flip<S>>(board, targets, delta, |_| 0);
    }

    #[inline(always)]
    fn pawn_double_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        // A checking double push may be answered by taking it en passant.
        let ep = |to: usize| (to as isize - delta as isize / 2) as u8;
        self.pawn_moves::<FlipSetEp<S>>(board, targets, delta, ep);
    }

    #[inline(always)]
    fn pawn_captures<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        self.stats.captures += u64::from(targets.count_ones());
        self.pawn_moves::<Flip<S>>(board, targets, delta, |_| 0);
    }

    #[inline(always)]
    fn promotions<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        let us = Color::from_white(S::WHITE);
        let queens = board.bits(us, Piece::Queen);
        let diagonal = board.bits(us, Piece::Bishop) | queens;
        let straight = board.bits(us, Piece::Rook) | queens;
        for to in BitIter(targets) {
            let from = (to as isize - delta as isize) as usize;
            let to_bit = 1u64 << to;
            self.stats.nodes += 4;
            self.stats.promotions += 4;
            self.stats.captures += 4 * u64::from(self.theirs & to_bit != 0);
            // What the king sees once the pawn has gone: the four pieces share it. A slider
            // of ours on those lines checks through the square the pawn left (none checked
            // before), and the new piece checks if its kind sees the king from `to`.
            let occupied = (board.occupied_bits() & !(1u64 << from)) | to_bit;
            let diagonal_seen = B::bishop(self.king, occupied);
            let straight_seen = B::rook(self.king, occupied);
            let uncovered = (diagonal_seen & diagonal) | (straight_seen & straight);
            for piece in Piece::PROMOTIONS {
                let sees = match piece {
                    Piece::Knight => self.knight_checks,
                    Piece::Bishop => diagonal_seen,
                    Piece::Rook => straight_seen,
                    _ => diagonal_seen | straight_seen,
                };
                if self.tally_check(uncovered | (sees & to_bit), to_bit) {
                    let child = board.after_promotion(us, sq(from), sq(to), piece);
                    self.mate_test::<Flip<S>>(&child, 0);
                }
            }
        }
    }

    #[inline(always)]
    fn en_passant<S: StatusFlags>(&mut self, board: &Board, from: usize, to: usize) {
        core::hint::cold_path();
        self.stats.nodes += 1;
        self.stats.captures += 1;
        self.stats.en_passant += 1;
        let us = Color::from_white(S::WHITE);
        let child = board.after_en_passant(us, sq(from), sq(to));
        self.classify::<Flip<S>>(&child, to);
    }
}
