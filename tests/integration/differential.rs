//! Differential tests: constmove against a deliberately simple reference move generator
//! written here (a mailbox board, pseudo-legal moves, make the move on a copy, keep it when
//! the mover's king is not attacked; castling by the rules for standard chess and Chess960
//! alike), on positions reached by fixed-seed random play from several start positions,
//! Chess960 and double Chess960 ones included.
//!
//! For every position reached: the legal move sets agree; the move the reference chose is
//! accepted by `Position::play` with the kind the reference gives it, and the result equals
//! the reference's own make; every pseudo-legal move the reference finds illegal is rejected;
//! the position round-trips through FEN; the moves [`Position::visit`] hands out agree with
//! `legal_moves()`, and each child status (side, castling rights, en-passant flag) and child
//! board a visitor can build agree with `play`. On a sample of the positions: `PerftOptions::perft`
//! to depths 1-3 on both backends equals the reference perft, and equals the leaves counted
//! by descending with `legal_moves`/`play` and a counting visitor at the last ply.

use constmove::walk::{StatusFlags, Visitor};
use constmove::{Backend, Board, Color, Move, MoveKind, PerftOptions, Piece, Position, Square};
use std::collections::BTreeMap;

use crate::common;

use common::{BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS, XorShift};

// ---------------------------------------------------------------------------------------
// The reference: a mailbox of FEN letters, written for obviousness rather than speed.
// ---------------------------------------------------------------------------------------

/// An empty square in [`RefPos::board`].
const EMPTY: u8 = b'.';

/// A move of the reference generator. `promotion` is a lower-case letter or `None`. A castle
/// has `rook`, the castling rook's square, and `to` as UCI writes it: the king's destination
/// in standard chess, the rook's square in Chess960.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct RefMove {
    from: usize,
    to: usize,
    promotion: Option<u8>,
    rook: Option<usize>,
}

fn square_name(square: usize) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % 8) as u8),
        char::from(b'1' + (square / 8) as u8)
    )
}

fn parse_square_name(name: &str) -> usize {
    let bytes = name.as_bytes();
    assert!(bytes.len() == 2, "bad square {name:?}");
    let (file, rank) = (bytes[0].wrapping_sub(b'a'), bytes[1].wrapping_sub(b'1'));
    assert!(file < 8 && rank < 8, "bad square {name:?}");
    usize::from(rank) * 8 + usize::from(file)
}

impl RefMove {
    fn uci(self) -> String {
        let mut text = square_name(self.from) + &square_name(self.to);
        if let Some(letter) = self.promotion {
            text.push(char::from(letter));
        }
        text
    }
}

/// A position of the reference: board `a1 = 0 … h8 = 63` holding FEN letters or [`EMPTY`].
#[derive(Clone, PartialEq, Eq, Debug)]
struct RefPos {
    board: [u8; 64],
    white: bool,
    /// The castling rook's square of each right held: `K`, `Q`, `k`, `q` in that order.
    castling: [Option<usize>; 4],
    /// Chess960 rules: castles are written king-takes-rook.
    chess960: bool,
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
}

