//! A lock-free table of subtree [`PerftStats`] shared by threads ([`StatsTable`]): what
//! [`crate::deep::HashTable`] is for node counts, for the full statistics.
//!
//! **Entries.** A slot is two cache lines: a check word, the depth, and the nine counters.
//! The check is the key's high half xor a mix of the other ten words, so a torn slot (two
//! threads writing it at once) or another position's slot matches a probe only with
//! probability 2⁻⁶⁴, as in the node-count table. Slots go in pairs: a store replaces the
//! same position's slot, else the shallower of the pair.

use crate::count::stats::PerftStats;
use crate::deep::hash_table::{TableAllocError, TableKeys, TableStats, positions_up_to};
use crate::deep::memory::{Zeroable, ZeroedMemory};
use crate::position::Position;
use std::sync::atomic::{AtomicU64, Ordering};

/// Words of a slot: check, depth, nine counters, padding to two cache lines.
const WORDS: usize = 16;

/// One entry: `[check, depth, nodes, captures, ..., checkmates, 0...]`.
#[repr(align(64))]
#[derive(Default)]
struct Slot([AtomicU64; WORDS]);

// SAFETY: atomics only; all-zero is an empty slot (depth 0, never probed).
unsafe impl Zeroable for Slot {}

/// Subtree statistics keyed by position and depth, shared by threads without locks, for
/// [`crate::deep::divide_parallel_stats`] (see [`PerftOptions::stats_table`](super::options::PerftOptions::stats_table)).
///
/// # Examples
/// ```
/// use constmove::{perft_stats, PerftOptions, Position};
/// use constmove::deep::{divide_parallel_stats, StatsTable};
/// let table = StatsTable::new(1 << 20).unwrap();
/// let options = PerftOptions::new().threads(2).stats_table(&table);
/// let pos: Position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".parse().unwrap();
/// let divide = divide_parallel_stats(&pos, 6, &options, &|_| {}).unwrap();
/// assert_eq!(divide.stats(), Some(perft_stats(&pos, 6)));
/// assert!(table.stats().hits > 0); // subtrees reached by more than one move order
/// ```
pub struct StatsTable {
    slots: ZeroedMemory<Slot>,
    /// Probes and hits.
    counters: [AtomicU64; 2],
    /// The keys of the table's seed (see [`crate::deep::HashTable::key_seed`]).
    keys: Box<TableKeys>,
}

impl StatsTable {
    /// A zeroed table of `bytes` bytes, rounded down to whole pairs of 128-byte slots; an
    /// error under 256 bytes or when the memory cannot be had.
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::StatsTable;
    /// assert_eq!(StatsTable::new(1000).unwrap().bytes(), 768);
    /// assert!(StatsTable::new(200).is_err());
    /// ```
    pub fn new(bytes: usize) -> Result<StatsTable, TableAllocError> {
        let pairs = bytes / (2 * core::mem::size_of::<Slot>());
        let slots = ZeroedMemory::zeroed(pairs * 2).ok_or(TableAllocError { bytes })?;
        Ok(StatsTable {
            slots,
            counters: Default::default(),
            keys: TableKeys::boxed(0),
        })
    }

    /// Draws the table's keys from stream `seed`, as [`crate::deep::HashTable::key_seed`] does.
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::StatsTable;
    /// assert_eq!(StatsTable::new(1 << 16).unwrap().key_seed(3).seed(), 3);
    /// ```
    pub fn key_seed(mut self, seed: u64) -> StatsTable {
        self.keys = TableKeys::boxed(seed);
        self
    }

    /// The seed of the table's keys (0 unless [`StatsTable::key_seed`] chose another).
    ///
    /// # Examples
    /// See [`StatsTable::key_seed`].
    pub fn seed(&self) -> u64 {
        self.keys.seed()
    }

    /// The key of `position` as this table stores it.
    pub(crate) fn key_of(&self, position: &Position) -> u128 {
        self.keys.position(position)
    }

    /// An upper estimate of the bytes a table can put to use in statistics of `position` to
    /// `depth` (as [`crate::deep::HashTable::useful_bytes`]; subtrees from depth 3 up are stored).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::deep::StatsTable;
    /// assert!(StatsTable::useful_bytes(&Position::startpos(), 5) < 4 << 20);
    /// ```
    pub fn useful_bytes(position: &Position, depth: u32) -> u64 {
        let entries = positions_up_to(position, depth.saturating_sub(3)) * 2.0;
        let bytes = entries * core::mem::size_of::<Slot>() as f64;
        (bytes as u64).max(64 << 10)
    }

