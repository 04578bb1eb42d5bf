//! The `constmove` command: perft with timing, divide, the perftree debugger protocol, a
//! UCI `go perft` front end and perft-suite checks, on top of the `constmove` library.
//!
//! Run `constmove --help` for the commands, `constmove COMMAND --help` for one. Errors are
//! one line on stderr and exit status 2; a reader that goes away (`constmove perft 5
//! --divide | head -1`) ends the program quietly, but a stdout closed from the start
//! (`>&-`) is an error, since the result would be lost.
//! Arguments are parsed by clap (derive, see `args.rs`); JSON is written by hand.

mod args;
mod error;
mod input;
mod interrupt;
mod json;
mod merge;
mod perft;
mod perftree;
mod progress;
mod report;
mod results;
mod split;
mod suite;
mod suite_file;
mod uci;
mod workload;

use error::{CliError, CliResult};
use std::io::{self, Write};
use std::process::ExitCode;
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

/// The first line of every help text.
const TITLE: &str = "constmove - a fast legal chess move generator\n";

/// One command's part of the help: its usage lines, its description under COMMANDS, and
/// whether the common OPTIONS apply to it.
struct CommandHelp {
    name: &'static str,
    usage: &'static str,
    text: &'static str,
    backend: bool,
}

/// The commands in the order `constmove --help` lists them.
const COMMANDS: [CommandHelp; 6] = [
    CommandHelp {
        name: "perft",
        usage: "    constmove perft [DEPTH] [--fen FEN] [--chess960] [--divide] [--stats] [--json] [--threads N] [--hash SIZE] [--verify] [--backend B]
    constmove perft --workload FILE [--part I/N] [--results R.jsonl] [--json] [--threads N]
                    [--hash SIZE [--hash-seed N]] [--backend B]
",
        text: "    perft      Count the leaves of the move tree DEPTH plies deep (default: the start
               position, depth 6) and print `nodes N`, `seconds S`, `Mnps M` (million
               nodes per second), `backend NAME` (the backend that ran) and `threads T`.
                 --fen FEN   the position, as one quoted argument (or --fen=FEN)
                 --chess960  Chess960 rules for a FEN whose castling looks standard
                             (castles written e1h1; Chess960 FENs need no flag)
                 --divide    first print `move count` for each root move, then a blank line
                 --stats     also count the leaf moves' statistics (chessprogramming wiki
                             definitions; a few times the time, on the same threads;
                             with --hash through a table of subtree statistics): instead
                             of the `nodes`
                             line print `nodes`, `captures` (en passant included),
                             `en_passant`, `castles`, `promotions`, `checks` (mates
                             included), `discovered_checks` (single), `double_checks`
                             and `checkmates`, one `name value` line each; with --divide
                             the move lines stay node counts and the statistics are
                             the whole tree's
                 --json      print one JSON object instead:
                             {\"nodes\":N,\"seconds\":S,\"nps\":R,\"backend\":\"NAME\",\"threads\":T}
                             (with --divide also \"divide\":{\"e2e4\":N,...}, with
                             --stats also \"stats\":{\"nodes\":N,\"captures\":C,...})
                 --threads N  worker threads (default: every core; at most 4 per core
                             run, and `threads` says how many did); counts are the same
                             for any N
                 --hash SIZE  cache subtree counts in a table of SIZE bytes shared by
                             the threads (64M, 512M, 1G, ...; binary units), or of what
                             the run can fill if that is less; adds hash_bytes (the size
                             used), hash_probes and hash_hits to the output
                 --verify    with --hash: recount about one hit in 1024 without the
                             table; prints verified and mismatches, exit status 1 if
                             any count was wrong
                 --hash-seed N  with --hash: draw the table's 128-bit keys from stream N
                             (default 0), to recount under keys unrelated to a first run's
                 --workload FILE  count a file written by `split` instead: the sum of
                             count x perft(position, depth) over its lines, exact past 2^64
                             (a `;count` or `;depth` given twice in a line is an error)
                 --part I/N  with --workload: only units I, I+N, I+2N, ... (I from 1);
                             the totals of parts 1/N..N/N add up to the whole file's
                 --results R.jsonl  with --workload: append one JSON line per finished
                             unit to R (unit number, fen, depth, count, perft, nodes =
                             count x perft, seconds, hash_seed), written whole as the unit
                             completes; a unit already in R is not counted again, so the
                             same command resumes a killed run (adds a `resumed K` line)
               Runs over a second show progress on stderr (a bar on a terminal, plain
               `progress:` lines otherwise; none with --json). Ctrl-C stops within a
               second whatever the table size or thread count, prints the root moves
               (or units) finished so far and exits with status 130; a count that does
               not stop within 0.65 s is left unfinished (no root move listed; a
               workload's results file keeps its finished units). A second Ctrl-C exits
               at once. --workload refuses --divide, --stats and --chess960.
",
        backend: true,
    },
    CommandHelp {
        name: "split",
        usage: "    constmove split DEPTH --ply K [--fen FEN] [--chess960]\n",
        text: "    split      Write the distinct positions K plies below the root (default the start
               position) as work units for `perft --workload`, one EPD line each:
               `FEN ;count N ;depth D` (N move sequences reach it, D = DEPTH - K plies
               remain). K is at most DEPTH and at most 6. The units come between a
               header `# constmove split: units N, depth D, ply K, root FEN` and a
               closing `# constmove split end: N units`: perft --workload and merge
               refuse a file whose count does not match (cut short), naming how many
               lines are missing. Hand the parts to other machines and add up their
               `nodes`.
               Each ply costs about 12 times the one before; for the start position:
                   K       lines   output   memory    time
                   4      72,078   5.8 MB    11 MB   0.2 s
                   5     822,518    67 MB    70 MB     4 s
                   6   9,417,683   776 MB   0.9 GB   1 min
               Out of memory, split stops with one line and status 2. Units of a
               Chess960 root (or one given --chess960) are written so that they read
               back under its rules.
",
        backend: false,
    },
    CommandHelp {
        name: "merge",
        usage: "    constmove merge --workload FILE R.jsonl... [--json]\n",
        text: "    merge      Add up the results files the parts of a workload wrote (perft --results):
               checks that every unit of FILE has a result, that a unit counted more
               than once got the same perft each time, and that every line is of this
               workload; then prints `units`, `results` (lines read), `verified` (units
               recounted independently: under another --hash-seed, or with and without
               --hash), `duplicates` (lines repeating another's seed and count, as a
               copied file has: not a recount), `unit_seconds` (the units' own times,
               summed) and, last, `nodes N`, the total in 128 bits.
               Otherwise it lists up to 20 of each: `unit U missing: ...`, `unit U
               disagreeing: perft ...` (with file:line and seed), `line FILE:LINE
               foreign: ...`, prints `missing`, `disagreeing` and `foreign` counts
               instead of `nodes` and exits 1.
               --json prints one object {\"units\":U,...,\"nodes\":N} (null on failure).
               A malformed line or an unreadable file is exit status 2.
",
        backend: false,
    },
    CommandHelp {
        name: "perftree",
        usage: "    constmove perftree DEPTH FEN [MOVES...] [--chess960] [--backend B]\n",
        text: "    perftree   The protocol of the perftree debugger (github.com/agausmann/perftree):
               play the space-separated UCI MOVES (one argument, possibly empty, or
               several; promotion letters in either case, a7b8Q or a7b8q) from FEN,
               then print `move count` for each root move, a blank line and the total.
               --chess960 reads and writes castles king-takes-rook (e1h1), as Stockfish
               in Chess960 mode. perftree runs a script with DEPTH FEN MOVES, so give it
               one holding
                   #!/bin/sh
                   exec constmove perftree \"$@\"
",
        backend: true,
    },
    CommandHelp {
        name: "uci",
        usage: "    constmove uci\n",
        text: "    uci        A UCI front end for perft harnesses (the Grand Chess Tree's perft
               checker, scripts written for Stockfish): reads uci, isready,
               ucinewgame, position startpos|fen FEN [moves M...], go perft N (N up
               to 128: published files count forced lines to 32), stop and quit on stdin, with setoption name Threads|Hash|UCI_Chess960 value V
               (Hash in MiB, 0 for no table). go perft N prints `move: count` for each
               root move, a blank line, `Nodes searched: N` and a blank line, as
               Stockfish does. Castles are e1g1, or king-takes-rook (e1h1) with
               UCI_Chess960 or in a Chess960 position; promotions in either case. A bad
               command gets one `info string` line and the session goes on; after a
               failed position command, go perft answers with an info line until the
               next position.
",
        backend: false,
    },
    CommandHelp {
        name: "suite",
        usage: "    constmove suite FILE [--max-nodes N] [--json] [--backend B]\n",
        text: "    suite      Check every count of a perft file against ours. Two formats, told apart by
               content: EPD lines `FEN ;D1 20 ;D2 400 ...`, or a .perft file of `id NAME`,
               `epd FEN` and `perft DEPTH NODES` lines (DEPTH at most 128). Blank lines,
               # comments and a UTF-8 byte-order mark at the start of the file are ignored.
               --max-nodes N (default 10000000) bounds the work without trusting the
               file: the count at depth D is made only if the file's count and our own
               count at depth D-1 (made first, under the same rule) are both at most N,
               else it is skipped. The last ply is counted in bulk, so a count costs
               about as much as our count one ply less: at most N.
               Prints each mismatch (line, FEN, depth, expected, got), then
               `P passed, F failed` (and `, S skipped` if any) as the last line; --json
               prints one object {\"passed\":P,\"failed\":F,\"skipped\":S,\"backend\":...,
               \"mismatches\":[{\"line\":L,\"fen\":...,\"depth\":D,\"expected\":E,\"got\":G}]}.
               Exit status 1 if any count differs, 2 if nothing was checked: a file
               without counts (one line on stderr), or every count skipped (the tally,
               then one line on stderr).
               Chess960 lines (fischer.epd, shakmaty_tricky.perft) are read as such.
               Every line is read before counting; one that cannot be read (a FEN the
               parser rejects, a bad count) is printed as `unreadable line L: why`
               (--json: \"unreadable\":[{\"line\":L,\"error\":...}]), counts as one
               failure (exit status 1), and the rest of the file is still checked.
               A count whose depth the node limit cannot reach at the growth seen so
               far (`;D99 5` for the start position) is skipped before counting it.
",
        backend: true,
    },
];

/// The common options, for the commands whose `backend` is set.
const OPTIONS: &str = "
OPTIONS:
    --backend auto|pext|magic
               The slider-attack backend (default auto: pext where the CPU runs it fast,
               else magic). Forcing pext on a CPU without BMI2 is an error.
";

/// What every help text ends with.
const FOOTER: &str = "
DEPTH is a whole number from 0 to 20 (depth 0 counts 1 node). Numbers are plain digits,
without a sign. A FEN has the six standard fields (the last two may be left out); the
castling field is X-FEN (KQkq, a file letter for an inner rook) or Shredder-FEN (HAha),
letters in any order; a castling king or rook off the standard squares, or a file letter,
makes a Chess960 position, whose castles are written king-takes-rook (g1h1); a side to move
in check from three or more pieces is rejected (no move gives more than two checks).
An argument starting with a UTF-8 byte-order mark is an error. Files are read within
bounds (lines of at most 4096 bytes; workloads 4 GiB, results 8 GiB, suites 256 MiB): an
error names the file and line and quotes at most 100 characters.
Exit status: 0 success, 1 suite failures (a wrong count or an unreadable line), --verify
or merge mismatches, 2 bad arguments or input,
a suite that checked nothing or a closed stdout (one line on stderr), 130 interrupted by
Ctrl-C.
";

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = collect_args()
        .and_then(|args| {
            if stdout_was_closed() {
                return Err(CliError::Output(io::Error::other("stdout is closed")));
            }
            run(&args, &mut out)
        })
        // Flushing is where a late broken pipe shows up; it must go through the same
        // handling as every other write.
        .and_then(|status| Ok(out.flush().map(|()| status)?));
    match result {
        Ok(status) => ExitCode::from(status),
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(error) => {
            // If even stderr is gone there is no one left to tell.
            let _ = writeln!(
                io::stderr(),
                "constmove: {}",
                input::clip_quotes(&error.to_string())
            );
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
            let arg = arg.into_string().map_err(|arg| {
                CliError::usage(format!(
                    "argument {} is not valid UTF-8: {arg:?}",
                    index + 1
                ))
            })?;
            // Quoted, the mark is invisible or cryptic; name it instead.
            if arg.starts_with('\u{feff}') {
                return Err(CliError::usage(format!(
                    "argument {} starts with a UTF-8 byte-order mark (U+FEFF): {arg:?}",
                    index + 1
                )));
            }
            Ok(arg)
        })
        .collect()
}

/// Whether stdout was closed when the program started (`constmove perft 5 >&-`). std puts
/// /dev/null in place of a closed standard descriptor before `main`, so the descriptor is
/// looked at earlier, by [`NOTE_CLOSED_STDOUT`]; /dev/null opened by the caller (a shell's
/// `>/dev/null`, Python's `subprocess.DEVNULL`) is a place to write, not an error.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}

/// Set before `main` when descriptor 1 was closed at exec; read once by `main`.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Runs from `.init_array`, before std's start-up fills closed descriptors with /dev/null.
#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdout() {
    // A missing /proc/self/fd/1 beside a readable /proc/self/fd means descriptor 1 is closed;
    // without /proc nothing is known and nothing is reported.
    let closed = std::fs::symlink_metadata("/proc/self/fd").is_ok()
        && std::fs::symlink_metadata("/proc/self/fd/1")
            .is_err_and(|error| error.kind() == io::ErrorKind::NotFound);
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// libc's start-up calls every function in `.init_array` before the program's own.
#[cfg(target_os = "linux")]
#[used]
// SAFETY: `note_closed_stdout` has the `extern "C" fn()` signature `.init_array` entries need,
// and only reads /proc and stores an atomic, which is sound before std's start-up.
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// See the Linux version: without /proc a closed stdout goes unnoticed.
#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// Runs the command `args` names, writing its output to `out`; returns the exit status.
fn run(args: &[String], out: &mut impl Write) -> CliResult {
    let Some((command, rest)) = args.split_first() else {
        // No command at all: the usage, but as an error, since nothing was done.
        let _ = write_usage(&mut io::stderr(), None);
        return Ok(2);
    };
    let known = COMMANDS.iter().find(|help| help.name == command);
    match command.as_str() {
        "help" | "--help" | "-h" => write_usage(out, None),
        "--version" | "-V" => write_version(out),
        _ if known.is_some() && args::wants_version(rest) => write_version(out),
        _ if known.is_some() && args::wants_help(rest) => write_usage(out, known),
        "perft" => perft::run(rest, out),
        "perftree" => perftree::run(rest, out),
        "suite" => suite::run(rest, out),
        "split" => split::run(rest, out),
        "merge" => merge::run(rest, out),
        "uci" => uci::run(rest, out),
        other if other.starts_with('-') => Err(CliError::usage(format!(
            "unknown option {other:?} (try 'constmove --help')"
        ))),
        other => Err(CliError::usage(format!(
            "unknown command {other:?} (try 'constmove --help')"
        ))),
    }
}

/// Prints the help to `out`: every command's, or only `command`'s; exit status 0.
fn write_usage(out: &mut impl Write, command: Option<&CommandHelp>) -> CliResult {
    let shown: &[CommandHelp] = match command {
        Some(command) => std::slice::from_ref(command),
        None => &COMMANDS,
    };
    write!(out, "{TITLE}\nUSAGE:\n")?;
    for help in shown {
        out.write_all(help.usage.as_bytes())?;
    }
    if command.is_none() {
        writeln!(out, "    constmove help | --help | -h")?;
        writeln!(out, "    constmove --version")?;
    }
    write!(
        out,
        "\n{}:\n",
        if command.is_none() {
            "COMMANDS"
        } else {
            "COMMAND"
        }
    )?;
    for help in shown {
        out.write_all(help.text.as_bytes())?;
    }
    if shown.iter().any(|help| help.backend) {
        out.write_all(OPTIONS.as_bytes())?;
    }
    out.write_all(FOOTER.as_bytes())?;
    Ok(0)
}

/// Prints `constmove VERSION`; exit status 0.
fn write_version(out: &mut impl Write) -> CliResult {
    writeln!(out, "constmove {}", env!("CARGO_PKG_VERSION"))?;
    Ok(0)
}
