//! What engines ask of a position besides its moves: whether one move is legal, attackers
//! of a square, checkers, pinned pieces, and the null move of null-move pruning. Sliders use
//! the slider layer's `Portable` lookup: these are per-node questions, not per-leaf ones.

use crate::base::attacks;
use crate::base::board::Board;
use crate::base::castling::destination_files;
use crate::base::chess_move::{Move, MoveKind};
use crate::base::geometry::back_rank_base;
use crate::base::types::{BitIter, Bitboard, Color, Piece, Square};
use crate::position::{Position, zobrist};
use crate::slider::Lookup;
use crate::slider::Portable;

impl Position {
    /// The pieces of `by` that attack `square` with the board as it stands (a piece attacks
    /// a square it could capture on, whether or not the capture would be legal).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position, Square};
    /// let pos = Position::startpos();
    /// let f3 = Square::from_file_rank(5, 2).unwrap();
    /// // The e2 and g2 pawns and the g1 knight.
    /// assert_eq!(pos.attackers_to(f3, Color::White).count(), 3);
    /// assert!(pos.attackers_to(f3, Color::Black).is_empty());
    /// ```
    pub fn attackers_to(&self, square: Square, by: Color) -> Bitboard {
        Bitboard(self.attackers_bits(square.index(), by, self.board.occupied_bits()))
    }

    /// Whether any piece of `by` attacks `square` (see [`Position::attackers_to`]).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position, Square};
    /// let pos = Position::startpos();
    /// assert!(pos.is_attacked(Square::from_file_rank(0, 2).unwrap(), Color::White)); // a3
    /// assert!(!pos.is_attacked(Square::from_file_rank(0, 3).unwrap(), Color::White)); // a4
    /// ```
    pub fn is_attacked(&self, square: Square, by: Color) -> bool {
        self.attackers_bits(square.index(), by, self.board.occupied_bits()) != 0
    }

    /// The pieces giving check to the side to move (empty when not in check; two in a double
    /// check).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos: Position = "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.checkers().count(), 2); // the rook on h1 and the bishop on b4
    /// assert!(Position::startpos().checkers().is_empty());
    /// ```
    pub fn checkers(&self) -> Bitboard {
        Bitboard(checkers_on(&self.board, self.side))
    }

