//! `constmove perft [DEPTH] [--fen FEN] [--divide] [--stats] [--threads N] [--backend B]
//! [--json]`, and `constmove perft --workload FILE [--part I/N]`: count the leaves of the move
//! tree on all cores (with `--stats`, also the wiki's statistics of the leaf moves, on one
//! thread), time it and report the speed; a Ctrl-C prints the root moves counted so far.

use crate::args::{self, Spec};
use crate::error::{CliError, CliResult};
use crate::interrupt;
use crate::progress;
use crate::{json, workload};
use constmove::{
    Backend, HashTable, ParallelOptions, PerftStats, Position, TableStats, divide_parallel,
};
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

/// How a count runs, shared by the position and workload modes.
pub struct Setup {
    /// The concrete backend (never `Auto`).
    pub backend: Backend,
    /// Worker threads.
    pub threads: usize,
    /// `--json`: one object on stdout, no progress on stderr.
    pub json: bool,
    /// `--hash SIZE` in bytes.
    pub hash: Option<u64>,
    /// `--verify`: recount a sample of the table's hits without it.
    pub verify: bool,
}

/// With `--verify`, about one hit in this many is recounted without the table.
const VERIFY_EVERY: u64 = 1024;

impl Setup {
    /// The options for the library, and the table if `--hash` was given.
    pub fn table(&self) -> CliResult<Option<HashTable>> {
        let Some(bytes) = self.hash else {
            return Ok(None);
        };
        let bytes = usize::try_from(bytes)
            .map_err(|_| CliError::usage("--hash is larger than this machine can address"))?;
        let table = HashTable::new(bytes).map_err(|error| CliError::usage(error.to_string()))?;
        Ok(Some(table.verify_every(if self.verify {
            VERIFY_EVERY
        } else {
            0
        })))
    }

    /// The library's options: the threads and backend, Ctrl-C's stop flag, and `table`.
    pub fn options<'a>(&self, table: Option<&'a HashTable>) -> ParallelOptions<'a> {
        let options = ParallelOptions::new(self.threads)
            .backend(self.backend)
            .stop(interrupt::install());
        match table {
            Some(table) => options.table(table),
            None => options,
        }
    }
}

/// What the table did, for the report.
pub fn table_stats(table: Option<&HashTable>) -> Option<(usize, TableStats)> {
    table.map(|table| (table.bytes(), table.stats()))
}

/// One timed perft run.
pub struct Report {
    /// Leaves at the requested depth (with `complete == false`, of the finished part only).
    pub nodes: u64,
    /// Whether the whole tree was counted (false after Ctrl-C).
    pub complete: bool,
    /// Per root move counts: with `--divide`, or after an interruption (finished ones only).
    pub divide: Option<Vec<(String, u64)>>,
    /// Wall-clock time of the count.
    pub seconds: f64,
    /// The table's size and use, with `--hash`.
    pub table: Option<(usize, TableStats)>,
    /// The leaf statistics, with `--stats`.
    pub stats: Option<PerftStats>,
}

impl Report {
    /// Nodes per second; 0 when the run was too fast for the clock to see, rather than
    /// dividing by zero.
    fn nps(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

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

/// The exit status after the report is written: 130 after Ctrl-C (with `interrupted`'s
/// message), 1 if `--verify` found a wrong count, else 0.
pub fn finish(report: &Report, interrupted: impl FnOnce() -> String) -> CliResult {
    if !report.complete {
        return Err(CliError::Interrupted(interrupted()));
    }
    match report.table {
        Some((_, stats)) if stats.mismatches > 0 => {
            // The report is out already; this is the one line that explains the status.
            let _ = writeln!(
                std::io::stderr(),
                "constmove: --verify: {} of {} recounted hash hits were wrong",
                stats.mismatches,
                stats.verified
            );
            Ok(1)
        }
        _ => Ok(0),
    }
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

/// The report as text or JSON.
pub fn write_report(out: &mut impl Write, report: &Report, setup: &Setup) -> CliResult<()> {
    if setup.json {
        write_json(out, report, setup)
    } else {
        write_human(out, report, setup)
    }
}

/// `move count` lines (with `--divide`), a blank line, then `key value` lines: with
/// `--stats` one per statistic (`nodes` first), then the timing.
fn write_human(out: &mut impl Write, report: &Report, setup: &Setup) -> CliResult<()> {
    if let Some(divide) = &report.divide {
        for (mv, count) in divide {
            writeln!(out, "{mv} {count}")?;
        }
        writeln!(out)?;
    }
    match &report.stats {
        Some(stats) => {
            for (name, value) in stats.fields() {
                writeln!(out, "{name} {value}")?;
            }
        }
        None => writeln!(out, "nodes {}", report.nodes)?,
    }
    writeln!(out, "seconds {:.3}", report.seconds)?;
    writeln!(out, "Mnps {:.1}", report.nps() / 1e6)?;
    writeln!(out, "backend {}", setup.backend.name())?;
    writeln!(out, "threads {}", setup.threads)?;
    if let Some((bytes, stats)) = report.table {
        writeln!(out, "hash_bytes {bytes}")?;
        writeln!(out, "hash_probes {}", stats.probes)?;
        writeln!(out, "hash_hits {}", stats.hits)?;
        if setup.verify {
            writeln!(out, "verified {}", stats.verified)?;
            writeln!(out, "mismatches {}", stats.mismatches)?;
        }
    }
    Ok(())
}

/// One JSON object on one line.
fn write_json(out: &mut impl Write, report: &Report, setup: &Setup) -> CliResult<()> {
    write!(
        out,
        "{{\"nodes\":{},\"seconds\":{},\"nps\":{},\"backend\":{},\"threads\":{}",
        report.nodes,
        json::number(report.seconds, 6),
        json::number(report.nps(), 0),
        json::string(setup.backend.name()),
        setup.threads,
    )?;
    if !report.complete {
        write!(out, ",\"complete\":false")?;
    }
    if let Some((bytes, stats)) = report.table {
        write!(
            out,
            ",\"hash_bytes\":{bytes},\"hash_probes\":{},\"hash_hits\":{}",
            stats.probes, stats.hits
        )?;
        if setup.verify {
            write!(
                out,
                ",\"verified\":{},\"mismatches\":{}",
                stats.verified, stats.mismatches
            )?;
        }
    }
    if let Some(divide) = &report.divide {
        write!(out, ",\"divide\":{{")?;
        for (index, (mv, count)) in divide.iter().enumerate() {
            let comma = if index == 0 { "" } else { "," };
            write!(out, "{comma}{}:{count}", json::string(mv))?;
        }
        write!(out, "}}")?;
    }
    if let Some(stats) = &report.stats {
        write!(out, ",\"stats\":{{")?;
        for (index, (name, value)) in stats.fields().iter().enumerate() {
            let comma = if index == 0 { "" } else { "," };
            write!(out, "{comma}{}:{value}", json::string(name))?;
        }
        write!(out, "}}")?;
    }
    writeln!(out, "}}")?;
    Ok(())
}
