//! Hashed perft: a lock-free table of subtree counts shared by threads ([`HashTable`]), the
//! 128-bit Zobrist keys it is indexed and checked by, and the recursion that probes it
//! (`perft_hashed_resolved`, counted through [`PerftOptions::table`](super::options::PerftOptions::table)).
//!
//! **Keys.** Each position has two independent 64-bit Zobrist keys, drawn from two
//! streams of random numbers: the first picks the bucket, the second is stored in the entry
//! and must match on a probe. Children's keys are updated per move, not recomputed. A
//! table's seed ([`HashTable::key_seed`]) picks other streams, so a count can be confirmed
//! under keys that share nothing with the first run's.
//!
//! **Collision risk.** A wrong count needs a probe to find an entry of a different position
//! with the same depth and the same second key. With 4 entries per bucket that is at most
//! 4 × 2⁻⁶⁴ ≈ 2.2 × 10⁻¹⁹ per probe: 2.2 × 10⁻⁴ expected wrong counts per 10¹⁵ probes, over
//! a thousand times below the one-per-10¹⁵ bound (perft 9 of the start position makes
//! 3 × 10⁸ probes, measured). A torn entry (two threads writing one at once) is caught the
//! same way: the entry stores `key ^ data` beside `data`, and a mix of two writes checks
//! against no key but with probability 2⁻⁶⁴.
//!
//! Kept as one file over 600 lines (118 of them tests): the entry layout, the 128-bit keys
//! and the probing recursion are one concept, the keys updated per move in the recursion
//! being the ones the entries store.

use crate::base::board::Board;
use crate::base::geometry::en_passant_victim;
use crate::base::types::{Color, Piece, Square};
use crate::count::perft::{ChildAction, ChildKind, ChildMove, interior_at, perft_at};
use crate::deep::memory::{Zeroable, ZeroedMemory};
use crate::generator::entry::{Engine, EngineOp, with_engine};
use crate::position::Position;
use crate::position::perft::perft_resolved;
use crate::slider::{Cpu, Resolved};
use std::sync::atomic::{AtomicU64, Ordering};

/// Subtrees shallower than this are counted, not probed: a depth-1 count (a few popcounts)
/// is cheaper than the cache miss of a probe. Probing from depth 3 instead made start-position
/// perft 8 take 5x longer (see README).
const MIN_PROBE_DEPTH: u32 = 2;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const WAYS: usize = 4;

/// Counts are stored above an 8-bit depth; larger ones (beyond perft 12 of the start
/// position) are not stored.
const MAX_STORED: u64 = (1 << 56) - 1;

// ---------------------------------------------------------------------------------------
// Zobrist keys

/// splitmix64: a good 64-bit mixer, usable in `const` context.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `n`-th key of stream `seed`: two 64-bit numbers from two unrelated seeds (low half:
/// bucket index, high half: check). Seed 0 gives the keys tables have always used.
const fn random_key(seed: u64, n: u64) -> u128 {
    // Another seed moves every input of the mixer, so its keys share nothing with seed 0's;
    // one-to-one and 0 only for seed 0 (splitmix alone maps one nonzero seed to 0).
    let shift = splitmix(seed) ^ splitmix(0);
    let low = splitmix(n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED_0000_0000_0001 ^ shift);
    let high = splitmix(
        n.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x5EED_0000_0000_0002 ^ shift.rotate_left(32),
    );
    (high as u128) << 64 | low as u128
}

/// One stream of 128-bit Zobrist keys: a table's (chosen by its seed), or the default one.
#[derive(Clone)]
pub(crate) struct TableKeys {
    /// One key per colour, piece and square.
    piece: [[[u128; 64]; 6]; 2],
    /// One key per status index (side to move, en-passant flag, castling rights).
    status: [u128; 64],
    /// One key per en-passant square, added when the status has the en-passant flag.
    ep: [u128; 64],
    /// One key per castling right and rook file, added for a right held whose rook does not
    /// start in its corner (Chess960): the same pieces and rights with another castling
    /// rook are another position.
    rook_file: [[u128; 8]; 4],
    /// The stream these keys were drawn from.
    seed: u64,
}

