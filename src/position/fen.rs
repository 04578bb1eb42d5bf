//! FEN in and out: parsing with a typed [`FenError`] that names the field and the problem
//! (text that is not FEN), validation into a [`PositionError`] (FEN that sets up no legal
//! position) of everything the generator relies on (one king each, castling rights that
//! match the king and rook squares, a real en-passant pawn, the side not to move not in
//! check, the side to move in check from at most two pieces, no pawns on the first or last
//! rank, material some game could have), and `Display` for [`Position`].
//!
//! What is accepted, precisely:
//! - the castling field as X-FEN or Shredder-FEN, each colour on its own: `K`/`Q` name the
//!   outermost rook on that side of the king, a file letter `A`-`H`/`a`-`h` the rook on that
//!   file; letters in any order (`qkQK` is `KQkq`: the set is what matters), each right at
//!   most once; `Display` writes them in the standard order `KQkq`, and
//!   [`Position::shredder_fen`] as file letters. A position whose castling king or rook
//!   stands off standard chess's squares, or whose castling field uses a file letter, is a
//!   Chess960 position (see [`Position::is_chess960`]);
//! - the move counters as plain digits only (`+5` is rejected, as is anything Rust's integer
//!   parsing would take beyond digits);
//! - any two checkers of the side to move, even pairs no move can give (two knights, two
//!   pawns, a pawn and a knight, two pieces on one line): published perft suites test such
//!   positions. Three or more are [`PositionError::ImpossibleCheck`], since no move gives more
//!   than a double check.
//! - each side's material as a game can leave it (peers refuse it too, shakmaty as
//!   `TOO_MUCH_MATERIAL`): at most 16 pieces ([`PositionError::TooManyPieces`]), at most 8 pawns
//!   ([`PositionError::TooManyPawns`]), and no more pieces beyond the starting set (queens beyond
//!   1; rooks, bishops and knights beyond 2) than pawns are missing to have promoted them
//!   ([`PositionError::TooManyPromoted`]). Bishops are counted whatever the colour of their
//!   squares (two bishops on light squares need no promotion here). The bound is what lets
//!   [`crate::MoveList`] hold 256 moves; moves keep within it, since a promotion spends the
//!   pawn it adds a piece for.

use crate::base::attacks::POLYGLOT_KEYS;
use crate::base::board::Board;
use crate::base::castling::{CastlingGeometry, right_index};
use crate::base::geometry::rook_corner;
use crate::base::types::{Color, Piece, Square};
use crate::generator::checks_and_pins::attacked;
use crate::generator::material::AnyPieces;
use crate::position::castling::CastlingRights;
use crate::position::queries::attackers_on;
use crate::position::{Position, zobrist};
use crate::slider::Portable;
use crate::slider::Resolved;
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

/// `text` as a number if it is plain ASCII digits: Rust's parsers also take a leading `+`.
fn whole_number<T: core::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

// `FenError::Position` shows the inner message itself, so it names no `source` (one
// message, not the same one twice in a chain).
impl core::error::Error for FenError {}

impl core::error::Error for PositionError {}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl Position {
    /// Parses and validates a FEN. The halfmove clock and fullmove number may be left out
    /// (they default to 0 and 1).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::fen::{FenError, FenField};
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
    /// assert_eq!(
    ///     Position::from_fen("4k3/8/8/8/8/8/8/4K3"),
    ///     Err(FenError::MissingField { field: FenField::SideToMove })
    /// );
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        match fast_fields(fen) {
            Some(fields) => fields.position(),
            None => from_fen_slow(fen),
        }
    }

    /// A position from checked parts, run on `engine`, with counters 0 and 1 and its key
    /// computed. The board's castling squares are made canonical for `castling` (a board
    /// from inside a walk keeps the squares of rights lost on the way).
    pub(crate) fn from_parts(
        board: Board,
        side: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        engine: Resolved,
    ) -> Position {
        let key = zobrist::key_of(&board, side, castling, ep_square);
        Position::with_key(board, side, castling, ep_square, engine, key)
    }

    /// [`Position::from_parts`] with the key already computed.
    fn with_key(
        mut board: Board,
        side: Color,
        castling: CastlingRights,
        ep_square: Option<Square>,
        engine: Resolved,
        key: u64,
    ) -> Position {
        let geometry = *board.castling();
        if geometry != CastlingGeometry::STANDARD {
            board.set_castling(geometry.canonical(castling.bits()));
        }
        Position {
            key,
            board,
            side,
            castling,
            ep_square,
            halfmove_clock: 0,
            fullmove_number: 1,
            engine,
        }
    }
}

