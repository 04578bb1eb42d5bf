//! A move as a value: [`Move`] (16 bits) and its [`MoveKind`]. Here in the base layer so
//! that the walks below the position API can name the move that made a child.

use crate::base::types::{Piece, Square};
use core::fmt;

/// What a move does beyond moving a piece from one square to another.
///
/// # Examples
/// ```
/// use constmove::{MoveKind, Piece};
/// assert_eq!(MoveKind::Promotion(Piece::Queen).promotion(), Some(Piece::Queen));
/// assert_eq!(MoveKind::Normal.promotion(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A plain move or capture, pawn single pushes included.
    Normal,
    /// A pawn's two-square advance.
    DoublePush,
    /// Castling: from the king's square to its destination (`e1g1`) in standard chess, to
    /// the castling rook's square (`e1h1`, `b1a1`) in Chess960.
    Castle,
    /// An en-passant capture.
    EnPassant,
    /// A promotion (push or capture) to the given piece.
    Promotion(Piece),
}

impl MoveKind {
    /// The promotion piece, if this is a promotion.
    ///
    /// # Examples
    /// ```
    /// use constmove::MoveKind;
    /// assert_eq!(MoveKind::Castle.promotion(), None);
    /// ```
    pub const fn promotion(self) -> Option<Piece> {
        match self {
            MoveKind::Promotion(piece) => Some(piece),
            _ => None,
        }
    }

    /// The code of a plain move (see [`Move::kind_code`]).
    pub(crate) const NORMAL: u16 = 0;
    /// The code of a double pawn push.
    pub(crate) const DOUBLE_PUSH: u16 = 1;
    /// The code of castling.
    pub(crate) const CASTLE: u16 = 2;
    /// The code of an en-passant capture.
    pub(crate) const EN_PASSANT: u16 = 3;

    const fn code(self) -> u16 {
        match self {
            MoveKind::Normal => MoveKind::NORMAL,
            MoveKind::DoublePush => MoveKind::DOUBLE_PUSH,
            MoveKind::Castle => MoveKind::CASTLE,
            MoveKind::EnPassant => MoveKind::EN_PASSANT,
            MoveKind::Promotion(Piece::Pawn | Piece::King) => 8,
            MoveKind::Promotion(piece) => 3 + piece as u16,
        }
    }

    const fn from_code(code: u16) -> MoveKind {
        match code {
            1 => MoveKind::DoublePush,
            2 => MoveKind::Castle,
            3 => MoveKind::EnPassant,
            4 => MoveKind::Promotion(Piece::Knight),
            5 => MoveKind::Promotion(Piece::Bishop),
            6 => MoveKind::Promotion(Piece::Rook),
            7 => MoveKind::Promotion(Piece::Queen),
            8 => MoveKind::Promotion(Piece::King),
            _ => MoveKind::Normal,
        }
    }
}

/// A move in 16 bits: origin (6), destination (6) and [`MoveKind`] (4). Displays (and
/// `Debug`s) as UCI, castling as the king's move (`e1g1`), or king-takes-rook (`e1h1`) in
/// Chess960; [`Move::NULL`] (the `Default`) as `0000`. Orders and hashes by its 16-bit
/// code ([`Move::to_u16`]), so it keys transposition tables and sorted sets as it is.
///
/// # Examples
/// ```
/// use constmove::{Move, MoveKind, Piece, Square};
/// let mv = Move::new(
///     "e7".parse().unwrap(), "e8".parse().unwrap(), MoveKind::Promotion(Piece::Knight));
/// assert_eq!(mv.to_string(), "e7e8n");
/// assert_eq!(format!("{mv:?}"), "e7e8n");
/// assert_eq!(core::mem::size_of::<Move>(), 2);
/// assert_eq!(Move::from_u16(mv.to_u16()), Some(mv));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub(crate) u16);

impl Default for Move {
    /// [`Move::NULL`].
    fn default() -> Move {
        Move::NULL
    }
}

impl Move {
    /// The null move: no move at all (`0000` in UCI), for "no best move yet" in a
    /// transposition table entry or a killer slot. No position has it among its legal
    /// moves, so [`crate::Position::play`] rejects it; [`crate::Position::null_move`] passes
    /// the turn.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, Position};
    /// assert_eq!(Move::default(), Move::NULL);
    /// assert_eq!(Move::NULL.to_string(), "0000");
    /// assert!(Position::startpos().play(Move::NULL).is_err());
    /// assert_eq!(Move::from_u16(0), Some(Move::NULL));
    /// ```
    pub const NULL: Move = Move(0);

