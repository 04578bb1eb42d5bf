//! The searches of `engine/alphabeta` and `engine/quiescence`, written once per library on
//! its public API: negamax alpha-beta (fail-soft, no transposition table), material-only
//! evaluation, and one move order for all, so the trees are identical and the node counts
//! must agree. The order is a total key of the move's facts (victim, promotion, mover, from,
//! to: captures by MVV-LVA, then promotions, then the rest by mover and squares), so no
//! library's generation order leaks into the tree. Every library takes its moves in that order
//! by the same [`next_key`]: the first ones picked by selection, the rest sorted only when a
//! node gets that far (a cut-off usually comes first), as engines do.
//!
//! constmove runs twice: the list path (`legal_moves` in key order, `play_unchecked` on a copy)
//! and the walk path (`Generator::visit` collects the keys, then each child is made, best
//! first, by `Generator::children_masked` with a mask of its squares, stopping at it with
//! `Children::is_cut`). The quiescence search generates captures and promotions only:
//! `legal_moves_masked(MoveMask::NOISY)`, `visit_masked`/`children_masked` on the walk,
//! cozy-chess's target squares masked, shakmaty's `capture_moves` (plus `promotion_moves`
//! when a pawn can promote).

use constmove::walk::{Children, Generator, Node, StatusFlags, Visitor, Walk};
use constmove::{Board, Color, Move, MoveKind, MoveList, MoveMask, Piece, Position, Square};
use std::marker::PhantomData;

/// A mate against the side to move (no ply distance: every library scores the same).
pub const MATE: i32 = 30_000;
const INFINITY: i32 = MATE + 1;
/// Centipawns by piece index (pawn 0 … queen 4).
const VALUE: [i32; 5] = [100, 300, 320, 500, 900];

/// What a search returns: the root's score and the nodes it visited (interior, leaves and
/// quiescence nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The score for the side to move at the root.
    pub score: i32,
    /// Every node entered.
    pub nodes: u64,
}

/// The order key of a move (lower first), from facts every library gives: the captured
/// piece (1 pawn … 5 queen, en passant a pawn, 0 none), the promotion piece (2 knight …
/// 5 queen, 0 none), the mover (1 pawn … 6 king) and the squares (a1 = 0; castling lands on
/// the king's destination). Unique per legal move, so the order is total. The low 8 bits
/// are left for an index into the caller's list.
#[inline(always)]
pub fn order_key(victim: u32, promotion: u32, mover: u32, from: u32, to: u32) -> u32 {
    (((7 - victim) << 18) | ((7 - promotion) << 15) | (mover << 12) | (from << 6) | to) << 8
}

/// The squares and promotion of a key from [`order_key`].
#[inline(always)]
fn decode(key: u32) -> (u32, u32, u32) {
    let key = key >> 8;
    ((key >> 6) & 63, key & 63, 7 - ((key >> 15) & 7))
}

// ----- constmove: the list path -----

/// Material of the side to move minus the other's.
#[inline(always)]
fn material(board: &Board, us: Color) -> i32 {
    let mut score = 0;
    for (piece, value) in Piece::ALL.into_iter().zip(VALUE) {
        score += value
            * (board.pieces(us, piece).count() as i32 - board.pieces(!us, piece).count() as i32);
    }
    score
}

/// Index + 1 of the piece on `square` of the side `them` (0 when empty).
#[inline(always)]
fn victim_on(board: &Board, them: Color, square: Square) -> u32 {
    if !board.color(them).contains(square) {
        return 0;
    }
    for piece in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook] {
        if board.pieces(them, piece).contains(square) {
            return piece as u32 + 1;
        }
    }
    Piece::Queen as u32 + 1
}

#[inline(always)]
fn mover_on(board: &Board, us: Color, square: Square) -> u32 {
    for piece in [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ] {
        if board.pieces(us, piece).contains(square) {
            return piece as u32 + 1;
        }
    }
    Piece::King as u32 + 1
}