/// The square `(file + df, rank + dr)` from `square`, if on the board.
fn offset(square: usize, df: i32, dr: i32) -> Option<usize> {
    let file = (square % 8) as i32 + df;
    let rank = (square / 8) as i32 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn is_white_piece(letter: u8) -> bool {
    letter.is_ascii_uppercase()
}

/// The letter of `white`'s piece `lower` (given in lower case).
fn colored(lower: u8, white: bool) -> u8 {
    if white {
        lower.to_ascii_uppercase()
    } else {
        lower
    }
}

impl RefPos {
    /// Parses a FEN (trusted input: constmove's own output or the fixed start positions).
    fn from_fen(fen: &str) -> RefPos {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert!(fields.len() >= 4, "reference FEN parser: short FEN {fen:?}");
        let mut board = [EMPTY; 64];
        for (row, text) in fields[0].split('/').enumerate() {
            let mut file = 0;
            for letter in text.bytes() {
                if letter.is_ascii_digit() {
                    file += usize::from(letter - b'0');
                } else {
                    board[(7 - row) * 8 + file] = letter;
                    file += 1;
                }
            }
            assert_eq!(file, 8, "reference FEN parser: bad rank in {fen:?}");
        }
        // X-FEN and Shredder-FEN: `K`/`Q` the outermost rook on that side of the king, a file
        // letter the rook on that file. Chess960 when a king or rook is off the standard
        // squares or a file letter is used.
        let mut castling = [None; 4];
        let mut chess960 = false;
        for letter in fields[2].bytes().filter(|&letter| letter != b'-') {
            let white = letter.is_ascii_uppercase();
            let base = if white { 0 } else { 56 };
            let king = (base..base + 8)
                .find(|&square| board[square] == colored(b'k', white))
                .expect("a castling king on its back rank");
            let rook = colored(b'r', white);
            let square = match letter.to_ascii_lowercase() {
                b'k' => (king + 1..base + 8).rev().find(|&sq| board[sq] == rook),
                b'q' => (base..king).find(|&sq| board[sq] == rook),
                file => {
                    chess960 = true;
                    Some(base + usize::from(file - b'a'))
                }
            }
            .expect("a castling rook");
            let kingside = square > king;
            let right = usize::from(!white) * 2 + usize::from(!kingside);
            castling[right] = Some(square);
            let corner = if kingside { base + 7 } else { base };
            chess960 |= king != base + 4 || square != corner;
        }
        RefPos {
            board,
            white: fields[1] == "w",
            castling,
            chess960,
            ep: (fields[3] != "-").then(|| parse_square_name(fields[3])),
            halfmove: fields.get(4).map_or(0, |t| t.parse().unwrap()),
            fullmove: fields.get(5).map_or(1, |t| t.parse().unwrap()),
        }
    }

    fn fen(&self) -> String {
        let mut text = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let letter = self.board[rank * 8 + file];
                if letter == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(char::from(letter));
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push_str(if self.white { " w " } else { " b " });
        // Chess960 as Shredder-FEN (every right by its rook's file), which constmove reads
        // under the same rules; with no right left the rules agree and nothing is written.
        let rights: String = "KQkq"
            .chars()
            .zip(self.castling)
            .filter_map(|(c, rook)| {
                let rook = rook?;
                Some(if self.chess960 {
                    let file = char::from(b'a' + (rook % 8) as u8);
                    if c.is_ascii_uppercase() {
                        file.to_ascii_uppercase()
                    } else {
                        file
                    }
                } else {
                    c
                })
            })
            .collect();
        text.push_str(if rights.is_empty() { "-" } else { &rights });
        text.push(' ');
        text.push_str(&self.ep.map_or("-".to_owned(), square_name));
        text.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        text
    }

    fn is_own(&self, square: usize) -> bool {
        let letter = self.board[square];
        letter != EMPTY && is_white_piece(letter) == self.white
    }

    fn is_enemy(&self, square: usize) -> bool {
        let letter = self.board[square];
        letter != EMPTY && is_white_piece(letter) != self.white
    }

    /// Whether any piece of the side `by_white` attacks `square`.
    fn attacked(&self, square: usize, by_white: bool) -> bool {
        let has = |sq: Option<usize>, lower: u8| {
            sq.is_some_and(|sq| self.board[sq] == colored(lower, by_white))
        };
        // A white pawn attacks upwards, so it stands one rank below the square.
        let pawn_rank = if by_white { -1 } else { 1 };
        if has(offset(square, -1, pawn_rank), b'p') || has(offset(square, 1, pawn_rank), b'p') {
            return true;
        }
        if KNIGHT_STEPS
            .iter()
            .any(|&(df, dr)| has(offset(square, df, dr), b'n'))
        {
            return true;
        }
        if KING_STEPS
            .iter()
            .any(|&(df, dr)| has(offset(square, df, dr), b'k'))
        {
            return true;
        }
        for (dirs, slider) in [(ROOK_DIRS, b'r'), (BISHOP_DIRS, b'b')] {
            for (df, dr) in dirs {
                let mut at = square;
                while let Some(next) = offset(at, df, dr) {
                    let letter = self.board[next];
                    if letter != EMPTY {
                        if letter == colored(slider, by_white) || letter == colored(b'q', by_white)
                        {
                            return true;
                        }
                        break;
                    }
                    at = next;
                }
            }
        }
        false
    }

    fn king_square(&self, white: bool) -> usize {
        let king = colored(b'k', white);
        match self.board.iter().position(|&letter| letter == king) {
            Some(square) => square,
            None => panic!("no king in {}", self.fen()),
        }
    }

    /// Every pseudo-legal move: pieces move by the rules ignoring checks to the mover's king,
    /// except castling, which already requires the king's start, path and destination to be
    /// unattacked and the squares between king and rook to be empty.
    fn pseudo_legal_moves(&self) -> Vec<RefMove> {
        let mut moves = Vec::new();
        let mut add = |from, to, promotion| {
            moves.push(RefMove {
                from,
                to,
                promotion,
                rook: None,
            })
        };
        for from in 0..64 {
            if !self.is_own(from) {
                continue;
            }
            match self.board[from].to_ascii_lowercase() {
                b'p' => {
                    let (dir, start_rank, last_rank) =
                        if self.white { (1, 1, 7) } else { (-1, 6, 0) };
                    let mut pawn_moves = Vec::new();
                    if let Some(one) = offset(from, 0, dir)
                        && self.board[one] == EMPTY
                    {
                        pawn_moves.push(one);
                        if from / 8 == start_rank {
                            let two = offset(one, 0, dir).unwrap();
                            if self.board[two] == EMPTY {
                                pawn_moves.push(two);
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(to) = offset(from, df, dir)
                            && (self.is_enemy(to) || self.ep == Some(to))
                        {
                            pawn_moves.push(to);
                        }
                    }
                    for to in pawn_moves {
                        if to / 8 == last_rank {
                            for letter in [b'q', b'r', b'b', b'n'] {
                                add(from, to, Some(letter));
                            }
                        } else {
                            add(from, to, None);
                        }
                    }
                }
                b'n' | b'k' => {
                    let steps = if self.board[from].eq_ignore_ascii_case(&b'n') {
                        KNIGHT_STEPS
                    } else {
                        KING_STEPS
                    };
                    for (df, dr) in steps {
                        if let Some(to) = offset(from, df, dr)
                            && !self.is_own(to)
                        {
                            add(from, to, None);
                        }
                    }
                }
                letter => {
                    let dirs: Vec<(i32, i32)> = match letter {
                        b'r' => ROOK_DIRS.to_vec(),
                        b'b' => BISHOP_DIRS.to_vec(),
                        _ => [ROOK_DIRS, BISHOP_DIRS].concat(),
                    };
                    for (df, dr) in dirs {
                        let mut at = from;
                        while let Some(to) = offset(at, df, dr) {
                            if self.is_own(to) {
                                break;
                            }
                            add(from, to, None);
                            if self.is_enemy(to) {
                                break;
                            }
                            at = to;
                        }
                    }
                }
            }
        }
        // Castling, the same rules for standard chess and Chess960: the king goes to g/c and
        // the rook to f/d; every square either passes over or lands on is empty but for the
        // two of them; the king is not in check and no square it passes over is attacked
        // (where it lands is tested by the legality filter, after the move, which also
        // catches a castling rook that shielded the king along the rank).
        let base = if self.white { 0 } else { 56 };
        let rights = if self.white { [0, 1] } else { [2, 3] };
        for right in rights {
            let Some(rook) = self.castling[right] else {
                continue;
            };
            let king = self.king_square(self.white);
            let kingside = rook > king;
            let (king_to, rook_to) = if kingside {
                (base + 6, base + 5)
            } else {
                (base + 2, base + 3)
            };
            let span = |a: usize, b: usize| a.min(b)..=a.max(b);
            let path_clear = span(king, king_to)
                .chain(span(rook, rook_to))
                .all(|sq| sq == king || sq == rook || self.board[sq] == EMPTY);
            // The king's own square first: a king that does not move still may not castle
            // out of check (the rook could block the check).
            let passed_safe = !self.attacked(king, !self.white)
                && span(king, king_to)
                    .filter(|&sq| sq != king_to)
                    .all(|sq| !self.attacked(sq, !self.white));
            if path_clear && passed_safe {
                moves.push(RefMove {
                    from: king,
                    to: if self.chess960 { rook } else { king_to },
                    promotion: None,
                    rook: Some(rook),
                });
            }
        }
        moves
    }

    /// The position after `mv` (which must be pseudo-legal here).
    fn make(&self, mv: RefMove) -> RefPos {
        let mut next = self.clone();
        let piece = self.board[mv.from];
        let is_pawn = piece.eq_ignore_ascii_case(&b'p');
        let is_king = piece.eq_ignore_ascii_case(&b'k');
        let captured = if mv.rook.is_some() {
            EMPTY
        } else {
            self.board[mv.to]
        };
        if let Some(rook) = mv.rook {
            // Both leave before either lands: they may swap or land on each other's squares.
            let base = mv.from - mv.from % 8;
            let (king_to, rook_to) = if rook > mv.from {
                (base + 6, base + 5)
            } else {
                (base + 2, base + 3)
            };
            let rook_letter = self.board[rook];
            next.board[mv.from] = EMPTY;
            next.board[rook] = EMPTY;
            next.board[king_to] = piece;
            next.board[rook_to] = rook_letter;
        } else {
            next.board[mv.from] = EMPTY;
            next.board[mv.to] = match mv.promotion {
                Some(letter) => colored(letter, self.white),
                None => piece,
            };
            let en_passant = is_pawn && mv.from % 8 != mv.to % 8 && captured == EMPTY;
            if en_passant {
                // The captured pawn stands beside the mover's origin, on the destination's
                // file.
                next.board[(mv.from / 8) * 8 + mv.to % 8] = EMPTY;
            }
        }
        if is_king {
            let own = if self.white { [0, 1] } else { [2, 3] };
            for right in own {
                next.castling[right] = None;
            }
        }
        // Anything leaving or arriving on a castling rook's square ends that right.
        for right in 0..4 {
            if let Some(rook) = self.castling[right]
                && (mv.from == rook || mv.to == rook)
            {
                next.castling[right] = None;
            }
        }
        if next.castling.iter().all(Option::is_none) {
            next.chess960 = false;
        }
        // constmove records the en-passant square only when an enemy pawn stands beside the
        // pawn that advanced (documented on `Position::play`); so does the reference.
        next.ep = None;
        if is_pawn && mv.from.abs_diff(mv.to) == 16 {
            let enemy_pawn = colored(b'p', !self.white);
            let beside = [-1, 1]
                .iter()
                .any(|&df| offset(mv.to, df, 0).is_some_and(|sq| self.board[sq] == enemy_pawn));
            if beside {
                next.ep = Some((mv.from + mv.to) / 2);
            }
        }
        next.halfmove = if is_pawn || captured != EMPTY {
            0
        } else {
            self.halfmove + 1
        };
        if !self.white {
            next.fullmove += 1;
        }
        next.white = !self.white;
        next
    }

    /// Whether the side that just moved left its king attacked.
    fn mover_in_check(&self) -> bool {
        self.attacked(self.king_square(!self.white), self.white)
    }

    fn legal_moves(&self) -> Vec<RefMove> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|&mv| !self.make(mv).mover_in_check())
            .collect()
    }

    /// The kind constmove gives this (legal) move.
    fn kind_of(&self, mv: RefMove) -> MoveKind {
        let piece = self.board[mv.from].to_ascii_lowercase();
        if let Some(letter) = mv.promotion {
            let piece = match letter {
                b'q' => Piece::Queen,
                b'r' => Piece::Rook,
                b'b' => Piece::Bishop,
                _ => Piece::Knight,
            };
            MoveKind::Promotion(piece)
        } else if piece == b'p' && mv.from.abs_diff(mv.to) == 16 {
            MoveKind::DoublePush
        } else if piece == b'p' && mv.from % 8 != mv.to % 8 && self.board[mv.to] == EMPTY {
            MoveKind::EnPassant
        } else if piece == b'k' && mv.rook.is_some() {
            MoveKind::Castle
        } else {
            MoveKind::Normal
        }
    }

    fn library_move(&self, mv: RefMove) -> Move {
        let square = |index: usize| Square::new(index as u8).unwrap();
        Move::new(square(mv.from), square(mv.to), self.kind_of(mv))
    }
}

/// Reference perft: the number of leaves `depth` plies down, by make and test.
fn ref_perft(pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| ref_perft(&pos.make(mv), depth - 1))
        .sum()
}

