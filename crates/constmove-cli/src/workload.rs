//! `constmove perft --workload FILE [--part I/N] [--results R.jsonl]`: count a file of work
//! units (as written by `constmove split`) and print the weighted total, `sum of count ×
//! perft(position, depth)`, in 128 bits. With `--results` each finished unit is kept as a
//! line of R, and units already there are not counted again (see `results.rs`).
//!
//! Parts are round-robin: part I of N is the I-th, (I+N)-th, (I+2N)-th ... unit line (blank
//! and `#` lines do not count), so every part gets a fair share of the large and small
//! units whatever order the file is in. The totals of parts 1/N to N/N add up to the
//! total of the whole file.

use crate::error::{CliError, CliResult};
use crate::input::{self, Bounds};
use crate::report::{Report, Setup, finish, late_exit, release, table_stats, write_report};
use crate::results::{self, ResultsLog, UnitResult};
use crate::{args, interrupt, progress};
use constmove::deep::{HashTable, Progress, UnitCounted, WorkUnit, count_units_with};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// A workload line is a FEN and two operations (under 200 bytes from `split`); the file
/// of a ply-6 split of the start position is 776 MB.
const BOUNDS: Bounds = Bounds {
    what: "workload",
    line: 4096,
    total: 4 << 30,
};

/// How `split`'s header comment starts; the unit count follows.
pub const HEADER: &str = "# constmove split: units ";
/// How `split`'s closing comment starts; the unit count follows.
pub const CLOSING: &str = "# constmove split end: ";

/// The units whose table use is estimated to size a workload's table: each estimate
/// counts a few plies.
const SAMPLED: usize = 16;

