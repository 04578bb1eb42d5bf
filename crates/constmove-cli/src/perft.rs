//! `constmove perft [DEPTH] [--fen FEN] [--divide] [--stats] [--threads N] [--backend B]
//! [--json]`, and `constmove perft --workload FILE [--part I/N]`: count the leaves of the move
//! tree on all cores (with `--stats`, also the wiki's statistics of the leaf moves), time it and report the speed; a Ctrl-C prints the root moves counted so far.

use crate::args::{self, PerftArgs};
use crate::error::{CliError, CliResult};
use crate::progress;
use crate::report::{Report, Setup, finish, late_exit, release, table_stats, write_report};
use crate::workload;
use constmove::deep::{HashTable, Progress, StatsTable, divide_parallel, divide_parallel_stats};
use constmove::{Backend, Move, PerftStats, Position};
use std::io::Write;
use std::time::Instant;

/// The depth when none is given: the start position's depth 6 (119,060,324 nodes) is the
/// customary benchmark, long enough for a stable speed and short enough to wait for.
const DEFAULT_DEPTH: u32 = 6;

/// Runs the `perft` command; `args` are the words after `perft`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed: PerftArgs = args::parse("perft", args)?;
    let setup = Setup {
        backend: args::backend(parsed.backend)?,
        threads: match parsed.threads {
            Some(threads) => threads,
            None => args::threads(None)?,
        },
        json: parsed.json,
        hash: parsed.hash,
        verify: parsed.verify,
        hash_seed: parsed.hash_seed.unwrap_or(0),
    };
    if setup.verify && setup.hash.is_none() {
        return Err(CliError::usage("--verify needs --hash SIZE"));
    }
    if parsed.hash_seed.is_some() && setup.hash.is_none() {
        return Err(CliError::usage(
            "--hash-seed needs --hash SIZE (it chooses the table's keys)",
        ));
    }
    if let Some(file) = &parsed.workload {
        if parsed.depth.is_some() || parsed.fen.is_some() {
            return Err(CliError::usage(
                "perft --workload takes its positions and depths from the file (no DEPTH or --fen)",
            ));
        }
        // Options the workload mode cannot honour are refused, not ignored.
        for (option, given, why) in [
            ("--divide", parsed.divide, "its units are not root moves"),
            ("--stats", parsed.stats, "it counts nodes only"),
            (
                "--chess960",
                parsed.chess960,
                "each line's FEN says its own rules",
            ),
        ] {
            if given {
                return Err(CliError::usage(format!(
                    "{option} cannot be used with --workload ({why})"
                )));
            }
        }
        return workload::run(file, parsed.part, parsed.results.as_deref(), &setup, out);
    }
    for (option, given) in [
        ("--part", parsed.part.is_some()),
        ("--results", parsed.results.is_some()),
    ] {
        if given {
            return Err(CliError::usage(format!("{option} needs --workload FILE")));
        }
    }
    let depth = parsed.depth.unwrap_or(DEFAULT_DEPTH);
    let position = match &parsed.fen {
        Some(fen) => args::parse_fen(fen)?,
        None => Position::startpos(),
    };
    let position = if parsed.chess960 {
        position.into_chess960()
    } else {
        position
    };

    let report = if parsed.stats {
        if setup.verify {
            return Err(CliError::usage(
                "--verify recounts node counts and cannot be used with --stats",
            ));
        }
        measure_stats(&position, depth, &setup, parsed.divide)?
    } else {
        measure(&position, depth, &setup, parsed.divide)?
    };
    write_report(out, &report, &setup)?;
    finish(&report, || {
        let finished = report.divide.as_ref().map_or(0, Vec::len);
        let roots = position.legal_moves().len();
        format!(
            "interrupted: {finished} of {roots} root moves complete (listed above; `nodes` sums only those)"
        )
    })
}

