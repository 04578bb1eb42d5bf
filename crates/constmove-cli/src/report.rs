//! What `perft` and `perft --workload` share: how a count runs ([`Setup`]), what it found
//! ([`Report`]), how it is written (text or JSON) and the exit status it ends with.

use crate::error::{CliError, CliResult};
use crate::interrupt;
use crate::json;
use constmove::deep::{HashTable, StatsTable, TableStats};
use constmove::{Backend, PerftOptions, PerftStats};
use std::io::Write;

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
    /// `--hash-seed N`: the stream the table's keys are drawn from.
    pub hash_seed: u64,
}

/// With `--verify`, about one hit in this many is recounted without the table.
const VERIFY_EVERY: u64 = 1024;

impl Setup {
    /// The table if `--hash` was given: of that size, or of `useful()` bytes if that is
    /// less (a table larger than the run can fill only costs time to map and zero).
    pub fn table(&self, useful: impl FnOnce() -> u64) -> CliResult<Option<HashTable>> {
        let Some(bytes) = self.table_bytes(useful)? else {
            return Ok(None);
        };
        let table = HashTable::new(bytes)
            .map_err(|error| CliError::usage(format!("--hash: {error} (try a smaller size)")))?;
        let every = if self.verify { VERIFY_EVERY } else { 0 };
        Ok(Some(table.verify_every(every).key_seed(self.hash_seed)))
    }

    /// The statistics table if `--hash` was given, sized as [`Setup::table`].
    pub fn stats_table(&self, useful: impl FnOnce() -> u64) -> CliResult<Option<StatsTable>> {
        let Some(bytes) = self.table_bytes(useful)? else {
            return Ok(None);
        };
        let table = StatsTable::new(bytes)
            .map_err(|error| CliError::usage(format!("--hash: {error} (try a smaller size)")))?;
        Ok(Some(table.key_seed(self.hash_seed)))
    }

    /// `--hash`'s size capped by `useful()`, in bytes this machine can address.
    fn table_bytes(&self, useful: impl FnOnce() -> u64) -> CliResult<Option<usize>> {
        let Some(asked) = self.hash else {
            return Ok(None);
        };
        let bytes = usize::try_from(asked.min(useful()))
            .map_err(|_| CliError::usage("--hash is larger than this machine can address"))?;
        Ok(Some(bytes))
    }

    /// The library's options: the threads and backend, Ctrl-C's stop flag, and `table`.
    pub fn options<'a>(&self, table: Option<&'a HashTable>) -> PerftOptions<'a> {
        let options = PerftOptions::new()
            .threads(self.threads)
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
    /// Leaves at the requested depth (with `complete == false`, of the finished part only);
    /// a workload's total can pass 2⁶⁴.
    pub nodes: u128,
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
    /// With `--results`: how many of the units were already in the results file.
    pub resumed: Option<usize>,
    /// The nodes this run counted itself, where `nodes` also holds resumed ones: the speed
    /// is of these.
    pub counted: Option<u128>,
}

impl Report {
    /// Nodes per second; 0 when the run was too fast for the clock to see, rather than
    /// dividing by zero.
    fn nps(&self) -> f64 {
        if self.seconds > 0.0 {
            self.counted.unwrap_or(self.nodes) as f64 / self.seconds
        } else {
            0.0
        }
    }
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

/// For a count that did not stop within [`crate::progress::GRACE`] of Ctrl-C: writes
/// `report` (what is known to be finished) and `message` (after `interrupted: `) and returns
/// the status to exit with, 130. Workers still running are left to the exit.
pub fn late_exit(report: &Report, setup: &Setup, message: &str) -> u8 {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Nobody may be left to read: the exit status still tells.
    let _ = write_report(&mut out, report, setup);
    let _ = out.flush();
    let _ = writeln!(std::io::stderr(), "constmove: interrupted: {message}");
    interrupt::EXIT_INTERRUPTED
}

/// Leaves a table to the process's exit instead of unmapping it now: a table of gigabytes
/// takes a noticeable time to give back page by page, and the results are ready before it.
pub fn release<T>(table: Option<T>) {
    std::mem::forget(table);
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
    if let Some(resumed) = report.resumed {
        writeln!(out, "resumed {resumed}")?;
    }
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
    if let Some(resumed) = report.resumed {
        write!(out, ",\"resumed\":{resumed}")?;
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
