//! Results files: `perft --workload FILE --results R.jsonl` appends one JSON line per
//! finished unit, a later run with the same file counts only the units not in it (resume),
//! and `merge` adds up the lines of many files. This module owns the line format, reading
//! a file back and checking its lines against the workload.
//!
//! A line is `{"unit":U,"fen":F,"depth":D,"count":C,"perft":P,"nodes":N,"seconds":S,
//! "hash_seed":K}`: U the unit's number in the workload (from 1, as `--part` counts), F, D
//! and C the unit's own, P its perft, N = C × P (exact, past 2⁶⁴ if need be), S the seconds
//! its thread took, K the table's key seed (`null` without `--hash`). Each line is written
//! with one `write` when its unit is complete, so a killed run leaves whole lines, and at
//! most an unfinished last one, which readers set aside.

use crate::error::{CliError, CliResult};
use crate::input::{self, Bounds};
use crate::json::{self, Value};
use constmove::Position;
use constmove::deep::WorkUnit;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::Mutex;

/// A results line is under 300 bytes; a file has one per unit of a workload (9.4 million
/// for a ply-6 split of the start position).
const BOUNDS: Bounds = Bounds {
    what: "results",
    line: 4096,
    total: 8 << 30,
};

/// One finished unit, as a results line holds it.
#[derive(Clone, PartialEq, Debug)]
pub struct UnitResult {
    /// The unit's number in the workload, from 1.
    pub unit: usize,
    /// The unit's FEN, as `Position`'s `Display` writes it.
    pub fen: String,
    /// The unit's depth.
    pub depth: u32,
    /// The unit's count (its weight).
    pub count: u64,
    /// The unit's perft at `depth`.
    pub perft: u64,
    /// Seconds its thread spent on it.
    pub seconds: f64,
    /// The table's key seed, or `None` when it was counted without a table.
    pub hash_seed: Option<u64>,
}

impl UnitResult {
    /// `count × perft`: the unit's share of the total.
    pub fn nodes(&self) -> u128 {
        u128::from(self.count) * u128::from(self.perft)
    }

    /// Whether this is a result of `unit`, the workload's unit number `self.unit`.
    pub fn is_of(&self, unit: &WorkUnit) -> bool {
        self.fen == unit.position.to_string()
            && self.depth == unit.depth
            && self.count == unit.count
    }

    /// The line, with its newline.
    pub fn to_line(&self) -> String {
        let seed = self
            .hash_seed
            .map_or_else(|| "null".to_owned(), |seed| seed.to_string());
        format!(
            "{{\"unit\":{},\"fen\":{},\"depth\":{},\"count\":{},\"perft\":{},\"nodes\":{},\"seconds\":{},\"hash_seed\":{seed}}}\n",
            self.unit,
            json::string(&self.fen),
            self.depth,
            self.count,
            self.perft,
            self.nodes(),
            json::number(self.seconds, 3),
        )
    }

    /// Reads one line (without its newline); the error names the field that is wrong.
    pub fn parse(line: &str) -> Result<UnitResult, String> {
        let pairs = json::parse_flat_object(line)?;
        for (index, (key, _)) in pairs.iter().enumerate() {
            if pairs[..index].iter().any(|(earlier, _)| earlier == key) {
                return Err(format!("field {key:?} is given twice"));
            }
        }
        let field = |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value)
                .ok_or_else(|| format!("no field {name:?}"))
        };
        let whole = |name: &str| -> Result<u128, String> {
            match field(name)? {
                Value::Number(text) if text.bytes().all(|byte| byte.is_ascii_digit()) => text
                    .parse()
                    .map_err(|_| format!("field {name:?} is too large")),
                _ => Err(format!("field {name:?} is not a whole number")),
            }
        };
        let fits = |name: &str, value: u128| -> Result<u64, String> {
            u64::try_from(value).map_err(|_| format!("field {name:?} is too large"))
        };
        let fen = match field("fen")? {
            Value::String(fen) => Position::from_fen(fen)
                .map_err(|error| format!("field \"fen\": {error}"))?
                .to_string(),
            _ => return Err("field \"fen\" is not a string".to_owned()),
        };
        let unit = usize::try_from(whole("unit")?)
            .ok()
            .filter(|&unit| unit >= 1)
            .ok_or("field \"unit\" is not a unit number (from 1)")?;
        let depth = u32::try_from(whole("depth")?).map_err(|_| "field \"depth\" is too large")?;
        let result = UnitResult {
            unit,
            fen,
            depth,
            count: fits("count", whole("count")?)?,
            perft: fits("perft", whole("perft")?)?,
            seconds: match field("seconds")? {
                Value::Number(text) => text
                    .parse()
                    .ok()
                    .filter(|seconds: &f64| *seconds >= 0.0)
                    .ok_or("field \"seconds\" is not a time in seconds")?,
                _ => return Err("field \"seconds\" is not a number".to_owned()),
            },
            hash_seed: match field("hash_seed")? {
                Value::Null => None,
                _ => Some(fits("hash_seed", whole("hash_seed")?)?),
            },
        };
        if whole("nodes")? != result.nodes() {
            return Err(format!(
                "field \"nodes\" is not count x perft ({} x {} = {})",
                result.count,
                result.perft,
                result.nodes()
            ));
        }
        Ok(result)
    }
}

