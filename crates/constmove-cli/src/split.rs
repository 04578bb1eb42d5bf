//! `constmove split DEPTH --ply K [--fen FEN]`: write the unique positions K plies below the
//! root as work units, one EPD line each (`<fen> ;count N ;depth D`), for
//! `constmove perft --workload` on this or other machines.
//!
//! The units come between a header comment (`# constmove split: units N, depth D, ply K,
//! root FEN`) and a closing one (`# constmove split end: N units`), so that a file cut short
//! (a Ctrl-C on `split > file`, a full disk) is told from a whole one: `perft --workload`
//! and `merge` refuse it, naming how many lines are missing.

use crate::args::{self, SplitArgs};
use crate::error::{CliError, CliResult};
use crate::workload::{CLOSING, HEADER};
use constmove::Position;
use constmove::deep::try_split;
use std::io::Write;

/// The deepest split accepted: ply 6 of the start position is 9.4 million lines (776 MB of
/// text, about 1 GB of memory); a deeper one is almost surely a typo.
const MAX_PLY: u32 = 6;

/// Runs the `split` command; `args` are the words after `split`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed: SplitArgs = args::parse("split", args)?;
    let depth = parsed.depth;
    let Some(ply) = parsed.ply.as_deref() else {
        return Err(CliError::usage("split: --ply K is required"));
    };
    let ply = match args::whole_number::<u32>(ply) {
        Some(ply) if ply > depth => {
            return Err(CliError::usage(format!(
                "--ply {ply} must be at most the depth ({depth})"
            )));
        }
        Some(ply) if ply > MAX_PLY => {
            return Err(CliError::usage(format!(
                "--ply {ply} is too large (at most {MAX_PLY}: ply 6 of the start position \
                 is already 9.4 million lines)"
            )));
        }
        Some(ply) => ply,
        None => {
            return Err(CliError::usage(format!(
                "invalid --ply {ply:?}: expected a whole number from 0 to the depth"
            )));
        }
    };
    let position = match parsed.fen.as_deref() {
        Some(fen) => args::parse_fen(fen)?,
        None => Position::startpos(),
    };
    let position = if parsed.chess960 {
        position.into_chess960()
    } else {
        position
    };
    let units = try_split(&position, depth, ply)
        .map_err(|error| CliError::usage(format!("split: {error}; use a smaller --ply")))?;
    // Buffered: stdout flushes every line, and a split can be millions of lines.
    let mut buffered = std::io::BufWriter::new(out);
    let count = units.len();
    writeln!(
        buffered,
        "{HEADER}{count}, depth {depth}, ply {ply}, root {position}"
    )?;
    for unit in units {
        writeln!(buffered, "{unit}")?;
    }
    writeln!(buffered, "{CLOSING}{count} units")?;
    buffered.flush()?;
    Ok(0)
}
