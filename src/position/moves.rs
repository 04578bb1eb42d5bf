//! Moves as text and in lists: UCI text, the fixed-capacity [`MoveList`] and
//! [`MoveCounts`], and the visitor that collects a position's legal moves.

use crate::base::board::Board;
pub(crate) use crate::base::chess_move::{Move, MoveKind};
use crate::base::status::StatusFlags;
use crate::base::types::{Bitboard, Piece, Square};
use crate::generator::movegen::Masked;
use crate::generator::visitor::Visitor;
use core::fmt;

/// Why a UCI move was not accepted.
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::uci::UciMoveError;
/// let pos = Position::startpos();
/// assert!(matches!(pos.parse_uci("e2e5"), Err(UciMoveError::Illegal { .. })));
/// assert!(matches!(pos.parse_uci("e2"), Err(UciMoveError::Malformed { .. })));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[promotion]`, like `e2e4` or `e7e8q`.
    Malformed {
        /// Length of the text, for the message.
        len: usize,
    },
    /// Well formed, but not a legal move in the position.
    Illegal {
        /// The origin square given.
        from: Square,
        /// The destination square given.
        to: Square,
        /// The promotion piece given, if any.
        promotion: Option<Piece>,
    },
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMoveError::Malformed { len } => write!(
                f,
                "malformed UCI move ({len} characters; expected from, to and an optional \
                 promotion letter, like e2e4 or e7e8q)"
            ),
            UciMoveError::Illegal {
                from,
                to,
                promotion,
            } => {
                write!(f, "illegal move {from}{to}")?;
                if let Some(piece) = promotion {
                    write!(f, "{}", piece.uci_char())?;
                }
                f.write_str(" in this position")
            }
        }
    }
}

impl core::error::Error for UciMoveError {}

/// [`crate::Position::play`] was given a move that is not legal in the position (it is left
/// unchanged).
///
/// # Examples
/// ```
/// use constmove::{Move, MoveKind, PlayError, Position};
/// let mut pos = Position::startpos();
/// let e2e5 = Move::new("e2".parse().unwrap(), "e5".parse().unwrap(), MoveKind::Normal);
/// assert_eq!(pos.play(e2e5), Err(PlayError { mv: e2e5 }));
/// assert_eq!(pos.play(e2e5).unwrap_err().to_string(), "illegal move e2e5 in this position");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlayError {
    /// The move that was refused.
    pub mv: Move,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in this position", self.mv)
    }
}

impl core::error::Error for PlayError {}

/// Splits UCI text into squares and an optional promotion piece.
pub(crate) fn parse_uci_parts(text: &str) -> Result<(Square, Square, Option<Piece>), UciMoveError> {
    let malformed = UciMoveError::Malformed { len: text.len() };
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(malformed);
    }
    let from = text[0..2].parse().map_err(|_| malformed)?;
    let to = text[2..4].parse().map_err(|_| malformed)?;
    let promotion = match text[4..].chars().next() {
        None => None,
        Some(c) => match Piece::from_char(c) {
            Some(p @ (Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)) => Some(p),
            _ => return Err(malformed),
        },
    };
    Ok((from, to, promotion))
}

/// The most legal moves a chess position can have (proven for positions reachable in a
/// game), as Petrović's 1964 composition below has them; no position [`crate::Position`]
/// accepts is known to have more (see [`MoveList::CAPACITY`]).
///
/// # Examples
/// ```
/// use constmove::{MAX_MOVES, MoveList, Position};
/// let pos: Position = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1".parse().unwrap();
/// assert_eq!(pos.legal_moves().len(), MAX_MOVES);
/// assert!(MAX_MOVES <= MoveList::CAPACITY);
/// ```
pub const MAX_MOVES: usize = 218;

// Room in the fixed-capacity lists. Every position has material a game can have: FEN parsing
// refuses more than 16 pieces or 8 pawns a side, or more pieces beyond the starting set than
// missing pawns (`check_material` in fen.rs), and moves keep within that. No such position is
// known with more than MAX_MOVES = 218 legal moves, and 218 is proven the maximum for
// positions reachable in a game (a 2024 computer proof, lichess.org/@/Tobs40); unreachable
// placements within the bound are not covered by a proof, so 256, shakmaty's room too, leaves
// 38 to spare, and a push beyond it is dropped, never a panic.
const CAPACITY: usize = 256;

