//! One move order on every path: `legal_moves`, `for_each_legal` and the walk's children
//! (`Generator::children`) hand out the same moves in the same order, on positions from
//! fixed-seed random play (standard and Chess960) and on crafted positions where moves take
//! a castling rook on its square (the one case where the paths' orders once differed).

use crate::common::XorShift;
use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Color, Move, Position};

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
