//! FEN out: `Display` for [`Position`] (X-FEN castling) and [`ShredderFen`].

use crate::base::types::{Color, Piece, Square};
use crate::position::Position;
use crate::position::castling::CastlingRights;
use core::fmt;

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
