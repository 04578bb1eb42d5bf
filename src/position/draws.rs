//! Draw rules. What the position alone decides is a method of [`Position`]: dead positions
//! by material ([`Position::is_insufficient_material`]) and the fifty-move rule
//! ([`Position::is_fifty_move_draw`]); [`Position::outcome`] reports both. Repetition needs
//! the positions before this one, which a [`Position`] does not keep: [`History`] (with the
//! `std` feature) holds the caller's Zobrist keys and answers [`History::is_repetition`].

use crate::base::types::{Color, Piece};
use crate::position::Position;

/// The dark squares (a1, c1, …, b2, …): `a1` is bit 0.
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

impl Position {
    /// Whether neither side can ever checkmate, whatever is played, judged by the material
    /// alone as python-chess and shakmaty judge it. Exactly these positions:
    ///
    /// - king against king;
    /// - king and one knight against a lone king (either side's knight);
    /// - kings and bishops only, any number on either side, all on squares of one colour
    ///   (king and bishop against king, or against king and bishop on the same colour).
    ///
    /// Any pawn, rook or queen, two knights, a knight with a bishop, or bishops on both
    /// colours make a mate possible (with the loser's help, as a selfmate), so those
    /// positions are never counted, even when neither side could force a win. A position
    /// dead for other reasons (locked pawns) is not detected.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let is_dead = |fen: &str| fen.parse::<Position>().unwrap().is_insufficient_material();
    /// assert!(is_dead("8/8/4k3/8/8/3K4/8/8 w - - 0 1")); // K vs K
    /// assert!(is_dead("8/8/4k3/8/8/3K4/6N1/8 b - - 0 1")); // K+N vs K
    /// assert!(is_dead("8/8/4k3/8/8/3K4/6B1/8 w - - 0 1")); // K+B vs K
    /// assert!(is_dead("8/3b4/4k3/8/8/3K4/6B1/8 w - - 0 1")); // bishops on light squares
    /// assert!(!is_dead("8/2b5/4k3/8/8/3K4/6B1/8 w - - 0 1")); // bishops on both colours
    /// assert!(!is_dead("8/8/4k3/8/8/3K4/5NN1/8 w - - 0 1")); // two knights
    /// assert!(!is_dead("8/8/4k3/8/8/3K4/6P1/8 w - - 0 1")); // a pawn
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        let both =
            |piece| self.board.bits(Color::White, piece) | self.board.bits(Color::Black, piece);
        if both(Piece::Pawn) | both(Piece::Rook) | both(Piece::Queen) != 0 {
            return false;
        }
        let (knights, bishops) = (both(Piece::Knight), both(Piece::Bishop));
        if knights != 0 {
            // A lone knight: with any other piece besides the kings the loser could block
            // its own king and be mated.
            return bishops == 0 && knights.count_ones() == 1;
        }
        bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0
    }

    /// Whether the fifty-move rule applies: a hundred half-moves (the halfmove clock) without
    /// a capture or a pawn move, and the side to move is not checkmated. A mate given on the
    /// hundredth half-move stands. A stalemate at that point is a draw either way and counts.
    ///
    /// Under FIDE rules the fifty-move draw is claimed by a player (it is automatic only at
    /// seventy-five moves); engines and game servers treat it as reached, and so does
    /// [`Position::outcome`].
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// let quiet: Position = "8/8/4k3/8/8/3K4/8/R7 w - - 100 80".parse().unwrap();
    /// assert!(quiet.is_fifty_move_draw());
    /// let one_short: Position = "8/8/4k3/8/8/3K4/8/R7 w - - 99 80".parse().unwrap();
    /// assert!(!one_short.is_fifty_move_draw());
    /// // Mated by the hundredth half-move: the mate counts, not the draw.
    /// let mated: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80".parse().unwrap();
    /// assert!(!mated.is_fifty_move_draw());
    /// ```
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100 && !self.is_checkmate()
    }
}

/// The Zobrist keys of the positions before the current one, for finding repetitions:
/// one key per ply, oldest first, as [`Position::zobrist`] gives them. Push the key of the
/// position a move is played from, pop it when the move is taken back (the search path);
/// the current position is not in the history, it is the one asked about.
///
/// [`History::is_repetition`] looks back only over the last
/// [`Position::halfmove_clock`] plies, to the last capture or pawn move: no position before
/// that can recur. Only plies with the same side to move are compared, so every ply needs
/// its key, a null move ([`Position::null_move`]) included.
///
/// The keys are kept in a `Vec` (hence the `alloc` feature, which `std` includes): a game has no length limit, and
/// a search that takes back a capture needs the keys from before it again. Reserve room
/// with [`History::with_capacity`] and pushes within it never allocate.
///
/// Same position, same key: a key holds the pieces, the side to move, the castling rights
/// and an en-passant file when a pawn of the side to move stands beside the pawn that just
/// advanced two squares (Polyglot's rule, as FEN parsing and play record the square). FIDE
/// counts the en-passant right only when the capture is legal, so in the rare position
/// where the adjacent pawn is pinned (or the capture leaves the king in check), the
/// position right after the double push is not matched with its later recurrences: a
/// repetition is then found one occurrence late, never one too early.
///
/// # Examples
/// Threefold repetition: both knights out and back, twice.
/// ```
/// use constmove::{History, Position};
/// let mut pos = Position::startpos();
/// let mut history = History::new();
/// for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
///     assert!(!history.is_repetition(&pos, 3));
///     history.push(pos.zobrist());
///     pos.play(pos.parse_uci(uci).unwrap()).unwrap();
/// }
/// assert_eq!(history.repetitions(&pos), 3);
/// assert!(history.is_repetition(&pos, 3));
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct History {
    keys: alloc::vec::Vec<u64>,
}

