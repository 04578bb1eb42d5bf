//! Castling's cost per leaf (docs/PERFORMANCE.md, "Chess960 castling cost"): library perft at
//! depth 5 with the PEXT backend summed over a set, run under callgrind.
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/castling_cost SET
//! ```
//! SET is `start`, `start-`, `c960` or `c960-` (`-`: castling field replaced by `-`, i.e. no
//! rights); the 960 set is every 16th Chess960 start. Prints `leaves`.

use constmove::{Backend, PerftOptions, Position};
use std::process::ExitCode;

fn main() -> ExitCode {
    let set = std::env::args().nth(1).unwrap_or_default();
    let (starts, strip): (Vec<Position>, bool) = match set.as_str() {
        "start" | "start-" => (vec![Position::startpos()], set.ends_with('-')),
        "c960" | "c960-" => (
            (0..960)
                .step_by(16)
                .map(|n| Position::chess960_startpos(n).expect("under 960"))
                .collect(),
            set.ends_with('-'),
        ),
        _ => {
            eprintln!("castling_cost: SET must be start, start-, c960 or c960-");
            return ExitCode::FAILURE;
        }
    };
    let options = PerftOptions::new().backend(Backend::Pext);
    let mut leaves = 0;
    for position in starts {
        let position = if strip {
            let fen = position.to_string();
            let mut fields: Vec<&str> = fen.split(' ').collect();
            fields[2] = "-";
            fields
                .join(" ")
                .parse()
                .expect("the FEN without rights reads")
        } else {
            position
        };
        leaves += options.perft(&position, 5).expect("PEXT runs here");
    }
    println!("{leaves}");
    ExitCode::SUCCESS
}
