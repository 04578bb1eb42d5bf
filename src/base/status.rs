//! The compile-time status of a position: side to move, "an en-passant pawn exists", and the
//! four castling rights, as the const parameters of [`Status`]. Generic code takes
//! `S: StatusFlags` and reads the flags as associated consts, the successors as associated
//! types; stable Rust cannot compute `Status<{ !W }, …>` itself, so two impls (one per side to
//! move) spell every transition out.

use static_assertions::assert_type_eq_all;

/// Where the castling rights start in a status index ([`StatusFlags::INDEX`]): bits 2 to 5,
/// in the order of `castling::right_index`.
pub(crate) const FIRST_RIGHT: u32 = 2;

/// The en-passant bit of a status index ([`StatusFlags::INDEX`]).
pub(crate) const EP_BIT: u8 = 0b10;

/// The status of a position as a type: `WHITE` to move, an `EP` pawn that can be taken en
/// passant exists, and White's/Black's king-side (`WK`, `BK`) and queen-side (`WQ`, `BQ`)
/// castling rights.
///
/// # Examples
/// ```
/// use constmove::walk::{Status, StatusFlags};
/// type Start = Status<true, false, true, true, true, true>;
/// assert!(Start::WHITE && Start::OUR_K && !Start::EP);
/// // After 1. e4 Black is to move and an en-passant pawn exists.
/// type AfterE4 = <Start as StatusFlags>::FlipSetEp;
/// assert!(!AfterE4::WHITE && AfterE4::EP && AfterE4::THEIR_Q);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status<
    const WHITE: bool,
    const EP: bool,
    const WK: bool,
    const WQ: bool,
    const BK: bool,
    const BQ: bool,
>;

/// What generic code knows about a [`Status`]: the flags as consts and the transitions as
/// types. Only the 64 `Status` types implement it.
///
/// # Examples
/// ```
/// use constmove::walk::{Status, StatusFlags};
/// type S = Status<false, false, true, false, true, true>;
/// // Black moves the h8 rook: their own king-side right goes, then the side flips.
/// type Child = <<S as StatusFlags>::ClearOurK as StatusFlags>::Flip;
/// assert_eq!(Child::INDEX, Status::<true, false, true, false, false, true>::INDEX);
/// ```
pub trait StatusFlags: Copy + Default + 'static {
    /// White is to move.
    const WHITE: bool;
    /// A pawn that just advanced two squares exists (the position's EP square is meaningful).
    const EP: bool;
    /// White may castle king-side.
    const WK: bool;
    /// White may castle queen-side.
    const WQ: bool;
    /// Black may castle king-side.
    const BK: bool;
    /// Black may castle queen-side.
    const BQ: bool;
    /// The side to move may castle king-side.
    const OUR_K: bool = if Self::WHITE { Self::WK } else { Self::BK };
    /// The side to move may castle queen-side.
    const OUR_Q: bool = if Self::WHITE { Self::WQ } else { Self::BQ };
    /// The side not to move may castle king-side.
    const THEIR_K: bool = if Self::WHITE { Self::BK } else { Self::WK };
    /// The side not to move may castle queen-side.
    const THEIR_Q: bool = if Self::WHITE { Self::BQ } else { Self::WQ };
    /// The dispatch index: bit 0 white, 1 EP, 2 WK, 3 WQ, 4 BK, 5 BQ.
    const INDEX: u8 = Self::WHITE as u8
        | if Self::EP { EP_BIT } else { 0 }
        | (Self::WK as u8) << 2
        | (Self::WQ as u8) << 3
        | (Self::BK as u8) << 4
        | (Self::BQ as u8) << 5;

    /// The move is over: the other side moves, no en-passant pawn.
    type Flip: StatusFlags;
    /// A double pawn push is over: the other side moves and may capture en passant.
    type FlipSetEp: StatusFlags;
    /// The side to move loses its king-side right (its king-side rook moved).
    type ClearOurK: StatusFlags;
    /// The side to move loses its queen-side right.
    type ClearOurQ: StatusFlags;
    /// The side to move loses both rights (its king moved or it castled).
    type ClearOurBoth: StatusFlags;
    /// The opponent loses its king-side right (its rook was captured on its corner).
    type ClearTheirK: StatusFlags;
    /// The opponent loses its queen-side right.
    type ClearTheirQ: StatusFlags;
}

