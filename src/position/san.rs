//! Standard Algebraic Notation both ways: [`Position::write_san`] and [`Position::san`] write
//! a legal move as SAN (`Nbd7`, `exd5`, `e8=Q+`, `O-O`, `Qh4#`), [`Position::parse_san`]
//! reads SAN back into a [`Move`], with a typed [`SanError`] (and its inline [`SanText`] and
//! [`SanCandidates`]) when the text is empty, not SAN, matches no legal move or matches
//! several. Both sides ask the move generator, never a second set of move rules: the
//! candidates are [`Position::legal_moves`], check and mate are judged on the played child.
//!
//! Castling is written `O-O` / `O-O-O` from the [`MoveKind::Castle`] move's squares: king
//! side when the destination is towards the h-file, which also holds for Chess960's
//! king-takes-rook squares.

use crate::base::chess_move::{Move, MoveKind};
use crate::base::types::{Piece, Square};
use crate::position::Position;
use core::fmt;

/// The SAN letter of a piece; pawns have none.
fn piece_letter(piece: Piece) -> Option<char> {
    match piece {
        Piece::Pawn => None,
        Piece::Knight => Some('N'),
        Piece::Bishop => Some('B'),
        Piece::Rook => Some('R'),
        Piece::Queen => Some('Q'),
        Piece::King => Some('K'),
    }
}

/// The file letter `a`..`h` of `square`.
fn file_char(square: Square) -> char {
    (b'a' + square.file()) as char
}

/// The rank digit `1`..`8` of `square`.
fn rank_char(square: Square) -> char {
    (b'1' + square.rank()) as char
}