/// Keys of `moves` (with their list index), unsorted: [`next_key`] orders them.
#[inline(always)]
fn keys_of(position: &Position, moves: &MoveList, keys: &mut [u32; 256]) -> usize {
    let board = position.board();
    let us = position.side_to_move();
    for (i, mv) in moves.iter().enumerate() {
        let (from, to) = (mv.from(), mv.to());
        let (victim, promotion) = match mv.kind() {
            MoveKind::EnPassant => (1, 0),
            MoveKind::Castle => (0, 0),
            MoveKind::Promotion(piece) => (victim_on(board, !us, to), piece as u32 + 1),
            _ => (victim_on(board, !us, to), 0),
        };
        keys[i] = order_key(
            victim,
            promotion,
            mover_on(board, us, from),
            from.index() as u32,
            to.index() as u32,
        ) | i as u32;
    }
    moves.len()
}

/// Alpha-beta on `legal_moves`; at depth 0 the evaluation, or quiescence when `QUIESCE`.
pub fn list_search<const QUIESCE: bool>(
    position: &Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    if depth == 0 {
        return if QUIESCE {
            list_quiesce(position, alpha, beta, nodes)
        } else {
            *nodes += 1;
            material(position.board(), position.side_to_move())
        };
    }
    *nodes += 1;
    let moves = position.legal_moves();
    if moves.is_empty() {
        return if position.is_check() { -MATE } else { 0 };
    }
    let mut keys = [0u32; 256];
    let count = keys_of(position, &moves, &mut keys);
    let mut best = -INFINITY;
    for i in 0..count {
        let key = next_key(&mut keys[..count], i);
        let mut child = position.clone();
        child.play_unchecked(moves[(key & 0xFF) as usize]);
        let score = -list_search::<QUIESCE>(&child, depth - 1, -beta, -alpha, nodes);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Stand pat, then captures and promotions (`legal_moves_masked(MoveMask::NOISY)`).
fn list_quiesce(position: &Position, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let stand = material(position.board(), position.side_to_move());
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let moves = position.legal_moves_masked(MoveMask::NOISY);
    let mut keys = [0u32; 256];
    let count = keys_of(position, &moves, &mut keys);
    let mut best = stand;
    for i in 0..count {
        let key = next_key(&mut keys[..count], i);
        let mut child = position.clone();
        child.play_unchecked(moves[(key & 0xFF) as usize]);
        let score = -list_quiesce(&child, -beta, -alpha, nodes);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// [`list_search`] from the root.
pub fn constmove_list(position: &Position, depth: u32, quiesce: bool) -> Searched {
    let mut nodes = 0;
    let score = if quiesce {
        list_search::<true>(position, depth, -INFINITY, INFINITY, &mut nodes)
    } else {
        list_search::<false>(position, depth, -INFINITY, INFINITY, &mut nodes)
    };
    Searched { score, nodes }
}

/// Plain minimax (every node, no pruning) on the list: the score alpha-beta must return.
pub fn minimax(position: &Position, depth: u32) -> i32 {
    if depth == 0 {
        return material(position.board(), position.side_to_move());
    }
    let moves = position.legal_moves();
    if moves.is_empty() {
        return if position.is_check() { -MATE } else { 0 };
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -minimax(&child, depth - 1)
        })
        .max()
        .expect("a move")
}

// ----- constmove: the walk path -----

/// Collects a node's order keys from the generator's visitor calls.
struct Keys {
    keys: [u32; 256],
    len: usize,
    them: Color,
}

impl Keys {
    #[inline(always)]
    fn push(&mut self, victim: u32, promotion: u32, mover: u32, from: Square, to: Square) {
        if self.len < 256 {
            self.keys[self.len] = order_key(
                victim,
                promotion,
                mover,
                from.index() as u32,
                to.index() as u32,
            );
            self.len += 1;
        }
    }

    #[inline(always)]
    fn piece(&mut self, board: &Board, mover: Piece, from: Square, to: Square) {
        let victim = victim_on(board, self.them, to);
        self.push(victim, 0, mover as u32 + 1, from, to);
    }
}

impl Visitor for Keys {
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::King, from, to)
    }
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.push(0, 0, Piece::King as u32 + 1, from, to)
    }
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.push(0, 0, 1, from, to)
    }
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.push(0, 0, 1, from, to)
    }
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::Pawn, from, to)
    }
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.push(1, 0, 1, from, to)
    }
    #[inline(always)]
    fn promotion<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square, piece: Piece) {
        let victim = victim_on(board, self.them, to);
        self.push(victim, piece as u32 + 1, 1, from, to)
    }
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::Knight, from, to)
    }
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::Bishop, from, to)
    }
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::Rook, from, to)
    }
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece(board, Piece::Queen, from, to)
    }
}