    /// The move's 16-bit code: origin in bits 0–5, destination in 6–11, the kind in
    /// 12–15. [`Move::from_u16`] reads it back.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mv = Position::startpos().parse_uci("g1f3").unwrap();
    /// assert_eq!(mv.to_u16(), 6 | 21 << 6);
    /// ```
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The move a [`Move::to_u16`] code stands for, or `None` for a code no move has: a
    /// kind code above 7, origin and destination equal (save [`Move::NULL`], code 0), or
    /// squares that do not fit the kind (a double push off its rank, a promotion off the
    /// last rank or wider than one file, en passant away from the third or sixth rank,
    /// castling off the back rank). A code that passes is a move of some position, not
    /// necessarily a legal one here: [`crate::Position::play`] still checks that.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, Position};
    /// let pos = Position::startpos();
    /// for mv in &pos.legal_moves() {
    ///     assert_eq!(Move::from_u16(mv.to_u16()), Some(*mv));
    /// }
    /// assert_eq!(Move::from_u16(0xF000 | 12 | 28 << 6), None); // kind 15
    /// assert_eq!(Move::from_u16(12 | 12 << 6), None); // e2e2
    /// assert_eq!(Move::from_u16(1 << 12 | 12 | 36 << 6), None); // "double push" e2e5
    /// ```
    pub const fn from_u16(code: u16) -> Option<Move> {
        let mv = Move(code);
        if code == 0 {
            return Some(Move::NULL);
        }
        let (from, to) = (mv.from(), mv.to());
        let (from_file, from_rank) = (from.file() as i32, from.rank() as i32);
        let (to_file, to_rank) = (to.file() as i32, to.rank() as i32);
        let file_step = (to_file - from_file).abs();
        if from.index() == to.index() {
            return None;
        }
        let fits = match code >> 12 {
            MoveKind::NORMAL => true,
            MoveKind::DOUBLE_PUSH => {
                file_step == 0
                    && ((from_rank == 1 && to_rank == 3) || (from_rank == 6 && to_rank == 4))
            }
            MoveKind::CASTLE => from_rank == to_rank && (from_rank == 0 || from_rank == 7),
            MoveKind::EN_PASSANT => {
                file_step == 1
                    && ((from_rank == 4 && to_rank == 5) || (from_rank == 3 && to_rank == 2))
            }
            4..=7 => {
                file_step <= 1
                    && ((from_rank == 6 && to_rank == 7) || (from_rank == 1 && to_rank == 0))
            }
            _ => false,
        };
        if fits { Some(mv) } else { None }
    }

    /// Whether this is [`Move::NULL`].
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, Position};
    /// assert!(Move::NULL.is_null());
    /// assert!(!Position::startpos().parse_uci("e2e4").unwrap().is_null());
    /// ```
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// A move from its parts. A promotion to a pawn or a king is not a chess move: it is
    /// kept as `Promotion(King)`, which no legal move equals, so [`crate::Position::play`]
    /// rejects it.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind, Piece};
    /// let mv = Move::new("g1".parse().unwrap(), "f3".parse().unwrap(), MoveKind::Normal);
    /// assert_eq!(mv.from().to_string(), "g1");
    /// let odd = Move::new("e7".parse().unwrap(), "e8".parse().unwrap(),
    ///     MoveKind::Promotion(Piece::Pawn));
    /// assert_eq!(odd.kind(), MoveKind::Promotion(Piece::King));
    /// ```
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind.code() << 12)
    }

    /// The origin square (the king's for castling).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind};
    /// let mv = Move::new("e1".parse().unwrap(), "g1".parse().unwrap(), MoveKind::Castle);
    /// assert_eq!(mv.from().to_string(), "e1");
    /// ```
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u32)
    }

    /// The destination square: for castling the king's in standard chess, the castling
    /// rook's in Chess960.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind};
    /// let mv = Move::new("e1".parse().unwrap(), "g1".parse().unwrap(), MoveKind::Castle);
    /// assert_eq!(mv.to().to_string(), "g1");
    /// ```
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as u32)
    }

    /// The kind of move.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind};
    /// let mv = Move::new("e5".parse().unwrap(), "d6".parse().unwrap(), MoveKind::EnPassant);
    /// assert_eq!(mv.kind(), MoveKind::EnPassant);
    /// ```
    pub const fn kind(self) -> MoveKind {
        MoveKind::from_code(self.0 >> 12)
    }

    /// The kind as its 4-bit code (`MoveKind::NORMAL`, …; promotions above `EN_PASSANT`), for
    /// hot paths that branch on it without building a [`MoveKind`].
    #[inline(always)]
    pub(crate) const fn kind_code(self) -> u16 {
        self.0 >> 12
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(piece) = self.kind().promotion() {
            write!(f, "{}", piece.uci_char())?;
        }
        Ok(())
    }
}

/// As `Display`: the UCI text (`e2e4`, `e7e8q`, `0000` for the null move).
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
