//! Perft on several threads. The tree is cut into work units a few plies below the root
//! (the unique positions under each root move, from [`split`]); std scoped threads
//! take them from one atomic index, largest first within each root move and root moves
//! largest first, so the last units handed out are the smallest (one thread takes them in
//! order, unsized, and below depth 8 its units are the root moves). Counts are those of one
//! thread: every unit is counted by the same single-threaded perft.
//!
//! No global state: the caller owns the stop flag and the progress callback, and the
//! threads live only for the duration of one call.

use crate::base::chess_move::Move;
use crate::count::stats::PerftStats;
use crate::deep::hash_table::{HashTable, TableStats, perft_hashed_resolved};
use crate::deep::options::PerftOptions;
use crate::deep::stats_table::StatsTable;
use crate::deep::workload::{WorkUnit, split};
use crate::position::Position;
use crate::position::perft::{perft_resolved, stats_resolved};
use crate::slider::{BackendUnavailable, Resolved};
use core::ops::AddAssign;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a parallel count stands, handed to the progress callback once before the first
/// unit and after each unit.
///
/// # Examples
/// ```
/// use constmove::deep::Progress;
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

/// What a parallel count adds up per unit: a node count (`u64`) or [`PerftStats`].
///
/// # Examples
/// ```
/// use constmove::PerftStats;
/// use constmove::deep::Tally;
/// let stats = PerftStats { nodes: 3, checks: 1, ..PerftStats::default() };
/// assert_eq!(stats.times(2).checks, 2);
/// assert_eq!(7u64.times(3).nodes(), 21);
/// ```
pub trait Tally: Copy + Default + AddAssign + Send + Sync + core::fmt::Debug {
    /// `self` counted `count` times (saturating), as a unit reached by `count` paths.
    fn times(self, count: u64) -> Self;
    /// The leaves.
    fn nodes(&self) -> u64;
}

impl Tally for u64 {
    fn times(self, count: u64) -> u64 {
        self.saturating_mul(count)
    }
    fn nodes(&self) -> u64 {
        *self
    }
}

impl Tally for PerftStats {
    fn times(self, count: u64) -> PerftStats {
        PerftStats::from_values(self.fields().map(|(_, value)| value.saturating_mul(count)))
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// How one unit is counted: in one go at or below [`UnitCount::direct`] plies, else child
/// by child (so that a stop request is seen), through the table's entries if there is one.
trait UnitCount: Sync {
    type Value: Tally;
    /// The depth at and below which [`UnitCount::count`] takes a subtree in one go.
    fn direct(&self) -> u32;
    /// Counts a subtree in one go.
    fn count(&self, position: &Position, depth: u32) -> Self::Value;
    /// The table's value for `key` at `depth`, if there is a table and it has one.
    fn probe(&self, key: u128, depth: u32) -> Option<Self::Value>;
    /// Keeps a value in the table, if there is one.
    fn store(&self, key: u128, depth: u32, value: &Self::Value);
    /// The key of `position` in the table, if there is one (else keys are not computed).
    fn key(&self, position: &Position) -> Option<u128>;
    /// The shallowest unit whose count is the sum of its part of the whole: statistics
    /// describe the last ply's moves, so their units keep at least that ply.
    fn min_unit_depth(&self) -> u32;
}

/// Subtrees up to this depth are counted without looking at the stop flag: perft 5 of the
/// busiest wiki position is 0.2 s on one core, statistics a few times that.
const POLL_DEPTH: u32 = 5;

/// Node counts, through a [`HashTable`] if given.
struct Nodes<'a> {
    backend: Resolved,
    table: Option<&'a HashTable>,
}

impl UnitCount for Nodes<'_> {
    type Value = u64;
    fn direct(&self) -> u32 {
        // Through the table a depth-6 subtree is counted in a few milliseconds, and the
        // table's own recursion (incremental keys, prefetching) is the faster one.
        if self.table.is_some() {
            POLL_DEPTH + 1
        } else {
            POLL_DEPTH
        }
    }
    fn count(&self, position: &Position, depth: u32) -> u64 {
        match self.table {
            Some(table) => perft_hashed_resolved(position, depth, self.backend, table),
            None => perft_resolved(position, depth, self.backend),
        }
    }
    fn probe(&self, key: u128, depth: u32) -> Option<u64> {
        let table = self.table?;
        let found = table.probe(key, depth);
        table.add_stats(&TableStats {
            probes: 1,
            hits: u64::from(found.is_some()),
            ..TableStats::default()
        });
        found
    }
    fn store(&self, key: u128, depth: u32, value: &u64) {
        if let Some(table) = self.table {
            table.store(key, depth, *value);
        }
    }
    fn key(&self, position: &Position) -> Option<u128> {
        Some(self.table?.key_of(position))
    }
    fn min_unit_depth(&self) -> u32 {
        0
    }
}