/// Reference perft to depths `1..=depth` at once: entry `d - 1` is perft `d`.
fn ref_perft_levels(pos: &RefPos, depth: usize) -> Vec<u64> {
    fn walk(pos: &RefPos, ply: usize, counts: &mut [u64]) {
        let moves = pos.legal_moves();
        counts[ply] += moves.len() as u64;
        if ply + 1 < counts.len() {
            for mv in moves {
                walk(&pos.make(mv), ply + 1, counts);
            }
        }
    }
    let mut counts = vec![0; depth];
    walk(pos, 0, &mut counts);
    counts
}

fn sorted_uci(moves: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut moves: Vec<String> = moves.into_iter().collect();
    moves.sort();
    moves
}

/// `a` minus `b`, as multisets of sorted strings.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut rest = b.to_vec();
    a.iter()
        .filter(|item| match rest.iter().position(|other| other == *item) {
            Some(at) => {
                rest.swap_remove(at);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// Where constmove's perft and the reference part: divide at `depth`, then descend into the
/// first differing root move, down to the position whose move lists differ.
fn explain_perft_mismatch(fen: &str, depth: u32, backend: Backend) -> String {
    let mut report = String::new();
    let mut fen = fen.to_owned();
    let mut depth = depth;
    while depth >= 1 {
        let pos = Position::from_fen(&fen).unwrap();
        let reference = RefPos::from_fen(&fen);
        let ours: BTreeMap<String, u64> =
            match PerftOptions::new().backend(backend).divide(&pos, depth) {
                Ok(counts) => counts.iter().map(|(mv, n)| (mv.to_string(), *n)).collect(),
                Err(err) => return format!("{report}divide failed: {err}"),
            };
        let theirs: BTreeMap<String, u64> = reference
            .legal_moves()
            .into_iter()
            .map(|mv| (mv.uci(), ref_perft(&reference.make(mv), depth - 1)))
            .collect();
        report.push_str(&format!("  divide of {fen:?} at depth {depth}:\n"));
        let mut first_diff = None;
        for uci in ours
            .keys()
            .chain(theirs.keys())
            .collect::<std::collections::BTreeSet<_>>()
        {
            let (a, b) = (ours.get(uci), theirs.get(uci));
            if a != b {
                report.push_str(&format!("    {uci}: constmove {a:?}, reference {b:?}\n"));
                if first_diff.is_none() && a.is_some() && b.is_some() {
                    first_diff = Some(uci.clone());
                }
            }
        }
        match first_diff {
            Some(uci) if depth > 1 => {
                let mut child = pos.clone();
                child.play(pos.parse_uci(&uci).unwrap()).unwrap();
                fen = child.to_string();
                depth -= 1;
            }
            _ => break,
        }
    }
    report
}

// ---------------------------------------------------------------------------------------
// Visitors.
// ---------------------------------------------------------------------------------------

/// What a visitor learns about one move: the move, the child board it builds with the
/// `Board::after_*` methods, and the child status flags.
#[derive(Debug)]
struct Visited {
    mv: Move,
    child: Board,
    white: bool,
    ep: bool,
    /// `WK`, `WQ`, `BK`, `BQ`.
    castling: [bool; 4],
}

/// Records every move with its child board and status.
#[derive(Default)]
struct RecordingVisitor(Vec<Visited>);

impl RecordingVisitor {
    fn record<C: StatusFlags>(&mut self, from: Square, to: Square, kind: MoveKind, child: Board) {
        self.0.push(Visited {
            mv: Move::new(from, to, kind),
            child,
            white: C::WHITE,
            ep: C::EP,
            castling: [C::WK, C::WQ, C::BK, C::BQ],
        });
    }
}

/// The colour that made the move leading to status `C`.
fn mover<C: StatusFlags>() -> Color {
    Color::from_white(!C::WHITE)
}

impl Visitor for RecordingVisitor {
    fn king<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::King, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn castle<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_castle(mover::<C>(), from, to);
        self.record::<C>(from, to, MoveKind::Castle, child);
    }
    fn pawn_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Pawn, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn pawn_double_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Pawn, from, to);
        self.record::<C>(from, to, MoveKind::DoublePush, child);
    }
    fn pawn_capture<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Pawn, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn en_passant<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_en_passant(mover::<C>(), from, to);
        self.record::<C>(from, to, MoveKind::EnPassant, child);
    }
    fn promotion<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square, piece: Piece) {
        let child = board.after_promotion(mover::<C>(), from, to, piece);
        self.record::<C>(from, to, MoveKind::Promotion(piece), child);
    }
    fn knight<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Knight, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn bishop<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Bishop, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn rook<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Rook, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
    fn queen<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let child = board.after_move(mover::<C>(), Piece::Queen, from, to);
        self.record::<C>(from, to, MoveKind::Normal, child);
    }
}

