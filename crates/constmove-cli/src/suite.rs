//! `constmove suite FILE [--max-nodes N] [--json] [--backend B]`: check every published
//! count of a perft file against our own.
//!
//! The node limit bounds the work without trusting the file: a count at depth D is made only
//! if the file's count and our count at depth D-1 (made first, under the same rule) are both
//! within it. The last ply is counted in bulk, so a count at depth D costs about as much as
//! the count at D-1; a file that claims `;D9 5` for the start position is skipped after a
//! few counts instead of starting a perft of hours.

use crate::args::{self, SuiteArgs};
use crate::error::{CliError, CliResult};
use crate::input::{self, Bounds};
use crate::suite_file::{self, Case, Expected, LineError};
use crate::{interrupt, json};
use constmove::deep::divide_parallel;
use constmove::{Backend, PerftOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// A suite line is a FEN and its counts; the largest published file is about 1 MB.
const BOUNDS: Bounds = Bounds {
    what: "suite",
    line: 4096,
    total: 256 << 20,
};

/// Counts larger than this are skipped unless `--max-nodes` says otherwise: ten million
/// nodes take a few hundredths of a second, so a whole classic suite checks in seconds.
const DEFAULT_MAX_NODES: u64 = 10_000_000;

/// A count that came out different from the file's.
struct Mismatch<'a> {
    case: &'a Case,
    expected: Expected,
    got: u64,
}

/// The tally of a run.
#[derive(Default)]
struct Summary {
    passed: usize,
    failed: usize,
    skipped: usize,
    /// Ctrl-C stopped the run; the counts not yet made are in none of the above.
    interrupted: bool,
}

/// Counts whose depth below is larger than this are made so that Ctrl-C can stop them
/// (a smaller one takes a few hundredths of a second at most).
const STOPPABLE_BELOW: u64 = 1_000_000;

/// Runs the `suite` command; `args` are the words after `suite`. Exit status 1 when any
/// count differs.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed: SuiteArgs = args::parse("suite", args)?;
    let path = &parsed.file;
    let max_nodes = parsed.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let backend = args::backend(parsed.backend)?;
    let bytes = input::read_bounded(path, BOUNDS)?;
    // A line that is not UTF-8 fails as a line (its FEN cannot read), not the whole file.
    let text = String::from_utf8_lossy(&bytes);
    let suite = suite_file::parse(&text);
    let cases = &suite.cases;
    if suite.errors.is_empty() && cases.iter().all(|case| case.counts.is_empty()) {
        return Err(CliError::usage(format!(
            "{path} has no perft counts: nothing was checked"
        )));
    }

    let json = parsed.json;
    if !json {
        for error in &suite.errors {
            write_unreadable(out, error)?;
        }
    }
    let mut mismatches = Vec::new();
    let stop = interrupt::install();
    let summary = check(cases, max_nodes, backend, stop, |mismatch| {
        // Human output reports a mismatch as soon as it is found: a long suite can take
        // minutes, and the first failure is often all one needs.
        if !json {
            write_mismatch(out, &mismatch)?;
        }
        mismatches.push(mismatch);
        Ok(())
    })?;
    let summary = Summary {
        failed: summary.failed + suite.errors.len(),
        ..summary
    };

    if json {
        write_json(out, &summary, &mismatches, &suite.errors, backend)?;
    } else {
        write_summary(out, &summary)?;
    }
    if summary.interrupted {
        return Err(CliError::Interrupted(format!(
            "interrupted: the tally above covers the counts made before Ctrl-C ({} of {})",
            summary.passed + summary.failed + summary.skipped,
            cases.iter().map(|case| case.counts.len()).sum::<usize>()
        )));
    }
    if summary.passed + summary.failed == 0 {
        // The tally is out already; this is the one line that explains the status.
        out.flush()?;
        let _ = writeln!(
            std::io::stderr(),
            "constmove: nothing was checked: all {} counts were skipped by --max-nodes {max_nodes}",
            summary.skipped
        );
        return Ok(2);
    }
    Ok(if summary.failed > 0 { 1 } else { 0 })
}

/// Counts every expected value the guard allows (see the module docs), calling
/// `on_mismatch` for each wrong one.
fn check<'a>(
    cases: &'a [Case],
    max_nodes: u64,
    backend: Backend,
    stop: &AtomicBool,
    mut on_mismatch: impl FnMut(Mismatch<'a>) -> CliResult<()>,
) -> CliResult<Summary> {
    let mut summary = Summary::default();
    for case in cases {
        // Our counts of this position by depth, from perft(0) = 1 up.
        let mut ours = vec![1];
        for &expected in &case.counts {
            let got =
                if expected.nodes > max_nodes || out_of_reach(&ours, expected.depth, max_nodes) {
                    Counted::TooLarge
                } else {
                    guarded_perft(case, expected.depth, max_nodes, backend, stop, &mut ours)?
                };
            let got = match got {
                Counted::Nodes(got) => got,
                Counted::TooLarge => {
                    summary.skipped += 1;
                    continue;
                }
                Counted::Stopped => {
                    summary.interrupted = true;
                    return Ok(summary);
                }
            };
            if got == expected.nodes {
                summary.passed += 1;
            } else {
                summary.failed += 1;
                on_mismatch(Mismatch {
                    case,
                    expected,
                    got,
                })?;
            }
        }
    }
    Ok(summary)
}

