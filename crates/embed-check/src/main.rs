//! `embed-check`: constmove used exactly as an embedding crate uses it, through the public
//! API only and built with cargo's default release profile (no LTO, 16 codegen units: this
//! crate is its own workspace, outside the root one and its profiles).
//!
//! `.ci/embed-check` builds it from an empty target directory to measure what depending on
//! constmove costs (build time and code size) and compares its perft speed with the CLI's,
//! which is built with the root workspace's profile.
//!
//! Usage: `embed-check [FEN] [DEPTH]` (default: the start position, depth 6). Prints
//! `legal_moves N`, then `nodes N` and `seconds S` for `perft` to DEPTH; `seconds` is the
//! last line. A bad FEN or depth is one line on stderr and exit status 2. With the feature
//! `extra-walk` it also walks the tree to depth 4 with a `Walk` of its own and checks the
//! count against `perft`.

use std::process::ExitCode;
use std::time::Instant;

/// The depth counted when none is given: the CLI's default too.
const DEFAULT_DEPTH: u32 = 6;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("embed-check: {message}");
            ExitCode::from(2)
        }
    }
}

/// Parses `[FEN] [DEPTH]`, then prints the legal move count and the timed perft.
fn run(args: Vec<String>) -> Result<(), String> {
    if args.len() > 2 {
        return Err("usage: embed-check [FEN] [DEPTH] (quote the FEN as one argument)".into());
    }
    let fen = args
        .first()
        .map_or(constmove::fen::STARTPOS_FEN, String::as_str);
    let depth = match args.get(1) {
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| format!("bad depth {text:?}: expected a whole number"))?,
        None => DEFAULT_DEPTH,
    };
    let pos = fen
        .parse::<constmove::Position>()
        .map_err(|error| format!("bad FEN {fen:?}: {error}"))?;

    println!("legal_moves {}", pos.legal_moves().len());
    let start = Instant::now();
    let nodes = constmove::perft(&pos, depth);
    let seconds = start.elapsed().as_secs_f64();
    #[cfg(feature = "extra-walk")]
    {
        // Below the timed perft; a count that differs is an error, not a figure.
        let walked = pos.walk(extra::Perft(depth.min(4)));
        let counted = constmove::perft(&pos, depth.min(4));
        if walked != counted {
            return Err(format!("the walk counted {walked}, perft {counted}"));
        }
    }
    println!("nodes {nodes}");
    println!("seconds {seconds:.6}");
    Ok(())
}

/// One more `Walk` type than the library's own, as an embedder writes one (the feature
/// `extra-walk`): the public-API perft of `examples/visitor_perft.rs`, checked against
/// `perft`. Its code is what each further walk costs, measured by `.ci/embed-check
/// --extra-walk`.
#[cfg(feature = "extra-walk")]
#[path = "../../../examples/visitor_perft.rs"]
#[allow(dead_code)] // the example's `main`: only its `Perft` walk is used here
mod extra;