/// Leaves `depth >= 1` plies down, counted by descending with `legal_moves` and `play` and
/// counting the last ply's moves with a visitor.
fn visited_leaves(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        // The recording visitor: one visitor type fewer to compile for every status.
        let mut recorder = RecordingVisitor::default();
        pos.visit(&mut recorder);
        return recorder.0.len() as u64;
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv).expect("a listed move is playable");
            visited_leaves(&child, depth - 1)
        })
        .sum()
}

// ---------------------------------------------------------------------------------------
// The random walk.
// ---------------------------------------------------------------------------------------

/// Start positions: the standard ones plus en-passant, promotion and castling heavy ones.
const START_FENS: [&str; 20] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NBPP/RNBQK2R w KQ - 1 8",
    // En passant: an ep square in the FEN, pawn races, ep pins and ep checks.
    "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "4k3/1p1p1p1p/8/P1P1P1P1/p1p1p1p1/8/1P1P1P1P/4K3 w - - 0 1",
    // Promotions, including captures on castling corners.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "8/PPPPPPPP/8/2k5/8/7K/pppppppp/8 w - - 0 1",
    // Castling with attacked and blocked paths.
    "r3k2r/p1pp1pb1/bn2Qnp1/2qPN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQkq - 3 2",
    // Chess960 starts (fischer.epd lines 1 and 2), double Chess960 (each side its own back
    // rank), and castling-heavy Chess960 positions: a king and rook that swap, a king on g1.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "nrbkrqnb/pppppppp/8/8/8/8/PPPPPPPP/RKRBBQNN w CAeb - 0 1",
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/2R2KR1 w GCkq - 0 1",
    "1r4kr/p5pp/8/8/8/8/P5PP/1R4KR w HBhb - 0 1",
];

