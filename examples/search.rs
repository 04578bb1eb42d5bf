//! A small chess engine's search on the public API: iterative deepening, alpha-beta
//! (negamax) with a transposition table keyed by `Position::zobrist`, moves ordered by the
//! table's move, MVV-LVA captures and two killers per ply (sorted in place in the
//! `MoveList`), a quiescence search over captures and promotions (filtered from the list),
//! and draws by repetition ([`History`]), the fifty-move rule and insufficient material.
//! Material and a centre bonus make the evaluation.
//!
//! ```text
//! cargo run --release --example search -- "FEN" DEPTH
//! ```
//! One `info` line per depth, then `bestmove <uci> nodes <N> nps <N>`.

use constmove::{History, Move, MoveKind, Piece, Position, Square};
use std::process::ExitCode;
use std::time::Instant;

/// A mate score: `MATE - plies` for a mate given `plies` plies from the root.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = MATE + 1;
/// The deepest ply the search keeps killers for.
const MAX_PLY: usize = 128;

/// Centipawns by `Piece as usize`.
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Bound kinds of a table entry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One transposition-table slot: the full key, the depth searched, the score (mates stored
/// relative to the node), its bound and the best move as its 16-bit code.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    depth: i32,
    score: i32,
    bound: Bound,
    best: u16,
}

/// The search's state: table, killers, the path's keys and counters.
pub struct Search {
    table: Vec<Option<Entry>>,
    killers: [[Move; 2]; MAX_PLY],
    history: History,
    /// Nodes searched (interior and quiescence).
    pub nodes: u64,
}

/// What [`Search::run`] found at its last depth.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    /// The best move at the root (`Move::NULL` when the root has none).
    pub best: Move,
    /// Its score in centipawns for the side to move (mates as [`MATE`] minus plies).
    pub score: i32,
}

impl Search {
    /// A search with a table of `1 << bits` entries; `history` holds the game's earlier keys.
    pub fn new(bits: u32, history: History) -> Search {
        Search {
            table: vec![None; 1 << bits],
            killers: [[Move::NULL; 2]; MAX_PLY],
            history,
            nodes: 0,
        }
    }

    /// Iterative deepening to `depth`, calling `report(depth, found, nodes)` after each.
    pub fn run(
        &mut self,
        root: &Position,
        depth: i32,
        mut report: impl FnMut(i32, Found, u64),
    ) -> Found {
        let mut found = Found {
            best: Move::NULL,
            score: 0,
        };
        for d in 1..=depth.max(1) {
            let score = self.negamax(root, d, 0, -INFINITY, INFINITY);
            let best = self
                .probe(root.zobrist())
                .map_or(Move::NULL, |e| Move::from_u16(e.best).unwrap_or(Move::NULL));
            found = Found { best, score };
            report(d, found, self.nodes);
            // A mate found within the horizon cannot get shorter by searching deeper.
            if score.abs() > MATE_BOUND && MATE - score.abs() <= d {
                break;
            }
        }
        found
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.table[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Move) {
        let slot = self.slot(key);
        self.table[slot] = Some(Entry {
            key,
            depth,
            score,
            bound,
            best: best.to_u16(),
        });
    }

    /// A draw the rules decide by the path: repetition (once is enough inside a search),
    /// the fifty-move rule, or material no one can mate with.
    fn is_draw(&self, pos: &Position) -> bool {
        self.history.is_repetition(pos, 2)
            || pos.is_fifty_move_draw()
            || pos.is_insufficient_material()
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if ply > 0 && self.is_draw(pos) {
            return 0;
        }
        let in_check = pos.is_check();
        // Out of depth: captures only, unless in check (then every evasion is searched, for
        // two plies at most).
        if depth <= 0 && (!in_check || depth < -1) {
            return self.quiesce(pos, alpha, beta);
        }
        let key = pos.zobrist();
        let entry = self.probe(key);
        if let Some(e) = entry
            && ply > 0
            && e.depth >= depth
        {
            let score = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let table_move = entry.and_then(|e| Move::from_u16(e.best));
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        // Highest first: the table's move, captures by MVV-LVA, killers, the rest.
        moves.sort_by_key(|&mv| {
            std::cmp::Reverse(if Some(mv) == table_move {
                1_000_000
            } else if let Some(gain) = capture_order(pos, mv) {
                100_000 + gain
            } else if mv == killers[0] {
                90_000
            } else if mv == killers[1] {
                80_000
            } else {
                0
            })
        });
        let original_alpha = alpha;
        let mut best = (-INFINITY, moves[0]);
        self.history.push(key);
        for &mv in &moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if score > best.0 {
                best = (score, mv);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if capture_order(pos, mv).is_none() && ply < MAX_PLY {
                    let slot = &mut self.killers[ply];
                    if slot[0] != mv {
                        *slot = [mv, slot[0]];
                    }
                }
                break;
            }
        }
        self.history.pop();
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, depth, to_table(best.0, ply), bound, best.1);
        best.0
    }

    /// Stand pat, then captures and promotions only (filtered from the full list).
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let stand_pat = evaluate(pos);
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = pos.legal_moves();
        moves.retain(|&mv| capture_order(pos, mv).is_some());
        moves.sort_by_key(|&mv| std::cmp::Reverse(capture_order(pos, mv)));
        for &mv in &moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let score = -self.quiesce(&child, -beta, -alpha);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }
}