/// A FEN's fields, split, with the placement read into a board (its form checked, not yet
/// what stands on it).
struct Fields<'a> {
    board: Board,
    /// The pieces' part of the Zobrist key, when the one-pass reader computed it.
    placement_key: Option<u64>,
    side: Color,
    castling: &'a str,
    ep: &'a str,
    halfmove: Option<&'a str>,
    fullmove: Option<&'a str>,
}

impl Fields<'_> {
    /// The position, after the checks that follow the placement's, in `from_fen_slow`'s
    /// order (so both readers give one FEN one error).
    fn position(self) -> Result<Position, FenError> {
        let side = self.side;
        let (castling, geometry) = parse_castling(self.castling, &self.board)?;
        let mut board = self.board;
        board.set_castling(geometry);
        let ep_square = parse_ep(self.ep, &board, side)?;
        let halfmove_clock = match self.halfmove {
            None => 0,
            Some(text) => whole_number(text).ok_or(FenError::HalfmoveClock)?,
        };
        let fullmove_number = match self.fullmove {
            None => 1,
            Some(text) => match whole_number(text) {
                Some(n) if n > 0 => n,
                _ => return Err(FenError::FullmoveNumber),
            },
        };

        let opponent = !side;
        let king = board.bits(opponent, Piece::King).trailing_zeros() as usize;
        if attacked::<Portable, AnyPieces>(&board, side, king, board.occupied_bits()) {
            return Err(PositionError::OpponentInCheck { color: opponent }.into());
        }
        let our_king = board.bits(side, Piece::King).trailing_zeros() as usize;
        let checkers = attackers_on(&board, our_king, !side, board.occupied_bits()).count_ones();
        // The generator copes with any double check, even one no move can give, but no
        // sequence of moves reaches a triple check.
        if checkers > 2 {
            return Err(PositionError::ImpossibleCheck {
                color: side,
                checkers,
            }
            .into());
        }
        // Keep the square only when a pawn could take, as `play` records it and Polyglot
        // hashes it: one position, one value, one key.
        let ep_square = ep_square.filter(|square| {
            let pushed = crate::base::geometry::en_passant_victim(side, *square);
            crate::base::attacks::beside(board.bits(side, Piece::Pawn)) & pushed.bit() != 0
        });
        let position = match self.placement_key {
            Some(pieces) => {
                let mut key = pieces
                    ^ zobrist::castling_key(castling)
                    ^ zobrist::en_passant_square_key(ep_square);
                if side == Color::White {
                    key ^= zobrist::white_to_move_key();
                }
                debug_assert_eq!(key, zobrist::key_of(&board, side, castling, ep_square));
                Position::with_key(board, side, castling, ep_square, Resolved::auto(), key)
            }
            None => Position::from_parts(board, side, castling, ep_square, Resolved::auto()),
        };
        Ok(Position {
            halfmove_clock,
            fullmove_number,
            ..position
        })
    }
}