/// Random games per start position.
const GAMES: usize = 4;
/// Plies per random game (fewer when a game ends).
const PLIES: usize = 40;
/// Perft checks run on every `PERFT_EVERY`-th position reached.
const PERFT_EVERY: usize = 4;
/// The deepest perft compared with the reference.
const PERFT_DEPTH: u32 = 3;

/// Collects failures so that one run reports all of them.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, ok: bool, message: impl FnOnce() -> String) {
        if !ok {
            self.0.push(message());
        }
    }

    fn assert_none(&self, what: &str) {
        if !self.0.is_empty() {
            let shown: Vec<&str> = self.0.iter().take(40).map(String::as_str).collect();
            panic!(
                "{what}: {} failures (first {} shown):\n{}",
                self.0.len(),
                shown.len(),
                shown.join("\n")
            );
        }
    }
}

/// The backends to compare: Magic always, Pext when this CPU runs it.
fn backends() -> Vec<Backend> {
    let mut backends = vec![Backend::Magic];
    match Backend::Pext.resolve() {
        Ok(_) => backends.push(Backend::Pext),
        Err(err) => eprintln!("note: skipping the PEXT backend: {err}"),
    }
    backends
}

/// Whether two boards hold the same pieces on the same squares.
fn same_pieces(a: &Board, b: &Board) -> bool {
    [Color::White, Color::Black].into_iter().all(|color| {
        Piece::ALL
            .into_iter()
            .all(|piece| a.pieces(color, piece) == b.pieces(color, piece))
    })
}