    /// The side to move's pieces pinned to its king: each is the only piece between the king
    /// and an enemy bishop, rook or queen on one line (a pinned piece may still move along
    /// that line).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// // The e2 knight stands between the king on e1 and the rook on e8.
    /// let pos: Position = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.pinned().into_iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["e2"]);
    /// assert!(Position::startpos().pinned().is_empty());
    /// ```
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let them = !us;
        let king = self.board.bits(us, Piece::King);
        if king == 0 {
            return Bitboard(0);
        }
        let king = king.trailing_zeros() as usize;
        let queens = self.board.bits(them, Piece::Queen);
        let straight = (self.board.bits(them, Piece::Rook) | queens) & attacks::rook_rays(king);
        let diagonal = (self.board.bits(them, Piece::Bishop) | queens) & attacks::bishop_rays(king);
        let occupied = self.board.occupied_bits();
        let ours = self.board.color_bits(us);
        let mut pinned = 0;
        for sniper in BitIter(straight | diagonal) {
            let between = attacks::between(king, sniper) & occupied;
            // Exactly one piece between, and it is ours.
            if between != 0 && between & (between - 1) == 0 {
                pinned |= between & ours;
            }
        }
        Bitboard(pinned)
    }

    /// Passes the turn, for null-move pruning: the other side is to move, the en-passant
    /// square is gone, the halfmove clock counts the pass and the key follows. Refused (and
    /// nothing changes, `false`) when the side to move is in check, where passing is not a
    /// move of chess and would let the king be taken.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// let mut pos = Position::startpos();
    /// assert!(pos.null_move());
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert!(pos.null_move());
    /// assert_eq!(pos.zobrist(), Position::startpos().zobrist());
    /// let mut check: Position = "4k3/8/8/8/8/8/8/R3K2r w - - 0 1".parse().unwrap();
    /// assert!(!check.null_move());
    /// ```
    #[must_use = "a null move in check is refused"]
    pub fn null_move(&mut self) -> bool {
        if self.is_check() {
            return false;
        }
        self.key ^= zobrist::white_to_move_key()
            ^ zobrist::en_passant_square_key(self.ep_square)
            ^ zobrist::en_passant_square_key(None);
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = !self.side;
        true
    }

    /// Whether `mv` is a legal move here, decided for this one move: its piece, its shape
    /// (kind, squares, what stands between) and whether the king is safe after it, without
    /// listing the other moves. [`Position::play`] checks moves with it.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind, Position, Square};
    /// let pos = Position::startpos();
    /// let sq = |name: &str| name.parse::<Square>().unwrap();
    /// assert!(pos.is_legal(Move::new(sq("e2"), sq("e4"), MoveKind::DoublePush)));
    /// assert!(!pos.is_legal(Move::new(sq("e2"), sq("e5"), MoveKind::Normal)));
    /// assert!(!pos.is_legal(Move::new(sq("e7"), sq("e5"), MoveKind::DoublePush))); // not White's
    /// // Pinned: the e2 knight may not leave the e-file's line to the rook.
    /// let pinned: Position = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1".parse().unwrap();
    /// assert!(!pinned.is_legal(Move::new(sq("e2"), sq("c3"), MoveKind::Normal)));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        let us = self.side;
        let them = !us;
        let board = &self.board;
        let (from, to) = (mv.from(), mv.to());
        let Some((color, piece)) = board.piece_at(from) else {
            return false;
        };
        if color != us {
            return false;
        }
        // Before the test below: in Chess960 rules a castle names its own rook's square.
        if mv.kind() == MoveKind::Castle {
            return piece == Piece::King && self.castle_is_legal(from, to);
        }
        let ours = board.color_bits(us);
        let occupied = board.occupied_bits();
        // Kings are never taken: a position where one could be is not reached by play.
        if ours & to.bit() != 0 || board.bits(them, Piece::King) & to.bit() != 0 {
            return false;
        }
        let child = match (piece, mv.kind()) {
            (Piece::Pawn, kind) => match self.pawn_child(from, to, kind) {
                Some(child) => child,
                None => return false,
            },
            (_, MoveKind::Normal) => {
                let at = from.index();
                let reach = match piece {
                    Piece::Knight => attacks::knight(at),
                    Piece::Bishop => Portable::bishop(at, occupied),
                    Piece::Rook => Portable::rook(at, occupied),
                    Piece::Queen => Portable::bishop(at, occupied) | Portable::rook(at, occupied),
                    Piece::King => attacks::king(at),
                    Piece::Pawn => 0,
                };
                if reach & to.bit() == 0 {
                    return false;
                }
                board.after_move(us, piece, from, to)
            }
            _ => return false,
        };
        king_safe(&child, us)
    }

    /// The board after pawn move `from`-`to` of `kind`, if that is a pawn move here.
    fn pawn_child(&self, from: Square, to: Square, kind: MoveKind) -> Option<Board> {
        let us = self.side;
        let white = us == Color::White;
        let board = &self.board;
        let occupied = board.occupied_bits();
        let theirs = board.color_bits(!us);
        let forward = if white { 8 } else { -8 };
        let (f, t) = (from.index() as i32, to.index() as i32);
        let captures = attacks::pawn_attacks_from(from.index(), white);
        let last_rank = if white { 7 } else { 0 };
        match kind {
            MoveKind::Normal | MoveKind::Promotion(_) => {
                let promotion = kind.promotion();
                if (to.rank() == last_rank) != promotion.is_some()
                    || promotion.is_some_and(|piece| !Piece::PROMOTIONS.contains(&piece))
                {
                    return None;
                }
                let push = t == f + forward && occupied & to.bit() == 0;
                let capture = captures & theirs & to.bit() != 0;
                if !push && !capture {
                    return None;
                }
                Some(match promotion {
                    Some(piece) => board.after_promotion(us, from, to, piece),
                    None => board.after_move(us, Piece::Pawn, from, to),
                })
            }
            MoveKind::DoublePush => {
                let start_rank = if white { 1 } else { 6 };
                let between = 1u64 << (f + forward);
                let clear = occupied & (between | to.bit()) == 0;
                (from.rank() == start_rank && t == f + 2 * forward && clear)
                    .then(|| board.after_move(us, Piece::Pawn, from, to))
            }
            MoveKind::EnPassant => (self.ep_square == Some(to) && captures & to.bit() != 0)
                .then(|| board.after_en_passant(us, from, to)),
            MoveKind::Castle => None,
        }
    }

    /// Whether castling with the king from `from` to `to` is legal: the right, the king and
    /// the rook on the squares it names, the squares they pass over or land on empty but for
    /// them, and the king never on an attacked square. `to` is the king's destination (g or
    /// c) in standard rules and the rook's square in Chess960 rules.
    fn castle_is_legal(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let board = &self.board;
        let geometry = board.castling();
        let base = back_rank_base(us == Color::White);
        let kingside = to.file() > from.file();
        if !self.castling.has(us, kingside)
            || from.index() != base + geometry.king_file(us) as usize
        {
            return false;
        }
        let rook = geometry.rook_square(us, kingside);
        let (king_to, _) = destination_files(kingside);
        let named = if geometry.is_chess960() {
            rook.index()
        } else {
            base + king_to as usize
        };
        if to.index() != named || board.bits(us, Piece::Rook) & rook.bit() == 0 {
            return false;
        }
        // Without the king and the rook: a rook that shielded the king along the back rank
        // shields it no longer once it has moved.
        let occupied = board.occupied_bits() & !from.bit() & !rook.bit();
        occupied & geometry.block(us, kingside) == 0
            && BitIter(geometry.safe(us, kingside) | from.bit())
                .all(|square| attackers_on(board, square, !us, occupied) == 0)
    }

    /// The pieces of `by` attacking square index `square` with occupancy `occupied`.
    fn attackers_bits(&self, square: usize, by: Color, occupied: u64) -> u64 {
        attackers_on(&self.board, square, by, occupied)
    }
}

