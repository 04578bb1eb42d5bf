//! Chess960 and double Chess960 through every counting path: the castling cases of
//! `tests/data/chess960_castling.epd` (counts by python-chess, see the script beside it) on
//! both backends, through the hash table, the threads, work units and statistics, and a
//! game's moves through `play`, UCI and the keys.

use crate::common;

use common::{PerftEntry, assert_cases, parse_epd, select_cases};
use constmove::deep::{HashTable, count_units, divide_parallel, split};
use constmove::{MoveKind, PerftOptions, Position, perft_stats};

/// The castling cases: hand-made (shields, swaps, kings that do not move, attacked and
/// blocked paths, double Chess960) and random castling-heavy positions, depths 1-4.
fn castling_cases() -> Vec<PerftEntry> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chess960_castling.epd"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = parse_epd(&text, "chess960_castling.epd");
    assert_eq!(entries.len(), 49, "chess960_castling.epd has 49 positions");
    for entry in &entries {
        let position: Position = entry.fen.parse().expect("the cases parse");
        assert!(position.is_chess960(), "{}", entry.fen);
    }
    entries
}

#[test]
fn castling_cases_on_both_backends() {
    assert_cases(
        "chess960_castling.epd",
        &select_cases(&castling_cases(), |_, _| true),
    );
}

/// The depth-4 counts through the table (shared by all positions, so a key must tell the
/// castling rooks apart), on two threads with the table, split into units at ply 2, and as
/// the statistics' node count.
#[test]
fn castling_cases_through_every_path() {
    let table = HashTable::new(1 << 20).expect("1 MiB table");
    for entry in castling_cases() {
        let position: Position = entry.fen.parse().unwrap();
        let &(depth, nodes) = entry.counts.last().unwrap();
        assert_eq!(depth, 4, "{}", entry.fen);
        let fen = &entry.fen;
        assert_eq!(
            PerftOptions::new().table(&table).perft(&position, depth),
            Ok(nodes),
            "{fen}: table"
        );
        let options = PerftOptions::new().threads(2).table(&table);
        let divide = divide_parallel(&position, depth, &options, &|_| {}).unwrap();
        assert_eq!(divide.nodes(), Some(nodes), "{fen}: threads and table");
        let units = split(&position, depth, 2);
        for unit in &units {
            // Each unit's FEN reads back as the same position under the same rules.
            let again: Position = unit.position.to_string().parse().unwrap();
            assert_eq!(again, unit.position, "{fen}: unit {}", unit.position);
        }
        let counts = count_units(&units, &PerftOptions::new().threads(2), &|_| {}).unwrap();
        let total: u64 = units
            .iter()
            .zip(&counts)
            .map(|(u, n)| u.count * n.unwrap())
            .sum();
        assert_eq!(total, nodes, "{fen}: units");
        assert_eq!(
            perft_stats(&position, 3).nodes,
            entry.counts[2].1,
            "{fen}: stats"
        );
    }
}

/// Castles are written king-takes-rook and read in both forms; playing them moves king and
/// rook as Chess960 says, and the key made move by move is the key of the FEN.
#[test]
fn castles_play_and_read_in_both_forms() {
    // King f1 and rook g1 swap; then Black's king b8 goes to c8 and its rook a8 to d8.
    let mut position: Position = "rk6/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w Ga - 0 1"
        .parse()
        .unwrap();
    let castle = position.parse_uci("f1g1").unwrap();
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(castle.to_string(), "f1g1");
    position.play(castle).unwrap();
    assert_eq!(
        position.to_string(),
        "rk6/pppppppp/8/8/8/8/PPPPPPPP/5RK1 b q - 1 1"
    );
    // Here `b8c8` is the king's step; the castle is `b8a8`.
    let step = position.parse_uci("b8c8").unwrap();
    assert_eq!(step.kind(), MoveKind::Normal);
    let by_rook = position.parse_uci("b8a8").unwrap();
    assert_eq!(by_rook.kind(), MoveKind::Castle);
    assert_eq!(position.san(by_rook), "O-O-O");
    position.play(by_rook).unwrap();
    let expected = "2kr4/pppppppp/8/8/8/8/PPPPPPPP/5RK1 w - - 2 2";
    assert_eq!(position.to_string(), expected);
    assert_eq!(position, expected.parse().unwrap());
    assert_eq!(
        position.zobrist(),
        expected.parse::<Position>().unwrap().zobrist()
    );
    // Where no king step has its squares, the king's destination names the castle too.
    let far: Position = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1".parse().unwrap();
    assert_eq!(far.parse_uci("b1g1"), far.parse_uci("b1h1"));
    assert_eq!(far.parse_uci("b1g1").unwrap().to_string(), "b1h1");
    // Standard chess reads king-takes-rook too.
    let start: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    assert_eq!(start.parse_uci("e1h1"), start.parse_uci("e1g1"));
}

/// Every Scharnagl number gives python-chess's starting position (`tests/data/
/// chess960_starts.txt`, written by the script beside it), under Chess960 rules.
#[test]
fn chess960_startpos_follows_scharnagl_numbers() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chess960_starts.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let ranks: Vec<&str> = text.lines().collect();
    assert_eq!(ranks.len(), 960, "chess960_starts.txt has 960 back ranks");
    for (number, rank) in ranks.iter().enumerate() {
        let fen = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1",
            rank.to_lowercase()
        );
        let expected = fen
            .parse::<Position>()
            .expect("the data parses")
            .into_chess960();
        let got = Position::chess960_startpos(number as u32).expect("a number under 960");
        assert_eq!(got, expected, "position {number}");
        assert!(got.is_chess960(), "position {number}");
    }
    assert_eq!(Position::chess960_startpos(960), None);
    assert_eq!(Position::chess960_startpos(u32::MAX), None);
}