/// Reads `file`, keeps part `part` (`(I, N)`, from 1) if given, counts it and reports. With
/// `results_path`, each finished unit is appended there as a line, and units already in it
/// are not counted again (their recorded perft goes into the total).
pub fn run(
    file: &str,
    part: Option<(u64, u64)>,
    results_path: Option<&str>,
    setup: &Setup,
    out: &mut impl Write,
) -> CliResult {
    let units = read(file)?;
    // Unit numbers (from 1) of this part.
    let mine: Vec<usize> = (1..=units.len())
        .filter(|number| part.is_none_or(|(i, n)| (*number as u64 - 1) % n == i - 1))
        .collect();
    // Units already in the results file: their perft, from their first line.
    let mut done: HashMap<usize, u64> = HashMap::new();
    let log = match results_path {
        Some(path) if same_file(path, file) => {
            return Err(CliError::usage(format!(
                "--results {path:?} is the workload file itself"
            )));
        }
        Some(path) => {
            // Only a regular file holds earlier results: a device or a pipe (`/dev/full`,
            // `/dev/stdout`) is written to, never read back.
            let existing = match std::fs::metadata(path) {
                Ok(meta) if meta.is_file() => Some(results::read(path)?),
                _ => None,
            };
            if let Some(existing) = &existing {
                results::check_against(path, existing, &units)?;
                for (_, result) in &existing.results {
                    done.entry(result.unit).or_insert(result.perft);
                }
            }
            Some(ResultsLog::open(path, existing.as_ref())?)
        }
        None => None,
    };
    let resumed: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|n| done.contains_key(n))
        .collect();
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|n| !done.contains_key(n))
        .collect();
    let to_count: Vec<WorkUnit> = todo.iter().map(|&n| units[n - 1].clone()).collect();

    let table = setup.table(|| useful_bytes(&to_count))?;
    let options = setup.options(table.as_ref());
    let hash_seed = table.as_ref().map(HashTable::seed);
    // What this run finished: units and their weighted sum, for a report after a late stop.
    let finished_here = Mutex::new((0usize, 0u128));
    let on_counted = |counted: UnitCounted| {
        {
            let mut done = finished_here
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            done.0 += 1;
            done.1 += to_count[counted.index].weighted(counted.nodes);
        }
        let Some(log) = &log else { return };
        let number = todo[counted.index];
        let unit = &units[number - 1];
        let line = UnitResult {
            unit: number,
            fen: unit.position.to_string(),
            depth: unit.depth,
            count: unit.count,
            perft: counted.nodes,
            seconds: counted.seconds,
            hash_seed,
        };
        if !log.append(&line) {
            // A result that cannot be kept is work lost: stop as a first Ctrl-C would.
            interrupt::stop_now();
        }
    };
    let start = Instant::now();
    let resumed_nodes: u128 = resumed
        .iter()
        .map(|n| units[n - 1].weighted(done[n]))
        .fold(0, u128::saturating_add);
    let late = |_: Progress| {
        if let Some(error) = log.as_ref().and_then(ResultsLog::error) {
            let _ = writeln!(std::io::stderr(), "constmove: {error}");
            return 2;
        }
        let (count, nodes) = *finished_here
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let report = Report {
            nodes: resumed_nodes.saturating_add(nodes),
            complete: false,
            divide: None,
            seconds: start.elapsed().as_secs_f64(),
            table: table_stats(table.as_ref()),
            stats: None,
            resumed: results_path.map(|_| resumed.len()),
            counted: Some(nodes),
        };
        let message = format!(
            "{} of {} work units counted (`nodes` sums only those); the units in progress \
             did not stop within {} s and were left unfinished",
            resumed.len() + count,
            mine.len(),
            progress::GRACE.as_secs_f64()
        );
        late_exit(&report, setup, &message)
    };
    let counts = progress::run(!setup.json, to_count.len(), &late, |on_unit| {
        count_units_with(&to_count, &options, on_unit, &on_counted)
    })
    .map_err(|error| CliError::usage(error.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(log) = log {
        log.finish()?;
    }
    let stats = table_stats(table.as_ref());
    release(table);

    let too_large = || {
        CliError::usage(
            "the total does not fit in 128 bits (a results line claims an impossible perft)",
        )
    };
    let mut nodes: u128 = 0;
    for n in &resumed {
        nodes = nodes
            .checked_add(units[n - 1].weighted(done[n]))
            .ok_or_else(too_large)?;
    }
    let mut counted: u128 = 0;
    let mut finished = resumed.len();
    for (unit, count) in to_count.iter().zip(&counts) {
        if let Some(count) = count {
            finished += 1;
            counted += unit.weighted(*count);
        }
    }
    let nodes = nodes.checked_add(counted).ok_or_else(too_large)?;
    let complete = finished == mine.len();
    let report = Report {
        nodes,
        complete,
        divide: None,
        seconds,
        table: stats,
        stats: None,
        resumed: results_path.map(|_| resumed.len()),
        counted: Some(counted),
    };
    write_report(out, &report, setup)?;
    finish(&report, || {
        format!(
            "interrupted: {finished} of {} work units counted (`nodes` sums only those)",
            mine.len()
        )
    })
}

/// What a table can put to use for `units`: the sum of each unit's estimate, from an even
/// sample of [`SAMPLED`] units when there are more (each estimate counts a few plies).
fn useful_bytes(units: &[WorkUnit]) -> u64 {
    // At least a small table: a part whose units are all resumed counts nothing.
    const SMALLEST: u64 = 64 << 10;
    if units.is_empty() {
        return SMALLEST;
    }
    let step = units.len().div_ceil(SAMPLED);
    let sample: Vec<u64> = units
        .iter()
        .step_by(step)
        .map(|unit| HashTable::useful_bytes(&unit.position, unit.depth))
        .collect();
    let mean = sample.iter().map(|&bytes| bytes as f64).sum::<f64>() / sample.len() as f64;
    // Float to integer saturates: a huge estimate is u64::MAX, capped by --hash.
    ((mean * units.len() as f64) as u64).max(SMALLEST)
}

/// Whether paths `a` and `b` name one existing file.
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The unit count in a `split` header or closing line (`N,` or `N units`).
fn declared_count(rest: &str) -> Option<usize> {
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    args::whole_number(&digits)
}

/// The work units of `file`, one per line; blank lines, `#` comments and a byte-order mark
/// at the start of the file are skipped. A file that starts with `split`'s header must
/// hold as many units as it says and end with the closing line: a file cut short is an
/// error naming how many lines are missing. (A file without the header, written by hand,
/// is taken as it is.)
pub fn read(file: &str) -> CliResult<Vec<WorkUnit>> {
    let bytes = input::read_bounded(file, BOUNDS)?;
    let text = input::utf8(file, bytes)?;
    // A byte-order mark at the start is skipped, as most tools do; elsewhere the FEN
    // parser names it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut units = Vec::new();
    // The header's count, and the closing line's count and line number.
    let mut declared: Option<usize> = None;
    let mut closed: Option<(usize, usize)> = None;
    for (number, line) in (1..).zip(text.lines()) {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(HEADER) {
            if declared.is_some() || !units.is_empty() {
                return Err(CliError::usage(format!(
                    "{file}:{number}: a split header after the start of the file"
                )));
            }
            let count = declared_count(rest).ok_or_else(|| {
                CliError::usage(format!("{file}:{number}: a split header without its count"))
            })?;
            declared = Some(count);
            continue;
        }
        if let Some(rest) = line.strip_prefix(CLOSING) {
            let count = declared_count(rest).ok_or_else(|| {
                CliError::usage(format!("{file}:{number}: a closing line without its count"))
            })?;
            closed = Some((count, number));
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((_, at)) = closed {
            return Err(CliError::usage(format!(
                "{file}:{number}: a unit after the closing line (line {at})"
            )));
        }
        let unit: WorkUnit = line
            .parse()
            .map_err(|error| CliError::usage(format!("{file}:{number}: {error}")))?;
        if unit.depth > args::MAX_DEPTH {
            return Err(CliError::usage(format!(
                "{file}:{number}: depth {} is too large (at most {})",
                unit.depth,
                args::MAX_DEPTH
            )));
        }
        units.push(unit);
    }
    if let Some(declared) = declared {
        check_count(file, declared, units.len(), closed.map(|(count, _)| count))?;
    }
    Ok(units)
}

/// Checks a file with a header: `declared` units said, `read` read, and the closing
/// line's count if there was one.
fn check_count(file: &str, declared: usize, read: usize, closed: Option<usize>) -> CliResult<()> {
    if read < declared {
        return Err(CliError::usage(format!(
            "{file}: {} of the {declared} unit lines its header announces are missing \
             ({read} read; a file cut short?)",
            declared - read
        )));
    }
    if read > declared {
        return Err(CliError::usage(format!(
            "{file}: {read} unit lines, {} more than the {declared} its header announces",
            read - declared
        )));
    }
    match closed {
        None => Err(CliError::usage(format!(
            "{file}: the closing line is missing after all {declared} units (a file cut \
             short?)"
        ))),
        Some(count) if count != declared => Err(CliError::usage(format!(
            "{file}: the closing line says {count} units, the header {declared}"
        ))),
        Some(_) => Ok(()),
    }
}