/// The keys of seed 0, for tables without a seed and for indexing work units.
static DEFAULT_KEYS: TableKeys = TableKeys::seeded(0);

impl TableKeys {
    /// The keys of stream `seed`.
    const fn seeded(seed: u64) -> TableKeys {
        let mut keys = TableKeys {
            piece: [[[0; 64]; 6]; 2],
            status: [0; 64],
            ep: [0; 64],
            rook_file: [[0; 8]; 4],
            seed,
        };
        let mut n = 0;
        while n < 768 {
            keys.piece[n / 384][n / 64 % 6][n % 64] = random_key(seed, n as u64);
            n += 1;
        }
        let mut n = 0;
        while n < 64 {
            keys.status[n] = random_key(seed, 1000 + n as u64);
            keys.ep[n] = random_key(seed, 2000 + n as u64);
            keys.rook_file[n / 16][n / 2 % 8] = random_key(seed, 3000 + n as u64 / 2);
            n += 1;
        }
        keys
    }

    /// The keys of stream `seed`, on the heap (14 KB): seed 0's are copied, not drawn again.
    pub(crate) fn boxed(seed: u64) -> Box<TableKeys> {
        Box::new(if seed == 0 {
            DEFAULT_KEYS.clone()
        } else {
            TableKeys::seeded(seed)
        })
    }

    /// The stream these keys were drawn from.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    #[inline(always)]
    fn piece(&self, color: Color, piece: Piece, square: Square) -> u128 {
        self.piece[color as usize][piece as usize][square.index() & 63]
    }

    /// The status part of a key: the status with index `status`; if it has one (bit 1), the
    /// en-passant square; and for each right held whose rook does not start in its corner,
    /// that rook's file (standard chess adds nothing there). Only held rights are read, so a
    /// board whose lost rights' squares are stale gets the key of its canonical form.
    #[inline(always)]
    fn status(&self, board: &Board, status: u8, ep: u8) -> u128 {
        let ep_key = if status & 2 != 0 {
            self.ep[ep as usize & 63]
        } else {
            0
        };
        let key = self.status[status as usize & 63] ^ ep_key;
        let castling = board.castling();
        if !castling.is_nonstandard() {
            return key;
        }
        core::hint::cold_path();
        let mut rook_keys = 0;
        for (index, (color, kingside)) in [
            (Color::White, true),
            (Color::White, false),
            (Color::Black, true),
            (Color::Black, false),
        ]
        .into_iter()
        .enumerate()
        {
            let file = castling.rook_square(color, kingside).file() as usize;
            let corner = if kingside { 7 } else { 0 };
            if status & 4 << index != 0 && file != corner {
                rook_keys ^= self.rook_file[index][file & 7];
            }
        }
        key ^ rook_keys
    }

    /// The key of a board with status index `status` and en-passant square `ep`, from
    /// scratch.
    fn full(&self, board: &Board, status: u8, ep: u8) -> u128 {
        let mut key = self.status(board, status, ep);
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.pieces(color, piece) {
                    key ^= self.piece(color, piece, square);
                }
            }
        }
        key
    }

    /// The position's key in this stream.
    pub(crate) fn position(&self, position: &Position) -> u128 {
        self.full(
            position.board(),
            position.status_index(),
            position.ep_index(),
        )
    }
}

/// The position's 128-bit key in the default stream (seed 0).
pub(crate) fn position_key(position: &Position) -> u128 {
    DEFAULT_KEYS.position(position)
}

// ---------------------------------------------------------------------------------------
// The table

/// One entry: `check = key ^ data` and `data = count << 8 | depth`; an empty entry is all
/// zeros (depth 0, never probed).
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// A cache line of entries.
#[repr(align(64))]
#[derive(Default)]
struct Bucket([Entry; WAYS]);

// SAFETY: a bucket is atomics only, and all-zero atomics are valid (and empty entries).
unsafe impl Zeroable for Bucket {}

