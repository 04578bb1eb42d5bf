//! `constmove perft [DEPTH] [--fen FEN] [--divide] [--stats] [--threads N] [--backend B]
//! [--json]`, and `constmove perft --workload FILE [--part I/N]`: count the leaves of the move
//! tree on all cores (with `--stats`, also the wiki's statistics of the leaf moves, on one
//! thread), time it and report the speed; a Ctrl-C prints the root moves counted so far.

use crate::args::{self, Spec};
use crate::error::{CliError, CliResult};
use crate::progress;
use crate::report::{Report, Setup, finish, table_stats, write_report};
use crate::workload;
use constmove::{Backend, PerftStats, Position, divide_parallel};
use std::io::Write;
use std::time::Instant;

/// The depth when none is given: the start position's depth 6 (119,060,324 nodes) is the
/// customary benchmark, long enough for a stable speed and short enough to wait for.
const DEFAULT_DEPTH: u32 = 6;

const SPEC: Spec = Spec {
    flags: &["--divide", "--json", "--stats", "--verify"],
    valued: &[
        "--fen",
        "--backend",
        "--threads",
        "--hash",
        "--workload",
        "--part",
    ],
};

/// Runs the `perft` command; `args` are the words after `perft`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed = args::parse(args, &SPEC)?;
    let setup = Setup {
        backend: args::backend(&parsed)?,
        threads: args::threads(&parsed)?,
        json: parsed.flag("--json"),
        hash: parsed
            .value("--hash")
            .map(|size| args::parse_size("--hash", size))
            .transpose()?,
        verify: parsed.flag("--verify"),
    };
    if setup.verify && setup.hash.is_none() {
        return Err(CliError::usage("--verify needs --hash SIZE"));
    }
    if let Some(file) = parsed.value("--workload") {
        if !parsed.positionals.is_empty() || parsed.value("--fen").is_some() {
            return Err(CliError::usage(
                "perft --workload takes its positions and depths from the file (no DEPTH or --fen)",
            ));
        }
        if parsed.flag("--divide") {
            return Err(CliError::usage("perft --workload cannot --divide"));
        }
        let part = parsed.value("--part").map(args::parse_part).transpose()?;
        return workload::run(file, part, &setup, out);
    }
    if parsed.value("--part").is_some() {
        return Err(CliError::usage("--part needs --workload FILE"));
    }
    let depth = match parsed.positionals.as_slice() {
        [] => DEFAULT_DEPTH,
        [depth] => args::parse_depth(depth)?,
        [_, extra, ..] => {
            return Err(CliError::usage(format!(
                "perft: unexpected argument {extra:?} (a position goes after --fen)"
            )));
        }
    };
    let position = match parsed.value("--fen") {
        Some(fen) => args::parse_fen(fen)?,
        None => Position::startpos(),
    };

    let (report, setup) = if parsed.flag("--stats") {
        if setup.hash.is_some() {
            return Err(CliError::usage(
                "--stats counts every leaf move and cannot use --hash",
            ));
        }
        // Statistics are counted on one thread: say so in the report.
        let setup = Setup {
            threads: 1,
            ..setup
        };
        let report = measure_stats(&position, depth, setup.backend, parsed.flag("--divide"))?;
        (report, setup)
    } else {
        (
            measure(&position, depth, &setup, parsed.flag("--divide"))?,
            setup,
        )
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
    let table = setup.table()?;
    let options = setup.options(table.as_ref());
    let start = Instant::now();
    let counts = progress::run(!setup.json, 0, |on_unit| {
        divide_parallel(position, depth, &options, on_unit)
    })
    .map_err(|error| CliError::usage(error.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    // Sorted by move text so that two runs (or a run and another engine's sorted output)
    // can be compared with `diff`.
    let mut finished: Vec<(String, u64)> = counts
        .moves()
        .iter()
        .filter_map(|(mv, count)| Some((mv.to_string(), (*count)?)))
        .collect();
    finished.sort();
    let complete = counts.nodes().is_some();
    Ok(Report {
        nodes: counts
            .nodes()
            .unwrap_or_else(|| finished.iter().map(|(_, n)| n).sum()),
        complete,
        divide: (divide || !complete).then_some(finished),
        seconds,
        table: table_stats(table.as_ref()),
        stats: None,
    })
}

/// [`measure`] with statistics. With `divide`, each root move's subtree is counted once
/// with statistics: the lines give its nodes and the statistics are their sum (at depth 1
/// the root moves themselves are the leaves, so the root is counted instead; a cheap pass).
fn measure_stats(
    position: &Position,
    depth: u32,
    backend: Backend,
    divide: bool,
) -> CliResult<Report> {
    let unavailable = |error: constmove::BackendUnavailable| CliError::usage(error.to_string());
    let start = Instant::now();
    let (stats, divide) = if divide && depth >= 1 {
        let mut lines = Vec::new();
        let mut total = PerftStats::default();
        for mv in position.legal_moves().iter().copied() {
            let mut child = position.clone();
            child.play(mv).expect("a listed move is legal");
            let stats =
                constmove::perft_stats_with(&child, depth - 1, backend).map_err(unavailable)?;
            lines.push((mv.to_string(), stats.nodes));
            total += stats;
        }
        lines.sort();
        if depth == 1 {
            total = constmove::perft_stats_with(position, 1, backend).map_err(unavailable)?;
        }
        (total, Some(lines))
    } else {
        let stats = constmove::perft_stats_with(position, depth, backend).map_err(unavailable)?;
        (stats, divide.then(Vec::new))
    };
    Ok(Report {
        nodes: stats.nodes,
        complete: true,
        divide,
        seconds: start.elapsed().as_secs_f64(),
        table: None,
        stats: Some(stats),
    })
}

/// Perft of each root move, as `(uci, count)` sorted by move text (see [`measure`]).
pub fn divide_sorted(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> CliResult<Vec<(String, u64)>> {
    let counts = constmove::divide(position, depth, backend)
        .map_err(|error| CliError::usage(error.to_string()))?;
    let mut sorted: Vec<(String, u64)> = counts
        .iter()
        .map(|(mv, count)| (mv.to_string(), *count))
        .collect();
    sorted.sort();
    Ok(sorted)
}
