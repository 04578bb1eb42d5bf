//! The table math of constmove, kept apart so that `build.rs` (which bakes the tables into
//! `OUT_DIR`) and the tests (which check the baked tables) use one definition.
//!
//! Everything here is deliberately simple and slow: rays are walked square by square. Nothing
//! in this crate runs in the move generator; it runs once per build.
//!
//! Squares are numbered `0 = a1`, `1 = b1`, …, `63 = h8`; bit `n` of a bitboard is square `n`.
#![no_std]

/// Rook directions as (file step, rank step).
///
/// # Examples
/// ```
/// assert!(constmove_tables::ROOK_DIRECTIONS.contains(&(0, 1)));
/// ```
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
///
/// # Examples
/// ```
/// assert!(constmove_tables::BISHOP_DIRECTIONS.contains(&(1, 1)));
/// ```
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file step, rank step).
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::KNIGHT_JUMPS.len(), 8);
/// ```
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (file step, rank step).
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::KING_STEPS.len(), 8);
/// ```
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `(file, rank)` steps away from `square`, if it is on the board.
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::offset(0, 1, 1), Some(9)); // a1 -> b2
/// assert_eq!(constmove_tables::offset(0, -1, 0), None);
/// ```
pub fn offset(square: u8, file_step: i8, rank_step: i8) -> Option<u8> {
    let file = (square % 8) as i8 + file_step;
    let rank = (square / 8) as i8 + rank_step;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// Squares reached by single steps (knight jumps, king steps) from `square`.
///
/// # Examples
/// ```
/// use constmove_tables::{leaper_attacks, KNIGHT_JUMPS};
/// assert_eq!(leaper_attacks(0, &KNIGHT_JUMPS), 1 << 10 | 1 << 17); // a1: c2, b3
/// ```
pub fn leaper_attacks(square: u8, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| offset(square, df, dr))
        .fold(0, |acc, sq| acc | 1 << sq)
}

/// Squares a slider on `square` attacks along `directions`, each ray stopping at (and
/// including) the first occupied square.
///
/// # Examples
/// ```
/// use constmove_tables::{slider_attacks, ROOK_DIRECTIONS};
/// // A rook on a1 blocked on a2 and b1.
/// assert_eq!(slider_attacks(0, 1 << 8 | 1 << 1, &ROOK_DIRECTIONS), 1 << 8 | 1 << 1);
/// ```
pub fn slider_attacks(square: u8, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in directions {
        let mut current = square;
        while let Some(next) = offset(current, df, dr) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// The occupancy squares that can change a slider's attacks from `square`: every ray square
/// but the last, since a blocker on the board edge blocks nothing behind it.
///
/// # Examples
/// ```
/// use constmove_tables::{relevant_mask, ROOK_DIRECTIONS};
/// assert_eq!(relevant_mask(0, &ROOK_DIRECTIONS).count_ones(), 12);
/// ```
pub fn relevant_mask(square: u8, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in directions {
        let mut current = square;
        while let Some(next) = offset(current, df, dr) {
            if offset(next, df, dr).is_none() {
                break;
            }
            mask |= 1 << next;
            current = next;
        }
    }
    mask
}

/// Software parallel bit extract: gathers the bits of `value` selected by `mask` into the low
/// bits, in mask order. Matches the BMI2 `pext` instruction.
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::pext(0b1010, 0b1110), 0b101);
/// ```
pub fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if value & lowest != 0 {
            result |= 1 << bit;
        }
        bit += 1;
        mask ^= lowest;
    }
    result
}

/// Software parallel bit deposit: spreads the low bits of `value` onto the bits of `mask`.
/// The inverse of [`pext`]; used to enumerate every subset of a mask.
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::pdep(0b101, 0b1110), 0b1010);
/// ```
pub fn pdep(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if value & (1 << bit) != 0 {
            result |= lowest;
        }
        bit += 1;
        mask ^= lowest;
    }
    result
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
///
/// # Examples
/// ```
/// assert_eq!(constmove_tables::between(0, 2), 0b10); // a1-c1: b1
/// ```
pub fn between(a: u8, b: u8) -> u64 {
    for (df, dr) in ROOK_DIRECTIONS
        .iter()
        .chain(BISHOP_DIRECTIONS.iter())
        .copied()
    {
        let mut squares = 0;
        let mut current = a;
        while let Some(next) = offset(current, df, dr) {
            if next == b {
                return squares;
            }
            squares |= 1 << next;
            current = next;
        }
    }
    0
}

