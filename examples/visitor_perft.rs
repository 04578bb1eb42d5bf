//! A bulk-counting perft written only with constmove's public walk API, the way Gigantua
//! counts: interior nodes make every child, the last ply is the popcount of the legal target
//! sets (`Generator::count_moves`), and every status is a type.
//!
//! ```text
//! cargo run --release --example visitor_perft -- "FEN" DEPTH
//! ```
//! The last line is `nodes seconds`.

use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Move, Position};
use std::marker::PhantomData;
use std::process::ExitCode;
use std::time::Instant;

/// Counts the leaves below each child, `depth` plies above the last.
struct Count<G> {
    depth: u32,
    nodes: u64,
    engine: PhantomData<G>,
}

impl<G: Generator> Children for Count<G> {
    #[inline(always)]
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
        if self.depth == 1 {
            self.nodes += G::count_moves(child);
        } else {
            self.depth -= 1;
            G::children(child, self);
            self.depth += 1;
        }
    }
}

/// Perft to `depth` plies.
pub struct Perft(pub u32);

impl Walk for Perft {
    type Output = u64;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
        match self.0 {
            0 => 1,
            1 => G::count_moves(root),
            depth => {
                let mut count = Count::<G> {
                    depth: depth - 1,
                    nodes: 0,
                    engine: PhantomData,
                };
                G::children(root, &mut count);
                count.nodes
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fen, depth] = args.as_slice() else {
        eprintln!("usage: visitor_perft \"FEN\" DEPTH");
        return ExitCode::from(2);
    };
    let position: Position = match fen.parse() {
        Ok(position) => position,
        Err(error) => {
            eprintln!("visitor_perft: {error}");
            return ExitCode::from(2);
        }
    };
    let depth = match depth.parse::<u32>() {
        Ok(depth) if depth <= 20 => depth,
        _ => {
            eprintln!("visitor_perft: depth must be a whole number from 0 to 20, not {depth:?}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let nodes = position.walk(Perft(depth));
    println!("{nodes} {:.3}", start.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// The perft data readers of the integration tests, for the test below.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../tests/integration/common.rs"]
mod common;

/// `cargo test` runs this (`test = true` for this example in Cargo.toml). The benches include
/// this file too, built with `cfg(test)` but without the test harness (which drops the test
/// function), so the module imports nothing and names everything by its path.
#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_suites_on_every_backend() {
        use super::common::{backends, load, parse_epd, select_cases};
        // Leaves per case: the whole suite stays within seconds.
        let budget = 2_000_000;
        let mut entries = load("perftsuite.epd", parse_epd);
        entries.extend(load("perftsuite_extras.epd", parse_epd));
        let cases = select_cases(&entries, |_, nodes| nodes <= budget);
        assert!(cases.len() > 300, "only {} cases", cases.len());
        for backend in backends() {
            for case in &cases {
                let position: constmove::Position = case.fen.parse().unwrap();
                let nodes = position
                    .walk_with(super::Perft(case.depth), backend)
                    .unwrap();
                assert_eq!(
                    nodes, case.nodes,
                    "{} depth {} on {backend}",
                    case.origin, case.depth
                );
            }
        }
    }
}
