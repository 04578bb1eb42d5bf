//! [`PerftOptions`], the one way to say how a count runs (backend, threads, tables, a stop
//! flag), and [`PerftError`], why such a count has no result. The counts themselves are in
//! `counts.rs`.

use crate::deep::hash_table::HashTable;
use crate::deep::stats_table::StatsTable;
use crate::slider::{Backend, BackendUnavailable};
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
    pub(crate) fn scheduled(&self) -> bool {
        self.threads > 1 || self.stop.is_some()
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