impl Position {
    /// Writes the legal move `mv` in Standard Algebraic Notation to `out`, without
    /// allocating (the `no_std` form of [`Position::san`]): the piece letter (none for a
    /// pawn), the origin file, rank or both only when another piece of the same kind could
    /// also legally reach the square (file first, then rank, then both), `x` for a capture
    /// (a pawn's starts with its file: `exd5`, en passant included), `=Q` for a promotion,
    /// `O-O` / `O-O-O` for castling, and `+` for check or `#` for mate.
    ///
    /// **Precondition:** `mv` is legal here. An illegal move (not in
    /// [`Position::legal_moves`]) is written as its UCI text (`e2e5`); nothing panics.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let pos = Position::startpos();
    /// let mut text = String::new();
    /// pos.write_san(pos.parse_uci("g1f3").unwrap(), &mut text).unwrap();
    /// assert_eq!(text, "Nf3");
    /// ```
    pub fn write_san(&self, mv: Move, out: &mut impl fmt::Write) -> fmt::Result {
        let (from, to) = (mv.from(), mv.to());
        let piece = match self.board.piece_at(from) {
            Some((color, piece)) if color == self.side => piece,
            _ => return write!(out, "{mv}"),
        };
        // One pass over the legal moves: is `mv` among them, and where do the other pieces
        // of its kind that also reach `to` stand (they decide the disambiguation).
        let mut legal = false;
        let (mut rivals, mut same_file, mut same_rank) = (false, false, false);
        for &other in self.legal_moves().iter() {
            if other == mv {
                legal = true;
            } else if other.to() == to
                && other.from() != from
                && other.kind() != MoveKind::Castle
                && self.board.piece_at(other.from()).map(|(_, p)| p) == Some(piece)
            {
                rivals = true;
                same_file |= other.from().file() == from.file();
                same_rank |= other.from().rank() == from.rank();
            }
        }
        if !legal {
            return write!(out, "{mv}");
        }
        let capture =
            self.board.color_bits(!self.side) & to.bit() != 0 || mv.kind() == MoveKind::EnPassant;
        match (mv.kind(), piece_letter(piece)) {
            (MoveKind::Castle, _) => out.write_str(if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            })?,
            (_, None) => {
                if capture {
                    write!(out, "{}x", file_char(from))?;
                }
                write!(out, "{to}")?;
                if let Some(promotion) = mv.kind().promotion().and_then(piece_letter) {
                    write!(out, "={promotion}")?;
                }
            }
            (_, Some(letter)) => {
                out.write_char(letter)?;
                // The file when it tells the pieces apart, else the rank, else both.
                if rivals && (!same_file || same_rank) {
                    out.write_char(file_char(from))?;
                }
                if rivals && same_file {
                    out.write_char(rank_char(from))?;
                }
                if capture {
                    out.write_char('x')?;
                }
                write!(out, "{to}")?;
            }
        }
        let mut child = self.clone();
        child.play_unchecked(mv);
        if child.is_check() {
            let mate = child.legal_moves().is_empty();
            out.write_char(if mate { '#' } else { '+' })?;
        }
        Ok(())
    }

    /// The legal move `mv` in Standard Algebraic Notation, as [`Position::write_san`]
    /// writes it (same precondition: an illegal move comes back as its UCI text).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// // Both rooks reach d1: the file tells them apart.
    /// let pos: Position = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.san(pos.parse_uci("a1d1").unwrap()), "Rad1");
    /// let mate: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
    /// assert_eq!(mate.san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
    /// ```
    #[cfg(feature = "alloc")]
    pub fn san(&self, mv: Move) -> alloc::string::String {
        let mut text = alloc::string::String::new();
        // Writing to a String cannot fail.
        let _ = self.write_san(mv, &mut text);
        text
    }

    /// The legal move that the SAN `text` names in this position; the position is not
    /// changed. Besides SAN as [`Position::san`] writes it, this accepts what is common in
    /// the wild when it still names one move:
    /// - a missing, extra or wrong `+` / `#`, and trailing `!` / `?` annotations (all
    ///   ignored), and whitespace around the move;
    /// - `0-0` / `0-0-0` for castling;
    /// - a promotion without `=` (`e8Q`) or with a lower-case letter (`e8=q`);
    /// - more disambiguation than needed (`Ng1f3`, `Rd1d2`);
    /// - a capture without `x` (`Nf3` taking on f3, `ed5`). A pawn's move without a file
    ///   is a push (`d5` never takes on d5); an `x` on a move that captures nothing is
    ///   rejected, as it describes another position.
    ///
    /// # Errors
    /// [`SanError::Empty`] for empty text, [`SanError::Malformed`] for text that is not SAN,
    /// [`SanError::Illegal`] when no legal move matches, and [`SanError::Ambiguous`] with
    /// the matching moves when several do (a promotion without its piece matches four).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::san::SanError;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_san("Nf3").unwrap().to_string(), "g1f3");
    /// assert_eq!(pos.parse_san("e4!?").unwrap().to_string(), "e2e4");
    /// assert!(matches!(pos.parse_san("Nf4"), Err(SanError::Illegal { .. })));
    /// assert!(matches!(pos.parse_san("Zf3"), Err(SanError::Malformed { .. })));
    ///
    /// // Knights on b1 and f3 both reach d2.
    /// let pos: Position = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1".parse().unwrap();
    /// let err = pos.parse_san("Nd2").unwrap_err();
    /// assert_eq!(err.to_string(), "ambiguous SAN move \"Nd2\": it matches b1d2 and f3d2");
    /// assert_eq!(pos.parse_san("Nbd2").unwrap().to_string(), "b1d2");
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SanError::Empty);
        }
        let saved = SanText::new(text);
        let pattern = SanPattern::parse(text).ok_or(SanError::Malformed { text: saved })?;
        let mut found = SanCandidates::new();
        for &mv in self.legal_moves().iter() {
            if self.matches(&pattern, mv) {
                found.push(mv);
            }
        }
        match found.total {
            0 => Err(SanError::Illegal { text: saved }),
            1 => Ok(found.moves[0]),
            _ => Err(SanError::Ambiguous {
                text: saved,
                candidates: found,
            }),
        }
    }

    /// Whether the legal move `mv` is one that `pattern` describes.
    fn matches(&self, pattern: &SanPattern, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let castle = mv.kind() == MoveKind::Castle;
        match *pattern {
            SanPattern::Castle { kingside } => castle && (to.file() > from.file()) == kingside,
            SanPattern::Move {
                piece,
                from_file,
                from_rank,
                capture,
                to: target,
                promotion,
            } => {
                let takes = self.board.color_bits(!self.side) & to.bit() != 0
                    || mv.kind() == MoveKind::EnPassant;
                // Castling is only ever O-O / O-O-O, never a king move to g1.
                !castle
                    && to == target
                    && self.board.piece_at(from).map(|(_, p)| p) == Some(piece)
                    && from_file.is_none_or(|file| from.file() == file)
                    && from_rank.is_none_or(|rank| from.rank() == rank)
                    // A pawn named without its file pushes: `d5` never takes on d5.
                    && (piece != Piece::Pawn || from_file.is_some() || from.file() == to.file())
                    && (!capture || takes)
                    && promotion.is_none_or(|p| mv.kind().promotion() == Some(p))
            }
        }
    }
}

