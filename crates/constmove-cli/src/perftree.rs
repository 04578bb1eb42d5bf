//! `constmove perftree DEPTH FEN [MOVES]`: the protocol of the perftree debugger
//! (github.com/agnishom/perftree), which runs the command as `constmove perftree "$depth"
//! "$fen" "$moves"` and reads back `move count` lines, a blank line and the total.
//!
//! Nothing but that goes to stdout, since perftree parses it.

use crate::args::{self, Spec};
use crate::error::{CliError, CliResult};
use crate::perft::divide_sorted;
use constmove::Position;
use std::io::Write;

const SPEC: Spec = Spec {
    flags: &[],
    valued: &["--backend"],
};

/// Runs the `perftree` command; `args` are the words after `perftree`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed = args::parse(args, &SPEC)?;
    let (depth, fen, moves) = match parsed.positionals.as_slice() {
        [depth, fen, moves @ ..] => (args::parse_depth(depth)?, fen, moves),
        [_] => return Err(CliError::usage("perftree: missing argument FEN")),
        [] => return Err(CliError::usage("perftree: missing arguments DEPTH FEN")),
    };
    let backend = args::backend(&parsed)?;
    let mut position = args::parse_fen(fen)?;
    // perftree passes the moves as one argument ("e2e4 e7e5", possibly ""), a shell user
    // may pass them as several: both read the same once joined.
    play_moves(&mut position, &moves.join(" "))?;

    let divide = divide_sorted(&position, depth, backend)?;
    for (mv, count) in &divide {
        writeln!(out, "{mv} {count}")?;
    }
    writeln!(out)?;
    // At depth 0 the divide is empty but the tree still has one node.
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, count)| count).sum()
    };
    writeln!(out, "{total}")?;
    Ok(0)
}

/// Plays the whitespace-separated UCI `moves` in order; an error names the move and its
/// 1-based index, since the failing move may be deep in a long line.
fn play_moves(position: &mut Position, moves: &str) -> CliResult<()> {
    for (index, text) in moves.split_whitespace().enumerate() {
        let number = index + 1;
        position
            .parse_uci(text)
            .and_then(|mv| position.play(mv))
            .map_err(|error| CliError::usage(format!("move {number} {text:?}: {error}")))?;
    }
    Ok(())
}
