//! `instruction-gate`: compares the instruction counts of `benches/instructions.rs` (the JSON
//! lines iai-callgrind prints with `--output-format=json`) with the budgets committed in
//! `benches/instruction-budgets.toml`, or rewrites that file from a run.
//!
//! ```text
//! instruction-gate check  BUDGETS SUMMARY RUSTC_VERSION   # exit 1 on any breach
//! instruction-gate update BUDGETS SUMMARY RUSTC_VERSION   # budgets := this run's counts
//! ```
//!
//! `.ci/instructions-gate` builds and runs the benchmarks and calls this; use that script.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

/// A count may exceed its budget by this many percent before the gate fails.
const TOLERANCE_PERCENT: u64 = 1;

/// The committed budgets: benchmark name → instructions, and the compiler that measured them.
#[derive(Debug, PartialEq)]
struct Budgets {
    rustc: String,
    counts: BTreeMap<String, u64>,
}

/// Reads the budgets file: `rustc = "…"` and `"name" = count` lines, `#` comments, and
/// `[section]` headers (ignored), the subset of TOML that [`render_budgets`] writes.
fn parse_budgets(text: &str) -> Result<Budgets, String> {
    let mut rustc = None;
    let mut counts = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line {}: expected `key = value`", number + 1))?;
        let key = key.trim().trim_matches('"');
        let value = value.trim();
        if key == "rustc" {
            rustc = Some(value.trim_matches('"').to_string());
        } else {
            let count = value
                .replace('_', "")
                .parse::<u64>()
                .map_err(|_| format!("line {}: `{value}` is not a count", number + 1))?;
            if counts.insert(key.to_string(), count).is_some() {
                return Err(format!("line {}: `{key}` appears twice", number + 1));
            }
        }
    }
    let rustc = rustc.ok_or("no `rustc = \"…\"` line (the compiler the budgets belong to)")?;
    Ok(Budgets { rustc, counts })
}

/// The budgets file for `budgets`, with the procedure in its header.
fn render_budgets(budgets: &Budgets) -> String {
    let mut text = String::from(
        "# Instruction budgets of benches/instructions.rs, checked by .ci/instructions-gate: CI fails\n\
         # when a count rises more than 1% above its budget. Regenerate with\n\
         # `.ci/instructions-gate --update`. Lowering a budget is a normal commit; raising one needs\n\
         # the reason in the commit message. Counts depend on the compiler, so they belong to the\n\
         # rustc below (counted build: target CPU x86-64, no RUSTFLAGS, bench profile).\n",
    );
    let _ = writeln!(text, "rustc = \"{}\"\n\n[budgets]", budgets.rustc);
    for (name, count) in &budgets.counts {
        let _ = writeln!(text, "\"{name}\" = {}", group_digits(*count, '_'));
    }
    text
}

/// `count` with `separator` between groups of three digits.
fn group_digits(count: u64, separator: char) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(digit);
    }
    out
}

/// The instruction count (callgrind `Ir`, this run) of every benchmark in iai-callgrind's JSON
/// lines, named `function.id` (e.g. `perft.start_d5_pext`).
fn parse_summaries(text: &str) -> Result<BTreeMap<String, u64>, String> {
    let mut counts = BTreeMap::new();
    for line in text
        .lines()
        .filter(|line| line.trim_start().starts_with('{'))
    {
        let summary: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("summary is not JSON: {e}"))?;
        let function = summary["function_name"]
            .as_str()
            .ok_or("no function_name")?;
        let name = match summary["id"].as_str() {
            Some(id) => format!("{function}.{id}"),
            None => function.to_string(),
        };
        let profiles = summary["profiles"].as_array().ok_or("no profiles")?;
        let callgrind = profiles
            .iter()
            .find(|profile| profile["tool"] == "Callgrind")
            .ok_or_else(|| format!("{name}: no callgrind profile"))?;
        let metrics = &callgrind["summaries"]["total"]["summary"]["Callgrind"]["Ir"]["metrics"];
        // `Left` is this run alone, `Both` is [this run, the previous run].
        let new = metrics
            .get("Left")
            .or_else(|| metrics.get("Both").and_then(|both| both.get(0)))
            .and_then(|metric| metric["Int"].as_u64())
            .ok_or_else(|| format!("{name}: no instruction count in {metrics}"))?;
        if counts.insert(name.clone(), new).is_some() {
            return Err(format!("{name} appears twice in the summary"));
        }
    }
    if counts.is_empty() {
        return Err("the summary holds no benchmarks".to_string());
    }
    Ok(counts)
}

/// The gate's verdict: the lines to print and whether it failed.
struct Verdict {
    lines: Vec<String>,
    failed: bool,
}