/// Any FEN, split at runs of ASCII whitespace: what [`fast_fields`] leaves, and the error of
/// every FEN that is not one.
#[cold]
#[inline(never)]
fn from_fen_slow(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let mut next = |field| fields.next().ok_or(FenError::MissingField { field });
    // The board first: for a truncated FEN like "8/8/8" its error is the useful one.
    let board = parse_placement(next(FenField::Placement)?)?;
    let side = next(FenField::SideToMove)?;
    let castling = next(FenField::Castling)?;
    let ep = next(FenField::EnPassant)?;
    let halfmove = fields.next();
    let fullmove = fields.next();
    let extra = fields.count();
    if extra > 0 {
        return Err(FenError::TooManyFields { count: 6 + extra });
    }
    let side = match side {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(FenError::SideToMove),
    };
    Fields {
        board,
        placement_key: None,
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    }
    .position()
}

/// The fields of a FEN as FENs are usually written: one space between fields and none
/// around them, four to six fields, a well-formed placement (read in one branch-free pass,
/// its key with it) and `w` or `b`. `None` for anything else: [`from_fen_slow`] reads it.
#[inline]
fn fast_fields(fen: &str) -> Option<Fields<'_>> {
    let (board, key, end) = read_placement(fen.as_bytes())?;
    let (side, rest) = match fen.as_bytes().get(end..end + 3)? {
        b" w " => (Color::White, &fen[end + 3..]),
        b" b " => (Color::Black, &fen[end + 3..]),
        _ => return None,
    };
    let (castling, rest) = next_field(rest)?;
    let (ep, rest) = next_field(rest?)?;
    let (halfmove, fullmove) = match rest {
        None => (None, None),
        Some(rest) => match next_field(rest)? {
            (halfmove, None) => (Some(halfmove), None),
            (halfmove, Some(rest)) => match next_field(rest)? {
                (fullmove, None) => (Some(halfmove), Some(fullmove)),
                (_, Some(_)) => return None,
            },
        },
    };
    check_board(&board).ok()?;
    Some(Fields {
        board,
        placement_key: Some(key),
        side,
        castling,
        ep,
        halfmove,
        fullmove,
    })
}

/// The field at the start of `text` (printable ASCII, not empty) and what follows its one
/// space, or `None` after the last field; `None` in all for any other spacing.
#[inline]
fn next_field(text: &str) -> Option<(&str, Option<&str>)> {
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .position(|byte| !byte.is_ascii_graphic())
        .unwrap_or(bytes.len());
    if end == 0 {
        return None;
    }
    match bytes.get(end) {
        None => Some((text, None)),
        // An ASCII byte: a boundary of the text's characters.
        Some(b' ') => Some((&text[..end], Some(&text[end + 1..]))),
        Some(_) => None,
    }
}

fn parse_placement(placement: &str) -> Result<Board, FenError> {
    let board = match read_placement(placement.as_bytes()) {
        Some((board, _, end)) if end == placement.len() => board,
        _ => slow_placement(placement)?,
    };
    check_board(&board)?;
    Ok(board)
}

/// One king of each colour, no pawn on a back rank, material some game could have.
fn check_board(board: &Board) -> Result<(), PositionError> {
    for color in [Color::White, Color::Black] {
        let count = board.bits(color, Piece::King).count_ones();
        if count != 1 {
            return Err(PositionError::KingCount { color, count });
        }
    }
    let pawns = board.bits(Color::White, Piece::Pawn) | board.bits(Color::Black, Piece::Pawn);
    let back_ranks = 0xFF00_0000_0000_00FF;
    if let Some(square) = crate::base::types::Bitboard(pawns & back_ranks)
        .into_iter()
        .next()
    {
        return Err(PositionError::PawnOnBackRank { square });
    }
    check_material(board)
}

