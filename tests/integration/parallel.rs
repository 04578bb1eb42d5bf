//! Parallel perft and work units against the public data in `tests/data/perft/`: the
//! chessprogramming-wiki counts (`cpw_perft_results.csv`) and a sample of Marcel van
//! Kervinck's random positions, with several thread counts; and the units of
//! [`constmove::deep::split`] summed back to the published totals.

use crate::common;

use common::{PerftEntry, load, parse_perft_blocks, read_data, split_csv_record};
use constmove::deep::{HashTable, WorkUnit, WorkUnitError, count_units, divide_parallel, split};
use constmove::{Backend, PerftOptions, Position, divide};
use std::sync::atomic::AtomicBool;

/// The largest published count checked here, per position and depth.
const BUDGET: u64 = 5_000_000;

/// The thread counts every count is checked with (more threads than cores on purpose).
const THREADS: [usize; 3] = [1, 2, 3];

/// `(fen, depth, nodes)` of every row of `cpw_perft_results.csv` within [`BUDGET`].
fn cpw_cases() -> Vec<(Position, String, u32, u64)> {
    let name = "cpw_perft_results.csv";
    let text = read_data(name);
    let mut lines = text.lines();
    let header = split_csv_record(lines.next().expect("a header"));
    assert_eq!(
        &header[..4],
        ["position", "fen", "depth", "nodes"],
        "{name}"
    );
    let mut cases = Vec::new();
    for (number, line) in (2..).zip(lines) {
        let fields = split_csv_record(line);
        let depth: u32 = fields[2].parse().expect("a depth");
        let nodes: u64 = match fields[3].parse() {
            Ok(nodes) => nodes,
            // Counts beyond u64 (depth 14 and up) are far over the budget anyway.
            Err(_) => continue,
        };
        if nodes <= BUDGET {
            let position = fields[1]
                .parse()
                .unwrap_or_else(|e| panic!("{name}:{number}: {e}"));
            cases.push((position, fields[1].clone(), depth, nodes));
        }
    }
    assert!(cases.len() >= 20, "{name}: only {} cases", cases.len());
    cases
}

#[test]
fn parallel_perft_matches_cpw_counts_with_any_thread_count() {
    for (position, fen, depth, nodes) in cpw_cases() {
        for threads in THREADS {
            let options = PerftOptions::new().threads(threads);
            let counted = divide_parallel(&position, depth, &options, &|_| {}).unwrap();
            assert_eq!(
                counted.nodes(),
                Some(nodes),
                "{fen} depth {depth}, {threads} threads"
            );
        }
    }
}

#[test]
fn hashed_parallel_perft_matches_cpw_counts() {
    // A small table (64 KiB) so that entries are replaced all the time, shared by the cases
    // (entries are keyed by position and depth, so old ones stay valid), and every 50th hit
    // recounted without it.
    let table = HashTable::new(64 << 10).unwrap().verify_every(50);
    for (position, fen, depth, nodes) in cpw_cases() {
        for threads in [1, 2] {
            let options = PerftOptions::new().threads(threads).table(&table);
            let counted = divide_parallel(&position, depth, &options, &|_| {}).unwrap();
            assert_eq!(
                counted.nodes(),
                Some(nodes),
                "{fen} depth {depth}, {threads} threads"
            );
        }
    }
    let stats = table.stats();
    assert!(stats.hits > 1000 && stats.verified > 0, "{stats:?}");
    assert_eq!(stats.mismatches, 0);
}

#[test]
fn parallel_divide_agrees_with_divide_per_root_move() {
    let kiwipete: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    for depth in [1, 2, 4] {
        let serial = divide(&kiwipete, depth);
        let parallel =
            divide_parallel(&kiwipete, depth, &PerftOptions::new().threads(2), &|_| {}).unwrap();
        let parallel: Vec<_> = parallel
            .moves()
            .iter()
            .map(|&(mv, n)| (mv, n.unwrap()))
            .collect();
        assert_eq!(parallel, serial.to_vec(), "depth {depth}");
    }
}

