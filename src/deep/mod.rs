//! Deep perft (`std` only): [`divide_parallel`] spreads work units over threads,
//! [`HashTable`] caches subtree counts in a lock-free table shared by them ([`StatsTable`]
//! the same for full statistics, both in memory mapped from the kernel), and [`split`] cuts
//! a perft into [`WorkUnit`]s for other machines.
//!
//! # Examples
//! ```
//! use constmove::deep::{HashTable, divide_parallel};
//! use constmove::{PerftOptions, Position};
//! let table = HashTable::new(1 << 20).unwrap();
//! let options = PerftOptions::new().threads(2).table(&table);
//! let divide = divide_parallel(&Position::startpos(), 4, &options, &|_| {}).unwrap();
//! assert_eq!(divide.nodes(), Some(197_281));
//! ```

pub(crate) mod counts;
pub(crate) mod hash_table;
pub(crate) mod memory;
pub(crate) mod options;
pub(crate) mod parallel;
pub(crate) mod stats_table;
pub(crate) mod workload;

pub use hash_table::{HashTable, TableAllocError, TableStats};
pub use parallel::{
    ParallelDivide, Progress, Tally, UnitCounted, count_units, count_units_with, divide_parallel,
    divide_parallel_stats,
};
pub use stats_table::StatsTable;
pub use workload::{SplitError, SplitUnits, WorkUnit, WorkUnitError, split, try_split};