/// What a placement byte is, for [`read_placement`]: bits 0-3 the piece's Polyglot kind
/// (black pawn 0, white pawn 1, … white king 11) or [`NO_PIECE`], bits 4-7 how many squares
/// it fills, bits 8-10 flags, bits 16-25 the kind's first key (64 × kind), bit 31 a piece.
const PLACEMENT_BYTES: [u32; 256] = {
    let mut table = [BAD | NO_PIECE; 256];
    let mut digit = 1;
    while digit <= 8 {
        table[(b'0' + digit) as usize] = DIGIT | NO_PIECE | (digit as u32) << 4;
        digit += 1;
    }
    table[b'/' as usize] = SLASH | NO_PIECE;
    let letters = *b"pnbrqk";
    let mut i = 0;
    while i < 6 {
        let black = 2 * i as u32;
        table[letters[i] as usize] = piece_code(black);
        table[letters[i].to_ascii_uppercase() as usize] = piece_code(black + 1);
        i += 1;
    }
    table
};
/// The [`PLACEMENT_BYTES`] entry of a piece of Polyglot kind `kind`.
const fn piece_code(kind: u32) -> u32 {
    PIECE | kind | 1 << 4 | (64 * kind) << 16
}
/// The kind of a byte that is not a piece: a thirteenth, unused, set of bits.
const NO_PIECE: u32 = 12;
const DIGIT: u32 = 1 << 8;
const SLASH: u32 = 1 << 9;
const BAD: u32 = 1 << 10;
const PIECE: u32 = 1 << 31;

/// The board of a well-formed placement at the start of `fen`, its pieces' Zobrist key and
/// where it ends (at the end or the first space), in one pass with no branch a byte (which
/// byte comes next is what a predictor cannot guess). `None` if the placement is not
/// well-formed: [`slow_placement`] names what is wrong (its checks decide which error
/// comes first).
#[inline]
fn read_placement(fen: &[u8]) -> Option<(Board, u64, usize)> {
    // Indexed by Polyglot kind; the rest take what is not a piece (16: no bounds check).
    let mut bits = [0u64; 16];
    let mut key = 0u64;
    let keys = &POLYGLOT_KEYS[..768];
    // Squares in reading order: a8 = 0, h8 = 7, a7 = 8, h1 = 63.
    let mut at: u32 = 0;
    // Where slashes stood: exactly at 8, 16, ... 56 when each rank fills eight squares.
    let mut slashes = 0u64;
    let mut previous = 0u32;
    let mut bad = 0u32;
    let mut len = fen.len();
    for (i, &byte) in fen.iter().enumerate() {
        if byte == b' ' {
            len = i;
            break;
        }
        let code = PLACEMENT_BYTES[byte as usize];
        let square = (at ^ 56) & 63;
        bits[(code & 15) as usize] |= 1 << square;
        // Every byte XORs a key, so no branch guards the load: a piece its own, anything
        // else key 0, taken out again after the loop when their number is odd.
        let on_square = (code >> 31).wrapping_neg() & square;
        key ^= keys[(code >> 16 & 1023) as usize + on_square as usize];
        // Two digits in a row, or two slashes (the only way two share a square).
        bad |= code & BAD | code & previous & (DIGIT | SLASH);
        slashes |= u64::from(code >> 9 & 1) << (at & 63);
        previous = code;
        at += code >> 4 & 15;
    }
    if bad != 0 || at != 64 || slashes != 0x0101_0101_0101_0100 {
        return None;
    }
    let pieces = bits[..12]
        .iter()
        .map(|b| b.count_ones() as usize)
        .sum::<usize>();
    if (len - pieces) % 2 == 1 {
        key ^= keys[0];
    }
    let mut board = Board::empty();
    for (i, piece) in Piece::ALL.into_iter().enumerate() {
        board.toggle(Color::Black, piece, bits[2 * i]);
        board.toggle(Color::White, piece, bits[2 * i + 1]);
    }
    Some((board, key, len))
}