#[test]
fn parallel_perft_matches_random_positions_with_any_thread_count() {
    let entries: Vec<PerftEntry> = load("marcelk_perft_random.perft.gz", parse_perft_blocks);
    // Every 20th position, at the depths whose counts stay small; also through one table.
    let table = HashTable::new(1 << 20).unwrap();
    let mut checked = 0;
    for entry in entries.iter().step_by(20) {
        let position: Position = entry
            .fen
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", entry.origin));
        for &(depth, nodes) in entry
            .counts
            .iter()
            .filter(|&&(d, n)| d >= 2 && n <= 200_000)
        {
            for threads in THREADS {
                let options = PerftOptions::new().threads(threads).backend(Backend::Magic);
                let counted = divide_parallel(&position, depth, &options, &|_| {}).unwrap();
                assert_eq!(
                    counted.nodes(),
                    Some(nodes),
                    "{} depth {depth}",
                    entry.origin
                );
                let hashed = divide_parallel(&position, depth, &options.table(&table), &|_| {});
                assert_eq!(
                    hashed.unwrap().nodes(),
                    Some(nodes),
                    "{} hashed",
                    entry.origin
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "only {checked} checks");
}

#[test]
fn split_units_sum_to_cpw_counts() {
    for (position, fen, depth, nodes) in cpw_cases().into_iter().filter(|c| c.2 >= 2) {
        for ply in 0..=depth.min(3) {
            let units = split(&position, depth, ply);
            let counts = count_units(&units, &PerftOptions::new().threads(2), &|_| {}).unwrap();
            let total: u64 = units
                .iter()
                .zip(&counts)
                .map(|(unit, count)| unit.count * count.unwrap())
                .sum();
            assert_eq!(total, nodes, "{fen} depth {depth} split at ply {ply}");
            // Each line survives its text form.
            for unit in units.iter().step_by(97) {
                assert_eq!(
                    unit.to_string()
                        .parse::<constmove::deep::WorkUnit>()
                        .as_ref(),
                    Ok(unit)
                );
            }
        }
    }
}

#[test]
fn split_merges_transpositions() {
    // The number of distinct positions after 1 to 4 plies of the start position (OEIS
    // A083276), while the paths number 20, 400, 8,902 and 197,281.
    for (ply, unique) in [(1, 20), (2, 400), (3, 5_362), (4, 72_078)] {
        let units = split(&Position::startpos(), ply, ply);
        assert_eq!(units.len(), unique, "ply {ply}");
    }
}

#[test]
fn a_stopped_run_reports_nothing_complete() {
    let stop = AtomicBool::new(true);
    let options = PerftOptions::new().threads(2).stop(&stop);
    let counted = divide_parallel(&Position::startpos(), 5, &options, &|_| {}).unwrap();
    assert_eq!(counted.moves().len(), 20);
    assert!(counted.moves().iter().all(|(_, n)| n.is_none()));
    assert_eq!(counted.nodes(), None);
}

/// One unit can be huge (two kings, twenty plies: the tree has about 10^17 leaves); a stop
/// request must still end the count within a fraction of a second.
#[test]
fn a_stop_request_ends_even_one_huge_unit() {
    let kings: Position = "k7/8/K7/8/8/8/8/8 w - - 0 1".parse().unwrap();
    let stop = AtomicBool::new(false);
    let options = PerftOptions::new().stop(&stop);
    let started = std::time::Instant::now();
    let counted = std::thread::scope(|scope| {
        let count = scope.spawn(|| divide_parallel(&kings, 20, &options, &|_| {}).unwrap());
        std::thread::sleep(std::time::Duration::from_millis(300));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        count.join().unwrap()
    });
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(counted.nodes(), None);
}

/// Progress is reported before the first unit finishes, with the number of units.
#[test]
fn progress_names_the_units_before_the_first_is_done() {
    let first = std::sync::Mutex::new(None);
    let options = PerftOptions::new().threads(2);
    divide_parallel(&Position::startpos(), 4, &options, &|progress| {
        first.lock().unwrap().get_or_insert(progress);
    })
    .unwrap();
    let first = first.into_inner().unwrap().expect("progress was reported");
    assert_eq!((first.units_done, first.nodes), (0, 0));
    assert_eq!(first.units_total, 400);
}

#[test]
fn work_unit_operations_may_not_repeat() {
    let start = constmove::fen::STARTPOS_FEN;
    for (line, operation) in [
        (format!("{start} ;count 1 ;count 2 ;depth 1"), "count"),
        (format!("{start} ;depth 1 ;count 1 ;depth 1"), "depth"),
    ] {
        let err = line.parse::<WorkUnit>().expect_err("a repeated operation");
        assert_eq!(err, WorkUnitError::Duplicate { operation }, "{line}");
        assert!(err.to_string().contains("more than once"), "{line}: {err}");
    }
}

#[test]
fn work_unit_values_are_plain_digits() {
    let start = constmove::fen::STARTPOS_FEN;
    for (line, operation) in [
        (format!("{start} ;count +1 ;depth 1"), "count"),
        (format!("{start} ;count 1 ;depth +1"), "depth"),
    ] {
        let err = line.parse::<WorkUnit>().expect_err("a signed value");
        assert!(
            matches!(err, WorkUnitError::BadValue { operation: op, .. } if op == operation),
            "{line}: {err:?}"
        );
    }
}

#[test]
fn work_unit_fen_errors_say_invalid_fen_once() {
    let err = "8/8 w - - ;count 1 ;depth 1"
        .parse::<WorkUnit>()
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("invalid FEN") && !err.contains("invalid FEN: invalid FEN"),
        "{err}"
    );
}

#[test]
fn table_alloc_errors_say_what_was_asked() {
    let small = constmove::deep::TableAllocError { bytes: 10 }.to_string();
    assert!(
        small.contains("10 bytes") && small.contains("64 bytes"),
        "{small}"
    );
    let large = constmove::deep::TableAllocError { bytes: 1 << 40 }.to_string();
    assert!(
        large.contains("1099511627776 bytes") && !large.contains("at least"),
        "{large}"
    );
}