/// Counts on the threads under a stopwatch, with progress on stderr unless `--json`.
fn measure(position: &Position, depth: u32, setup: &Setup, divide: bool) -> CliResult<Report> {
    let table = setup.table(|| HashTable::useful_bytes(position, depth))?;
    let options = setup.options(table.as_ref());
    let start = Instant::now();
    let late = |progress: Progress| {
        let report = late_report(start, table_stats(table.as_ref()), None);
        late_exit(&report, setup, &late_message(progress))
    };
    let counts = progress::run(!setup.json, 0, &late, |on_unit| {
        divide_parallel(position, depth, &options, on_unit)
    })
    .map_err(|error| CliError::usage(error.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    let (finished, complete) = sorted_lines(counts.moves(), |&count| count);
    let stats = table_stats(table.as_ref());
    release(table);
    Ok(Report {
        nodes: u128::from(
            counts
                .nodes()
                .unwrap_or_else(|| finished.iter().map(|(_, n)| n).sum()),
        ),
        complete,
        divide: (divide || !complete).then_some(finished),
        seconds,
        table: stats,
        stats: None,
        resumed: None,
        counted: None,
    })
}

/// [`measure`] with statistics, on the threads and through a statistics table with
/// `--hash`. With `divide` the lines give each root move's nodes and the statistics are
/// the whole tree's.
fn measure_stats(
    position: &Position,
    depth: u32,
    setup: &Setup,
    divide: bool,
) -> CliResult<Report> {
    let table = setup.stats_table(|| StatsTable::useful_bytes(position, depth))?;
    let options = setup.options(None);
    let options = match &table {
        Some(table) => options.stats_table(table),
        None => options,
    };
    let start = Instant::now();
    let late = |progress: Progress| {
        let table = table.as_ref().map(|table| (table.bytes(), table.stats()));
        let report = late_report(start, table, Some(PerftStats::default()));
        late_exit(&report, setup, &late_message(progress))
    };
    let counts = progress::run(!setup.json, 0, &late, |on_unit| {
        divide_parallel_stats(position, depth, &options, on_unit)
    })
    .map_err(|error| CliError::usage(error.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    let (finished, complete) = sorted_lines(counts.moves(), |stats| stats.nodes);
    let stats = counts.stats().unwrap_or_else(|| {
        let mut sum = PerftStats::default();
        for stats in counts.moves().iter().filter_map(|(_, stats)| *stats) {
            sum += stats;
        }
        sum
    });
    let table_report = table.as_ref().map(|table| (table.bytes(), table.stats()));
    release(table);
    Ok(Report {
        nodes: u128::from(stats.nodes),
        complete,
        divide: (divide || !complete).then_some(finished),
        seconds,
        table: table_report,
        stats: Some(stats),
        resumed: None,
        counted: None,
    })
}

/// The report of a count that did not stop in time: no root move is known to be finished.
fn late_report(
    start: Instant,
    table: Option<(usize, constmove::deep::TableStats)>,
    stats: Option<PerftStats>,
) -> Report {
    Report {
        nodes: 0,
        complete: false,
        divide: Some(Vec::new()),
        seconds: start.elapsed().as_secs_f64(),
        table,
        stats,
        resumed: None,
        counted: None,
    }
}

/// Why a late stop lists no root moves.
fn late_message(progress: Progress) -> String {
    format!(
        "the count did not stop within {} s, so it was left unfinished: no root move is \
         listed ({} of {} work units were done)",
        crate::progress::GRACE.as_secs_f64(),
        progress.units_done,
        progress.units_total
    )
}

/// The finished root moves as `(uci, nodes)` sorted by move text, so that two runs (or a
/// run and another engine's sorted output) can be compared with `diff`; and whether every
/// root move finished.
fn sorted_lines<T>(
    moves: &[(Move, Option<T>)],
    nodes: impl Fn(&T) -> u64,
) -> (Vec<(String, u64)>, bool) {
    let mut finished: Vec<(String, u64)> = moves
        .iter()
        .filter_map(|(mv, count)| Some((mv.to_string(), nodes(count.as_ref()?))))
        .collect();
    finished.sort();
    let complete = finished.len() == moves.len();
    (finished, complete)
}

/// Perft of each root move, as `(uci, count)` sorted by move text (see [`measure`]).
pub fn divide_sorted(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> CliResult<Vec<(String, u64)>> {
    let counts = constmove::PerftOptions::new()
        .backend(backend)
        .divide(position, depth)
        .map_err(|error| CliError::usage(error.to_string()))?;
    let mut sorted: Vec<(String, u64)> = counts
        .iter()
        .map(|(mv, count)| (mv.to_string(), *count))
        .collect();
    sorted.sort();
    Ok(sorted)
}
