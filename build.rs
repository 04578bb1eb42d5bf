//! Bakes every attack table into `OUT_DIR` so nothing is filled at start-up and no large
//! `const fn` runs on each `cargo check`:
//! - `slider_pext.bin` / `slider_magic.bin`: rook then bishop attack sets, indexed by
//!   per-square offset plus the PEXT (resp. magic) index of the occupancy.
//! - `tables.rs`: the per-square slider entries, knight and king attacks, `BETWEEN`, and the
//!   781 Polyglot Zobrist keys (ISAAC-64 from a zero seed, as Polyglot made them).
//!
//! The math lives in `crates/constmove-tables`, which the tests use to check these tables.

use constmove_tables::{
    BISHOP_DIRECTIONS, BISHOP_MAGICS, Isaac64, KING_STEPS, KNIGHT_JUMPS, ROOK_DIRECTIONS,
    ROOK_MAGICS, between, leaper_attacks, magic_index, pdep, pext, relevant_mask, slider_attacks,
};
use std::fmt::Write as _;
use std::path::Path;

struct SliderEntry {
    mask: u64,
    magic: u64,
    bits: u32,
    offset: usize,
}

/// Which engines of the generator this build compiles (`src/slider/mod.rs` says why):
/// cfg `engine_pext`, `engine_magic_popcnt` and `engine_magic`, from the target's CPU
/// features and the cargo features `pext-only` and `magic-only`.
fn engine_cfgs() {
    for name in ["engine_pext", "engine_magic_popcnt", "engine_magic"] {
        println!("cargo::rustc-check-cfg=cfg({name})");
    }
    let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let target_features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let popcnt = target_features
        .split(',')
        .any(|feature| feature == "popcnt");
    let pext_only = std::env::var_os("CARGO_FEATURE_PEXT_ONLY").is_some();
    let magic_only = std::env::var_os("CARGO_FEATURE_MAGIC_ONLY").is_some();
    if x86_64 && !magic_only {
        println!("cargo::rustc-cfg=engine_pext");
    }
    if !pext_only {
        println!("cargo::rustc-cfg=engine_magic");
    }
    // A target with POPCNT runs the plain magic engine with it: the same code.
    if x86_64 && !popcnt && !pext_only && !magic_only {
        println!("cargo::rustc-cfg=engine_magic_popcnt");
    }
}