/// Whether constmove's position is the reference's: the reference's FEN (Shredder-FEN castling
/// in Chess960) read by constmove gives it, counters and rules included.
fn same(pos: &Position, reference: &RefPos) -> bool {
    Position::from_fen(&reference.fen()).is_ok_and(|theirs| theirs == *pos)
}

/// The checks run on every position reached.
fn check_position(pos: &Position, reference: &RefPos, failures: &mut Failures) {
    let fen = pos.to_string();

    // The library's position is the reference's (ours from FEN or from our own make).
    failures.check(same(pos, reference), || {
        format!(
            "position differs: constmove {fen:?}, reference {:?}",
            reference.fen()
        )
    });

    // FEN round trip.
    match Position::from_fen(&fen) {
        Ok(parsed) => failures.check(parsed == *pos, || {
            format!("{fen:?}: parsing Display gives a different position {parsed:?}")
        }),
        Err(err) => failures
            .0
            .push(format!("{fen:?}: Display output rejected: {err}")),
    }

    // (a) The legal move sets.
    let ours = sorted_uci(pos.legal_moves().iter().map(Move::to_string));
    let theirs = sorted_uci(reference.legal_moves().into_iter().map(RefMove::uci));
    failures.check(ours == theirs, || {
        format!(
            "{fen:?}: legal moves differ: only constmove {:?}, only reference {:?}",
            minus(&ours, &theirs),
            minus(&theirs, &ours)
        )
    });

    // Every legal move has the kind the reference gives it, and plays to the reference's
    // child; every pseudo-legal move the reference rejects is rejected and changes nothing.
    for mv in reference.pseudo_legal_moves() {
        let child = reference.make(mv);
        let library_move = reference.library_move(mv);
        let mut played = pos.clone();
        let result = played.play(library_move);
        if child.mover_in_check() {
            failures.check(result.is_err() && played == *pos, || {
                format!(
                    "{fen:?}: illegal {} ({library_move:?}) was accepted",
                    mv.uci()
                )
            });
        } else {
            match result {
                Err(err) => failures.0.push(format!(
                    "{fen:?}: play rejected legal {} ({library_move:?}): {err}",
                    mv.uci()
                )),
                Ok(()) => failures.check(same(&played, &child), || {
                    format!(
                        "{fen:?}: after {} constmove has {:?}, reference {:?}",
                        mv.uci(),
                        played.to_string(),
                        child.fen()
                    )
                }),
            }
        }
    }

    // The visitor: same moves as legal_moves (kinds included), and each child board and
    // status agrees with play.
    let mut recorder = RecordingVisitor::default();
    pos.visit(&mut recorder);
    let describe = |mv: &Move| format!("{mv}:{:?}", mv.kind());
    let visited = sorted_uci(recorder.0.iter().map(|v| describe(&v.mv)));
    let listed = sorted_uci(pos.legal_moves().iter().map(describe));
    failures.check(visited == listed, || {
        format!(
            "{fen:?}: visit and legal_moves differ: only visit {:?}, only legal_moves {:?}",
            minus(&visited, &listed),
            minus(&listed, &visited)
        )
    });
    for v in &recorder.0 {
        let mut child = pos.clone();
        if child.play(v.mv).is_err() {
            failures
                .0
                .push(format!("{fen:?}: visited move {} not playable", v.mv));
            continue;
        }
        let rights = child.castling_rights();
        let expected = [
            rights.has(Color::White, true),
            rights.has(Color::White, false),
            rights.has(Color::Black, true),
            rights.has(Color::Black, false),
        ];
        // The pieces: a board made by a visitor keeps the castling squares of rights lost on
        // the way, which `play` resets.
        let ok = same_pieces(child.board(), &v.child)
            && v.white == (child.side_to_move() == Color::White)
            && v.ep == child.ep_square().is_some()
            && v.castling == expected;
        failures.check(ok, || {
            format!(
                "{fen:?}: visiting {} gives child status white={} ep={} castling={:?} \
                 (board equal: {}), but play gives {:?}",
                v.mv,
                v.white,
                v.ep,
                v.castling,
                same_pieces(child.board(), &v.child),
                child.to_string()
            )
        });
    }
}