/// Full statistics, through a [`StatsTable`] if given.
struct Stats<'a> {
    backend: Resolved,
    table: Option<&'a StatsTable>,
}

impl UnitCount for Stats<'_> {
    type Value = PerftStats;
    fn direct(&self) -> u32 {
        // With a table every subtree from depth 3 up is probed; depth 2 is cheaper to count.
        if self.table.is_some() { 2 } else { POLL_DEPTH }
    }
    fn count(&self, position: &Position, depth: u32) -> PerftStats {
        stats_resolved(position, depth, self.backend)
    }
    fn probe(&self, key: u128, depth: u32) -> Option<PerftStats> {
        self.table?.probe(key, depth)
    }
    fn store(&self, key: u128, depth: u32, value: &PerftStats) {
        if let Some(table) = self.table {
            table.store(key, depth, value);
        }
    }
    fn key(&self, position: &Position) -> Option<u128> {
        Some(self.table?.key_of(position))
    }
    fn min_unit_depth(&self) -> u32 {
        1
    }
}

/// Counts one unit; `None` if `stopped()` turned true before it was complete.
fn count_stoppable<C: UnitCount>(
    counter: &C,
    position: &Position,
    depth: u32,
    stopped: &impl Fn() -> bool,
) -> Option<C::Value> {
    if depth <= counter.direct() {
        return Some(counter.count(position, depth));
    }
    let key = counter.key(position);
    if let Some(found) = key.and_then(|key| counter.probe(key, depth)) {
        return Some(found);
    }
    let mut total = C::Value::default();
    for mv in position.legal_moves().iter().copied() {
        if depth > POLL_DEPTH && stopped() {
            return None;
        }
        let mut child = position.clone();
        child.play_unchecked(mv);
        total += count_stoppable(counter, &child, depth - 1, stopped)?;
    }
    if let Some(key) = key {
        counter.store(key, depth, &total);
    }
    Some(total)
}

/// Counts every unit's perft (unweighted: `perft(position, depth)`, not times its count) on
/// `options.thread_count()` threads; `None` for units not counted because the stop flag was set.
/// `on_unit` runs on the worker thread that finished a unit. Units are taken in the order
/// given.
///
/// # Examples
/// ```
/// use constmove::{PerftOptions, Position};
/// use constmove::deep::{count_units, split};
/// let units = split(&Position::startpos(), 5, 2);
/// let counts = count_units(&units, &PerftOptions::new().threads(2), &|_| {}).unwrap();
/// let total: u64 = units.iter().zip(&counts).map(|(u, n)| u.count * n.unwrap()).sum();
/// assert_eq!(total, 4_865_609);
/// ```
pub fn count_units(
    units: &[WorkUnit],
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Option<u64>>, BackendUnavailable> {
    count_units_with(units, options, on_unit, &|_| {})
}

/// One unit finished by [`count_units_with`]: which, its perft and how long it took.
///
/// # Examples
/// See [`count_units_with`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct UnitCounted {
    /// The unit's index in the slice counted.
    pub index: usize,
    /// Its perft, unweighted (see [`WorkUnit::weighted`]).
    pub nodes: u64,
    /// Seconds its thread spent on it.
    pub seconds: f64,
}

/// [`count_units`], also handing each finished unit to `on_counted`, on the worker thread
/// that counted it, as soon as it is complete: a caller can keep per-unit results (to
/// resume a run, or to check a unit against a recount) however the run ends. A unit
/// abandoned because of the stop flag is never handed over.
///
/// # Examples
/// ```
/// use constmove::{PerftOptions, Position};
/// use constmove::deep::{count_units_with, split};
/// use std::sync::Mutex;
/// let units = split(&Position::startpos(), 4, 2);
/// let finished = Mutex::new(Vec::new());
/// let on_counted = |unit: constmove::deep::UnitCounted| finished.lock().unwrap().push(unit);
/// count_units_with(&units, &PerftOptions::new().threads(2), &|_| {}, &on_counted).unwrap();
/// let finished = finished.into_inner().unwrap();
/// assert_eq!(finished.len(), units.len());
/// let total: u128 = finished.iter().map(|f| units[f.index].weighted(f.nodes)).sum();
/// assert_eq!(total, 197_281);
/// ```
pub fn count_units_with(
    units: &[WorkUnit],
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
    on_counted: &(dyn Fn(UnitCounted) + Sync),
) -> Result<Vec<Option<u64>>, BackendUnavailable> {
    let order: Vec<usize> = (0..units.len()).collect();
    let counter = Nodes {
        backend: Resolved::new(options.backend)?,
        table: options.table,
    };
    let on_counted = |index, nodes: &u64, seconds| {
        on_counted(UnitCounted {
            index,
            nodes: *nodes,
            seconds,
        });
    };
    Ok(run(&counter, units, &order, options, on_unit, &on_counted))
}

