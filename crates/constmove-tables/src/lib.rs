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

/// The seed of the magic search whose results are [`ROOK_MAGICS`] and [`BISHOP_MAGICS`].
pub const MAGIC_SEED: u64 = 0x5EED_C0DE_2026_1121;

/// Rook magics, square a1 first: what [`find_magic`] finds for the rook squares in order,
/// from [`XorShift::new`]`(`[`MAGIC_SEED`]`)`, before the bishop ones. Stored so that
/// `build.rs` (which runs unoptimised in every crate that depends on constmove) only checks
/// them while it fills the table instead of searching; a test checks they are the search's.
pub const ROOK_MAGICS: [u64; 64] = [
    0x0080_0010_8028_4002,
    0x94C0_00A0_0410_0240,
    0x5080_0810_0020_0080,
    0x2080_04C8_0150_0180,
    0x1001_0008_2040_1080,
    0x4400_9002_2004_0008,
    0x0080_0100_0200_0080,
    0x4100_0441_0000_8822,
    0x08A1_0020_8001_0040,
    0x3302_0030_4100_8200,
    0x4402_0012_0040_8020,
    0x0101_0024_0810_0100,
    0x1400_8004_0008_0080,
    0x0942_0008_1002_0004,
    0x0002_8080_0A00_0300,
    0x1C8A_0002_0080_4104,
    0x0000_2880_0040_0888,
    0x0010_0040_4000_2000,
    0x8110_0020_0028_0400,
    0x0002_0A00_1020_4202,
    0x001B_8380_0800_0400,
    0x0200_0801_4020_0410,
    0x0000_0400_0822_0150,
    0x0000_0200_0040_8104,
    0x0040_0040_8000_8028,
    0x4000_2001_8040_0080,
    0x0800_1004_8020_0080,
    0x8090_0101_0010_200A,
    0x0041_0402_8008_0080,
    0x8086_0400_8002_0080,
    0x000B_0001_0002_0004,
    0x0A08_8003_8004_4500,
    0x8000_8040_0080_0021,
    0x0100_4010_0040_2000,
    0x0000_8020_0080_1001,
    0x8102_00A0_1600_0840,
    0x0000_0400_8080_0800,
    0x0064_0002_0080_0480,
    0x1990_4D08_1400_A210,
    0x0008_0908_8200_0044,
    0x0082_4000_2091_8009,
    0x0810_0240_2003_4000,
    0x0220_0010_0020_8080,
    0x0000_0900_1001_0020,
    0x4100_0801_0025_0030,
    0x801C_0010_0802_0200,
    0x6000_080A_0344_00B0,
    0x0000_0120_4082_0004,
    0x4080_0440_0820_0840,
    0x3000_8040_0020_0180,
    0x0020_0044_2011_0500,
    0x0008_0010_000C_8080,
    0x0049_0010_0800_8500,
    0x9600_0200_8004_0080,
    0x2001_0802_1110_0C00,
    0x0000_0147_8401_0A00,
    0x1000_4080_0820_1101,
    0x000E_2240_1201_0082,
    0x0240_0900_2000_1041,
    0x0193_0010_0004_0921,
    0x0401_0004_1002_0801,
    0x2095_0004_0008_0201,
    0x0010_0110_00A2_4804,
    0x0507_0000_4080_2201,
];

/// Bishop magics, square a1 first, found after [`ROOK_MAGICS`] by the same search.
pub const BISHOP_MAGICS: [u64; 64] = [
    0x01F0_2121_2C14_0040,
    0x0005_2108_0200_8002,
    0x0004_0800_8118_8012,
    0x2804_1042_0100_C000,
    0x4006_0A10_0060_0484,
    0x0402_0884_2400_A010,
    0x0000_6412_2050_0000,
    0x08C2_0421_0108_2000,
    0x0008_1083_0801_0400,
    0x1000_2408_10A1_0209,
    0x0800_1000_8210_4200,
    0x0010_1425_0200_8010,
    0x0010_1C04_2120_0000,
    0x0000_0082_A020_0560,
    0x2040_0208_4412_2800,
    0x2050_5041_0801_1092,
    0x0840_0804_04A4_0C00,
    0x0109_0020_0109_0208,
    0x0030_0161_0400_8210,
    0x0000_8008_0200_4000,
    0x0102_0084_1202_0010,
    0x0440_4000_8060_2000,
    0x8984_0200_8488_0980,
    0x0820_4080_8400_8800,
    0x0288_204C_0444_9004,
    0x8134_10A0_0210_0144,
    0x000A_0100_4084_0680,
    0x025A_0080_0800_8022,
    0x0081_0010_C100_4008,
    0x1008_1240_4600_4600,
    0x1004_2C1B_5082_1108,
    0x0C0A_0206_0080_4100,
    0x1004_2009_0020_0200,
    0x0003_0442_0021_5803,
    0x0040_1402_0010_0090,
    0x0000_2C04_00C8_0120,
    0xC004_1802_0014_2008,
    0x0404_0400_2004_1000,
    0x0008_0820_4000_9201,
    0x0040_820A_9002_0080,
    0x1218_8804_42B0_1000,
    0x0004_0444_2203_0410,
    0x000C_2202_0200_4045,
    0x0080_0020_1804_0100,
    0x0018_C00D_0210_0101,
    0x8108_2000_4C11_0080,
    0x0010_6122_0088_4400,
    0x2008_1084_0480_0040,
    0x0D02_0290_1C10_9200,
    0x4400_4848_4808_0088,
    0x0800_0200_8404_80C0,
    0x0200_4940_2088_0030,
    0x8820_0024_050C_0020,
    0x1E01_70E0_0244_2088,
    0x0004_4808_4104_0901,
    0x0042_3041_2101_0080,
    0x0220_2402_0231_2001,
    0x880C_3090_8818_0200,
    0x8401_040A_8C0E_A800,
    0x0A00_0008_2420_A808,
    0x0010_8048_1082_0202,
    0x900C_0005_2004_0104,
    0x02A0_1020_0800_A080,
    0x1960_0121_4803_0040,
];

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
    fn stored_magics_are_the_seeded_search_results() {
        let mut rng = XorShift::new(MAGIC_SEED);
        let mut scratch = [0u64; 1 << 12];
        for (magics, directions) in [
            (&ROOK_MAGICS, &ROOK_DIRECTIONS),
            (&BISHOP_MAGICS, &BISHOP_DIRECTIONS),
        ] {
            for square in 0..64u8 {
                let found = find_magic(square, directions, &mut rng, &mut scratch);
                assert_eq!(magics[square as usize], found, "square {square}");
            }
        }
    }

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