/// A fixed-capacity list of moves: no allocation, [`MoveList::CAPACITY`] moves in 520 bytes,
/// so an engine can keep one per ply. Derefs to `[Move]` mutably, so move ordering sorts
/// and swaps in place (`sort_by_key`, `swap`, `select_nth_unstable_by_key`); `for mv in
/// &list` iterates, and the list can be consumed by value.
///
/// # Examples
/// ```
/// use constmove::{MoveList, Position};
/// let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
/// let mut moves = pos.legal_moves();
/// assert_eq!(moves.len(), 7);
/// // Captures first: a stable order an engine refines with its own keys.
/// moves.sort_by_key(|mv| !pos.board().occupied().contains(mv.to()));
/// assert_eq!(moves[0].to_string(), "e4d5");
/// moves.retain(|mv| mv.from().to_string() == "e1");
/// assert_eq!(moves.len(), 5);
/// for mv in &moves {
///     assert_eq!(mv.from().to_string(), "e1");
/// }
/// assert_eq!(core::mem::size_of::<MoveList>(), 520);
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

static_assertions::const_assert!(core::mem::size_of::<MoveList>() <= 520);
static_assertions::const_assert!(MAX_MOVES <= CAPACITY);

impl MoveList {
    /// How many moves the list holds: more than any position [`crate::Position`] accepts is
    /// known to have ([`MAX_MOVES`]).
    ///
    /// # Examples
    /// ```
    /// use constmove::MoveList;
    /// assert_eq!(MoveList::CAPACITY, 256);
    /// ```
    pub const CAPACITY: usize = CAPACITY;

    /// An empty list.
    ///
    /// # Examples
    /// ```
    /// use constmove::MoveList;
    /// assert!(MoveList::new().is_empty());
    /// ```
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); CAPACITY],
            len: 0,
        }
    }

    /// Appends a move. The capacity exceeds the legal moves of every position known (see
    /// [`MoveList::CAPACITY`]), so the generator drops none; a push beyond it is ignored.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveKind, MoveList};
    /// let mut list = MoveList::new();
    /// list.push(Move::new("a2".parse().unwrap(), "a3".parse().unwrap(), MoveKind::Normal));
    /// assert_eq!(list.len(), 1);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// The list of the moves `write` puts at the start of the array, of which it returns
    /// how many.
    #[inline(always)]
    pub(crate) fn written(write: impl FnOnce(&mut [Move; CAPACITY]) -> usize) -> MoveList {
        let mut list = MoveList::new();
        list.len = write(&mut list.moves).min(CAPACITY);
        list
    }

    /// Keeps only the moves for which `keep` is true, in their order.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveKind, Position};
    /// let mut moves = Position::startpos().legal_moves();
    /// moves.retain(|mv| mv.kind() == MoveKind::DoublePush);
    /// assert_eq!(moves.len(), 8);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for index in 0..self.len {
            let mv = self.moves[index];
            if keep(&mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Removes every move.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let mut moves = Position::startpos().legal_moves();
    /// moves.clear();
    /// assert!(moves.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut MoveList {
    type Item = &'a mut Move;
    type IntoIter = core::slice::IterMut<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// The moves by value, in list order.
///
/// # Examples
/// ```
/// use constmove::Position;
/// let moves: Vec<String> = Position::startpos()
///     .legal_moves()
///     .into_iter()
///     .map(|mv| mv.to_string())
///     .collect();
/// assert_eq!(moves.len(), 20);
/// ```
impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = core::iter::Take<core::array::IntoIter<Move, CAPACITY>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(self.len)
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Which legal moves to generate: those starting on some squares and landing on others,
/// noisy ones (captures, en passant, promotions) and quiet ones (every other move, castling
/// included) each with their own landing squares. The generator reads the mask as it goes:
/// pieces no wanted move can start from, and king squares no wanted move can reach, are
/// never looked at, so [`MoveMask::NOISY`] costs a fraction of every move (figures in
/// `docs/PERFORMANCE.md`). Taken by [`crate::Position::legal_moves_masked`],
/// [`crate::Position::for_each_legal_masked`] and [`Generator::children_masked`](super::walk::Generator::children_masked);
/// the moves come in the order the unmasked call gives them.
///
/// # Examples
/// ```
/// use constmove::{MoveMask, Piece, Position};
/// let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
///     .parse()
///     .unwrap();
/// assert_eq!(pos.legal_moves_masked(MoveMask::NOISY).len(), 8);
/// assert_eq!(pos.legal_moves_masked(MoveMask::QUIET).len(), 40);
/// // The knights' moves, and the captures among them.
/// let knights = MoveMask::ALL.starting_on(pos.board().pieces(pos.side_to_move(), Piece::Knight));
/// assert_eq!(pos.legal_moves_masked(knights).len(), 11);
/// assert_eq!(pos.legal_moves_masked(MoveMask::NOISY.starting_on(knights.origins())).len(), 3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveMask {
    origins: Bitboard,
    noisy_to: Bitboard,
    quiet_to: Bitboard,
}

