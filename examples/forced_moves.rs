//! A statistic constmove does not have, gathered with the public walk API: at each ply of
//! the move tree, how many positions have exactly one legal move (a forced move), how many
//! have none (mate or stalemate), and the most legal moves any position there has.
//!
//! ```text
//! cargo run --release --example forced_moves -- "FEN" DEPTH
//! ```
//! One line per ply: `ply N positions P forced F none Z most M`.

use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
use constmove::{Move, Position};
use std::marker::PhantomData;
use std::process::ExitCode;

/// The tally of one ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ply {
    /// Positions at this ply.
    pub positions: u64,
    /// Of them, those with exactly one legal move.
    pub forced: u64,
    /// Of them, those with none.
    pub none: u64,
    /// The most legal moves of any of them.
    pub most: u64,
}

impl Ply {
    fn add(&mut self, moves: u64) {
        self.positions += 1;
        self.forced += (moves == 1) as u64;
        self.none += (moves == 0) as u64;
        self.most = self.most.max(moves);
    }
}

/// Tallies every child of the nodes it is handed, `ply` plies below the root.
struct Tally<'a, G> {
    plies: &'a mut [Ply],
    ply: usize,
    engine: PhantomData<G>,
}

impl<G: Generator> Children for Tally<'_, G> {
    #[inline(always)]
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
        let moves = G::count_moves(child);
        self.plies[self.ply].add(moves);
        if self.ply + 1 < self.plies.len() && moves > 0 {
            self.ply += 1;
            G::children(child, self);
            self.ply -= 1;
        }
    }
}

/// The tallies of plies 0 (the root) to `depth`.
pub struct ForcedMoves(pub u32);

impl Walk for ForcedMoves {
    type Output = Vec<Ply>;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Vec<Ply> {
        let mut plies = vec![Ply::default(); self.0 as usize + 1];
        let moves = G::count_moves(root);
        plies[0].add(moves);
        if self.0 > 0 && moves > 0 {
            let mut tally = Tally::<G> {
                plies: &mut plies,
                ply: 1,
                engine: PhantomData,
            };
            G::children(root, &mut tally);
        }
        plies
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fen, depth] = args.as_slice() else {
        eprintln!("usage: forced_moves \"FEN\" DEPTH");
        return ExitCode::from(2);
    };
    let position: Position = match fen.parse() {
        Ok(position) => position,
        Err(error) => {
            eprintln!("forced_moves: {error}");
            return ExitCode::from(2);
        }
    };
    let depth = match depth.parse::<u32>() {
        Ok(depth) if depth <= 12 => depth,
        _ => {
            eprintln!("forced_moves: depth must be a whole number from 0 to 12, not {depth:?}");
            return ExitCode::from(2);
        }
    };
    for (ply, tally) in position.walk(ForcedMoves(depth)).iter().enumerate() {
        println!(
            "ply {ply} positions {} forced {} none {} most {}",
            tally.positions, tally.forced, tally.none, tally.most
        );
    }
    ExitCode::SUCCESS
}

/// `cargo test` runs these: `test = true` for this example in Cargo.toml.
#[cfg(test)]
mod tests {
    use super::{ForcedMoves, Ply};
    use constmove::Position;

    /// The same tallies by listing and playing every move.
    fn forced_by_listing(position: &Position, ply: usize, plies: &mut [Ply]) {
        let moves = position.legal_moves();
        plies[ply].add(moves.len() as u64);
        if ply + 1 < plies.len() {
            for mv in moves.iter() {
                let mut child = position.clone();
                child.play_unchecked(*mv);
                forced_by_listing(&child, ply + 1, plies);
            }
        }
    }

    #[test]
    fn agrees_with_listing_and_playing() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        for fen in fens {
            let position: Position = fen.parse().unwrap();
            let depth = 3;
            let walked = position.walk(ForcedMoves(depth));
            let mut listed = vec![Ply::default(); depth as usize + 1];
            forced_by_listing(&position, 0, &mut listed);
            assert_eq!(walked, listed, "{fen}");
            assert!(
                walked.iter().any(|ply| ply.forced > 0),
                "{fen}: no forced move seen"
            );
        }
    }
}
