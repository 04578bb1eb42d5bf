//! `constmove uci`: the part of the UCI protocol that perft harnesses speak (the Grand Chess
//! Tree's perft checker and leaderboard drive engines with `go perft`). Commands are read
//! from stdin, one a line: `uci`, `isready`, `ucinewgame`, `position startpos|fen FEN
//! [moves M...]`, `go perft N`, `setoption name Threads|Hash|UCI_Chess960 value V`, `stop`
//! and `quit`. `go perft N` answers as Stockfish does: `move: count` for each root move
//! (sorted by move text), a blank line, `Nodes searched: N` and a blank line.
//!
//! Bad input never ends the session: each bad command gets one `info string` line and is
//! otherwise ignored. A `position` command that fails leaves no position, so a following
//! `go perft` is refused rather than counting the previous one.

use crate::args;
use crate::error::{CliError, CliResult};
use crate::input::quote;
use constmove::deep::{HashTable, divide_parallel};
use constmove::{Backend, PerftOptions, Position};
use std::io::{BufRead, Read, Write};

/// The longest command line read: a `position` with a game of a few thousand plies.
const MAX_LINE: usize = 64 << 10;
/// The deepest `go perft`: deeper than the command line's 20, since published files count
/// forced lines to depth 32 (`perft 32 1`); a harness, not a typing hand, sends it.
const MAX_DEPTH: u32 = 128;
/// The largest `Hash` value, in MiB (1 TiB, as `--hash`).
const MAX_HASH_MB: u64 = 1 << 20;

/// The session's state.
struct Session {
    /// The position `go perft` counts; `None` after a failed `position` command.
    position: Option<Position>,
    threads: usize,
    /// The table size in MiB, 0 for none.
    hash_mb: u64,
    chess960: bool,
    backend: Backend,
}

/// Runs the `uci` command on stdin; `args` are the words after `uci` (none).
pub fn run(args: &[String], out: &mut impl Write) -> CliResult {
    // No options: the commands come on stdin.
    let _: args::UciArgs = args::parse("uci", args)?;
    let backend = Backend::Auto
        .resolve()
        .map_err(|error| CliError::usage(error.to_string()))?;
    let mut session = Session {
        position: Some(Position::startpos()),
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        hash_mb: 0,
        chess960: false,
        backend,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|error| CliError::usage(format!("uci: cannot read stdin: {error}")))?;
        if read == 0 {
            return Ok(0);
        }
        if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            // Skip the rest of the line, still within bounded reads.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let read = (&mut input)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut rest)
                    .unwrap_or(0);
                if read == 0 || rest.ends_with(b"\n") {
                    break;
                }
            }
            writeln!(out, "info string line longer than {MAX_LINE} bytes ignored")?;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if !session.command(text.trim(), out)? {
            return Ok(0);
        }
    }
}