/// What a SAN text asks for, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug)]
enum SanPattern {
    /// `O-O` (king side) or `O-O-O`.
    Castle { kingside: bool },
    /// Any other move.
    Move {
        piece: Piece,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        capture: bool,
        to: Square,
        promotion: Option<Piece>,
    },
}

impl SanPattern {
    /// Reads trimmed, non-empty text; `None` when it is not SAN.
    fn parse(text: &str) -> Option<SanPattern> {
        // Check, mate and annotation marks say nothing about which move is meant.
        let body = text.trim_end_matches(['+', '#', '!', '?']).as_bytes();
        match body {
            b"O-O" | b"0-0" => return Some(SanPattern::Castle { kingside: true }),
            b"O-O-O" | b"0-0-0" => return Some(SanPattern::Castle { kingside: false }),
            _ => {}
        }
        // Read from the back: [promotion], the destination, then what comes before it.
        let (body, promotion) = match body {
            [rest @ .., b'=', letter] | [rest @ .., letter] => match promotion_piece(*letter) {
                Some(piece) => (rest, Some(piece)),
                None if body.ends_with(b"=") => return None,
                None => (body, None),
            },
            [] => return None,
        };
        let [head @ .., file @ b'a'..=b'h', rank @ b'1'..=b'8'] = body else {
            return None;
        };
        let to = Square::from_file_rank(file - b'a', rank - b'1')?;
        let (piece, head) = head
            .split_first()
            .and_then(|(&letter, rest)| Some((piece_from_letter(letter)?, rest)))
            .unwrap_or((Piece::Pawn, head));
        // Only pawns promote.
        if promotion.is_some() && piece != Piece::Pawn {
            return None;
        }
        let (head, capture) = match head {
            [rest @ .., b'x'] => (rest, true),
            _ => (head, false),
        };
        let (from_file, from_rank) = match *head {
            [] => (None, None),
            [file @ b'a'..=b'h'] => (Some(file - b'a'), None),
            [rank @ b'1'..=b'8'] => (None, Some(rank - b'1')),
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => (Some(file - b'a'), Some(rank - b'1')),
            _ => return None,
        };
        Some(SanPattern::Move {
            piece,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        })
    }
}

/// The piece a SAN piece letter names (upper case only: `b` is the b-file).
fn piece_from_letter(letter: u8) -> Option<Piece> {
    match letter {
        b'N' => Some(Piece::Knight),
        b'B' => Some(Piece::Bishop),
        b'R' => Some(Piece::Rook),
        b'Q' => Some(Piece::Queen),
        b'K' => Some(Piece::King),
        _ => None,
    }
}

/// The piece a promotion letter names, either case (a pawn never promotes to a king).
fn promotion_piece(letter: u8) -> Option<Piece> {
    match piece_from_letter(letter.to_ascii_uppercase()) {
        Some(Piece::King) | None => None,
        piece => piece,
    }
}

/// How many bytes of a rejected text a [`SanError`] keeps: SAN moves are at most a dozen.
const TEXT_CAPACITY: usize = 22;

/// The text of a rejected SAN move, kept inline in the error (no allocation, so errors work
/// without `std`): its first 22 bytes, cut at a character boundary, with surrounding
/// whitespace trimmed.
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::san::SanError;
/// let Err(SanError::Illegal { text }) = Position::startpos().parse_san(" Ke2 ") else {
///     panic!("Ke2 is not legal in the start position");
/// };
/// assert_eq!(text.as_str(), "Ke2");
/// assert!(!text.is_truncated());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SanText {
    bytes: [u8; TEXT_CAPACITY],
    len: u8,
    truncated: bool,
}

impl SanText {
    /// Keeps the longest prefix of `text` that fits and ends on a character boundary.
    fn new(text: &str) -> SanText {
        let mut len = text.len().min(TEXT_CAPACITY);
        while !text.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; TEXT_CAPACITY];
        bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        SanText {
            bytes,
            len: len as u8,
            truncated: len < text.len(),
        }
    }

    /// The text kept (all of it unless [`SanText::is_truncated`]).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::san::SanError;
    /// let err = Position::startpos().parse_san("e5").unwrap_err();
    /// assert!(matches!(err, SanError::Illegal { text } if text.as_str() == "e5"));
    /// ```
    pub fn as_str(&self) -> &str {
        // The bytes are a prefix of a str cut at a character boundary; the fallback is
        // never taken.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether the text was longer than what is kept.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::san::SanError;
    /// let err = Position::startpos().parse_san("a move far too long to be SAN").unwrap_err();
    /// assert!(matches!(err, SanError::Malformed { text } if text.is_truncated()));
    /// ```
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Display for SanText {
    /// The text as a quoted string with control characters escaped, `…` marking a cut.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}", self.as_str().escape_debug())?;
        if self.truncated {
            f.write_str("…")?;
        }
        f.write_str("\"")
    }
}