/// The placement read rank by rank, with the error for whatever is wrong with it.
#[cold]
fn slow_placement(placement: &str) -> Result<Board, FenError> {
    let ranks = placement.split('/').count();
    if ranks != 8 {
        return Err(FenError::RankCount { found: ranks });
    }
    let mut board = Board::empty();
    for (row, text) in placement.split('/').enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0usize;
        let mut after_digit = false;
        for letter in text.chars() {
            if let Some(skip) = letter.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if after_digit {
                    return Err(FenError::AdjacentDigits { rank: rank + 1 });
                }
                after_digit = true;
                file += skip as usize;
                continue;
            }
            after_digit = false;
            let piece =
                Piece::from_char(letter.to_ascii_lowercase()).ok_or(FenError::PieceLetter {
                    rank: rank + 1,
                    letter,
                })?;
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if let Some(square) = Square::from_file_rank(file as u8, rank) {
                board.put(square, color, piece);
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                files: file,
            });
        }
    }
    Ok(board)
}

/// Each side's material as a game can leave it (see the module docs): at most 16 pieces, at
/// most 8 pawns, and no more pieces beyond the starting set than pawns are missing.
fn check_material(board: &Board) -> Result<(), PositionError> {
    for color in [Color::White, Color::Black] {
        let count = board.color_bits(color).count_ones();
        if count > 16 {
            return Err(PositionError::TooManyPieces { color, count });
        }
        let pawns = board.bits(color, Piece::Pawn).count_ones();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let beyond =
            |piece, start: u32| board.bits(color, piece).count_ones().saturating_sub(start);
        let promoted = beyond(Piece::Queen, 1)
            + beyond(Piece::Rook, 2)
            + beyond(Piece::Bishop, 2)
            + beyond(Piece::Knight, 2);
        if promoted > 8 - pawns {
            return Err(PositionError::TooManyPromoted {
                color,
                promoted,
                pawns,
            });
        }
    }
    Ok(())
}

/// The rights of a castling field of `KQkq` letters, each at most once, whose kings and rooks
/// stand on standard chess's squares (a rook in the corner is the outermost one X-FEN means):
/// the common case, read without building any squares. `None` for anything else.
fn standard_castling(text: &str, board: &Board) -> Option<CastlingRights> {
    let mut rights = CastlingRights::NONE;
    for byte in text.bytes() {
        let (color, kingside) = match byte {
            b'K' => (Color::White, true),
            b'Q' => (Color::White, false),
            b'k' => (Color::Black, true),
            b'q' => (Color::Black, false),
            _ => return None,
        };
        let rook = rook_corner(color, kingside);
        let king = Square::from_index(rook.index() as u32 & !7 | 4);
        let standard = board.bits(color, Piece::King) & king.bit() != 0
            && board.bits(color, Piece::Rook) & rook.bit() != 0;
        if !standard || rights.has(color, kingside) {
            return None;
        }
        rights = rights.with(color, kingside);
    }
    Some(rights)
}