/// Whether a count at `depth` is out of `max_nodes`'s reach before counting further: our
/// count at `depth - 1` extrapolated from the last one in `ours` at the slowest growth per
/// ply seen so far. A line claiming `;D99 5` for the start position is then skipped after
/// perft(1), not after counting perft(6); a forced line (growth 1) is never skipped.
fn out_of_reach(ours: &[u64], depth: u32, max_nodes: u64) -> bool {
    let known = ours.len() - 1;
    let depth = depth as usize;
    if known == 0 || depth <= known + 1 {
        return false;
    }
    let slowest = ours
        .windows(2)
        .map(|pair| pair[1] as f64 / pair[0].max(1) as f64)
        .fold(f64::INFINITY, f64::min);
    let plies = i32::try_from(depth - 1 - known).unwrap_or(i32::MAX);
    ours[known] as f64 * slowest.powi(plies) > max_nodes as f64
}

/// What [`guarded_perft`] found.
enum Counted {
    Nodes(u64),
    /// Over the node limit: skipped.
    TooLarge,
    /// Ctrl-C came first.
    Stopped,
}

/// Our count of `case` at `depth`, unless it may cost too much: depth d is counted only
/// when our count at d - 1 is at most `max_nodes`. The depths below are counted first, in
/// order, and kept in `ours` (index = depth), so each depth is counted once per case.
fn guarded_perft(
    case: &Case,
    depth: u32,
    max_nodes: u64,
    backend: Backend,
    stop: &AtomicBool,
    ours: &mut Vec<u64>,
) -> CliResult<Counted> {
    let depth = depth as usize;
    let unavailable = |error: constmove::BackendUnavailable| CliError::usage(error.to_string());
    while ours.len() <= depth {
        let below = *ours.last().expect("perft(0) is always there");
        if below > max_nodes || out_of_reach(ours, depth as u32, max_nodes) {
            return Ok(Counted::TooLarge);
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(Counted::Stopped);
        }
        let next = u32::try_from(ours.len()).expect("file depths are at most 128");
        let count = if below > STOPPABLE_BELOW {
            // One thread, as every other count of the suite, but one that Ctrl-C can stop.
            let options = PerftOptions::new().backend(backend).stop(stop);
            let divide =
                divide_parallel(&case.position, next, &options, &|_| {}).map_err(unavailable)?;
            match divide.nodes() {
                Some(count) => count,
                None => return Ok(Counted::Stopped),
            }
        } else {
            let position = case.position.clone().with_backend(backend);
            constmove::perft(&position.map_err(unavailable)?, next)
        };
        ours.push(count);
    }
    Ok(Counted::Nodes(ours[depth]))
}

/// `mismatch at line L [(id)]: FEN depth D: expected E, got G`.
fn write_mismatch(out: &mut impl Write, mismatch: &Mismatch<'_>) -> CliResult<()> {
    let Mismatch {
        case,
        expected,
        got,
    } = mismatch;
    write!(out, "mismatch at line {}", expected.line)?;
    if let Some(name) = &case.name {
        write!(out, " ({name})")?;
    }
    writeln!(
        out,
        ": {} depth {}: expected {}, got {got}",
        case.fen, expected.depth, expected.nodes
    )?;
    Ok(())
}

/// `unreadable line L: why` for a line of the file that could not be read.
fn write_unreadable(out: &mut impl Write, error: &LineError) -> CliResult<()> {
    writeln!(
        out,
        "unreadable line {}: {}",
        error.line,
        input::clip_quotes(&error.message)
    )?;
    Ok(())
}

/// The last line: `N passed, M failed` and `, K skipped` when there were any.
fn write_summary(out: &mut impl Write, summary: &Summary) -> CliResult<()> {
    write!(out, "{} passed, {} failed", summary.passed, summary.failed)?;
    if summary.skipped > 0 {
        write!(out, ", {} skipped", summary.skipped)?;
    }
    writeln!(out)?;
    Ok(())
}

/// The whole result as one JSON object on one line.
fn write_json(
    out: &mut impl Write,
    summary: &Summary,
    mismatches: &[Mismatch<'_>],
    unreadable: &[LineError],
    backend: Backend,
) -> CliResult<()> {
    write!(
        out,
        "{{\"passed\":{},\"failed\":{},\"skipped\":{},\"backend\":{},\"mismatches\":[",
        summary.passed,
        summary.failed,
        summary.skipped,
        json::string(backend.name()),
    )?;
    for (index, mismatch) in mismatches.iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        write!(
            out,
            "{comma}{{\"line\":{},\"fen\":{},\"depth\":{},\"expected\":{},\"got\":{}}}",
            mismatch.expected.line,
            json::string(&mismatch.case.fen),
            mismatch.expected.depth,
            mismatch.expected.nodes,
            mismatch.got,
        )?;
    }
    write!(out, "],\"unreadable\":[")?;
    for (index, error) in unreadable.iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        write!(
            out,
            "{comma}{{\"line\":{},\"error\":{}}}",
            error.line,
            json::string(&input::clip_quotes(&error.message)),
        )?;
    }
    write!(out, "]")?;
    if summary.interrupted {
        write!(out, ",\"complete\":false")?;
    }
    writeln!(out, "}}")?;
    Ok(())
}