/// A results file read back.
pub struct ResultsFile {
    /// Each result with its line number.
    pub results: Vec<(usize, UnitResult)>,
    /// The bytes up to the end of the last whole line.
    pub whole_bytes: u64,
    /// Whether the file ends without a newline after a line that is a whole result.
    pub lacks_newline: bool,
    /// Whether an unfinished last line (no newline, not a whole result) was set aside.
    pub torn: bool,
}

/// Reads `path`. A last line without its newline that does not read as a result is the
/// remains of a run cut off while writing: it is set aside (`torn`), not an error. Any
/// other line that does not read is an error naming `path:line`.
pub fn read(path: &str) -> CliResult<ResultsFile> {
    let bytes = input::read_bounded(path, BOUNDS)?;
    let ends_whole = bytes.is_empty() || bytes.ends_with(b"\n");
    let mut file = ResultsFile {
        results: Vec::new(),
        whole_bytes: bytes.len() as u64,
        lacks_newline: false,
        torn: false,
    };
    let pieces: Vec<&[u8]> = bytes.split_inclusive(|&byte| byte == b'\n').collect();
    for (number, piece) in (1..).zip(&pieces) {
        let last_unfinished = number == pieces.len() && !ends_whole;
        let parsed = std::str::from_utf8(piece)
            .map_err(|_| "the line is not valid UTF-8".to_owned())
            .and_then(|line| {
                let line = line.trim();
                if line.is_empty() {
                    return Ok(None);
                }
                UnitResult::parse(line).map(Some)
            });
        match parsed {
            Ok(Some(result)) => {
                file.lacks_newline = last_unfinished;
                file.results.push((number, result));
            }
            Ok(None) => {}
            // Only the start of one of our lines counts as torn: anything else (another
            // file given by mistake) is an error, and nothing is cut.
            Err(_) if last_unfinished && is_line_start(piece) => {
                file.torn = true;
                file.whole_bytes -= piece.len() as u64;
            }
            Err(error) => return Err(CliError::usage(format!("{path}:{number}: {error}"))),
        }
    }
    Ok(file)
}

/// Whether `piece` is the start of a results line (`{"unit":`, or a part of that).
fn is_line_start(piece: &[u8]) -> bool {
    const START: &[u8] = b"{\"unit\":";
    let n = piece.len().min(START.len());
    !piece.is_empty() && piece[..n] == START[..n]
}

/// Checks that every result of `file` (read from `path`) is of the unit of `units` it names;
/// the error names the first line that is not, as from another workload.
pub fn check_against(path: &str, file: &ResultsFile, units: &[WorkUnit]) -> CliResult<()> {
    for (line, result) in &file.results {
        if let Some(problem) = foreign(result, units) {
            return Err(CliError::usage(format!(
                "{path}:{line}: {problem} (a results file of another workload?)"
            )));
        }
    }
    Ok(())
}

/// Why `result` is not a result of this workload's unit `result.unit`, if it is not.
pub fn foreign(result: &UnitResult, units: &[WorkUnit]) -> Option<String> {
    match units.get(result.unit - 1) {
        None => Some(format!(
            "unit {} is past the workload's {} units",
            result.unit,
            units.len()
        )),
        Some(unit) if !result.is_of(unit) => Some(format!(
            "unit {} is `{unit}` in the workload, not `{} ;count {} ;depth {}`",
            result.unit, result.fen, result.count, result.depth
        )),
        Some(_) => None,
    }
}

/// A results file open for appending, shared by the worker threads.
pub struct ResultsLog {
    path: String,
    file: Mutex<(File, Option<io::Error>)>,
}

