//! [`PerftOptions`], the one way to say how a count runs (backend, threads, tables, a stop
//! flag), and the counts it runs: perft, statistics and divide, on one thread or several.

use crate::count::stats::PerftStats;
use crate::deep::hash_table::{HashTable, perft_hashed_resolved};
use crate::deep::parallel::{divide_parallel, divide_parallel_stats};
use crate::deep::stats_table::StatsTable;
use crate::position::Position;
use crate::position::moves::MoveCounts;
use crate::position::perft::{divide_resolved, perft_resolved, stats_resolved};
use crate::slider::{Backend, BackendUnavailable, Resolved};
use core::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a count runs: backend, threads, transposition tables and a stop flag. Built with
/// [`PerftOptions::new`] and its builder methods; it counts with [`PerftOptions::perft`],
/// [`PerftOptions::perft_stats`] and [`PerftOptions::divide`], and is what the parallel
/// counts of [`crate::deep`] take. [`crate::perft`] is the simple call.
///
/// # Examples
/// ```
/// use constmove::deep::HashTable;
/// use constmove::{Backend, PerftOptions, Position};
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// assert_eq!(PerftOptions::new().backend(Backend::Magic).perft(&kiwipete, 3), Ok(97_862));
/// let table = HashTable::new(4 << 20).unwrap();
/// let options = PerftOptions::new().threads(2).table(&table);
/// assert_eq!(options.perft(&kiwipete, 4), Ok(4_085_603));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PerftOptions<'a> {
    pub(crate) threads: usize,
    pub(crate) backend: Backend,
    stop: Option<&'a AtomicBool>,
    pub(crate) table: Option<&'a HashTable>,
    pub(crate) stats_table: Option<&'a StatsTable>,
}

impl Default for PerftOptions<'_> {
    fn default() -> Self {
        PerftOptions::new()
    }
}

