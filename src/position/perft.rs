//! Perft, divide, statistics and tree visits of a [`Position`]: the public entry points of
//! the counting layer. Each resolves the backend, reads the position's status index, and
//! enters the engine's code for that status.

use crate::base::chess_move::Move;
use crate::base::status::StatusFlags;
use crate::count::perft::perft as perft_board;
use crate::count::stats::{PerftStats, stats_entry};
use crate::generator::entry::{Engine, RootOp, at_root};
use crate::generator::visitor::Visitor;
use crate::position::Position;
use crate::position::moves::MoveCounts;
use crate::position::walk::{Children, Generator, Node, Walk};
use crate::slider::{Cpu, Resolved};
use core::marker::PhantomData;

/// The number of leaves of the legal move tree `depth` plies deep (`1` at depth 0), on the
/// position's backend (the fastest for this CPU unless [`Position::with_backend`] chose
/// one; `PerftOptions` for threads or a table).
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_resolved(position, depth, position.engine)
}

/// [`perft`] on a backend already resolved (no CPU check per call).
pub(crate) fn perft_resolved(position: &Position, depth: u32, backend: Resolved) -> u64 {
    at_root(
        backend,
        position.status_index(),
        PerftRoot { position, depth },
    )
}

/// [`perft_resolved`] once the engine and status are known.
struct PerftRoot<'a> {
    position: &'a Position,
    depth: u32,
}

impl RootOp for PerftRoot<'_> {
    type Output = u64;
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> u64 {
        let position = self.position;
        perft_board::<S, B>(cpu, &position.board, position.ep_index(), self.depth)
    }
}

/// [`perft`] of each legal root move, in the order [`Position::legal_moves`] lists them,
/// on the position's backend ([`Position::with_backend`]; `PerftOptions` for threads or a
/// table). At depth 0 there are no root moves and the list is empty.
///
/// # Examples
/// ```
/// use constmove::{divide, Position};
/// let counts = divide(&Position::startpos(), 3);
/// assert_eq!(counts.len(), 20);
/// assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
/// let e2e4 = counts.iter().find(|(mv, _)| mv.to_string() == "e2e4").unwrap();
/// assert_eq!(e2e4.1, 600);
/// ```
pub fn divide(position: &Position, depth: u32) -> MoveCounts {
    divide_resolved(position, depth, position.engine)
}

/// [`divide`] on a backend already resolved.
pub(crate) fn divide_resolved(position: &Position, depth: u32, backend: Resolved) -> MoveCounts {
    let mut counts = MoveCounts::new();
    if depth == 0 {
        return counts;
    }
    for mv in position.legal_moves().iter().copied() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        counts.push(mv, perft_resolved(&child, depth - 1, backend));
    }
    counts
}

/// [`PerftStats`] of the legal move tree `depth` plies deep, on the fastest backend for
/// this CPU. Two to three times the time of [`perft`]: the last ply cannot be a bare count.
///
/// # Examples
/// ```
/// use constmove::{perft_stats, Position};
/// let pos: Position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".parse().unwrap();
/// let stats = perft_stats(&pos, 3);
/// assert_eq!((stats.nodes, stats.en_passant, stats.discovered_checks), (2_812, 2, 3));
/// ```
pub fn perft_stats(position: &Position, depth: u32) -> PerftStats {
    stats_resolved(position, depth, position.engine)
}

/// [`perft_stats`] on a backend already resolved.
pub(crate) fn stats_resolved(position: &Position, depth: u32, backend: Resolved) -> PerftStats {
    if depth == 0 {
        return PerftStats {
            nodes: 1,
            ..PerftStats::default()
        };
    }
    at_root(
        backend,
        position.status_index(),
        StatsRoot { position, depth },
    )
}

/// [`stats_resolved`] once the engine and status are known.
struct StatsRoot<'a> {
    position: &'a Position,
    depth: u32,
}

impl RootOp for StatsRoot<'_> {
    type Output = PerftStats;
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> PerftStats {
        let position = self.position;
        let mut stats = PerftStats::default();
        stats_entry::<S, B>(
            cpu,
            &position.board,
            position.ep_index(),
            self.depth,
            &mut stats,
        );
        stats
    }
}

/// The body of [`Position::visit_tree`]: a [`Walk`] of the public walk.
pub(crate) fn visit_tree<V: Visitor>(position: &Position, depth: u32, visitor: &mut V) {
    if depth == 0 {
        return;
    }
    position.walk(VisitTree { depth, visitor });
}

/// Hands the moves `depth` plies below the root to `visitor`.
struct VisitTree<'a, V> {
    depth: u32,
    visitor: &'a mut V,
}

impl<V: Visitor> Walk for VisitTree<'_, V> {
    type Output = ();
    #[inline(always)]
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) {
        visit_below::<S, G, V>(root, self.depth, self.visitor);
    }
}

/// The moves of the last ply below `node` (`depth` ≥ 1) to `visitor`.
#[inline(always)]
fn visit_below<S: StatusFlags, G: Generator, V: Visitor>(
    node: Node<'_, S>,
    depth: u32,
    visitor: &mut V,
) {
    if depth <= 1 {
        G::visit(node, visitor);
    } else {
        let mut below = Below::<G, V> {
            child_depth: depth - 1,
            visitor,
            engine: PhantomData,
        };
        G::children(node, &mut below);
    }
}

/// Descends into each child for [`visit_below`].
struct Below<'a, G, V> {
    child_depth: u32,
    visitor: &'a mut V,
    engine: PhantomData<G>,
}

impl<G: Generator, V: Visitor> Children for Below<'_, G, V> {
    #[inline(always)]
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
        visit_below::<C, G, V>(child, self.child_depth, self.visitor);
    }
}
