//! [`Board`]: the twelve piece bitboards plus the occupancies, and copy-make for every kind of
//! move. The mover's colour is a plain argument: callers pass a constant (`!C::WHITE`) and the
//! `#[inline(always)]` bodies fold into straight-line code with no branch on colour.

use crate::base::castling::{CastleSquares, CastlingGeometry};
use crate::base::geometry::en_passant_victim;
use crate::base::types::{Bitboard, Color, Piece, Square};

/// Piece placement: one bitboard per colour and kind, and one per colour (the occupancies;
/// all pieces is their union, one `or` away). The 112 bytes are aligned to a 64-byte cache
/// line, so a board fills exactly two lines and copy-make never loads or stores across a
/// line boundary: with 64-byte vector moves (AVX-512) an unaligned board made every copy
/// split, and cost position 3 a quarter of its speed. The other 16 bytes of the second line
/// hold where the castling kings and rooks start (standard chess's squares unless a Chess960
/// position says otherwise), so every copy carries them at no cost.
///
/// `Board` is `Copy`; making a move builds a new board ([`Board::after_move`] and friends)
/// and never changes the old one. Boards compare equal when their pieces and castling
/// squares agree; a Chess960 board made by the `after_*` methods keeps the squares of rights
/// its move ended, which [`crate::Position::play`] resets, so compare such boards piece by
/// piece ([`Board::pieces`]).
///
/// # Examples
/// ```
/// use constmove::{Color, Piece, Position};
/// let board = *Position::startpos().board();
/// assert_eq!(board.pieces(Color::White, Piece::Pawn).count(), 8);
/// assert_eq!(board.occupied().count(), 32);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(align(64))]
pub struct Board {
    pieces: [[u64; 6]; 2],
    colors: [u64; 2],
    castling: CastlingGeometry,
}

// Two cache lines: the 112 bytes of bitboards and the 16 of the castling squares.
static_assertions::assert_eq_size!(Board, [u64; 16]);
static_assertions::const_assert_eq!(core::mem::align_of::<Board>(), 64);

impl Board {
    /// The empty board.
    ///
    /// # Examples
    /// ```
    /// use constmove::Board;
    /// assert!(Board::empty().occupied().is_empty());
    /// ```
    pub const fn empty() -> Board {
        Board {
            pieces: [[0; 6]; 2],
            colors: [0; 2],
            castling: CastlingGeometry::STANDARD,
        }
    }

    /// Where the castles start and what they need.
    #[inline(always)]
    pub(crate) const fn castling(&self) -> &CastlingGeometry {
        &self.castling
    }

    /// Sets where the castles start (in canonical form for the position's rights).
    pub(crate) fn set_castling(&mut self, castling: CastlingGeometry) {
        self.castling = castling;
    }

    /// The squares holding `color`'s pieces of kind `piece`.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let kings = Position::startpos().board().pieces(Color::Black, Piece::King);
    /// assert_eq!(kings.into_iter().next().unwrap().to_string(), "e8");
    /// ```
    #[inline(always)]
    pub const fn pieces(&self, color: Color, piece: Piece) -> Bitboard {
        Bitboard(self.pieces[color as usize][piece as usize])
    }

    /// The squares holding any of `color`'s pieces.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// assert_eq!(Position::startpos().board().color(Color::White).count(), 16);
    /// ```
    #[inline(always)]
    pub const fn color(&self, color: Color) -> Bitboard {
        Bitboard(self.colors[color as usize])
    }

