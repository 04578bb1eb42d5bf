//! Deep perft (`std` only): [`parallel`] spreads work units over threads, [`hash_table`]
//! caches subtree counts in a lock-free table shared by them ([`stats_table`] the same for
//! full statistics, both in [`memory`] mapped from the kernel), and [`workload`] cuts a
//! perft into work units for other machines.

pub(crate) mod hash_table;
pub(crate) mod memory;
pub(crate) mod parallel;
pub(crate) mod stats_table;
pub(crate) mod workload;
