//! The replier's moves counted in eight children at once, each child in one lane of the
//! same straight-line code, on CPUs with AVX-512: in full in sparse children (kings, rooks
//! and pawns only, no castling right, no en passant), and the pawns' part in the children of
//! a dense batch that keep the parent's pins.
//!
//! The scalar counter finds pins, checks and the king-ban with loops and tests whose
//! outcomes differ from child to child, so position 3's sparse children pay a mispredict or
//! more each. Here every ray is found by bit arithmetic from the king's fixed square and
//! every set of rooks by occluded fills, with no branch and no lookup indexed by a lane's
//! data, so the compiler runs the eight lanes in one 512-bit register. With AVX2's four
//! lanes and no vector popcount it ran slower than the scalar counter (docs/PERFORMANCE.md).
//! The pawns' recount is short, but its tests (a pawn taken, a promotion) mispredict too.

use crate::base::attacks::{self, NOT_FILE_A, NOT_FILE_H};
use crate::base::board::Board;
use crate::base::geometry::{double_push_rank, pawn_captures, pawn_push, promotion_rank};
use crate::base::types::{Color, Piece};
use crate::generator::checks_and_pins::LegalMasks;

/// Children counted together: one 512-bit register of `u64`s.
pub(crate) const LANES: usize = 8;

/// The four rays of a king's square on an empty board: up and right (toward higher
/// squares), down and left.
#[derive(Clone, Copy)]
struct KingRays {
    up: u64,
    right: u64,
    down: u64,
    left: u64,
}

impl KingRays {
    /// The rays from `square`.
    #[inline(always)]
    fn new(square: usize) -> KingRays {
        let file = 0x0101_0101_0101_0101 << (square & 7);
        let rank = 0xFF << (square & 56);
        let above = u64::MAX << (square & 63) << 1;
        let below = (1u64 << (square & 63)) - 1;
        KingRays {
            up: file & above,
            right: rank & above,
            down: file & below,
            left: rank & below,
        }
    }
}

/// What one lane reads of its child's board.
#[derive(Clone, Copy, Default)]
struct Lane {
    ours: u64,
    theirs: u64,
    our_rooks: u64,
    our_pawns: u64,
    their_rooks: u64,
    their_pawns: u64,
    their_king: u64,
}

/// `ray` (toward higher squares) up to and with its first piece of `occupied`.
#[inline(always)]
fn upward(ray: u64, occupied: u64) -> u64 {
    let blockers = ray & occupied;
    let first = blockers & blockers.wrapping_neg();
    // No blocker: `first` is 0 and the mask all ones.
    ray & (first << 1).wrapping_sub(1)
}

/// `ray` (toward lower squares, `STEP` apart: 8 along a file, 1 along a rank) up to and with
/// its first piece of `occupied`.
#[inline(always)]
fn downward<const STEP: u32>(ray: u64, occupied: u64) -> u64 {
    // Every square below a blocker on the line, the blocker's own too.
    let mut beyond = ray & occupied;
    beyond |= beyond >> STEP;
    beyond |= beyond >> (2 * STEP);
    beyond |= beyond >> (4 * STEP);
    ray & !(beyond >> STEP)
}

/// `generators` spread toward higher squares (if `UP`, else lower), `STEP` apart, through
/// the squares of `open`: an occluded fill by doubling steps, the generators included.
#[inline(always)]
fn fill<const STEP: u32, const UP: bool>(generators: u64, open: u64) -> u64 {
    let step = |bits: u64, by: u32| if UP { bits << by } else { bits >> by };
    let (mut spread, mut open) = (generators, open);
    spread |= open & step(spread, STEP);
    open &= step(open, STEP);
    spread |= open & step(spread, 2 * STEP);
    open &= step(open, 2 * STEP);
    spread | open & step(spread, 4 * STEP)
}

/// The squares rooks on `rooks` attack with `empty` squares empty, by direction (rays of
/// different rooks in one direction never share a square).
#[inline(always)]
fn rook_fills(rooks: u64, empty: u64) -> [u64; 4] {
    // Along the ranks a step off the h-file would wrap to the a-file, and back.
    let up = fill::<8, true>(rooks, empty) << 8;
    let down = fill::<8, false>(rooks, empty) >> 8;
    let right = fill::<1, true>(rooks, empty & NOT_FILE_A) << 1 & NOT_FILE_A;
    let left = fill::<1, false>(rooks, empty & NOT_FILE_H) >> 1 & NOT_FILE_H;
    [up, down, right, left]
}