/// (b) and (c): perft against the reference and against counted leaves, on every backend.
fn check_perft(pos: &Position, reference: &RefPos, backends: &[Backend], failures: &mut Failures) {
    let fen = pos.to_string();
    let expected = ref_perft_levels(reference, PERFT_DEPTH as usize);
    for (depth, &nodes) in (1..=PERFT_DEPTH).zip(&expected) {
        let leaves = (depth >= 2).then(|| visited_leaves(pos, depth));
        for &backend in backends {
            let got = PerftOptions::new().backend(backend).perft(pos, depth);
            failures.check(got == Ok(nodes), || {
                format!(
                    "{fen:?} depth {depth} backend {backend}: reference {nodes}, constmove \
                     {got:?}\n{}",
                    explain_perft_mismatch(&fen, depth, backend)
                )
            });
            if let Some(leaves) = leaves {
                failures.check(got == Ok(leaves), || {
                    format!(
                        "{fen:?} depth {depth} backend {backend}: bulk count {got:?}, but \
                         {leaves} leaves visited"
                    )
                });
            }
        }
    }
}

/// What one random walk covered.
#[derive(Default)]
struct Coverage {
    positions: usize,
    perft_positions: usize,
    moves_by_kind: BTreeMap<&'static str, usize>,
}

fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Normal => "normal",
        MoveKind::DoublePush => "double push",
        MoveKind::Castle => "castle",
        MoveKind::EnPassant => "en passant",
        MoveKind::Promotion(_) => "promotion",
    }
}

/// Random games from `start`; every position reached is checked, every
/// [`PERFT_EVERY`]-th also with perft.
fn walk(start: &str, seed: u64, backends: &[Backend], failures: &mut Failures) -> Coverage {
    let mut rng = XorShift(seed);
    let mut coverage = Coverage::default();
    let mut counter = 0;
    for _ in 0..GAMES {
        let mut pos = Position::from_fen(start).unwrap();
        let mut reference = RefPos::from_fen(start);
        for _ in 0..=PLIES {
            check_position(&pos, &reference, failures);
            coverage.positions += 1;
            if counter % PERFT_EVERY == 0 {
                check_perft(&pos, &reference, backends, failures);
                coverage.perft_positions += 1;
            }
            counter += 1;
            for mv in pos.legal_moves().iter() {
                *coverage
                    .moves_by_kind
                    .entry(kind_name(mv.kind()))
                    .or_default() += 1;
            }
            let moves = reference.legal_moves();
            if moves.is_empty() {
                break;
            }
            // En passant and castling: random play alone rarely takes them.
            let mv = rng.pick_preferring(&moves, |&mv| {
                matches!(
                    reference.kind_of(mv),
                    MoveKind::EnPassant | MoveKind::Castle
                )
            });
            let library_move = reference.library_move(mv);
            if let Err(err) = pos.play(library_move) {
                failures.0.push(format!(
                    "{pos}: play rejected the reference's move {} ({library_move:?}): {err}",
                    mv.uci()
                ));
                break;
            }
            reference = reference.make(mv);
            if !same(&pos, &reference) {
                // Reported by check_position on the next round; stop this game so one
                // divergence does not cascade.
                check_position(&pos, &reference, failures);
                break;
            }
        }
    }
    coverage
}

/// The largest published count the reference is checked against.
const REFERENCE_BUDGET: u64 = 100_000;

#[test]
fn reference_generator_knows_the_published_counts() {
    // The reference is only useful if it is right: check it against the published counts
    // of the data files (small ones; it is slow) before trusting it below.
    let mut entries = common::load("perftsuite.epd", common::parse_epd);
    entries.extend(common::load("perftsuite_extras.epd", common::parse_epd));
    entries.extend(common::load(
        "tricky_positions.csv",
        common::parse_tricky_csv,
    ));
    // Chess960: the first 40 start positions and shakmaty's tricky ones (X-FEN castling).
    entries.extend(
        common::load("fischer.epd", common::parse_epd)
            .into_iter()
            .take(40),
    );
    entries.extend(common::load(
        "shakmaty_tricky.perft",
        common::parse_perft_blocks,
    ));
    entries.retain(|entry| Position::from_fen(&entry.fen).is_ok());
    let cases = common::select_cases(&entries, |_, nodes| nodes <= REFERENCE_BUDGET);
    assert!(cases.len() >= 400, "only {} counts selected", cases.len());
    let mut failures = Failures::default();
    for case in &cases {
        let got = ref_perft(&RefPos::from_fen(&case.fen), case.depth);
        failures.check(got == case.nodes, || {
            format!(
                "{}: reference perft({:?}, {}) = {got}, published {}",
                case.origin, case.fen, case.depth, case.nodes
            )
        });
    }
    println!(
        "reference generator agrees with {} published counts",
        cases.len()
    );
    failures.assert_none("reference generator");
}