impl<const EP: bool, const WK: bool, const WQ: bool, const BK: bool, const BQ: bool> StatusFlags
    for Status<true, EP, WK, WQ, BK, BQ>
{
    const WHITE: bool = true;
    const EP: bool = EP;
    const WK: bool = WK;
    const WQ: bool = WQ;
    const BK: bool = BK;
    const BQ: bool = BQ;
    type Flip = Status<false, false, WK, WQ, BK, BQ>;
    type FlipSetEp = Status<false, true, WK, WQ, BK, BQ>;
    type ClearOurK = Status<true, EP, false, WQ, BK, BQ>;
    type ClearOurQ = Status<true, EP, WK, false, BK, BQ>;
    type ClearOurBoth = Status<true, EP, false, false, BK, BQ>;
    type ClearTheirK = Status<true, EP, WK, WQ, false, BQ>;
    type ClearTheirQ = Status<true, EP, WK, WQ, BK, false>;
}

impl<const EP: bool, const WK: bool, const WQ: bool, const BK: bool, const BQ: bool> StatusFlags
    for Status<false, EP, WK, WQ, BK, BQ>
{
    const WHITE: bool = false;
    const EP: bool = EP;
    const WK: bool = WK;
    const WQ: bool = WQ;
    const BK: bool = BK;
    const BQ: bool = BQ;
    type Flip = Status<true, false, WK, WQ, BK, BQ>;
    type FlipSetEp = Status<true, true, WK, WQ, BK, BQ>;
    type ClearOurK = Status<false, EP, WK, WQ, false, BQ>;
    type ClearOurQ = Status<false, EP, WK, WQ, BK, false>;
    type ClearOurBoth = Status<false, EP, WK, WQ, false, false>;
    type ClearTheirK = Status<false, EP, false, WQ, BK, BQ>;
    type ClearTheirQ = Status<false, EP, WK, false, BK, BQ>;
}

/// The status after a move that ends the turn.
pub(crate) type Flip<S> = <S as StatusFlags>::Flip;
/// The status after a double push.
pub(crate) type FlipSetEp<S> = <S as StatusFlags>::FlipSetEp;
/// See [`StatusFlags::ClearOurK`].
pub(crate) type ClearOurK<S> = <S as StatusFlags>::ClearOurK;
/// See [`StatusFlags::ClearOurQ`].
pub(crate) type ClearOurQ<S> = <S as StatusFlags>::ClearOurQ;
/// See [`StatusFlags::ClearOurBoth`].
pub(crate) type ClearOurBoth<S> = <S as StatusFlags>::ClearOurBoth;
/// See [`StatusFlags::ClearTheirK`].
pub(crate) type ClearTheirK<S> = <S as StatusFlags>::ClearTheirK;
/// See [`StatusFlags::ClearTheirQ`].
pub(crate) type ClearTheirQ<S> = <S as StatusFlags>::ClearTheirQ;

// The transition table, pinned at compile time.
type Start = Status<true, false, true, true, true, true>;
assert_type_eq_all!(Flip<Start>, Status<false, false, true, true, true, true>);
assert_type_eq_all!(FlipSetEp<Start>, Status<false, true, true, true, true, true>);
assert_type_eq_all!(Flip<FlipSetEp<Start>>, Start);
assert_type_eq_all!(ClearOurBoth<Start>, Status<true, false, false, false, true, true>);
assert_type_eq_all!(
    ClearOurQ<ClearOurK<Start>>,
    ClearOurBoth<Start>,
    ClearOurK<ClearOurQ<Start>>
);
assert_type_eq_all!(
    Flip<ClearTheirK<ClearOurK<Start>>>,
    Status<false, false, false, true, false, true>
);
assert_type_eq_all!(
    ClearOurK<Flip<Start>>,
    Status<false, false, true, true, false, true>
);
assert_type_eq_all!(
    ClearTheirQ<Flip<Start>>,
    Status<false, false, true, false, true, true>
);
assert_type_eq_all!(
    ClearOurQ<FlipSetEp<Start>>,
    Status<false, true, true, true, true, false>
);
// A status without rights is a fixed point of every clear.
type Bare = Status<false, false, false, false, false, false>;
assert_type_eq_all!(
    Bare,
    ClearOurBoth<Bare>,
    ClearTheirK<Bare>,
    ClearTheirQ<Bare>
);
static_assertions::const_assert_eq!(Start::INDEX, 0b111101);
static_assertions::const_assert_eq!(<Flip<Start> as StatusFlags>::INDEX, 0b111100);
static_assertions::assert_eq_size!(Start, ());
