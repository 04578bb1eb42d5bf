//! Perft on several threads. The tree is cut into work units a few plies below the root
//! (the unique positions under each root move, from [`split`]); std scoped threads
//! take them from one atomic index, largest first within each root move and root moves
//! largest first, so the last units handed out are the smallest. Counts are those of one
//! thread: every unit is counted by the same single-threaded perft.
//!
//! No global state: the caller owns the stop flag and the progress callback, and the
//! threads live only for the duration of one call.

use crate::deep::hash_table::{HashTable, perft_hashed_resolved};
use crate::deep::workload::{WorkUnit, split};
use crate::position::Position;
use crate::position::moves::Move;
use crate::position::perft::perft_resolved;
use crate::slider::{Backend, BackendUnavailable, Resolved};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// How a parallel count runs: threads, backend and an optional stop flag.
///
/// # Examples
/// ```
/// use constmove::{count_units, split, Backend, ParallelOptions, Position};
/// let options = ParallelOptions::new(2).backend(Backend::Magic);
/// let units = split(&Position::startpos(), 3, 1);
/// let counts = count_units(&units, &options, &|_| {}).unwrap();
/// assert_eq!(counts.iter().map(|n| n.unwrap()).sum::<u64>(), 8_902);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ParallelOptions<'a> {
    threads: usize,
    backend: Backend,
    stop: Option<&'a AtomicBool>,
    table: Option<&'a HashTable>,
}