/// A small deterministic xorshift generator, so the magic search gives the same magics on
/// every build.
#[derive(Clone, Debug)]
///
/// # Examples
/// ```
/// let mut rng = constmove_tables::XorShift::new(1);
/// assert_ne!(rng.next_u64(), rng.next_u64());
/// ```
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a non-zero seed.
    ///
    /// # Examples
    /// ```
    /// let mut a = constmove_tables::XorShift::new(42);
    /// let mut b = constmove_tables::XorShift::new(42);
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    pub fn new(seed: u64) -> Self {
        XorShift(seed | 1)
    }

    /// The next 64 pseudo-random bits.
    ///
    /// # Examples
    /// ```
    /// let mut rng = constmove_tables::XorShift::new(7);
    /// assert_ne!(rng.next_u64(), 0);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A random number with few bits set: good magic candidates are sparse.
    ///
    /// # Examples
    /// ```
    /// let mut rng = constmove_tables::XorShift::new(7);
    /// assert!(rng.sparse().count_ones() < 32);
    /// ```
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// Index into a magic table: the product's top `bits` bits.
///
/// # Examples
/// ```
/// // With magic 1 and one relevant bit (the top one), the index is that bit.
/// assert_eq!(constmove_tables::magic_index(1 << 63, 1 << 63, 1, 1), 1);
/// ```
pub fn magic_index(occupied: u64, mask: u64, magic: u64, bits: u32) -> usize {
    ((occupied & mask).wrapping_mul(magic) >> (64 - bits)) as usize
}

/// Searches a magic multiplier for `square` that maps every occupancy subset of `mask` to a
/// slot of a table with `2^popcount(mask)` entries without a harmful collision (two subsets
/// may share a slot only when their attacks are equal). `scratch` needs that many entries.
///
/// # Examples
/// ```
/// use constmove_tables::*;
/// let mut rng = XorShift::new(9);
/// let mut scratch = vec![0; 1 << 12];
/// let magic = find_magic(27, &BISHOP_DIRECTIONS, &mut rng, &mut scratch);
/// let mask = relevant_mask(27, &BISHOP_DIRECTIONS);
/// let bits = mask.count_ones();
/// // Occupancies with different attacks never share a slot.
/// let (a, b) = (0, pdep(1, mask));
/// assert_ne!(magic_index(a, mask, magic, bits), magic_index(b, mask, magic, bits));
/// ```
pub fn find_magic(
    square: u8,
    directions: &[(i8, i8); 4],
    rng: &mut XorShift,
    scratch: &mut [u64],
) -> u64 {
    let mask = relevant_mask(square, directions);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let scratch = &mut scratch[..size];
    'candidate: loop {
        let magic = rng.sparse();
        // Cheap rejection: a good magic moves many mask bits into the index bits.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        scratch.fill(u64::MAX);
        for subset in 0..size as u64 {
            let occupied = pdep(subset, mask);
            let attacks = slider_attacks(square, occupied, directions);
            let slot = &mut scratch[magic_index(occupied, mask, magic, bits)];
            if *slot == u64::MAX {
                *slot = attacks;
            } else if *slot != attacks {
                continue 'candidate;
            }
        }
        return magic;
    }
}

/// Bob Jenkins' ISAAC-64 generator. Polyglot's 781 Zobrist keys are its first outputs from an
/// all-zero seed, so `build.rs` derives the published key set instead of pasting it.
///
/// # Examples
/// ```
/// // The first Polyglot key (the black pawn on a1).
/// assert_eq!(constmove_tables::Isaac64::new().next_u64(), 0x9D39_247E_3377_6D41);
/// ```
#[derive(Clone, Debug)]
pub struct Isaac64 {
    memory: [u64; 256],
    results: [u64; 256],
    remaining: usize,
    a: u64,
    b: u64,
    c: u64,
}

/// ISAAC's eight-word mixing step.
fn isaac_mix(x: &mut [u64; 8]) {
    // Word pairs and shifts as ISAAC-64 defines them: (minuend, subtrahend, xored, shift).
    const STEPS: [(usize, usize, usize, bool, u32); 8] = [
        (0, 4, 5, false, 9),
        (1, 5, 6, true, 9),
        (2, 6, 7, false, 23),
        (3, 7, 0, true, 15),
        (4, 0, 1, false, 14),
        (5, 1, 2, true, 20),
        (6, 2, 3, false, 17),
        (7, 3, 4, true, 14),
    ];
    for (i, sub, xored, left, shift) in STEPS {
        x[i] = x[i].wrapping_sub(x[sub]);
        let source = x[(xored + 2) % 8];
        x[xored] ^= if left {
            source << shift
        } else {
            source >> shift
        };
        x[(i + 7) % 8] = x[(i + 7) % 8].wrapping_add(x[i]);
    }
}