/// All of `bits` if `condition`, else none (without a branch).
#[inline(always)]
fn when(condition: bool, bits: u64) -> u64 {
    bits & u64::from(condition).wrapping_neg()
}

/// The moves that promotions add to a count of one a target square, for pawns of `white` that
/// push onto `pushed` and take onto `toward_a` and `toward_h`: a promotion counts four
/// moves, so three more each, found by one popcount of the three sets packed into one word.
#[inline(always)]
fn promotions_beyond_one(white: bool, pushed: u64, toward_a: u64, toward_h: u64) -> u32 {
    let last = promotion_rank(white);
    let promotions = if white {
        (pushed & last) >> 56 | (toward_a & last) >> 48 | (toward_h & last) >> 40
    } else {
        pushed & last | (toward_a & last) << 8 | (toward_h & last) << 16
    };
    3 * promotions.count_ones()
}

/// The legal moves of the side to move (`white` or not, king on `king`, no castling right,
/// no en passant) on a board of kings, rooks and pawns.
#[inline(always)]
fn lane_count(white: bool, lane: &Lane, king: usize, rays: &KingRays) -> u64 {
    let occupied = lane.ours | lane.theirs;
    let empty = !occupied;
    let king_bit = 1u64 << (king & 63);
    // Checks and pins come from rooks along the king's four rays, or from a pawn.
    let pawn_checker = attacks::pawn_attacks_from(king, white) & lane.their_pawns;
    // Each ray up to its first piece of theirs: a check if that is their rook and none of
    // ours stands between, a pin if one does.
    let reach = [
        upward(rays.up, lane.theirs),
        downward::<8>(rays.down, lane.theirs),
        upward(rays.right, lane.theirs),
        downward::<1>(rays.left, lane.theirs),
    ];
    let (mut checkers, mut check_line) = (pawn_checker, pawn_checker);
    let (mut pin_file, mut pin_rank, mut pinned_rook_moves) = (0, 0, 0);
    for (ray, &line) in reach.iter().enumerate() {
        let rook = line & lane.their_rooks;
        let between = line & lane.ours;
        let checking = when(between == 0, rook);
        checkers |= checking;
        check_line |= when(checking != 0, line);
        let one_between = between != 0 && between & between.wrapping_sub(1) == 0;
        let pin = when(rook != 0 && one_between, line);
        // Rays 0 and 1 run along the file.
        if ray < 2 {
            pin_file |= pin;
        } else {
            pin_rank |= pin;
        }
        // A rook pinned here moves along the pin's line only (and onto the check mask); the
        // four rays share no square, so one word holds all such moves.
        pinned_rook_moves |= when(between & lane.our_rooks != 0, pin) & !lane.ours;
    }
    // No checker: anywhere; one: onto its line or it; two: the king alone moves.
    let check_mask = if checkers == 0 {
        u64::MAX
    } else {
        when(checkers & checkers.wrapping_sub(1) == 0, check_line)
    };
    let pins = pin_file | pin_rank;

    // The king's squares, with the squares behind it on a rook's line banned too.
    let fills = rook_fills(lane.their_rooks, !(occupied ^ king_bit));
    let their_rook_attacks = fills[0] | fills[1] | fills[2] | fills[3];
    let ban = their_rook_attacks
        | attacks::pawn_attacks(lane.their_pawns, !white)
        | attacks::king_area(lane.their_king);
    let mut moves = u64::from((attacks::king(king) & !lane.ours & !ban).count_ones());

    let targets = !lane.ours & check_mask;
    for fill in rook_fills(lane.our_rooks & !pins, empty) {
        moves += u64::from((fill & targets).count_ones());
    }
    moves += u64::from((pinned_rook_moves & check_mask).count_ones());

    // Pawns pinned along a file may push (they stay on the line), along a rank not at all.
    let push = if white { 8 } else { -8 };
    let pushers = lane.our_pawns & !pin_rank;
    let takers = lane.our_pawns & !pins;
    let single = attacks::shift(pushers, push) & empty;
    let double = attacks::shift(single & double_push_rank(white), push) & empty & check_mask;
    let single = single & check_mask;
    let toward_a = attacks::shift(takers & NOT_FILE_A, push - 1) & lane.theirs & check_mask;
    let toward_h = attacks::shift(takers & NOT_FILE_H, push + 1) & lane.theirs & check_mask;
    moves += u64::from(
        single.count_ones()
            + double.count_ones()
            + toward_a.count_ones()
            + toward_h.count_ones()
            + promotions_beyond_one(white, single, toward_a, toward_h),
    );
    moves
}