impl ResultsLog {
    /// Opens `path` for appending (creating it), after cutting off the unfinished last line
    /// `existing` found, if any, or ending its last whole result with a newline.
    pub fn open(path: &str, existing: Option<&ResultsFile>) -> CliResult<ResultsLog> {
        let cannot =
            |error: io::Error| CliError::usage(format!("cannot write results {path:?}: {error}"));
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(cannot)?;
        if let Some(existing) = existing {
            if existing.torn {
                file.set_len(existing.whole_bytes).map_err(cannot)?;
                let _ = writeln!(
                    io::stderr(),
                    "constmove: {path}: set aside an unfinished last line (a run cut off while writing)"
                );
            }
            if existing.lacks_newline {
                file.write_all(b"\n").map_err(cannot)?;
            }
        }
        Ok(ResultsLog {
            path: path.to_owned(),
            file: Mutex::new((file, None)),
        })
    }

    /// Appends `result` with one write. After a failed write nothing more is written and
    /// [`ResultsLog::finish`] reports it; the return value says whether this one failed.
    pub fn append(&self, result: &UnitResult) -> bool {
        let mut guard = self
            .file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let (file, error) = &mut *guard;
        if error.is_some() {
            return false;
        }
        // `File` is unbuffered: one `write_all` of the whole line is one system call for any
        // line this short, so a kill never leaves half of it behind a finished unit.
        match file.write_all(result.to_line().as_bytes()) {
            Ok(()) => true,
            Err(failure) => {
                *error = Some(failure);
                false
            }
        }
    }

    /// The message for the first write error, if there was one.
    pub fn error(&self) -> Option<String> {
        let guard = self
            .file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        guard.1.as_ref().map(|error| write_error(&self.path, error))
    }

    /// The first write error, if any.
    pub fn finish(self) -> CliResult<()> {
        match self.error() {
            Some(message) => Err(CliError::usage(message)),
            None => Ok(()),
        }
    }
}

/// Why results could not be written; a full disk is named as such.
fn write_error(path: &str, error: &io::Error) -> String {
    let full = if error.kind() == io::ErrorKind::StorageFull {
        "the disk is full: "
    } else {
        ""
    };
    format!("cannot write results {path:?}: {full}{error} (the lines before it are kept)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> UnitResult {
        UnitResult {
            unit: 3,
            fen: Position::startpos().to_string(),
            depth: 4,
            count: u64::MAX,
            perft: 197_281,
            seconds: 0.25,
            hash_seed: Some(7),
        }
    }

    #[test]
    fn lines_round_trip_past_64_bits() {
        let result = sample();
        let line = result.to_line();
        assert!(line.contains(&format!("\"nodes\":{}", u128::from(u64::MAX) * 197_281)));
        assert_eq!(UnitResult::parse(line.trim_end()), Ok(result.clone()));
        let unseeded = UnitResult {
            hash_seed: None,
            ..result
        };
        assert!(unseeded.to_line().contains("\"hash_seed\":null"));
        assert_eq!(
            UnitResult::parse(unseeded.to_line().trim_end()),
            Ok(unseeded)
        );
    }

    #[test]
    fn bad_lines_name_the_field() {
        let line = sample().to_line();
        let error = |from: &str, to: &str| {
            UnitResult::parse(line.trim_end().replacen(from, to, 1).as_str()).unwrap_err()
        };
        assert_eq!(
            error("\"perft\":197281", "\"perft\":197282"),
            format!(
                "field \"nodes\" is not count x perft ({} x 197282 = {})",
                u64::MAX,
                u128::from(u64::MAX) * 197_282
            )
        );
        assert_eq!(
            error("\"unit\":3", "\"unit\":0"),
            "field \"unit\" is not a unit number (from 1)"
        );
        assert_eq!(error("\"depth\":4,", ""), "no field \"depth\"");
        assert_eq!(
            error("\"depth\":4", "\"depth\":-4"),
            "field \"depth\" is not a whole number"
        );
        assert_eq!(
            error("\"unit\":3", "\"unit\":3,\"unit\":3"),
            "field \"unit\" is given twice"
        );
        assert!(error("rnbqkbnr/", "rnbqkbnrr/").starts_with("field \"fen\": invalid FEN"));
        assert_eq!(
            error("\"hash_seed\":7", "\"hash_seed\":\"7\""),
            "field \"hash_seed\" is not a whole number"
        );
    }
}