impl Session {
    /// Answers one command; `false` after `quit`.
    fn command(&mut self, line: &str, out: &mut impl Write) -> CliResult<bool> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                writeln!(out, "id name constmove {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the constmove authors")?;
                writeln!(
                    out,
                    "option name Threads type spin default {} min 1 max 1024",
                    self.threads
                )?;
                writeln!(
                    out,
                    "option name Hash type spin default 0 min 0 max {MAX_HASH_MB}"
                )?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.position = Some(self.rules(Position::startpos())),
            "position" => {
                if let Err(message) = self.set_position(&rest) {
                    self.position = None;
                    writeln!(out, "info string {message}; no position is set")?;
                }
            }
            "setoption" => {
                if let Err(message) = self.set_option(&rest) {
                    writeln!(out, "info string {message}")?;
                }
            }
            "go" => self.go(&rest, out)?,
            // Nothing runs in the background, so there is nothing to stop.
            "stop" | "ponderhit" | "debug" | "register" => {}
            "quit" => return Ok(false),
            other => writeln!(
                out,
                "info string unknown command {} (this engine answers uci, isready, \
                 ucinewgame, position, setoption, go perft and quit)",
                quote(other)
            )?,
        }
        Ok(true)
    }

    /// `position` under the session's rules: Chess960 ones with `UCI_Chess960`.
    fn rules(&self, position: Position) -> Position {
        if self.chess960 {
            position.into_chess960()
        } else {
            position
        }
    }

    /// `position startpos|fen FEN [moves M...]`.
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|word| *word == "moves");
        let (setup, moves) = match moves_at {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (words, &[][..]),
        };
        let mut position = match setup {
            ["startpos"] => Position::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => {
                let fen = fen.join(" ");
                Position::from_fen(&fen).map_err(|error| format!("{error} in {}", quote(&fen)))?
            }
            _ => {
                return Err(format!(
                    "expected position startpos|fen FEN [moves ...], found {}",
                    quote(&words.join(" "))
                ));
            }
        };
        position = self.rules(position);
        for (index, text) in moves.iter().enumerate() {
            let mv = parse_move(&position, text)
                .map_err(|error| format!("move {} {}: {error}", index + 1, quote(text)))?;
            position
                .play(mv)
                .map_err(|error| format!("move {} {}: {error}", index + 1, quote(text)))?;
        }
        self.position = Some(position);
        Ok(())
    }

    /// `setoption name NAME value VALUE`, names case-insensitive as UCI has them.
    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let (name, value) = match words {
            ["name", rest @ ..] => match rest.iter().position(|word| *word == "value") {
                Some(at) => (rest[..at].join(" "), rest[at + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return Err("expected setoption name NAME value VALUE".to_owned()),
        };
        match name.to_ascii_lowercase().as_str() {
            "threads" => match args::whole_number::<usize>(&value) {
                Some(n @ 1..=1024) => self.threads = n,
                _ => {
                    return Err(format!(
                        "invalid Threads {}: expected a whole number from 1 to 1024",
                        quote(&value)
                    ));
                }
            },
            "hash" => match args::whole_number::<u64>(&value) {
                Some(mb) if mb <= MAX_HASH_MB => self.hash_mb = mb,
                _ => {
                    return Err(format!(
                        "invalid Hash {}: expected MiB from 0 (no table) to {MAX_HASH_MB}",
                        quote(&value)
                    ));
                }
            },
            "uci_chess960" => {
                self.chess960 = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "invalid UCI_Chess960 {}: expected true or false",
                            quote(&value)
                        ));
                    }
                };
                if let Some(position) = self.position.take() {
                    self.position = Some(self.rules(position));
                }
            }
            _ => {
                return Err(format!(
                    "unknown option {} (Threads, Hash and UCI_Chess960 are known)",
                    quote(&name)
                ));
            }
        }
        Ok(())
    }

    /// `go perft N`; every other `go` is answered with an `info string`.
    fn go(&self, words: &[&str], out: &mut impl Write) -> CliResult<()> {
        let depth = match words {
            ["perft", text] => match args::whole_number::<u32>(text) {
                Some(depth) if depth <= MAX_DEPTH => depth,
                _ => {
                    writeln!(
                        out,
                        "info string invalid perft depth {}: expected 0 to {MAX_DEPTH}",
                        quote(text)
                    )?;
                    return Ok(());
                }
            },
            _ => {
                writeln!(
                    out,
                    "info string only go perft N is supported (this engine counts, it does \
                     not search)"
                )?;
                return Ok(());
            }
        };
        let Some(position) = &self.position else {
            writeln!(
                out,
                "info string no position (the last position command failed)"
            )?;
            return Ok(());
        };
        let table = match self.hash_mb {
            0 => None,
            mb => {
                let bytes = (mb << 20).min(HashTable::useful_bytes(position, depth));
                match usize::try_from(bytes).ok().map(HashTable::new) {
                    Some(Ok(table)) => Some(table),
                    _ => {
                        writeln!(
                            out,
                            "info string cannot allocate a {mb} MiB table; counting without"
                        )?;
                        None
                    }
                }
            }
        };
        let threads = self.threads.min(args::max_workers());
        let options = PerftOptions::new().threads(threads).backend(self.backend);
        let options = match &table {
            Some(table) => options.table(table),
            None => options,
        };
        let divide = divide_parallel(position, depth, &options, &|_| {})
            .map_err(|error| CliError::usage(error.to_string()))?;
        let mut lines: Vec<(String, u64)> = divide
            .moves()
            .iter()
            .map(|(mv, count)| (mv.to_string(), count.unwrap_or(0)))
            .collect();
        lines.sort();
        for (mv, count) in &lines {
            writeln!(out, "{mv}: {count}")?;
        }
        let nodes = divide.nodes().unwrap_or(0);
        writeln!(out)?;
        writeln!(out, "Nodes searched: {nodes}")?;
        writeln!(out)?;
        Ok(())
    }
}

/// A UCI move of `position`, promotion letter in either case (`a7b8Q`, as perftree's
/// README and Stockfish write it, or `a7b8q`).
pub fn parse_move(position: &Position, text: &str) -> Result<constmove::Move, String> {
    let lower;
    let text = if text.len() == 5 && text.is_ascii() {
        lower = format!("{}{}", &text[..4], text[4..].to_ascii_lowercase());
        lower.as_str()
    } else {
        text
    };
    position.parse_uci(text).map_err(|error| error.to_string())
}