/// Per-root-move counts from [`divide_parallel`] (`T = u64`) or statistics from
/// [`divide_parallel_stats`] (`T = PerftStats`); a root move is `None` when its count is
/// incomplete because the run was stopped.
///
/// # Examples
/// ```
/// use constmove::{PerftOptions, Position};
/// use constmove::deep::divide_parallel;
/// let divide = divide_parallel(&Position::startpos(), 3, &PerftOptions::new().threads(2), &|_| {})
///     .unwrap();
/// assert_eq!(divide.moves().len(), 20);
/// assert_eq!(divide.nodes(), Some(8_902));
/// ```
#[derive(Clone, Debug)]
pub struct ParallelDivide<T = u64> {
    moves: Vec<(Move, Option<T>)>,
    /// The whole tree's count where the root moves' counts do not add up to it (at depth 0,
    /// and statistics at depth 1, whose leaf moves are the root moves).
    root: Option<T>,
}

impl<T: Tally> ParallelDivide<T> {
    /// Each root move (in [`Position::legal_moves`] order) with its count, if complete.
    ///
    /// # Examples
    /// See [`ParallelDivide`].
    pub fn moves(&self) -> &[(Move, Option<T>)] {
        &self.moves
    }

    /// The sum over root moves, or the count of the root where that is kept; `None` if any
    /// root move is incomplete.
    fn total(&self) -> Option<T> {
        if let Some(root) = self.root {
            return Some(root);
        }
        let mut total = T::default();
        for (_, count) in &self.moves {
            total += (*count)?;
        }
        Some(total)
    }
}

impl ParallelDivide<u64> {
    /// The perft of the root: `1` at depth 0, else the sum over root moves; `None` if any
    /// root move is incomplete.
    ///
    /// # Examples
    /// ```
    /// use constmove::{PerftOptions, Position};
    /// use constmove::deep::divide_parallel;
    /// let options = PerftOptions::new();
    /// let divide = divide_parallel(&Position::startpos(), 0, &options, &|_| {}).unwrap();
    /// assert_eq!((divide.moves().len(), divide.nodes()), (0, Some(1)));
    /// ```
    pub fn nodes(&self) -> Option<u64> {
        self.total()
    }
}

impl ParallelDivide<PerftStats> {
    /// The statistics of the whole tree (at depth 0 the root is the one leaf); `None` if any
    /// root move is incomplete. At depth 1 the root moves are the leaves: each root move's
    /// entry in [`ParallelDivide::moves`] then holds only its one node, and this the whole.
    ///
    /// # Examples
    /// ```
    /// use constmove::{perft_stats, PerftOptions, Position};
    /// use constmove::deep::divide_parallel_stats;
    /// let start = Position::startpos();
    /// let options = PerftOptions::new().threads(2);
    /// let divide = divide_parallel_stats(&start, 4, &options, &|_| {}).unwrap();
    /// assert_eq!(divide.stats(), Some(perft_stats(&start, 4)));
    /// let (_, stats) = divide.moves().iter().find(|(mv, _)| mv.to_string() == "e2e4").unwrap();
    /// assert_eq!(stats.unwrap().nodes, 13_160);
    /// ```
    pub fn stats(&self) -> Option<PerftStats> {
        self.total()
    }
}

/// The plies below the root where [`divide_parallel`] cuts the tree on `threads` threads:
/// enough units to keep the threads evenly busy (a stop request no longer depends on the
/// units' size). One thread needs no balance below depth 8: the root moves are its units,
/// which spares the split's copies and keys (0.6% of Kiwipete's depth 5).
fn split_ply(depth: u32, threads: usize) -> u32 {
    if depth >= 8 {
        3
    } else if threads == 1 {
        depth.min(1)
    } else {
        depth.min(2)
    }
}