#[cfg(feature = "alloc")]
impl History {
    /// An empty history, for a game that starts at the position to be asked about.
    ///
    /// # Examples
    /// ```
    /// use constmove::{History, Position};
    /// let history = History::new();
    /// assert!(history.is_empty());
    /// assert_eq!(history.repetitions(&Position::startpos()), 1);
    /// ```
    pub const fn new() -> History {
        History {
            keys: alloc::vec::Vec::new(),
        }
    }

    /// An empty history with room for `plies` keys before it allocates again.
    ///
    /// # Examples
    /// ```
    /// use constmove::History;
    /// let history = History::with_capacity(1024);
    /// assert!(history.is_empty());
    /// ```
    pub fn with_capacity(plies: usize) -> History {
        History {
            keys: alloc::vec::Vec::with_capacity(plies),
        }
    }

    /// Records the key of the position a move is about to be played from.
    ///
    /// # Examples
    /// ```
    /// use constmove::{History, Position};
    /// let mut pos = Position::startpos();
    /// let mut history = History::new();
    /// history.push(pos.zobrist());
    /// pos.play(pos.parse_uci("e2e4").unwrap()).unwrap();
    /// assert_eq!(history.len(), 1);
    /// ```
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    /// Removes and returns the last key, when its move is taken back.
    ///
    /// # Examples
    /// ```
    /// use constmove::{History, Position};
    /// let mut history = History::new();
    /// history.push(Position::startpos().zobrist());
    /// assert_eq!(history.pop(), Some(Position::startpos().zobrist()));
    /// assert_eq!(history.pop(), None);
    /// ```
    pub fn pop(&mut self) -> Option<u64> {
        self.keys.pop()
    }

    /// How many keys it holds: plies before the current position.
    ///
    /// # Examples
    /// ```
    /// use constmove::History;
    /// let mut history = History::new();
    /// history.push(7);
    /// assert_eq!(history.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds no key.
    ///
    /// # Examples
    /// ```
    /// use constmove::History;
    /// assert!(History::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Forgets every key (a new game), keeping the allocation.
    ///
    /// # Examples
    /// ```
    /// use constmove::History;
    /// let mut history = History::new();
    /// history.push(7);
    /// history.clear();
    /// assert!(history.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.keys.clear();
    }

    /// The keys, oldest first.
    ///
    /// # Examples
    /// ```
    /// use constmove::History;
    /// let mut history = History::new();
    /// history.push(1);
    /// history.push(2);
    /// assert_eq!(history.keys(), &[1, 2]);
    /// ```
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How often `position` has occurred since the last capture or pawn move, itself
    /// included (so at least 1): the keys of its last [`Position::halfmove_clock`] plies
    /// with the same side to move that equal its key.
    ///
    /// # Examples
    /// ```
    /// use constmove::{History, Position};
    /// let mut pos = Position::startpos();
    /// let mut history = History::new();
    /// for uci in ["b1c3", "b8c6", "c3b1", "c6b8"] {
    ///     history.push(pos.zobrist());
    ///     pos.play(pos.parse_uci(uci).unwrap()).unwrap();
    /// }
    /// assert_eq!(history.repetitions(&pos), 2);
    /// ```
    pub fn repetitions(&self, position: &Position) -> usize {
        1 + self.earlier(position).count()
    }

    /// Whether `position` has occurred at least `times` times since the last capture or
    /// pawn move, itself included: `3` for the threefold-repetition rule, `2` for the first
    /// recurrence, which engines usually score as a draw inside the search. Stops looking
    /// as soon as it has found enough.
    ///
    /// # Examples
    /// ```
    /// use constmove::{History, Position};
    /// let mut pos = Position::startpos();
    /// let mut history = History::new();
    /// for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     history.push(pos.zobrist());
    ///     pos.play(pos.parse_uci(uci).unwrap()).unwrap();
    /// }
    /// assert!(history.is_repetition(&pos, 2));
    /// assert!(!history.is_repetition(&pos, 3));
    /// ```
    pub fn is_repetition(&self, position: &Position, times: usize) -> bool {
        times <= 1 || self.earlier(position).nth(times - 2).is_some()
    }

    /// The earlier occurrences of `position` in the window: every second key back from the
    /// one two plies ago, as far as the halfmove clock reaches.
    fn earlier<'a>(&'a self, position: &Position) -> impl Iterator<Item = &'a u64> + 'a {
        let window = (position.halfmove_clock() as usize).min(self.keys.len());
        let key = position.zobrist();
        self.keys[self.keys.len() - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(move |&&earlier| earlier == key)
    }
}
