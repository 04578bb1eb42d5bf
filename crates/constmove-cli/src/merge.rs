//! `constmove merge --workload FILE R1.jsonl [R2.jsonl ...] [--json]`: add up the results
//! files of a workload's parts, in 128 bits, after checking that every unit is there, that
//! a unit counted more than once got the same perft each time, and that no line belongs to
//! another workload. A unit is `verified` only by an independent recount: one under other
//! table keys (another `--hash-seed`, or with against without `--hash`); a line that
//! repeats another's keys (a copied file, a duplicated line) is a duplicate, not a check.

use crate::args::{self, MergeArgs};
use crate::error::{CliError, CliResult};
use crate::json;
use crate::results::{self, UnitResult};
use crate::workload;
use std::io::Write;

/// Problems of one kind are listed up to this many; the rest are counted.
const LISTED: usize = 20;

/// One result with where it was read.
struct Found<'a> {
    result: UnitResult,
    file: &'a str,
    line: usize,
}

/// Runs the `merge` command; `args` are the words after `merge`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed: MergeArgs = args::parse("merge", args)?;
    let Some(workload_file) = parsed.workload.as_deref() else {
        return Err(CliError::usage("merge: --workload FILE is required"));
    };
    if parsed.files.is_empty() {
        return Err(CliError::usage(
            "merge: no results files (give the .jsonl files the parts wrote)",
        ));
    }
    // Each file's real path, looked up once.
    let names: Vec<_> = parsed
        .files
        .iter()
        .map(|path| std::fs::canonicalize(path).ok())
        .collect();
    for (index, path) in parsed.files.iter().enumerate() {
        let repeated = names[index].is_some() && names[..index].contains(&names[index]);
        if repeated {
            // Its units would count as verified by themselves.
            return Err(CliError::usage(format!("merge: {path} is given twice")));
        }
    }
    let units = workload::read(workload_file)?;
    // Every file is read before anything is printed, so bad input leaves no half report.
    let mut by_unit: Vec<Vec<Found>> = (0..units.len()).map(|_| Vec::new()).collect();
    let mut foreign = Vec::new();
    let mut lines = 0usize;
    for path in &parsed.files {
        let file = results::read(path)?;
        if file.torn {
            let _ = writeln!(
                std::io::stderr(),
                "constmove: {path}: an unfinished last line (a run cut off while writing) is not counted"
            );
        }
        for (line, result) in file.results {
            lines += 1;
            match results::foreign(&result, &units) {
                Some(problem) => foreign.push((path.as_str(), line, problem)),
                None => by_unit[result.unit - 1].push(Found {
                    result,
                    file: path,
                    line,
                }),
            }
        }
    }

    let missing: Vec<usize> = (1..=units.len())
        .filter(|number| by_unit[number - 1].is_empty())
        .collect();
    let disagreeing: Vec<usize> = (1..=units.len())
        .filter(|number| {
            let found = &by_unit[number - 1];
            found
                .iter()
                .any(|f| f.result.perft != found[0].result.perft)
        })
        .collect();
    // Distinct table keys (a seed, or none) per agreeing unit: two or more is a recount.
    let mut verified = 0usize;
    let mut duplicates = 0usize;
    for (index, found) in by_unit.iter().enumerate() {
        if disagreeing.binary_search(&(index + 1)).is_ok() {
            continue;
        }
        let mut seeds: Vec<Option<u64>> = found.iter().map(|f| f.result.hash_seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        duplicates += found.len() - seeds.len();
        verified += usize::from(seeds.len() > 1);
    }
    let mut nodes: u128 = 0;
    let mut unit_seconds = 0.0;
    for found in by_unit.iter().filter_map(|found| found.first()) {
        nodes = nodes.checked_add(found.result.nodes()).ok_or_else(|| {
            CliError::usage(
                "merge: the total does not fit in 128 bits (a results line claims an impossible perft)",
            )
        })?;
        unit_seconds += found.result.seconds;
    }
    let ok = missing.is_empty() && disagreeing.is_empty() && foreign.is_empty();

    if parsed.json {
        let list = |numbers: &[usize]| {
            let numbers: Vec<String> = numbers.iter().map(usize::to_string).collect();
            format!("[{}]", numbers.join(","))
        };
        let foreign_json: Vec<String> = foreign
            .iter()
            .map(|(file, line, problem)| {
                format!(
                    "{{\"file\":{},\"line\":{line},\"problem\":{}}}",
                    json::string(file),
                    json::string(problem)
                )
            })
            .collect();
        let total = if ok {
            nodes.to_string()
        } else {
            "null".to_owned()
        };
        writeln!(
            out,
            "{{\"units\":{},\"results\":{lines},\"verified\":{verified},\"duplicates\":{duplicates},\"missing\":{},\"disagreeing\":{},\"foreign\":[{}],\"unit_seconds\":{},\"nodes\":{total}}}",
            units.len(),
            list(&missing),
            list(&disagreeing),
            foreign_json.join(","),
            json::number(unit_seconds, 3),
        )?;
    } else {
        for &number in missing.iter().take(LISTED) {
            writeln!(out, "unit {number} missing: {}", units[number - 1])?;
        }
        for &number in disagreeing.iter().take(LISTED) {
            let counts: Vec<String> = by_unit[number - 1]
                .iter()
                .map(|found| {
                    let seed = found
                        .result
                        .hash_seed
                        .map_or_else(|| "no table".to_owned(), |seed| format!("seed {seed}"));
                    format!(
                        "{} ({}:{}, {seed})",
                        found.result.perft, found.file, found.line
                    )
                })
                .collect();
            writeln!(
                out,
                "unit {number} disagreeing: perft {}",
                counts.join(", ")
            )?;
        }
        for (file, line, problem) in foreign.iter().take(LISTED) {
            writeln!(out, "line {file}:{line} foreign: {problem}")?;
        }
        writeln!(out, "units {}", units.len())?;
        writeln!(out, "results {lines}")?;
        writeln!(out, "verified {verified}")?;
        writeln!(out, "duplicates {duplicates}")?;
        if !ok {
            writeln!(out, "missing {}", missing.len())?;
            writeln!(out, "disagreeing {}", disagreeing.len())?;
            writeln!(out, "foreign {}", foreign.len())?;
        }
        writeln!(out, "unit_seconds {unit_seconds:.3}")?;
        if ok {
            writeln!(out, "nodes {nodes}")?;
        }
    }
    if ok {
        return Ok(0);
    }
    // The report is out already; this is the one line that explains the status.
    let _ = writeln!(
        std::io::stderr(),
        "constmove: merge: no total: {} units missing, {} disagreeing, {} foreign results",
        missing.len(),
        disagreeing.len(),
        foreign.len()
    );
    Ok(1)
}
