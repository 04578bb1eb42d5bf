//! The `constmove` command: perft with timing, divide, the perftree debugger protocol and
//! perft-suite checks, on top of the `constmove` library.
//!
//! Run `constmove --help` for the commands. Errors are one line on stderr and exit status
//! 2; a closed stdout (`constmove perft 5 --divide | head -1`) ends the program quietly.
//! Arguments are parsed by hand and JSON is written by hand: the crate uses std only.

mod args;
mod error;
mod interrupt;
mod json;
mod perft;
mod perftree;
mod progress;
mod report;
mod split;
mod suite;
mod suite_file;
mod workload;

use error::{CliError, CliResult};
use std::io::{self, Write};
use std::process::ExitCode;

/// The text of `constmove --help`.
const USAGE: &str = "\
constmove - a fast legal chess move generator

USAGE:
    constmove perft [DEPTH] [--fen FEN] [--divide] [--stats] [--json] [--threads N] [--hash SIZE] [--verify] [--backend B]
    constmove perft --workload FILE [--part I/N] [--json] [--threads N] [--backend B]
    constmove split DEPTH --ply K [--fen FEN]
    constmove perftree DEPTH FEN [MOVES...] [--backend B]
    constmove suite FILE [--max-nodes N] [--json] [--backend B]
    constmove help | --help | -h
    constmove --version

