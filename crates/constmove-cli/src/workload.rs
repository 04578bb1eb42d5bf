//! `constmove perft --workload FILE [--part I/N]`: count a file of work units (as written by
//! `constmove split`) and print the weighted total, `sum of count × perft(position, depth)`.
//!
//! Parts are round-robin: part I of N is the I-th, (I+N)-th, (I+2N)-th ... unit line (blank
//! and `#` lines do not count), so every part gets a fair share of the large and small
//! units whatever order the file is in. The totals of parts 1/N to N/N add up to the
//! total of the whole file.

use crate::error::{CliError, CliResult};
use crate::report::{Report, Setup, finish, table_stats, write_report};
use crate::{args, progress};
use constmove::{HashTable, WorkUnit, count_units};
use std::io::Write;
use std::time::Instant;

/// Reads `file`, keeps part `part` (`(I, N)`, from 1) if given, counts it and reports.
pub fn run(file: &str, part: Option<(u64, u64)>, setup: &Setup, out: &mut impl Write) -> CliResult {
    let units = read(file)?;
    let units: Vec<WorkUnit> = match part {
        None => units,
        Some((i, n)) => units
            .into_iter()
            .zip(0u64..)
            .filter(|(_, index)| index % n == i - 1)
            .map(|(unit, _)| unit)
            .collect(),
    };
    let table = setup.table(|| {
        // Sized to the run only for a few units: each estimate counts a few plies.
        if units.len() > 16 {
            return u64::MAX;
        }
        let useful = units
            .iter()
            .map(|u| HashTable::useful_bytes(&u.position, u.depth));
        useful.fold(0, u64::saturating_add)
    })?;
    let options = setup.options(table.as_ref());
    let start = Instant::now();
    let counts = progress::run(!setup.json, units.len(), |on_unit| {
        count_units(&units, &options, on_unit)
    })
    .map_err(|error| CliError::usage(error.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();

    let mut nodes: u64 = 0;
    let mut finished = 0;
    for (unit, count) in units.iter().zip(&counts) {
        if let Some(count) = count {
            finished += 1;
            nodes = unit
                .count
                .checked_mul(*count)
                .and_then(|weighted| nodes.checked_add(weighted))
                .ok_or_else(|| CliError::usage("the workload's total does not fit in 64 bits"))?;
        }
    }
    let complete = finished == units.len();
    let report = Report {
        nodes,
        complete,
        divide: None,
        seconds,
        table: table_stats(table.as_ref()),
        stats: None,
    };
    write_report(out, &report, setup)?;
    finish(&report, || {
        format!(
            "interrupted: {finished} of {} work units counted (`nodes` sums only those)",
            units.len()
        )
    })
}

/// The work units of `file`, one per line; blank lines, `#` comments and a byte-order mark
/// at the start of the file are skipped.
fn read(file: &str) -> CliResult<Vec<WorkUnit>> {
    let text = std::fs::read_to_string(file)
        .map_err(|error| CliError::usage(format!("cannot read workload {file:?}: {error}")))?;
    // A byte-order mark at the start is skipped, as most tools do; elsewhere the FEN
    // parser names it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut units = Vec::new();
    for (number, line) in (1..).zip(text.lines()) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
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
    Ok(units)
}