/// [`crate::divide`] on `options.thread_count()` threads: the perft of each root move, counted
/// from work units a few plies deep (see the module docs). `on_unit` reports progress.
///
/// # Examples
/// ```
/// use constmove::{PerftOptions, Position};
/// use constmove::deep::divide_parallel;
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let divide = divide_parallel(&kiwipete, 3, &PerftOptions::new().threads(2), &|_| {}).unwrap();
/// assert_eq!(divide.nodes(), Some(97_862));
/// ```
pub fn divide_parallel(
    position: &Position,
    depth: u32,
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<ParallelDivide, BackendUnavailable> {
    let counter = Nodes {
        backend: Resolved::new(options.backend)?,
        table: options.table,
    };
    Ok(divide_with(
        &counter,
        counter.backend,
        position,
        depth,
        options,
        on_unit,
    ))
}

/// [`crate::perft_stats`] of each root move on `options.thread_count()` threads, as
/// [`divide_parallel`] counts nodes: the statistics are sums over work units, so they are
/// those of one thread. Uses [`PerftOptions::stats_table`] if set.
///
/// # Examples
/// ```
/// use constmove::{perft_stats, PerftOptions, Position};
/// use constmove::deep::divide_parallel_stats;
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// let divide = divide_parallel_stats(&kiwipete, 3, &PerftOptions::new().threads(2), &|_| {}).unwrap();
/// let stats = divide.stats().unwrap();
/// assert_eq!((stats.nodes, stats.captures, stats.checks), (97_862, 17_102, 993));
/// ```
pub fn divide_parallel_stats(
    position: &Position,
    depth: u32,
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> Result<ParallelDivide<PerftStats>, BackendUnavailable> {
    let counter = Stats {
        backend: Resolved::new(options.backend)?,
        table: options.stats_table,
    };
    Ok(divide_with(
        &counter,
        counter.backend,
        position,
        depth,
        options,
        on_unit,
    ))
}

/// The body of [`divide_parallel`] and [`divide_parallel_stats`].
fn divide_with<C: UnitCount>(
    counter: &C,
    backend: Resolved,
    position: &Position,
    depth: u32,
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
) -> ParallelDivide<C::Value> {
    let roots: Vec<Move> = if depth == 0 {
        Vec::new()
    } else {
        position.legal_moves().to_vec()
    };
    if depth <= counter.min_unit_depth() {
        // Too shallow to cut: the root is counted whole, each root move's leaf by itself.
        let moves = roots.iter().map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            (mv, Some(counter.count(&child, 0)))
        });
        return ParallelDivide {
            moves: moves.collect(),
            root: Some(counter.count(position, depth)),
        };
    }
    let ply = split_ply(depth, options.thread_count()).min(depth - counter.min_unit_depth());
    // Units of every root move, with the root each belongs to and an estimate of its size.
    let mut units = Vec::new();
    let mut owner = Vec::new();
    let mut estimate = Vec::new();
    let mut root_estimate = vec![0u64; roots.len()];
    // Sizes only balance threads: one thread takes the units as they come (at depth 4 the
    // estimate cost as much as the count).
    let balance = options.thread_count() > 1;
    for (root, &mv) in roots.iter().enumerate() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        for unit in split(&child, depth - 1, ply - 1) {
            // Two plies of the unit predict its size well enough to order by, for little work.
            let size = if balance {
                perft_resolved(&unit.position, unit.depth.min(2), backend)
                    .saturating_mul(unit.count)
            } else {
                0
            };
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
    let counts = run(counter, &units, &order, options, on_unit, &|_, _, _| {});

    let mut totals: Vec<Option<C::Value>> = vec![Some(C::Value::default()); roots.len()];
    for ((unit, count), &root) in units.iter().zip(&counts).zip(&owner) {
        totals[root] = match (totals[root], count) {
            (Some(mut total), &Some(count)) => {
                total += count.times(unit.count);
                Some(total)
            }
            _ => None,
        };
    }
    ParallelDivide {
        moves: roots.into_iter().zip(totals).collect(),
        root: None,
    }
}

/// Counts `units` on the threads, handing them out in `order`; `on_counted` gets each
/// finished unit's index, value and seconds.
fn run<C: UnitCount>(
    counter: &C,
    units: &[WorkUnit],
    order: &[usize],
    options: &PerftOptions,
    on_unit: &(dyn Fn(Progress) + Sync),
    on_counted: &(dyn Fn(usize, &C::Value, f64) + Sync),
) -> Vec<Option<C::Value>> {
    // Before the first unit finishes, which in a deep count can take long.
    on_unit(Progress {
        units_done: 0,
        units_total: order.len(),
        nodes: 0,
    });
    let next = AtomicUsize::new(0);
    // The progress totals, under a lock: taken once per finished unit.
    let done = Mutex::new((0usize, 0u64));
    let stopped = || options.stopped();
    let worker = || {
        let mut counted = Vec::new();
        while !options.stopped() {
            let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let unit = &units[index];
            let started = std::time::Instant::now();
            let Some(count) = count_stoppable(counter, &unit.position, unit.depth, &stopped) else {
                break;
            };
            on_counted(index, &count, started.elapsed().as_secs_f64());
            counted.push((index, count));
            let weighted = count.times(unit.count).nodes();
            let progress = {
                let mut done = done.lock().unwrap_or_else(|poison| poison.into_inner());
                done.0 += 1;
                done.1 = done.1.saturating_add(weighted);
                Progress {
                    units_done: done.0,
                    units_total: order.len(),
                    nodes: done.1,
                }
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
    counts
}
