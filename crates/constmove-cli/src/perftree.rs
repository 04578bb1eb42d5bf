//! `constmove perftree DEPTH FEN [MOVES] [--chess960]`: the protocol of the perftree
//! debugger (github.com/agausmann/perftree), which runs the command as `constmove perftree
//! "$depth" "$fen" "$moves"` and reads back `move count` lines, a blank line and the total.
//! Promotions are read in either case (`a7b8Q`, as perftree's README and Stockfish write
//! them, or `a7b8q`); `--chess960` reads and writes castles king-takes-rook (`e1h1`), as
//! Stockfish does in Chess960 mode.
//!
//! Nothing but that goes to stdout, since perftree parses it.

use crate::args::{self, PerftreeArgs};
use crate::error::{CliError, CliResult};
use crate::input::quote;
use crate::perft::divide_sorted;
use crate::uci::parse_move;
use constmove::Position;
use std::io::Write;

/// Runs the `perftree` command; `args` are the words after `perftree`.
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let parsed: PerftreeArgs = args::parse("perftree", args)?;
    let (depth, moves) = (parsed.depth, &parsed.moves);
    let backend = args::backend(parsed.backend)?;
    let mut position = args::parse_fen(&parsed.fen)?;
    if parsed.chess960 {
        position = position.into_chess960();
    }
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
        let failed =
            |error: String| CliError::usage(format!("move {number} {}: {error}", quote(text)));
        let mv = parse_move(position, text).map_err(failed)?;
        position
            .play(mv)
            .map_err(|error| failed(error.to_string()))?;
    }
    Ok(())
}