COMMANDS:
    perft      Count the leaves of the move tree DEPTH plies deep (default: the start
               position, depth 6) and print `nodes N`, `seconds S`, `Mnps M` (million
               nodes per second) and `backend NAME` (the backend that ran).
                 --fen FEN   the position, as one quoted argument (or --fen=FEN)
                 --divide    first print `move count` for each root move, then a blank line
                 --stats     also count the leaf moves' statistics (chessprogramming wiki
                             definitions; about twice the time): instead of the `nodes`
                             line print `nodes`, `captures` (en passant included),
                             `en_passant`, `castles`, `promotions`, `checks` (mates
                             included), `discovered_checks` (single), `double_checks`
                             and `checkmates`, one `name value` line each; with --divide
                             the move lines stay node counts and the statistics are
                             the whole tree's
                 --json      print one JSON object instead:
                             {\"nodes\":N,\"seconds\":S,\"nps\":R,\"backend\":\"NAME\"}
                             (with --divide also \"divide\":{\"e2e4\":N,...}, with
                             --stats also \"stats\":{\"nodes\":N,\"captures\":C,...})
                 --threads N  worker threads (default: every core); counts are the same
                             for any N
                 --hash SIZE  cache subtree counts in a table of SIZE bytes shared by
                             the threads (64M, 512M, 1G, ...; binary units); adds
                             hash_bytes, hash_probes and hash_hits to the output
                 --verify    with --hash: recount about one hit in 1024 without the
                             table; prints verified and mismatches, exit status 1 if
                             any count was wrong
                 --workload FILE  count a file written by `split` instead: the sum of
                             count x perft(position, depth) over its lines
                 --part I/N  with --workload: only lines I, I+N, I+2N, ... (I from 1);
                             the totals of parts 1/N..N/N add up to the whole file's
               Runs over a second show progress on stderr (a bar on a terminal, plain
               `progress:` lines otherwise; none with --json). Ctrl-C stops after the
               work units in progress, prints the root moves finished so far and exits
               with status 130; a second Ctrl-C exits at once.
    split      Write the distinct positions K plies below the root (default the start
               position) as work units for `perft --workload`, one EPD line each:
               `FEN ;count N ;depth D` (N move sequences reach it, D = DEPTH - K plies
               remain). Hand the parts to other machines and add up their `nodes`.
               Each ply costs about 12 times the one before; for the start position:
                   K       lines   output   memory    time
                   4      72,078   5.8 MB    11 MB   0.2 s
                   5     822,518    67 MB    70 MB     4 s
                   6   9,417,683   776 MB   0.9 GB   1 min
               K is at most 6. Out of memory, split stops with one line and status 2.
    perftree   The protocol of the perftree debugger (github.com/agnishom/perftree): play
               the space-separated UCI MOVES (one argument, possibly empty, or several)
               from FEN, then print `move count` for each root move, a blank line and the
               total. perftree runs a script with DEPTH FEN MOVES, so give it one holding
                   #!/bin/sh
                   exec constmove perftree \"$@\"
    suite      Check every count of a perft file against ours. Two formats, told apart by
               content: EPD lines `FEN ;D1 20 ;D2 400 ...`, or a .perft file of `id NAME`,
               `epd FEN` and `perft DEPTH NODES` lines. Blank lines and # comments are
               ignored. Counts above N nodes are skipped (--max-nodes N, default
               10000000). Prints each mismatch (line, FEN, depth, expected, got), then
               `P passed, F failed` (and `, S skipped` if any) as the last line; --json
               prints one object {\"passed\":P,\"failed\":F,\"skipped\":S,\"backend\":...,
               \"mismatches\":[{\"line\":L,\"fen\":...,\"depth\":D,\"expected\":E,\"got\":G}]}.
               Exit status 1 if any count differs.
               Standard chess only: every FEN is checked before counting, and one the parser
               rejects (e.g. Chess960/X-FEN castling rights as in fischer.epd or some of
               shakmaty_tricky.perft) stops the suite with exit status 2 and one line naming
               the file line and the FEN error.

OPTIONS:
    --backend auto|pext|magic
               The slider-attack backend (default auto: pext where the CPU runs it fast,
               else magic). Forcing pext on a CPU without BMI2 is an error.

DEPTH is a whole number from 0 to 20 (depth 0 counts 1 node).
Exit status: 0 success, 1 suite mismatches or --verify mismatches, 2 bad arguments or input (one line on stderr),
130 interrupted by Ctrl-C.
";

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = collect_args()
        .and_then(|args| run(&args, &mut out))
        // Flushing is where a late broken pipe shows up; it must go through the same
        // handling as every other write.
        .and_then(|status| Ok(out.flush().map(|()| status)?));
    match result {
        Ok(status) => ExitCode::from(status),
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(error) => {
            // If even stderr is gone there is no one left to tell.
            let _ = writeln!(io::stderr(), "constmove: {error}");
            match error {
                CliError::Interrupted(_) => ExitCode::from(interrupt::EXIT_INTERRUPTED),
                _ => ExitCode::from(2),
            }
        }
    }
}

/// The arguments after the program name. `std::env::args` would panic on an argument that
/// is not UTF-8; this reports it instead.
fn collect_args() -> CliResult<Vec<String>> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(index, arg)| {
            arg.into_string().map_err(|arg| {
                CliError::usage(format!(
                    "argument {} is not valid UTF-8: {arg:?}",
                    index + 1
                ))
            })
        })
        .collect()
}

/// Runs the command `args` names, writing its output to `out`; returns the exit status.
fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let Some((command, rest)) = args.split_first() else {
        // No command at all: the usage, but as an error, since nothing was done.
        let _ = io::stderr().write_all(USAGE.as_bytes());
        return Ok(2);
    };
    match command.as_str() {
        "help" | "--help" | "-h" => write_usage(out),
        "--version" | "-V" => {
            writeln!(out, "constmove {}", env!("CARGO_PKG_VERSION"))?;
            Ok(0)
        }
        "perft" | "perftree" | "suite" | "split" if args::wants_help(rest) => write_usage(out),
        "perft" => perft::run(rest, out),
        "perftree" => perftree::run(rest, out),
        "suite" => suite::run(rest, out),
        "split" => split::run(rest, out),
        other if other.starts_with('-') => Err(CliError::usage(format!(
            "unknown option {other:?} (try 'constmove --help')"
        ))),
        other => Err(CliError::usage(format!(
            "unknown command {other:?} (try 'constmove --help')"
        ))),
    }
}

/// Prints [`USAGE`] to `out`; exit status 0.
fn write_usage(out: &mut impl Write) -> CliResult {
    out.write_all(USAGE.as_bytes())?;
    Ok(0)
}