impl<'a> ParallelOptions<'a> {
    /// `threads` worker threads (at least one), the automatic backend, no stop flag.
    ///
    /// # Examples
    /// ```
    /// use constmove::ParallelOptions;
    /// assert_eq!(ParallelOptions::new(0).threads(), 1);
    /// ```
    pub fn new(threads: usize) -> ParallelOptions<'a> {
        ParallelOptions {
            threads: threads.max(1),
            backend: Backend::Auto,
            stop: None,
            table: None,
        }
    }

    /// The number of worker threads.
    ///
    /// # Examples
    /// ```
    /// use constmove::ParallelOptions;
    /// assert_eq!(ParallelOptions::new(3).threads(), 3);
    /// ```
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Counts on `backend`.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, ParallelOptions};
    /// let options = ParallelOptions::new(1).backend(Backend::Magic);
    /// # let _ = options;
    /// ```
    pub fn backend(mut self, backend: Backend) -> ParallelOptions<'a> {
        self.backend = backend;
        self
    }

    /// Workers stop taking new units once `stop` is set (e.g. from a Ctrl-C handler); the
    /// units already started are finished.
    ///
    /// # Examples
    /// ```
    /// use constmove::{divide_parallel, ParallelOptions, Position};
    /// use std::sync::atomic::AtomicBool;
    /// let stop = AtomicBool::new(true);
    /// let options = ParallelOptions::new(2).stop(&stop);
    /// let divide = divide_parallel(&Position::startpos(), 4, &options, &|_| {}).unwrap();
    /// assert_eq!(divide.nodes(), None); // stopped before the first unit
    /// ```
    pub fn stop(mut self, stop: &'a AtomicBool) -> ParallelOptions<'a> {
        self.stop = Some(stop);
        self
    }

    /// Counts every unit through `table` ([`crate::perft_hashed`]), shared by the threads.
    ///
    /// # Examples
    /// ```
    /// use constmove::{divide_parallel, HashTable, ParallelOptions, Position};
    /// let table = HashTable::new(1 << 20).unwrap();
    /// let options = ParallelOptions::new(2).table(&table);
    /// let divide = divide_parallel(&Position::startpos(), 5, &options, &|_| {}).unwrap();
    /// assert_eq!(divide.nodes(), Some(4_865_609));
    /// assert!(table.stats().hits > 0);
    /// ```
    pub fn table(mut self, table: &'a HashTable) -> ParallelOptions<'a> {
        self.table = Some(table);
        self
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

/// Where a parallel count stands, handed to the progress callback after each unit.
///
/// # Examples
/// ```
/// use constmove::Progress;
/// let progress = Progress { units_done: 1, units_total: 4, nodes: 100 };
/// assert_eq!(progress.units_total - progress.units_done, 3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    /// Units counted so far.
    pub units_done: usize,
    /// Units in the whole run.
    pub units_total: usize,
    /// Leaves counted so far (each unit's perft times its count; saturating).
    pub nodes: u64,
}

/// Counts every unit's perft (unweighted: `perft(position, depth)`, not times its count) on
/// `options.threads()` threads; `None` for units not counted because the stop flag was set.
/// `on_unit` runs on the worker thread that finished a unit. Units are taken in the order
/// given.
///
/// # Examples
/// ```
/// use constmove::{count_units, split, ParallelOptions, Position};
/// let units = split(&Position::startpos(), 5, 2);
/// let counts = count_units(&units, &ParallelOptions::new(2), &|_| {}).unwrap();
/// let total: u64 = units.iter().zip(&counts).map(|(u, n)| u.count * n.unwrap()).sum();
/// assert_eq!(total, 4_865_609);
/// ```
pub fn count_units(
    units: &[WorkUnit],
    options: &ParallelOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Option<u64>>, BackendUnavailable> {
    let order: Vec<usize> = (0..units.len()).collect();
    run(units, &order, options, on_unit)
}

/// Per-root-move counts from [`divide_parallel`]; a root move is `None` when its count is
/// incomplete because the run was stopped.
///
/// # Examples
/// ```
/// use constmove::{divide_parallel, ParallelOptions, Position};
/// let divide = divide_parallel(&Position::startpos(), 3, &ParallelOptions::new(2), &|_| {})
///     .unwrap();
/// assert_eq!(divide.moves().len(), 20);
/// assert_eq!(divide.nodes(), Some(8_902));
/// ```
#[derive(Clone, Debug)]
pub struct ParallelDivide {
    moves: Vec<(Move, Option<u64>)>,
    depth: u32,
}

impl ParallelDivide {
    /// Each root move (in [`Position::legal_moves`] order) with its perft, if complete.
    ///
    /// # Examples
    /// See [`ParallelDivide`].
    pub fn moves(&self) -> &[(Move, Option<u64>)] {
        &self.moves
    }

    /// The perft of the root: `1` at depth 0, else the sum over root moves; `None` if any
    /// root move is incomplete.
    ///
    /// # Examples
    /// ```
    /// use constmove::{divide_parallel, ParallelOptions, Position};
    /// let options = ParallelOptions::new(1);
    /// let divide = divide_parallel(&Position::startpos(), 0, &options, &|_| {}).unwrap();
    /// assert_eq!((divide.moves().len(), divide.nodes()), (0, Some(1)));
    /// ```
    pub fn nodes(&self) -> Option<u64> {
        if self.depth == 0 {
            return Some(1);
        }
        self.moves.iter().map(|&(_, nodes)| nodes).sum()
    }
}

/// The plies below the root where [`divide_parallel`] cuts the tree: enough units to keep
/// the threads evenly busy, and (at depth 8 and more) small enough that a stop request is
/// honoured within a fraction of a second.
fn split_ply(depth: u32) -> u32 {
    if depth >= 8 { 3 } else { depth.min(2) }
}

/// [`crate::divide`] on `options.threads()` threads: the perft of each root move, counted
/// from work units a few plies deep (see the module docs). `on_unit` reports progress.
///
/// # Examples
/// ```
/// use constmove::{divide_parallel, ParallelOptions, Position};
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let divide = divide_parallel(&kiwipete, 3, &ParallelOptions::new(2), &|_| {}).unwrap();
/// assert_eq!(divide.nodes(), Some(97_862));
/// ```
pub fn divide_parallel(
    position: &Position,
    depth: u32,
    options: &ParallelOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<ParallelDivide, BackendUnavailable> {
    let backend = Resolved::new(options.backend)?;
    let roots: Vec<Move> = if depth == 0 {
        Vec::new()
    } else {
        position.legal_moves().to_vec()
    };
    // Units of every root move, with the root each belongs to and an estimate of its size.
    let mut units = Vec::new();
    let mut owner = Vec::new();
    let mut estimate = Vec::new();
    let mut root_estimate = vec![0u64; roots.len()];
    for (root, &mv) in roots.iter().enumerate() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        for unit in split(&child, depth - 1, split_ply(depth) - 1) {
            // Two plies of the unit predict its size well enough to order by, for little work.
            let size = perft_resolved(&unit.position, unit.depth.min(2), backend)
                .saturating_mul(unit.count);
            root_estimate[root] = root_estimate[root].saturating_add(size);
            estimate.push(size);
            owner.push(root);
            units.push(unit);
        }
    }
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| {
        (
            core::cmp::Reverse(root_estimate[owner[i]]),
            owner[i],
            core::cmp::Reverse(estimate[i]),
        )
    });
    let counts = run(&units, &order, options, on_unit)?;

    let mut totals: Vec<Option<u64>> = vec![Some(0); roots.len()];
    for ((unit, count), &root) in units.iter().zip(&counts).zip(&owner) {
        totals[root] = match (totals[root], count) {
            (Some(total), &Some(count)) => {
                Some(total.saturating_add(unit.count.saturating_mul(count)))
            }
            _ => None,
        };
    }
    Ok(ParallelDivide {
        moves: roots.into_iter().zip(totals).collect(),
        depth,
    })
}

/// Counts `units` on the threads, handing them out in `order`.
fn run(
    units: &[WorkUnit],
    order: &[usize],
    options: &ParallelOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Option<u64>>, BackendUnavailable> {
    let backend = Resolved::new(options.backend)?;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let worker = || {
        let mut counted = Vec::new();
        while !options.stopped() {
            let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let unit = &units[index];
            let count = match options.table {
                Some(table) => perft_hashed_resolved(&unit.position, unit.depth, backend, table),
                None => perft_resolved(&unit.position, unit.depth, backend),
            };
            counted.push((index, count));
            let weighted = count.saturating_mul(unit.count);
            let progress = Progress {
                units_done: done.fetch_add(1, Ordering::Relaxed) + 1,
                units_total: order.len(),
                nodes: nodes
                    .fetch_add(weighted, Ordering::Relaxed)
                    .saturating_add(weighted),
            };
            on_unit(progress);
        }
        counted
    };
    let threads = options.threads.min(order.len()).max(1);
    let mut counts = vec![None; units.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        for handle in workers {
            let counted = match handle.join() {
                Ok(counted) => counted,
                // A worker's panic is a bug; re-raise it on the caller's thread.
                Err(panic) => std::panic::resume_unwind(panic),
            };
            for (index, count) in counted {
                counts[index] = Some(count);
            }
        }
    });
    Ok(counts)
}
