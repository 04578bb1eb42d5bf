//! The engine-facing API against published data: a custom visitor walked by `visit_tree`
//! sees exactly the moves perft counts (nodes, captures, en passant, castles and promotions
//! of `cpw_perft_results.csv`), `for_each_legal` agrees with `legal_moves`, and `outcome`
//! tells checkmate from stalemate.

use crate::common;

use common::{BISHOP_DIRS, ROOK_DIRS, XorShift, attackers, offset, read_data};
use constmove::walk::{StatusFlags, Visitor};
use constmove::{Board, Color, Move, MoveKind, Outcome, Piece, Position, Square};

/// Per-leaf counts a user might write: the move-kind columns of the wiki's table.
#[derive(Default, Debug, PartialEq)]
struct KindCounts {
    nodes: u64,
    captures: u64,
    en_passant: u64,
    castles: u64,
    promotions: u64,
}

impl KindCounts {
    fn step(&mut self, board: &Board, to: Square) {
        self.nodes += 1;
        self.captures += board.occupied().contains(to) as u64;
    }
}

impl Visitor for KindCounts {
    fn king<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn castle<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) {
        self.nodes += 1;
        self.castles += 1;
    }
    fn pawn_push<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn pawn_double_push<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn pawn_capture<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn en_passant<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) {
        self.nodes += 1;
        self.captures += 1;
        self.en_passant += 1;
    }
    fn promotion<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square, _: Piece) {
        self.step(b, to);
        self.promotions += 1;
    }
    fn knight<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn bishop<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn rook<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
    fn queen<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) {
        self.step(b, to)
    }
}

/// Leaves per row walked here; the walk visits every leaf, so keep it to seconds.
const NODE_BUDGET: u64 = 20_000_000;

