//! The position layer: [`Position`] (a [`Board`] plus the side to move, castling rights,
//! en-passant square and move counters; the runtime face of the compile-time
//! [`crate::walk::Status`]), built from FEN ([`fen`]), played by copy-make with its Zobrist key
//! ([`zobrist`]), its moves as values ([`moves`]) and in SAN ([`san`]), its castling rights
//! ([`castling`]), the draw rules ([`draws`]), and the public perft, divide and statistics
//! functions ([`perft`]) that hand a position to the counting layer.

pub mod attacks;
pub(crate) mod castling;
mod chess960;
pub(crate) mod draws;
pub(crate) mod fen;
pub(crate) mod moves;
pub(crate) mod perft;
mod play;
mod roots;
use roots::{AnyMoveRoot, ListMoves, VisitRoot};
mod queries;
pub(crate) mod san;
pub(crate) mod walk;
pub mod zobrist;

use crate::base::board::Board;
use crate::base::chess_move::Move;
use crate::base::types::{Color, Piece, Square};
use crate::generator::checks_and_pins::attacked;
use crate::generator::entry::at_root;
use crate::generator::material::AnyPieces;
use crate::generator::movegen::{All, Filter};
use crate::generator::visitor::Visitor;
use crate::slider::Portable;
use crate::slider::Resolved;
use castling::CastlingRights;
use moves::{EachMove, MoveList, MoveMask};

/// A chess position: pieces, side to move, castling rights, en-passant square, and the
/// halfmove clock and fullmove number. Parse one with [`str::parse`] or
/// [`Position::from_fen`]; `Display` writes FEN back.
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// let pos: Position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".parse().unwrap();
/// assert_eq!(perft(&pos, 3), 2_812);
/// assert_eq!(pos.to_string(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: Board,
    side: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// The Polyglot Zobrist key of the fields above, kept up to date by `play`.
    key: u64,
    /// The engine the CPU runs best, asked once when the position is built: CPUID costs
    /// tens of microseconds in a virtual machine, too much for every `legal_moves`.
    engine: Resolved,
}

/// How a game ended, as [`Position::outcome`] tells it.
///
/// # Examples
/// ```
/// use constmove::{Color, Outcome, Position};
/// let mate = Outcome::Checkmate { winner: Color::Black };
/// assert_ne!(mate, Outcome::Stalemate);
/// let kings: Position = "8/8/4k3/8/8/3K4/8/8 w - - 0 1".parse().unwrap();
/// assert_eq!(kings.outcome(), Some(Outcome::InsufficientMaterial));
/// let quiet: Position = "8/8/4k3/8/8/3K4/8/R7 w - - 100 80".parse().unwrap();
/// assert_eq!(quiet.outcome(), Some(Outcome::FiftyMoves));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// Neither side can ever mate: see [`Position::is_insufficient_material`].
    InsufficientMaterial,
    /// A hundred half-moves without a capture or a pawn move, and no mate: see
    /// [`Position::is_fifty_move_draw`].
    FiftyMoves,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