impl MoveMask {
    /// Every legal move.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.legal_moves_masked(MoveMask::ALL)[..], pos.legal_moves()[..]);
    /// ```
    pub const ALL: MoveMask = MoveMask {
        origins: Bitboard(!0),
        noisy_to: Bitboard(!0),
        quiet_to: Bitboard(!0),
    };

    /// Captures (en passant included) and promotions (quiet ones included): the moves of a
    /// quiescence search.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// // Two captures, e5xd6 en passant, and a promotion push with four pieces to choose.
    /// let pos: Position = "7k/1P6/8/3pP3/2q5/1P6/8/K7 w - d6 0 2".parse().unwrap();
    /// let noisy: Vec<String> =
    ///     pos.legal_moves_masked(MoveMask::NOISY).iter().map(|mv| mv.to_string()).collect();
    /// assert_eq!(noisy, ["b3c4", "b7b8q", "b7b8r", "b7b8b", "b7b8n", "e5d6"]);
    /// ```
    pub const NOISY: MoveMask = MoveMask {
        origins: Bitboard(!0),
        noisy_to: Bitboard(!0),
        quiet_to: Bitboard(0),
    };

    /// Every move that is not noisy: steps onto empty squares, pushes that do not promote,
    /// castling.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.legal_moves_masked(MoveMask::QUIET).len(), 20);
    /// assert!(pos.legal_moves_masked(MoveMask::NOISY).is_empty());
    /// ```
    pub const QUIET: MoveMask = MoveMask {
        origins: Bitboard(!0),
        noisy_to: Bitboard(0),
        quiet_to: Bitboard(!0),
    };

    /// These moves, of those starting on `squares` only: the moves of chosen pieces.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position, Square};
    /// let g1: Square = "g1".parse().unwrap();
    /// let knight = MoveMask::ALL.starting_on(g1.bitboard());
    /// assert_eq!(Position::startpos().legal_moves_masked(knight).len(), 2);
    /// ```
    #[must_use]
    pub const fn starting_on(self, squares: Bitboard) -> MoveMask {
        MoveMask {
            origins: Bitboard(self.origins.0 & squares.0),
            ..self
        }
    }

    /// These moves, of those landing on `squares` only (castling lands where [`Move::to`]
    /// says: the king's destination, or the rook's square in Chess960 rules).
    ///
    /// # Examples
    /// Who can take on d5:
    /// ```
    /// use constmove::{MoveMask, Position, Square};
    /// let pos: Position = "4k3/8/8/3p4/4P3/2N5/8/3RK3 w - - 0 1".parse().unwrap();
    /// let d5: Square = "d5".parse().unwrap();
    /// let onto = pos.legal_moves_masked(MoveMask::ALL.landing_on(d5.bitboard()));
    /// let names: Vec<String> = onto.iter().map(|mv| mv.to_string()).collect();
    /// assert_eq!(names, ["c3d5", "d1d5", "e4d5"]);
    /// ```
    #[must_use]
    pub const fn landing_on(self, squares: Bitboard) -> MoveMask {
        MoveMask {
            noisy_to: Bitboard(self.noisy_to.0 & squares.0),
            quiet_to: Bitboard(self.quiet_to.0 & squares.0),
            ..self
        }
    }

    /// The squares the moves may start from.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Bitboard, MoveMask};
    /// assert_eq!(MoveMask::NOISY.origins(), Bitboard(!0));
    /// ```
    pub const fn origins(&self) -> Bitboard {
        self.origins
    }

