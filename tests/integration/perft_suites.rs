//! Perft counts against the public data in `tests/data/perft/`: Wagner's suite and its
//! extras, the tricky-position list, shakmaty's list (Chess960 castling included), the 960
//! Chess960 start positions and Marcel van Kervinck's 6,838 random positions.
//!
//! Every count comes from the data files, never from constmove itself, and is checked on the
//! magic backend and, where the CPU has BMI2, on the PEXT backend. The normal run checks each
//! count up to [`BUDGET`] leaves (and all random positions to depth 4); the `#[ignore]`d
//! `full_*` tests check every count (`cargo test --release --test integration perft_suites -- --ignored`).

use crate::common;

use constmove::Color;
use constmove::fen::{FenError, PositionError};

use common::{
    PerftCase, PerftEntry, assert_cases, backends, check_cases, load, parse_epd,
    parse_perft_blocks, select_cases,
};

/// The largest expected count checked in the normal run. With it the four suite files
/// cost about 0.33 billion leaves per backend (under a second for both backends in release
/// on two cores); the 32 counts above it are left to the `full_*` tests.
const BUDGET: u64 = 20_000_000;

fn within_budget(_depth: u32, nodes: u64) -> bool {
    nodes <= BUDGET
}

fn everything(_depth: u32, _nodes: u64) -> bool {
    true
}

/// The checker itself: a wrong count and a rejected FEN are reported with the FEN, depth,
/// expected and actual counts and the backend, on every backend.
#[test]
fn checker_reports_mismatches() {
    let cases = [
        PerftCase {
            origin: "self-test".to_owned(),
            fen: constmove::fen::STARTPOS_FEN.to_owned(),
            depth: 2,
            nodes: 401,
        },
        PerftCase {
            origin: "self-test".to_owned(),
            fen: "8/8/8 w - -".to_owned(),
            depth: 1,
            nodes: 1,
        },
    ];
    let backends = backends();
    let report = check_cases(&cases, &backends);
    assert_eq!(report.checked, 2 * backends.len());
    assert_eq!(report.mismatches.len(), 2 * backends.len());
    for backend in &backends {
        let wrong_count = report
            .mismatches
            .iter()
            .find(|m| m.depth == 2 && m.backend == *backend)
            .expect("the wrong count is reported")
            .to_string();
        for needle in [
            constmove::fen::STARTPOS_FEN,
            "depth 2",
            "expected 401",
            "got 400",
            backend.name(),
        ] {
            assert!(
                wrong_count.contains(needle),
                "{needle:?} not in {wrong_count}"
            );
        }
    }
    let rejected = report.mismatches.iter().find(|m| m.depth == 1).unwrap();
    assert!(rejected.got.is_err(), "{rejected}");
}

#[test]
fn perftsuite_within_budget() {
    let entries = load("perftsuite.epd", parse_epd);
    assert_eq!(entries.len(), 126, "perftsuite.epd has 126 positions");
    assert_cases(
        "perftsuite.epd (budgeted)",
        &select_cases(&entries, within_budget),
    );
}

#[test]
fn perftsuite_extras_within_budget() {
    let entries = load("perftsuite_extras.epd", parse_epd);
    assert_eq!(entries.len(), 3, "perftsuite_extras.epd has 3 positions");
    // The line written `11139762;D6 244063299` must give both counts.
    let gigantua = &entries[1];
    assert_eq!(
        gigantua.counts,
        [
            (1, 31),
            (2, 570),
            (3, 17_546),
            (4, 351_806),
            (5, 11_139_762),
            (6, 244_063_299)
        ]
    );
    assert_cases(
        "perftsuite_extras.epd (budgeted)",
        &select_cases(&entries, within_budget),
    );
}

#[test]
fn tricky_positions_within_budget() {
    let entries = load("tricky_positions.csv", common::parse_tricky_csv);
    assert_eq!(entries.len(), 28, "tricky_positions.csv has 28 rows");
    assert_cases(
        "tricky_positions.csv (budgeted)",
        &select_cases(&entries, within_budget),
    );
}

/// Whether an X-FEN castling field means the same as standard castling on `placement`:
/// every letter is one of `KQkq`, the king of that colour is on e1/e8, and the outermost
/// rook of that colour on the king's side of its back rank (what X-FEN's letter names)
/// stands on the h/a corner.
fn xfen_castling_is_standard(placement: &str, castling: &str) -> bool {
    if castling == "-" {
        return true;
    }
    // The back ranks as characters, file a first.
    let ranks: Vec<Vec<char>> = placement
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    if ranks.len() != 8 || ranks.iter().any(|rank| rank.len() != 8) {
        return false;
    }
    castling.chars().all(|letter| {
        let (back_rank, king, rook) = match letter {
            'K' | 'Q' => (&ranks[7], 'K', 'R'),
            'k' | 'q' => (&ranks[0], 'k', 'r'),
            _ => return false, // Shredder-FEN file letters: Chess960 only
        };
        if back_rank[4] != king {
            return false;
        }
        let kingside = letter.eq_ignore_ascii_case(&'k');
        let outermost = if kingside {
            (5..8).rev().find(|&file| back_rank[file] == rook)
        } else {
            (0..4).find(|&file| back_rank[file] == rook)
        };
        outermost == Some(if kingside { 7 } else { 0 })
    })
}

