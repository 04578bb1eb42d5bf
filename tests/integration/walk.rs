//! The public recursive walk (`Position::walk`): each child's node and move against
//! `legal_moves` + `play`. The two examples built on the walk test themselves
//! (`examples/visitor_perft.rs` against the perft suites, `examples/forced_moves.rs` against
//! listing and playing), so this binary does not compile their walks a second time.

use crate::common::{load, parse_epd};
use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Move, Position};
use std::marker::PhantomData;

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