fn main() {
    engine_cfgs();
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=crates/constmove-tables/src/lib.rs");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() == Ok("big");

    // The magics are stored, not searched: this script runs unoptimised in crates that
    // depend on constmove. Filling the table below checks each one.
    let mut entries: Vec<SliderEntry> = Vec::with_capacity(128);
    let mut offset = 0;
    for (directions, magics) in [
        (&ROOK_DIRECTIONS, &ROOK_MAGICS),
        (&BISHOP_DIRECTIONS, &BISHOP_MAGICS),
    ] {
        for square in 0..64u8 {
            let mask = relevant_mask(square, directions);
            let bits = mask.count_ones();
            let magic = magics[square as usize];
            entries.push(SliderEntry {
                mask,
                magic,
                bits,
                offset,
            });
            offset += 1 << bits;
        }
    }
    let table_len = offset;

    let mut pext_table = vec![0u64; table_len];
    // Empty slots are u64::MAX (no slider attacks every square): a magic that sends two
    // occupancies with different attacks to one slot fails the build here.
    let mut magic_table = vec![u64::MAX; table_len];
    for (index, entry) in entries.iter().enumerate() {
        let square = (index % 64) as u8;
        let directions = if index < 64 {
            &ROOK_DIRECTIONS
        } else {
            &BISHOP_DIRECTIONS
        };
        for subset in 0..1u64 << entry.bits {
            let occupied = pdep(subset, entry.mask);
            let attacks = slider_attacks(square, occupied, directions);
            pext_table[entry.offset + pext(occupied, entry.mask) as usize] = attacks;
            let slot = &mut magic_table
                [entry.offset + magic_index(occupied, entry.mask, entry.magic, entry.bits)];
            assert!(
                *slot == u64::MAX || *slot == attacks,
                "the stored magic of square {square} maps two attack sets to one slot"
            );
            *slot = attacks;
        }
    }
    write_u64s(&out_dir, "slider_pext.bin", &pext_table, big_endian);
    // Slots no occupancy reaches stay empty, as they always were.
    magic_table
        .iter_mut()
        .filter(|slot| **slot == u64::MAX)
        .for_each(|slot| *slot = 0);
    write_u64s(&out_dir, "slider_magic.bin", &magic_table, big_endian);

    let mut rs = String::new();
    writeln!(rs, "/// Entries in each baked slider attack table.").unwrap();
    writeln!(
        rs,
        "pub(crate) const SLIDER_TABLE_LEN: usize = {table_len};"
    )
    .unwrap();
    for (name, range) in [("ROOK", 0..64), ("BISHOP", 64..128)] {
        writeln!(rs, "/// PEXT lookup data per square.").unwrap();
        writeln!(rs, "pub(crate) static PEXT_{name}: [PextEntry; 64] = [").unwrap();
        for entry in &entries[range.clone()] {
            writeln!(
                rs,
                "    PextEntry {{ mask: {:#x}, offset: {} }},",
                entry.mask, entry.offset
            )
            .unwrap();
        }
        writeln!(rs, "];").unwrap();
        writeln!(rs, "/// Magic lookup data per square.").unwrap();
        writeln!(rs, "pub(crate) static MAGIC_{name}: [MagicEntry; 64] = [").unwrap();
        for entry in &entries[range] {
            writeln!(
                rs,
                "    MagicEntry {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                entry.mask,
                entry.magic,
                64 - entry.bits,
                entry.offset
            )
            .unwrap();
        }
        writeln!(rs, "];").unwrap();
    }
    for (name, steps) in [("KNIGHT", &KNIGHT_JUMPS), ("KING", &KING_STEPS)] {
        writeln!(rs, "/// {name} attacks per square.").unwrap();
        writeln!(rs, "pub(crate) static {name}_ATTACKS: [u64; 64] = [").unwrap();
        for square in 0..64 {
            writeln!(rs, "    {:#x},", leaper_attacks(square, steps)).unwrap();
        }
        writeln!(rs, "];").unwrap();
    }
    writeln!(
        rs,
        "/// Squares a pawn of each colour (white first) on a square attacks."
    )
    .unwrap();
    writeln!(rs, "pub(crate) static PAWN_ATTACKS: [[u64; 64]; 2] = [").unwrap();
    for rank_step in [1, -1] {
        write!(rs, "    [").unwrap();
        for square in 0..64 {
            write!(
                rs,
                "{:#x},",
                leaper_attacks(square, &[(-1, rank_step), (1, rank_step)])
            )
            .unwrap();
        }
        writeln!(rs, "],").unwrap();
    }
    writeln!(rs, "];").unwrap();
    for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
        writeln!(rs, "/// {name} attacks per square on an empty board.").unwrap();
        writeln!(rs, "pub(crate) static {name}_RAYS: [u64; 64] = [").unwrap();
        for square in 0..64 {
            writeln!(rs, "    {:#x},", slider_attacks(square, 0, directions)).unwrap();
        }
        writeln!(rs, "];").unwrap();
    }
    writeln!(rs, "/// Squares strictly between two aligned squares.").unwrap();
    writeln!(rs, "pub(crate) static BETWEEN: [[u64; 64]; 64] = [").unwrap();
    for a in 0..64 {
        write!(rs, "    [").unwrap();
        for b in 0..64 {
            write!(rs, "{:#x},", between(a, b)).unwrap();
        }
        writeln!(rs, "],").unwrap();
    }
    writeln!(rs, "];").unwrap();
    writeln!(rs, "/// Polyglot's Zobrist keys, in Polyglot's order.").unwrap();
    writeln!(rs, "pub(crate) static POLYGLOT_KEYS: [u64; 781] = [").unwrap();
    let mut isaac = Isaac64::new();
    for _ in 0..781 {
        writeln!(rs, "    {:#018x},", isaac.next_u64()).unwrap();
    }
    writeln!(rs, "];").unwrap();
    std::fs::write(Path::new(&out_dir).join("tables.rs"), rs).expect("write tables.rs");
}

fn write_u64s(out_dir: &str, name: &str, values: &[u64], big_endian: bool) {
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| {
            if big_endian {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        })
        .collect();
    std::fs::write(Path::new(out_dir).join(name), bytes).expect("write slider table");
}