/// The positions of `shakmaty_tricky.perft`, castling read with X-FEN's meaning: the 8 whose
/// castling is not standard chess's (by [`xfen_castling_is_standard`], written apart from
/// the parser) must read as Chess960 positions, the others as standard ones.
/// `max-legals-too-much-material` is checked to be rejected for its 28 white pieces.
fn shakmaty_positions() -> Vec<PerftEntry> {
    let entries = load("shakmaty_tricky.perft", parse_perft_blocks);
    assert_eq!(entries.len(), 26, "shakmaty_tricky.perft has 26 positions");
    let mut included = Vec::new();
    let mut chess960 = Vec::new();
    let mut too_much_material = Vec::new();
    for entry in entries {
        let fields: Vec<&str> = entry.fen.split_whitespace().collect();
        assert!(fields.len() >= 4, "{}: short EPD", entry.origin);
        let position = match constmove::Position::from_fen(&entry.fen) {
            Ok(position) => position,
            Err(err) => {
                assert_eq!(
                    err,
                    FenError::Position(PositionError::TooManyPieces {
                        color: Color::White,
                        count: 28
                    }),
                    "{}",
                    entry.origin
                );
                too_much_material.push(entry.origin);
                continue;
            }
        };
        let standard = xfen_castling_is_standard(fields[0], fields[2]);
        assert_eq!(position.is_chess960(), !standard, "{}", entry.origin);
        if !standard {
            chess960.push(entry.origin.clone());
        }
        included.push(entry);
    }
    println!(
        "shakmaty_tricky.perft: {} positions, {} of them Chess960: {chess960:?}; rejected for \
         material: {too_much_material:?}",
        included.len(),
        chess960.len()
    );
    // The five xfen-* positions, the Shredder-FEN `Ff` one, two-knight-checkers (king on c1)
    // and asymmetrical-and-king-on-h (black king on h8 with `q`) are Chess960 positions.
    assert_eq!(included.len(), 25, "expected 25 positions");
    assert_eq!(chess960.len(), 8, "expected 8 Chess960 positions");
    assert_eq!(
        too_much_material.len(),
        1,
        "expected max-legals-too-much-material alone rejected for its material"
    );
    assert!(too_much_material[0].contains("(max-legals-too-much-material)"));
    included
}

#[test]
fn shakmaty_tricky_within_budget() {
    assert_cases(
        "shakmaty_tricky.perft (budgeted)",
        &select_cases(&shakmaty_positions(), within_budget),
    );
}

/// The deepest level of the random positions checked in the normal run: depths 1-4 are
/// 4.28 billion leaves per backend.
const RANDOM_DEPTH: u32 = 4;

fn marcelk_entries() -> Vec<PerftEntry> {
    let entries = load("marcelk_perft_random.perft.gz", parse_perft_blocks);
    assert_eq!(entries.len(), 6_838, "the random set has 6,838 positions");
    entries
}

/// All 6,838 random positions, every count to depth 4, on both backends. Measured: 8.56
/// billion leaves in about 10 s for the two backends together on two cores (release, AMD
/// EPYC), far below the 3 minutes at which Magic would be sampled, so neither is.
#[test]
fn marcelk_random_to_depth_4() {
    let entries = marcelk_entries();
    let cases = select_cases(&entries, |depth, _| depth <= RANDOM_DEPTH);
    assert_eq!(cases.len(), 6_838 * RANDOM_DEPTH as usize);
    assert_cases("marcelk_perft_random.perft to depth 4", &cases);
}

#[test]
#[ignore = "every count of perftsuite.epd, about 4.8 billion leaves per backend"]
fn full_perftsuite() {
    let entries = load("perftsuite.epd", parse_epd);
    assert_cases("perftsuite.epd (full)", &select_cases(&entries, everything));
}

#[test]
#[ignore = "every count of perftsuite_extras.epd"]
fn full_perftsuite_extras() {
    let entries = load("perftsuite_extras.epd", parse_epd);
    assert_cases(
        "perftsuite_extras.epd (full)",
        &select_cases(&entries, everything),
    );
}

#[test]
#[ignore = "every count of tricky_positions.csv"]
fn full_tricky_positions() {
    let entries = load("tricky_positions.csv", common::parse_tricky_csv);
    assert_cases(
        "tricky_positions.csv (full)",
        &select_cases(&entries, everything),
    );
}