/// Compares `measured` with `budgets`: a count more than [`TOLERANCE_PERCENT`] over its
/// budget, a benchmark without a budget or a budget without a benchmark fails, and so does a
/// compiler other than the one the budgets belong to (its counts are not comparable).
fn compare(budgets: &Budgets, measured: &BTreeMap<String, u64>, rustc: &str) -> Verdict {
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    if budgets.rustc != rustc {
        failures.push(format!(
            "FAIL compiler: budgets were measured with `{}`, this is `{rustc}`; re-measure with \
             `.ci/instructions-gate --update` and commit the new budgets with the reason",
            budgets.rustc
        ));
    }
    lines.push(format!(
        "{:<34} {:>15} {:>15} {:>8}",
        "benchmark", "budget", "measured", "change"
    ));
    for (name, &count) in measured {
        let Some(&budget) = budgets.counts.get(name) else {
            failures.push(format!(
                "FAIL {name}: {} instructions and no budget; add one with `.ci/instructions-gate --update`",
                group_digits(count, ',')
            ));
            continue;
        };
        let change = (count as f64 - budget as f64) / budget as f64 * 100.0;
        lines.push(format!(
            "{name:<34} {:>15} {:>15} {change:>+7.2}%",
            group_digits(budget, ','),
            group_digits(count, ',')
        ));
        // Integer test: exactly "more than 1% above", free of rounding.
        if u128::from(count) * 100 > u128::from(budget) * u128::from(100 + TOLERANCE_PERCENT) {
            failures.push(format!(
                "FAIL {name}: {} instructions, budget {} ({change:+.2}%, limit +{TOLERANCE_PERCENT}%)",
                group_digits(count, ','),
                group_digits(budget, ','),
            ));
        } else if u128::from(count) * 100 < u128::from(budget) * u128::from(100 - TOLERANCE_PERCENT)
        {
            lines.push(format!(
                "note {name}: {change:+.2}% below budget; lower it with `.ci/instructions-gate --update`"
            ));
        }
    }
    for name in budgets
        .counts
        .keys()
        .filter(|name| !measured.contains_key(*name))
    {
        failures.push(format!("FAIL {name}: has a budget but was not measured"));
    }
    let failed = !failures.is_empty();
    lines.extend(failures.iter().cloned());
    lines.push(if failed {
        format!(
            "instruction gate FAILED: {} problem(s) in {} benchmarks",
            failures.len(),
            measured.len()
        )
    } else {
        format!(
            "instruction gate passed: {} benchmarks within {TOLERANCE_PERCENT}% of their budgets",
            measured.len()
        )
    });
    Verdict { lines, failed }
}

/// Runs one command; `Ok(true)` when the gate passed.
fn run(args: &[String]) -> Result<bool, String> {
    let [command, budgets_path, summary_path, rustc] = args else {
        return Err("usage: instruction-gate check|update BUDGETS SUMMARY RUSTC_VERSION".into());
    };
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let measured = parse_summaries(&read(summary_path)?)?;
    match command.as_str() {
        "check" => {
            let budgets =
                parse_budgets(&read(budgets_path)?).map_err(|e| format!("{budgets_path}: {e}"))?;
            let verdict = compare(&budgets, &measured, rustc);
            for line in verdict.lines {
                println!("{line}");
            }
            Ok(!verdict.failed)
        }
        "update" => {
            let old = std::fs::read_to_string(budgets_path)
                .ok()
                .and_then(|text| parse_budgets(&text).ok());
            for (name, count) in &measured {
                let before = old.as_ref().and_then(|b| b.counts.get(name));
                match before {
                    Some(&before) if *count > before => println!(
                        "raised {name}: {} -> {} (say why in the commit message)",
                        group_digits(before, ','),
                        group_digits(*count, ',')
                    ),
                    Some(&before) if *count < before => println!(
                        "lowered {name}: {} -> {}",
                        group_digits(before, ','),
                        group_digits(*count, ',')
                    ),
                    Some(_) => {}
                    None => println!("new {name}: {}", group_digits(*count, ',')),
                }
            }
            let budgets = Budgets {
                rustc: rustc.clone(),
                counts: measured,
            };
            std::fs::write(budgets_path, render_budgets(&budgets))
                .map_err(|e| format!("{budgets_path}: {e}"))?;
            println!("wrote {budgets_path}");
            Ok(true)
        }
        other => Err(format!("unknown command `{other}` (check or update)")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("instruction-gate: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUSTC: &str = "rustc 1.95.0 (59807616e 2026-04-14)";

    fn budgets(pairs: &[(&str, u64)]) -> Budgets {
        Budgets {
            rustc: RUSTC.to_string(),
            counts: pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect(),
        }
    }

    fn measured(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect()
    }

    #[test]
    fn budgets_round_trip_through_the_file() {
        let original = budgets(&[("perft.start_d5_pext", 53_912_345), ("a.b", 7)]);
        assert_eq!(parse_budgets(&render_budgets(&original)), Ok(original));
    }

    #[test]
    fn exactly_one_percent_over_passes_and_one_more_fails() {
        let limit = budgets(&[("x", 100_000)]);
        assert!(!compare(&limit, &measured(&[("x", 101_000)]), RUSTC).failed);
        let verdict = compare(&limit, &measured(&[("x", 101_001)]), RUSTC);
        assert!(verdict.failed);
        assert!(
            verdict
                .lines
                .iter()
                .any(|l| l.starts_with("FAIL x: 101,001 instructions, budget 100,000"))
        );
    }

    #[test]
    fn missing_budgets_benchmarks_and_other_compilers_fail() {
        let limit = budgets(&[("x", 10)]);
        assert!(compare(&limit, &measured(&[("x", 10), ("y", 5)]), RUSTC).failed);
        assert!(
            compare(
                &budgets(&[("x", 10), ("y", 5)]),
                &measured(&[("x", 10)]),
                RUSTC
            )
            .failed
        );
        assert!(compare(&limit, &measured(&[("x", 10)]), "rustc 1.96.0").failed);
        assert!(!compare(&limit, &measured(&[("x", 9)]), RUSTC).failed);
    }

    #[test]
    fn reads_this_run_from_left_or_both() {
        let line = |metrics: &str| {
            format!(
                r#"{{"function_name":"perft","id":"start","profiles":[{{"tool":"Callgrind","summaries":{{"total":{{"summary":{{"Callgrind":{{"Ir":{{"metrics":{metrics}}}}}}}}}}}}}]}}"#
            )
        };
        let left = parse_summaries(&line(r#"{"Left":{"Int":42}}"#)).unwrap();
        assert_eq!(left["perft.start"], 42);
        let both = parse_summaries(&line(r#"{"Both":[{"Int":43},{"Int":42}]}"#)).unwrap();
        assert_eq!(both["perft.start"], 43);
    }
}