    /// The occupied squares.
    ///
    /// # Examples
    /// ```
    /// use constmove::Board;
    /// assert_eq!(Board::empty().occupied().count(), 0);
    /// ```
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.occupied_bits())
    }

    /// The colour and kind of the piece on `square`, if any.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let board = *Position::startpos().board();
    /// assert_eq!(board.piece_at("d8".parse().unwrap()), Some((Color::Black, Piece::Queen)));
    /// assert_eq!(board.piece_at("d4".parse().unwrap()), None);
    /// ```
    pub fn piece_at(&self, square: Square) -> Option<(Color, Piece)> {
        [Color::White, Color::Black]
            .into_iter()
            .find_map(|color| Some((color, self.piece_of(color, square)?)))
    }

    /// The kind of `color`'s piece on `square`, if one stands there: one colour's boards
    /// only, commonest kinds first (the engine path asks it for every move played).
    #[inline(always)]
    pub(crate) fn piece_of(&self, color: Color, square: Square) -> Option<Piece> {
        let bit = square.bit();
        if self.colors[color as usize] & bit == 0 {
            return None;
        }
        let pieces = &self.pieces[color as usize];
        Some(if pieces[Piece::Pawn as usize] & bit != 0 {
            Piece::Pawn
        } else if pieces[Piece::Knight as usize] & bit != 0 {
            Piece::Knight
        } else if pieces[Piece::Bishop as usize] & bit != 0 {
            Piece::Bishop
        } else if pieces[Piece::Rook as usize] & bit != 0 {
            Piece::Rook
        } else if pieces[Piece::Queen as usize] & bit != 0 {
            Piece::Queen
        } else {
            Piece::King
        })
    }

    /// Puts a piece on an empty `square` (used while building a board, e.g. from FEN).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Board, Color, Piece};
    /// let mut board = Board::empty();
    /// board.put("e1".parse().unwrap(), Color::White, Piece::King);
    /// assert_eq!(board.occupied().count(), 1);
    /// ```
    pub fn put(&mut self, square: Square, color: Color, piece: Piece) {
        self.remove(square);
        self.pieces[color as usize][piece as usize] |= square.bit();
        self.colors[color as usize] |= square.bit();
    }

    /// Empties `square`.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Position, Square};
    /// let mut board = *Position::startpos().board();
    /// board.remove("a1".parse().unwrap());
    /// assert_eq!(board.occupied().count(), 31);
    /// ```
    pub fn remove(&mut self, square: Square) {
        let keep = !square.bit();
        for side in &mut self.pieces {
            for bits in side {
                *bits &= keep;
            }
        }
        self.colors[0] &= keep;
        self.colors[1] &= keep;
    }

    /// Raw bits of one colour's pieces of one kind (hot-path accessor).
    #[inline(always)]
    pub(crate) const fn bits(&self, color: Color, piece: Piece) -> u64 {
        self.pieces[color as usize][piece as usize]
    }

    /// Raw bits of one colour.
    #[inline(always)]
    pub(crate) const fn color_bits(&self, color: Color) -> u64 {
        self.colors[color as usize]
    }

    /// Raw occupancy bits.
    #[inline(always)]
    pub(crate) const fn occupied_bits(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// Flips `bits` on `color`'s `piece` board and colour board: puts the piece on empty
    /// squares there, or takes it off squares where it stands.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, color: Color, piece: Piece, bits: u64) {
        self.pieces[color as usize][piece as usize] ^= bits;
        self.colors[color as usize] ^= bits;
    }

    /// Removes whatever the side `victim` has on `to` (branch-free: clearing empty bits is
    /// cheaper than asking which piece stands there). Kings are never captured.
    #[inline(always)]
    fn capture(&mut self, victim: Color, to: u64) {
        let keep = !to;
        let v = victim as usize;
        self.pieces[v][Piece::Pawn as usize] &= keep;
        self.pieces[v][Piece::Knight as usize] &= keep;
        self.pieces[v][Piece::Bishop as usize] &= keep;
        self.pieces[v][Piece::Rook as usize] &= keep;
        self.pieces[v][Piece::Queen as usize] &= keep;
        self.colors[v] &= keep;
    }

    /// The board after `mover`'s `piece` goes from `from` to `to`, capturing whatever stands
    /// there. Covers king, knight, bishop, rook, queen and plain pawn moves.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let board = Position::startpos().board()
    ///     .after_move(Color::White, Piece::Pawn, "e2".parse().unwrap(), "e4".parse().unwrap());
    /// assert!(board.pieces(Color::White, Piece::Pawn).contains("e4".parse().unwrap()));
    /// ```
    #[inline(always)]
    pub fn after_move(&self, mover: Color, piece: Piece, from: Square, to: Square) -> Board {
        let mut next = *self;
        next.apply_move(mover, piece, from, to);
        next
    }

    /// [`Board::after_move`] in place: lets a caller copy the parent straight into the
    /// child's final home and change it there.
    #[inline(always)]
    pub(crate) fn apply_move(&mut self, mover: Color, piece: Piece, from: Square, to: Square) {
        let (from, to) = (from.bit(), to.bit());
        // Most moves are quiet: skipping the clearing for them beats clearing branch-free.
        if self.colors[!mover as usize] & to != 0 {
            self.capture(!mover, to);
        }
        self.pieces[mover as usize][piece as usize] ^= from | to;
        self.colors[mover as usize] ^= from | to;
    }

    /// The board after a pawn of `mover` moves `from` → `to` and becomes `promotion`.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let pos: Position = "7k/P7/8/8/8/8/8/K7 w - - 0 1".parse().unwrap();
    /// let board = pos.board().after_promotion(
    ///     Color::White, "a7".parse().unwrap(), "a8".parse().unwrap(), Piece::Queen);
    /// assert_eq!(board.pieces(Color::White, Piece::Queen).count(), 1);
    /// assert_eq!(board.pieces(Color::White, Piece::Pawn).count(), 0);
    /// ```
    #[inline(always)]
    pub fn after_promotion(
        &self,
        mover: Color,
        from: Square,
        to: Square,
        promotion: Piece,
    ) -> Board {
        let mut next = *self;
        next.apply_promotion(mover, from, to, promotion);
        next
    }

    /// [`Board::after_promotion`] in place.
    #[inline(always)]
    pub(crate) fn apply_promotion(
        &mut self,
        mover: Color,
        from: Square,
        to: Square,
        promotion: Piece,
    ) {
        let (from, to) = (from.bit(), to.bit());
        self.capture(!mover, to);
        self.pieces[mover as usize][Piece::Pawn as usize] ^= from;
        self.pieces[mover as usize][promotion as usize] ^= to;
        self.colors[mover as usize] ^= from | to;
    }

    /// The board after a pawn of `mover` takes en passant `from` → `to`.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let pos: Position = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2".parse().unwrap();
    /// let board = pos.board().after_en_passant(
    ///     Color::White, "d5".parse().unwrap(), "e6".parse().unwrap());
    /// assert_eq!(board.pieces(Color::Black, Piece::Pawn).count(), 0);
    /// ```
    #[inline(always)]
    pub fn after_en_passant(&self, mover: Color, from: Square, to: Square) -> Board {
        let mut next = *self;
        next.apply_en_passant(mover, from, to);
        next
    }

    /// [`Board::after_en_passant`] in place.
    #[inline(always)]
    pub(crate) fn apply_en_passant(&mut self, mover: Color, from: Square, to: Square) {
        let victim = en_passant_victim(mover, to).bit();
        let (from, to) = (from.bit(), to.bit());
        self.pieces[mover as usize][Piece::Pawn as usize] ^= from | to;
        self.colors[mover as usize] ^= from | to;
        self.pieces[!mover as usize][Piece::Pawn as usize] ^= victim;
        self.colors[!mover as usize] ^= victim;
    }

    /// The board after `mover` castles with the king going `king_from` → `king_to` (or, in
    /// Chess960 rules, `king_from` → its rook's square): the king lands on g or c, the rook
    /// on f or d, from wherever the position's castling squares say they start.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Piece, Position};
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    /// let board = pos.board().after_castle(
    ///     Color::White, "e1".parse().unwrap(), "g1".parse().unwrap());
    /// assert!(board.pieces(Color::White, Piece::Rook).contains("f1".parse().unwrap()));
    /// ```
    #[inline(always)]
    pub fn after_castle(&self, mover: Color, king_from: Square, king_to: Square) -> Board {
        let mut next = *self;
        next.apply_castle(mover, king_from, king_to);
        next
    }

    /// [`Board::after_castle`] in place; where the king and the rook went, for callers that
    /// keep a hash.
    #[inline(always)]
    pub(crate) fn apply_castle(
        &mut self,
        mover: Color,
        king_from: Square,
        target: Square,
    ) -> CastleSquares {
        let squares = self.castling.castle_squares(mover, king_from, target);
        // Exclusive or, not or: in Chess960 the king may stay put, land on the rook's square
        // or swap with it.
        let king = king_from.bit() ^ squares.king_to.bit();
        let rook = squares.rook_from.bit() ^ squares.rook_to.bit();
        self.pieces[mover as usize][Piece::King as usize] ^= king;
        self.pieces[mover as usize][Piece::Rook as usize] ^= rook;
        self.colors[mover as usize] ^= king ^ rook;
        squares
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of `pieces` (colour, kind, square name) with White's king-side castle made by
    /// the king on file `king_file` and the rook on file `rook_file`.
    fn chess960_board(pieces: &[(Color, Piece, &str)], king_file: u8, rook_file: u8) -> Board {
        let mut board = Board::empty();
        for &(color, piece, square) in pieces {
            board.toggle(color, piece, square.parse::<Square>().unwrap().bit());
        }
        let castling = CastlingGeometry::STANDARD
            .with_right(Color::White, true, king_file, rook_file)
            .canonical(0b0001)
            .with_chess960(true);
        board.set_castling(castling);
        board
    }

    fn squares(board: &Board, piece: Piece) -> Vec<String> {
        let bits = board.pieces(Color::White, piece);
        bits.into_iter().map(|square| square.to_string()).collect()
    }

    #[test]
    fn castles_whose_king_and_rook_overlap() {
        use Color::{Black, White};
        use Piece::{King, Rook};
        // (king, rook, king-takes-rook target): they swap; the king stays; the rook lands
        // on the king's square; the king lands on the rook's square.
        for (king, rook, king_file, rook_file) in [
            ("f1", "g1", 5, 6),
            ("g1", "h1", 6, 7),
            ("f1", "h1", 5, 7),
            ("e1", "g1", 4, 6),
        ] {
            let board = chess960_board(
                &[
                    (White, King, king),
                    (White, Rook, rook),
                    (Black, King, "e8"),
                ],
                king_file,
                rook_file,
            );
            let after = board.after_castle(White, king.parse().unwrap(), rook.parse().unwrap());
            assert_eq!(squares(&after, King), ["g1"], "{king} {rook}");
            assert_eq!(squares(&after, Rook), ["f1"], "{king} {rook}");
            let occupied: Vec<String> = after
                .color(White)
                .into_iter()
                .map(|s| s.to_string())
                .collect();
            assert_eq!(occupied, ["f1", "g1"], "{king} {rook}");
            assert_eq!(after.color(Black), board.color(Black));
        }
    }
}