/// A table of perft subtree counts keyed by position and depth, shared by threads without
/// locks (see the module docs for the entry format and collision risk), with counters of
/// its use.
///
/// # Examples
/// ```
/// use constmove::deep::HashTable;
/// use constmove::{PerftOptions, Position};
/// let table = HashTable::new(1 << 20).unwrap();
/// assert_eq!(table.bytes(), 1 << 20);
/// let nodes = PerftOptions::new().table(&table).perft(&Position::startpos(), 5).unwrap();
/// assert_eq!(nodes, 4_865_609);
/// assert!(table.stats().hits > 0);
/// ```
pub struct HashTable {
    buckets: ZeroedMemory<Bucket>,
    stats: [AtomicU64; 4],
    verify_every: u64,
    keys: Box<TableKeys>,
}

/// The table could not be allocated (or the size is under one 64-byte bucket). The message
/// says which.
///
/// # Examples
/// ```
/// use constmove::deep::HashTable;
/// let err = HashTable::new(10).unwrap_err();
/// assert_eq!(err.to_string(), "a hash table of 10 bytes is too small: one bucket takes 64 bytes");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableAllocError {
    /// The size asked for, in bytes.
    pub bytes: usize,
}

impl core::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let bytes = self.bytes;
        if bytes < core::mem::size_of::<Bucket>() {
            write!(
                f,
                "a hash table of {bytes} bytes is too small: one bucket takes {} bytes",
                core::mem::size_of::<Bucket>()
            )
        } else {
            write!(
                f,
                "cannot allocate a hash table of {bytes} bytes: the system refused the memory"
            )
        }
    }
}

impl core::error::Error for TableAllocError {}

/// How a table has been used: probes, hits, and the hits recounted by verification.
///
/// # Examples
/// ```
/// use constmove::deep::TableStats;
/// let stats = TableStats { probes: 10, hits: 4, verified: 1, mismatches: 0 };
/// assert_eq!(stats.hits * 100 / stats.probes, 40);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TableStats {
    /// Lookups made.
    pub probes: u64,
    /// Lookups that found the count.
    pub hits: u64,
    /// Hits recounted without the table (see [`HashTable::verify_every`]).
    pub verified: u64,
    /// Recounted hits whose stored count was wrong: any is a bug or a key collision.
    pub mismatches: u64,
}

impl HashTable {
    /// A zeroed table of `bytes` bytes (rounded down to whole 64-byte buckets). On Linux the
    /// memory is mapped from the kernel, which zeroes each page when a probe first touches
    /// it, so no start-up pass writes the whole table.
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::HashTable;
    /// assert_eq!(HashTable::new(1000).unwrap().bytes(), 960);
    /// ```
    pub fn new(bytes: usize) -> Result<HashTable, TableAllocError> {
        let count = bytes / core::mem::size_of::<Bucket>();
        let buckets = ZeroedMemory::zeroed(count).ok_or(TableAllocError { bytes })?;
        Ok(HashTable {
            buckets,
            stats: Default::default(),
            verify_every: 0,
            keys: TableKeys::boxed(0),
        })
    }

    /// Draws the table's 128-bit keys from stream `seed` instead of the default stream 0.
    /// Counts are the same under every seed; a wrong count from a key collision is not,
    /// so a subtree recounted under another seed (on another machine, by another run)
    /// confirms the first count. Use it on an empty table: entries stored under one seed
    /// are not found under another.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::deep::HashTable;
    /// use constmove::PerftOptions;
    /// let table = HashTable::new(1 << 20).unwrap().key_seed(7);
    /// assert_eq!(table.seed(), 7);
    /// assert_eq!(PerftOptions::new().table(&table).perft(&Position::startpos(), 5), Ok(4_865_609));
    /// ```
    pub fn key_seed(mut self, seed: u64) -> HashTable {
        self.keys = TableKeys::boxed(seed);
        self
    }

    /// The seed of the table's keys (0 unless [`HashTable::key_seed`] chose another).
    ///
    /// # Examples
    /// See [`HashTable::key_seed`].
    pub fn seed(&self) -> u64 {
        self.keys.seed()
    }

