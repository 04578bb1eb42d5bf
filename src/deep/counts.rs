//! The counts [`PerftOptions`] runs: perft, statistics and divide, on one thread or through
//! the work-unit scheduler of `parallel.rs`.

use crate::count::stats::PerftStats;
use crate::deep::hash_table::perft_hashed_resolved;
use crate::deep::options::{PerftError, PerftOptions};
use crate::deep::parallel::{divide_parallel, divide_parallel_stats};
use crate::position::Position;
use crate::position::moves::MoveCounts;
use crate::position::perft::{divide_resolved, perft_resolved, stats_resolved};
use crate::slider::Resolved;

impl PerftOptions<'_> {
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
