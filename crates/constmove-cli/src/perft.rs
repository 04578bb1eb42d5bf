//! `constmove perft [DEPTH] [--fen FEN] [--divide] [--backend B] [--json]`: count the
//! leaves of the move tree, time it and report the speed.

use crate::args::{self, Spec};
use crate::error::{CliError, CliResult};
use crate::json;
use constmove::{Backend, Position};
use std::io::Write;
use std::time::Instant;

/// The depth when none is given: the start position's depth 6 (119,060,324 nodes) is the
/// customary benchmark, long enough for a stable speed and short enough to wait for.
const DEFAULT_DEPTH: u32 = 6;

const SPEC: Spec = Spec {
    flags: &["--divide", "--json"],
    valued: &["--fen", "--backend"],
};

/// One timed perft run.
struct Report {
    /// Leaves at the requested depth.
    nodes: u64,
    /// Per root move counts, when `--divide` was given.
    divide: Option<Vec<(String, u64)>>,
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

    let report = measure(&position, depth, backend, parsed.flag("--divide"))?;
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

/// `move count` lines (with `--divide`), a blank line, then `key value` lines.
fn write_human(out: &mut impl Write, report: &Report) -> CliResult<()> {
    if let Some(divide) = &report.divide {
        for (mv, count) in divide {
            writeln!(out, "{mv} {count}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "nodes {}", report.nodes)?;
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
    writeln!(out, "}}")?;
    Ok(())
}