impl Default for Isaac64 {
    fn default() -> Self {
        Self::new()
    }
}

impl Isaac64 {
    /// The generator seeded with zeros (ISAAC's `randinit` with its seed flag set).
    ///
    /// # Examples
    /// ```
    /// let mut a = constmove_tables::Isaac64::new();
    /// let mut b = constmove_tables::Isaac64::default();
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    pub fn new() -> Self {
        let mut x = [0x9E37_79B9_7F4A_7C13u64; 8];
        for _ in 0..4 {
            isaac_mix(&mut x);
        }
        let mut memory = [0u64; 256];
        // Two passes: over the (zero) seed, then over the memory the first pass wrote.
        for pass in 0..2 {
            for chunk in 0..32 {
                for (j, word) in x.iter_mut().enumerate() {
                    let seed = if pass == 0 { 0 } else { memory[chunk * 8 + j] };
                    *word = word.wrapping_add(seed);
                }
                isaac_mix(&mut x);
                memory[chunk * 8..chunk * 8 + 8].copy_from_slice(&x);
            }
        }
        let mut rng = Isaac64 {
            memory,
            results: [0; 256],
            remaining: 0,
            a: 0,
            b: 0,
            c: 0,
        };
        rng.refill();
        rng.remaining = 256;
        rng
    }

    /// Runs one round of ISAAC-64, filling 256 results.
    fn refill(&mut self) {
        self.c = self.c.wrapping_add(1);
        let (mut a, mut b) = (self.a, self.b.wrapping_add(self.c));
        for i in 0..256 {
            let x = self.memory[i];
            a = match i % 4 {
                0 => !(a ^ (a << 21)),
                1 => a ^ (a >> 5),
                2 => a ^ (a << 12),
                _ => a ^ (a >> 33),
            };
            a = a.wrapping_add(self.memory[(i + 128) % 256]);
            let y = self.memory[((x >> 3) & 255) as usize]
                .wrapping_add(a)
                .wrapping_add(b);
            self.memory[i] = y;
            b = self.memory[((y >> 11) & 255) as usize].wrapping_add(x);
            self.results[i] = b;
        }
        self.a = a;
        self.b = b;
    }

    /// The next output; ISAAC hands each round's results out last first.
    ///
    /// # Examples
    /// ```
    /// let mut rng = constmove_tables::Isaac64::new();
    /// assert_eq!(rng.next_u64(), 0x9D39_247E_3377_6D41);
    /// assert_eq!(rng.next_u64(), 0x2AF7_3980_05AA_A5C7);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        if self.remaining == 0 {
            self.refill();
            self.remaining = 256;
        }
        self.remaining -= 1;
        self.results[self.remaining]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isaac64_gives_polyglot_first_and_last_keys() {
        let mut rng = Isaac64::new();
        let keys: [u64; 781] = core::array::from_fn(|_| rng.next_u64());
        assert_eq!(keys[0], 0x9D39_247E_3377_6D41);
        assert_eq!(keys[780], 0xF8D6_26AA_AF27_8509);
    }

    #[test]
    fn pext_and_pdep_are_inverse() {
        let mask = 0x00FF_0000_1234_8001;
        for value in [0u64, 1, 0xFF, 0xABCD, 0x3FFFF] {
            let deposited = pdep(value, mask);
            assert_eq!(deposited & !mask, 0);
            assert_eq!(
                pext(deposited, mask),
                value & ((1 << mask.count_ones()) - 1)
            );
        }
    }

    #[test]
    fn rook_on_a1_masks_and_attacks() {
        // a1 rook: relevant squares are b1..g1 and a2..a7.
        assert_eq!(relevant_mask(0, &ROOK_DIRECTIONS).count_ones(), 12);
        // Blocked on b1 and a2: two attacked squares.
        assert_eq!(
            slider_attacks(0, 0b10 | 1 << 8, &ROOK_DIRECTIONS),
            0b10 | 1 << 8
        );
    }

    #[test]
    fn between_is_exclusive_and_empty_when_unaligned() {
        assert_eq!(between(0, 63).count_ones(), 6); // a1-h8 diagonal
        assert_eq!(between(0, 2), 0b10); // a1-c1
        assert_eq!(between(0, 17), 0); // a1-b3: a knight jump
        assert_eq!(between(4, 5), 0); // adjacent
    }

    #[test]
    fn leapers_in_the_corner() {
        assert_eq!(leaper_attacks(0, &KNIGHT_JUMPS).count_ones(), 2);
        assert_eq!(leaper_attacks(0, &KING_STEPS).count_ones(), 3);
        assert_eq!(leaper_attacks(27, &KNIGHT_JUMPS).count_ones(), 8);
    }
}