    /// The table's size in bytes.
    ///
    /// # Examples
    /// See [`StatsTable::new`].
    pub fn bytes(&self) -> usize {
        self.slots.len() * core::mem::size_of::<Slot>()
    }

    /// Probes and hits so far (`verified` and `mismatches` are always 0: statistics are not
    /// recounted).
    ///
    /// # Examples
    /// See [`StatsTable`].
    pub fn stats(&self) -> TableStats {
        TableStats {
            probes: self.counters[0].load(Ordering::Relaxed),
            hits: self.counters[1].load(Ordering::Relaxed),
            verified: 0,
            mismatches: 0,
        }
    }

    /// The pair of slots `key` may live in.
    fn pair(&self, key: u128) -> &[Slot] {
        let pairs = self.slots.len() / 2;
        let index = ((key as u64 as u128 * pairs as u128) >> 64) as usize;
        &self.slots[2 * index..2 * index + 2]
    }

    /// The stored statistics of the position with `key` at `depth`, if any.
    pub(crate) fn probe(&self, key: u128, depth: u32) -> Option<PerftStats> {
        self.counters[0].fetch_add(1, Ordering::Relaxed);
        let check = (key >> 64) as u64;
        for slot in self.pair(key) {
            let words: [u64; WORDS] = core::array::from_fn(|i| slot.0[i].load(Ordering::Relaxed));
            if words[1] == u64::from(depth) && words[0] == check ^ mix(&words) {
                self.counters[1].fetch_add(1, Ordering::Relaxed);
                return Some(PerftStats::from_values(core::array::from_fn(|i| {
                    words[2 + i]
                })));
            }
        }
        None
    }

    /// Stores `stats`, over the same position's slot if there is one, else over the
    /// shallower of the pair (deep subtrees save the most work).
    pub(crate) fn store(&self, key: u128, depth: u32, stats: &PerftStats) {
        let check = (key >> 64) as u64;
        let mut words = [0u64; WORDS];
        words[1] = u64::from(depth);
        for (word, (_, value)) in words[2..11].iter_mut().zip(stats.fields()) {
            *word = value;
        }
        words[0] = check ^ mix(&words);
        let pair = self.pair(key);
        let mine = |slot: &Slot| {
            let stored: [u64; WORDS] = core::array::from_fn(|i| slot.0[i].load(Ordering::Relaxed));
            stored[0] ^ mix(&stored) == check
        };
        let depth_of = |slot: &Slot| slot.0[1].load(Ordering::Relaxed);
        let victim = if mine(&pair[0]) {
            &pair[0]
        } else if mine(&pair[1]) || depth_of(&pair[1]) < depth_of(&pair[0]) {
            &pair[1]
        } else {
            &pair[0]
        };
        for (atomic, word) in victim.0.iter().zip(words) {
            atomic.store(word, Ordering::Relaxed);
        }
    }
}

/// A 64-bit mix of a slot's words after the check: any change to one of them changes it.
fn mix(words: &[u64; WORDS]) -> u64 {
    words[1..]
        .iter()
        .fold(0x5EED_57A7_5EED_57A7_u64, |hash, &word| {
            (hash ^ word)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(31)
        })
}

impl core::fmt::Debug for StatsTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StatsTable")
            .field("bytes", &self.bytes())
            .field("stats", &self.stats())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_statistics_come_back_only_for_their_key_and_depth() {
        let table = StatsTable::new(1 << 12).unwrap();
        let key = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321;
        let stats = PerftStats {
            nodes: 100,
            checks: 7,
            checkmates: 1,
            ..PerftStats::default()
        };
        table.store(key, 4, &stats);
        assert_eq!(table.probe(key, 4), Some(stats));
        assert_eq!(table.probe(key, 3), None);
        assert_eq!(table.probe(key ^ 1 << 64, 4), None);
        // A torn slot: one counter changed behind the check.
        let slot = table
            .pair(key)
            .iter()
            .find(|s| s.0[2].load(Ordering::Relaxed) == 100);
        slot.unwrap().0[5].store(9, Ordering::Relaxed);
        assert_eq!(table.probe(key, 4), None);
    }
}