impl<'a> PerftOptions<'a> {
    /// One thread, the automatic backend, no table, no stop flag.
    ///
    /// # Examples
    /// ```
    /// use constmove::PerftOptions;
    /// assert_eq!(PerftOptions::new().thread_count(), 1);
    /// ```
    pub fn new() -> PerftOptions<'a> {
        PerftOptions {
            threads: 1,
            backend: Backend::Auto,
            stop: None,
            table: None,
            stats_table: None,
        }
    }

    /// Counts on `threads` worker threads (at least one).
    ///
    /// # Examples
    /// ```
    /// use constmove::PerftOptions;
    /// assert_eq!(PerftOptions::new().threads(0).thread_count(), 1);
    /// assert_eq!(PerftOptions::new().threads(3).thread_count(), 3);
    /// ```
    pub fn threads(mut self, threads: usize) -> PerftOptions<'a> {
        self.threads = threads.max(1);
        self
    }

    /// The number of worker threads.
    ///
    /// # Examples
    /// See [`PerftOptions::threads`].
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// Counts on `backend` (`Backend::Auto`, the default, is the fastest for this CPU);
    /// counting on `Backend::Pext` is an error on a CPU without BMI2.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, PerftOptions, Position};
    /// let options = PerftOptions::new().backend(Backend::Magic);
    /// assert_eq!(options.perft(&Position::startpos(), 3), Ok(8_902));
    /// ```
    pub fn backend(mut self, backend: Backend) -> PerftOptions<'a> {
        self.backend = backend;
        self
    }

    /// The count stops soon after `stop` is set (e.g. from a Ctrl-C handler): workers take
    /// no new unit, and a unit deeper than five plies is abandoned between two of its
    /// subtrees, so even one huge unit stops within a fraction of a second. Abandoned units
    /// are reported as not counted ([`PerftError::Stopped`] from the counts here).
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::divide_parallel;
    /// use constmove::{PerftError, PerftOptions, Position};
    /// use std::sync::atomic::AtomicBool;
    /// let stop = AtomicBool::new(true);
    /// let options = PerftOptions::new().threads(2).stop(&stop);
    /// let divide = divide_parallel(&Position::startpos(), 4, &options, &|_| {}).unwrap();
    /// assert_eq!(divide.nodes(), None); // stopped before the first unit
    /// assert_eq!(options.perft(&Position::startpos(), 4), Err(PerftError::Stopped));
    /// ```
    pub fn stop(mut self, stop: &'a AtomicBool) -> PerftOptions<'a> {
        self.stop = Some(stop);
        self
    }

    /// Counts nodes through `table`, which may be shared by threads and kept between calls
    /// (entries are keyed by position and depth).
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::{HashTable, divide_parallel};
    /// use constmove::{PerftOptions, Position};
    /// let table = HashTable::new(1 << 20).unwrap();
    /// let options = PerftOptions::new().threads(2).table(&table);
    /// let divide = divide_parallel(&Position::startpos(), 5, &options, &|_| {}).unwrap();
    /// assert_eq!(divide.nodes(), Some(4_865_609));
    /// assert!(table.stats().hits > 0);
    /// ```
    pub fn table(mut self, table: &'a HashTable) -> PerftOptions<'a> {
        self.table = Some(table);
        self
    }

    /// Counts statistics ([`PerftOptions::perft_stats`], [`crate::deep::divide_parallel_stats`])
    /// through `table`, shared by the threads (node counts use [`PerftOptions::table`]).
    ///
    /// # Examples
    /// See [`StatsTable`].
    pub fn stats_table(mut self, table: &'a StatsTable) -> PerftOptions<'a> {
        self.stats_table = Some(table);
        self
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Whether the count runs in the work-unit scheduler (threads or a stop flag) rather
    /// than as one single-threaded call.
    fn scheduled(&self) -> bool {
        self.threads > 1 || self.stop.is_some()
    }

    /// The number of leaves of the legal move tree `depth` plies below `position`, counted
    /// as these options say. An error when the backend cannot run on this CPU or the stop
    /// flag was set before the count was complete.
    ///
    /// # Examples
    /// ```
    /// use constmove::{PerftOptions, Position};
    /// let options = PerftOptions::new().threads(2);
    /// assert_eq!(options.perft(&Position::startpos(), 5), Ok(4_865_609));
    /// ```
    pub fn perft(&self, position: &Position, depth: u32) -> Result<u64, PerftError> {
        if self.scheduled() {
            let divide = divide_parallel(position, depth, self, &|_| {})?;
            return divide.nodes().ok_or(PerftError::Stopped);
        }
        let backend = Resolved::new(self.backend)?;
        Ok(match self.table {
            Some(table) => perft_hashed_resolved(position, depth, backend, table),
            None => perft_resolved(position, depth, backend),
        })
    }

    /// The [`PerftStats`] of the tree `depth` plies below `position`, counted as these
    /// options say (through [`PerftOptions::stats_table`] if set).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, PerftOptions, Position};
    /// let kiwipete: Position =
    ///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let stats = PerftOptions::new().backend(Backend::Magic).perft_stats(&kiwipete, 2).unwrap();
    /// assert_eq!((stats.nodes, stats.captures, stats.castles, stats.checks), (2_039, 351, 91, 3));
    /// ```
    pub fn perft_stats(&self, position: &Position, depth: u32) -> Result<PerftStats, PerftError> {
        if self.scheduled() || self.stats_table.is_some() {
            let divide = divide_parallel_stats(position, depth, self, &|_| {})?;
            return divide.stats().ok_or(PerftError::Stopped);
        }
        Ok(stats_resolved(
            position,
            depth,
            Resolved::new(self.backend)?,
        ))
    }

    /// The perft of each legal root move, in the order [`Position::legal_moves`] lists
    /// them, counted as these options say (empty at depth 0).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, PerftOptions, Position};
    /// let counts = PerftOptions::new().backend(Backend::Magic).divide(&Position::startpos(), 2);
    /// assert_eq!(counts.unwrap().total(), 400);
    /// ```
    pub fn divide(&self, position: &Position, depth: u32) -> Result<MoveCounts, PerftError> {
        if self.scheduled() || self.table.is_some() {
            let divide = divide_parallel(position, depth, self, &|_| {})?;
            let mut counts = MoveCounts::new();
            for &(mv, count) in divide.moves() {
                counts.push(mv, count.ok_or(PerftError::Stopped)?);
            }
            return Ok(counts);
        }
        Ok(divide_resolved(
            position,
            depth,
            Resolved::new(self.backend)?,
        ))
    }
}

/// Why a count of [`PerftOptions`] has no result.
///
/// # Examples
/// ```
/// use constmove::{Backend, BackendUnavailable, PerftError};
/// let err = PerftError::from(BackendUnavailable { backend: Backend::Pext });
/// assert!(err.to_string().contains("pext"));
/// assert_eq!(PerftError::Stopped.to_string(), "the count was stopped before it was complete");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PerftError {
    /// The backend asked for cannot run on this CPU.
    Unavailable(BackendUnavailable),
    /// The stop flag was set before the count was complete.
    Stopped,
}

impl From<BackendUnavailable> for PerftError {
    fn from(error: BackendUnavailable) -> PerftError {
        PerftError::Unavailable(error)
    }
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::Unavailable(error) => error.fmt(f),
            PerftError::Stopped => f.write_str("the count was stopped before it was complete"),
        }
    }
}

impl core::error::Error for PerftError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            PerftError::Unavailable(error) => Some(error),
            PerftError::Stopped => None,
        }
    }
}