#[test]
#[ignore = "every count of the shakmaty positions"]
fn full_shakmaty_tricky() {
    assert_cases(
        "shakmaty_tricky.perft (full)",
        &select_cases(&shakmaty_positions(), everything),
    );
}

fn fischer_entries() -> Vec<PerftEntry> {
    let entries = load("fischer.epd", parse_epd);
    assert_eq!(entries.len(), 960, "fischer.epd has 960 positions");
    for entry in &entries {
        let position: constmove::Position = entry.fen.parse().expect("fischer.epd parses");
        // Shredder-FEN castling reads as Chess960; with no right left the rules agree.
        let castling = entry.fen.split_whitespace().nth(2);
        assert_eq!(
            position.is_chess960(),
            castling != Some("-"),
            "{}: Shredder-FEN castling",
            entry.origin
        );
    }
    entries
}

/// All 960 Chess960 start positions to depth 4, and every eighth one at depth 5, on both
/// backends: about 2.6 billion leaves per backend.
#[test]
fn fischer_to_depth_4_and_some_5() {
    let entries = fischer_entries();
    let mut cases = select_cases(&entries, |depth, _| depth <= 4);
    assert_eq!(cases.len(), 960 * 4);
    let every_eighth: Vec<PerftEntry> = entries.into_iter().step_by(8).collect();
    cases.extend(select_cases(&every_eighth, |depth, _| depth == 5));
    assert_eq!(cases.len(), 960 * 4 + 120);
    assert_cases("fischer.epd to depth 4, every eighth at 5", &cases);
}

/// Depth 6 of three fischer.epd positions whose counts once came out high: a Chess960 castle
/// that puts the king on its rook's square (or the rook on the king's) leaves both squares
/// occupied, and the depth-2 node must still count the replier king's moves again, as the
/// pieces there attack other squares. About a billion leaves per backend.
#[test]
fn fischer_castles_onto_a_shared_square() {
    let origins = ["fischer.epd:131", "fischer.epd:161", "fischer.epd:185"];
    let entries: Vec<PerftEntry> = fischer_entries()
        .into_iter()
        .filter(|entry| origins.contains(&entry.origin.as_str()))
        .collect();
    let cases = select_cases(&entries, |depth, _| depth == 6);
    assert_eq!(cases.len(), origins.len());
    assert_cases("fischer.epd, castles onto a shared square", &cases);
}

#[test]
#[ignore = "every count of fischer.epd, depth 6 included: about 520 billion leaves per backend"]
fn full_fischer() {
    assert_cases(
        "fischer.epd (full)",
        &select_cases(&fischer_entries(), everything),
    );
}

#[test]
#[ignore = "depth 5 of all random positions: 132 billion leaves per backend, ~6 min"]
fn full_marcelk_random_depth_5() {
    let entries = marcelk_entries();
    let cases = select_cases(&entries, |depth, _| depth == 5);
    assert_eq!(cases.len(), 6_838);
    assert_cases("marcelk_perft_random.perft depth 5", &cases);
}

#[test]
#[ignore = "depth 6 of all random positions: 4.2 trillion leaves per backend, ~3 h"]
fn full_marcelk_random_depth_6() {
    let entries = marcelk_entries();
    let cases = select_cases(&entries, |depth, _| depth == 6);
    assert_eq!(cases.len(), 6_838);
    assert_cases("marcelk_perft_random.perft depth 6", &cases);
}

/// Move lists and divide hold every root move: each depth-1 count of the shakmaty positions
/// equals the length of `legal_moves()` and the total of `divide`, up to
/// the 218-move position. (The data's 270-move position has 28 white pieces and is refused
/// by FEN parsing, see `shakmaty_positions`, so no list has to hold it.)
#[test]
fn move_lists_hold_every_root_move() {
    let mut checked = 0;
    let mut largest = 0;
    for entry in shakmaty_positions() {
        let position: constmove::Position = entry.fen.parse().expect("included FENs parse");
        for &(depth, nodes) in entry.counts.iter().filter(|&&(depth, _)| depth == 1) {
            let listed = position.legal_moves().len() as u64;
            let divided = constmove::PerftOptions::new()
                .backend(constmove::Backend::Magic)
                .divide(&position, depth)
                .expect("magic always runs");
            assert_eq!(listed, nodes, "{}: legal_moves", entry.origin);
            assert_eq!(
                divided.len() as u64,
                nodes,
                "{}: divide entries",
                entry.origin
            );
            assert_eq!(divided.total(), nodes, "{}: divide total", entry.origin);
            largest = largest.max(nodes);
            checked += 1;
        }
    }
    assert!(checked > 0, "no depth-1 counts checked");
    assert_eq!(
        largest,
        constmove::MAX_MOVES as u64,
        "the data's 218-move position was not among them"
    );
}
