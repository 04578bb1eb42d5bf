//! The replier's moves in eight sparse children at once (kings, rooks and pawns only, no
//! castling right, no en passant), each child in one lane of the same straight-line code,
//! on CPUs with AVX-512.
//!
//! The scalar counter finds pins, checks and the king-ban with loops and tests whose
//! outcomes differ from child to child, so position 3's sparse children pay a mispredict or
//! more each. Here every ray is found by bit arithmetic from the king's fixed square and
//! every set of rooks by occluded fills, with no branch and no lookup indexed by a lane's
//! data, so the compiler runs the eight lanes in one 512-bit register. With AVX2's four
//! lanes and no vector popcount it ran slower than the scalar counter (docs/PERFORMANCE.md).

use crate::base::attacks::{self, NOT_FILE_A, NOT_FILE_H};
use crate::base::board::Board;
use crate::base::geometry::{double_push_rank, promotion_rank};
use crate::base::types::{Color, Piece};

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
    // Promotions count four moves: the three more, packed into one word.
    let last = promotion_rank(white);
    let promotions = if white {
        (single & last) >> 56 | (toward_a & last) >> 48 | (toward_h & last) >> 40
    } else {
        single & last | (toward_a & last) << 8 | (toward_h & last) << 16
    };
    moves += u64::from(
        single.count_ones()
            + double.count_ones()
            + toward_a.count_ones()
            + toward_h.count_ones()
            + 3 * promotions.count_ones(),
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