    /// The key of `position` as this table stores it.
    pub(crate) fn key_of(&self, position: &Position) -> u128 {
        self.keys.position(position)
    }

    /// An upper estimate of the bytes a table can put to use in a perft of `position` to
    /// `depth`: room for every subtree it would store, four times over. A larger table only
    /// costs the time to map and zero pages that nothing reads, so callers can cap a size
    /// asked for by this (at least 64 KiB).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::deep::HashTable;
    /// let start = Position::startpos();
    /// assert!(HashTable::useful_bytes(&start, 5) < 4 << 20);
    /// assert!(HashTable::useful_bytes(&start, 10) > 1 << 40);
    /// ```
    pub fn useful_bytes(position: &Position, depth: u32) -> u64 {
        // Subtrees from MIN_PROBE_DEPTH up are stored: positions up to depth - 2 plies deep.
        let plies = depth.saturating_sub(MIN_PROBE_DEPTH);
        let entries = positions_up_to(position, plies) * 4.0;
        let bytes = entries * core::mem::size_of::<Entry>() as f64;
        (bytes as u64).max(64 << 10)
    }

    /// The table's size in bytes.
    ///
    /// # Examples
    /// See [`HashTable`].
    pub fn bytes(&self) -> usize {
        self.buckets.len() * core::mem::size_of::<Bucket>()
    }

    /// Recount about one hit in `every` without the table (those whose check key is a
    /// multiple of `every`) and count the mismatches in [`TableStats`]; 0 (the default)
    /// turns it off. A hit is recounted with a full perft of its depth, so this costs time
    /// in proportion to `1 / every`.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::deep::HashTable;
    /// use constmove::PerftOptions;
    /// let table = HashTable::new(1 << 20).unwrap().verify_every(10);
    /// PerftOptions::new().table(&table).perft(&Position::startpos(), 5).unwrap();
    /// let stats = table.stats();
    /// assert!(stats.verified > 0 && stats.mismatches == 0);
    /// ```
    pub fn verify_every(mut self, every: u64) -> HashTable {
        self.verify_every = every;
        self
    }

    /// The use of the table so far.
    ///
    /// # Examples
    /// See [`HashTable`].
    pub fn stats(&self) -> TableStats {
        let [probes, hits, verified, mismatches] =
            self.stats.each_ref().map(|n| n.load(Ordering::Relaxed));
        TableStats {
            probes,
            hits,
            verified,
            mismatches,
        }
    }