/// How many matching moves a [`SanCandidates`] holds: the most a SAN text can match (eight
/// pieces of one kind reach a square along eight lines or eight knight jumps; a pawn's
/// move without its promotion piece matches four).
const CANDIDATE_CAPACITY: usize = 8;

/// The legal moves an ambiguous SAN text matched, in generation order, inline (no
/// allocation). Derefs to `[Move]`.
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::san::SanError;
/// let pos: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
/// let Err(SanError::Ambiguous { candidates, .. }) = pos.parse_san("a8") else {
///     panic!("a promotion needs its piece");
/// };
/// assert_eq!(candidates.len(), 4);
/// assert!(candidates.iter().any(|mv| mv.to_string() == "a7a8q"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SanCandidates {
    moves: [Move; CANDIDATE_CAPACITY],
    len: u8,
    total: u8,
}

impl SanCandidates {
    fn new() -> SanCandidates {
        SanCandidates {
            moves: [Move::new(
                Square::from_index(0),
                Square::from_index(0),
                MoveKind::Normal,
            ); CANDIDATE_CAPACITY],
            len: 0,
            total: 0,
        }
    }

    /// Keeps `mv` if there is room, and counts it either way.
    fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(usize::from(self.len)) {
            *slot = mv;
            self.len += 1;
        }
        self.total = self.total.saturating_add(1);
    }

    /// How many legal moves matched: the length, unless more matched than are kept (which
    /// SAN text cannot cause; see the source).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::san::SanError;
    /// let pos: Position = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1".parse().unwrap();
    /// let Err(SanError::Ambiguous { candidates, .. }) = pos.parse_san("Nd2") else {
    ///     panic!("two knights reach d2");
    /// };
    /// assert_eq!(candidates.total(), 2);
    /// ```
    pub fn total(&self) -> usize {
        usize::from(self.total)
    }
}

impl core::ops::Deref for SanCandidates {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }
}

/// Why a SAN move was not accepted by [`Position::parse_san`]. Each variant but `Empty`
/// keeps the text, which `Display` quotes.
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::san::SanError;
/// let pos = Position::startpos();
/// assert_eq!(pos.parse_san("  "), Err(SanError::Empty));
/// let err = pos.parse_san("Bb5").unwrap_err();
/// assert!(matches!(err, SanError::Illegal { .. }));
/// assert_eq!(err.to_string(), "illegal SAN move \"Bb5\": no legal move in this position matches it");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SanError {
    /// The text is empty or only whitespace.
    Empty,
    /// Not SAN: not `[piece][file][rank][x]square[=promotion]` nor `O-O` / `O-O-O`
    /// (before any `+`, `#`, `!`, `?`).
    Malformed {
        /// The text given.
        text: SanText,
    },
    /// Well formed, but no legal move in the position matches it.
    Illegal {
        /// The text given.
        text: SanText,
    },
    /// Several legal moves match: the text needs the origin's file or rank, or the
    /// promotion piece.
    Ambiguous {
        /// The text given.
        text: SanText,
        /// The moves it matches.
        candidates: SanCandidates,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Empty => f.write_str("empty SAN move"),
            SanError::Malformed { text } => write!(
                f,
                "malformed SAN move {text}: expected a piece letter (K, Q, R, B, N; none for a \
                 pawn), an optional origin file and rank, x for a capture, the destination \
                 square and =Q for a promotion, or O-O / O-O-O"
            ),
            SanError::Illegal { text } => write!(
                f,
                "illegal SAN move {text}: no legal move in this position matches it"
            ),
            SanError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous SAN move {text}: it matches ")?;
                for (index, mv) in candidates.iter().enumerate() {
                    let separator = match index {
                        0 => "",
                        _ if index + 1 == candidates.len() => " and ",
                        _ => ", ",
                    };
                    write!(f, "{separator}{mv}")?;
                }
                let unlisted = candidates.total() - candidates.len();
                if unlisted > 0 {
                    write!(f, " and {unlisted} more")?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for SanError {}
