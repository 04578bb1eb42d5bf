//! The public recursive walk (`Position::walk`): the perft of `examples/visitor_perft.rs`
//! against published counts on every backend, each child's node and move against
//! `legal_moves` + `play`, and the statistic of `examples/forced_moves.rs` against a count
//! made by listing and playing moves.

use crate::common::{backends, load, parse_epd, select_cases};
use constmove::{Children, Generator, Move, Node, Position, StatusFlags, Walk};
use std::marker::PhantomData;

#[allow(dead_code)]
#[path = "../../examples/visitor_perft.rs"]
mod visitor_perft;

#[allow(dead_code)]
#[path = "../../examples/forced_moves.rs"]
mod forced_moves;

/// Leaves per case: the whole suite stays within seconds.
const NODE_BUDGET: u64 = 2_000_000;

#[test]
fn visitor_perft_example_matches_the_suites_on_every_backend() {
    let mut entries = load("perftsuite.epd", parse_epd);
    entries.extend(load("perftsuite_extras.epd", parse_epd));
    let cases = select_cases(&entries, |_, nodes| nodes <= NODE_BUDGET);
    assert!(cases.len() > 300, "only {} cases", cases.len());
    for backend in backends() {
        for case in &cases {
            let position: Position = case.fen.parse().unwrap();
            let nodes = position
                .walk_with(visitor_perft::Perft(case.depth), backend)
                .unwrap();
            assert_eq!(
                nodes, case.nodes,
                "{} depth {} on {backend}",
                case.origin, case.depth
            );
        }
    }
}

/// Each child of the root as a position, with the move that made it.
struct RootChildren<G>(Vec<(Move, Position)>, PhantomData<G>);

impl<G: Generator> Children for RootChildren<G> {
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, mv: Move) {
        self.0.push((mv, child.to_position()));
    }
}

struct ListChildren;

impl Walk for ListChildren {
    type Output = Vec<(Move, Position)>;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Self::Output {
        let mut children = RootChildren::<G>(Vec::new(), PhantomData);
        G::children(root, &mut children);
        children.0
    }
}

/// The fields a node carries: pieces, side, rights, en passant, key (not the counters).
fn fields(position: &Position) -> String {
    let fen = position.to_string();
    let fields: Vec<&str> = fen.split(' ').take(4).collect();
    format!("{} {:016x}", fields.join(" "), position.zobrist())
}

#[test]
fn children_are_the_legal_moves_played() {
    let mut entries = load("perftsuite.epd", parse_epd);
    entries.extend(load("perftsuite_extras.epd", parse_epd));
    let mut checked = 0;
    for entry in &entries {
        let root: Position = entry.fen.parse().unwrap();
        // Two plies: the children of the root's children carry statuses the root lacks.
        for position in std::iter::once(root.clone()).chain(root.legal_moves().iter().map(|mv| {
            let mut child = root.clone();
            child.play_unchecked(*mv);
            child
        })) {
            let mut walked: Vec<(Move, String)> = position
                .walk(ListChildren)
                .iter()
                .map(|(mv, child)| (*mv, fields(child)))
                .collect();
            let mut played: Vec<(Move, String)> = position
                .legal_moves()
                .iter()
                .map(|mv| {
                    let mut child = position.clone();
                    child.play(*mv).unwrap();
                    (*mv, fields(&child))
                })
                .collect();
            let key = |(mv, _): &(Move, String)| mv.to_string();
            walked.sort_by_key(key);
            played.sort_by_key(key);
            assert_eq!(walked, played, "children of {position}");
            checked += walked.len();
        }
    }
    assert!(checked > 20_000, "only {checked} children checked");
}

/// The tallies of `forced_moves`, by listing and playing every move.
fn forced_by_listing(position: &Position, ply: usize, plies: &mut [forced_moves::Ply]) {
    let moves = position.legal_moves();
    let tally = &mut plies[ply];
    tally.positions += 1;
    tally.forced += (moves.len() == 1) as u64;
    tally.none += moves.is_empty() as u64;
    tally.most = tally.most.max(moves.len() as u64);
    if ply + 1 < plies.len() {
        for mv in moves.iter() {
            let mut child = position.clone();
            child.play_unchecked(*mv);
            forced_by_listing(&child, ply + 1, plies);
        }
    }
}

#[test]
fn forced_moves_example_agrees_with_listing_and_playing() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    for fen in fens {
        let position: Position = fen.parse().unwrap();
        let depth = 3;
        let walked = position.walk(forced_moves::ForcedMoves(depth));
        let mut listed = vec![forced_moves::Ply::default(); depth as usize + 1];
        forced_by_listing(&position, 0, &mut listed);
        assert_eq!(walked, listed, "{fen}");
        assert!(
            walked.iter().any(|ply| ply.forced > 0),
            "{fen}: no forced move seen"
        );
    }
}