/// The rights and where their kings and rooks stand. Each colour's letters are read on
/// their own, so each side may have its own Chess960 back rank: `K`/`Q` name the outermost
/// rook on that side of the king (X-FEN), a file letter the rook on that file (Shredder-FEN
/// and X-FEN's inner rooks). The squares are Chess960's if any differ from standard
/// chess's, or if a file letter is used.
fn parse_castling(
    text: &str,
    board: &Board,
) -> Result<(CastlingRights, CastlingGeometry), FenError> {
    let mut rights = CastlingRights::NONE;
    let mut geometry = CastlingGeometry::STANDARD;
    // The letter that gave each right, for the same-side error.
    let mut given = [' '; 4];
    let mut file_letters = false;
    if text == "-" {
        return Ok((rights, geometry));
    }
    if let Some(rights) = standard_castling(text, board) {
        return Ok((rights, geometry));
    }
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank: u64 = match color {
            Color::White => 0xFF,
            Color::Black => 0xFF << 56,
        };
        let base = rank.trailing_zeros();
        let king = Square::from_index(board.bits(color, Piece::King).trailing_zeros() & 63);
        let (kingside, rook_file) = match letter.to_ascii_lowercase() {
            side @ ('k' | 'q') => {
                let kingside = side == 'k';
                if rank & king.bit() == 0 {
                    return Err(PositionError::CastlingKing {
                        right: letter,
                        king,
                    }
                    .into());
                }
                let king_file = king.file() as u32;
                let rooks = (board.bits(color, Piece::Rook) >> base) as u8 as u32;
                // The outermost rook on that side of the king.
                let beyond = if kingside {
                    rooks & !((2 << king_file) - 1)
                } else {
                    rooks & ((1 << king_file) - 1)
                };
                if beyond == 0 {
                    return Err(PositionError::CastlingMismatch {
                        right: letter,
                        square: rook_corner(color, kingside),
                        missing: Piece::Rook,
                    }
                    .into());
                }
                let file = if kingside {
                    31 - beyond.leading_zeros()
                } else {
                    beyond.trailing_zeros()
                };
                (kingside, file as u8)
            }
            file @ 'a'..='h' => {
                file_letters = true;
                let file = file as u8 - b'a';
                if rank & king.bit() == 0 {
                    return Err(PositionError::CastlingKing {
                        right: letter,
                        king,
                    }
                    .into());
                }
                if file == king.file() {
                    return Err(FenError::CastlingLetter { letter });
                }
                let square = Square::from_index(base + u32::from(file));
                if board.bits(color, Piece::Rook) & square.bit() == 0 {
                    return Err(PositionError::CastlingMismatch {
                        right: letter,
                        square,
                        missing: Piece::Rook,
                    }
                    .into());
                }
                (file > king.file(), file)
            }
            _ => return Err(FenError::CastlingLetter { letter }),
        };
        let index = right_index(color, kingside);
        if rights.has(color, kingside) {
            if given[index] == letter {
                return Err(FenError::CastlingLetter { letter });
            }
            return Err(PositionError::CastlingSameSide {
                first: given[index],
                second: letter,
            }
            .into());
        }
        given[index] = letter;
        rights = rights.with(color, kingside);
        geometry = geometry.with_right(color, kingside, king.file(), rook_file);
    }
    // Here a letter named an inner or off-corner rook or a file: `standard_castling` took
    // the rest.
    let geometry = geometry.canonical(rights.bits());
    let chess960 = file_letters || geometry.is_nonstandard();
    Ok((rights, geometry.with_chess960(chess960)))
}

fn parse_ep(text: &str, board: &Board, side: Color) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let square: Square = text.parse().map_err(|_| FenError::EnPassantSyntax)?;
    // (rank of the square, direction towards the pawn that moved)
    let (rank, toward_pawn): (u8, i32) = match side {
        Color::White => (5, -8),
        Color::Black => (2, 8),
    };
    if square.rank() != rank {
        return Err(PositionError::EnPassantRank { square }.into());
    }
    let pawn = Square::from_index((square.index() as i32 + toward_pawn) as u32);
    let origin = Square::from_index((square.index() as i32 - toward_pawn) as u32);
    let pawn_there = board.bits(!side, Piece::Pawn) & pawn.bit() != 0;
    let path_empty = board.occupied_bits() & (square.bit() | origin.bit()) == 0;
    if !pawn_there || !path_empty {
        return Err(PositionError::EnPassantNoPawn { square }.into());
    }
    Ok(Some(square))
}

impl fmt::Display for Position {
    /// The FEN, with X-FEN castling: `KQkq` for the outermost rooks, a file letter only where
    /// those letters would say something else (an inner rook, or Chess960 rules on standard
    /// squares).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f, false)
    }
}

/// [`Position::shredder_fen`]: the FEN with every castling right as its rook's file.
///
/// # Examples
/// See [`Position::shredder_fen`].
#[derive(Clone, Copy, Debug)]
pub struct ShredderFen<'a>(&'a Position);

impl fmt::Display for ShredderFen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_fen(f, true)
    }
}