    /// Whether the mask lets legal move `mv` of `position` through: what the masked
    /// generation keeps of the unmasked list.
    ///
    /// # Examples
    /// ```
    /// use constmove::{MoveMask, Position};
    /// let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
    /// let capture = pos.parse_uci("e4d5").unwrap();
    /// assert!(MoveMask::NOISY.allows(&pos, capture));
    /// assert!(!MoveMask::QUIET.allows(&pos, capture));
    /// ```
    pub fn allows(&self, position: &crate::position::Position, mv: Move) -> bool {
        let noisy = match mv.kind() {
            MoveKind::EnPassant | MoveKind::Promotion(_) => true,
            MoveKind::Castle => false,
            _ => position.board().occupied().contains(mv.to()),
        };
        let to = if noisy { self.noisy_to } else { self.quiet_to };
        self.origins.contains(mv.from()) && to.contains(mv.to())
    }

    /// The generator's filter.
    pub(crate) fn filter(&self) -> Masked {
        Masked {
            origins: self.origins.0,
            noisy_to: self.noisy_to.0,
            quiet_to: self.quiet_to.0,
        }
    }
}

impl Default for MoveMask {
    /// Every move, as [`MoveMask::ALL`].
    fn default() -> MoveMask {
        MoveMask::ALL
    }
}

/// Per-root-move counts from [`crate::divide`]: a fixed-capacity list of `(Move, u64)`.
///
/// # Examples
/// ```
/// use constmove::{divide, Position};
/// let counts = divide(&Position::startpos(), 1);
/// assert!(counts.iter().all(|&(_, n)| n == 1));
/// assert_eq!(counts.total(), 20);
/// ```
#[derive(Clone)]
pub struct MoveCounts {
    entries: [(Move, u64); CAPACITY],
    len: usize,
}

impl MoveCounts {
    /// An empty list.
    ///
    /// # Examples
    /// ```
    /// use constmove::MoveCounts;
    /// assert_eq!(MoveCounts::new().total(), 0);
    /// ```
    pub const fn new() -> MoveCounts {
        MoveCounts {
            entries: [(Move(0), 0); CAPACITY],
            len: 0,
        }
    }

    /// Appends a count (ignored beyond the capacity, as [`MoveList::push`]).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Move, MoveCounts, MoveKind};
    /// let mut counts = MoveCounts::new();
    /// counts.push(Move::new("a2".parse().unwrap(), "a3".parse().unwrap(), MoveKind::Normal), 5);
    /// assert_eq!(counts.total(), 5);
    /// ```
    pub fn push(&mut self, mv: Move, count: u64) {
        if let Some(slot) = self.entries.get_mut(self.len) {
            *slot = (mv, count);
            self.len += 1;
        }
    }

    /// The sum of the counts.
    ///
    /// # Examples
    /// ```
    /// use constmove::{divide, Position};
    /// assert_eq!(divide(&Position::startpos(), 2).total(), 400);
    /// ```
    pub fn total(&self) -> u64 {
        self.iter().map(|&(_, n)| n).sum()
    }
}

impl Default for MoveCounts {
    fn default() -> MoveCounts {
        MoveCounts::new()
    }
}

impl core::ops::Deref for MoveCounts {
    type Target = [(Move, u64)];
    fn deref(&self) -> &[(Move, u64)] {
        &self.entries[..self.len]
    }
}

impl fmt::Debug for MoveCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Turns the visitor's calls into [`Move`]s for a closure: behind
/// [`crate::Position::legal_moves`] and [`crate::Position::for_each_legal`].
pub(crate) struct EachMove<F>(pub(crate) F);

impl<F: FnMut(Move)> EachMove<F> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Square, kind: MoveKind) {
        (self.0)(Move::new(from, to, kind));
    }
}

impl<F: FnMut(Move)> Visitor for EachMove<F> {
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Castle);
    }
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::DoublePush);
    }
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::EnPassant);
    }
    #[inline(always)]
    fn promotion<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square, piece: Piece) {
        self.add(from, to, MoveKind::Promotion(piece));
    }
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, _: &Board, from: Square, to: Square) {
        self.add(from, to, MoveKind::Normal);
    }
}