/// A mate score as the table keeps it: relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// MVV-LVA for a capture or promotion (victim's value times 10 minus the attacker's, plus
/// the promotion's gain); `None` for a quiet move.
fn capture_order(pos: &Position, mv: Move) -> Option<i32> {
    let board = pos.board();
    let attacker = board
        .piece_at(mv.from())
        .map_or(0, |(_, p)| VALUE[p as usize]);
    let promotion = mv.kind().promotion().map_or(0, |p| VALUE[p as usize]);
    let victim = match mv.kind() {
        MoveKind::EnPassant => VALUE[Piece::Pawn as usize],
        MoveKind::Castle => return None,
        _ => board
            .piece_at(mv.to())
            .map_or(0, |(_, p)| VALUE[p as usize]),
    };
    (victim != 0 || promotion != 0).then_some(10 * victim - attacker / 10 + promotion)
}

/// Material plus a small bonus for pieces near the centre, for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let mut score = 0;
    for index in 0..64 {
        let square = Square::new(index).expect("0..64 is a square");
        if let Some((color, piece)) = board.piece_at(square) {
            let (file, rank) = (i32::from(square.file()), i32::from(square.rank()));
            let centre = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
            let bonus = if piece == Piece::King { 0 } else { 2 * centre };
            let value = VALUE[piece as usize] + bonus;
            score += if color == pos.side_to_move() {
                value
            } else {
                -value
            };
        }
    }
    score
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, depth) = match args.as_slice() {
        [fen, depth] => (fen.as_str(), depth.as_str()),
        _ => {
            eprintln!("usage: search \"FEN\" DEPTH");
            return ExitCode::from(2);
        }
    };
    let pos: Position = match fen.parse() {
        Ok(pos) => pos,
        Err(err) => {
            eprintln!("search: {err}");
            return ExitCode::from(2);
        }
    };
    let depth: i32 = match depth.parse() {
        Ok(depth @ 1..=64) => depth,
        _ => {
            eprintln!("search: DEPTH must be a number from 1 to 64, not {depth:?}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut search = Search::new(20, History::new());
    let found = search.run(&pos, depth, |d, found, nodes| {
        let score = if found.score.abs() > MATE_BOUND {
            let plies = MATE - found.score.abs();
            format!("mate {}", found.score.signum() * (plies + 1) / 2)
        } else {
            format!("cp {}", found.score)
        };
        println!(
            "info depth {d} score {score} nodes {nodes} pv {}",
            found.best
        );
    });
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    println!(
        "bestmove {} nodes {} nps {:.0}",
        found.best,
        search.nodes,
        search.nodes as f64 / seconds
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the side to move mates in at most `n` moves, by trying every move: the
    /// test's own exhaustive search, sharing nothing with the alpha-beta above.
    fn mates_within(pos: &Position, n: u32) -> bool {
        n > 0
            && pos.legal_moves().into_iter().any(|mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                if child.is_checkmate() {
                    return true;
                }
                let replies = child.legal_moves();
                !replies.is_empty()
                    && replies.into_iter().all(|reply| {
                        let mut next = child.clone();
                        next.play_unchecked(reply);
                        mates_within(&next, n - 1)
                    })
            })
    }

    /// Finds the mate in `n` of `fen` (n moves of the side to move), and its first move
    /// leaves a position the exhaustive search confirms is a mate in `n - 1` at most.
    fn solves(fen: &str, n: u32) {
        let pos: Position = fen.parse().unwrap();
        assert!(mates_within(&pos, n), "{fen}: no mate in {n}");
        assert!(
            !mates_within(&pos, n - 1),
            "{fen}: a mate in fewer than {n}"
        );
        let found = Search::new(16, History::new()).run(&pos, 2 * n as i32 - 1, |_, _, _| {});
        assert_eq!(found.score, MATE - (2 * n as i32 - 1), "{fen}");
        let mut child = pos.clone();
        child.play(found.best).unwrap();
        if n == 1 {
            assert!(child.is_checkmate(), "{fen}: {} does not mate", found.best);
        } else {
            for reply in child.legal_moves() {
                let mut next = child.clone();
                next.play_unchecked(reply);
                assert!(
                    mates_within(&next, n - 1),
                    "{fen}: {} then {reply}",
                    found.best
                );
            }
        }
    }

    #[test]
    fn back_rank_mate_in_one() {
        solves("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    }

    #[test]
    fn scholars_mate_in_one() {
        solves(
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
        );
    }

    #[test]
    fn knight_sacrifice_mate_in_two() {
        // Nf6+ gxf6, Bxf7#.
        solves(
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
        );
    }

    #[test]
    fn king_and_rook_mate_in_one() {
        solves("7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1);
    }

    #[test]
    fn black_mates_too() {
        solves("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1);
    }

    #[test]
    fn repetition_and_fifty_moves_are_draws() {
        // King and rook after 100 quiet half-moves: the rook cannot mate in one, and
        // every child is a fifty-move draw, so the score is 0.
        let pos: Position = "7k/8/8/8/8/8/8/K5R1 w - - 100 80".parse().unwrap();
        let found = Search::new(12, History::new()).run(&pos, 3, |_, _, _| {});
        assert_eq!(found.score, 0);
        // The root's children repeat the game's earlier position: a draw, though White is a
        // rook up.
        let mut history = History::new();
        let start: Position = "7k/8/8/8/8/8/8/K5R1 w - - 0 1".parse().unwrap();
        let mut pos = start.clone();
        for uci in ["a1b1", "h8h7", "b1a1", "h7h8"] {
            history.push(pos.zobrist());
            pos.play(pos.parse_uci(uci).unwrap()).unwrap();
        }
        assert!(history.is_repetition(&pos, 2));
        let search = Search::new(12, history);
        assert!(search.is_draw(&pos));
        assert!(!Search::new(12, History::new()).is_draw(&start));
    }
}