    pub(crate) fn add_stats(&self, local: &TableStats) {
        let values = [local.probes, local.hits, local.verified, local.mismatches];
        for (total, value) in self.stats.iter().zip(values) {
            total.fetch_add(value, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u128) -> &Bucket {
        // Multiply-shift maps the low key half onto any bucket count, power of two or not.
        let index = ((key as u64 as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after does not wait
    /// for memory.
    #[inline(always)]
    fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint; it never faults and reads nothing visible.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored count of the position with `key` at `depth`, if any.
    #[inline(always)]
    pub(crate) fn probe(&self, key: u128, depth: u32) -> Option<u64> {
        let check = (key >> 64) as u64;
        for entry in &self.bucket(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == check && data & 0xFF == depth as u64 {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Stores a count, over the same position's entry if there is one, else over the
    /// shallowest entry of the bucket (deep counts save the most work).
    #[inline(always)]
    pub(crate) fn store(&self, key: u128, depth: u32, nodes: u64) {
        if nodes > MAX_STORED {
            return;
        }
        let check = (key >> 64) as u64;
        let bucket = &self.bucket(key).0;
        let mut victim = &bucket[0];
        let mut victim_depth = u64::MAX;
        for entry in bucket {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == check {
                victim = entry;
                break;
            }
            if data & 0xFF < victim_depth {
                victim = entry;
                victim_depth = data & 0xFF;
            }
        }
        let data = nodes << 8 | u64::from(depth.min(255));
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(check ^ data, Ordering::Relaxed);
    }
}

impl core::fmt::Debug for HashTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HashTable")
            .field("bytes", &self.bytes())
            .field("stats", &self.stats())
            .finish()
    }
}

/// An estimate from above of the positions (paths) at most `plies` plies below `position`:
/// counted up to four plies, beyond that grown by the last ply's branching factor.
pub(crate) fn positions_up_to(position: &Position, plies: u32) -> f64 {
    const COUNTED: u32 = 4;
    let backend = position.engine();
    let mut total = 0.0;
    let mut last = 1.0f64;
    let mut branching = 1.0f64;
    for ply in 0..=plies {
        let at_ply = if ply <= COUNTED {
            let counted = perft_resolved(position, ply, backend) as f64;
            if ply > 0 && last > 0.0 {
                branching = (counted / last).max(1.0);
            }
            counted
        } else {
            last * branching
        };
        total += at_ply;
        last = at_ply;
        if total > 1e30 {
            break;
        }
    }
    total
}

// ---------------------------------------------------------------------------------------
// The hashed recursion

/// [`crate::perft`] with subtree counts cached in `table` (which may be shared with other
/// threads and kept between calls: entries are keyed by position and depth), on a backend
/// already resolved: the body of [`PerftOptions::table`](super::options::PerftOptions::table)'s counts.
pub(crate) fn perft_hashed_resolved(
    position: &Position,
    depth: u32,
    backend: Resolved,
    table: &HashTable,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    count_from_root(position, depth, table, |root| with_engine(backend, root))
}

/// Counts `position` to `depth` through `table` by handing its [`HashedRoot`] to `run` (which
/// picks the engine), then adds this call's counters to the table's.
fn count_from_root(
    position: &Position,
    depth: u32,
    table: &HashTable,
    run: impl FnOnce(HashedRoot<'_, '_>) -> u64,
) -> u64 {
    let mut context = Context {
        table,
        keys: &table.keys,
        stats: TableStats::default(),
    };
    let nodes = run(HashedRoot {
        position,
        key: table.key_of(position),
        depth,
        context: &mut context,
    });
    table.add_stats(&context.stats);
    nodes
}

/// The table, its keys and this call's counters (added to the table's once, at the end).
struct Context<'a> {
    table: &'a HashTable,
    /// The table's keys, one pointer nearer.
    keys: &'a TableKeys,
    stats: TableStats,
}

/// [`perft_hashed_resolved`] once the engine is known.
struct HashedRoot<'a, 'b> {
    position: &'a Position,
    key: u128,
    depth: u32,
    context: &'a mut Context<'b>,
}

impl EngineOp for HashedRoot<'_, '_> {
    type Output = u64;
    fn run<B: Engine>(self, cpu: Cpu<B>) -> u64 {
        let position = self.position;
        hashed::<B>(
            cpu,
            position.board(),
            position.status_index(),
            position.ep_index(),
            self.depth,
            self.key,
            self.context,
        )
    }
}

/// Perft of `board` (status index `status`, en-passant square `ep`, key `key`) to `depth`,
/// through the table where the subtree is deep enough to be worth a probe: a hit returns
/// the stored count, a miss counts (the children through the table again) and stores.
fn hashed<B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    status: u8,
    ep: u8,
    depth: u32,
    key: u128,
    context: &mut Context,
) -> u64 {
    if depth < MIN_PROBE_DEPTH {
        return perft_at::<B>(cpu, board, status, ep, depth);
    }
    context.stats.probes += 1;
    if let Some(nodes) = context.table.probe(key, depth) {
        context.stats.hits += 1;
        let every = context.table.verify_every;
        // Sampled by key, not by hit number, so small units get their share.
        if every != 0 && ((key >> 64) as u64).is_multiple_of(every) {
            context.stats.verified += 1;
            let recount = perft_at::<B>(cpu, board, status, ep, depth);
            context.stats.mismatches += u64::from(recount != nodes);
        }
        return nodes;
    }
    if depth == 2 {
        // The children are not probed, so they need no keys: the batched depth-2 count.
        let nodes = perft_at::<B>(cpu, board, status, ep, 2);
        context.table.store(key, depth, nodes);
        return nodes;
    }
    let mut children = HashedChildren::<B> {
        base: key ^ context.keys.status(board, status, ep),
        child_depth: depth - 1,
        // The children of a depth-3 node are depth-2 subtrees, each only a few hundred
        // nanoseconds of counting: a first pass starts loading all their buckets, so the
        // probes of the second wait for memory in parallel instead of one after another.
        prefetch: depth == 3,
        nodes: 0,
        context,
        cpu,
    };
    if children.prefetch {
        interior_at::<B>(cpu, board, status, ep, &mut children);
        children.prefetch = false;
    }
    interior_at::<B>(cpu, board, status, ep, &mut children);
    let nodes = children.nodes;
    context.table.store(key, depth, nodes);
    nodes
}

/// Updates the key by each child's move and counts the child through the table; or, in the
/// prefetch pass, only computes its key and prefetches its bucket.
struct HashedChildren<'a, 'b, B> {
    /// The parent's key without its status part (side, rights and their rooks, en passant).
    base: u128,
    child_depth: u32,
    /// This pass only prefetches.
    prefetch: bool,
    nodes: u64,
    context: &'a mut Context<'b>,
    cpu: Cpu<B>,
}

impl<B: Engine> ChildAction for HashedChildren<'_, '_, B> {
    fn child(&mut self, parent: &Board, child: &Board, mv: ChildMove, status: u8, ep: u8) {
        // Bit 0 of the status is "white to move": the mover is the other side.
        let mover = Color::from_white(status & 1 == 0);
        let keys = self.context.keys;
        let key = self.base ^ keys.status(child, status, ep) ^ move_delta(keys, parent, mv, mover);
        if self.prefetch {
            self.context.table.prefetch(key);
            return;
        }
        #[cfg(test)]
        assert_eq!(key, keys.full(child, status, ep), "incremental key");
        self.nodes += hashed::<B>(
            self.cpu,
            child,
            status,
            ep,
            self.child_depth,
            key,
            self.context,
        );
    }
}

/// How the pieces' key changes when `mover` makes `mv` on `parent`.
fn move_delta(keys: &TableKeys, parent: &Board, mv: ChildMove, mover: Color) -> u128 {
    let ChildMove {
        piece,
        from,
        to,
        kind,
    } = mv;
    let moved = keys.piece(mover, piece, from);
    match kind {
        ChildKind::Plain => {
            moved ^ keys.piece(mover, piece, to) ^ capture_delta(keys, parent, mover, to)
        }
        ChildKind::Castle => {
            let squares = parent.castling().castle_squares(mover, from, to);
            moved
                ^ keys.piece(mover, Piece::King, squares.king_to)
                ^ keys.piece(mover, Piece::Rook, squares.rook_from)
                ^ keys.piece(mover, Piece::Rook, squares.rook_to)
        }
        ChildKind::EnPassant => {
            moved
                ^ keys.piece(mover, Piece::Pawn, to)
                ^ keys.piece(!mover, Piece::Pawn, en_passant_victim(mover, to))
        }
        ChildKind::Promotion(promoted) => {
            moved ^ keys.piece(mover, promoted, to) ^ capture_delta(keys, parent, mover, to)
        }
    }
}

/// The key change of removing whatever `mover`'s opponent has on `to`.
#[inline(always)]
fn capture_delta(keys: &TableKeys, board: &Board, mover: Color, to: Square) -> u128 {
    let victim = !mover;
    if !board.color(victim).contains(to) {
        return 0;
    }
    let piece = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ]
    .into_iter()
    .find(|&piece| board.pieces(victim, piece).contains(to))
    .unwrap_or(Piece::King);
    keys.piece(victim, piece, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(engine_magic)]
    use crate::slider::magic::Magic as Plain;
    #[cfg(not(engine_magic))]
    use crate::slider::pext::Pext as Plain;

    /// [`perft_hashed`] on the engine without CPU features only (PEXT in `pext-only`
    /// builds): the keys and the table do not depend on the engine (the integration tests
    /// count through the table on every engine), and reaching one engine keeps this test
    /// binary a fraction of the library's code to compile.
    fn perft_hashed_plain(position: &Position, depth: u32, table: &HashTable) -> u64 {
        let plain = Cpu::<Plain>::check().expect("the build's target runs this engine");
        count_from_root(position, depth, table, |root| root.run(plain))
    }

    #[test]
    fn child_keys_match_keys_from_scratch_and_counts_the_data() {
        // `descend` asserts, in unit-test builds, that every incrementally updated key equals
        // the key from scratch. The positions cover castling both ways, en passant,
        // promotions with capture on a rook corner, and double pushes that do and do not
        // allow en passant; counts from perftsuite.epd and the chessprogramming wiki.
        let cases = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
                97_862,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                4,
                422_333,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                3,
                62_379,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4, 314_346),
            // Chess960 (fischer.epd, tests/data/chess960_castling.epd): king and rook swap,
            // the king lands on its rook's square, the rook on the king's.
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                4,
                326_672,
            ),
            ("1r1k1r2/8/8/8/8/8/8/2RK1R2 w FCfb - 0 1", 4, 228_981),
            ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", 4, 272_627),
            ("r3k2r/8/8/8/8/8/8/R4K1R w HA - 0 1", 4, 266_736),
        ];
        for (fen, depth, nodes) in cases {
            let position: Position = fen.parse().unwrap();
            let table = HashTable::new(1 << 16).unwrap();
            assert_eq!(perft_hashed_plain(&position, depth, &table), nodes, "{fen}");
        }
    }