/// Makes the one child whose move has promotion `promotion` (the mask holds its squares),
/// searches it, and cuts the node's remaining children.
struct OneChild<'a, G, const QUIESCE: bool> {
    promotion: u32,
    depth: u32,
    alpha: i32,
    beta: i32,
    score: Option<i32>,
    nodes: &'a mut u64,
    engine: PhantomData<G>,
}

impl<G: Generator, const QUIESCE: bool> Children for OneChild<'_, G, QUIESCE> {
    #[inline(always)]
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, mv: Move) {
        if mv.kind().promotion().map_or(0, |piece| piece as u32 + 1) != self.promotion {
            return;
        }
        self.score = Some(-if self.depth == 0 && QUIESCE {
            walk_quiesce::<C, G>(child, self.alpha, self.beta, self.nodes)
        } else {
            walk_search::<C, G, QUIESCE>(child, self.depth, self.alpha, self.beta, self.nodes)
        });
    }

    #[inline(always)]
    fn is_cut(&self) -> bool {
        self.score.is_some()
    }
}

/// The origin and destination of a key as a mask over `base`.
#[inline(always)]
fn one_move(base: MoveMask, from: u32, to: u32) -> MoveMask {
    let square = |index: u32| Square::new(index as u8).expect("a square").bitboard();
    base.starting_on(square(from)).landing_on(square(to))
}