/// The replier's (white or not) moves in each of `boards`, all with its king on `king`.
#[inline(always)]
fn count(white: bool, boards: [&Board; LANES], king: usize, rays: &KingRays) -> [u64; LANES] {
    let us = Color::from_white(white);
    let mut lanes = [Lane::default(); LANES];
    for (lane, board) in lanes.iter_mut().zip(boards) {
        *lane = Lane {
            ours: board.color_bits(us),
            theirs: board.color_bits(!us),
            our_rooks: board.bits(us, Piece::Rook),
            our_pawns: board.bits(us, Piece::Pawn),
            their_rooks: board.bits(!us, Piece::Rook),
            their_pawns: board.bits(!us, Piece::Pawn),
            their_king: board.bits(!us, Piece::King),
        };
    }
    let mut counts = [0; LANES];
    for (count, lane) in counts.iter_mut().zip(&lanes) {
        *count = lane_count(white, lane, king, rays);
    }
    counts
}

/// The replier's (`WHITE` or not) moves summed over the children `child(0..len)`, all with its
/// king on `king`, no castling right and no en passant, holding only kings, rooks and pawns.
/// Eight at a time: the last pass fills its empty lanes with `parent` and drops their counts.
///
/// Callable only where [`crate::slider::wide_lanes_are_supported`] said yes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,avx2,popcnt")]
pub(crate) fn count_children<'a, const WHITE: bool>(
    parent: &'a Board,
    len: usize,
    child: impl Fn(usize) -> &'a Board,
    king: usize,
) -> u64 {
    let rays = KingRays::new(king);
    let mut nodes = 0;
    let mut first = 0;
    while first < len {
        let boards = core::array::from_fn(|lane| {
            if first + lane < len {
                child(first + lane)
            } else {
                parent
            }
        });
        let counts = count(WHITE, boards, king, &rays);
        for (lane, count) in counts.into_iter().enumerate() {
            nodes += if first + lane < len { count } else { 0 };
        }
        first += LANES;
    }
    nodes
}

/// What the replier's pawn count reads of one child.
#[derive(Clone, Copy, Default)]
struct PawnLane {
    pawns: u64,
    occupied: u64,
    /// The mover's pieces: what the pawns may take.
    victims: u64,
}

/// The legal pawn moves of the side to move (`white` or not) in one lane, en passant aside,
/// under the parent's `masks` (the child keeps its pins and gives no check): four a
/// promotion.
#[inline(always)]
fn pawn_lane_count(white: bool, lane: &PawnLane, masks: &LegalMasks) -> u64 {
    let LegalMasks {
        checkmask,
        pin_hv,
        pin_diag,
        ..
    } = *masks;
    let push = pawn_push(white);
    let (west, east) = pawn_captures(white);
    // One pinned along a file may still push, one pinned on a diagonal may still take
    // along it, and neither may leave its line.
    let pushers = lane.pawns & !pin_diag;
    let pushed =
        attacks::shift(pushers & !pin_hv, push) | attacks::shift(pushers & pin_hv, push) & pin_hv;
    let single = pushed & !lane.occupied;
    let double = attacks::shift(single & double_push_rank(white), push) & !lane.occupied;
    let quiet = (single | double) & checkmask;
    let takers = lane.pawns & !pin_hv;
    let (free, pinned) = (takers & !pin_diag, takers & pin_diag);
    let victims = lane.victims & checkmask;
    let take = |files: u64, delta: i8| {
        (attacks::shift(free & files, delta) | attacks::shift(pinned & files, delta) & pin_diag)
            & victims
    };
    let (toward_a, toward_h) = (take(NOT_FILE_A, west), take(NOT_FILE_H, east));
    u64::from(
        quiet.count_ones()
            + toward_a.count_ones()
            + toward_h.count_ones()
            + promotions_beyond_one(white, quiet, toward_a, toward_h),
    )
}

/// The replier's (`WHITE` or not) pawn moves summed over the children `child(slot)` of the
/// slots in `slots`, each keeping the parent's pins and giving no check (`masks`, the
/// parent's), en passant aside.
///
/// Callable only where [`crate::slider::wide_lanes_are_supported`] said yes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,avx2,popcnt")]
pub(crate) fn count_pawn_moves<'a, const WHITE: bool>(
    slots: u64,
    child: impl Fn(usize) -> &'a Board,
    masks: &LegalMasks,
) -> u64 {
    sum_in_lanes(slots, child, |boards| pawn_counts(WHITE, boards, masks))
}

