//! Moves on a position: reading one in UCI ([`Position::parse_uci`]) and playing it by
//! copy-make with its Zobrist key kept in step ([`Position::play`]).

use super::castling::CastlingRights;
use super::moves::{PlayError, UciMoveError, parse_uci_parts};
use super::{Position, zobrist};
use crate::base::chess_move::{Move, MoveKind};
use crate::base::geometry::en_passant_victim;
use crate::base::types::{Color, Piece, Square};

impl Position {
    /// The legal move `text` names in this position, in UCI: castling as the king's move
    /// (`e1g1`) in standard chess and as king-takes-rook (`e1h1`) in Chess960 (see
    /// [`Position::is_chess960`]), as [`Move`]'s `Display` writes it; the other form is
    /// accepted too.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveKind, Position};
    /// let mv = Position::startpos().parse_uci("e2e4").unwrap();
    /// assert_eq!(mv.kind(), MoveKind::DoublePush);
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let (from, to, promotion) = parse_uci_parts(text)?;
        let moves = self.legal_moves();
        let exact = moves
            .iter()
            .find(|mv| mv.from() == from && mv.to() == to && mv.kind().promotion() == promotion);
        // A castle in the other rules' form: king-takes-rook in standard chess, the king's
        // destination in Chess960 (no king step has those squares, or it would match above).
        let other_form = || {
            moves.iter().find(|mv| {
                mv.kind() == MoveKind::Castle
                    && mv.from() == from
                    && promotion.is_none()
                    && self.castle_other_form(**mv) == to
            })
        };
        exact
            .or_else(other_form)
            .copied()
            .ok_or(UciMoveError::Illegal {
                from,
                to,
                promotion,
            })
    }

    /// Plays a legal move; an illegal one is rejected and leaves the position unchanged.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mut pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// pos.play(e4).unwrap();
    /// assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// assert!(pos.play(e4).is_err());
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if !self.is_legal(mv) {
            return Err(PlayError { mv });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: the engine path, for moves taken from this position's
    /// [`Position::legal_moves`] or [`Position::for_each_legal`].
    ///
    /// **Precondition:** `mv` is legal here. Debug builds assert it; in release builds an
    /// illegal move leaves a position that may not follow the rules (never undefined
    /// behaviour). Use [`Position::play`] for moves from outside.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let start = Position::startpos();
    /// let mut children = 0;
    /// for &mv in start.legal_moves().iter() {
    ///     let mut child = start.clone();
    ///     child.play_unchecked(mv);
    ///     children += child.legal_moves().len();
    /// }
    /// assert_eq!(children, 400);
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(
            self.legal_moves().contains(&mv),
            "play_unchecked: {mv} is not legal in {self}"
        );
        // Compiled once per side: with the colours constant, every board and key index is
        // a fixed offset.
        if self.side == Color::White {
            self.play_as::<true>(mv);
        } else {
            self.play_as::<false>(mv);
        }
    }

    /// [`Position::play_unchecked`] for the side to move `WHITE`.
    #[inline(always)]
    fn play_as<const WHITE: bool>(&mut self, mv: Move) {
        let us = Color::from_white(WHITE);
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.board.piece_of(us, from) else {
            return;
        };
        // Branches on the kind's code: building and comparing `MoveKind`s cost a tenth of
        // this function.
        let code = mv.kind_code();
        let mut key = self.key
            ^ zobrist::white_to_move_key()
            ^ zobrist::en_passant_square_key(self.ep_square)
            ^ zobrist::piece_key(us, piece, from);
        self.ep_square = None;
        let mut captured = false;
        match code {
            MoveKind::CASTLE => {
                let squares = self.board.apply_castle(us, from, to);
                key ^= zobrist::piece_key(us, Piece::King, squares.king_to)
                    ^ zobrist::piece_key(us, Piece::Rook, squares.rook_from)
                    ^ zobrist::piece_key(us, Piece::Rook, squares.rook_to);
            }
            MoveKind::EN_PASSANT => {
                let victim = en_passant_victim(us, to);
                self.board.toggle(us, Piece::Pawn, from.bit() | to.bit());
                self.board.toggle(them, Piece::Pawn, victim.bit());
                key ^= zobrist::piece_key(us, Piece::Pawn, to)
                    ^ zobrist::piece_key(them, Piece::Pawn, victim);
                captured = true;
            }
            _ => {
                // The captured piece is looked up once and taken off its one board.
                if let Some(victim) = self.board.piece_of(them, to) {
                    self.board.toggle(them, victim, to.bit());
                    key ^= zobrist::piece_key(them, victim, to);
                    captured = true;
                }
                let landed = if code > MoveKind::EN_PASSANT
                    && let MoveKind::Promotion(promotion) = mv.kind()
                {
                    self.board.toggle(us, Piece::Pawn, from.bit());
                    self.board.toggle(us, promotion, to.bit());
                    promotion
                } else {
                    self.board.toggle(us, piece, from.bit() | to.bit());
                    piece
                };
                key ^= zobrist::piece_key(us, landed, to);
                if code == MoveKind::DOUBLE_PUSH {
                    // Record the square only when a pawn could take, as the generator's
                    // status does.
                    let their_pawns = self.board.bits(them, Piece::Pawn);
                    if crate::base::attacks::beside(their_pawns) & to.bit() != 0 {
                        self.ep_square = Square::new(((from.index() + to.index()) / 2) as u8);
                        key ^= zobrist::en_passant_square_key(self.ep_square);
                    }
                }
            }
        }
        if self.castling.bits() != 0 {
            let lost = if self.board.castling().is_nonstandard() {
                self.board.castling().rights_lost(from, to)
            } else {
                RIGHTS_LOST[from.index()] | RIGHTS_LOST[to.index()]
            };
            if lost & self.castling.bits() != 0 {
                key ^= self.lose_rights(lost);
            }
        }
        self.key = key;
        if piece == Piece::Pawn || captured {
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        if !WHITE {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = them;
    }
}

impl Position {
    /// The square a castle `mv` goes to when written in the other rules' form: the rook's
    /// square under standard rules, the king's destination under Chess960 rules.
    fn castle_other_form(&self, mv: Move) -> Square {
        let squares = self
            .board
            .castling()
            .castle_squares(self.side, mv.from(), mv.to());
        if self.is_chess960() {
            squares.king_to
        } else {
            squares.rook_from
        }
    }

    /// Takes the rights in `lost` away (some of which are held) and returns the key change;
    /// Chess960 squares of lost rights go back to the standard ones, so that equal positions
    /// have equal boards. Out of line: most moves lose no right.
    #[cold]
    #[inline(never)]
    fn lose_rights(&mut self, lost: u8) -> u64 {
        let held = self.castling.bits();
        let kept = held & !lost;
        self.castling = CastlingRights::from_bits(kept);
        let castling = *self.board.castling();
        // Standard squares stay as they are until no right is left under Chess960 rules.
        if castling.is_nonstandard() || kept == 0 && castling.is_chess960() {
            self.board.set_castling(castling.canonical(kept));
        }
        zobrist::castling_key(CastlingRights::from_bits(held ^ kept))
    }
}

/// The castling rights (as [`CastlingRights::bits`]) a move from or to each square ends, on
/// standard chess's squares (Chess960's: `CastlingGeometry::rights_lost`): a rook corner's
/// own right, whoever moves there; both of a side's rights on its king's square (with a
/// right left, the king stands there, so only the king moves from it).
const RIGHTS_LOST: [u8; 64] = {
    let mut lost = [0; 64];
    // Bits 1, 2, 4, 8: White king side, White queen side, Black king side, Black queen side.
    lost[7] = 0b0001; // h1
    lost[0] = 0b0010; // a1
    lost[4] = 0b0011; // e1
    lost[63] = 0b0100; // h8
    lost[56] = 0b1000; // a8
    lost[60] = 0b1100; // e8
    lost
};