/// The standard starting position in FEN.
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::fen::STARTPOS_FEN;
/// assert_eq!(STARTPOS_FEN.parse::<Position>().unwrap(), Position::startpos());
/// ```
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The standard starting position.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::STARTPOS_FEN;
    /// assert_eq!(Position::startpos().to_string(), STARTPOS_FEN);
    /// ```
    pub fn startpos() -> Position {
        match Position::from_fen(STARTPOS_FEN) {
            Ok(position) => position,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    /// The pieces.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert_eq!(Position::startpos().board().occupied().count(), 32);
    /// ```
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// assert_eq!(Position::startpos().side_to_move(), Color::White);
    /// ```
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Position};
    /// assert_eq!(Position::startpos().castling_rights(), CastlingRights::ALL);
    /// ```
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Whether Chess960 rules apply: a castle is written king-takes-rook (`b1a1`; `e1h1` in
    /// the standard start), and the FEN's castling field names a rook by its file where `KQkq`
    /// would not say which. A FEN whose castling king or rook stands off standard chess's
    /// squares, or whose castling field uses a file letter (Shredder-FEN), reads as a Chess960
    /// position, and [`Position::into_chess960`] makes any position one. The rules differ only
    /// in castling, so once neither side may castle the position is standard chess's again
    /// (and equal to the same position read as such).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert!(!Position::startpos().is_chess960());
    /// let pos: Position = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    ///     .parse()
    ///     .unwrap();
    /// assert!(pos.is_chess960());
    /// // King g1 and rook h1 castle: the king stays, the rook goes to f1. Written
    /// // king-takes-rook.
    /// let pos: Position = "4k3/8/8/8/8/8/8/6KR w H - 0 1".parse().unwrap();
    /// let castle = pos.parse_uci("g1h1").unwrap();
    /// assert_eq!(castle.kind(), constmove::MoveKind::Castle);
    /// ```
    pub fn is_chess960(&self) -> bool {
        self.board.castling().is_chess960()
    }

    /// This position under Chess960 rules (see [`Position::is_chess960`]): the standard start
    /// becomes Chess960's position 518, whose castles are written `e1h1` and `e1a1`. The
    /// pieces, rights and keys are unchanged; a position in which nobody may castle stays as
    /// it is, since the rules then agree.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos = Position::startpos().into_chess960();
    /// assert!(pos.is_chess960());
    /// assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    /// assert_eq!(pos.zobrist(), Position::startpos().zobrist());
    /// ```
    pub fn into_chess960(mut self) -> Position {
        if self.castling != CastlingRights::NONE {
            let castling = self.board.castling().with_chess960(true);
            self.board.set_castling(castling);
        }
        self
    }

    /// The en-passant target square, if the last move was a double push and a pawn of the side
    /// to move stands beside the pushed pawn (Polyglot's rule; the capture may still be
    /// illegal). A FEN's square that no pawn could take to is dropped, so positions reached by
    /// play and by FEN compare equal and hash alike.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos: Position = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2".parse().unwrap();
    /// assert_eq!(pos.ep_square().unwrap().to_string(), "e6");
    /// let pos: Position = "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 2".parse().unwrap();
    /// assert_eq!(pos.ep_square(), None);
    /// ```
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Halfmoves since the last capture or pawn move.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert_eq!(Position::startpos().halfmove_clock(), 0);
    /// ```
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black's move.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert_eq!(Position::startpos().fullmove_number(), 1);
    /// ```
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The position's Zobrist key with Polyglot's key set: the key opening books use.
    /// Kept up to date incrementally by [`Position::play`].
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.zobrist(), 0x463B_9618_1691_FC9C);
    /// pos.play(pos.parse_uci("e2e4").unwrap()).unwrap();
    /// assert_eq!(pos.zobrist(), 0x823C_9B50_FD11_4196);
    /// ```
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// Whether the side to move is in check.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos: Position = "4k3/8/8/8/8/8/8/R3K2r w - - 0 1".parse().unwrap();
    /// assert!(pos.is_check());
    /// assert!(!Position::startpos().is_check());
    /// ```
    pub fn is_check(&self) -> bool {
        let us = self.side;
        let king = self.board.bits(us, Piece::King);
        king != 0
            && attacked::<Portable, AnyPieces>(
                &self.board,
                !us,
                king.trailing_zeros() as usize,
                self.board.occupied_bits(),
            )
    }

    /// The dispatch index of this position's [`crate::walk::Status`].
    pub(crate) fn status_index(&self) -> u8 {
        (self.side == Color::White) as u8
            | (self.ep_square.is_some() as u8) << 1
            | self.castling.bits() << 2
    }

    /// The engine chosen for this position (see the `engine` field).
    pub(crate) fn engine(&self) -> Resolved {
        self.engine
    }

    /// The en-passant square as an index (0 when there is none; then unused).
    pub(crate) fn ep_index(&self) -> u8 {
        self.ep_square.map_or(0, |square| square.index() as u8)
    }

    /// Every legal move, in generation order.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 26);
    /// assert!(moves.iter().any(|mv| mv.to_string() == "e1c1"));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        self.list_moves(All)
    }

    /// The legal moves `mask` lets through, in generation order (the order of
    /// [`Position::legal_moves`] without the others): captures for a quiescence search, the
    /// moves of chosen pieces, the moves onto chosen squares. The generator skips what the
    /// mask rules out, so fewer moves cost less time.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
    /// let captures = pos.legal_moves_masked(MoveMask::NOISY);
    /// assert_eq!(captures.iter().map(|mv| mv.to_string()).collect::<Vec<_>>(), ["e4d5"]);
    /// let all = pos.legal_moves();
    /// let quiet = pos.legal_moves_masked(MoveMask::QUIET);
    /// assert_eq!(captures.len() + quiet.len(), all.len());
    /// ```
    pub fn legal_moves_masked(&self, mask: MoveMask) -> MoveList {
        self.list_moves(mask.filter())
    }

    /// The list behind [`Position::legal_moves`] and [`Position::legal_moves_masked`].
    #[inline(always)]
    fn list_moves<F: Filter>(&self, filter: F) -> MoveList {
        MoveList::written(|moves| {
            at_root(
                self.engine,
                self.status_index(),
                ListMoves {
                    position: self,
                    moves,
                    filter,
                },
            )
        })
    }

    /// The squares of the opponent's castling rooks (king side, queen side) as bitboards,
    /// empty for a right it does not hold.
    #[inline(always)]
    fn their_castling_rooks(&self) -> (u64, u64) {
        let them = !self.side;
        let held = self.castling.bits();
        let rook = |kingside: bool| {
            let bit = 1u8 << crate::base::castling::right_index(them, kingside);
            if held & bit != 0 {
                self.board.castling().rook_square(them, kingside).bit()
            } else {
                0
            }
        };
        (rook(true), rook(false))
    }

    /// Calls `f` with every legal move, in generation order, with no list in between: the
    /// closure is inlined into the generator.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mut knight_moves = 0;
    /// Position::startpos().for_each_legal(|mv| {
    ///     knight_moves += ["b1", "g1"].contains(&mv.from().to_string().as_str()) as u32;
    /// });
    /// assert_eq!(knight_moves, 4);
    /// ```
    pub fn for_each_legal(&self, f: impl FnMut(Move)) {
        self.visit(&mut EachMove(f));
    }

    /// Calls `f` with every legal move `mask` lets through, in generation order, with no
    /// list in between (see [`Position::legal_moves_masked`]).
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ///     .parse()
    ///     .unwrap();
    /// let mut captures = Vec::new();
    /// pos.for_each_legal_masked(MoveMask::NOISY, |mv| captures.push(mv));
    /// assert_eq!(captures[..], pos.legal_moves_masked(MoveMask::NOISY)[..]);
    /// assert_eq!(captures.len(), 8);
    /// ```
    pub fn for_each_legal_masked(&self, mask: MoveMask, f: impl FnMut(Move)) {
        at_root(
            self.engine,
            self.status_index(),
            VisitRoot {
                position: self,
                visitor: &mut EachMove(f),
                filter: mask.filter(),
            },
        );
    }

    /// Whether the game is over, and how, by what this position alone decides:
    /// - [`Outcome::Checkmate`]: no legal move, in check;
    /// - [`Outcome::InsufficientMaterial`]: neither side can ever mate
    ///   ([`Position::is_insufficient_material`]); such a position is never a checkmate, so
    ///   it is tested first, before any move is generated;
    /// - [`Outcome::Stalemate`]: no legal move, not in check;
    /// - [`Outcome::FiftyMoves`]: the halfmove clock has reached 100 and the side to move
    ///   has moves ([`Position::is_fifty_move_draw`]). A mate on the hundredth half-move is
    ///   [`Outcome::Checkmate`]. Under FIDE rules this draw is claimed (automatic at
    ///   seventy-five moves); it is reported as engines and game servers apply it.
    ///
    /// `None` otherwise. Repetition needs the earlier positions: ask a
    /// [`History`](crate::History).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Outcome, Position};
    /// let mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1".parse().unwrap();
    /// assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    /// let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert_eq!(stalemate.outcome(), Some(Outcome::Stalemate));
    /// let late_mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80".parse().unwrap();
    /// assert_eq!(late_mate.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    /// assert_eq!(Position::startpos().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if !self.has_legal_moves() {
            Some(if self.is_check() {
                Outcome::Checkmate { winner: !self.side }
            } else {
                Outcome::Stalemate
            })
        } else if self.halfmove_clock >= 100 {
            Some(Outcome::FiftyMoves)
        } else {
            None
        }
    }

    /// Whether the side to move has a legal move. The generator stops at the first piece
    /// that has one (pawns and knights first, the king and its safety tests last), so no move
    /// is listed, made or counted, and no perft code is linked (the entry is compiled for
    /// the 16 statuses that differ in the side to move's rights).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert!(Position::startpos().has_legal_moves());
    /// let mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1".parse().unwrap();
    /// assert!(!mate.has_legal_moves());
    /// ```
    pub fn has_legal_moves(&self) -> bool {
        at_root(
            self.engine,
            self.status_index(),
            AnyMoveRoot { position: self },
        )
    }

    /// Checkmate: in check with no legal move.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1".parse().unwrap();
    /// assert!(mate.is_checkmate());
    /// assert!(!Position::startpos().is_checkmate());
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Stalemate: not in check, and no legal move.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
    /// assert!(stalemate.is_stalemate());
    /// assert!(!stalemate.is_checkmate());
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Hands every move of the last ply of the `depth`-ply move tree to `visitor`: the moves
    /// perft counts. The tree above is walked by the same monomorphised generator as perft,
    /// and the visitor is inlined into it, so custom per-leaf statistics run at generator
    /// speed. Depth 0 visits nothing; depth 1 is [`Position::visit`].
    ///
    /// # Examples
    /// Captures at the last ply of the start position's depth-3 tree: the chessprogramming
    /// wiki's 34.
    /// ```
    /// use constmove::{Board, Piece, Position, Square};
    /// use constmove::walk::{StatusFlags, Visitor};
    ///
    /// #[derive(Default)]
    /// struct Captures(u64);
    ///
    /// impl Captures {
    ///     fn hit(&mut self, board: &Board, to: Square) {
    ///         self.0 += board.occupied().contains(to) as u64;
    ///     }
    /// }
    ///
    /// impl Visitor for Captures {
    ///     fn king<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
    ///     fn pawn_capture<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) { self.0 += 1 }
    ///     fn en_passant<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) { self.0 += 1 }
    ///     fn promotion<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square, _: Piece) {
    ///         self.hit(b, to)
    ///     }
    ///     fn knight<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
    ///     fn bishop<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
    ///     fn rook<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
    ///     fn queen<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
    /// }
    ///
    /// let mut captures = Captures::default();
    /// Position::startpos().visit_tree(3, &mut captures);
    /// assert_eq!(captures.0, 34);
    /// ```
    pub fn visit_tree<V: Visitor>(&self, depth: u32, visitor: &mut V) {
        perft::visit_tree(self, depth, visitor);
    }

    /// Hands every legal move to `visitor`, on the fastest backend for this CPU.
    ///
    /// # Examples
    /// See [`Visitor`].
    pub fn visit<V: Visitor>(&self, visitor: &mut V) {
        at_root(
            self.engine,
            self.status_index(),
            VisitRoot {
                position: self,
                visitor,
                filter: All,
            },
        );
    }
}
