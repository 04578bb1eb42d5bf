//! Castling's cost per leaf (docs/PERFORMANCE.md, "Chess960 castling cost"): library perft at
//! depth 5 with the PEXT backend summed over a set, run under callgrind.
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/castling_cost SET
//! ```
//! SET is `start`, `c960` or `c960-std`, alone or with `-` appended (castling field replaced by
//! `-`, i.e. no rights): `c960` is every 16th Chess960 start, `c960-std` the 17 Chess960 starts
//! other than the standard one whose king and rooks stand on the standard squares (their
//! castling runs standard chess's code, so their cost is the positions', not the rules').
//! Prints `leaves`.

use constmove::{Backend, Color, PerftOptions, Piece, Position};
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
        "c960-std" | "c960-std-" => (
            (0..960)
                // 518 is the standard start.
                .filter(|&n| n != 518)
                .map(|n| Position::chess960_startpos(n).expect("under 960"))
                .filter(|position| {
                    let on = |square: &str, piece| {
                        let square = square.parse().expect("a square");
                        position.board().piece_at(square) == Some((Color::White, piece))
                    };
                    on("a1", Piece::Rook) && on("e1", Piece::King) && on("h1", Piece::Rook)
                })
                .collect(),
            set.ends_with('-'),
        ),
        _ => {
            eprintln!(
                "castling_cost: SET must be start, c960 or c960-std, each with or without a trailing -"
            );
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