/// `counts` summed over the children `child(slot)` of the slots in `slots`, eight at a
/// time: a last pass short of children repeats its first and drops the repeats' counts.
#[inline(always)]
fn sum_in_lanes<'a>(
    slots: u64,
    child: impl Fn(usize) -> &'a Board,
    counts: impl Fn([&'a Board; LANES]) -> [u64; LANES],
) -> u64 {
    let mut rest = slots;
    let mut nodes = 0;
    while rest != 0 {
        let first = rest.trailing_zeros() as usize;
        let mut picks = [first; LANES];
        let mut taken = [false; LANES];
        for (pick, taken) in picks.iter_mut().zip(&mut taken) {
            *taken = rest != 0;
            if *taken {
                *pick = rest.trailing_zeros() as usize;
            }
            rest &= rest.wrapping_sub(1);
        }
        let boards = core::array::from_fn(|lane| child(picks[lane]));
        for (count, taken) in counts(boards).into_iter().zip(taken) {
            nodes += if taken { count } else { 0 };
        }
    }
    nodes
}

/// The pawn moves of the side to move (`white` or not) in each of `boards`, under `masks`.
#[inline(always)]
fn pawn_counts(white: bool, boards: [&Board; LANES], masks: &LegalMasks) -> [u64; LANES] {
    let us = Color::from_white(white);
    let mut lanes = [PawnLane::default(); LANES];
    for (lane, board) in lanes.iter_mut().zip(boards) {
        *lane = PawnLane {
            pawns: board.bits(us, Piece::Pawn),
            occupied: board.occupied_bits(),
            victims: board.color_bits(!us),
        };
    }
    let mut counts = [0; LANES];
    for (count, lane) in counts.iter_mut().zip(&lanes) {
        *count = pawn_lane_count(white, lane, masks);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::position::castling::CastlingRights;

    /// Every position within `plies` of `fen` that the lanes may count: kings, rooks and
    /// pawns only, no castling right, no en passant.
    fn sparse_positions(fen: &str, plies: u32) -> Vec<Position> {
        let mut found = Vec::new();
        let mut frontier = vec![fen.parse::<Position>().unwrap()];
        for _ in 0..=plies {
            let mut next = Vec::new();
            for position in frontier {
                let board = position.board();
                let both =
                    |piece| board.bits(Color::White, piece) | board.bits(Color::Black, piece);
                let others = both(Piece::Knight) | both(Piece::Bishop) | both(Piece::Queen);
                if others == 0
                    && position.ep_square().is_none()
                    && position.castling_rights() == CastlingRights::NONE
                {
                    found.push(position.clone());
                }
                for mv in position.legal_moves().iter() {
                    let mut child = position.clone();
                    child.play_unchecked(*mv);
                    next.push(child);
                }
            }
            frontier = next;
        }
        found
    }

    /// The lanes count every move the generator finds, eight positions a pass.
    fn lanes_match_the_generator(positions: &[Position]) {
        assert!(positions.len() > 100, "too few positions to test");
        for group in positions.chunks(LANES) {
            for white in [true, false] {
                let group: Vec<&Position> = group
                    .iter()
                    .filter(|p| (p.side_to_move() == Color::White) == white)
                    .collect();
                // One king square a pass, as in a depth-2 node.
                let Some(first) = group.first() else { continue };
                let us = Color::from_white(white);
                let king = first.board().bits(us, Piece::King).trailing_zeros() as usize;
                let same: Vec<&Position> = group
                    .into_iter()
                    .filter(|p| p.board().bits(us, Piece::King) == 1 << king)
                    .collect();
                let boards = core::array::from_fn(|lane| same[lane.min(same.len() - 1)].board());
                let counts = count(white, boards, king, &KingRays::new(king));
                for (lane, position) in same.iter().enumerate() {
                    let expected = position.legal_moves().len() as u64;
                    let fen = position.to_string();
                    assert_eq!(counts[lane], expected, "{fen}");
                }
            }
        }
    }

    /// The replier's pawn moves in every child of every position within `plies` of `fen`
    /// that keeps the parent's pins and gives no check (the children a dense batch recounts
    /// by parts), eight children a pass, against the generator's pawn moves (en passant
    /// aside). Returns how many children it checked.
    fn pawn_lanes_match_the_generator(fen: &str, plies: u32) -> usize {
        use crate::base::chess_move::MoveKind;
        use crate::base::types::BitIter;
        use crate::generator::material::AnyPieces;
        use crate::slider::Portable;
        let mut checked = 0;
        let mut frontier = vec![fen.parse::<Position>().unwrap()];
        for _ in 0..plies {
            let mut next = Vec::new();
            for position in frontier {
                let replier = !position.side_to_move();
                let white = replier == Color::White;
                let board = position.board();
                let king = board.bits(replier, Piece::King).trailing_zeros() as usize;
                let masks = LegalMasks::compute::<Portable, AnyPieces>(board, replier, king);
                let mut children = Vec::new();
                for mv in position.legal_moves().iter() {
                    let mut child = position.clone();
                    child.play_unchecked(*mv);
                    let own =
                        LegalMasks::compute::<Portable, AnyPieces>(child.board(), replier, king);
                    if own.checkers == 0
                        && own.pin_hv == masks.pin_hv
                        && own.pin_diag == masks.pin_diag
                    {
                        children.push(child.clone());
                    }
                    next.push(child);
                }
                let expected: Vec<u64> = children
                    .iter()
                    .map(|child| {
                        let moves = child.legal_moves();
                        let pawn_moves = moves.iter().filter(|mv| {
                            child.board().piece_at(mv.from()) == Some((replier, Piece::Pawn))
                                && mv.kind() != MoveKind::EnPassant
                        });
                        pawn_moves.count() as u64
                    })
                    .collect();
                for (group, expected) in children.chunks(LANES).zip(expected.chunks(LANES)) {
                    let boards =
                        core::array::from_fn(|lane| group[lane.min(group.len() - 1)].board());
                    let counts = pawn_counts(white, boards, &masks);
                    for ((child, count), expected) in group.iter().zip(counts).zip(expected) {
                        assert_eq!(count, *expected, "{child}");
                        checked += 1;
                    }
                }
                // The slots' picking: every child, and every third (a last pass short of
                // children), where the CPU can run the lanes' entry.
                #[cfg(target_arch = "x86_64")]
                if crate::slider::wide_lanes_are_supported()
                    && !children.is_empty()
                    && children.len() <= 64
                {
                    let all = u64::MAX >> (64 - children.len());
                    for slots in [all, all & 0x9249_2492_4924_9249] {
                        let child = |slot: usize| children[slot].board();
                        // SAFETY: the CPU reported every feature the entry enables.
                        let sum = unsafe {
                            if white {
                                count_pawn_moves::<true>(slots, child, &masks)
                            } else {
                                count_pawn_moves::<false>(slots, child, &masks)
                            }
                        };
                        let each = BitIter(slots).map(|slot| expected[slot]);
                        assert_eq!(sum, each.sum::<u64>(), "{position}");
                    }
                }
            }
            frontier = next;
        }
        checked
    }

    #[test]
    fn pawn_moves_count_as_the_generator() {
        let mut checked = 0;
        for fen in [
            // Kiwipete, positions 4 and 5 (captures, promotions by push and capture).
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // Pawns pinned on a file, a rank and both diagonals, beside promotions.
            "4r3/1p4k1/2P5/q2P4/1P1K1P1r/4P3/3B1b2/8 b - - 0 1",
            "3r4/1P2P3/8/1b1k4/2P5/1P3P2/3P1K2/r6q b - - 0 1",
        ] {
            checked += pawn_lanes_match_the_generator(fen, 2);
        }
        assert!(checked > 1000, "too few children: {checked}");
    }

    #[test]
    fn rook_and_pawn_boards_count_as_the_generator() {
        let mut positions = Vec::new();
        for fen in [
            // Position 3 (pins on the fourth rank, discovered checks).
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // A rook ending, a king in the corner between rooks, promotions.
            "8/5pk1/6p1/7p/R7/6PP/r4PK1/8 w - - 0 1",
            "k7/8/8/8/8/8/1R6/KR6 b - - 0 1",
            "8/1P4k1/8/8/8/8/1r4p1/4K2R w - - 0 1",
            // A pawn pinned on a file and one on a rank; a double check.
            "4r2k/8/8/8/4P3/8/r2PK3/8 w - - 0 1",
            "8/8/8/8/4k3/8/5P2/r3K1r1 w - - 0 1",
            // Two of the king's pieces between it and a rook, on a file and on a rank: no pin.
            "4r2k/8/8/8/4R3/8/4P3/4K3 w - - 0 1",
            "7k/8/8/8/r1P1R1K1/8/8/8 w - - 0 1",
        ] {
            positions.extend(sparse_positions(fen, 3));
        }
        lanes_match_the_generator(&positions);
    }
}
