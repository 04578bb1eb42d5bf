//! One move order on every path: `legal_moves`, `for_each_legal` and the walk's children
//! (`Generator::children`) hand out the same moves in the same order, on positions from
//! fixed-seed random play (standard and Chess960) and on crafted positions where moves take
//! a castling rook on its square (the one case where the paths' orders once differed).

use crate::common::XorShift;
use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Bitboard, Color, Move, MoveKind, MoveMask, Piece, Position};

/// The root's children's moves, in the order the walk makes them.
struct ChildMoves;

struct Collect(Vec<Move>);

impl Children for Collect {
    fn child<C: StatusFlags>(&mut self, _: Node<'_, C>, mv: Move) {
        self.0.push(mv);
    }
}

impl Walk for ChildMoves {
    type Output = Vec<Move>;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Vec<Move> {
        let mut collect = Collect(Vec::new());
        G::children(root, &mut collect);
        collect.0
    }
}

/// Panics with the FEN when the three paths disagree on `pos`'s moves or their order.
fn assert_one_order(pos: &Position) {
    let listed: Vec<Move> = pos.legal_moves().into_iter().collect();
    let mut each = Vec::new();
    pos.for_each_legal(|mv| each.push(mv));
    let walked = pos.walk(ChildMoves);
    assert_eq!(listed, each, "legal_moves vs for_each_legal in {pos}");
    assert_eq!(listed, walked, "legal_moves vs walk children in {pos}");
}

/// Whether `mv` lands on a rook of the opponent that still has its castling right.
fn takes_castling_rook(pos: &Position, mv: Move) -> bool {
    let rooks = pos
        .board()
        .pieces(!pos.side_to_move(), constmove::Piece::Rook);
    let their_rank = if pos.side_to_move() == Color::White {
        7
    } else {
        0
    };
    rooks.contains(mv.to()) && mv.to().rank() == their_rank && pos.castling_rights().bits() != 0
}

#[test]
fn one_order_on_random_play() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    let mut rook_captures = 0;
    for game in 0..60 {
        let mut pos = if game % 3 == 2 {
            Position::chess960_startpos(rng.below(960) as u32).unwrap()
        } else {
            Position::startpos()
        };
        for _ in 0..120 {
            assert_one_order(&pos);
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            rook_captures += moves.iter().any(|&mv| takes_castling_rook(&pos, mv)) as u32;
            // Captures preferred: games reach open files and rook captures sooner.
            let board = pos.board().occupied();
            let mv = rng.pick_preferring(&moves, |mv| board.contains(mv.to()));
            pos.play_unchecked(mv);
        }
    }
    assert!(checked > 3_000, "only {checked} positions");
    assert!(
        rook_captures > 0,
        "random play reached no castling-rook capture"
    );
}

#[test]
fn one_order_when_taking_castling_rooks() {
    let fens = [
        // Rooks take rooks along the files and the back rank.
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        // Promotions that take a corner rook, pushes beside them.
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
        // Knights, bishops and a queen on the corners.
        "r3k2r/8/1N4N1/8/8/1n4n1/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/3B4/3b4/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/3Q4/3q4/8/8/R3K2R b KQkq - 0 1",
        // A queen that takes both corner rooks.
        "r3k2r/8/8/8/8/8/8/Q3K3 w kq - 0 1",
        // Chess960: rooks inside the back rank (b and g files).
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "1r2k1r1/P6P/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "1r2k1r1/8/8/3Q4/8/8/8/1R2K1R1 w GBgb - 0 1",
        "nrk1brqn/8/8/8/8/8/8/NRKQBR1N w FBfb - 0 1",
    ];
    let mut rook_captures = 0;
    for fen in fens {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        rook_captures += pos
            .legal_moves()
            .iter()
            .filter(|&&mv| takes_castling_rook(&pos, mv))
            .count();
        assert_one_order(&pos);
    }
    assert!(
        rook_captures >= 20,
        "only {rook_captures} castling-rook captures"
    );
}

/// The root's children's moves under `mask`, in the order the walk makes them.
struct MaskedChildMoves(MoveMask);

impl Walk for MaskedChildMoves {
    type Output = Vec<Move>;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Vec<Move> {
        let mut collect = Collect(Vec::new());
        G::children_masked(root, self.0, &mut collect);
        collect.0
    }
}

/// Whether `mv` is noisy in `pos`, by the test's own reading: it takes a piece of the
/// opponent (en passant included) or promotes.
fn is_noisy(pos: &Position, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::EnPassant | MoveKind::Promotion(_) => true,
        MoveKind::Castle => false,
        _ => matches!(pos.board().piece_at(mv.to()), Some((c, _)) if c != pos.side_to_move()),
    }
}