/// [`list_search`] on the walk: keys by `Generator::visit`, children one by one.
fn walk_search<S: StatusFlags, G: Generator, const QUIESCE: bool>(
    node: Node<'_, S>,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return material(node.board(), node.side_to_move());
    }
    let mut keys = Keys {
        keys: [0; 256],
        len: 0,
        them: !node.side_to_move(),
    };
    G::visit(node, &mut keys);
    if keys.len == 0 {
        return if node.is_check() { -MATE } else { 0 };
    }
    let keys = &mut keys.keys[..keys.len];
    let mut best = -INFINITY;
    for i in 0..keys.len() {
        let key = next_key(keys, i);
        let (from, to, promotion) = decode(key);
        let mut one = OneChild::<G, QUIESCE> {
            promotion,
            depth: depth - 1,
            alpha: -beta,
            beta: -alpha,
            score: None,
            nodes,
            engine: PhantomData,
        };
        G::children_masked(node, one_move(MoveMask::ALL, from, to), &mut one);
        let score = one.score.expect("the key's move is legal");
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// [`list_quiesce`] on the walk: keys by `Generator::visit_masked(NOISY)`.
fn walk_quiesce<S: StatusFlags, G: Generator>(
    node: Node<'_, S>,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let stand = material(node.board(), node.side_to_move());
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut keys = Keys {
        keys: [0; 256],
        len: 0,
        them: !node.side_to_move(),
    };
    G::visit_masked(node, MoveMask::NOISY, &mut keys);
    let keys = &mut keys.keys[..keys.len];
    let mut best = stand;
    for i in 0..keys.len() {
        let key = next_key(keys, i);
        let (from, to, promotion) = decode(key);
        let mut one = OneChild::<G, true> {
            promotion,
            depth: 0,
            alpha: -beta,
            beta: -alpha,
            score: None,
            nodes,
            engine: PhantomData,
        };
        G::children_masked(node, one_move(MoveMask::NOISY, from, to), &mut one);
        let score = one.score.expect("the key's move is legal");
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The walk path from the root.
pub struct WalkSearch {
    /// Plies of alpha-beta.
    pub depth: u32,
    /// Quiescence at the leaves.
    pub quiesce: bool,
}

impl Walk for WalkSearch {
    type Output = Searched;
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Searched {
        let mut nodes = 0;
        let score = if self.quiesce {
            walk_search::<S, G, true>(root, self.depth, -INFINITY, INFINITY, &mut nodes)
        } else {
            walk_search::<S, G, false>(root, self.depth, -INFINITY, INFINITY, &mut nodes)
        };
        Searched { score, nodes }
    }
}

// ----- cozy-chess -----

mod cozy {
    use super::{INFINITY, MATE, Searched, VALUE, next_key, order_key};
    use cozy_chess::{BitBoard, Board, Move, Piece, Rank, Square};

    fn material(board: &Board) -> i32 {
        let us = board.side_to_move();
        let mut score = 0;
        for (piece, value) in Piece::ALL.into_iter().zip(VALUE) {
            score += value
                * (board.colored_pieces(us, piece).len() as i32
                    - board.colored_pieces(!us, piece).len() as i32);
        }
        score
    }

    /// The moves (all, or captures and promotions) with their keys, unsorted.
    fn keyed(board: &Board, noisy: bool, moves: &mut [Move; 256], keys: &mut [u32; 256]) -> usize {
        let us = board.side_to_move();
        let ours = board.colors(us);
        let theirs = board.colors(!us);
        let ep = board.en_passant().map_or(BitBoard::EMPTY, |file| {
            Square::new(file, Rank::Sixth.relative_to(us)).bitboard()
        });
        let last = Rank::Eighth.relative_to(us).bitboard();
        let mut len = 0;
        board.generate_moves(|mut piece_moves| {
            if noisy {
                piece_moves.to &= if piece_moves.piece == Piece::Pawn {
                    theirs | ep | last
                } else {
                    theirs
                };
            }
            let mover = piece_moves.piece as u32 + 1;
            for mv in piece_moves {
                let (victim, to) = if ours.has(mv.to) {
                    // Castling, king onto its rook: key it by the king's destination.
                    let file = if mv.to.file() > mv.from.file() {
                        cozy_chess::File::G
                    } else {
                        cozy_chess::File::C
                    };
                    (0, Square::new(file, mv.from.rank()))
                } else if ep.has(mv.to) && piece_moves.piece == Piece::Pawn {
                    (1, mv.to)
                } else {
                    (
                        board.piece_on(mv.to).map_or(0, |piece| piece as u32 + 1),
                        mv.to,
                    )
                };
                let promotion = mv.promotion.map_or(0, |piece| piece as u32 + 1);
                moves[len] = mv;
                keys[len] =
                    order_key(victim, promotion, mover, mv.from as u32, to as u32) | len as u32;
                len += 1;
            }
            false
        });
        len
    }

    fn search(
        board: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        quiesce: bool,
        nodes: &mut u64,
    ) -> i32 {
        if depth == 0 {
            if quiesce {
                return self::quiesce(board, alpha, beta, nodes);
            }
            *nodes += 1;
            return material(board);
        }
        *nodes += 1;
        let mut moves = [Move {
            from: Square::A1,
            to: Square::A1,
            promotion: None,
        }; 256];
        let mut keys = [0; 256];
        let count = keyed(board, false, &mut moves, &mut keys);
        if count == 0 {
            return if board.checkers().is_empty() {
                0
            } else {
                -MATE
            };
        }
        let mut best = -INFINITY;
        for i in 0..count {
            let key = next_key(&mut keys[..count], i);
            let mut child = board.clone();
            child.play_unchecked(moves[(key & 0xFF) as usize]);
            let score = -search(&child, depth - 1, -beta, -alpha, quiesce, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(board: &Board, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
        *nodes += 1;
        let stand = material(board);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = [Move {
            from: Square::A1,
            to: Square::A1,
            promotion: None,
        }; 256];
        let mut keys = [0; 256];
        let count = keyed(board, true, &mut moves, &mut keys);
        let mut best = stand;
        for i in 0..count {
            let key = next_key(&mut keys[..count], i);
            let mut child = board.clone();
            child.play_unchecked(moves[(key & 0xFF) as usize]);
            let score = -quiesce(&child, -beta, -alpha, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The search from the root.
    pub fn run(board: &Board, depth: u32, quiesce: bool) -> Searched {
        let mut nodes = 0;
        let score = search(board, depth, -INFINITY, INFINITY, quiesce, &mut nodes);
        Searched { score, nodes }
    }
}

pub use cozy::run as cozy_chess;

// ----- shakmaty -----

mod shakmaty_search {
    use super::{INFINITY, MATE, Searched, VALUE, next_key, order_key};
    use shakmaty::{Bitboard, Chess, Move, MoveList, Position, Rank, Role, Square};

    fn material(position: &Chess) -> i32 {
        let board = position.board();
        let us = position.turn();
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let mut score = 0;
        for (role, value) in Role::ALL.into_iter().zip(VALUE) {
            let pieces = board.by_role(role);
            score += value * ((pieces & ours).count() as i32 - (pieces & theirs).count() as i32);
        }
        score
    }

    fn keyed(moves: &MoveList, keys: &mut [u32; 256]) -> usize {
        for (i, mv) in moves.iter().enumerate() {
            let from = mv.from().expect("no drops in chess");
            let to = match *mv {
                Move::Castle { king, rook } => Square::from_coords(
                    if rook.file() > king.file() {
                        shakmaty::File::G
                    } else {
                        shakmaty::File::C
                    },
                    king.rank(),
                ),
                _ => mv.to(),
            };
            keys[i] = order_key(
                mv.capture().map_or(0, |role| role as u32),
                mv.promotion().map_or(0, |role| role as u32),
                mv.role() as u32,
                from.to_u32(),
                to.to_u32(),
            ) | i as u32;
        }
        moves.len()
    }

    fn search(
        position: &Chess,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        quiesce: bool,
        nodes: &mut u64,
    ) -> i32 {
        if depth == 0 {
            if quiesce {
                return self::quiesce(position, alpha, beta, nodes);
            }
            *nodes += 1;
            return material(position);
        }
        *nodes += 1;
        let moves = position.legal_moves();
        if moves.is_empty() {
            return if position.is_check() { -MATE } else { 0 };
        }
        let mut keys = [0; 256];
        let count = keyed(&moves, &mut keys);
        let mut best = -INFINITY;
        for i in 0..count {
            let key = next_key(&mut keys[..count], i);
            let mut child = position.clone();
            child.play_unchecked(moves[(key & 0xFF) as usize]);
            let score = -search(&child, depth - 1, -beta, -alpha, quiesce, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(position: &Chess, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
        *nodes += 1;
        let stand = material(position);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = position.capture_moves();
        let us = position.turn();
        let pawns = position.board().by_role(Role::Pawn) & position.board().by_color(us);
        let seventh = Bitboard::from_rank(if us.is_white() {
            Rank::Seventh
        } else {
            Rank::Second
        });
        if !(pawns & seventh).is_empty() {
            moves.extend(
                position
                    .promotion_moves()
                    .into_iter()
                    .filter(|mv| !mv.is_capture()),
            );
        }
        let mut keys = [0; 256];
        let count = keyed(&moves, &mut keys);
        let mut best = stand;
        for i in 0..count {
            let key = next_key(&mut keys[..count], i);
            let mut child = position.clone();
            child.play_unchecked(moves[(key & 0xFF) as usize]);
            let score = -quiesce(&child, -beta, -alpha, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The search from the root.
    pub fn run(position: &Chess, depth: u32, quiesce: bool) -> Searched {
        let mut nodes = 0;
        let score = search(position, depth, -INFINITY, INFINITY, quiesce, &mut nodes);
        Searched { score, nodes }
    }
}

pub use shakmaty_search::run as shakmaty;

/// Moves taken by selection before the rest of a node's moves are sorted.
const PICKED: usize = 3;

/// The `i`th smallest of `keys`, for `i` = 0, 1, 2, … in turn: the first [`PICKED`] by
/// selection (swapped to the front), then the rest sorted once. Keys are unique, so the
/// order is exactly the sorted one and the trees stay identical.
#[inline(always)]
pub fn next_key(keys: &mut [u32], i: usize) -> u32 {
    if i < PICKED {
        let mut best = i;
        for (j, &key) in keys.iter().enumerate().skip(i + 1) {
            if key < keys[best] {
                best = j;
            }
        }
        keys.swap(i, best);
    } else if i == PICKED {
        keys[PICKED..].sort_unstable();
    }
    keys[i]
}
