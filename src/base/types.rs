//! The small value types every other module speaks: [`Square`], [`Bitboard`], [`Color`] and
//! [`Piece`].

use core::fmt;
use core::ops::{BitAnd, BitOr, BitXor, Not};

/// A square of the board, `a1 = 0`, `b1 = 1`, …, `h8 = 63`.
///
/// # Examples
/// ```
/// use constmove::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4.index(), 28);
/// assert_eq!(e4.to_string(), "e4");
/// assert_eq!(format!("{e4:?}"), "e4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (`0..64`), if it is one.
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!(Square::new(63).unwrap().to_string(), "h8");
    /// assert!(Square::new(64).is_none());
    /// ```
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (`0 = a`) and `rank` (`0 = rank 1`), both `0..8`.
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!(Square::from_file_rank(4, 3).unwrap().to_string(), "e4");
    /// ```
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 64 (masked to stay in range).
    #[inline(always)]
    pub(crate) const fn from_index(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The index `0..64`.
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!(Square::new(9).unwrap().index(), 9);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file `0..8` (`0 = a`).
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!("c7".parse::<Square>().unwrap().file(), 2);
    /// ```
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The rank `0..8` (`0 = rank 1`).
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!("c7".parse::<Square>().unwrap().rank(), 6);
    /// ```
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The one-square bitboard.
    ///
    /// # Examples
    /// ```
    /// use constmove::Square;
    /// assert_eq!(Square::new(3).unwrap().bitboard().0, 8);
    /// ```
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    #[inline(always)]
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

// Debug in chess notation too: `e3` reads better than an index in assertion failures.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that does not parse.
///
/// # Examples
/// ```
/// use constmove::{ParseSquareError, Square};
/// assert_eq!("i9".parse::<Square>(), Err(ParseSquareError));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square name (expected a file a-h and a rank 1-8, like e4)")
    }
}

impl core::error::Error for ParseSquareError {}

impl core::str::FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                Ok(Square((rank - b'1') * 8 + (file - b'a')))
            }
            _ => Err(ParseSquareError),
        }
    }
}

/// A set of squares, one bit per square (bit `n` is [`Square`] index `n`).
///
/// # Examples
/// ```
/// use constmove::{Bitboard, Square};
/// let set = Bitboard(0b101);
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.into_iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "c1"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    ///
    /// # Examples
    /// ```
    /// use constmove::Bitboard;
    /// assert_eq!(Bitboard::EMPTY.count(), 0);
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The number of squares in the set.
    ///
    /// # Examples
    /// ```
    /// use constmove::Bitboard;
    /// assert_eq!(Bitboard(0xFF).count(), 8);
    /// ```
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `square` is in the set.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Bitboard, Square};
    /// assert!(Bitboard(1).contains(Square::new(0).unwrap()));
    /// ```
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// Whether the set is empty.
    ///
    /// # Examples
    /// ```
    /// use constmove::Bitboard;
    /// assert!(Bitboard::EMPTY.is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates the squares of a [`Bitboard`] from a1 towards h8.
///
/// # Examples
/// ```
/// use constmove::Bitboard;
/// let mut squares = Bitboard(0x8000_0000_0000_0001).into_iter();
/// assert_eq!(squares.next().unwrap().to_string(), "a1");
/// assert_eq!(squares.next().unwrap().to_string(), "h8");
/// assert!(squares.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::from_index(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(square)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// A side.
///
/// # Examples
/// ```
/// use constmove::Color;
/// assert_eq!(!Color::White, Color::Black);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// White, index 0.
    White = 0,
    /// Black, index 1.
    Black = 1,
}

impl Color {
    /// `White` when `white` is true.
    ///
    /// # Examples
    /// ```
    /// use constmove::Color;
    /// assert_eq!(Color::from_white(false), Color::Black);
    /// ```
    #[inline(always)]
    pub const fn from_white(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece, without colour.
///
/// # Examples
/// ```
/// use constmove::Piece;
/// assert_eq!(Piece::Queen.uci_char(), 'q');
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// Pawn, index 0.
    Pawn = 0,
    /// Knight, index 1.
    Knight = 1,
    /// Bishop, index 2.
    Bishop = 2,
    /// Rook, index 3.
    Rook = 3,
    /// Queen, index 4.
    Queen = 4,
    /// King, index 5.
    King = 5,
}

impl Piece {
    /// All six kinds in index order.
    ///
    /// # Examples
    /// ```
    /// use constmove::Piece;
    /// assert_eq!(Piece::ALL[Piece::Rook as usize], Piece::Rook);
    /// ```
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// The pieces a pawn may promote to, queen first.
    ///
    /// # Examples
    /// ```
    /// use constmove::Piece;
    /// assert_eq!(Piece::PROMOTIONS.len(), 4);
    /// ```
    pub const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    /// The lower-case letter used by FEN (for Black) and by UCI promotions.
    ///
    /// # Examples
    /// ```
    /// use constmove::Piece;
    /// assert_eq!(Piece::Knight.uci_char(), 'n');
    /// ```
    pub const fn uci_char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// The kind named by a lower-case letter, the inverse of [`Piece::uci_char`].
    ///
    /// # Examples
    /// ```
    /// use constmove::Piece;
    /// assert_eq!(Piece::from_char('r'), Some(Piece::Rook));
    /// assert_eq!(Piece::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        Some(match c {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        })
    }
}

/// The squares of a bitboard as indices, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct BitIter(pub(crate) u64);

impl Iterator for BitIter {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(square)
    }
}
