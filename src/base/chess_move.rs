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

/// A move in 16 bits: origin (6), destination (6) and [`MoveKind`] (4). Displays as UCI,
/// castling as the king's move (`e1g1`), or king-takes-rook (`e1h1`) in Chess960.
///
/// # Examples
/// ```
/// use constmove::{Move, MoveKind, Piece, Square};
/// let mv = Move::new(
///     "e7".parse().unwrap(), "e8".parse().unwrap(), MoveKind::Promotion(Piece::Knight));
/// assert_eq!(mv.to_string(), "e7e8n");
/// assert_eq!(core::mem::size_of::<Move>(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(pub(crate) u16);

impl Move {
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
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(piece) = self.kind().promotion() {
            write!(f, "{}", piece.uci_char())?;
        }
        Ok(())
    }
}