/// Whether `color`'s king on `board` stands on a square no enemy piece attacks.
fn king_safe(board: &Board, color: Color) -> bool {
    checkers_on(board, color) == 0
}

/// The enemy pieces attacking `color`'s king on `board` (none without a king).
#[inline(always)]
pub(crate) fn checkers_on(board: &Board, color: Color) -> u64 {
    let king = board.bits(color, Piece::King);
    if king == 0 {
        return 0;
    }
    attackers_on(
        board,
        king.trailing_zeros() as usize,
        !color,
        board.occupied_bits(),
    )
}

/// The pieces of `by` on `board` attacking square index `square` with occupancy `occupied`.
pub(crate) fn attackers_on(board: &Board, square: usize, by: Color, occupied: u64) -> u64 {
    let queens = board.bits(by, Piece::Queen);
    // A pawn of `by` attacks `square` from where a pawn of the other colour on `square`
    // would attack.
    (attacks::pawn_attacks_from(square, by != Color::White) & board.bits(by, Piece::Pawn))
        | (attacks::knight(square) & board.bits(by, Piece::Knight))
        | (attacks::king(square) & board.bits(by, Piece::King))
        | (Portable::bishop(square, occupied) & (board.bits(by, Piece::Bishop) | queens))
        | (Portable::rook(square, occupied) & (board.bits(by, Piece::Rook) | queens))
}
