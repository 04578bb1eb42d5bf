//! The two ways a FEN fails: [`FenError`], text that is not FEN (naming the field), and
//! [`PositionError`], FEN that sets up no legal position; and their messages.

use crate::base::types::{Color, Piece, Square};
use core::fmt;

/// A FEN field, for error messages.
///
/// # Examples
/// ```
/// use constmove::fen::FenField;
/// assert_eq!(FenField::EnPassant.to_string(), "en-passant square");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenField {
    /// Field 1, the piece placement.
    Placement,
    /// Field 2, `w` or `b`.
    SideToMove,
    /// Field 3, `KQkq` or `-`.
    Castling,
    /// Field 4, a square or `-`.
    EnPassant,
    /// Field 5 (optional).
    HalfmoveClock,
    /// Field 6 (optional).
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        })
    }
}

/// Why a FEN was rejected: the text is not FEN (each variant names the field and what is
/// wrong with it), or it is but sets up no legal position ([`FenError::Position`]).
///
/// # Examples
/// ```
/// use constmove::{Color, Position};
/// use constmove::fen::{FenError, FenField, PositionError};
/// let err = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w -").unwrap_err();
/// assert_eq!(err, FenError::MissingField { field: FenField::EnPassant });
/// let err = Position::from_fen("8/8/8/8/8/8/8/8 w - -").unwrap_err();
/// assert_eq!(err, FenError::Position(PositionError::KingCount { color: Color::White, count: 0 }));
/// assert!(err.to_string().contains("white king"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenError {
    /// A required field is absent (the first four are required).
    MissingField {
        /// The first missing field.
        field: FenField,
    },
    /// More than six fields.
    TooManyFields {
        /// How many fields were found.
        count: usize,
    },
    /// The placement does not have eight ranks.
    RankCount {
        /// How many `/`-separated ranks were found.
        found: usize,
    },
    /// A rank does not describe exactly eight files.
    RankLength {
        /// The rank (1–8) as a chess player names it.
        rank: u8,
        /// How many files it describes.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    PieceLetter {
        /// The rank (1–8) it is on.
        rank: u8,
        /// The character.
        letter: char,
    },
    /// Two digits next to each other in a rank (`44`, `1111k3`): FEN writes a run of
    /// empty squares as one digit, and python-chess and others refuse the split form.
    AdjacentDigits {
        /// The rank (1–8) as a chess player names it.
        rank: u8,
    },
    /// The side to move is not `w` or `b`.
    SideToMove,
    /// A castling character that is not one of `KQkq`, a file letter `A`-`H`/`a`-`h` (or
    /// `-` alone), or repeats, or names the king's own file. The order of the letters is
    /// free.
    CastlingLetter {
        /// The character.
        letter: char,
    },
    /// The en-passant field is not a square or `-`.
    EnPassantSyntax,
    /// The halfmove clock is not a non-negative integer written in plain digits.
    HalfmoveClock,
    /// The fullmove number is not a positive integer written in plain digits.
    FullmoveNumber,
    /// The text is well-formed but what it sets up is not a legal chess position.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::{FenError, PositionError};
    /// let err = Position::from_fen("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    /// assert!(matches!(err, FenError::Position(PositionError::TooManyPawns { .. })));
    /// ```
    Position(PositionError),
}