impl Position {
    /// The FEN with Shredder-FEN castling (each right as its rook's file: `HAha` for the
    /// standard start), which parses back as a Chess960 position.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// assert_eq!(
    ///     Position::startpos().shredder_fen().to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    /// );
    /// ```
    pub fn shredder_fen(&self) -> ShredderFen<'_> {
        ShredderFen(self)
    }

    /// The castling field: a file letter per right in Shredder-FEN (`shredder`), else X-FEN.
    fn write_castling(&self, f: &mut fmt::Formatter<'_>, shredder: bool) -> fmt::Result {
        if self.castling == CastlingRights::NONE {
            return f.write_str("-");
        }
        let geometry = self.board.castling();
        // Standard squares under Chess960 rules: `KQkq` would read back as standard chess.
        let letters_needed = shredder || (geometry.is_chess960() && !geometry.is_nonstandard());
        for (color, kingside) in [
            (Color::White, true),
            (Color::White, false),
            (Color::Black, true),
            (Color::Black, false),
        ] {
            if !self.castling.has(color, kingside) {
                continue;
            }
            let rook = geometry.rook_square(color, kingside);
            // Another rook of this colour beyond the castling one makes `K`/`Q` mean it.
            let outer_rook = self
                .board
                .pieces(color, Piece::Rook)
                .into_iter()
                .any(|other| {
                    other.rank() == rook.rank()
                        && if kingside {
                            other.file() > rook.file()
                        } else {
                            other.file() < rook.file()
                        }
                });
            let letter = if letters_needed || outer_rook {
                (b'a' + rook.file()) as char
            } else if kingside {
                'k'
            } else {
                'q'
            };
            let letter = match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            };
            write!(f, "{letter}")?;
        }
        Ok(())
    }

    /// The FEN, with Shredder-FEN castling if `shredder`, else X-FEN.
    fn write_fen(&self, f: &mut fmt::Formatter<'_>, shredder: bool) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let square = Square::from_index(rank * 8 + file);
                match self.board.piece_at(square) {
                    None => empty += 1,
                    Some((color, piece)) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let letter = piece.uci_char();
                        let letter = match color {
                            Color::White => letter.to_ascii_uppercase(),
                            Color::Black => letter,
                        };
                        write!(f, "{letter}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.side {
            Color::White => 'w',
            Color::Black => 'b',
        };
        write!(f, " {side} ")?;
        self.write_castling(f, shredder)?;
        f.write_str(" ")?;
        match self.ep_square {
            Some(square) => write!(f, "{square}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The one-pass reader gives every FEN the slow reader's position or error: well-formed
    /// FENs (which it must take itself) and each of them with one byte changed, removed or
    /// doubled (which it mostly leaves to the slow reader).
    #[test]
    fn fast_and_slow_readers_agree() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1r3k2/8/8/8/8/8/8/R4KR1 w GAb - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 17",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let replacements = b"/ 12789pPkKqQ-wb\t\nx";
        let mut fast = 0;
        let mut checked = 0;
        for fen in fens {
            let fields = fast_fields(fen).expect("a well-formed FEN takes the fast path");
            assert_eq!(fields.position(), from_fen_slow(fen), "{fen}");
            let bytes = fen.as_bytes();
            let mut variants: Vec<Vec<u8>> = Vec::new();
            for i in 0..bytes.len() {
                for &r in replacements {
                    let mut v = bytes.to_vec();
                    v[i] = r;
                    variants.push(v);
                }
                let mut removed = bytes.to_vec();
                removed.remove(i);
                variants.push(removed);
                let mut doubled = bytes.to_vec();
                doubled.insert(i, bytes[i]);
                variants.push(doubled);
            }
            for variant in variants {
                let text = String::from_utf8(variant).expect("ASCII");
                let slow = from_fen_slow(&text);
                if let Some(fields) = fast_fields(&text) {
                    fast += 1;
                    assert_eq!(fields.position(), slow, "{text:?}");
                }
                assert_eq!(Position::from_fen(&text), slow, "{text:?}");
                checked += 1;
            }
        }
        assert!(fast > 1000 && checked > 5000, "{fast} fast of {checked}");
    }
}