#[test]
fn visit_tree_matches_published_move_kind_counts() {
    let csv = read_data("cpw_perft_results.csv");
    let mut checked = 0;
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        // Deep rows overflow u64 (the start position at depth 15 has 2e21 leaves).
        let nodes: u128 = cells[3].parse().unwrap();
        if nodes > NODE_BUDGET as u128 {
            continue;
        }
        let position: Position = cells[1].parse().unwrap();
        let depth: u32 = cells[2].parse().unwrap();
        let mut counts = KindCounts::default();
        position.visit_tree(depth, &mut counts);
        let found = [
            counts.nodes,
            counts.captures,
            counts.en_passant,
            counts.castles,
            counts.promotions,
        ];
        for (column, value) in (3..8).zip(found) {
            // An empty cell is a figure the wiki does not publish.
            if let Ok(expected) = cells[column].parse::<u64>() {
                assert_eq!(
                    value, expected,
                    "position {} depth {depth} column {column}",
                    cells[0]
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "only {checked} cells checked");
}

#[test]
fn visit_tree_at_depth_zero_visits_nothing() {
    let mut counts = KindCounts::default();
    Position::startpos().visit_tree(0, &mut counts);
    assert_eq!(counts, KindCounts::default());
}

#[test]
fn for_each_legal_lists_what_legal_moves_lists() {
    let mut rng = XorShift(0x00F0_E4C4);
    for _ in 0..40 {
        let mut position = Position::startpos();
        for _ in 0..80 {
            let listed = position.legal_moves();
            let mut seen: Vec<Move> = Vec::new();
            position.for_each_legal(|mv| seen.push(mv));
            let mut listed: Vec<Move> = listed.to_vec();
            let key = |mv: &Move| (mv.from().index(), mv.to().index(), format!("{mv}"));
            listed.sort_by_key(key);
            seen.sort_by_key(key);
            assert_eq!(listed, seen, "{position}");
            if listed.is_empty() {
                break;
            }
            position.play(listed[rng.below(listed.len())]).unwrap();
        }
    }
}

#[test]
fn outcome_tells_mate_from_stalemate() {
    // Fool's mate, played.
    let mut position = Position::startpos();
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        assert_eq!(position.outcome(), None);
        position.play(position.parse_uci(text).unwrap()).unwrap();
    }
    assert_eq!(
        position.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    let stalemate: Position = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1".parse().unwrap();
    assert_eq!(stalemate.outcome(), Some(Outcome::Stalemate));
    // Only the checked side with moves left: not over.
    let check: Position = "k7/8/1K6/8/8/8/8/7Q b - - 0 1".parse().unwrap();
    assert!(check.is_check());
    assert_eq!(check.outcome(), None);
}

#[test]
fn play_keeps_clocks_and_rejects_without_change() {
    let mut position = Position::startpos();
    for text in ["g1f3", "g8f6", "f3g1"] {
        position.play(position.parse_uci(text).unwrap()).unwrap();
    }
    assert_eq!(
        (position.halfmove_clock(), position.fullmove_number()),
        (3, 2)
    );
    position.play(position.parse_uci("e7e5").unwrap()).unwrap();
    assert_eq!(
        (position.halfmove_clock(), position.fullmove_number()),
        (0, 3)
    );
    let before = position.clone();
    let illegal = Move::new(
        "e1".parse().unwrap(),
        "e3".parse().unwrap(),
        MoveKind::Normal,
    );
    assert!(position.play(illegal).is_err());
    assert_eq!(position, before);
    let odd_promotion = Move::new(
        "e2".parse().unwrap(),
        "e4".parse().unwrap(),
        MoveKind::Promotion(Piece::Pawn),
    );
    assert!(position.play(odd_promotion).is_err());
    assert_eq!(position, before);
}

/// The side to move's pieces pinned to its king, by walking out from the king: the first
/// piece met on a line is ours and the second an enemy slider moving along that line.
fn pinned_by_walking(position: &Position) -> Vec<Square> {
    let board = position.board();
    let us = position.side_to_move();
    let king = board
        .pieces(us, Piece::King)
        .into_iter()
        .next()
        .expect("a king");
    let mut pinned = Vec::new();
    for (dirs, slider) in [(ROOK_DIRS, Piece::Rook), (BISHOP_DIRS, Piece::Bishop)] {
        for (df, dr) in dirs {
            let mut at = king;
            let mut ours = None;
            while let Some(next) = offset(at, df, dr) {
                at = next;
                match (board.piece_at(next), ours) {
                    (None, _) => continue,
                    (Some((color, _)), None) if color == us => ours = Some(next),
                    (Some((color, piece)), Some(candidate)) => {
                        if color != us && (piece == slider || piece == Piece::Queen) {
                            pinned.push(candidate);
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
    pinned.sort_by_key(|square| square.index());
    pinned
}

/// `attackers_to`, `is_attacked`, `checkers` and `pinned` against walking the board square
/// by square, and `null_move` against a key from scratch, in random games.
#[test]
fn queries_agree_with_walking_the_board() {
    let mut rng = XorShift(0x0051_A7ED);
    let mut checked = 0;
    for _ in 0..30 {
        let mut position = Position::startpos();
        for _ in 0..100 {
            let board = position.board();
            for index in 0..64 {
                let square = Square::new(index).unwrap();
                for by in [Color::White, Color::Black] {
                    let mut expected = attackers(board, square, by);
                    expected.sort_by_key(|square| square.index());
                    let got: Vec<Square> = position.attackers_to(square, by).into_iter().collect();
                    assert_eq!(got, expected, "{position} {square} {by:?}");
                    assert_eq!(position.is_attacked(square, by), !expected.is_empty());
                }
            }
            let us = position.side_to_move();
            let king = board.pieces(us, Piece::King).into_iter().next().unwrap();
            assert_eq!(
                position.checkers(),
                position.attackers_to(king, !us),
                "{position}"
            );
            assert_eq!(position.checkers().is_empty(), !position.is_check());
            let pinned: Vec<Square> = position.pinned().into_iter().collect();
            assert_eq!(pinned, pinned_by_walking(&position), "{position}");

            let mut passed = position.clone();
            if passed.null_move() {
                assert!(!position.is_check());
                let fresh: Position = passed.to_string().parse().unwrap();
                assert_eq!(passed.zobrist(), fresh.zobrist(), "{position}");
                assert_eq!(passed.side_to_move(), !us);
                assert_eq!(passed.ep_square(), None);
            } else {
                assert!(position.is_check());
                assert_eq!(passed, position, "a refused null move changes nothing");
            }
            checked += 1;
            if checked % 4 == 0 {
                assert_is_legal_decides_every_move(&position);
            }

            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.iter().copied().nth(rng.below(moves.len())).unwrap();
            position.play_unchecked(mv);
        }
    }
    assert!(checked > 1_000, "{checked} positions");
}

/// `is_legal` agrees with the list of legal moves on every move of every kind from every
/// square of the side to move to every square.
fn assert_is_legal_decides_every_move(position: &Position) {
    let legal = position.legal_moves();
    let kinds = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::Promotion(Piece::Queen),
        MoveKind::Promotion(Piece::Rook),
        MoveKind::Promotion(Piece::Bishop),
        MoveKind::Promotion(Piece::Knight),
    ];
    let mut found = 0;
    for from in position.board().color(position.side_to_move()) {
        for to in 0..64 {
            let to = Square::new(to).unwrap();
            for kind in kinds {
                let mv = Move::new(from, to, kind);
                let listed = legal.contains(&mv);
                assert_eq!(position.is_legal(mv), listed, "{position} {mv} {kind:?}");
                found += usize::from(listed);
            }
        }
    }
    assert_eq!(found, legal.len(), "{position}");
}

/// `Move`'s 16-bit code: every legal move of random play reads back as itself, every code
/// that reads back is that move's own code, the null move is code 0 and no legal move, and
/// `Ord` is the code's order.
#[test]
fn move_codes_round_trip_and_reject_non_moves() {
    let mut rng = XorShift(0x5EED_0016);
    let mut seen = std::collections::HashSet::new();
    for game in 0..60 {
        let mut pos = if game % 4 == 3 {
            Position::chess960_startpos(rng.below(960) as u32).unwrap()
        } else {
            Position::startpos()
        };
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                assert_eq!(Move::from_u16(mv.to_u16()), Some(mv), "{mv} in {pos}");
                assert!(!mv.is_null());
                assert_eq!(format!("{mv:?}"), mv.to_string());
                seen.insert(mv.to_u16());
            }
            let mut sorted = moves.clone();
            sorted.sort();
            assert!(sorted.windows(2).all(|w| w[0].to_u16() < w[1].to_u16()));
            let mv = moves[rng.below(moves.len())];
            pos.play_unchecked(mv);
        }
    }
    assert!(seen.len() > 1_500, "only {} distinct moves", seen.len());
    let mut accepted = 0;
    for code in 0..=u16::MAX {
        if let Some(mv) = Move::from_u16(code) {
            accepted += 1;
            assert_eq!(mv.to_u16(), code);
            assert_eq!(Move::new(mv.from(), mv.to(), mv.kind()), mv);
        } else {
            assert!(!seen.contains(&code), "{code:#06x} was a legal move");
        }
    }
    // Normal: 64 × 63 square pairs, plus the null move; double pushes 16; castles 2 ranks
    // × 8 × 7; en passant 2 × 14; promotions 4 pieces × 2 × 22.
    assert_eq!(accepted, 64 * 63 + 1 + 16 + 2 * 8 * 7 + 2 * 14 + 4 * 2 * 22);
    assert_eq!(Move::default(), Move::NULL);
    assert_eq!(Move::NULL.to_string(), "0000");
    assert!(Position::startpos().play(Move::NULL).is_err());
    // Promotion to a king (what `Move::new` keeps for a pawn or king promotion) has no code.
    let odd = Move::new(
        "e7".parse().unwrap(),
        "e8".parse().unwrap(),
        MoveKind::Promotion(Piece::Pawn),
    );
    assert_eq!(Move::from_u16(odd.to_u16()), None);
}

/// A slider's attacks by walking its rays square by square (blockers included).
fn ray_walk(square: Square, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut bits = 0;
    for &(df, dr) in dirs {
        let mut at = square;
        while let Some(next) = offset(at, df, dr) {
            bits |= 1u64 << next.index();
            if occupied & (1u64 << next.index()) != 0 {
                break;
            }
            at = next;
        }
    }
    bits
}

/// The public attack lookups against the test's own geometry, on every square.
#[test]
fn attack_lookups_match_the_ray_walk() {
    use common::{KING_STEPS, KNIGHT_STEPS};
    use constmove::{Bitboard, attacks};
    let mut rng = XorShift(0x00A7_7AC4);
    let steps = |square: Square, list: &[(i32, i32)]| {
        list.iter()
            .filter_map(|&(df, dr)| offset(square, df, dr))
            .fold(0u64, |bits, s| bits | 1 << s.index())
    };
    for index in 0..64 {
        let square = Square::new(index).unwrap();
        assert_eq!(attacks::knight(square).0, steps(square, &KNIGHT_STEPS));
        assert_eq!(attacks::king(square).0, steps(square, &KING_STEPS));
        assert_eq!(
            attacks::pawn(Color::White, square).0,
            steps(square, &[(-1, 1), (1, 1)])
        );
        assert_eq!(
            attacks::pawn(Color::Black, square).0,
            steps(square, &[(-1, -1), (1, -1)])
        );
        for _ in 0..50 {
            let occupied = rng.next() & rng.next();
            let rook = ray_walk(square, occupied, &ROOK_DIRS);
            let bishop = ray_walk(square, occupied, &BISHOP_DIRS);
            assert_eq!(attacks::rook(square, Bitboard(occupied)).0, rook);
            assert_eq!(attacks::bishop(square, Bitboard(occupied)).0, bishop);
            assert_eq!(attacks::queen(square, Bitboard(occupied)).0, rook | bishop);
        }
        for other in 0..64 {
            let other = Square::new(other).unwrap();
            // Between: the ray from `square` towards `other` stopped by `other` itself,
            // when `other` is on it; the line: both full rays through the pair.
            let mut between = 0;
            let mut line = 0;
            for &(df, dr) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                let ray = ray_walk(square, 1 << other.index(), &[(df, dr)]);
                if ray & (1 << other.index()) != 0 {
                    between = ray & !(1 << other.index());
                    line = ray_walk(square, 0, &[(df, dr), (-df, -dr)]) | 1 << square.index();
                }
            }
            assert_eq!(
                attacks::between(square, other).0,
                between,
                "{square} {other}"
            );
            assert_eq!(attacks::line(square, other).0, line, "{square} {other}");
        }
    }
}

/// `has_legal_moves`, `is_checkmate` and `is_stalemate` against the move list, over random
/// games played to their end (mates and stalemates included) and crafted positions.
#[test]
fn mate_and_stalemate_queries_agree_with_the_move_list() {
    let mut rng = XorShift(0x0E4D_5A7E);
    let (mut mates, mut stalemates) = (0, 0);
    let check = |pos: &Position| {
        let empty = pos.legal_moves().is_empty();
        assert_eq!(pos.has_legal_moves(), !empty, "{pos}");
        assert_eq!(pos.is_checkmate(), empty && pos.is_check(), "{pos}");
        assert_eq!(pos.is_stalemate(), empty && !pos.is_check(), "{pos}");
        (pos.is_checkmate(), pos.is_stalemate())
    };
    for fen in [
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        // En passant and castling rights in the status.
        "8/8/8/8/k2Pp3/8/8/K7 b - d3 0 1",
        "4k2r/8/8/8/8/8/3PPPPP/2RQK3 w k - 0 1",
    ] {
        let (mate, stalemate) = check(&fen.parse().unwrap());
        mates += mate as u32;
        stalemates += stalemate as u32;
    }
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..400 {
            let (mate, stalemate) = check(&pos);
            mates += mate as u32;
            stalemates += stalemate as u32;
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        mates > 2 && stalemates > 1,
        "{mates} mates, {stalemates} stalemates"
    );
}

/// `has_legal_moves` (which stops at the first move) agrees with the full list on random
/// play, on every child of each position (mates and stalemates among them), and on crafted
/// positions with few moves: a pinned slider's, en passant, castling, the king's.
#[test]
fn has_legal_moves_agrees_with_the_list() {
    let agree = |pos: &Position| {
        assert_eq!(
            pos.has_legal_moves(),
            !pos.legal_moves().is_empty(),
            "has_legal_moves in {pos}"
        );
        pos.legal_moves().is_empty() as u32
    };
    let mut rng = XorShift(0x5DEE_CE66_D1CE_4E5B);
    let (mut checked, mut without_moves) = (0, 0);
    for game in 0..30 {
        let mut pos = if game % 3 == 2 {
            Position::chess960_startpos(rng.below(960) as u32).unwrap()
        } else {
            Position::startpos()
        };
        for _ in 0..200 {
            let moves = pos.legal_moves();
            for &mv in &moves {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                without_moves += agree(&child);
                checked += 1;
            }
            if agree(&pos) == 1 {
                break;
            }
            let board = pos.board().occupied();
            let mv = rng.pick_preferring(&moves, |mv| board.contains(mv.to()));
            pos.play_unchecked(mv);
        }
    }
    assert!(checked > 50_000, "only {checked} positions");
    assert!(without_moves > 0, "no mate or stalemate reached");
    for fen in [
        // Mates and stalemates.
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        // A bishop pinned on the long diagonal; a pinned rook, its king in check.
        "k7/1b6/8/K7/8/8/8/7Q b - - 0 1",
        "k7/r7/8/8/8/8/8/R1K4B b - - 0 1",
        // En passant beside king steps.
        "8/8/8/8/pP6/k7/2Q5/K7 b - b3 0 1",
        // Castling and king steps; Chess960 castling with the rook next to the king.
        "4k3/8/8/8/8/8/3PPP2/4K2R w K - 0 1",
        "4k3/8/8/8/8/8/4PPPP/5KR1 w G - 0 1",
        // Double check: only the king.
        "1q4b1/3n4/1r3N2/3k4/8/2B5/Q6R/4K2n b - - 0 1",
    ] {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        agree(&pos);
    }
}