/// Panics with the FEN when a path's masked moves are not the unmasked list filtered by
/// `keep`, in its order.
fn assert_masked(pos: &Position, mask: MoveMask, keep: impl Fn(Move) -> bool) -> usize {
    let expected: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&mv| keep(mv))
        .collect();
    let listed: Vec<Move> = pos.legal_moves_masked(mask).into_iter().collect();
    let mut each = Vec::new();
    pos.for_each_legal_masked(mask, |mv| each.push(mv));
    let walked = pos.walk(MaskedChildMoves(mask));
    assert_eq!(listed, expected, "legal_moves_masked({mask:?}) in {pos}");
    assert_eq!(each, expected, "for_each_legal_masked({mask:?}) in {pos}");
    assert_eq!(walked, expected, "children_masked({mask:?}) in {pos}");
    for &mv in &expected {
        assert!(mask.allows(pos, mv), "{mask:?} allows {mv} in {pos}");
    }
    expected.len()
}

/// Masked generation on every path gives exactly the unmasked moves the mask names, in the
/// unmasked order: noisy, quiet, one piece kind's origins, random origin and landing sets.
#[test]
fn masked_generation_is_the_filtered_list_in_order() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let (mut positions, mut noisy, mut quiet) = (0, 0, 0);
    let (mut promotions, mut en_passant, mut castles) = (0, 0, 0);
    for game in 0..40 {
        let mut pos = if game % 3 == 2 {
            Position::chess960_startpos(rng.below(960) as u32).unwrap()
        } else {
            Position::startpos()
        };
        for _ in 0..150 {
            positions += 1;
            let p = pos.clone();
            noisy += assert_masked(&pos, MoveMask::NOISY, |mv| is_noisy(&p, mv));
            quiet += assert_masked(&pos, MoveMask::QUIET, |mv| !is_noisy(&p, mv));
            let piece = [
                Piece::Pawn,
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ][rng.below(6)];
            let mine = pos.board().pieces(pos.side_to_move(), piece);
            assert_masked(&pos, MoveMask::ALL.starting_on(mine), |mv| {
                mine.contains(mv.from())
            });
            let (from, to) = (
                Bitboard(rng.next() | rng.next()),
                Bitboard(rng.next() | rng.next()),
            );
            let mask = MoveMask::NOISY.starting_on(from).landing_on(to);
            assert_masked(&pos, mask, |mv| {
                is_noisy(&p, mv) && from.contains(mv.from()) && to.contains(mv.to())
            });
            let mask = MoveMask::QUIET.starting_on(from).landing_on(to);
            assert_masked(&pos, mask, |mv| {
                !is_noisy(&p, mv) && from.contains(mv.from()) && to.contains(mv.to())
            });
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in &moves {
                promotions += matches!(mv.kind(), MoveKind::Promotion(_)) as u32;
                en_passant += (mv.kind() == MoveKind::EnPassant) as u32;
                castles += (mv.kind() == MoveKind::Castle) as u32;
            }
            let board = pos.board().occupied();
            let mv = rng.pick_preferring(&moves, |mv| board.contains(mv.to()));
            pos.play_unchecked(mv);
        }
    }
    assert!(positions > 2_000, "only {positions} positions");
    assert!(
        noisy > 3_000 && quiet > 20_000,
        "{noisy} noisy, {quiet} quiet moves"
    );
    assert!(
        promotions > 0 && en_passant > 0 && castles > 0,
        "{promotions} {en_passant} {castles}"
    );
}

/// Masks on crafted positions: a castle kept or dropped by its landing square (standard and
/// Chess960), en passant by its square, promotions as noisy, check evasions.
#[test]
fn masked_generation_on_crafted_positions() {
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "7k/1P6/8/3pP3/2q5/1P6/8/K7 w - d6 0 2",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
        "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    ] {
        let pos: Position = fen.parse().unwrap();
        let p = pos.clone();
        assert_masked(&pos, MoveMask::NOISY, |mv| is_noisy(&p, mv));
        assert_masked(&pos, MoveMask::QUIET, |mv| !is_noisy(&p, mv));
        for square in 0..64 {
            let one = Bitboard(1 << square);
            assert_masked(&pos, MoveMask::ALL.landing_on(one), |mv| {
                one.contains(mv.to())
            });
            assert_masked(&pos, MoveMask::ALL.starting_on(one), |mv| {
                one.contains(mv.from())
            });
        }
    }
}
