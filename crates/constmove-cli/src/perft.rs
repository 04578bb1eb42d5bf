//! `constmove perft [DEPTH] [--fen FEN] [--divide] [--stats] [--backend B] [--json]`: count
//! the leaves of the move tree (with `--stats`, also the wiki's statistics of the leaf
//! moves), time it and report the speed.

use crate::args::{self, Spec};
use crate::error::{CliError, CliResult};
use crate::json;
use constmove::{Backend, PerftStats, Position};
use std::io::Write;
use std::time::Instant;

/// The depth when none is given: the start position's depth 6 (119,060,324 nodes) is the
/// customary benchmark, long enough for a stable speed and short enough to wait for.
const DEFAULT_DEPTH: u32 = 6;

const SPEC: Spec = Spec {
    flags: &["--divide", "--json", "--stats"],
    valued: &["--fen", "--backend"],
};

/// One timed perft run.
struct Report {
    /// Leaves at the requested depth.
    nodes: u64,
    /// Per root move counts, when `--divide` was given.
    divide: Option<Vec<(String, u64)>>,
    /// The leaf statistics, when `--stats` was given.
    stats: Option<PerftStats>,
    /// Wall-clock time of the count.
    seconds: f64,
    /// The concrete backend that ran (never `Auto`).
    backend: Backend,
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
    let backend = args::backend(&parsed)?;

    let report = if parsed.flag("--stats") {
        measure_stats(&position, depth, backend, parsed.flag("--divide"))?
    } else {
        measure(&position, depth, backend, parsed.flag("--divide"))?
    };
    if parsed.flag("--json") {
        write_json(out, &report)?;
    } else {
        write_human(out, &report)?;
    }
    Ok(0)
}

/// Counts (and divides, if asked) under a stopwatch.
fn measure(position: &Position, depth: u32, backend: Backend, divide: bool) -> CliResult<Report> {
    let start = Instant::now();
    let (nodes, divide) = if divide {
        let counts = divide_sorted(position, depth, backend)?;
        // At depth 0 there are no root moves but still one node: the position itself.
        let nodes = if depth == 0 {
            1
        } else {
            counts.iter().map(|(_, count)| count).sum()
        };
        (nodes, Some(counts))
    } else {
        let nodes = constmove::perft_with(position, depth, backend)
            .map_err(|error| CliError::usage(error.to_string()))?;
        (nodes, None)
    };
    Ok(Report {
        nodes,
        divide,
        stats: None,
        seconds: start.elapsed().as_secs_f64(),
        backend,
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
        divide,
        stats: Some(stats),
        seconds: start.elapsed().as_secs_f64(),
        backend,
    })
}

/// Perft of each root move, as `(uci, count)` sorted by move text so that two runs (or a
/// run and another engine's sorted output) can be compared with `diff`.
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

/// `move count` lines (with `--divide`), a blank line, then `key value` lines: with
/// `--stats` one per statistic (`nodes` first), then the timing.
fn write_human(out: &mut impl Write, report: &Report) -> CliResult<()> {
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
    writeln!(out, "backend {}", report.backend.name())?;
    Ok(())
}

/// One JSON object on one line.
fn write_json(out: &mut impl Write, report: &Report) -> CliResult<()> {
    write!(
        out,
        "{{\"nodes\":{},\"seconds\":{},\"nps\":{},\"backend\":{}",
        report.nodes,
        json::number(report.seconds, 6),
        json::number(report.nps(), 0),
        json::string(report.backend.name()),
    )?;
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