    #[test]
    fn chess960_keys_tell_castling_rooks_apart() {
        // The same pieces and rights, the queen-side right held by the rook on a1 or on b1.
        let outer: Position = "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1".parse().unwrap();
        let inner: Position = "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1".parse().unwrap();
        assert_ne!(position_key(&outer), position_key(&inner));
        // Rooks in the corners add nothing: Chess960 rules alone do not change the key.
        let start = Position::startpos();
        assert_eq!(
            position_key(&start.clone().into_chess960()),
            position_key(&start)
        );
    }

    #[test]
    fn every_seed_counts_the_same_with_other_keys() {
        let start = Position::startpos();
        assert_eq!(
            HashTable::new(64).unwrap().key_of(&start),
            position_key(&start)
        );
        let mut keys = Vec::new();
        // The last is the seed splitmix maps to 0: it must not give seed 0's keys.
        for seed in [0, 1, 2, u64::MAX, 0u64.wrapping_sub(0x9E37_79B9_7F4A_7C15)] {
            // The unit-test build checks each incremental key against the seed's own keys.
            let table = HashTable::new(1 << 16).unwrap().key_seed(seed);
            assert_eq!(
                perft_hashed_plain(&start, 4, &table),
                197_281,
                "seed {seed}"
            );
            keys.push(table.key_of(&start));
        }
        for (i, key) in keys.iter().enumerate() {
            // Both halves differ: the bucket and the check are drawn anew.
            for other in &keys[i + 1..] {
                assert_ne!(*key as u64, *other as u64);
                assert_ne!(key >> 64, other >> 64);
            }
        }
    }

    #[test]
    fn a_tiny_table_still_counts_right() {
        // One bucket: constant replacement, and every probe of a different position must miss.
        let table = HashTable::new(64).unwrap().verify_every(1);
        let start = Position::startpos();
        assert_eq!(perft_hashed_plain(&start, 5, &table), 4_865_609);
        assert_eq!(table.stats().mismatches, 0);
    }

    #[test]
    fn stored_counts_come_back_only_for_their_key_and_depth() {
        let table = HashTable::new(1 << 12).unwrap();
        let key = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321;
        table.store(key, 5, 999);
        assert_eq!(table.probe(key, 5), Some(999));
        assert_eq!(table.probe(key, 4), None);
        assert_eq!(table.probe(key ^ 1 << 64, 5), None);
        table.store(key, 5, MAX_STORED + 1);
        assert_eq!(table.probe(key, 5), Some(999));
    }
}