/// Why a well-formed FEN does not set up a legal chess position: a king count, a pawn on a
/// back rank, a check, material or castling rights or an en-passant square that do not fit
/// the placement. [`FenError::Position`] carries it; its message is [`FenError`]'s.
///
/// # Examples
/// ```
/// use constmove::{Color, Position};
/// use constmove::fen::{FenError, PositionError};
/// match Position::from_fen("4k3/8/8/8/8/8/8/4K2k w - - 0 1") {
///     Err(FenError::Position(err)) => {
///         assert_eq!(err, PositionError::KingCount { color: Color::Black, count: 2 });
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A castling right whose rook is not where the right says: no rook of that colour on
    /// the named file of its back rank (`A`-`H`), or none on that side of the king (`K`, `Q`:
    /// `square` is then the corner).
    CastlingMismatch {
        /// The right (`K`, `Q`, `k`, `q` or a file letter).
        right: char,
        /// The square that should hold the rook.
        square: Square,
        /// Which piece is missing there (always the rook).
        missing: Piece,
    },
    /// A castling right of a side whose king is not on its back rank.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::{FenError, PositionError};
    /// let err = Position::from_fen("4k3/8/8/8/8/8/4K3/7R w K - 0 1").unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::CastlingKing { right: 'K', king: "e2".parse().unwrap() }));
    /// ```
    CastlingKing {
        /// The right.
        right: char,
        /// Where the king stands.
        king: Square,
    },
    /// Two castling rights of one side name rooks on the same side of its king (`KH`, or
    /// `AB` with the king on c1): a side castles at most once each way.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::{FenError, PositionError};
    /// let err = Position::from_fen("4k3/8/8/8/8/8/8/4K1RR w KG - 0 1").unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::CastlingSameSide { first: 'K', second: 'G' }));
    /// ```
    CastlingSameSide {
        /// The right given first.
        first: char,
        /// The second right for the same side of the king.
        second: char,
    },
    /// The en-passant square is not on the rank behind a pawn that just double-pushed
    /// (rank 6 with White to move, rank 3 with Black to move).
    EnPassantRank {
        /// The square given.
        square: Square,
    },
    /// No pawn can just have double-pushed past the en-passant square: the pawn is missing
    /// in front of it, or the square or the one the pawn came from is occupied.
    EnPassantNoPawn {
        /// The square given.
        square: Square,
    },
    /// Not exactly one king of a colour.
    KingCount {
        /// The colour.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// The side that is not to move is in check (its king could be taken).
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
    /// The side to move is in check from three or more pieces: no move gives more than a
    /// double check. (Two checkers are always accepted; see the module docs.)
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// use constmove::fen::{FenError, PositionError};
    /// // Rook, knight and bishop all check the white king.
    /// let err = Position::from_fen("4r2k/8/8/8/1b6/3n4/8/4K3 w - - 0 1").unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::ImpossibleCheck { color: Color::White, checkers: 3 }));
    /// ```
    ImpossibleCheck {
        /// The side in check (the side to move).
        color: Color,
        /// How many pieces give check.
        checkers: u32,
    },
    /// More than 16 pieces of one colour, the king and pawns included: no game has more.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// use constmove::fen::{FenError, PositionError};
    /// // The start position with a seventeenth white piece, a knight on e3.
    /// let fen = "rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// let err = Position::from_fen(fen).unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::TooManyPieces { color: Color::White, count: 17 }));
    /// ```
    TooManyPieces {
        /// The side with too many pieces.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// More than 8 pawns of one colour.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// use constmove::fen::{FenError, PositionError};
    /// let err = Position::from_fen("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::TooManyPawns { color: Color::Black, count: 9 }));
    /// ```
    TooManyPawns {
        /// The side with too many pawns.
        color: Color,
        /// How many pawns it has.
        count: u32,
    },
    /// More pieces beyond the starting set (queens beyond 1; rooks, bishops and knights
    /// beyond 2) than the side has pawns missing: each such piece is a promoted pawn.
    /// Bishops count whatever the colour of their squares.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// use constmove::fen::{FenError, PositionError};
    /// // Eight pawns still on the board and a second queen.
    /// let err = Position::from_fen("4k3/8/8/8/8/8/PPPPPPPP/2QQK3 w - - 0 1").unwrap_err();
    /// assert_eq!(err, FenError::Position(PositionError::TooManyPromoted { color: Color::White, promoted: 1, pawns: 8 }));
    /// // With one pawn gone, the second queen is that pawn promoted.
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/1PPPPPPP/2QQK3 w - - 0 1").is_ok());
    /// ```
    TooManyPromoted {
        /// The side.
        color: Color,
        /// How many of its pieces are beyond the starting set.
        promoted: u32,
        /// How many pawns it has (8 minus this many could have promoted).
        pawns: u32,
    },
    /// A pawn on the first or last rank.
    PawnOnBackRank {
        /// Its square.
        square: Square,
    },
}

/// A colour's name in a message.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenError::MissingField { field } => {
                write!(f, "invalid FEN: the {field} field is missing")
            }
            FenError::TooManyFields { count } => {
                write!(f, "invalid FEN: {count} fields, at most 6 expected")
            }
            FenError::RankCount { found } => write!(
                f,
                "invalid FEN piece placement: {found} ranks, expected 8 separated by '/'"
            ),
            FenError::RankLength { rank, files } => write!(
                f,
                "invalid FEN piece placement: rank {rank} describes {files} files, expected 8"
            ),
            FenError::PieceLetter { rank, letter } => write!(
                f,
                "invalid FEN piece placement: {} on rank {rank} is not a piece letter \
                 (PNBRQK, pnbrqk) or a digit 1-8",
                Letter(letter)
            ),
            FenError::AdjacentDigits { rank } => write!(
                f,
                "invalid FEN piece placement: rank {rank} has two digits in a row \
                 (a run of empty squares is one digit)"
            ),
            FenError::SideToMove => f.write_str("invalid FEN side to move: expected 'w' or 'b'"),
            FenError::CastlingLetter { letter } => write!(
                f,
                "invalid FEN castling rights: {} (expected '-', or KQkq or a rook's file \
                 letter A-H/a-h, each at most once and none on the king's file)",
                Letter(letter)
            ),
            FenError::EnPassantSyntax => {
                f.write_str("invalid FEN en-passant square: expected '-' or a square like e3")
            }
            FenError::HalfmoveClock => f.write_str(
                "invalid FEN halfmove clock: expected a non-negative integer (digits only)",
            ),
            FenError::FullmoveNumber => f.write_str(
                "invalid FEN fullmove number: expected a positive integer (digits only)",
            ),
            FenError::Position(error) => fmt::Display::fmt(&error, f),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::CastlingKing { right, king } => write!(
                f,
                "invalid FEN castling rights: '{right}' needs the {} king on its back rank, \
                 not on {king}",
                color_name(if right.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                }),
            ),
            PositionError::CastlingSameSide { first, second } => write!(
                f,
                "invalid FEN castling rights: '{first}' and '{second}' are both on one side \
                 of the king (a side castles at most once each way)"
            ),
            PositionError::CastlingMismatch {
                right,
                square,
                missing,
            } => write!(
                f,
                "invalid FEN castling rights: '{right}' needs a {} {} on {square}",
                color_name(if right.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                }),
                match missing {
                    Piece::King => "king",
                    _ => "rook",
                }
            ),
            PositionError::EnPassantRank { square } => write!(
                f,
                "invalid FEN en-passant square: {square} is not on rank 6 (White to move) \
                 or rank 3 (Black to move)"
            ),
            PositionError::EnPassantNoPawn { square } => write!(
                f,
                "invalid FEN en-passant square: {square} is not behind a pawn that just \
                 advanced two squares"
            ),
            PositionError::KingCount { color, count } => write!(
                f,
                "invalid FEN piece placement: {count} {} kings, expected exactly 1",
                color_name(color)
            ),
            PositionError::OpponentInCheck { color } => write!(
                f,
                "invalid FEN: the {} king is in check but it is not {}'s move",
                color_name(color),
                color_name(color)
            ),
            PositionError::ImpossibleCheck { color, checkers } => write!(
                f,
                "invalid FEN piece placement: the {} king is in check from {checkers} pieces \
                 (a move gives at most two checks)",
                color_name(color)
            ),
            PositionError::TooManyPieces { color, count } => write!(
                f,
                "invalid FEN piece placement: {count} {} pieces, at most 16 (the king and \
                 pawns included)",
                color_name(color)
            ),
            PositionError::TooManyPawns { color, count } => write!(
                f,
                "invalid FEN piece placement: {count} {} pawns, at most 8",
                color_name(color)
            ),
            PositionError::TooManyPromoted {
                color,
                promoted,
                pawns,
            } => write!(
                f,
                "invalid FEN piece placement: {promoted} {} pieces beyond the starting set \
                 (queens beyond 1; rooks, bishops or knights beyond 2) but with {pawns} pawns \
                 left at most {} can have promoted",
                color_name(color),
                8u32.saturating_sub(pawns)
            ),
            PositionError::PawnOnBackRank { square } => write!(
                f,
                "invalid FEN piece placement: pawn on {square} (no pawn stands on rank 1 or 8)"
            ),
        }
    }
}

impl From<PositionError> for FenError {
    fn from(error: PositionError) -> FenError {
        FenError::Position(error)
    }
}

/// A character of the input for a message: quoted when visible, named when it is not
/// (quoted as itself, a byte-order mark or a control character would show as nothing).
struct Letter(char);

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            '\u{feff}' => f.write_str("a UTF-8 byte-order mark (U+FEFF)"),
            letter if letter.is_control() || letter.is_whitespace() => {
                write!(f, "'{}' (U+{:04X})", letter.escape_debug(), letter as u32)
            }
            letter => write!(f, "'{letter}'"),
        }
    }
}

// `FenError::Position` shows the inner message itself, so it names no `source` (one
// message, not the same one twice in a chain).
impl core::error::Error for FenError {}

impl core::error::Error for PositionError {}