#[test]
fn random_positions_agree_with_the_reference() {
    let backends = backends();
    let mut failures = Failures::default();
    let mut total = Coverage::default();
    let start = std::time::Instant::now();
    for (index, fen) in START_FENS.iter().enumerate() {
        let seed = 0x9E37_79B9_7F4A_7C15 ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let coverage = walk(fen, seed, &backends, &mut failures);
        total.positions += coverage.positions;
        total.perft_positions += coverage.perft_positions;
        for (kind, n) in coverage.moves_by_kind {
            *total.moves_by_kind.entry(kind).or_default() += n;
        }
    }
    println!(
        "{} positions checked ({} with perft 1-{PERFT_DEPTH} on {:?}), legal moves seen by \
         kind {:?}, {:.2?}",
        total.positions,
        total.perft_positions,
        backends,
        total.moves_by_kind,
        start.elapsed()
    );
    failures.assert_none("differential");
    assert!(
        total.positions >= 500,
        "too few positions: {}",
        total.positions
    );
    assert!(total.perft_positions >= 150);
    for kind in ["double push", "castle", "en passant", "promotion"] {
        assert!(
            total.moves_by_kind.get(kind).copied().unwrap_or(0) >= 10,
            "too few {kind} moves seen: {:?}",
            total.moves_by_kind
        );
    }
}

/// Sparse depth-2 nodes (kings, rooks and pawns) count a rook's moves along the line on which
/// it pins a pawn to the other king without making them: rank and file pins, pushes and
/// double pushes of the pinned pawn short of the rook, a second rook on the line, both sides
/// pinning. Perft 1-4 on both backends against the reference.
#[test]
fn sparse_rook_pins_agree_with_the_reference() {
    agree_to_depth_4(
        "sparse rook pins",
        &[
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/4p3/8/8/8/8/8/K3R3 w - - 0 1",
            "4k3/4p3/8/8/8/8/8/K3R3 b - - 0 1",
            "4k3/8/8/4p3/8/8/4R3/K3R3 b - - 0 1",
            "8/8/8/8/R2p2k1/8/5P2/K7 w - - 0 1",
            "k7/8/8/8/1K1P2r1/8/8/7r w - - 0 1",
            "4r1k1/8/8/8/8/8/4P3/4K3 b - - 0 1",
            "8/8/3k4/3p4/8/1K6/3R4/3R4 b - - 0 1",
        ],
    );
}

/// Depth-2 nodes leave a quiet move untouched when it stays off what the replier king's
/// squares depend on for its kind of piece: open kings with knights, bishops and queens
/// about, castling squares open, both sides to move. Perft 1-4 on both backends against the
/// reference.
#[test]
fn open_kings_agree_with_the_reference() {
    agree_to_depth_4(
        "open kings",
        &[
            "b7/5krp/1P5b/3n1p2/3R2P1/1P1nR3/2K2N2/2Q5 w - - 5 49",
            "b7/5krp/1P5b/3n1p2/3R2P1/1P1nR3/2K2N2/2Q5 b - - 5 49",
            "8/5P1n/1p3k2/1brP4/1r4pP/p3N2N/P5B1/3R3K w - - 2 60",
            "2b2b2/3nn1kr/1p2p1p1/P2p4/P2pP1p1/1B1N2K1/8/r3R3 b - - 7 37",
            "8/4kp2/3bp1p1/8/3N4/4PP2/5KPP/8 w - - 0 1",
            "3r4/5k2/2n2pp1/7p/7P/5NP1/2R2PK1/8 b - - 0 1",
            "r3k2r/8/8/8/3q4/8/2N2B2/R3K2R w KQkq - 0 1",
            "r3k2r/2n2b2/8/3Q4/8/8/8/R3K2R b KQkq - 0 1",
        ],
    );
}

/// Perft 1-4 of each FEN on both backends against the reference generator.
fn agree_to_depth_4(what: &str, fens: &[&str]) {
    let backends = backends();
    let mut failures = Failures::default();
    for &fen in fens {
        let pos: Position = fen.parse().expect("a valid FEN");
        let reference = RefPos::from_fen(fen);
        let expected = ref_perft_levels(&reference, 4);
        for (depth, &nodes) in (1..=4).zip(&expected) {
            for &backend in &backends {
                let got = PerftOptions::new().backend(backend).perft(&pos, depth);
                failures.check(got == Ok(nodes), || {
                    format!("{fen:?} depth {depth} backend {backend}: reference {nodes}, {got:?}")
                });
            }
        }
    }
    failures.assert_none(what);
}
