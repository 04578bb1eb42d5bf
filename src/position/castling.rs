//! Castling rights: which of the four castles each side may still make. The squares the king
//! and rooks use live in `base::geometry`; Chess960's own squares will live here.

use crate::base::types::Color;

/// Castling rights as four flags.
///
/// # Examples
/// ```
/// use constmove::{CastlingRights, Color, Position};
/// let rights = Position::startpos().castling_rights();
/// assert!(rights.has(Color::Black, true) && rights.has(Color::White, false));
/// assert_eq!(CastlingRights::NONE.to_string(), "-");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Color};
    /// assert!(!CastlingRights::NONE.has(Color::Black, false));
    /// ```
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    ///
    /// # Examples
    /// ```
    /// use constmove::CastlingRights;
    /// assert_eq!(CastlingRights::ALL.to_string(), "KQkq");
    /// ```
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    const fn bit(color: Color, kingside: bool) -> u8 {
        1 << (2 * color as u8 + if kingside { 0 } else { 1 })
    }

    /// Whether `color` may still castle on the king side (`kingside`) or queen side.
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Color};
    /// assert!(CastlingRights::ALL.has(Color::White, true));
    /// assert!(!CastlingRights::NONE.has(Color::White, true));
    /// ```
    pub const fn has(self, color: Color, kingside: bool) -> bool {
        self.0 & Self::bit(color, kingside) != 0
    }

    /// These rights with one right added.
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Color};
    /// let rights = CastlingRights::NONE.with(Color::Black, false);
    /// assert_eq!(rights.to_string(), "q");
    /// ```
    pub const fn with(self, color: Color, kingside: bool) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, kingside))
    }

    /// These rights with one right removed.
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Color};
    /// assert_eq!(CastlingRights::ALL.without(Color::White, true).to_string(), "Qkq");
    /// ```
    pub const fn without(self, color: Color, kingside: bool) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, kingside))
    }

    /// The four flags as bits: 1 White king side, 2 White queen side, 4 Black king side,
    /// 8 Black queen side.
    ///
    /// # Examples
    /// ```
    /// use constmove::CastlingRights;
    /// assert_eq!(CastlingRights::ALL.bits(), 15);
    /// ```
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The rights whose bits (as [`CastlingRights::bits`] numbers them) are set in `bits`;
    /// higher bits are ignored.
    ///
    /// # Examples
    /// ```
    /// use constmove::CastlingRights;
    /// assert_eq!(CastlingRights::from_bits(0b0101).to_string(), "Kk");
    /// assert_eq!(CastlingRights::from_bits(0xFF), CastlingRights::ALL);
    /// ```
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 0b1111)
    }
}

impl core::fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (color, kingside, letter) in [
            (Color::White, true, 'K'),
            (Color::White, false, 'Q'),
            (Color::Black, true, 'k'),
            (Color::Black, false, 'q'),
        ] {
            if self.has(color, kingside) {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}
