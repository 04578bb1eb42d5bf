//! Perft, divide, statistics and tree visits of a [`Position`]: the public entry points of
//! the counting layer. Each resolves the backend, reads the position's status index, and
//! enters the engine's code for that status.

use crate::base::board::Board;
use crate::base::chess_move::Move;
use crate::base::status::StatusFlags;
use crate::count::leaf::{Descend, MakeChildren};
use crate::count::perft::perft as perft_board;
use crate::count::stats::{PerftStats, stats_entry};
use crate::generator::entry::{Engine, RootOp, at_root};
use crate::generator::movegen::All;
use crate::generator::visitor::{VisitOp, Visitor};
use crate::position::Position;
use crate::position::moves::MoveCounts;
use crate::slider::{Backend, BackendUnavailable, Resolved};
use core::marker::PhantomData;

/// The number of leaves of the legal move tree `depth` plies deep (`1` at depth 0), on the
/// fastest backend for this CPU.
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_resolved(position, depth, position.engine)
}

/// [`perft`] on a chosen backend; an error when `backend` is `Pext` on a CPU without BMI2.
///
/// # Examples
/// ```
/// use constmove::{perft_with, Backend, Position};
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// assert_eq!(perft_with(&kiwipete, 3, Backend::Magic), Ok(97_862));
/// ```
pub fn perft_with(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> Result<u64, BackendUnavailable> {
    Ok(perft_resolved(position, depth, Resolved::new(backend)?))
}

/// [`perft_with`] on a backend already resolved (no CPU check per call).
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
    unsafe fn run<S: StatusFlags, B: Engine>(self) -> u64 {
        let position = self.position;
        // SAFETY: the caller guarantees the CPU supports B.
        unsafe { perft_board::<S, B>(&position.board, position.ep_index(), self.depth) }
    }
}

/// [`perft`] of each legal root move, in the order [`Position::legal_moves`] lists them.
/// At depth 0 there are no root moves and the list is empty.
///
/// # Examples
/// ```
/// use constmove::{divide, Backend, Position};
/// let counts = divide(&Position::startpos(), 3, Backend::Auto).unwrap();
/// assert_eq!(counts.len(), 20);
/// assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
/// let e2e4 = counts.iter().find(|(mv, _)| mv.to_string() == "e2e4").unwrap();
/// assert_eq!(e2e4.1, 600);
/// ```
pub fn divide(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> Result<MoveCounts, BackendUnavailable> {
    let backend = Resolved::new(backend)?;
    let mut counts = MoveCounts::new();
    if depth == 0 {
        return Ok(counts);
    }
    for mv in position.legal_moves().iter().copied() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        counts.push(mv, perft_resolved(&child, depth - 1, backend));
    }
    Ok(counts)
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

/// [`perft_stats`] on a chosen backend; an error when `backend` is `Pext` on a CPU without
/// BMI2.
///
/// # Examples
/// ```
/// use constmove::{perft_stats_with, Backend, Position};
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let stats = perft_stats_with(&kiwipete, 2, Backend::Magic).unwrap();
/// assert_eq!((stats.nodes, stats.captures, stats.castles, stats.checks), (2_039, 351, 91, 3));
/// ```
pub fn perft_stats_with(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> Result<PerftStats, BackendUnavailable> {
    Ok(stats_resolved(position, depth, Resolved::new(backend)?))
}

/// [`perft_stats_with`] on a backend already resolved.
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
    unsafe fn run<S: StatusFlags, B: Engine>(self) -> PerftStats {
        let position = self.position;
        let mut stats = PerftStats::default();
        // SAFETY: the caller guarantees the CPU supports B.
        unsafe {
            stats_entry::<S, B>(&position.board, position.ep_index(), self.depth, &mut stats)
        };
        stats
    }
}

/// The body of [`Position::visit_tree`].
pub(crate) fn visit_tree<V: Visitor>(position: &Position, depth: u32, visitor: &mut V) {
    if depth == 0 {
        return;
    }
    at_root(
        position.engine,
        position.status_index(),
        WalkRoot {
            position,
            depth,
            visitor,
        },
    );
}

/// [`visit_tree`] once the engine and status are known.
struct WalkRoot<'a, V> {
    position: &'a Position,
    depth: u32,
    visitor: &'a mut V,
}

impl<V: Visitor> RootOp for WalkRoot<'_, V> {
    type Output = ();
    unsafe fn run<S: StatusFlags, B: Engine>(self) {
        let position = self.position;
        // SAFETY: the caller guarantees the CPU supports B.
        unsafe {
            walk::<S, B, V>(
                &position.board,
                position.ep_index(),
                self.depth,
                self.visitor,
            )
        }
    }
}

/// Walks the tree below `board` and hands the last ply's moves to `visitor`; each node is
/// generated inside B's entry with the visitor inlined.
///
/// # Safety
/// The CPU must support B.
unsafe fn walk<S: StatusFlags, B: Engine, V: Visitor>(
    board: &Board,
    ep: u8,
    depth: u32,
    visitor: &mut V,
) {
    if depth <= 1 {
        let op = VisitOp::<S, V> {
            board,
            ep,
            visitor,
            filter: All,
            status: PhantomData,
        };
        // SAFETY: the caller guarantees the CPU supports B.
        unsafe { B::enter(op) }
    } else {
        let mut walker = MakeChildren(Walk::<V, B> {
            child_depth: depth - 1,
            visitor,
            backend: PhantomData,
        });
        let op = VisitOp::<S, _> {
            board,
            ep,
            visitor: &mut walker,
            filter: All,
            status: PhantomData,
        };
        // SAFETY: as above.
        unsafe { B::enter(op) }
    }
}

/// Descends into each child for [`walk`].
struct Walk<'a, V, B> {
    child_depth: u32,
    visitor: &'a mut V,
    backend: PhantomData<B>,
}

impl<V: Visitor, B: Engine> Descend for Walk<'_, V, B> {
    #[inline(always)]
    fn descend<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        _: Move,
        ep: u8,
    ) {
        let mut child = *parent;
        make(&mut child);
        // SAFETY: `walk` runs only where the CPU supports B.
        unsafe { walk::<C, B, V>(&child, ep, self.child_depth, self.visitor) }
    }
}
